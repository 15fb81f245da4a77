"""The audit's compare step: each scheme's labels against the stored labels, overall and per
group (flips, error-rate deltas with bootstrap intervals, McNemar and Holm), and which parser
rule produced each scored row.

Works from counts alone: the paired counts and rule counts of a merged `AuditPartial`, summed
over its slices or partitions (`audit_partials`), so every engine compares the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from answer_audit.analysis.audit_partials import PAIR_COUNTS, AuditPartial
from answer_audit.analysis.audit_result import (
    GroupCell,
    GroupRuleCounts,
    PairedComparison,
    RuleCounts,
    SchemeSummary,
)
from answer_audit.analysis.audit_settings import AuditSettings
from answer_audit.analysis.stats import holm, mcnemar, paired_delta_ci_counts
from answer_audit.schemes.apply import Scheme


def compare_counts(
    partial: AuditPartial, schemes: Sequence[Scheme], settings: AuditSettings
) -> tuple[tuple[SchemeSummary, ...], tuple[GroupCell, ...]]:
    """Each scheme against the stored labels, overall and per group, from the paired counts;
    the cells in report order (largest |Δpp|, most flips first)."""
    summaries, cells = [], []
    for i, scheme in enumerate(schemes):
        mine = partial.pairs.filter(pl.col("_scheme") == i)
        overall = paired_comparison(mine.select(pl.col(PAIR_COUNTS).sum()).row(0, named=True),
                                    settings)  # fmt: skip
        scheme_cells = group_cells(scheme.name, mine, settings)
        summaries.append(scheme_summary(scheme, overall, scheme_cells, settings.alpha))
        cells.extend(scheme_cells)
    ordered = sorted(cells, key=lambda c: (-abs(c.stats.delta_pp), -c.stats.flips, c.scheme))
    return tuple(summaries), tuple(ordered)


def scheme_summary(
    scheme: Scheme, overall: PairedComparison, cells: Sequence[GroupCell], alpha: float
) -> SchemeSummary:
    """One scheme's line: its overall comparison, largest group delta and significant groups."""
    significant = [c for c in cells if c.holm_p is not None and c.holm_p < alpha]
    max_abs = max((abs(c.stats.delta_pp) for c in cells), default=0.0)
    return SchemeSummary(
        name=scheme.name,
        parser=scheme.parser,
        normalizer=scheme.normalizer,
        overall=overall,
        max_abs_delta_pp=max_abs,
        significant_groups=len(significant),
        groups=len(cells),
        verdict=verdict(overall, max_abs, significant, len(cells), alpha),
    )


def group_cells(scheme: str, counts: pl.DataFrame, settings: AuditSettings) -> list[GroupCell]:
    """One cell per group with rows, in group order, McNemar p Holm-adjusted across them;
    ``counts`` holds the scheme's paired counts by group."""
    group_by = settings.group_by
    if not group_by:
        counts = counts.select(pl.col(PAIR_COUNTS).sum())
    compared = [
        ({g: r[g] for g in group_by}, paired_comparison(r, settings))
        for r in counts.iter_rows(named=True)
        if r["_n"]
    ]
    compared.sort(key=lambda gc: tuple(str(v) for v in gc[0].values()))
    adjusted = holm([stats.mcnemar_p for _, stats in compared])
    return [
        GroupCell(scheme=scheme, group=group, stats=stats, holm_p=p)
        for (group, stats), p in zip(compared, adjusted, strict=True)
    ]


def paired_comparison(counts: Mapping[str, Any], settings: AuditSettings) -> PairedComparison:
    """The comparison from the paired counts ``_n``, ``_both``, ``_b`` and ``_c``."""
    n, both, b, c = (int(counts[k] or 0) for k in ("_n", "_both", "_b", "_c"))
    stored_err = (1 - (both + b) / n) * 100 if n else 0.0
    err = (1 - (both + c) / n) * 100 if n else 0.0
    ci = (
        paired_delta_ci_counts(both, b, c, n - both - b - c, B=settings.n_boot, seed=settings.seed)
        if n
        else (0.0, 0.0)
    )
    return PairedComparison(
        n=n,
        flips=b + c,
        stored_right_scheme_wrong=b,
        stored_wrong_scheme_right=c,
        stored_error_pct=float(stored_err),
        error_pct=float(err),
        delta_pp=float(err - stored_err),
        delta_ci=(float(ci[0]), float(ci[1])),
        mcnemar_p=float(mcnemar(b, c)),
    )


def verdict(
    overall: PairedComparison,
    max_abs: float,
    significant: Sequence[GroupCell],
    n_groups: int,
    alpha: float,
) -> str:
    """One line with the overall delta, its interval and p, and the significant groups."""
    lo, hi = overall.delta_ci
    head = (
        f"overall Δ {overall.delta_pp:+.1f} pp (95% CI {lo:+.1f} to {hi:+.1f}, "
        f"McNemar p={overall.mcnemar_p:.3g}); max |Δ| {max_abs:.1f} pp over {n_groups} group(s)"
    )
    if not significant:
        return f"{head}; no group significant at {alpha:g} after Holm"
    worst = max(significant, key=lambda c: abs(c.stats.delta_pp))
    where = ", ".join(f"{k}={v}" for k, v in worst.group.items()) or "all rows"
    return (
        f"{head}; {len(significant)} group(s) significant at {alpha:g} after Holm "
        f"(largest: {where}, Δ {worst.stats.delta_pp:+.1f} pp)"
    )


def rule_counts_of(
    partial: AuditPartial, schemes: Sequence[Scheme], group_by: Sequence[str]
) -> dict[str, RuleCounts]:
    """By parsing scheme: how often each rule fired, overall and per group."""
    return {
        scheme.name: rule_counts(partial.rules.filter(pl.col("_scheme") == i), group_by)
        for i, scheme in enumerate(schemes)
        if not scheme.uses_stored_parse
    }


def rule_counts(counts: pl.DataFrame, group_by: Sequence[str]) -> RuleCounts:
    """One scheme's rule counts (columns: the groups, ``_rule``, ``_count``), overall (most
    frequent first) and per group (in group order)."""
    overall_rows = (
        counts.group_by("_rule").agg(pl.col("_count").sum())
        .sort(["_count", "_rule"], descending=[True, False])
    )  # fmt: skip
    overall: dict[str, int] = dict(overall_rows.iter_rows())
    if not group_by:
        return RuleCounts(overall, (GroupRuleCounts({}, dict(sorted(overall.items()))),))
    # Grouped by Polars, not by a dict of Python keys: NaN stays one group (NaN != NaN).
    per = counts.group_by(list(group_by)).agg(pl.col("_rule"), pl.col("_count")).iter_rows()
    grouped = [(tuple(r[:-2]), dict(zip(r[-2], r[-1], strict=True))) for r in per]
    groups = tuple(
        GroupRuleCounts(dict(zip(group_by, key, strict=True)), dict(sorted(c.items())))
        for key, c in sorted(grouped, key=lambda kv: tuple(map(str, kv[0])))
    )
    return RuleCounts(overall, groups)
