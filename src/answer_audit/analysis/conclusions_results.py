"""Typed results of `analysis.conclusions` and the plain sentences a reader can paste.

`Conclusions.to_dict()` is the ``conclusions`` object of the JSON report: ``settings``,
``contrasts`` and ``rankings``. Percentages are of accuracy; effects are level minus baseline in
percentage points (pp); intervals are ``[low, high]`` at confidence 1 - alpha.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from answer_audit.analysis.stats import as_integer, check_bootstrap, check_fraction

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


@dataclass(frozen=True)
class ConclusionSettings:
    """What is compared, and how the resampling is seeded and sized."""

    compare: str
    """Column whose levels are compared (model, condition, filter...)."""
    baseline: str | None = None
    """Level every other level is compared with; None compares every pair of levels."""
    strata: tuple[str, ...] = ()
    """Columns that split the table into strata, each analysed on its own."""
    item: str | None = None
    """Column that makes rows comparable across levels (the question); inference then resamples
    whole items (cluster bootstrap) and permutes levels within items."""
    seed: int = 0
    """Seed of every random stream; the same seed gives the same numbers."""
    n_boot: int = 2000
    """Bootstrap resamples (and permutations, with an item column)."""
    alpha: float = 0.05
    """Intervals are at confidence 1 - alpha; significant means Holm-adjusted p < alpha."""

    def __post_init__(self) -> None:
        if not isinstance(self.compare, str) or not self.compare:
            raise ValueError(f"compare must name a column, e.g. 'model'; got {self.compare!r}")
        if isinstance(self.strata, str):
            raise TypeError(f"strata takes a sequence of column names, e.g. ({self.strata!r},)")
        object.__setattr__(self, "strata", tuple(self.strata))
        if self.compare in self.strata:
            raise ValueError(f"{self.compare!r} cannot be both compared and a stratum")
        if self.item is not None and self.item in (self.compare, *self.strata):
            raise ValueError(f"item column {self.item!r} must differ from compare and strata")
        if self.baseline is not None:
            object.__setattr__(self, "baseline", str(self.baseline))
        check_bootstrap(self.n_boot, self.seed)
        object.__setattr__(self, "n_boot", as_integer(self.n_boot))
        object.__setattr__(self, "seed", as_integer(self.seed))
        check_fraction("alpha", self.alpha, 0.05)

    @property
    def confidence_pct(self) -> float:
        """The intervals' confidence in percent, e.g. 95.0."""
        return round(100.0 * (1.0 - self.alpha), 6)

    def to_dict(self) -> dict[str, Any]:
        """The JSON ``settings``: compare, baseline, strata, item."""
        return {
            "compare": self.compare,
            "baseline": self.baseline,
            "strata": list(self.strata),
            "item": self.item,
        }


@dataclass(frozen=True)
class LevelAccuracy:
    """Accuracy of one level in one stratum under one labelling."""

    labelling: str
    """``stored`` or a scheme name."""
    stratum: Stratum
    """Stratum column -> value; empty without strata."""
    level: str
    """The level of the compare column."""
    correct: int
    """Rows labelled correct."""
    scored: int
    """Rows with a label (unscored rows are left out)."""
    accuracy_pct: float | None
    """100 * correct / scored; None when nothing is scored."""
    ci_pct: Interval | None
    """Wilson interval, or cluster-bootstrap percentile interval with an item column."""

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready fields."""
        return {
            "labelling": self.labelling,
            "stratum": dict(self.stratum),
            "level": self.level,
            "correct": self.correct,
            "scored": self.scored,
            "accuracy_pct": self.accuracy_pct,
            "ci_pct": _pair(self.ci_pct),
        }


@dataclass(frozen=True)
class Contrast:
    """One contrast (level minus baseline) in one stratum: stored labels vs one scheme."""

    scheme: str
    """The scheme re-labelling the rows."""
    stratum: Stratum
    """Stratum column -> value; empty without strata."""
    level: str
    """The level compared (minuend)."""
    baseline: str
    """The level it is compared with (subtrahend)."""
    stored_effect_pp: float | None
    """Accuracy of level minus baseline under the stored labels, in percentage points."""
    stored_ci: Interval | None
    """Interval of the stored effect (Newcombe; cluster bootstrap with an item column), pp."""
    stored_p: float | None
    """Two-sided p-value of the stored effect, before Holm."""
    stored_holm_p: float | None
    """Holm-adjusted stored p (over every stored contrast); decides stored significance."""
    effect_pp: float | None
    """The same effect under the scheme, pp."""
    ci: Interval | None
    """Interval of the scheme's effect, pp."""
    p: float | None
    """Two-sided p-value of the scheme's effect, before Holm."""
    holm_p: float | None
    """Holm-adjusted p over every contrast of this scheme (all strata)."""
    change_pp: float | None
    """effect_pp - stored_effect_pp: the difference in differences."""
    change_ci: Interval | None
    """Paired bootstrap interval of the change (the same resampled rows under both), pp."""
    status: str
    """The first of STATUS_ORDER that applies (see `contrast_status`)."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON contrast object of issue 17 (stored_holm_p stays a typed attribute only)."""
        return {
            "scheme": self.scheme,
            "stratum": dict(self.stratum),
            "level": self.level,
            "baseline": self.baseline,
            "stored_effect_pp": self.stored_effect_pp,
            "stored_ci": _pair(self.stored_ci),
            "stored_p": self.stored_p,
            "effect_pp": self.effect_pp,
            "ci": _pair(self.ci),
            "p": self.p,
            "holm_p": self.holm_p,
            "change_pp": self.change_pp,
            "change_ci": _pair(self.change_ci),
            "status": self.status,
        }

    def sentence(
        self,
        scheme_name: str | None = None,
        stored_name: str = STORED,
        compare: str = "",
        confidence_pct: float = 95.0,
    ) -> str:
        """The contrast as one sentence, e.g. "Under parse_v3 the effect of authoritative_bias vs
        control on accuracy for variant=base is -20.0 pp (95% CI -31.0 to -9.0), stored -5.0 pp:
        shifted". ``compare`` (the factor's name) is mentioned when given."""
        factor = f"{compare} " if compare else ""
        where = f" for {stratum_text(self.stratum)}" if self.stratum else ""
        ci = f" ({confidence_pct:g}% CI {_interval_text(self.ci)})" if self.ci else ""
        return (
            f"Under {scheme_name or self.scheme} the effect of {factor}{self.level} vs "
            f"{self.baseline} on accuracy{where} is {_pp(self.effect_pp)}{ci}, "
            f"{stored_name} {_pp(self.stored_effect_pp)}: {self.status}"
        )


@dataclass(frozen=True)
class Ranking:
    """Levels of one stratum ordered by accuracy: stored labels vs one scheme."""

    scheme: str
    """The scheme re-labelling the rows."""
    stratum: Stratum
    """Stratum column -> value; empty without strata."""
    stored_order: tuple[str, ...]
    """Levels by stored accuracy, best first; ties keep the listing order (baseline first, then
    numbers by value, then text) and levels without a scored row come last."""
    order: tuple[str, ...]
    """Levels by the scheme's accuracy, best first, ties broken the same way."""
    kendall_tau: float | None
    """Kendall tau-b of the two accuracy lists (ties kept); None if either is constant."""
    best_changed: bool
    """Whether the first level differs between the two orders."""
    p_best: Mapping[str, float]
    """Bootstrap share of resamples in which each level is best under the scheme (ties share)."""
    stored_p_best: Mapping[str, float]
    """The same share under the stored labels, from the same resamples."""

    @property
    def order_changed(self) -> bool:
        """Whether any two levels swapped places."""
        return self.order != self.stored_order

    def to_dict(self) -> dict[str, Any]:
        """The JSON ranking object of issue 17."""
        return {
            "scheme": self.scheme,
            "stratum": dict(self.stratum),
            "stored_order": list(self.stored_order),
            "order": list(self.order),
            "kendall_tau": self.kendall_tau,
            "best_changed": self.best_changed,
            "p_best": dict(self.p_best),
        }

    def sentence(
        self, scheme_name: str | None = None, stored_name: str = STORED, compare: str = "level"
    ) -> str:
        """The ranking as one sentence, e.g. "Under v3 the best model for source=a is B (best in
        71% of resamples), stored A; order B > A > C, stored A > B > C (Kendall tau 0.33)"."""
        where = f" for {stratum_text(self.stratum)}" if self.stratum else ""
        best = self.order[0]
        head = (
            f"Under {scheme_name or self.scheme} the best {compare}{where} is {best} "
            f"(best in {100 * self.p_best.get(best, 0.0):.0f}% of resamples)"
        )
        tau = "n/a" if self.kendall_tau is None else f"{self.kendall_tau:.2f}"
        if not self.order_changed:
            return f"{head}, as {stored_name}; order unchanged: {' > '.join(self.order)}"
        stored_best = f", {stored_name} {self.stored_order[0]}" if self.best_changed else ""
        return (
            f"{head}{stored_best}; order {' > '.join(self.order)}, {stored_name} "
            f"{' > '.join(self.stored_order)} (Kendall tau {tau})"
        )


@dataclass(frozen=True)
class Conclusions:
    """Whether each contrast and ranking of the compare factor survives re-labelling."""

    settings: ConclusionSettings
    """What was compared, and the resampling settings."""
    schemes: tuple[str, ...]
    """Scheme names, in the order given."""
    levels: tuple[LevelAccuracy, ...]
    """Per labelling (stored first), stratum and level: accuracy with its interval."""
    contrasts: tuple[Contrast, ...]
    """Per scheme, stratum and contrast, in that order."""
    rankings: tuple[Ranking, ...]
    """Per scheme and stratum with at least two levels."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON ``conclusions`` object: settings, contrasts and rankings."""
        return {
            "settings": self.settings.to_dict(),
            "contrasts": [c.to_dict() for c in self.contrasts],
            "rankings": [r.to_dict() for r in self.rankings],
        }

    def changed_contrasts(self) -> list[Contrast]:
        """Contrasts whose status is not ``same``, most consequential status first."""
        rank = {status: i for i, status in enumerate(STATUS_ORDER)}
        changed = [c for c in self.contrasts if c.status != SAME]
        return sorted(changed, key=lambda c: rank[c.status])  # stable: keeps scheme/stratum order

    def status_counts(self) -> dict[str, int]:
        """How many contrasts have each status, in STATUS_ORDER, zero counts left out."""
        counts = Counter(c.status for c in self.contrasts)
        return {status: counts[status] for status in STATUS_ORDER if counts[status]}

    def lines(self, stored_name: str = STORED, names: Mapping[str, str] | None = None) -> list[str]:
        """Sentences for every contrast (statuses other than `same` first, most consequential
        first), then every ranking (changed ones first). ``names`` maps a scheme to its display
        name; ``stored_name`` replaces "stored" (e.g. "stored parse, re-matched by v3")."""
        shown = names or {}
        confidence = self.settings.confidence_pct
        unchanged = [c for c in self.contrasts if c.status == SAME]
        contrast_lines = [
            c.sentence(shown.get(c.scheme), stored_name, confidence_pct=confidence)
            for c in [*self.changed_contrasts(), *unchanged]
        ]
        moved = sorted(self.rankings, key=lambda r: (not r.best_changed, not r.order_changed))
        ranking_lines = [
            r.sentence(shown.get(r.scheme), stored_name, self.settings.compare) for r in moved
        ]
        return contrast_lines + ranking_lines

    def verdict(self) -> str:
        """One line; it reads as unchanged only when every contrast is `same` and every ranking
        keeps its order. A contrast that cannot be estimated is named, never counted as same."""
        counts = self.status_counts()
        moved = {s: n for s, n in counts.items() if s not in (SAME, NOT_ESTIMABLE)}
        missing = counts.get(NOT_ESTIMABLE, 0)
        best_moved = sum(r.best_changed for r in self.rankings)
        order_moved = sum(r.order_changed for r in self.rankings)
        factor, total = self.settings.compare, len(self.contrasts)
        if not self.contrasts and not self.rankings:
            return f"No contrast of {factor} to check: no scheme, or fewer than 2 levels."
        parts = []
        if moved:
            listed = ", ".join(f"{n} {s}" for s, n in moved.items())
            parts.append(f"{sum(moved.values())} of {total} contrasts changed ({listed})")
        if order_moved:
            parts.append(
                f"the best {factor} changed in {best_moved} and the order in {order_moved} of "
                f"{len(self.rankings)} rankings"
            )
        if missing:
            parts.append(f"{missing} of {total} contrasts could not be estimated")
        if not parts:
            return (
                f"Conclusions hold: all {total} contrasts of {factor} are the same within "
                f"resampling noise, and every ranking keeps its order."
            )
        if not moved and not order_moved:
            return "Conclusions not fully checked: " + "; ".join(parts) + "."
        return "Conclusions change under re-labelling: " + "; ".join(parts) + "."


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
    excludes_zero = change_ci is not None and (change_ci[0] > 0 or change_ci[1] < 0)
    if opposite and excludes_zero:
        return REVERSED
    return SHIFTED if excludes_zero else SAME


def stratum_text(stratum: Stratum) -> str:
    """``variant=base, temp=0.5``; ``all rows`` for the empty stratum."""
    return ", ".join(f"{k}={v}" for k, v in stratum.items()) or "all rows"


def _pp(value: float | None) -> str:
    return "not estimable" if value is None else f"{value:+.1f} pp"


def _interval_text(interval: Interval) -> str:
    return f"{interval[0]:+.1f} to {interval[1]:+.1f}"


def _pair(interval: Interval | None) -> list[float] | None:
    return None if interval is None else [interval[0], interval[1]]
