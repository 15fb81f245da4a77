"""The statuses a contrast can get under re-labelling, the rules that give them, and the
verdict line's words.

A contrast is one level's accuracy minus its baseline's, in one stratum; `contrast_status` says
how it moved between the stored labels and a scheme. `VerdictCounts` turns what moved into the
one verdict line. `analysis.conclusions_results` holds the typed results that carry these
statuses and re-exports the names here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

Scalar = str | int | float | bool | None
Stratum = Mapping[str, Scalar]
Interval = tuple[float, float]

SIGNIFICANT_REVERSAL = "significant reversal"
GAINED = "gained"
LOST = "lost"
REVERSED = "reversed"
SHIFTED = "shifted"
SAME = "same"
NOT_ESTIMABLE = "not estimable"  # a level has no scored row under one of the two labellings
# Most consequential first: the order in which sentences are listed.
STATUS_ORDER = (SIGNIFICANT_REVERSAL, GAINED, LOST, REVERSED, SHIFTED, NOT_ESTIMABLE, SAME)
STORED = "stored"


def contrast_pairs(levels: Sequence[str], baseline: str | None) -> list[tuple[str, str]]:
    """(level, baseline) pairs: every level against ``baseline``, or every pair of levels (the
    later in ``levels`` minus the earlier) when baseline is None.

    >>> contrast_pairs(["a", "b", "c"], None)
    [('b', 'a'), ('c', 'a'), ('c', 'b')]
    """
    if baseline is not None:
        return [(level, baseline) for level in levels if level != baseline and baseline in levels]
    return [(levels[j], levels[i]) for i in range(len(levels)) for j in range(i + 1, len(levels))]


def contrast_status(
    stored_effect: float | None,
    stored_holm_p: float | None,
    effect: float | None,
    holm_p: float | None,
    change_ci: Interval | None,
    alpha: float = 0.05,
) -> str:
    """The first status that applies ("significant" = Holm-adjusted p < alpha):

    `significant reversal` (significant under both, opposite signs), `gained` (under the scheme
    only), `lost` (under the stored labels only), `reversed` (opposite signs and the change
    interval excludes 0), `shifted` (the change interval excludes 0), else `same`. A zero effect
    has no sign, so it never reverses. `not estimable` when either effect is missing.

    >>> contrast_status(-5.0, 0.5, -20.0, 0.01, (-25.0, -5.0))
    'gained'
    """
    if stored_effect is None or effect is None:
        return NOT_ESTIMABLE
    stored_significant = stored_holm_p is not None and stored_holm_p < alpha
    significant = holm_p is not None and holm_p < alpha
    opposite = stored_effect * effect < 0
    if significant and stored_significant and opposite:
        return SIGNIFICANT_REVERSAL
    if significant != stored_significant:
        return GAINED if significant else LOST
    moved = excludes_zero(change_ci)
    if opposite and moved:
        return REVERSED
    return SHIFTED if moved else SAME


def excludes_zero(interval: Interval | None) -> bool:
    """Whether an interval lies wholly above or below 0 (touching 0 is not excluding it)."""
    return interval is not None and (interval[0] > 0 or interval[1] < 0)


def stratum_text(stratum: Stratum) -> str:
    """``variant=base, temp=0.5``; ``all rows`` for the empty stratum."""
    return ", ".join(f"{k}={v}" for k, v in stratum.items()) or "all rows"


def tally_statuses(statuses: Iterable[str]) -> dict[str, int]:
    """How many contrasts have each status, in STATUS_ORDER, zero counts left out."""
    counts = Counter(statuses)
    return {status: counts[status] for status in STATUS_ORDER if counts[status]}


@dataclass(frozen=True)
class VerdictCounts:
    """What moved under re-labelling, counted for the verdict line (`text`).

    The headline counts the schemes compared (all but the comparison-only ones) and the changes
    beyond resampling noise; the changes within noise and the comparison-only schemes' changes
    follow in sentences of their own, so the line never hides a change.

    >>> VerdictCounts("model", 95.0, contrasts=4, rankings=2, swapped=1, swapped_best=1).text()
    'Conclusions hold: no contrast or ranking of model changed beyond resampling noise. Within resampling noise: the best model changed in 1 and the order in 1 of 2 rankings, no labelling sure of its best level.'
    """

    factor: str
    """The compared column."""
    confidence_pct: float
    """How sure a labelling must be of its best level (share of resamples, in percent)."""
    contrasts: int
    """Contrasts of the schemes compared."""
    rankings: int
    """Rankings of the schemes compared."""
    beyond_noise: Mapping[str, int] = field(default_factory=dict)
    """Contrasts changed beyond resampling noise, per status."""
    clear: int = 0
    """Rankings whose best level changed while a labelling is sure of its best."""
    missing: int = 0
    """Contrasts that could not be estimated."""
    crossed: Mapping[str, int] = field(default_factory=dict)
    """Contrasts that crossed the significance line within noise, per status."""
    swapped: int = 0
    """Rankings whose order changed within noise."""
    swapped_best: int = 0
    """Of those, the rankings whose best level changed."""
    aside: tuple[str, ...] = ()
    """The comparison-only schemes."""
    aside_changed: int = 0
    """Their contrasts with a status other than same."""
    aside_moved: int = 0
    """Their rankings whose order changed."""

    def text(self) -> str:
        """The verdict: the headline sentence, then the within-noise and comparison-only ones."""
        if not self.contrasts and not self.rankings:
            return f"No contrast of {self.factor} to check: no scheme, or fewer than 2 levels."
        parts = []
        if self.beyond_noise:
            changed = sum(self.beyond_noise.values())
            parts.append(f"{changed} of {self.contrasts} contrasts changed beyond resampling "
                         f"noise ({_listed(self.beyond_noise)})")  # fmt: skip
        if self.clear:
            parts.append(f"the clear best {self.factor} (best in at least "
                         f"{self.confidence_pct:g}% of resamples) changed in {self.clear} of "
                         f"{self.rankings} rankings")  # fmt: skip
        if self.missing:
            parts.append(f"{self.missing} of {self.contrasts} contrasts could not be estimated")
        after = [*self._within_noise(), *self._comparison_only()]
        if parts:
            moved = bool(self.beyond_noise) or self.clear > 0
            lead = "change under re-labelling" if moved else "not fully checked"
            head = f"Conclusions {lead}: {'; '.join(parts)}."
        elif after:
            head = (
                f"Conclusions hold: no contrast or ranking of {self.factor} changed beyond "
                "resampling noise."
            )
        else:
            head = (
                f"Conclusions hold: all {self.contrasts} contrasts of {self.factor} are the "
                "same within resampling noise, and every ranking keeps its order."
            )
        return " ".join([head, *after])

    def _within_noise(self) -> list[str]:
        parts = []
        if self.crossed:
            n = sum(self.crossed.values())
            parts.append(f"{n} contrast{'s' * (n != 1)} crossed the significance line while "
                         f"the change interval holds 0 ({_listed(self.crossed)})")  # fmt: skip
        if self.swapped:
            best = f"the best {self.factor} changed in {self.swapped_best} and " * bool(
                self.swapped_best
            )
            parts.append(f"{best}the order in {self.swapped} of {self.rankings} rankings, no "
                         "labelling sure of its best level")  # fmt: skip
        return [f"Within resampling noise: {'; '.join(parts)}."] if parts else []

    def _comparison_only(self) -> list[str]:
        if not self.aside or not (self.aside_changed or self.aside_moved):
            return []
        return [f"Shown for comparison only ({', '.join(self.aside)}): {self.aside_changed} "
                f"contrasts and {self.aside_moved} rankings changed, not counted above."]  # fmt: skip


def _listed(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {status}" for status, n in counts.items())
