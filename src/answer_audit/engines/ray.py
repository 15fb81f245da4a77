"""The audit on a Ray cluster: Parquet read with Ray Data, rows labelled on the workers, only
mergeable partials (`AuditPartial`) sent back to the driver.

Each Ray batch becomes the canonical rows of its file's slice (`canonical_frame`), labelled by
`label_partial` exactly as one machine labels a slice, then summarised in a `BatchSummary`
(the partial plus what the report's coverage and notes count). The driver merges the summaries
(`merge_partials`) and ends where every engine ends, `result_of`: the same report as
`answer_audit.analysis.audit.audit` on the same rows, whatever the partitioning.

Limits: Parquet only, and the table needs an id column (generated ids are row numbers, and a
Ray batch does not know its rows' numbers).

Example (a local cluster is started, and stopped, when none is running)::

    from answer_audit.engines.ray import audit_parquet
    result = audit_parquet("runs/", ColumnMap(id="trial_id", raw="raw", label="correct",
                                              truth="answer"))
"""

from __future__ import annotations

import glob
import os
import pickle
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import ray
import ray.data

from answer_audit.analysis.audit import (
    _check_inputs,
    _checked_schemes,
    _checked_settings,
    _with_choices,
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
from answer_audit.parsers import Parser
from answer_audit.schemes.apply import Scheme, default_schemes
from answer_audit.sources.load import _NO_ERROR_TEXTS, _NULL_TEXTS, null_text_notes
from answer_audit.table.canonical import ColumnMap, canonical_frame
from answer_audit.table.errors import SourceError
from answer_audit.table.lazy import InMemoryRows

__all__ = ["BATCH_ROWS", "BatchSummary", "audit_parquet", "parquet_files"]

BATCH_ROWS = 50_000
"""Rows per Ray batch: each becomes one partial (bounded memory on a worker)."""

NEEDS_ID = "the Ray engine needs an id column (--id COLUMN): generated ids are row numbers, which Ray batches do not carry"

_PATH = "path"  # the column Ray Data fills with each row's file (include_paths)
_CELL_TEXTS = tuple(dict.fromkeys((*_NULL_TEXTS, *_NO_ERROR_TEXTS)))


@dataclass(frozen=True)
class BatchSummary:
    """What a worker sends back for one batch of rows: no row, only counts and examples."""

    partial: AuditPartial
    """The batch's audit partial."""
    file_rows: dict[str, int]
    """Rows read, by file (as Ray names it)."""
    truth_rows: int
    """Rows with a non-null truth cell."""
    label_rows: int
    """Rows with a non-null stored label (0 without a label column)."""
    truths: TruthTally
    """The truth column as the kind sees it (for the input notes)."""
    cells: dict[tuple[str, str], int] = field(default_factory=dict)
    """Cells that spell a missing value or a "no error" flag, by (canonical column, text)."""

    def merge(self, other: BatchSummary, max_examples: int) -> BatchSummary:
        """The summary of both batches' rows."""
        files = dict(self.file_rows)
        for name, n in other.file_rows.items():
            files[name] = files.get(name, 0) + n
        cells = dict(self.cells)
        for key, n in other.cells.items():
            cells[key] = cells.get(key, 0) + n
        return BatchSummary(
            merge_partials([self.partial, other.partial], max_examples),
            files,
            self.truth_rows + other.truth_rows,
            self.label_rows + other.label_rows,
            self.truths.merge(other.truths),
            cells,
        )


def parquet_files(source: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> list[str]:
    """The Parquet files of ``source``: a file, a directory (every ``*.parquet`` under it,
    partitioned or not), a glob, or a list of these; sorted within each, as given across.

    Raises SourceError when one names nothing."""
    given = [source] if isinstance(source, str | os.PathLike) else list(source)
    files: list[str] = []
    for item in given:
        text = os.fspath(item)
        if Path(text).is_dir():
            found = sorted(str(p) for p in Path(text).rglob("*.parquet"))
        elif glob.has_magic(text):
            found = sorted(p for p in glob.glob(text, recursive=True) if Path(p).is_file())
        else:
            found = [text] if Path(text).is_file() else []
        if not found:
            raise SourceError(f"{text}: no Parquet file there (the Ray engine reads Parquet only)")
        files += found
    return files


def audit_parquet(
    source: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
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
    settings = _checked_settings(settings)
    presets = _with_choices(presets, settings)
    column_map = _with_compared_columns(column_map, settings)
    files = parquet_files(source)
    names = _source_names(files)
    skipped: list[str] = []
    columns = _canonical_columns(column_map, files[0])  # checked before Ray starts
    if schemes is None:
        schemes, skipped = runnable_schemes(default_schemes(settings.kind), columns)
    else:
        schemes = _checked_schemes(schemes)
        if user_schemes is not None:
            schemes, skipped = runnable_schemes(schemes, columns, asked=user_schemes)
    rows = InMemoryRows(pl.DataFrame(schema=dict.fromkeys(columns, pl.String)))
    _check_inputs(rows, schemes, settings, presets)
    check_stored_schemes(schemes, columns)
    plan = plan_audit(columns, schemes, settings, presets, 1)
    with _ray_running(address):
        dataset = ray.data.read_parquet(files, include_paths=True)
        summary = _summarised(dataset, plan, column_map, settings, presets, names, batch_rows)
    if summary is None or summary.partial.rows == 0:
        raise SourceError(f"no rows to read in {', '.join(files)}")
    if column_map.truth is not None and summary.truth_rows == 0:
        raise SourceError(
            f"truth column '{column_map.truth}' has no values; check --truth / --null-values"
        )
    coverage = _coverage(files, names, summary, column_map)
    result = result_of(summary.partial, schemes, settings, recorded_labels="label" in columns,
                       source_coverage=coverage, presets=presets)  # fmt: skip
    result = result.with_notes(*audit_input_notes(result, summary.truths))
    cells = summary.cells
    notes = null_text_notes(
        pl.DataFrame(schema=dict.fromkeys(columns, pl.String)),
        column_map,
        lambda column, text: cells.get((column, text), 0),
    )
    return result.with_notes(*notes, *skipped)


def _with_compared_columns(cmap: ColumnMap, settings: AuditSettings) -> ColumnMap:
    """The map to read with: the compared and item columns read as group columns too (the
    conclusions count by them; the report's groups stay the settings')."""
    chosen = settings.conclusion_settings()
    asked = [] if chosen is None else [chosen.compare, *([chosen.item] if chosen.item else [])]
    extra = [c for c in asked if c != "source" and c not in cmap.group_by]
    return replace(cmap, group_by=(*cmap.group_by, *dict.fromkeys(extra))) if extra else cmap


@contextmanager
def _ray_running(address: str | None) -> Iterator[None]:
    """Ray, connected: to ``address``, to the Ray already running here, or to a local cluster
    started for the call (and shut down after it)."""
    if ray.is_initialized():
        yield
        return
    ray.init(address=address, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def _canonical_columns(cmap: ColumnMap, first: str) -> list[str]:
    """The canonical table's columns, from the first file's schema alone (no row is read)."""
    try:
        schema = pq.read_schema(first)
    except (OSError, pa.ArrowException) as exc:
        raise SourceError(f"{first}: not a readable Parquet file ({exc})") from exc
    if _PATH in schema.names:
        raise SourceError(
            f"{first}: the Ray engine names each row's file '{_PATH}', and the file has a "
            f"column of that name; rename it"
        )
    empty = pl.from_arrow(schema.empty_table())
    assert isinstance(empty, pl.DataFrame)
    empty = empty.with_columns(pl.lit("", dtype=pl.String).alias("source"))
    return canonical_frame(empty, cmap, where=first).columns


def _summarised(
    dataset: ray.data.Dataset,
    plan: AuditPlan,
    cmap: ColumnMap,
    settings: AuditSettings,
    presets: Mapping[str, Parser] | None,
    names: Mapping[str, str],
    batch_rows: int,
) -> BatchSummary | None:
    """Every batch summarised on the workers, merged here as the summaries arrive."""

    def summarise(batch: pa.Table) -> dict[str, Any]:
        summary = summarise_batch(batch, plan, cmap, settings, presets, names)
        return {"summary": np.array([pickle.dumps(summary)], dtype=object)}

    summaries = dataset.map_batches(summarise, batch_format="pyarrow", batch_size=batch_rows)
    merged: BatchSummary | None = None
    for row in summaries.iter_rows():
        part: BatchSummary = pickle.loads(row["summary"])
        merged = part if merged is None else merged.merge(part, settings.max_examples)
    return merged


def summarise_batch(
    batch: pa.Table,
    plan: AuditPlan,
    cmap: ColumnMap,
    settings: AuditSettings,
    presets: Mapping[str, Parser] | None,
    names: Mapping[str, str],
) -> BatchSummary:
    """One Ray batch (rows of one or more files, with their file in `_PATH`) as a summary."""
    read = pl.from_arrow(batch)
    assert isinstance(read, pl.DataFrame)
    paths = read[_PATH].cast(pl.String)
    sources = paths.replace_strict(_by_ray_path(names, paths.unique().to_list()),
                                   return_dtype=pl.String)  # fmt: skip
    frame = read.drop(_PATH).with_columns(sources.alias("source"))
    chunk = canonical_frame(frame, cmap, where=str(paths[0]) if len(paths) else "a Ray batch")
    partial = label_partial(chunk, plan, settings, presets, 1)
    counted = paths.value_counts()
    return BatchSummary(
        partial=partial,
        file_rows=dict(zip(counted[_PATH].to_list(), counted["count"].to_list(), strict=True)),
        truth_rows=chunk.height - chunk["truth"].null_count() if "truth" in chunk.columns else 0,
        label_rows=chunk.height - chunk["label"].null_count() if "label" in chunk.columns else 0,
        truths=TruthTally.of(chunk["truth"], settings.kind)
        if "truth" in chunk.columns
        else TruthTally(),
        cells=_cell_counts(chunk, cmap),
    )


def _cell_counts(chunk: pl.DataFrame, cmap: ColumnMap) -> dict[tuple[str, str], int]:
    """The cells `null_text_notes` asks about, counted (only the non-zero counts)."""
    counts = {}
    for column in dict.fromkeys(("truth", "error", "parsed", *cmap.group_by)):
        if column not in chunk.columns:
            continue
        texts = chunk[column].cast(pl.String, strict=False)
        for text in _CELL_TEXTS:
            n = int((texts == text).sum())
            if n:
                counts[(column, text)] = n
    return counts


def _source_names(files: Sequence[str]) -> dict[str, str]:
    """Each file's ``source``: its name, or its path as given when two files share a name (as
    the one-machine reader names them)."""
    taken: dict[str, int] = {}
    for name in (Path(f).name for f in files):
        taken[name] = taken.get(name, 0) + 1
    return {f: Path(f).name if taken[Path(f).name] == 1 else f for f in files}


def _by_ray_path(names: Mapping[str, str], ray_paths: Sequence[str]) -> dict[str, str]:
    """The source name of each path as Ray reports it (Ray may resolve or reword a path)."""
    resolved = {str(Path(given).resolve()): name for given, name in names.items()}
    found = {}
    for path in ray_paths:
        if path in names:
            found[path] = names[path]
        else:
            found[path] = resolved.get(str(Path(path).resolve()), Path(path).name)
    return found


def _given_path(names: Mapping[str, str], ray_path: str) -> str:
    """The path of a file as the caller gave it (Ray may report it resolved)."""
    if ray_path in names:
        return ray_path
    want = str(Path(ray_path).resolve())
    return next((g for g in names if str(Path(g).resolve()) == want), ray_path)


def _coverage(
    files: Sequence[str], names: Mapping[str, str], summary: BatchSummary, cmap: ColumnMap
) -> dict[str, Any]:
    """The source coverage one machine's reader reports, from the counts alone."""
    rows = {_given_path(names, p): n for p, n in summary.file_rows.items()}
    listed = [
        {"source": names[f], "path": f, "format": "parquet", "bad_lines_skipped": 0,
         "decode_replacements": 0, "rows": rows.get(f, 0)}
        for f in files
    ]  # fmt: skip
    coverage: dict[str, Any] = {
        "files": listed,
        "rows": summary.partial.rows,
        "bad_lines_skipped": 0,
        "decode_replacements": 0,
    }
    if cmap.truth is not None:
        coverage["rows_with_truth"] = summary.truth_rows
    if cmap.label is not None:
        coverage["rows_with_label"] = summary.label_rows
    return coverage
