"""Reading Parquet on Ray Data for the Ray engine (`answer_audit.engines.ray`): the files, each
batch as canonical rows, the reader's facts (`ReadFacts`: rows per file, truths, labels, cells
that look missing), a merged summary of every batch, and the duplicate-id count.

The driver holds no row: a worker turns its batch into a summary (counts, a few examples), and
the driver merges the summaries as they arrive. What one machine's reader reports (coverage,
notes) is computed from these facts, so the reports are the same.
"""

from __future__ import annotations

import glob
import logging
import os
import pickle
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import ray
import ray.data

from answer_audit.sources.load import NO_ERROR_TEXTS, NULL_TEXTS, null_text_notes, repeated_id_notes
from answer_audit.table.canonical import ColumnMap, canonical_frame
from answer_audit.table.errors import SourceError

__all__ = [
    "BATCH_ROWS",
    "NEEDS_ID",
    "ReadFacts",
    "batch_rows_of",
    "canonical_columns",
    "merged_summaries",
    "parquet_files",
    "quiet_ray_data",
    "ray_running",
    "read_coverage",
    "read_notes",
    "source_names",
]

T = TypeVar("T")

BATCH_ROWS = 50_000
"""Rows per Ray batch: each becomes one partial (bounded memory on a worker)."""

NEEDS_ID = "the Ray engine needs an id column (--id COLUMN): generated ids are row numbers, which Ray batches do not carry"

PATH = "path"  # the column Ray Data fills with each row's file (include_paths)
_CELL_TEXTS = tuple(dict.fromkeys((*NULL_TEXTS, *NO_ERROR_TEXTS)))
_ID_EXAMPLES = 3  # ids quoted in the duplicate-id note
_MAX_ID_PARTITIONS = 200  # Ray's default number of shuffle partitions


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


@contextmanager
def quiet_ray_data() -> Iterator[None]:
    """Ray Data without its progress bars and INFO lines (the command line shows its own
    progress; warnings and errors still show), as it was afterwards."""
    context = ray.data.DataContext.get_current()
    bars = context.enable_progress_bars
    # the progress module warns that the bars are off: the one warning that is no news
    quieter = {"ray.data": logging.WARNING, "ray.data._internal.progress": logging.ERROR}
    loggers = {logging.getLogger(name): level for name, level in quieter.items()}
    levels = {logger: logger.level for logger in loggers}
    context.enable_progress_bars = False
    for logger, level in loggers.items():
        logger.setLevel(level)
    try:
        yield
    finally:
        context.enable_progress_bars = bars
        for logger, level in levels.items():
            logger.setLevel(level)


@contextmanager
def ray_running(address: str | None) -> Iterator[None]:
    """Ray, connected: to ``address``, to the Ray already running here, or to a local cluster
    started for the call (and shut down after it)."""
    if ray.is_initialized():
        yield
        return
    ray.init(address=address, include_dashboard=False, log_to_driver=False,
             logging_level=logging.WARNING)  # fmt: skip
    try:
        yield
    finally:
        ray.shutdown()


def canonical_columns(cmap: ColumnMap, first: str) -> tuple[list[str], list[str]]:
    """The canonical table's columns and the input's own (with ``source``), from the first
    file's schema alone (no row is read)."""
    try:
        schema = pq.read_schema(first)
    except (OSError, pa.ArrowException) as exc:
        raise SourceError(f"{first}: not a readable Parquet file ({exc})") from exc
    if PATH in schema.names:
        raise SourceError(
            f"{first}: the Ray engine names each row's file '{PATH}', and the file has a "
            f"column of that name; rename it"
        )
    empty = pl.from_arrow(schema.empty_table())
    assert isinstance(empty, pl.DataFrame)
    empty = empty.with_columns(pl.lit("", dtype=pl.String).alias("source"))
    return canonical_frame(empty, cmap, where=first).columns, empty.columns


def source_names(files: Sequence[str]) -> dict[str, str]:
    """Each file's ``source``: its name, or its path as given when two files share a name (as
    the one-machine reader names them)."""
    taken: dict[str, int] = {}
    for name in (Path(f).name for f in files):
        taken[name] = taken.get(name, 0) + 1
    return {f: Path(f).name if taken[Path(f).name] == 1 else f for f in files}


def batch_rows_of(
    batch: pa.Table, cmap: ColumnMap, names: Mapping[str, str]
) -> tuple[pl.DataFrame, pl.DataFrame, pl.Series]:
    """One Ray batch (rows of one or more files, their file in `PATH`): the input rows with
    their ``source`` (the one-machine reader's original table), the canonical rows, and each
    row's file as Ray names it, in the same order (the batch's rows, file by file)."""
    read = pl.from_arrow(batch)
    assert isinstance(read, pl.DataFrame)
    read = read.with_columns(pl.col(PATH).cast(pl.String))
    by_path = _by_ray_path(names, read[PATH].unique().to_list())
    originals, canonical = [], []
    parts = read.partition_by(PATH, maintain_order=True)
    for part in parts:
        path = str(part[PATH][0])
        rows = part.drop(PATH)
        labelled = rows.with_columns(pl.lit(by_path[path], dtype=pl.String).alias("source"))
        originals.append(rows if "source" in rows.columns else labelled)
        # a batch may hold part of a file: its row numbers count from the batch's first row
        canonical.append(canonical_frame(labelled, cmap, where=f"{path}, in a Ray batch"))
    paths = pl.concat([part[PATH] for part in parts])
    return pl.concat(originals), pl.concat(canonical), paths


def merged_summaries(
    files: Sequence[str],
    summarise: Callable[[pa.Table], T],
    merge: Callable[[T, T], T],
    batch_rows: int,
) -> T | None:
    """The files read by Ray Data, every non-empty batch summarised on the workers, and the
    summaries merged here as they arrive (None when there is no row). An input a worker
    cannot read (a `SourceError`, a ValueError) is raised here as it was raised there, and
    files Ray Data cannot read together as a SourceError: one line for the command line, not
    a Ray traceback."""

    def run(batch: pa.Table) -> dict[str, Any]:
        try:
            found = [pickle.dumps((True, summarise(batch)))] if batch.num_rows else []
        except (SourceError, ValueError, OSError) as exc:
            found = [pickle.dumps((False, exc))]
        return {"summary": np.array(found, dtype=object)}

    merged: T | None = None
    try:
        dataset = ray.data.read_parquet(list(files), include_paths=True)
        summaries = dataset.map_batches(run, batch_format="pyarrow", batch_size=batch_rows)
        for row in summaries.iter_rows():
            done, part = pickle.loads(row["summary"])
            if not done:
                raise part
            merged = part if merged is None else merge(merged, part)
    except pa.ArrowException as exc:  # files whose schemas Ray Data cannot combine
        raise SourceError(
            f"Ray Data cannot read the Parquet files together ({exc}); give each column one "
            "type in every file"
        ) from exc
    return merged


@dataclass(frozen=True)
class ReadFacts:
    """What one machine's reader counts as it reads, for some rows: no row, only counts."""

    file_rows: dict[str, int]
    """Rows read, by file (as Ray names it)."""
    truth_rows: int
    """Rows with a non-null truth cell."""
    label_rows: int
    """Rows with a non-null stored label (0 without a label column)."""
    cells: dict[tuple[str, str], int] = field(default_factory=dict)
    """Cells that spell a missing value or a "no error" flag, by (canonical column, text)."""

    @classmethod
    def of(cls, chunk: pl.DataFrame, paths: pl.Series, cmap: ColumnMap) -> ReadFacts:
        """The facts of canonical rows ``chunk`` read from ``paths`` (one per row)."""
        counted = paths.value_counts()
        return cls(
            file_rows=dict(zip(counted[PATH].to_list(), counted["count"].to_list(), strict=True)),
            truth_rows=_non_null(chunk, "truth"),
            label_rows=_non_null(chunk, "label"),
            cells=_cell_counts(chunk, cmap),
        )

    def merge(self, other: ReadFacts) -> ReadFacts:
        """The facts of both parts' rows."""
        return ReadFacts(
            _added(self.file_rows, other.file_rows),
            self.truth_rows + other.truth_rows,
            self.label_rows + other.label_rows,
            _added(self.cells, other.cells),
        )

    @property
    def rows(self) -> int:
        """Rows read."""
        return sum(self.file_rows.values())


def _added(a: Mapping[Any, int], b: Mapping[Any, int]) -> dict[Any, int]:
    total = dict(a)
    for key, n in b.items():
        total[key] = total.get(key, 0) + n
    return total


def _non_null(chunk: pl.DataFrame, column: str) -> int:
    return chunk.height - chunk[column].null_count() if column in chunk.columns else 0


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


def check_read(files: Sequence[str], facts: ReadFacts | None, cmap: ColumnMap) -> ReadFacts:
    """The facts, refused as one machine's reader refuses them: no row, or no truth."""
    if facts is None or facts.rows == 0:
        raise SourceError(f"no rows to read in {', '.join(files)}")
    if cmap.truth is not None and facts.truth_rows == 0:
        raise SourceError(
            f"truth column '{cmap.truth}' has no values; check --truth / --null-values"
        )
    return facts


def read_coverage(
    files: Sequence[str], names: Mapping[str, str], facts: ReadFacts, cmap: ColumnMap
) -> dict[str, Any]:
    """The source coverage one machine's reader reports, from the counts alone."""
    rows = {_given_path(names, p): n for p, n in facts.file_rows.items()}
    listed = [
        {"source": names[f], "path": f, "format": "parquet", "bad_lines_skipped": 0,
         "decode_replacements": 0, "rows": rows.get(f, 0)}
        for f in files
    ]  # fmt: skip
    coverage: dict[str, Any] = {
        "files": listed,
        "rows": facts.rows,
        "bad_lines_skipped": 0,
        "decode_replacements": 0,
    }
    if cmap.truth is not None:
        coverage["rows_with_truth"] = facts.truth_rows
    if cmap.label is not None:
        coverage["rows_with_label"] = facts.label_rows
    return coverage


def read_notes(
    files: Sequence[str], facts: ReadFacts, columns: Sequence[str], cmap: ColumnMap
) -> list[str]:
    """The notes one machine's reader gives on these rows: ids that repeat (counted on the
    cluster), then cells that look missing."""
    assert cmap.id is not None
    repeated, examples = _repeated_ids(files, cmap.id)
    cells = facts.cells
    nulls = null_text_notes(
        pl.DataFrame(schema=dict.fromkeys(columns, pl.String)),
        cmap,
        lambda column, text: cells.get((column, text), 0),
    )
    return [*repeated_id_notes(repeated, examples), *nulls]


def _repeated_ids(files: Sequence[str], id_column: str) -> tuple[int, list[str]]:
    """Rows whose id another row shares, and the smallest such ids: the ids are counted by a
    Ray group-by (the driver sees one small summary per batch of counted ids, never the ids)."""

    def canonical_ids(batch: pa.Table) -> pa.Table:
        read = pl.from_arrow(batch)
        assert isinstance(read, pl.DataFrame)
        ids = read[id_column].cast(pl.String).drop_nulls().alias("id")
        return ids.to_frame().to_arrow()

    def repeated(batch: pa.Table) -> dict[str, Any]:
        counted = pl.from_arrow(batch)
        assert isinstance(counted, pl.DataFrame)
        many = counted.filter(pl.col("count()") > 1)
        smallest = many["id"].sort().head(_ID_EXAMPLES).to_list()
        summary = (int(many["count()"].sum()), smallest)
        return {"summary": np.array([pickle.dumps(summary)], dtype=object)}

    ids = ray.data.read_parquet(list(files)).select_columns([id_column])
    keyed = ids.map_batches(canonical_ids, batch_format="pyarrow")
    # a partition per file (within Ray's default): Ray's 200 would cost more than the count
    partitions = min(max(len(files), 1), _MAX_ID_PARTITIONS)
    try:
        counted = keyed.groupby("id", num_partitions=partitions).count()
    except TypeError:  # a Ray before 2.4x: its own number of partitions
        counted = keyed.groupby("id").count()
    rows, examples = 0, list[str]()
    for row in counted.map_batches(repeated, batch_format="pyarrow").iter_rows():
        n, found = pickle.loads(row["summary"])
        rows += n
        examples = sorted({*examples, *found})[:_ID_EXAMPLES]
    return rows, examples


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
