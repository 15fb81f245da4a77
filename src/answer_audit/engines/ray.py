"""The audit and the rescore on a Ray cluster: Parquet read with Ray Data, rows labelled on the
workers, only mergeable partials sent back to the driver.

Each Ray batch becomes the canonical rows of its file's slice (`ray_data.batch_rows_of`),
labelled exactly as one machine labels a slice (`label_partial`, `rescore_partial`), then
summarised with the reader's facts (`ReadFacts`). The driver merges the summaries and ends where
every engine ends (`result_of`, `rescore_result`): the same report as
`answer_audit.analysis.audit.audit` or `answer_audit.analysis.rescore.rescore` on the same rows,
whatever the partitioning.

Limits: Parquet only, and the table needs an id column (generated ids are row numbers, and a
Ray batch does not know its rows' numbers). The rescore's rows (``out``) are written as a
folder of Parquet files, one per batch, by the workers.

Example (a local cluster is started, and stopped, when none is running)::

    from answer_audit.engines.ray import audit_parquet, rescore_parquet
    cmap = ColumnMap(id="trial_id", raw="raw", label="correct", truth="answer")
    audit = audit_parquet("runs/", cmap)
    rescored = rescore_parquet("runs/", cmap, "choice/v4", out="rescored/")
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import polars as pl
import pyarrow as pa

from answer_audit.analysis.audit import (
    check_inputs,
    checked_schemes,
    checked_settings,
    presets_with_choices,
)
from answer_audit.analysis.audit_inputs import (
    audit_input_notes,
    check_stored_schemes,
    runnable_schemes,
)
from answer_audit.analysis.audit_labels import AuditPlan, plan_audit
from answer_audit.analysis.audit_partials import AuditPartial, label_partial, merge_partials
from answer_audit.analysis.audit_result import AuditResult
from answer_audit.analysis.audit_settings import AuditSettings
from answer_audit.analysis.audit_totals import result_of
from answer_audit.analysis.input_notes import TruthTally
from answer_audit.analysis.rescore import rename_notes, row_columns, row_frame
from answer_audit.analysis.rescore_partials import (
    RescorePartial,
    RescorePlan,
    label_rows,
    merge_rescore_partials,
    plan_rescore,
    rescore_partial,
)
from answer_audit.analysis.rescore_result import RescoreResult, output_names
from answer_audit.analysis.rescore_totals import rescore_result
from answer_audit.engines.ray_data import (
    BATCH_ROWS,
    NEEDS_ID,
    ReadFacts,
    batch_rows_of,
    canonical_columns,
    check_read,
    merged_summaries,
    parquet_files,
    ray_running,
    read_coverage,
    read_notes,
    source_names,
)
from answer_audit.parsers import Parser
from answer_audit.schemes.apply import Scheme, default_schemes
from answer_audit.table.canonical import ColumnMap
from answer_audit.table.errors import SourceError
from answer_audit.table.lazy import InMemoryRows

__all__ = [
    "BATCH_ROWS",
    "NEEDS_ID",
    "AuditSummary",
    "RescoreSummary",
    "audit_parquet",
    "parquet_files",
    "rescore_parquet",
]

Source = str | os.PathLike[str] | Sequence[str | os.PathLike[str]]


@dataclass(frozen=True)
class AuditSummary:
    """What a worker sends back for one batch of the audit: no row, only counts and examples."""

    partial: AuditPartial
    """The batch's audit partial."""
    facts: ReadFacts
    """What the reader counts (rows per file, truths, labels, cells that look missing)."""
    truths: TruthTally
    """The truth column as the kind sees it (for the input notes)."""

    def merge(self, other: AuditSummary, max_examples: int) -> AuditSummary:
        """The summary of both batches' rows."""
        return AuditSummary(merge_partials([self.partial, other.partial], max_examples),
                            self.facts.merge(other.facts), self.truths.merge(other.truths))  # fmt: skip


def audit_parquet(
    source: Source,
    column_map: ColumnMap,
    schemes: Sequence[Scheme] | None = None,
    settings: AuditSettings | None = None,
    *,
    presets: Mapping[str, Parser] | None = None,
    address: str | None = None,
    user_schemes: Collection[str] | None = None,
    batch_rows: int = BATCH_ROWS,
) -> AuditResult:
    """The audit (`answer_audit.analysis.audit.audit`) of Parquet files, run on Ray: the same
    report as one machine gives for the same files, with the reader's coverage and notes.

    ``source`` is a file, a directory, a glob or a list (`parquet_files`); ``column_map``
    must name an id column. ``address`` is a Ray cluster's (``"auto"``, ``"ray://head:10001"``);
    without one, a running Ray is used, else a local one is started and stopped afterwards.
    ``user_schemes`` (the command line's): the names of the caller's own schemes; the others
    that the table cannot run are then left out with a note (as `runnable_schemes` says).
    """
    if column_map.id is None:
        raise ValueError(NEEDS_ID)
    settings = checked_settings(settings)
    presets = presets_with_choices(presets, settings)
    chosen = settings.conclusion_settings()
    item = None if chosen is None else chosen.item
    column_map = _reading_map(column_map, None if chosen is None else chosen.compare, item)
    files = parquet_files(source)
    names = source_names(files)
    skipped: list[str] = []
    columns, _ = canonical_columns(column_map, files[0])  # checked before Ray starts
    if schemes is None:
        schemes, skipped = runnable_schemes(default_schemes(settings.kind), columns)
    else:
        schemes = checked_schemes(schemes)
        if user_schemes is not None:
            schemes, skipped = runnable_schemes(schemes, columns, asked=user_schemes)
    check_inputs(_no_rows(columns), schemes, settings, presets)
    check_stored_schemes(schemes, columns)
    plan = plan_audit(columns, schemes, settings, presets, 1)
    with ray_running(address):
        summary = merged_summaries(
            files,
            lambda batch: summarise_audit_batch(batch, plan, column_map, settings, presets, names),
            lambda a, b: a.merge(b, settings.max_examples),
            batch_rows,
        )
        facts = check_read(files, None if summary is None else summary.facts, column_map)
        notes = read_notes(files, facts, columns, column_map)
    assert summary is not None
    coverage = read_coverage(files, names, facts, column_map)
    result = result_of(summary.partial, schemes, settings, recorded_labels="label" in columns,
                       source_coverage=coverage, presets=presets)  # fmt: skip
    result = result.with_notes(*audit_input_notes(result, summary.truths))
    return result.with_notes(*notes, *skipped)


def summarise_audit_batch(
    batch: pa.Table,
    plan: AuditPlan,
    cmap: ColumnMap,
    settings: AuditSettings,
    presets: Mapping[str, Parser] | None,
    names: Mapping[str, str],
) -> AuditSummary:
    """One Ray batch (rows of one or more files) as the audit's summary."""
    _, chunk, paths = batch_rows_of(batch, cmap, names)
    truths = TruthTally.of(chunk["truth"], settings.kind) if "truth" in chunk.columns else None
    return AuditSummary(label_partial(chunk, plan, settings, presets, 1),
                        ReadFacts.of(chunk, paths, cmap), truths or TruthTally())  # fmt: skip


@dataclass(frozen=True)
class RescoreSummary:
    """What a worker sends back for one batch of the rescore: no row, only counts and ids."""

    partial: RescorePartial
    """The batch's rescore partial."""
    facts: ReadFacts
    """What the reader counts."""

    def merge(self, other: RescoreSummary) -> RescoreSummary:
        """The summary of both batches' rows."""
        merged = merge_rescore_partials([self.partial, other.partial])
        return RescoreSummary(merged, self.facts.merge(other.facts))


def rescore_parquet(
    source: Source,
    column_map: ColumnMap,
    parser: str | Parser = "choice/v3",
    *,
    presets: Mapping[str, Parser] | None = None,
    choices: str | None = None,
    normalizer: str | None = None,
    n_boot: int = 1000,
    seed: int = 0,
    ci: float = 0.95,
    compare: str | None = None,
    baseline: str | None = None,
    item: str | None = None,
    address: str | None = None,
    out: str | os.PathLike[str] | None = None,
    batch_rows: int = BATCH_ROWS,
) -> RescoreResult:
    """The rescore (`answer_audit.analysis.rescore.rescore`) of Parquet files, run on Ray: the
    same report as one machine gives for the same files (grouped by ``column_map.group_by``).

    ``source``, ``column_map`` and ``address`` as in `audit_parquet`; the other settings as in
    ``rescore``. ``out``: a folder (new, or empty) that the workers write every input row and
    its new labels to, one Parquet file per batch (``part-<hash>.parquet``); it must be a
    path every node can write to. The result holds no rows: ``annotate()`` is not available.
    """
    if column_map.id is None:
        raise ValueError(NEEDS_ID)
    reading = _reading_map(column_map, compare, item)
    files = parquet_files(source)
    names = source_names(files)
    columns, original = canonical_columns(reading, files[0])  # checked before Ray starts
    plan = plan_rescore(columns, parser, presets=presets, choices=choices, normalizer=normalizer,
                        group_by=column_map.group_by, n_boot=n_boot, seed=seed, ci=ci,
                        compare=compare, baseline=baseline, item=item)  # fmt: skip
    folder = None if out is None else _empty_folder(Path(out))
    with ray_running(address):
        summary = merged_summaries(
            files,
            lambda batch: summarise_rescore_batch(batch, plan, reading, names, folder),
            RescoreSummary.merge,
            batch_rows,
        )
        facts = check_read(files, None if summary is None else summary.facts, reading)
        notes = read_notes(files, facts, columns, reading)
    assert summary is not None
    new_columns = row_columns(plan)
    return rescore_result(summary.partial, plan,
                          source_coverage=read_coverage(files, names, facts, reading),
                          notes=[*notes, *rename_notes(original, new_columns)])  # fmt: skip


def summarise_rescore_batch(
    batch: pa.Table,
    plan: RescorePlan,
    cmap: ColumnMap,
    names: Mapping[str, str],
    folder: Path | None,
) -> RescoreSummary:
    """One Ray batch as the rescore's summary; with a ``folder``, its rows and their new labels
    are written there (one file, named by the batch's content: a retried batch rewrites it)."""
    rows, chunk, paths = batch_rows_of(batch, cmap, names)
    labels = label_rows(chunk, plan)
    if folder is not None:
        new = row_frame(labels.new, labels.old)
        _write_part(pl.concat([rows, new.rename(output_names(rows.columns, new.columns))],
                              how="horizontal"), paths, chunk["id"], folder)  # fmt: skip
    return RescoreSummary(rescore_partial(chunk, labels, plan), ReadFacts.of(chunk, paths, cmap))


def _write_part(frame: pl.DataFrame, paths: pl.Series, ids: pl.Series, folder: Path) -> None:
    """``frame`` written atomically to ``folder`` under a name its rows decide."""
    digest = hashlib.blake2b(digest_size=10)
    for column in (paths, ids.cast(pl.String)):
        digest.update("\x1f".join(str(v) for v in column.to_list()).encode())
        digest.update(b"\x1e")
    target = folder / f"part-{digest.hexdigest()}.parquet"
    partial = target.with_suffix(".parquet.tmp")
    frame.write_parquet(partial)
    partial.replace(target)


def _empty_folder(out: Path) -> Path:
    """The rows' folder, created; refused when it is a file or holds files already (parts of
    an earlier run would mix with this one's)."""
    if out.exists() and not out.is_dir():
        raise SourceError(
            f"{out}: the Ray engine writes the rows as a folder of Parquet files (one per "
            "batch); give a folder that does not exist yet, e.g. rescored/"
        )
    if out.is_dir() and any(out.iterdir()):
        raise SourceError(
            f"{out}: the folder is not empty; give a new or empty folder for the rows"
        )
    out.mkdir(parents=True, exist_ok=True)
    return out.resolve()


def _reading_map(cmap: ColumnMap, compare: str | None, item: str | None) -> ColumnMap:
    """The map to read with: the compared and item columns read as group columns too (the
    conclusions count by them; the report's groups stay the caller's)."""
    asked = [c for c in (compare, item) if c]
    extra = [c for c in asked if c != "source" and c not in cmap.group_by]
    return replace(cmap, group_by=(*cmap.group_by, *dict.fromkeys(extra))) if extra else cmap


def _no_rows(columns: Sequence[str]) -> InMemoryRows:
    """An empty table with the canonical columns: what the input checks look at."""
    return InMemoryRows(pl.DataFrame(schema=dict.fromkeys(columns, pl.String)))
