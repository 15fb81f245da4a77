"""From a merged `AuditPartial` to the `AuditResult` (`result_of`, where every engine ends):
the comparisons and rule counts (`audit_compare`), the examples (`audit_examples`), coverage,
consistency, ``</think>`` artifacts and conclusions, each computed from counts alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import polars as pl

from answer_audit.analysis.audit_compare import compare_counts, rule_counts_of
from answer_audit.analysis.audit_examples import examples_in_order
from answer_audit.analysis.audit_partials import AuditPartial
from answer_audit.analysis.audit_result import (
    AuditResult,
    Consistency,
    Coverage,
    SkippedRows,
    ThinkArtifacts,
)
from answer_audit.analysis.audit_settings import AuditSettings
from answer_audit.analysis.conclusions import conclusions_from_counts
from answer_audit.analysis.conclusions_results import STORED
from answer_audit.analysis.conclusions_section import ConclusionsSection, rematched_name
from answer_audit.parsers import Parser
from answer_audit.schemes.apply import CONSISTENCY, Scheme
from answer_audit.schemes.kinds import KINDS
from answer_audit.schemes.labels import outside_choices


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


def choice_notes(
    partial: AuditPartial,
    schemes: Sequence[Scheme],
    settings: AuditSettings,
    presets: Mapping[str, Parser] | None,
) -> tuple[str, ...]:
    """For choice kinds: notes on scored truths outside a scheme's choice letters."""
    if KINDS[settings.kind].default_choices is None:
        return ()
    truths = pl.Series(sorted(partial.truths), dtype=pl.String)
    return tuple(outside_choices(truths, schemes, presets))


def conclusions_of(
    partial: AuditPartial,
    settings: AuditSettings,
    *,
    recorded_labels: bool,
    say: Callable[[str], None],
) -> ConclusionsSection | None:
    """The conclusions of the counted outcomes, held against the recorded labels when the table
    has them, else against the stored parse re-matched; None without ``settings.compare``."""
    chosen = settings.conclusion_settings()
    if chosen is None:
        return None
    say("drawing conclusions")
    assert partial.outcomes is not None
    stored = STORED if recorded_labels else rematched_name(CONSISTENCY.normalizer)
    return ConclusionsSection(conclusions_from_counts(partial.outcomes, chosen), stored)


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
    conclusions = conclusions_of(partial, settings, recorded_labels=recorded_labels, say=say)
    return AuditResult(
        settings=settings,
        coverage=coverage_of(partial, source_coverage),
        consistency=consistency_of(partial),
        schemes=summaries,
        cells=cells,
        markers=partial.markers,
        think=think_of(partial, settings),
        rules=rule_counts_of(partial, schemes, settings.group_by),
        examples=examples_in_order(partial.examples),
        notes=choice_notes(partial, schemes, settings, presets),
        conclusions=conclusions,
        recorded_labels=recorded_labels,
    )
