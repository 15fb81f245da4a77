"""The audit's first two steps: plan which schemes run together (`plan_audit`), then label the
table slice by slice under every scheme (`label_slices`), keeping only rules, spans and labels.

Rows are read and scored in slices: a slice's text and what is made from it (extracted values,
lowercased copies) are freed before the next, so memory grows with the slice, not the table.
Results do not depend on the slicing (every rule is a function of its row).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import polars as pl

from answer_audit.analysis.audit_result import MarkerCounts, ThinkArtifacts
from answer_audit.analysis.audit_settings import AuditSettings
from answer_audit.analysis.markers import TextTally
from answer_audit.parsers import Parser
from answer_audit.schemes.apply import (
    CONSISTENCY,
    ExtractionCache,
    Scheme,
    apply_scheme,
    mask_error_rows,
    row_by_row,
)
from answer_audit.table.lazy import Rows


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


SliceCallback = Callable[[pl.DataFrame, pl.Series, pl.Series, Mapping[str, pl.Series]], None]
"""Called with a labelled slice: rows, has-a-truth mask, stored labels, labels by scheme."""


@dataclass(frozen=True)
class SliceLabels:
    """What labelling every slice leaves: per row of the table, each scheme's rule, span and
    label (columns ``rule, span_start, span_end, correct``), and the text tallies."""

    by_scheme: Mapping[str, pl.DataFrame]
    """By scheme name, one row per table row."""
    consistency: pl.DataFrame | None
    """The stored parse re-scored (`CONSISTENCY`); None without a stored parse."""
    markers: MarkerCounts
    """Role and block markers of the scored rows."""
    think: ThinkArtifacts
    """``</think>`` in the scored rows."""


def label_slices(
    rows: Rows,
    plan: AuditPlan,
    has_truth: pl.Series,
    settings: AuditSettings,
    presets: Mapping[str, Parser] | None,
    workers: int,
    say: Callable[[str], None],
    chunk_rows: int,
    on_slice: SliceCallback | None = None,
) -> SliceLabels:
    """Every scheme of ``plan`` on every slice of ``chunk_rows`` rows; markers and think
    counts are taken meanwhile. ``has_truth`` marks the rows with a usable truth. ``on_slice``
    is handed each labelled slice: its rows, which have a truth, the stored labels and each
    scheme's labels by name (the conclusions count their outcomes that way)."""
    consistency: list[pl.DataFrame] = []
    parts: dict[str, list[pl.DataFrame]] = {s.name: [] for s in plan.schemes}
    tally = TextTally(settings)
    names = ", ".join(s.name for s in plan.schemes)
    with ThreadPoolExecutor(max_workers=max(len(plan.batches), 1)) as threads:
        for start in range(0, max(rows.height, 1), chunk_rows):
            where = _where(start, rows.height, chunk_rows)
            say(f"reading rows{where}")
            chunk = rows.slice(start, chunk_rows)
            pending = [
                threads.submit(label_batch, chunk, batch, settings, presets, workers)
                for batch in plan.batches
            ]
            say(f"scoring {names}{where}")
            truth_here = has_truth.slice(start, chunk.height)
            if "label" in chunk.columns:
                tally.add(chunk, truth_here, chunk["label"])  # while the threads score
            for batch, future in zip(plan.batches, pending, strict=True):
                for scheme, part in zip(batch, future.result(), strict=True):
                    (consistency if scheme is CONSISTENCY else parts[scheme.name]).append(part)
            stored = chunk["label"] if "label" in chunk.columns else consistency[-1]["correct"]
            if "label" not in chunk.columns:  # the stored labels come from the consistency scheme
                tally.add(chunk, truth_here, stored)
            if on_slice is not None:
                on_slice(chunk, truth_here, stored,
                         {name: done[-1]["correct"] for name, done in parts.items()})  # fmt: skip
            del chunk, pending
    return SliceLabels(
        by_scheme={name: pl.concat(chunks) for name, chunks in parts.items()},
        consistency=pl.concat(consistency) if consistency else None,
        markers=tally.markers,
        think=tally.think(),
    )


def _where(start: int, height: int, chunk_rows: int) -> str:
    end = min(start + chunk_rows, height)
    return f" (rows {start:,}-{end:,} of {height:,})" if height > chunk_rows else ""


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
