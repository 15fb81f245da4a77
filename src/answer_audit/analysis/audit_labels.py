"""The audit's first two steps: plan which schemes run together (`plan_audit`), then label a
slice of rows under every scheme of a batch (`label_batch`), keeping only rules, spans and labels.

Rows are read and scored in slices (`analysis.audit.label_slices`): a slice's text and what is
made from it (extracted values, lowercased copies) are freed before the next, so memory grows
with the slice, not the table. Results do not depend on the slicing (every rule is a function of
its row).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import polars as pl

from answer_audit.analysis.audit_settings import AuditSettings
from answer_audit.parsers import Parser
from answer_audit.schemes.apply import (
    CONSISTENCY,
    ExtractionCache,
    Scheme,
    apply_scheme,
    mask_error_rows,
    row_by_row,
)


@dataclass(frozen=True)
class AuditPlan:
    """Which schemes run, and which run together on each slice."""

    schemes: tuple[Scheme, ...]
    """The caller's schemes, in report order."""
    batches: tuple[tuple[Scheme, ...], ...]
    """Schemes run one after another in one thread per slice: one batch per parser (schemes
    sharing a parser extract once), then the row-by-row schemes handed to worker processes."""
    checks_consistency: bool
    """Whether the stored parse is re-scored too (`CONSISTENCY`, in the first batch)."""


def plan_audit(
    columns: Sequence[str],
    schemes: Sequence[Scheme],
    settings: AuditSettings,
    presets: Mapping[str, Parser] | None,
    workers: int,
) -> AuditPlan:
    """The batches of a slice. They run side by side: the vectorized ones in threads (Polars
    works outside the GIL) and, with worker processes, the row-by-row ones from another thread
    that hands them to the workers. Same results as one scheme after another."""
    background = [s for s in schemes if workers > 1 and row_by_row(s, settings.kind, presets)]
    by_parser: dict[str, list[Scheme]] = {}
    checks_consistency = "parsed" in columns
    if checks_consistency:
        by_parser[CONSISTENCY.parser] = [CONSISTENCY]
    for scheme in schemes:
        if scheme not in background:
            by_parser.setdefault(scheme.parser, []).append(scheme)
    batches = [*by_parser.values(), *([background] if background else [])]
    return AuditPlan(tuple(schemes), tuple(tuple(b) for b in batches), checks_consistency)


def label_batch(
    chunk: pl.DataFrame,
    schemes: Sequence[Scheme],
    settings: AuditSettings,
    presets: Mapping[str, Parser] | None,
    workers: int,
) -> list[pl.DataFrame]:
    """`label_slice` for several schemes of one slice, in order, sharing extractions."""
    cache: ExtractionCache = {}
    return [label_slice(chunk, s, settings, presets, cache, workers) for s in schemes]


def label_slice(
    chunk: pl.DataFrame,
    scheme: Scheme,
    settings: AuditSettings,
    presets: Mapping[str, Parser] | None,
    cache: ExtractionCache,
    workers: int,
) -> pl.DataFrame:
    """One scheme on one slice: rule, span and label per row (the values are not kept)."""
    labelled = apply_scheme(chunk, scheme, settings.kind, presets, cache, workers)
    return mask_error_rows(chunk, labelled).select("rule", "span_start", "span_end", "correct")
