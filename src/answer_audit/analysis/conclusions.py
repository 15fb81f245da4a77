"""Does the conclusion survive the parser? Effects, rankings and their stability under re-labelling.

One factor's levels (models, conditions, filters...) are compared on accuracy, separately in each
stratum, under the stored labels and under each scheme:

- each level's accuracy with an interval;
- each contrast, level minus baseline (or every pair, later level minus earlier in the listing
  order), in percentage points with an interval and a two-sided p-value, Holm-adjusted over all
  contrasts (every stratum) of one labelling;
- per scheme, the change of each effect from its stored value (difference in differences) with
  a paired bootstrap interval, and a status (`contrast_status`);
- per scheme and stratum, the two rankings of the levels, Kendall tau-b, whether the best level
  changed, and the bootstrap share of resamples in which each level is best.

Methods. Without an item column rows are independent: Wilson intervals, Newcombe hybrid score
intervals for differences, the pooled two-proportion z test, and a row bootstrap within each
level for changes and best-level shares. With an item column (``settings.item``) the same item
under two levels is not independent: intervals come from a cluster bootstrap that resamples
items with all their rows, and p-values from the exact permutation test that shuffles levels
within each item only (`inference.within_item_permutation_p`). The change interval resamples
rows or items once for both labellings, so the two effects are paired.

Everything is computed from `conclusions_counts.OutcomeCounts`, which merge across partitions;
random streams are seeded from ``settings.seed`` and the stratum only, so results do not depend
on row order, on how the table was split, or on which other schemes are analysed.

>>> import polars as pl
>>> rows = pl.DataFrame({"model": ["a"] * 4 + ["b"] * 4,
...                      "ok": [True, True, True, False, True, False, False, False],
...                      "v3": [True, True, True, False, True, True, True, False]})
>>> found = conclusions(rows, ConclusionSettings("model", baseline="a"), stored="ok", schemes=["v3"])
>>> found.contrasts[0].stored_effect_pp, found.contrasts[0].effect_pp
(-50.0, 0.0)
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import polars as pl

from answer_audit.analysis.conclusions_counts import (
    LEVEL,
    Floats,
    OutcomeCounts,
    Units,
    item_units,
    level_order,
    merge_outcome_counts,
    outcome_counts,
    pattern_units,
    stratum_frames,
)
from answer_audit.analysis.conclusions_results import (
    STATUS_ORDER,
    STORED,
    Conclusions,
    ConclusionSettings,
    Contrast,
    Interval,
    LevelAccuracy,
    Ranking,
    Scalar,
    contrast_pairs,
    contrast_status,
    stratum_text,
)
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
from answer_audit.analysis.stats import holm

__all__ = [
    "STATUS_ORDER",
    "ConclusionSettings",
    "Conclusions",
    "Contrast",
    "LevelAccuracy",
    "OutcomeCounts",
    "Ranking",
    "conclusions",
    "conclusions_from_counts",
    "contrast_pairs",
    "contrast_status",
    "merge_outcome_counts",
    "outcome_counts",
    "stratum_text",
]


def conclusions(
    table: pl.DataFrame,
    settings: ConclusionSettings,
    *,
    stored: str,
    schemes: Mapping[str, str] | Sequence[str] = (),
) -> Conclusions:
    """Compare the levels of ``settings.compare`` under the stored labels (column ``stored``) and
    each scheme (``schemes``: name -> correct column, or a list of columns named as schemes).

    Correct columns hold booleans (or 0/1); null means unscored and is left out of accuracy.
    """
    return conclusions_from_counts(
        outcome_counts(table, settings, stored=stored, schemes=schemes), settings
    )


def conclusions_from_counts(counts: OutcomeCounts, settings: ConclusionSettings) -> Conclusions:
    """`conclusions` from (possibly merged) outcome counts built with the same settings."""
    if (counts.compare, counts.strata, counts.item) != (
        settings.compare,
        settings.strata,
        settings.item,
    ):
        raise ValueError("the outcome counts were built for another compare, strata or item")
    found = set(counts.frame.get_column(LEVEL).to_list())
    if settings.baseline is not None and found and settings.baseline not in found:
        listed = ", ".join(level_order(list(found), None))
        raise ValueError(
            f"baseline {settings.baseline!r} is not a level of {settings.compare!r}: {listed}"
        )
    parts = [_analyse_stratum(counts, settings, s, part) for s, part in stratum_frames(counts)]
    holm_p = {name: _holm_over_strata(parts, name) for name in counts.labellings}
    schemes = counts.labellings[1:]
    contrasts = [
        _contrast(settings, scheme, part, index, holm_p, offset)
        for scheme in schemes
        for part, offset in zip(parts, _offsets(parts), strict=True)
        for index in range(len(part.pairs))
    ]
    return Conclusions(
        settings=settings,
        schemes=schemes,
        levels=tuple(row for name in counts.labellings for p in parts for row in p.levels[name]),
        contrasts=tuple(contrasts),
        rankings=tuple(r for scheme in schemes for p in parts for r in p.rankings.get(scheme, [])),
    )


@dataclass(frozen=True)
class _Estimate:
    """One labelling's estimate of one contrast, before Holm."""

    effect: Fraction | None  # exact accuracy difference (a fraction, not pp)
    ci: Interval | None
    p: float | None

    @property
    def effect_pp(self) -> float | None:
        return None if self.effect is None else float(100 * self.effect)


@dataclass
class _Stratum:
    """Everything one stratum contributes, keyed by labelling or scheme."""

    stratum: dict[str, Scalar]
    pairs: list[tuple[str, str]]
    levels: dict[str, list[LevelAccuracy]] = field(default_factory=dict)
    estimates: dict[str, list[_Estimate]] = field(default_factory=dict)
    changes: dict[str, list[tuple[float | None, Interval | None]]] = field(default_factory=dict)
    rankings: dict[str, list[Ranking]] = field(default_factory=dict)


def _analyse_stratum(
    counts: OutcomeCounts,
    settings: ConclusionSettings,
    stratum: dict[str, Scalar],
    part: pl.DataFrame,
) -> _Stratum:
    levels = level_order(part.get_column(LEVEL).to_list(), settings.baseline)
    result = _Stratum(stratum, contrast_pairs(levels, settings.baseline))
    key = json.dumps([[k, str(v)] for k, v in stratum.items()])
    if counts.item is not None:
        units = item_units(counts, part, levels)
        rng = np.random.default_rng(stable_seed(settings.seed, "bootstrap", key))
        replicates = units.replicate_accuracies(counts.labellings, rng, settings.n_boot)
        for name in counts.labellings:
            _clustered_estimates(result, settings, units, replicates[name], name)
        paired = {scheme: replicates for scheme in counts.labellings[1:]}
    else:
        for name in counts.labellings:
            _independent_estimates(
                result, settings, pattern_units(counts, part, levels, [name]), name
            )
        paired = {}
        for scheme in counts.labellings[1:]:
            units = pattern_units(counts, part, levels, [STORED, scheme])
            rng = np.random.default_rng(stable_seed(settings.seed, "bootstrap", key))
            paired[scheme] = units.replicate_accuracies([STORED, scheme], rng, settings.n_boot)
    for scheme, replicates in paired.items():
        _stability(result, settings, levels, scheme, replicates)
    return result


def _level_rows(
    result: _Stratum, units: Units, name: str, intervals: list[Interval | None]
) -> None:
    correct, scored = units.totals(name)
    result.levels[name] = [
        LevelAccuracy(
            labelling=name,
            stratum=result.stratum,
            level=level,
            correct=int(c),
            scored=int(n),
            accuracy_pct=100.0 * int(c) / int(n) if n else None,
            ci_pct=None if ci is None else (100.0 * ci[0], 100.0 * ci[1]),
        )
        for level, c, n, ci in zip(units.levels, correct, scored, intervals, strict=True)
    ]


def _independent_estimates(
    result: _Stratum, settings: ConclusionSettings, units: Units, name: str
) -> None:
    """Wilson per level, Newcombe and the pooled z test per contrast: rows are independent."""
    correct, scored = units.totals(name)
    ci = [
        wilson_interval(int(c), int(n), settings.alpha)
        for c, n in zip(correct, scored, strict=True)
    ]
    _level_rows(result, units, name, ci)
    position = {level: i for i, level in enumerate(units.levels)}
    estimates = []
    for level, baseline in result.pairs:
        a, b = position[level], position[baseline]
        counts = (int(correct[a]), int(scored[a]), int(correct[b]), int(scored[b]))
        interval = newcombe_interval(*counts, settings.alpha)
        estimates.append(
            _Estimate(
                effect=_effect(*counts),
                ci=None if interval is None else (100.0 * interval[0], 100.0 * interval[1]),
                p=two_proportion_p(*counts),
            )
        )
    result.estimates[name] = estimates


def _clustered_estimates(
    result: _Stratum,
    settings: ConclusionSettings,
    units: Units,
    replicates: Floats,
    name: str,
) -> None:
    """Cluster-bootstrap intervals and exact within-item permutation p-values."""
    intervals = [
        percentile_interval(replicates[:, j], settings.alpha) for j in range(len(units.levels))
    ]
    _level_rows(result, units, name, intervals)
    correct, scored = units.totals(name)
    position = {level: i for i, level in enumerate(units.levels)}
    estimates = []
    for level, baseline in result.pairs:
        a, b = position[level], position[baseline]
        p = within_item_permutation_p(
            units.correct[name][:, a],
            units.scored[name][:, a],
            units.correct[name][:, b],
            units.scored[name][:, b],
        )
        diff = _in_pp(replicates[:, a] - replicates[:, b])
        counts = (int(correct[a]), int(scored[a]), int(correct[b]), int(scored[b]))
        estimates.append(_Estimate(_effect(*counts), percentile_interval(diff, settings.alpha), p))
    result.estimates[name] = estimates


def _effect(correct_a: int, scored_a: int, correct_b: int, scored_b: int) -> Fraction | None:
    """Exact, so that 55/100 - 50/100 is 5.0 pp, not 5.000000000000004, and a change is 0 only
    when it is."""
    if scored_a == 0 or scored_b == 0:
        return None
    return Fraction(correct_a, scored_a) - Fraction(correct_b, scored_b)


def _in_pp(differences: Floats) -> Floats:
    """Replicated differences in pp, rounded to 1e-9 pp: floating-point residue of a difference
    that is exactly 0 (0.7 - 0.5 vs 0.4 - 0.2) must not decide whether an interval excludes 0."""
    return np.round(100.0 * differences, 9)


def _stability(
    result: _Stratum,
    settings: ConclusionSettings,
    levels: tuple[str, ...],
    scheme: str,
    replicates: Mapping[str, Floats],
) -> None:
    """Change of each effect (paired replicates) and the ranking, scheme vs stored."""
    position = {level: i for i, level in enumerate(levels)}
    changes: list[tuple[float | None, Interval | None]] = []
    for index, (level, baseline) in enumerate(result.pairs):
        a, b = position[level], position[baseline]
        stored, new = result.estimates[STORED][index], result.estimates[scheme][index]
        change = None
        if stored.effect is not None and new.effect is not None:
            change = float(100 * (new.effect - stored.effect))
        before = replicates[STORED][:, a] - replicates[STORED][:, b]
        after = replicates[scheme][:, a] - replicates[scheme][:, b]
        changes.append((change, percentile_interval(_in_pp(after - before), settings.alpha)))
    result.changes[scheme] = changes
    if len(levels) >= 2:
        result.rankings[scheme] = [_ranking(result, levels, scheme, replicates)]


def _ranking(
    result: _Stratum, levels: tuple[str, ...], scheme: str, replicates: Mapping[str, Floats]
) -> Ranking:
    stored = [row.accuracy_pct for row in result.levels[STORED]]
    new = [row.accuracy_pct for row in result.levels[scheme]]
    both = [(s, n) for s, n in zip(stored, new, strict=True) if s is not None and n is not None]
    stored_order, order = _order(levels, stored), _order(levels, new)
    return Ranking(
        scheme=scheme,
        stratum=result.stratum,
        stored_order=stored_order,
        order=order,
        kendall_tau=kendall_tau_b([s for s, _ in both], [n for _, n in both]),
        best_changed=stored_order[0] != order[0],
        p_best=_shares(levels, order, replicates[scheme]),
        stored_p_best=_shares(levels, stored_order, replicates[STORED]),
    )


def _order(levels: tuple[str, ...], accuracy: list[float | None]) -> tuple[str, ...]:
    """Best first; ties keep the listing order (baseline first, then natural); unscored last."""
    ranked = sorted(
        range(len(levels)),
        key=lambda i: (accuracy[i] is None, -(accuracy[i] or 0.0), i),
    )
    return tuple(levels[i] for i in ranked)


def _shares(
    levels: tuple[str, ...], order: tuple[str, ...], replicates: Floats
) -> dict[str, float]:
    share = dict(zip(levels, share_of_best(replicates).tolist(), strict=True))
    return {level: share[level] for level in order}


def _holm_over_strata(parts: list[_Stratum], name: str) -> list[float | None]:
    """Holm over every contrast of one labelling, all strata together (one family)."""
    return holm([e.p for part in parts for e in part.estimates[name]])


def _offsets(parts: list[_Stratum]) -> list[int]:
    """Index of each stratum's first contrast in the labelling-wide Holm list."""
    starts, total = [], 0
    for part in parts:
        starts.append(total)
        total += len(part.pairs)
    return starts


def _contrast(
    settings: ConclusionSettings,
    scheme: str,
    part: _Stratum,
    index: int,
    holm_p: Mapping[str, list[float | None]],
    offset: int,
) -> Contrast:
    level, baseline = part.pairs[index]
    stored, new = part.estimates[STORED][index], part.estimates[scheme][index]
    stored_holm, new_holm = holm_p[STORED][offset + index], holm_p[scheme][offset + index]
    change, change_ci = part.changes[scheme][index]
    return Contrast(
        scheme=scheme,
        stratum=part.stratum,
        level=level,
        baseline=baseline,
        stored_effect_pp=stored.effect_pp,
        stored_ci=stored.ci,
        stored_p=stored.p,
        stored_holm_p=stored_holm,
        effect_pp=new.effect_pp,
        ci=new.ci,
        p=new.p,
        holm_p=new_holm,
        change_pp=change,
        change_ci=change_ci,
        status=contrast_status(
            stored.effect_pp, stored_holm, new.effect_pp, new_holm, change_ci, settings.alpha
        ),
    )
