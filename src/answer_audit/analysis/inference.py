"""Interval estimates and tests for proportions, rank agreement and resampled replicates.

The building blocks of `analysis.conclusions`, pure and NumPy-only (no SciPy at run time):

- `wilson_interval`: Wilson score interval for one proportion (Wilson 1927).
- `newcombe_interval`: hybrid score interval for a difference of two independent proportions,
  Newcombe (1998) method 10, built from the two Wilson intervals.
- `two_proportion_p`: two-sided pooled z test of p1 = p2 (the score test; equal to Pearson's
  chi-square without continuity correction on the 2 x 2 table).
- `within_item_permutation_p`: exact permutation test of a difference of pooled accuracies when
  the same items appear under both levels: only the level labels within an item are shuffled,
  so items are never mixed. With one row per item and level this is McNemar's exact test.
- `kendall_tau_b`: Kendall's tau-b (ties in either ranking counted as ties).
- `percentile_interval`, `share_of_best`: summaries of bootstrap replicates.

Each function returns None where the quantity is undefined (an empty sample, a constant ranking),
so callers keep a row for it instead of a NaN that prints as a number.
"""

from __future__ import annotations

import heapq
import math
import zlib
from collections.abc import Sequence
from statistics import NormalDist

import numpy as np
import numpy.typing as npt

Interval = tuple[float, float]
Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


def normal_quantile(alpha: float) -> float:
    """The z with P(|Z| <= z) = 1 - alpha for a standard normal Z.

    >>> round(normal_quantile(0.05), 6)
    1.959964
    """
    return NormalDist().inv_cdf(1.0 - alpha / 2.0)


def wilson_interval(correct: int, n: int, alpha: float = 0.05) -> Interval | None:
    """Wilson score interval for a proportion correct/n at confidence 1 - alpha; None when n = 0.

    >>> [round(x, 4) for x in wilson_interval(8, 10)]
    [0.4902, 0.9433]
    """
    if n <= 0:
        return None
    z = normal_quantile(alpha)
    p, z2 = correct / n, z * z
    scale = 1.0 + z2 / n
    centre = (p + z2 / (2.0 * n)) / scale
    half = z / scale * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n))
    # Clamp: rounding can push an endpoint a hair outside [0, 1] when p is 0 or 1.
    return max(0.0, centre - half), min(1.0, centre + half)


def newcombe_interval(
    correct1: int, n1: int, correct2: int, n2: int, alpha: float = 0.05
) -> Interval | None:
    """Newcombe's hybrid score interval for p1 - p2 (independent samples); None if n1 or n2 is 0.

    >>> [round(x, 4) for x in newcombe_interval(9, 10, 5, 10)]
    [-0.0024, 0.6759]
    """
    first, second = wilson_interval(correct1, n1, alpha), wilson_interval(correct2, n2, alpha)
    if first is None or second is None:
        return None
    p1, p2 = correct1 / n1, correct2 / n2
    (lo1, hi1), (lo2, hi2) = first, second
    diff = p1 - p2
    below = math.sqrt((p1 - lo1) ** 2 + (hi2 - p2) ** 2)
    above = math.sqrt((hi1 - p1) ** 2 + (p2 - lo2) ** 2)
    return diff - below, diff + above


def two_proportion_p(correct1: int, n1: int, correct2: int, n2: int) -> float | None:
    """Two-sided p-value of the pooled z (score) test of p1 = p2; None if n1 or n2 is 0.

    When the pooled proportion is 0 or 1 both samples agree exactly and the p-value is 1.

    >>> round(two_proportion_p(9, 10, 5, 10), 4)
    0.051
    """
    if n1 <= 0 or n2 <= 0:
        return None
    pooled = (correct1 + correct2) / (n1 + n2)
    variance = pooled * (1.0 - pooled) * (1.0 / n1 + 1.0 / n2)
    if variance <= 0.0:
        return 1.0
    z = (correct1 / n1 - correct2 / n2) / math.sqrt(variance)
    return math.erfc(abs(z) / math.sqrt(2.0))


def within_item_permutation_p(
    correct_a: Ints, scored_a: Ints, correct_b: Ints, scored_b: Ints
) -> float | None:
    """Exact two-sided permutation p-value that levels a and b do not differ, items kept intact.

    Arrays are aligned by item: correct and scored rows of each item under level a and level b.
    The statistic is the difference of pooled accuracies (a minus b). Under the null the level
    labels of an item's scored rows are exchangeable, so item i's correct count under a follows
    Hypergeometric(correct_i, wrong_i, scored_a_i), independently across items; the statistic is
    linear in their sum, whose distribution is the convolution of the items' (the exact
    conditional test behind Cochran-Mantel-Haenszel, items as strata). The p-value is the mass
    of tables at least as far from "no difference" as the observed one. With one row per item
    and level this is McNemar's exact test. None when either level has no scored row.

    >>> ones = np.ones(6, dtype=np.int64)
    >>> within_item_permutation_p(ones, ones, 0 * ones, ones)  # 6 discordant items: 2 / 2**6
    0.03125
    """
    total_a, total_b = int(scored_a.sum()), int(scored_b.sum())
    if total_a == 0 or total_b == 0:
        return None
    correct = correct_a + correct_b
    wrong = scored_a + scored_b - correct
    # Only items with rows at both levels and both outcomes can move; the rest stay as observed.
    moving = (scored_a > 0) & (scored_b > 0) & (correct > 0) & (wrong > 0)
    pmf, lowest = _sum_of_hypergeometrics(correct[moving], wrong[moving], scored_a[moving])
    under_a = int(correct_a[~moving].sum()) + lowest + np.arange(pmf.size, dtype=np.int64)
    everywhere = int(correct.sum())
    # The statistic times total_a * total_b, in integers: no rounding decides a tie.
    scaled = np.abs(under_a * total_b - (everywhere - under_a) * total_a)
    observed = abs(int(correct_a.sum()) * total_b - int(correct_b.sum()) * total_a)
    return min(1.0, float(pmf[scaled >= observed].sum()))


def _sum_of_hypergeometrics(good: Ints, bad: Ints, draws: Ints) -> tuple[Floats, int]:
    """Distribution of a sum of independent hypergeometric counts: pmf and its lowest value.

    Items with the same parameters are combined by repeated squaring, the rest smallest first,
    so a million one-row items cost a few dozen convolutions.
    """
    if good.size == 0:
        return np.ones(1, dtype=np.float64), 0
    triples, repeats = np.unique(np.stack([good, bad, draws], axis=1), axis=0, return_counts=True)
    heap: list[tuple[int, int, Floats]] = []
    lowest = 0
    # log(n!) for every n needed, once: log C(n, k) is then three look-ups.
    log_factorial = np.concatenate(
        [[0.0], np.cumsum(np.log(np.arange(1, int(triples[:, :2].sum(axis=1).max()) + 1)))]
    )
    for order, ((g, b, n), times) in enumerate(
        zip(triples.tolist(), repeats.tolist(), strict=True)
    ):
        low = max(0, n - b)
        k = np.arange(low, min(n, g) + 1)
        log_pmf = (
            -log_factorial[k]
            - log_factorial[g - k]
            - log_factorial[n - k]
            - log_factorial[b - n + k]
        )
        pmf = np.exp(log_pmf - log_pmf.max())  # constant factors cancel when normalised
        lowest += low * times
        heapq.heappush(heap, (0, order, _power(pmf / pmf.sum(), times)))
    while len(heap) > 1:
        _, order, first = heapq.heappop(heap)
        _, _, second = heapq.heappop(heap)
        combined = _convolve(first, second)
        heapq.heappush(heap, (combined.size, order, combined))
    return heap[0][2], lowest


def _power(pmf: Floats, times: int) -> Floats:
    """The distribution of the sum of ``times`` independent copies."""
    result, square = np.ones(1, dtype=np.float64), pmf
    while times:
        if times & 1:
            result = _convolve(result, square)
        times >>= 1
        if times:
            square = _convolve(square, square)
    return result


def _convolve(a: Floats, b: Floats) -> Floats:
    """Convolution of two distributions; by FFT when both are long (rounding ~1e-16 per term)."""
    if min(a.size, b.size) <= 64 or a.size * b.size <= 1 << 20:
        return np.convolve(a, b)
    size = a.size + b.size - 1
    fft_size = 1 << (size - 1).bit_length()
    full = np.fft.irfft(np.fft.rfft(a, fft_size) * np.fft.rfft(b, fft_size), fft_size)[:size]
    clipped = np.clip(full, 0.0, None)  # FFT rounding leaves tiny negatives in the tails
    return np.asarray(clipped / clipped.sum(), dtype=np.float64)


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Kendall's tau-b between two paired score lists; None with < 2 pairs or a constant list.

    >>> kendall_tau_b([1, 2, 3], [1, 3, 2])
    0.3333333333333333
    """
    a, b = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"x and y must be equal-length lists, got {a.shape} and {b.shape}")
    if a.shape[0] < 2:
        return None
    upper = np.triu_indices(a.shape[0], k=1)
    dx = np.sign(a[:, None] - a[None, :])[upper]
    dy = np.sign(b[:, None] - b[None, :])[upper]
    untied_x, untied_y = int(np.count_nonzero(dx)), int(np.count_nonzero(dy))
    if untied_x == 0 or untied_y == 0:
        return None
    return float(np.sum(dx * dy) / math.sqrt(untied_x * untied_y))


def percentile_interval(replicates: Floats, alpha: float = 0.05) -> Interval | None:
    """Linear percentile interval of the finite replicates; None when there are none.

    A replicate is NaN when a resample left a level without scored rows; those are dropped.

    >>> percentile_interval(np.arange(101, dtype=np.float64), 0.1)
    (5.0, 95.0)
    """
    finite = replicates[np.isfinite(replicates)]
    if finite.size == 0:
        return None
    lo, hi = np.percentile(finite, [50.0 * alpha, 100.0 - 50.0 * alpha], method="linear")
    return float(lo), float(hi)


def share_of_best(replicates: Floats) -> Floats:
    """Per column, the share of replicate rows in which it holds the highest value.

    A tie for the top splits that replicate's credit equally; NaN never wins, and a row that is
    all NaN is left out. The shares sum to 1 (or are all 0 when no row counts).

    >>> share_of_best(np.array([[0.9, 0.5], [0.5, 0.5], [np.nan, 0.1]])).tolist()
    [0.5, 0.5]
    """
    scores = np.where(np.isfinite(replicates), replicates, -np.inf)
    top = scores.max(axis=1, keepdims=True)
    winners = (scores == top) & np.isfinite(top)
    counted = winners.any(axis=1)
    if not counted.any():
        return np.zeros(replicates.shape[1], dtype=np.float64)
    credit = winners[counted] / winners[counted].sum(axis=1, keepdims=True)
    return np.asarray(credit.mean(axis=0), dtype=np.float64)


def stable_seed(seed: int, *parts: str) -> np.random.SeedSequence:
    """A seed sequence from ``seed`` and text parts that is the same in every process.

    Python's ``hash`` of a string changes between runs; CRC-32 does not, so a stratum or a
    contrast gets the same random stream whatever else is analysed or in which order.

    >>> stable_seed(0, "a").entropy == stable_seed(0, "a").entropy
    True
    """
    return np.random.SeedSequence([seed, *(zlib.crc32(part.encode()) for part in parts)])
