"""Tests for answer_audit.analysis.inference against scipy, statsmodels and brute force."""

from __future__ import annotations

import doctest
import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import chi2_contingency, kendalltau
from statsmodels.stats.contingency_tables import (
    mcnemar as sm_mcnemar,
)
from statsmodels.stats.proportion import (
    confint_proportions_2indep,
    proportion_confint,
    proportions_ztest,
)

from answer_audit.analysis import inference
from answer_audit.analysis.inference import (
    kendall_tau_b,
    newcombe_interval,
    percentile_interval,
    share_of_best,
    stable_seed,
    two_proportion_p,
    wilson_interval,
    within_item_permutation_p,
)


@pytest.mark.parametrize(("count", "n"), [(0, 1), (0, 10), (3, 10), (10, 10), (57, 120), (1, 1000)])
def test_wilson_matches_statsmodels(count: int, n: int) -> None:
    low, high = proportion_confint(count, n, alpha=0.05, method="wilson")
    assert wilson_interval(count, n) == pytest.approx((low, high), abs=1e-12)
    low, high = proportion_confint(count, n, alpha=0.1, method="wilson")
    assert wilson_interval(count, n, alpha=0.1) == pytest.approx((low, high), abs=1e-12)


@pytest.mark.parametrize(
    "counts", [(9, 10, 5, 10), (0, 20, 0, 15), (20, 20, 3, 30), (57, 120, 71, 118)]
)
def test_newcombe_and_z_test_match_statsmodels_and_scipy(counts: tuple[int, int, int, int]) -> None:
    c1, n1, c2, n2 = counts
    low, high = confint_proportions_2indep(c1, n1, c2, n2, method="newcomb", compare="diff")
    assert newcombe_interval(*counts) == pytest.approx((low, high), abs=1e-12)
    if 0 < c1 + c2 < n1 + n2:  # statsmodels gives NaN when the pooled proportion is 0 or 1
        assert two_proportion_p(*counts) == pytest.approx(proportions_ztest([c1, c2], [n1, n2])[1])
        table = [[c1, n1 - c1], [c2, n2 - c2]]
        assert two_proportion_p(*counts) == pytest.approx(
            chi2_contingency(table, correction=False).pvalue
        )
    else:
        assert two_proportion_p(*counts) == 1.0


@given(
    st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=2, max_size=12).filter(
        lambda pairs: len({x for x, _ in pairs}) > 1 and len({y for _, y in pairs}) > 1
    )
)
def test_kendall_tau_b_matches_scipy(pairs: list[tuple[int, int]]) -> None:
    x, y = [p[0] for p in pairs], [p[1] for p in pairs]
    assert kendall_tau_b(x, y) == pytest.approx(kendalltau(x, y, variant="b").statistic)


def test_kendall_tau_b_undefined_for_a_constant_list() -> None:
    assert kendall_tau_b([1, 1, 1], [1, 2, 3]) is None
    assert kendall_tau_b([1], [1]) is None


@pytest.mark.parametrize(("only_a", "only_b"), [(7, 1), (12, 4), (3, 3), (10, 0)])
def test_within_item_permutation_p_is_exact_mcnemar_for_single_pairs(
    only_a: int, only_b: int
) -> None:
    # One row per item and level: concordant items never move, discordant ones swap with 1/2.
    agree = 20
    a = np.array([1] * only_a + [0] * only_b + [1] * agree + [0] * agree, dtype=np.int64)
    b = np.array([0] * only_a + [1] * only_b + [1] * agree + [0] * agree, dtype=np.int64)
    ones = np.ones_like(a)
    p = within_item_permutation_p(a, ones, b, ones)
    exact = sm_mcnemar([[agree, only_a], [only_b, agree]], exact=True).pvalue
    assert p == pytest.approx(exact, rel=1e-12)


def brute_force_permutation_p(items: list[tuple[int, int, int, int]]) -> float:
    """Every within-item relabelling, weighted by how many row assignments give it."""
    total_a, total_b = sum(i[1] for i in items), sum(i[3] for i in items)
    observed = abs(sum(i[0] for i in items) / total_a - sum(i[2] for i in items) / total_b)
    extreme = everything = 0
    choices = [
        [(k, math.comb(ca + cb, k) * math.comb(sa + sb - ca - cb, sa - k)) for k in range(sa + 1)]
        for ca, sa, cb, sb in items
    ]
    correct = sum(i[0] + i[2] for i in items)
    for combo in itertools.product(*choices):
        ways = math.prod(w for _, w in combo)
        under_a = sum(k for k, _ in combo)
        everything += ways
        if abs(under_a / total_a - (correct - under_a) / total_b) >= observed - 1e-12:
            extreme += ways
    return extreme / everything


@pytest.mark.parametrize(
    "items",
    [
        [(2, 3, 0, 3), (1, 2, 1, 1), (3, 3, 1, 4)],
        [(1, 1, 0, 2), (0, 2, 2, 2), (2, 2, 0, 1), (1, 3, 1, 1)],
        [(0, 0, 1, 2), (2, 2, 0, 2)],  # an item without rows at level a stays put
    ],
)
def test_within_item_permutation_p_enumerates_every_relabelling(
    items: list[tuple[int, int, int, int]],
) -> None:
    arrays = [np.array(column, dtype=np.int64) for column in zip(*items, strict=True)]
    assert within_item_permutation_p(*arrays) == pytest.approx(
        brute_force_permutation_p(items), rel=1e-9
    )


def test_within_item_permutation_p_stays_exact_for_thousands_of_items() -> None:
    # 5,000 discordant items: the distribution is built by FFT convolution.
    a = np.array([1] * 2600 + [0] * 2400, dtype=np.int64)
    ones = np.ones_like(a)
    exact = sm_mcnemar([[0, 2600], [2400, 0]], exact=True).pvalue
    assert within_item_permutation_p(a, ones, 1 - a, ones) == pytest.approx(exact, rel=1e-6)


def test_summaries_of_replicates() -> None:
    assert share_of_best(np.array([[1.0, 1.0, 0.0], [0.0, 2.0, 1.0]])).tolist() == [0.25, 0.75, 0.0]
    assert share_of_best(np.full((3, 2), np.nan)).tolist() == [0.0, 0.0]
    assert percentile_interval(np.array([np.nan, np.nan])) is None
    assert percentile_interval(np.array([np.nan, 1.0, 3.0])) == (1.05, 2.95)


def test_stable_seed_depends_on_every_part_and_nothing_else() -> None:
    def draw(*parts: str) -> float:
        return float(np.random.default_rng(stable_seed(0, *parts)).random())

    assert draw("a", "b") == draw("a", "b")
    assert len({draw("a", "b"), draw("b", "a"), draw("a"), draw("ab")}) == 4


def test_docstring_examples_hold() -> None:
    assert doctest.testmod(inference).failed == 0
