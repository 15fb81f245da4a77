"""From a merged `AuditPartial` to the report's parts: comparisons, rule counts, coverage,
consistency, ``</think>`` artifacts and examples, each computed from counts alone.

The same statistics as `audit_compare` computes from a scored table (`paired_comparison`,
`holm`, `verdict`), fed with counts summed over the partitions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import polars as pl

from answer_audit.analysis.audit_compare import paired_comparison, verdict
from answer_audit.analysis.audit_partials import PAIR_COUNTS, AuditPartial
from answer_audit.analysis.audit_result import (
    AuditResult,
    Consistency,
    Coverage,
    FlipExample,
    GroupCell,
    GroupRuleCounts,
    RuleCounts,
    SchemeSummary,
    SkippedRows,
    ThinkArtifacts,
)
from answer_audit.analysis.audit_settings import AuditSettings
from answer_audit.analysis.conclusions import conclusions_from_counts
from answer_audit.analysis.conclusions_results import STORED
from answer_audit.analysis.conclusions_section import ConclusionsSection, rematched_name
from answer_audit.analysis.stats import holm
from answer_audit.parsers import Parser
from answer_audit.schemes.apply import CONSISTENCY, Scheme
from answer_audit.schemes.kinds import KINDS
from answer_audit.schemes.labels import outside_choices


def compare_counts(
    partial: AuditPartial, schemes: Sequence[Scheme], settings: AuditSettings
) -> tuple[tuple[SchemeSummary, ...], tuple[GroupCell, ...]]:
    """Each scheme against the stored labels, overall and per group, from the paired counts."""
    summaries, cells = [], []
    for i, scheme in enumerate(schemes):
        mine = partial.pairs.filter(pl.col("_scheme") == i)
        overall = paired_comparison(mine.select(pl.col(PAIR_COUNTS).sum()).row(0, named=True),
                                    settings)  # fmt: skip
        scheme_cells = _group_cells(scheme.name, mine, settings)
        significant = [
            c for c in scheme_cells if c.holm_p is not None and c.holm_p < settings.alpha
        ]
        max_abs = max((abs(c.stats.delta_pp) for c in scheme_cells), default=0.0)
        summaries.append(
            SchemeSummary(
                name=scheme.name,
                parser=scheme.parser,
                normalizer=scheme.normalizer,
                overall=overall,
                max_abs_delta_pp=max_abs,
                significant_groups=len(significant),
                groups=len(scheme_cells),
                verdict=verdict(overall, max_abs, significant, len(scheme_cells), settings.alpha),
            )
        )
        cells.extend(scheme_cells)
    ordered = sorted(cells, key=lambda c: (-abs(c.stats.delta_pp), -c.stats.flips, c.scheme))
    return tuple(summaries), tuple(ordered)


def _group_cells(scheme: str, counts: pl.DataFrame, settings: AuditSettings) -> list[GroupCell]:
    """One cell per group with rows, in group order, McNemar p Holm-adjusted across them."""
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


def rule_counts_of(
    partial: AuditPartial, schemes: Sequence[Scheme], group_by: Sequence[str]
) -> dict[str, RuleCounts]:
    """By parsing scheme: how often each rule fired, overall and per group."""
    out = {}
    for i, scheme in enumerate(schemes):
        if scheme.uses_stored_parse:
            continue
        mine = partial.rules.filter(pl.col("_scheme") == i)
        overall_rows = (
            mine.group_by("_rule").agg(pl.col("_count").sum())
            .sort(["_count", "_rule"], descending=[True, False])
        )  # fmt: skip
        overall: dict[str, int] = dict(overall_rows.iter_rows())
        if not group_by:
            out[scheme.name] = RuleCounts(
                overall, (GroupRuleCounts({}, dict(sorted(overall.items()))),)
            )
            continue
        per = mine.group_by(list(group_by)).agg(pl.col("_rule"), pl.col("_count")).iter_rows()
        grouped = [(tuple(r[:-2]), dict(zip(r[-2], r[-1], strict=True))) for r in per]
        groups = tuple(
            GroupRuleCounts(dict(zip(group_by, key, strict=True)), dict(sorted(c.items())))
            for key, c in sorted(grouped, key=lambda kv: tuple(map(str, kv[0])))
        )
        out[scheme.name] = RuleCounts(overall, groups)
    return out


def coverage_of(partial: AuditPartial, source: Mapping[str, Any] | None) -> Coverage:
    """Rows, scored rows, skipped rows and groups."""
    return Coverage(
        rows=partial.rows,
        scored=partial.scored,
        skipped=SkippedRows(
            no_truth=partial.rows - partial.rows_with_truth,
            no_stored_label=partial.truth_without_stored,
        ),
        groups=partial.groups.height,
        rows_with_truth=partial.rows_with_truth,
        source=dict(source or {}),
    )


def check_scored(partial: AuditPartial) -> None:
    """Refuse a table in which no row has both a truth and a stored label."""
    if partial.rows and not partial.scored:
        # Error rates of 0.00 over no rows would read as "no errors"; say what is missing.
        raise ValueError(
            f"no row has both a truth and a stored label ({partial.rows - partial.rows_with_truth}"
            f" of {partial.rows} without a truth, {partial.stored_missing} without a stored "
            "label); check --truth, --label/--parsed and --null-values"
        )


def consistency_of(partial: AuditPartial) -> Consistency | None:
    """The stored parse re-scored against the stored labels (when the table has both)."""
    if partial.consistency_mismatches is None:
        return None
    return Consistency(
        scheme=CONSISTENCY.spec(), n=partial.scored, mismatches=partial.consistency_mismatches
    )


def think_of(partial: AuditPartial, settings: AuditSettings) -> ThinkArtifacts:
    """The ``</think>`` counts, the losses in key order."""
    free_text = KINDS[settings.kind].compares_text
    return ThinkArtifacts(
        rows=partial.think_rows,
        post_think_flips=partial.post_think_flips if free_text else None,
        stored_right_post_think_wrong=tuple(loss for _, loss in partial.think_losses),
    )


def examples_of(partial: AuditPartial) -> tuple[FlipExample, ...]:
    """The chosen flips, in scheme order, then key order."""
    ordered = sorted(partial.examples, key=lambda e: (e[0][1], e[0][0]))
    return tuple(example for _, example in ordered)


def result_of(
    partial: AuditPartial,
    schemes: Sequence[Scheme],
    settings: AuditSettings,
    *,
    recorded_labels: bool,
    source_coverage: Mapping[str, Any] | None = None,
    presets: Mapping[str, Parser] | None = None,
    say: Callable[[str], None] = lambda message: None,
) -> AuditResult:
    """The audit of the rows merged into ``partial`` (every engine ends here)."""
    check_scored(partial)
    say("comparing with the stored labels")
    summaries, cells = compare_counts(partial, schemes, settings)
    notes: tuple[str, ...] = ()
    if KINDS[settings.kind].default_choices is not None:
        truths = pl.Series(sorted(partial.truths), dtype=pl.String)
        notes = tuple(outside_choices(truths, schemes, presets))
    conclusions = None
    if settings.conclusion_settings() is not None:
        say("drawing conclusions")
        chosen = settings.conclusion_settings()
        assert chosen is not None and partial.outcomes is not None
        stored = STORED if recorded_labels else rematched_name(CONSISTENCY.normalizer)
        conclusions = ConclusionsSection(conclusions_from_counts(partial.outcomes, chosen), stored)
    return AuditResult(
        settings=settings,
        coverage=coverage_of(partial, source_coverage),
        consistency=consistency_of(partial),
        schemes=summaries,
        cells=cells,
        markers=partial.markers,
        think=think_of(partial, settings),
        rules=rule_counts_of(partial, schemes, settings.group_by),
        examples=examples_of(partial),
        notes=notes,
        conclusions=conclusions,
        recorded_labels=recorded_labels,
    )
