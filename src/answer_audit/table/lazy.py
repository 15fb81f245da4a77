"""Tables whose long text columns stay on disk until a slice of rows is asked for.

The audit reads every row once, in order, a slice at a time, and keeps only small per-row
results; holding a million raw outputs in memory for that is waste. `Rows` is what the audit
reads: `InMemoryRows` wraps a canonical frame; `StreamedRows` keeps the short columns (id,
label, truth, groups, ...) in memory and reads the text columns (`TEXT_ROLES`) of the asked
rows from its inputs, one `Part` each: a Parquet file (`parquet_file`: Polars pushes the slice
down to the reader, so a slice costs what it holds), a CSV or JSON Lines file (by the byte
offsets of its records, `sources.csv_blocks` and `sources.jsonl_blocks`) or a run database
(`sources.runs`, by output rowid).

`StreamedRows.slice_read` leaves a slice's texts unread: a worker process reads them
(`SliceRead.read`), so the process handing out slices reads and sends only short columns.

`InputRows` is the other view of the same files: the input table as a whole read gives it
(`LoadedTable.original`: every column, as read), a slice at a time, for the rescore's rows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol

import polars as pl

from answer_audit.table.canonical import (
    TEXT_ROLES,
    ColumnMap,
    canonical_frame,
    canonical_texts,
    check_map,
    concat_frames,
    text_sources,
)
from answer_audit.table.errors import SourceError, first_line


class Rows(Protocol):
    """A canonical table read by slices (see `answer_audit.analysis.audit.audit`)."""

    @property
    def height(self) -> int: ...

    @property
    def columns(self) -> list[str]: ...

    @property
    def small(self) -> pl.DataFrame:
        """Every row, every canonical column but the text ones (`TEXT_ROLES`)."""
        ...

    def slice(self, offset: int, length: int) -> pl.DataFrame:
        """Rows ``offset`` to ``offset + length`` (fewer at the end), every column."""
        ...

    def take(self, rows: Sequence[int]) -> pl.DataFrame:
        """The rows at these 0-based positions, in the order given, every column."""
        ...


@dataclass(frozen=True, eq=False)
class InMemoryRows:
    """A canonical frame already in memory."""

    frame: pl.DataFrame

    @property
    def height(self) -> int:
        return self.frame.height

    @property
    def columns(self) -> list[str]:
        return self.frame.columns

    @property
    def small(self) -> pl.DataFrame:
        return self.frame.drop([c for c in TEXT_ROLES if c in self.frame.columns])

    def slice(self, offset: int, length: int) -> pl.DataFrame:
        return self.frame.slice(offset, length)

    def take(self, rows: Sequence[int]) -> pl.DataFrame:
        return self.frame[list(rows)]


class Part(Protocol):
    """One input of a streamed table: where its rows start in the table, how many it has, and
    how to read the canonical text columns of some of them."""

    @property
    def start(self) -> int: ...

    @property
    def height(self) -> int: ...

    def texts(self, offset: int, length: int) -> pl.DataFrame:
        """Rows ``offset`` to ``offset + length`` of this input (0-based within it)."""
        ...

    def texts_at(self, rows: list[int]) -> pl.DataFrame:
        """The rows at these sorted, distinct positions within this input."""
        ...

    def piece(self, offset: int, length: int) -> Part:
        """Rows ``offset`` to ``offset + length`` alone, as a part that another process can
        read (small to pickle, nothing open): its ``texts(0, length)`` are this part's
        ``texts(offset, length)``."""
        ...


@dataclass(frozen=True, eq=False)
class SliceRead:
    """A slice of a streamed table whose texts are read where `read` is called: its short
    columns, and for each input it spans the part that reads its texts (`Part.piece`).
    Picklable: a worker process reads its own slice."""

    small: pl.DataFrame
    pieces: tuple[Part, ...]
    columns: tuple[str, ...]

    def read(self) -> pl.DataFrame:
        """The slice, every column (`StreamedRows.slice`)."""
        texts = [piece.texts(0, piece.height) for piece in self.pieces]
        return _joined(self.small, texts, list(self.columns), self.pieces)


@dataclass(frozen=True, eq=False)
class StreamedRows:
    """Canonical rows whose text columns stay in the inputs (see the module docstring); built
    by `sources.stream_files` and `sources.stream_runs`. `close` when done."""

    small: pl.DataFrame
    parts: tuple[Part, ...]
    cmap: ColumnMap
    resources: ExitStack = field(default_factory=ExitStack)  # closed by `close`

    @property
    def height(self) -> int:
        return self.small.height

    @property
    def columns(self) -> list[str]:
        """The canonical columns: the text ones where `canonical_frame` puts them."""
        names = self.small.columns
        before_source = ["choices"] if self.cmap.choices is not None else []
        at = names.index("source")
        head = ["raw", *(["parsed"] if self.cmap.parsed is not None else [])]
        return [names[0], *head, *names[1:at], *before_source, *names[at:]]

    def slice(self, offset: int, length: int) -> pl.DataFrame:
        return self.slice_read(offset, length).read()

    def slice_read(self, offset: int, length: int) -> SliceRead:
        """`slice`, its texts not read yet (`SliceRead.read` reads them)."""
        end = min(offset + length, self.height)
        pieces = []
        for part in self.parts:
            lo, hi = max(offset, part.start), min(end, part.start + part.height)
            if lo < hi:
                pieces.append(part.piece(lo - part.start, hi - lo))
        small = self.small.slice(offset, max(end - offset, 0))
        return SliceRead(small, tuple(pieces), tuple(self.columns))

    def take(self, rows: Sequence[int]) -> pl.DataFrame:
        wanted = list(rows)
        pieces = []
        for part in self.parts:
            local = sorted({r - part.start for r in wanted if 0 <= r - part.start < part.height})
            if local:
                texts = part.texts_at(local)
                if texts.height != len(local):
                    raise _changed(self.parts, len(local), texts.height)
                pieces.append(texts.with_columns(pl.Series("_row", local) + part.start))
        if not pieces:
            return _joined(self.small.clear(), [], self.columns, self.parts)
        # back to the asked order (a row asked twice comes twice)
        found = pl.concat(pieces)
        order = pl.DataFrame({"_row": wanted}, schema={"_row": pl.Int64})
        texts = order.join(found.cast({"_row": pl.Int64}), on="_row", how="left",
                           maintain_order="left").drop("_row")  # fmt: skip
        return _joined(self.small[wanted], [texts], self.columns, self.parts)

    def close(self) -> None:
        """Let go of what the reads hold open (database connections, temporary copies)."""
        self.resources.close()


def _joined(
    small: pl.DataFrame, pieces: list[pl.DataFrame], columns: list[str], parts: Sequence[object]
) -> pl.DataFrame:
    """The short columns beside the texts read for them, in the canonical order."""
    empty = {c: pl.Series(c, [], dtype=pl.String) for c in columns if c in TEXT_ROLES}
    texts = pl.concat(pieces) if pieces else pl.DataFrame(empty)
    if texts.height != small.height:
        raise _changed(parts, small.height, texts.height)
    return pl.concat([small, texts], how="horizontal").select(columns)


def _changed(parts: Sequence[object], asked: int, read: int) -> SourceError:
    where = ", ".join(dict.fromkeys(str(getattr(p, "path", "")) for p in parts))
    return SourceError(
        f"{where}: {asked} rows asked, {read} read; was an input changed while it was "
        "read? Run again on a copy that stays put"
    )


class InputPart(Part, Protocol):
    """A part that also reads every column of its input's rows."""

    def every_column(self, offset: int, length: int) -> pl.DataFrame:
        """Rows ``offset`` to ``offset + length`` of this input (0-based within it), every
        column, with the cells and types a whole read of the file gives them
        (`sources.files.read_table`)."""
        ...


@dataclass(frozen=True, eq=False)
class InputRows:
    """The input table as the whole read gives it (`LoadedTable.original`: every column of
    every input, then ``source`` where an input has none of its own), read a slice at a time
    from a streamed table's files. Inputs whose columns differ are stacked as the whole read
    stacks them (`concat_frames`: missing columns null, clashing types a common type).

    Run folders are not read back this way: their `InputRows` has the ``names`` of the columns
    alone (``readable`` is False)."""

    parts: tuple[InputPart, ...] = ()
    sources: tuple[str | None, ...] = ()
    """The ``source`` each part's rows get (the file's name); None for a file with its own."""
    names: tuple[str, ...] = ()
    """The columns, when the parts cannot read them (run folders)."""

    @property
    def readable(self) -> bool:
        """Whether `slice` can read the rows."""
        return bool(self.parts)

    @property
    def height(self) -> int:
        return sum(part.height for part in self.parts)

    @cached_property
    def schema(self) -> pl.Schema:
        """The columns and types of the table (a SourceError, as the whole read gives, when
        the inputs cannot be stacked)."""
        if not self.readable:
            return pl.Schema(dict.fromkeys(self.names, pl.String()))
        return concat_frames([self._read(i, 0, 0) for i in range(len(self.parts))]).schema

    @property
    def columns(self) -> list[str]:
        return list(self.names) if not self.readable else list(self.schema)

    def slice(self, offset: int, length: int) -> pl.DataFrame:
        """Rows ``offset`` to ``offset + length`` (fewer at the end), every column."""
        if not self.readable:
            raise ValueError(
                "the input rows of run folders are not read back a slice at a time; load "
                "them whole (load_runs) to write them"
            )
        end = min(offset + length, self.height)
        pieces = []
        for i, part in enumerate(self.parts):
            lo, hi = max(offset, part.start), min(end, part.start + part.height)
            if lo < hi:
                pieces.append(self._read(i, lo - part.start, hi - lo))
        if len(self.parts) == 1:
            return pieces[0] if pieces else self._read(0, 0, 0)
        aligned = pl.DataFrame(schema=self.schema)  # the whole read's columns and types
        return pl.concat([aligned, *pieces], how="diagonal_relaxed")

    def _read(self, index: int, offset: int, length: int) -> pl.DataFrame:
        frame = self.parts[index].every_column(offset, length)
        source = self.sources[index]
        if frame.height != length:
            raise _changed(self.parts, length, frame.height)
        if source is None:
            return frame
        return frame.with_columns(pl.lit(source, dtype=pl.String).alias("source"))


@dataclass(frozen=True, eq=False)
class StreamedTable:
    """A streamed read: the rows, what was read, notes, and the input table as read
    (`InputRows`; the `LoadedTable` of a streamed read)."""

    rows: StreamedRows
    coverage: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    original: InputRows = field(default_factory=InputRows)
    """The input table as read, every column, a slice at a time."""


@dataclass(frozen=True)
class _ParquetPart:
    """One Parquet file of a streamed table (or its rows from ``first`` on: a `piece`)."""

    path: Path
    start: int
    height: int
    cmap: ColumnMap
    first: int = 0

    def texts(self, offset: int, length: int) -> pl.DataFrame:
        return self._read([self._scan().slice(self.first + offset, length)])

    def texts_at(self, rows: list[int]) -> pl.DataFrame:
        # one slice per row, read one after the other: a filter on the row index would read
        # whole columns, and slices collected in parallel each decode their part at once
        return self._read([self._scan().slice(self.first + r, 1) for r in rows])

    def piece(self, offset: int, length: int) -> _ParquetPart:
        return _ParquetPart(self.path, 0, length, self.cmap, self.first + offset)

    def every_column(self, offset: int, length: int) -> pl.DataFrame:
        return self._collected([pl.scan_parquet(self.path).slice(self.first + offset, length)])

    def _scan(self) -> pl.LazyFrame:
        return pl.scan_parquet(self.path).select(text_sources(self.cmap))

    def _read(self, queries: list[pl.LazyFrame]) -> pl.DataFrame:
        frame = self._collected(queries)
        return pl.DataFrame(list(canonical_texts(frame, self.cmap, str(self.path)).values()))

    def _collected(self, queries: list[pl.LazyFrame]) -> pl.DataFrame:
        try:
            return pl.concat([query.collect() for query in queries])
        except (pl.exceptions.PolarsError, OSError) as exc:
            raise SourceError(f"{self.path}: reading its rows failed ({first_line(exc)})") from exc


@dataclass(frozen=True, eq=False)
class StreamedFile:
    """One input file of a streamed table, as its reader leaves it."""

    frame: pl.DataFrame
    """The file's rows, the columns the short canonical ones are made from (`small_columns`)
    alone; no columns at all when the map reads none of them."""
    columns: list[str]
    """Every column of the file, in its order."""
    part: InputPart
    """Reads the canonical text columns of its rows, and every column."""
    stats: dict[str, Any]
    """What `sources.files.read_table` says of the file (path, format, rows, ...)."""


def small_columns(cmap: ColumnMap) -> set[str]:
    """The input columns a streamed read keeps in memory: those the short canonical columns
    (id, label, truth, error, groups) are made from. The texts stay in the file, and so do
    the columns the map does not read (`canonical_frame` would drop them)."""
    return {c for c in (cmap.id, cmap.label, cmap.truth, cmap.error, *cmap.group_by) if c}


def parquet_file(path: Path, cmap: ColumnMap, start: int) -> StreamedFile:
    """A Parquet file whose rows start at ``start`` in a streamed table. The text columns'
    types are checked on the first row, before any slice is read."""
    where = str(path)
    schema = _read(path, lambda scan: scan.collect_schema())
    check_map(list(schema), cmap, where)
    kept = [c for c in schema if c in small_columns(cmap)]
    frame = _read(path, lambda scan: scan.select(kept))
    height = frame.height if kept else _read(path, lambda scan: scan.select(pl.len())).item()
    if height == 0:
        raise SourceError(f"{path}: no rows to read; check the file (or --records/--table)")
    # the first row in full (an empty column casts from any type)
    first = _read(path, lambda scan: scan.head(1)).with_columns(pl.lit("").alias("source"))
    canonical_frame(first, cmap, where=where)
    stats = {"path": where, "format": "parquet", "bad_lines_skipped": 0, "decode_replacements": 0,
             "rows": height}  # fmt: skip
    return StreamedFile(frame, list(schema), _ParquetPart(Path(path), start, height, cmap), stats)


def _read(path: Path, query: Callable[[pl.LazyFrame], Any]) -> Any:
    """``query`` of the file's scan, collected; an unreadable file is a SourceError."""
    try:
        result = query(pl.scan_parquet(path))
        return result.collect() if isinstance(result, pl.LazyFrame) else result
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise SourceError(f"{path}: not a readable Parquet file ({first_line(exc)})") from exc
