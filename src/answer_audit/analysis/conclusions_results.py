"""Typed results of `analysis.conclusions` and the plain sentences a reader can paste.

`Conclusions.to_dict()` is the ``conclusions`` object of the JSON report: ``settings``,
``contrasts`` and ``rankings``. Percentages are of accuracy; effects are level minus baseline in
percentage points (pp); intervals are ``[low, high]`` at confidence 1 - alpha.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from answer_audit.analysis.conclusions_status import (
    GAINED,
    LOST,
    NOT_ESTIMABLE,
    REVERSED,
    SAME,
    SHIFTED,
    SIGNIFICANT_REVERSAL,
    STATUS_ORDER,
    STORED,
    Interval,
    Scalar,
    Stratum,
    VerdictCounts,
    contrast_pairs,
    contrast_status,
    excludes_zero,
    stratum_text,
    tally_statuses,
)
from answer_audit.analysis.stats import as_integer, check_bootstrap, check_fraction

__all__ = [
    "GAINED",
    "LOST",
    "NOT_ESTIMABLE",
    "REVERSED",
    "SAME",
    "SHIFTED",
    "SIGNIFICANT_REVERSAL",
    "STATUS_ORDER",
    "STORED",
    "ConclusionSettings",
    "Conclusions",
    "Contrast",
    "Interval",
    "LevelAccuracy",
    "Ranking",
    "Scalar",
    "Stratum",
    "contrast_pairs",
    "contrast_status",
    "stratum_text",
]


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

    @property
    def beyond_noise(self) -> bool:
        """Whether the change is more than resampling noise: a significant reversal, or a
        change interval that excludes 0 (always so when reversed or shifted). A contrast
        `gained` or `lost` while its effect barely moved (the interval holds 0) only crossed
        the significance line."""
        return self.status == SIGNIFICANT_REVERSAL or (
            self.status in (GAINED, LOST, REVERSED, SHIFTED) and excludes_zero(self.change_ci)
        )

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

    def clearly_changed(self, alpha: float = 0.05) -> bool:
        """Whether the best level changed while one labelling is sure of its best: best in at
        least 1 - ``alpha`` of the resamples (the scheme's best, or the stored best). Other
        swaps are within resampling noise; the contrasts say which effects moved beyond it."""
        if not self.best_changed:
            return False
        sure = 1.0 - alpha
        return (self.p_best.get(self.order[0], 0.0) >= sure
                or self.stored_p_best.get(self.stored_order[0], 0.0) >= sure)  # fmt: skip

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
        return tally_statuses(c.status for c in self.contrasts)

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

    def verdict(self, comparison_only: Collection[str] = ()) -> str:
        """One line whose headline weighs the schemes compared and the changes beyond
        resampling noise (`Contrast.beyond_noise`, `Ranking.clearly_changed`): it reads as
        holding when none changed beyond noise, and then still names every change within noise.
        Schemes in ``comparison_only`` (presets shown beside the others for comparison, such as
        another framework's convention) are counted after the headline, unless every scheme is
        one. A contrast that cannot be estimated is named, never counted as same."""
        aside = set(comparison_only) if set(self.schemes) - set(comparison_only) else set()
        contrasts = [c for c in self.contrasts if c.scheme not in aside]
        rankings = [r for r in self.rankings if r.scheme not in aside]
        alpha = self.settings.alpha
        swapped = [r for r in rankings if r.order_changed and not r.clearly_changed(alpha)]
        weak = [
            c for c in contrasts if c.status not in (SAME, NOT_ESTIMABLE) and not c.beyond_noise
        ]
        return VerdictCounts(
            factor=self.settings.compare,
            confidence_pct=self.settings.confidence_pct,
            contrasts=len(contrasts),
            rankings=len(rankings),
            beyond_noise=tally_statuses(c.status for c in contrasts if c.beyond_noise),
            clear=sum(r.clearly_changed(alpha) for r in rankings),
            missing=sum(c.status == NOT_ESTIMABLE for c in contrasts),
            crossed=tally_statuses(c.status for c in weak),
            swapped=len(swapped),
            swapped_best=sum(r.best_changed for r in swapped),
            aside=tuple(s for s in self.schemes if s in aside),
            aside_changed=sum(c.status != SAME for c in self.contrasts if c.scheme in aside),
            aside_moved=sum(r.order_changed for r in self.rankings if r.scheme in aside),
        ).text()


def _pp(value: float | None) -> str:
    return "not estimable" if value is None else f"{value:+.1f} pp"


def _interval_text(interval: Interval) -> str:
    return f"{interval[0]:+.1f} to {interval[1]:+.1f}"


def _pair(interval: Interval | None) -> list[float] | None:
    return None if interval is None else [interval[0], interval[1]]
