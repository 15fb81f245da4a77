"""The audit's compare step: each scheme's labels against the stored labels, overall and per
group (flips, error-rate deltas with bootstrap intervals, McNemar and Holm), and which parser
rule produced each scored row.

Works on the scored table (`scored_table`): the group columns, ``_stored`` and one ``_ok<i>``
column per scheme, one row per scored row.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

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

RowIndices = np.ndarray[Any, np.dtype[np.intp]]


@dataclass(frozen=True)
class Comparisons:
    """Every scheme compared with the stored labels."""

    summaries: tuple[SchemeSummary, ...]
    """One per scheme, in scheme order."""
    cells: tuple[GroupCell, ...]
    """Every scheme in every group, in report order (largest |Δpp|, most flips first)."""
    flipped: Mapping[str, RowIndices]
    """By scheme name: the scored rows (indices among them) whose label the scheme flips."""
    rules: Mapping[str, RuleCounts]
    """By scheme name, for schemes that parse: the rules behind the scored rows."""


def ok_column(index: int) -> str:
    """The scored table's column of the ``index``-th scheme's labels."""
    return f"_ok{index}"


def scored_table(
    small: pl.DataFrame,
    stored: pl.Series,
    scored: pl.Series,
    labels: Sequence[pl.Series],
    group_by: Sequence[str],
) -> pl.DataFrame:
    """One row per scored row: its groups, the stored label and each scheme's label."""
    return (
        small.select(*group_by, stored.cast(pl.Boolean).alias("_stored"))
        .filter(scored)
        .with_columns(**{ok_column(i): ok.filter(scored) for i, ok in enumerate(labels)})
    )


def compare(
    schemes: Sequence[Scheme],
    table: pl.DataFrame,
    rules: Mapping[str, pl.Series],
    settings: AuditSettings,
) -> Comparisons:
    """Compare each scheme (column `ok_column(i)` of ``table``) with ``table["_stored"]``;
    ``rules`` holds each parsing scheme's rule per scored row."""
    summaries, cells, flipped = [], [], {}
    stored_ok = table["_stored"].to_numpy().astype(bool)
    for i, scheme in enumerate(schemes):
        summary, scheme_cells = compare_scheme(scheme, table, ok_column(i), settings)
        summaries.append(summary)
        cells.extend(scheme_cells)
        # A row the scheme's matcher cannot judge (null) is left out of its comparison.
        ok = table[ok_column(i)]
        judged = ok.is_not_null().to_numpy()
        flipped[scheme.name] = np.flatnonzero(
            judged & (ok.fill_null(False).to_numpy() != stored_ok)
        )
    counted = {
        name: rule_counts(table.with_columns(rule.alias("_rule")), settings.group_by)
        for name, rule in rules.items()
    }
    return Comparisons(
        summaries=tuple(summaries),
        cells=tuple(
            sorted(cells, key=lambda c: (-abs(c.stats.delta_pp), -c.stats.flips, c.scheme))
        ),
        flipped=flipped,
        rules=counted,
    )


# Underscored names: a group column may well be called "n" or "c".
_COUNTS = {
    "_n": pl.len(),
    "_both": (pl.col("_stored") & pl.col("_ok")).sum(),
    "_b": (pl.col("_stored") & ~pl.col("_ok")).sum(),  # stored right, scheme wrong
    "_c": (~pl.col("_stored") & pl.col("_ok")).sum(),
}


def compare_scheme(
    scheme: Scheme, table: pl.DataFrame, ok: str, settings: AuditSettings
) -> tuple[SchemeSummary, list[GroupCell]]:
    """Overall and per-group comparison of one scheme with the stored labels, from counts."""
    # Rows this scheme's matcher cannot judge (e.g. `numeric` on a truth without a number) are
    # not scheme errors: they are left out of its n, like rescore leaves them out.
    t = table.select(*settings.group_by, "_stored", pl.col(ok).alias("_ok")).filter(
        pl.col("_ok").is_not_null()
    )
    overall = paired_comparison(t.select(**_COUNTS).row(0, named=True), settings)
    cells = group_cells(scheme.name, t, settings)
    significant = [c for c in cells if c.holm_p is not None and c.holm_p < settings.alpha]
    max_abs = max((abs(c.stats.delta_pp) for c in cells), default=0.0)
    summary = SchemeSummary(
        name=scheme.name,
        parser=scheme.parser,
        normalizer=scheme.normalizer,
        overall=overall,
        max_abs_delta_pp=max_abs,
        significant_groups=len(significant),
        groups=len(cells),
        verdict=verdict(overall, max_abs, significant, len(cells), settings.alpha),
    )
    return summary, cells


def group_cells(scheme: str, t: pl.DataFrame, settings: AuditSettings) -> list[GroupCell]:
    """One cell per group with rows, in group order, McNemar p Holm-adjusted across them."""
    group_by = settings.group_by
    per_group = t.group_by(group_by).agg(**_COUNTS) if group_by else t.select(**_COUNTS)
    compared = [
        ({g: r[g] for g in group_by}, paired_comparison(r, settings))
        for r in per_group.iter_rows(named=True)
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


def rule_counts(table: pl.DataFrame, group_by: Sequence[str]) -> RuleCounts:
    """How often each rule (column ``_rule``) fired, overall and per group."""
    overall_rows = table.group_by("_rule").len().sort(["len", "_rule"], descending=[True, False])
    overall: dict[str, int] = dict(overall_rows.iter_rows())
    if not group_by:
        return RuleCounts(overall, (GroupRuleCounts({}, dict(sorted(overall.items()))),))
    # Grouped by Polars, not by a dict of Python keys: NaN stays one group (NaN != NaN).
    per = table.group_by(list(group_by)).agg(pl.col("_rule")).iter_rows()
    grouped = [(tuple(r[:-1]), Counter(r[-1])) for r in per]
    groups = tuple(
        GroupRuleCounts(dict(zip(group_by, key, strict=True)), dict(sorted(c.items())))
        for key, c in sorted(grouped, key=lambda kv: tuple(map(str, kv[0])))
    )
    return RuleCounts(overall, groups)
