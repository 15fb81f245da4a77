"""Accuracy, balanced accuracy, exact McNemar, Holm, and seeded bootstrap intervals.

Every function is pure and deterministic: resampling draws from `np.random.default_rng(seed)`.
Boolean bootstraps resample cell counts (multinomial over the few distinct row types), which has
the same distribution as resampling rows and costs O(B * cells) instead of O(B * n).

Over 400 lines on purpose: one family of small pure functions, each checked against scipy or
statsmodels in tests/analysis/test_stats.py; split, the shared bootstrap helpers would travel.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable, Sequence
from typing import TypedDict

import numpy as np
import numpy.typing as npt

_NUMERIC = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_LN_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
Bools = npt.ArrayLike  # one-dimensional, bool dtype (0/1 integers are accepted too)
Labels = npt.ArrayLike | Sequence[object]  # truth classes; keyed by str(label)
_Counts = tuple[list[str], npt.NDArray[np.int64], npt.NDArray[np.int64]]
_CELLS_PER_CHUNK = 4_000_000  # bounds memory of B x cells count matrices


class BootstrapSummary(TypedDict):
    """Bootstrap distribution of a metric: its mean, std (ddof=1) and percentile interval."""

    mean: float
    std: float
    ci: list[float]


def _as_bool(correct: Bools, name: str = "correct") -> npt.NDArray[np.bool_]:
    arr = np.asarray(correct)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty: a metric needs at least one row")
    if arr.dtype == np.bool_:
        return arr
    if arr.dtype.kind in "iu" and bool(np.isin(arr, (0, 1)).all()):
        return arr.astype(np.bool_)
    raise ValueError(f"{name} must hold booleans, got dtype {arr.dtype}")


def _natural_key(label: str) -> tuple[int, float, str]:
    if _NUMERIC.fullmatch(label):
        return (0, float(label), label)
    return (1, 0.0, label)


def _class_codes(truth: Labels, n: int) -> tuple[list[str], npt.NDArray[np.intp]]:
    """Labels (as str, natural order) and each row's index into them."""
    arr = np.asarray(truth)
    if arr.ndim != 1 or arr.shape[0] != n:
        raise ValueError(f"truth must be one-dimensional with {n} rows, got shape {arr.shape}")
    try:
        uniques, inverse = np.unique(arr, return_inverse=True)
    except TypeError:  # unorderable mixed objects: compare their str forms instead
        uniques, inverse = np.unique(arr.astype(str), return_inverse=True)
    raw = [str(u) for u in uniques.tolist()]
    labels = sorted(set(raw), key=_natural_key)  # set(): 1 and "1" are one class
    position = {label: i for i, label in enumerate(labels)}
    remap = np.array([position[label] for label in raw], dtype=np.intp)
    return labels, remap[inverse.reshape(-1)]


def _class_counts(truth: Labels, correct: Bools) -> _Counts:
    ok = _as_bool(correct)
    labels, codes = _class_codes(truth, ok.shape[0])
    totals = np.bincount(codes, minlength=len(labels)).astype(np.int64)
    hits = np.bincount(codes[ok], minlength=len(labels)).astype(np.int64)
    return labels, hits, totals


def accuracy(correct: Bools) -> float:
    """Fraction of True entries; ValueError on empty or non-boolean input.

    >>> accuracy([True, False, True, True])
    0.75
    """
    return float(np.mean(_as_bool(correct)))


def error_pct(correct: Bools) -> float:
    """Error rate in percent, (1 - accuracy) * 100.

    >>> error_pct([True, False, True, True])
    25.0
    """
    return (1.0 - accuracy(correct)) * 100.0


def per_class_recall(truth: Labels, correct: Bools) -> dict[str, dict[str, int]]:
    """Correct and total counts per truth class, keyed by str(class) in natural order.

    Numeric labels sort numerically before the others, which sort lexicographically.

    >>> per_class_recall(["10", "2", "2"], [True, False, True])
    {'2': {'correct': 1, 'total': 2}, '10': {'correct': 1, 'total': 1}}
    """
    labels, hits, totals = _class_counts(truth, correct)
    return {
        label: {"correct": int(h), "total": int(t)}
        for label, h, t in zip(labels, hits.tolist(), totals.tolist(), strict=True)
    }


def balanced_accuracy(truth: Labels, correct: Bools) -> float:
    """Unweighted mean over truth classes of each class's recall (fraction correct).

    >>> balanced_accuracy(["a", "a", "a", "b"], [True, True, True, False])
    0.5
    """
    _, hits, totals = _class_counts(truth, correct)
    return float(np.mean(hits / totals))


def _stirlerr(n: int) -> float:
    """log(n!) - log(sqrt(2 pi n) (n/e)^n), accurate for every n >= 1 (Loader 2000)."""
    if n <= 15:
        return math.lgamma(n + 1.0) - (n + 0.5) * math.log(n) + n - _LN_SQRT_2PI
    nn = float(n) * n
    return (1 / 12 - (1 / 360 - (1 / 1260 - (1 / 1680 - 1 / 1188 / nn) / nn) / nn) / nn) / n


def _bd0(x: float, mean: float) -> float:
    """x log(x / mean) + mean - x without cancellation when x is near mean (Loader 2000)."""
    if abs(x - mean) < 0.1 * (x + mean):
        v = (x - mean) / (x + mean)
        s = (x - mean) * v
        ej = 2.0 * x * v
        v2, j = v * v, 1
        while True:
            ej *= v2
            s1 = s + ej / (2 * j + 1)
            if s1 == s:
                return s1
            s, j = s1, j + 1
    return x * math.log(x / mean) + mean - x


def _log_binom_half_pmf(k: int, n: int) -> float:
    """log P(X = k) for X ~ Binomial(n, 1/2), to near machine precision for any n."""
    if k in (0, n):
        return -n * math.log(2.0)
    half = n / 2.0
    lc = _stirlerr(n) - _stirlerr(k) - _stirlerr(n - k) - _bd0(k, half) - _bd0(n - k, half)
    return lc - _LN_SQRT_2PI - 0.5 * (math.log(k) + math.log1p(-k / n))


def mcnemar(b: int, c: int) -> float:
    """Exact two-sided McNemar p-value: min(1, 2 P(X <= min(b, c))), X ~ Binomial(b + c, 1/2).

    b and c are the discordant counts (A right and B wrong, and the reverse); 1.0 when both are 0.
    The tail is summed relative to its largest term, so it stays exact to ~1e-13 up to 10^7+.

    >>> mcnemar(5, 0)
    0.0625
    """
    if b < 0 or c < 0:
        raise ValueError(f"discordant counts must be non-negative, got b={b}, c={c}")
    n, k = b + c, min(b, c)
    if 2 * k + 1 >= n:  # n == 0, or the lower tail holds at least half the mass (exactly 1/2
        return 1.0  # when n is odd and k = (n - 1) / 2; summing would give 0.9999999999999996)
    # P(X = i - 1) / P(X = i) = i / (n - i + 1) <= 1 below the mode: terms shrink as i falls.
    total, term, i = 1.0, 1.0, k
    while i > 0:
        term *= i / (n - i + 1)
        total += term
        if term < total * 1e-17:
            break
        i -= 1
    log_p = math.log(2.0) + _log_binom_half_pmf(k, n) + math.log(total)
    return min(1.0, math.exp(log_p))


def mcnemar_paired(a_correct: Bools, b_correct: Bools) -> tuple[int, int, float]:
    """Discordant counts (A-only right, B-only right) and their exact McNemar p-value.

    >>> mcnemar_paired([True, True, False], [False, False, False])
    (2, 0, 0.5)
    """
    a, bb = _as_bool(a_correct, "a_correct"), _as_bool(b_correct, "b_correct")
    _same_length(a, bb)
    b, c = int(np.count_nonzero(a & ~bb)), int(np.count_nonzero(~a & bb))
    return b, c, mcnemar(b, c)


def holm(pvalues: Sequence[float | None]) -> list[float | None]:
    """Holm-Bonferroni adjusted p-values in input order; None/NaN pass through as None.

    m counts only the real p-values; adjusted values are monotone in the raw ones and capped at 1.

    >>> [round(p, 10) for p in holm([0.01, 0.04, 0.03, 0.005])]
    [0.03, 0.06, 0.06, 0.02]
    """
    out: list[float | None] = [None] * len(pvalues)
    valid = [(p, i) for i, p in enumerate(pvalues) if p is not None and not math.isnan(p)]
    for p, _ in valid:
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"p-values must lie in [0, 1], got {p}")
    m, running = len(valid), 0.0
    for rank, (p, i) in enumerate(sorted(valid)):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
    return out


def _same_length(*arrays: npt.NDArray[np.generic]) -> int:
    lengths = {a.shape[0] for a in arrays}
    if len(lengths) != 1:
        raise ValueError(f"arrays must be aligned row by row, got lengths {sorted(lengths)}")
    return int(lengths.pop())


def _check_resampling(B: int, ci: float) -> None:
    if B < 2:
        raise ValueError(f"B must be at least 2 to estimate a spread, got {B}")
    if not 0.0 < ci < 1.0:
        raise ValueError(f"ci must lie strictly between 0 and 1, got {ci}")


def _interval(reps: npt.NDArray[np.float64], ci: float) -> tuple[float, float]:
    lo, hi = np.percentile(reps, [50.0 * (1.0 - ci), 50.0 * (1.0 + ci)], method="linear")
    return float(lo), float(hi)


def _summarize(reps: npt.NDArray[np.float64], ci: float) -> BootstrapSummary:
    spread = float(reps.std(ddof=1))
    return {"mean": float(reps.mean()), "std": spread, "ci": list(_interval(reps, ci))}


def _multinomial_chunks(
    rng: np.random.Generator, n: int, counts: npt.NDArray[np.int64], B: int
) -> list[npt.NDArray[np.int64]]:
    """B resampled cell-count vectors (rows), drawn in chunks so memory stays bounded."""
    probs = counts / n
    step = max(1, _CELLS_PER_CHUNK // counts.shape[0])
    return [rng.multinomial(n, probs, size=min(step, B - s)) for s in range(0, B, step)]


def bootstrap(
    metric: Callable[..., float],
    *arrays: npt.ArrayLike,
    B: int = 1000,
    seed: int = 42,
    ci: float = 0.95,
) -> BootstrapSummary:
    """Row bootstrap of metric(*arrays): the same resampled row indices go to every array.

    "mean" is the mean of the B replicates (not the point estimate), "std" their ddof=1 spread
    and "ci" the linear percentile interval. Identical seeds give identical results.

    >>> bootstrap(accuracy, [True] * 10, B=50)["ci"]
    [1.0, 1.0]
    """
    _check_resampling(B, ci)
    if not arrays:
        raise ValueError("bootstrap needs at least one array to resample")
    cols = [np.asarray(a) for a in arrays]
    n = _same_length(*cols)
    if n == 0:
        raise ValueError("cannot bootstrap empty arrays")
    rng = np.random.default_rng(seed)
    reps = np.empty(B, dtype=np.float64)
    for r in range(B):
        idx = rng.integers(0, n, size=n)
        reps[r] = metric(*(col[idx] for col in cols))
    return _summarize(reps, ci)


def bootstrap_accuracy(
    correct: Bools, B: int = 1000, seed: int = 42, ci: float = 0.95
) -> BootstrapSummary:
    """Bootstrap of accuracy in O(B): correct counts drawn as Binomial(n, observed accuracy).

    Same distribution as `bootstrap(accuracy, correct)`, but a different random stream, so the
    two agree statistically, not digit for digit. Deterministic for a seed.

    >>> bootstrap_accuracy([True, False] * 500, B=200, seed=1)["std"] > 0
    True
    """
    ok = _as_bool(correct)
    return bootstrap_accuracy_counts(int(np.count_nonzero(ok)), ok.shape[0], B=B, seed=seed, ci=ci)


def bootstrap_accuracy_counts(
    hits: int, n: int, B: int = 1000, seed: int = 42, ci: float = 0.95
) -> BootstrapSummary:
    """`bootstrap_accuracy` from its counts: ``hits`` rows correct of ``n`` (the same result
    for a seed, so merged counts of partitions give the whole table's interval).

    >>> bootstrap_accuracy_counts(10, 10, B=20)["ci"]
    [1.0, 1.0]
    """
    _check_resampling(B, ci)
    if n <= 0:
        raise ValueError("correct is empty: a metric needs at least one row")
    draws = np.random.default_rng(seed).binomial(n, hits / n, size=B)
    return _summarize(draws / n, ci)


def bootstrap_balanced_accuracy(
    truth: Labels, correct: Bools, B: int = 1000, seed: int = 42, ci: float = 0.95
) -> BootstrapSummary:
    """Bootstrap of balanced accuracy in O(B * classes) via multinomial class x correct cells.

    A class absent from a resample is left out of that replicate's mean, as balanced_accuracy
    would do on those rows. Deterministic for a seed; a different stream than `bootstrap`.

    >>> bootstrap_balanced_accuracy(["a", "b"] * 50, [True] * 100, B=20)["mean"]
    1.0
    """
    _, hits, totals = _class_counts(truth, correct)
    return bootstrap_balanced_accuracy_counts(hits, totals, B=B, seed=seed, ci=ci)


def bootstrap_balanced_accuracy_counts(
    hits: npt.ArrayLike, totals: npt.ArrayLike, B: int = 1000, seed: int = 42, ci: float = 0.95
) -> BootstrapSummary:
    """`bootstrap_balanced_accuracy` from per-class counts (rows correct, rows), the classes
    in natural order (`natural_sort_key`) as the row version orders them: the same result
    for a seed.

    >>> bootstrap_balanced_accuracy_counts([50, 50], [50, 50], B=20)["mean"]
    1.0
    """
    _check_resampling(B, ci)
    right, rows = np.asarray(hits, dtype=np.int64), np.asarray(totals, dtype=np.int64)
    n = int(rows.sum())
    if n <= 0:
        raise ValueError("correct is empty: a metric needs at least one row")
    cells = np.stack([rows - right, right], axis=1).reshape(-1)
    reps: list[npt.NDArray[np.float64]] = []
    for chunk in _multinomial_chunks(np.random.default_rng(seed), n, cells, B):
        grid = chunk.reshape(chunk.shape[0], -1, 2)
        size = grid.sum(axis=2)
        present = size > 0
        recall = np.where(present, grid[:, :, 1] / np.maximum(size, 1), 0.0)
        reps.append(recall.sum(axis=1) / present.sum(axis=1))
    return _summarize(np.concatenate(reps), ci)


def paired_delta_ci(
    stored_correct: Bools, scheme_correct: Bools, B: int = 1000, seed: int = 0, ci: float = 0.95
) -> tuple[float, float]:
    """Paired-bootstrap percentile interval of the error-rate change in points, scheme - stored.

    Rows fall in 4 cells (both right, stored-only right, scheme-only right, both wrong); drawing
    multinomial cell counts B times equals resampling rows, in O(B) whatever n is.
    Positive values mean the scheme makes more errors than the stored labels.

    >>> paired_delta_ci([True] * 10, [True] * 10)
    (0.0, 0.0)
    """
    s, t = _as_bool(stored_correct, "stored_correct"), _as_bool(scheme_correct, "scheme_correct")
    _same_length(s, t)
    # cell 0: both right, 1: stored-only right, 2: scheme-only right, 3: both wrong
    cells = np.bincount(2 * (~s).astype(np.intp) + (~t), minlength=4)
    both, stored_only, scheme_only, neither = (int(c) for c in cells)
    return paired_delta_ci_counts(both, stored_only, scheme_only, neither, B=B, seed=seed, ci=ci)


def paired_delta_ci_counts(
    both: int,
    stored_only: int,
    scheme_only: int,
    neither: int,
    B: int = 1000,
    seed: int = 0,
    ci: float = 0.95,
) -> tuple[float, float]:
    """`paired_delta_ci` from the four paired cell counts (identical result for a seed).

    >>> paired_delta_ci_counts(8, 2, 0, 0, seed=0)[0] >= 0
    True
    """
    _check_resampling(B, ci)
    cells = np.asarray([both, stored_only, scheme_only, neither], dtype=np.int64)
    n = int(cells.sum())
    if n == 0:
        raise ValueError("paired_delta_ci needs at least one row")
    draws = np.concatenate(_multinomial_chunks(np.random.default_rng(seed), n, cells, B))
    return _interval((draws[:, 1] - draws[:, 2]) / n * 100.0, ci)


MAX_BOOTSTRAP = 100_000  # resamples; far more than a stable interval needs


def check_bootstrap(n_boot: object, seed: object, ci: object = 0.95) -> None:
    """Raise a clear error for bootstrap settings that cannot work: ``n_boot`` an integer from
    2 to `MAX_BOOTSTRAP`, ``seed`` a non-negative integer (NumPy integers too), ``ci`` between
    0 and 1."""
    boots = as_integer(n_boot)
    if boots is None or not 2 <= boots <= MAX_BOOTSTRAP:
        raise ValueError(
            f"n_boot (bootstrap resamples) must be an integer from 2 to {MAX_BOOTSTRAP:,}; "
            f"got {n_boot!r}"
        )
    number = as_integer(seed)
    if number is None or number < 0:
        raise ValueError(f"seed must be a non-negative integer; got {seed!r}")
    check_fraction("ci", ci, 0.95)


def check_fraction(name: str, value: object, example: float) -> None:
    """Raise a clear error unless ``value`` is a number strictly between 0 and 1."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 1:
        raise ValueError(f"{name} must be a number between 0 and 1, e.g. {example}; got {value!r}")


def as_integer(value: object) -> int | None:
    """``value`` as an int when it is one (Python or NumPy integer, not a bool), else None."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def natural_sort_key(label: str) -> tuple[int, float, str]:
    """Sort key of the natural label order used here: numbers by value first, then text.

    >>> sorted(["10", "b", "2", "a"], key=natural_sort_key)
    ['2', '10', 'a', 'b']
    """
    return _natural_key(label)
