"""Tests for answer_audit.analysis.stats: hand-computed values, exact references, properties."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from answer_audit.analysis.stats import (
    accuracy,
    balanced_accuracy,
    bootstrap,
    bootstrap_accuracy,
    bootstrap_balanced_accuracy,
    error_pct,
    holm,
    mcnemar,
    mcnemar_paired,
    paired_delta_ci,
    per_class_recall,
)

# Class C is never answered correctly (0 of 2): its recall is 0 and it still counts in the mean.
TRUTH = ["A", "A", "B", "B", "B", "C", "C"]
CORRECT = [True, False, True, True, False, False, False]


def exact_mcnemar(b: int, c: int) -> float:
    """Reference: min(1, 2 * sum_{i <= min(b,c)} C(n, i) / 2^n) in exact rational arithmetic."""
    n, k = b + c, min(b, c)
    tail = Fraction(sum(math.comb(n, i) for i in range(k + 1)), 2**n)
    return float(min(Fraction(1), 2 * tail))


# --- accuracy, error_pct, per-class recall, balanced accuracy ---------------------------------


def test_accuracy_and_error_pct_on_small_table() -> None:
    assert accuracy(CORRECT) == pytest.approx(3 / 7)
    assert accuracy(np.array([True, True, False, True])) == 0.75
    assert error_pct([True, False, False, True]) == 50.0
    assert error_pct([True, True, True, False]) == 25.0
    assert error_pct([True] * 5) == 0.0


def test_all_failure_group_scores_zero_everywhere() -> None:
    truth, correct = ["x", "y", "y"], [False, False, False]
    assert accuracy(correct) == 0.0
    assert error_pct(correct) == 100.0
    assert balanced_accuracy(truth, correct) == 0.0
    assert per_class_recall(truth, correct) == {
        "x": {"correct": 0, "total": 1},
        "y": {"correct": 0, "total": 2},
    }


def test_per_class_recall_counts_include_class_nobody_got_right() -> None:
    assert per_class_recall(TRUTH, CORRECT) == {
        "A": {"correct": 1, "total": 2},
        "B": {"correct": 2, "total": 3},
        "C": {"correct": 0, "total": 2},
    }


def test_balanced_accuracy_averages_class_recalls_with_zero_class() -> None:
    # (1/2 + 2/3 + 0/2) / 3 = 7/18, unlike plain accuracy 3/7.
    assert balanced_accuracy(TRUTH, CORRECT) == pytest.approx(7 / 18, abs=1e-15)
    assert balanced_accuracy(["a", "a", "a", "b"], [True, True, True, False]) == 0.5


def test_per_class_recall_natural_order_and_str_keys() -> None:
    truth = ["b", "10", "2", "a", "1", "10"]
    result = per_class_recall(truth, [True] * 6)
    assert list(result) == ["1", "2", "10", "a", "b"]
    assert result["10"] == {"correct": 2, "total": 2}
    ints = per_class_recall(np.array([10, 2, 2]), [True, False, True])
    assert ints == {"2": {"correct": 1, "total": 2}, "10": {"correct": 1, "total": 1}}


def test_mixed_object_labels_merge_by_str() -> None:
    result = per_class_recall([1, "1", None], [True, False, True])
    assert result == {"1": {"correct": 1, "total": 2}, "None": {"correct": 1, "total": 1}}


@pytest.mark.parametrize("bad", [[], np.array([], dtype=bool)])
def test_empty_input_raises(bad: list[bool]) -> None:
    with pytest.raises(ValueError, match="empty"):
        accuracy(bad)
    with pytest.raises(ValueError, match="empty"):
        balanced_accuracy([], bad)


def test_non_boolean_and_misaligned_inputs_raise() -> None:
    with pytest.raises(ValueError, match="booleans"):
        accuracy([0.5, 1.0])
    with pytest.raises(ValueError, match="rows"):
        per_class_recall(["a"], [True, False])
    with pytest.raises(ValueError, match="aligned"):
        mcnemar_paired([True], [True, False])
    assert accuracy([1, 0, 0, 0]) == 0.25  # 0/1 integers are accepted as booleans


# --- McNemar ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("b", "c", "expected"),
    [
        (0, 0, 1.0),
        (1, 0, 1.0),
        (5, 0, 0.0625),  # 2 / 2^5
        (0, 5, 0.0625),
        (6, 1, 0.125),  # 2 * (1 + 7) / 2^7
        (10, 2, 0.03857421875),  # 2 * (1 + 12 + 66) / 2^12 = 158 / 4096
        (3, 3, 1.0),
    ],
)
def test_mcnemar_hand_values(b: int, c: int, expected: float) -> None:
    assert mcnemar(b, c) == pytest.approx(expected, rel=1e-13)


def test_mcnemar_matches_exact_fractions_at_n_200() -> None:
    for b, c in [(120, 80), (130, 70), (150, 50), (101, 99), (199, 1)]:
        assert mcnemar(b, c) == pytest.approx(exact_mcnemar(b, c), rel=1e-12)
    assert mcnemar(120, 80) < 0.01 < mcnemar(110, 90) < 0.2


def test_mcnemar_large_counts() -> None:
    assert mcnemar(5_000_001, 4_999_999) == pytest.approx(1.0, abs=1e-3)
    assert mcnemar(5_000_000, 5_000_000) == 1.0
    assert mcnemar(10**7, 0) == 0.0  # 2^(1 - 10^7) underflows; no exception
    # Independent reference for n = 10^7: log-space sum of the tail's largest terms.
    n, k = 10**7, 4_995_000
    logs = [
        math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) - n * math.log(2)
        for i in range(k - 20_000, k + 1)
    ]
    top = max(logs)
    reference = 2 * math.exp(top) * math.fsum(math.exp(x - top) for x in logs)
    assert reference == pytest.approx(0.0015671, rel=1e-4)
    assert mcnemar(n - k, k) == pytest.approx(reference, rel=1e-6)  # lgamma limits the reference


def test_mcnemar_rejects_negative_counts() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        mcnemar(-1, 3)


def test_mcnemar_paired_counts_discordant_rows() -> None:
    a = [True, True, True, False, False, True, True, True, True, True]
    b = [True, False, False, True, False, False, False, False, False, True]
    b_count, c_count, p = mcnemar_paired(a, b)
    assert (b_count, c_count) == (6, 1)
    assert p == pytest.approx(0.125, rel=1e-13)
    assert mcnemar_paired(b, a)[:2] == (1, 6)


@given(st.integers(0, 2_000_000), st.integers(0, 2_000_000))
def test_mcnemar_in_unit_interval_and_symmetric(b: int, c: int) -> None:
    p = mcnemar(b, c)
    assert 0.0 <= p <= 1.0
    assert p == mcnemar(c, b)


@given(st.integers(0, 120), st.integers(0, 120))
def test_mcnemar_equals_exact_binomial_tail(b: int, c: int) -> None:
    assert mcnemar(b, c) == pytest.approx(exact_mcnemar(b, c), rel=1e-12)


# --- Holm ---------------------------------------------------------------------------------------


def test_holm_hand_example() -> None:
    # Sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04 -> running max.
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_holm_none_and_nan_pass_through_and_do_not_count() -> None:
    result = holm([0.01, None, 0.04, math.nan, 0.03, 0.005])
    assert result[1] is None and result[3] is None
    assert [result[i] for i in (0, 2, 4, 5)] == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([None, 0.2]) == [None, 0.2]  # m = 1: unchanged
    assert holm([]) == []


def test_holm_caps_at_one_and_rejects_out_of_range() -> None:
    assert holm([0.6, 0.7]) == [1.0, 1.0]
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        holm([0.5, 1.5])


@given(st.lists(st.one_of(st.none(), st.floats(0.0, 1.0)), max_size=30))
def test_holm_properties(pvalues: list[float | None]) -> None:
    adjusted = holm(pvalues)
    assert len(adjusted) == len(pvalues)
    pairs = [(p, a) for p, a in zip(pvalues, adjusted, strict=True) if p is not None]
    assert all(a is not None and p <= a <= 1.0 for p, a in pairs)
    for p1, a1 in pairs:  # monotone: a smaller raw p never gets a larger adjusted p
        for p2, a2 in pairs:
            assert a1 is not None and a2 is not None
            assert p1 >= p2 or a1 <= a2
    assert [a is None for a in adjusted] == [p is None for p in pvalues]


# --- bootstrap ----------------------------------------------------------------------------------

RNG = np.random.default_rng(123)
BIG_CORRECT = RNG.random(2000) < 0.7
BIG_TRUTH = RNG.integers(0, 4, 2000)


def test_bootstrap_is_deterministic_per_seed() -> None:
    first = bootstrap(accuracy, BIG_CORRECT, B=200, seed=7)
    assert first == bootstrap(accuracy, BIG_CORRECT, B=200, seed=7)
    assert first != bootstrap(accuracy, BIG_CORRECT, B=200, seed=8)
    assert set(first) == {"mean", "std", "ci"}


def test_bootstrap_interval_contains_point_estimate_with_positive_std() -> None:
    point = accuracy(BIG_CORRECT)
    result = bootstrap(accuracy, BIG_CORRECT, B=300, seed=1)
    lo, hi = result["ci"]
    assert lo < point < hi
    assert result["std"] > 0
    assert result["mean"] == pytest.approx(point, abs=0.005)


def test_bootstrap_resamples_rows_jointly() -> None:
    # Identical arrays resampled with the same indices stay identical in every replicate.
    result = bootstrap(lambda a, b: float(np.mean(a == b)), BIG_TRUTH, BIG_TRUTH.copy(), B=50)
    assert result == {"mean": 1.0, "std": 0.0, "ci": [1.0, 1.0]}
    multi = bootstrap(balanced_accuracy, BIG_TRUTH, BIG_CORRECT, B=100)
    assert multi["ci"][0] < balanced_accuracy(BIG_TRUTH, BIG_CORRECT) < multi["ci"][1]


def test_bootstrap_argument_checks() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        bootstrap(accuracy, [True], B=1)
    with pytest.raises(ValueError, match="ci"):
        bootstrap_accuracy([True], ci=1.0)
    with pytest.raises(ValueError, match="aligned"):
        bootstrap(balanced_accuracy, ["a"], [True, False])
    with pytest.raises(ValueError, match="empty"):
        bootstrap(accuracy, [])


def test_bootstrap_accuracy_fast_path_matches_row_bootstrap_in_distribution() -> None:
    fast = bootstrap_accuracy(BIG_CORRECT, B=2000, seed=3)
    assert fast == bootstrap_accuracy(BIG_CORRECT, B=2000, seed=3)
    assert fast != bootstrap_accuracy(BIG_CORRECT, B=2000, seed=4)
    p = accuracy(BIG_CORRECT)
    assert fast["std"] == pytest.approx(math.sqrt(p * (1 - p) / 2000), rel=0.1)
    assert fast["ci"][0] < p < fast["ci"][1]
    slow = bootstrap(accuracy, BIG_CORRECT, B=500, seed=3)
    assert fast["std"] == pytest.approx(slow["std"], rel=0.15)


def test_bootstrap_balanced_accuracy_fast_path_matches_row_bootstrap() -> None:
    fast = bootstrap_balanced_accuracy(BIG_TRUTH, BIG_CORRECT, B=1000, seed=5)
    assert fast == bootstrap_balanced_accuracy(BIG_TRUTH, BIG_CORRECT, B=1000, seed=5)
    assert fast != bootstrap_balanced_accuracy(BIG_TRUTH, BIG_CORRECT, B=1000, seed=6)
    slow = bootstrap(balanced_accuracy, BIG_TRUTH, BIG_CORRECT, B=500, seed=5)
    point = balanced_accuracy(BIG_TRUTH, BIG_CORRECT)
    assert fast["ci"][0] < point < fast["ci"][1]
    assert fast["mean"] == pytest.approx(point, abs=0.003)
    assert fast["std"] == pytest.approx(slow["std"], rel=0.15)


def test_bootstrap_balanced_accuracy_skips_classes_missing_from_a_resample() -> None:
    # A rare always-wrong class: with it a replicate is (0 + 1) / 2, without it 1 / 1 (not 1 / 2).
    truth = ["rare"] + ["common"] * 9
    correct = [False] + [True] * 9
    result = bootstrap_balanced_accuracy(truth, correct, B=2000, seed=0)
    assert result["ci"] == [0.5, 1.0]
    assert 0.5 < result["mean"] < 1.0


def test_bootstrap_summary_is_replicate_mean_sample_std_and_linear_percentiles() -> None:
    replicates = iter([0.0, 1.0, 2.0])
    result = bootstrap(lambda _: next(replicates), [True], B=3, ci=0.5)
    # mean 1, std with ddof=1 is 1 (ddof=0 would be 0.816), 25th/75th linear percentiles.
    assert result == {"mean": 1.0, "std": 1.0, "ci": [0.5, 1.5]}


# --- paired delta -------------------------------------------------------------------------------


def test_paired_delta_ci_sign_and_determinism() -> None:
    n = 1000
    stored = np.arange(n) < 900  # 10% errors
    scheme = np.arange(n) < 800  # 20% errors, a strict superset of stored's
    lo, hi = paired_delta_ci(stored, scheme, B=1000, seed=0)
    assert 0.0 < lo < 10.0 < hi  # point estimate +10 points, clearly above 0
    assert (lo, hi) == paired_delta_ci(stored, scheme, B=1000, seed=0)
    assert (lo, hi) != paired_delta_ci(stored, scheme, B=1000, seed=1)
    assert paired_delta_ci(scheme, stored, B=1000, seed=0)[1] < 0.0  # stored worse: below 0


def test_paired_delta_ci_identical_columns_is_zero() -> None:
    same = BIG_CORRECT
    assert paired_delta_ci(same, same.copy()) == (0.0, 0.0)


def test_mcnemar_is_exactly_one_when_the_split_is_as_even_as_it_can_be() -> None:
    assert mcnemar(16, 17) == 1.0
    assert mcnemar(17, 16) == 1.0
    assert mcnemar(15, 17) < 1.0
