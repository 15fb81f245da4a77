"""CSV and JSON Lines files as parts of a streamed table (`table.lazy.StreamedRows`).

One pass reads every record, checks it as a whole read does and keeps the short columns; the
text columns are read again, a slice of records at a time, from the byte offsets that pass
noted. A compressed file is decompressed once, to a private temporary copy read by offsets.
"""

from __future__ import annotations

import tempfile
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path

import polars as pl

from answer_audit.sources.columns import RecordFrames
from answer_audit.sources.csv_blocks import CsvIndex, Unparsed, index_csv, read_blocks
from answer_audit.sources.csvfmt import separator_note
from answer_audit.sources.decode import compression
from answer_audit.sources.file_bytes import FileBytes, changed_while_read, seekable_copy
from answer_audit.sources.jsonl_blocks import JsonlRecords, scan_jsonl
from answer_audit.table.canonical import ColumnMap, canonical_texts, text_sources
from answer_audit.table.errors import SourceError, first_line
from answer_audit.table.lazy import StreamedFile, small_columns


def stream_csv(
    path: Path, cmap: ColumnMap, start: int, separator: str | None, stack: ExitStack
) -> StreamedFile | None:
    """A CSV file whose rows start at ``start`` in a streamed table (its decompressed copy, if
    any, removed by ``stack``); None when only a whole read may read it (`sources.csv_blocks`)."""
    index = index_csv(path, seekable_copy(path, stack), separator)
    if index is None:
        return None
    kept = small_columns(cmap)
    read = read_blocks(index, lambda frame: frame.select(c for c in frame.columns if c in kept))
    if read is None:
        return None
    frames, replaced = read
    stats = {"path": str(path), "format": "csv", "bad_lines_skipped": 0,
             "decode_replacements": replaced, "rows": index.rows}  # fmt: skip
    if separator is None and index.separator != ",":
        stats["notes"] = [separator_note(path, index.separator)]
    header = pl.read_csv(index.header, separator=index.separator, infer_schema=False)
    frame = pl.concat(frames, how="vertical")
    return StreamedFile(frame, header.columns, _CsvPart(index, start, cmap), stats)


def stream_jsonl(
    path: Path, cmap: ColumnMap, start: int, skip_bad_lines: bool, stack: ExitStack
) -> StreamedFile | None:
    """A JSON Lines file whose rows start at ``start`` in a streamed table; None when it has
    no records or no fields (the whole read says so)."""
    builder = RecordFrames(keep=small_columns(cmap))
    if compression(path) is None:
        scan = scan_jsonl(path, builder, skip_bad_lines=skip_bad_lines)
        file = path
    else:  # decompressed once, as it is read
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="answer-audit-")))
        file = folder / "decompressed"
        with file.open("wb") as copy:
            scan = scan_jsonl(path, builder, skip_bad_lines=skip_bad_lines, copy=copy)
    dtypes = builder.dtypes()
    rows = builder.rows
    if not rows or not dtypes:
        return None
    records = JsonlRecords(FileBytes.of(path, file), scan.starts, scan.ends, dtypes)
    stats = {"path": str(path), "format": "jsonl", "bad_lines_skipped": scan.skipped,
             "decode_replacements": scan.replaced, "rows": rows}  # fmt: skip
    part = _JsonlPart(records, start, rows, cmap)
    return StreamedFile(builder.frame(), list(dtypes), part, stats)


def _canonical(frame: pl.DataFrame, expected: int, cmap: ColumnMap, path: Path) -> pl.DataFrame:
    """The canonical text columns of ``expected`` rows read from the file."""
    if frame.height != expected:
        raise changed_while_read(path, expected, frame.height)
    return pl.DataFrame(list(canonical_texts(frame, cmap, str(path)).values()))


@dataclass(frozen=True, eq=False)
class _CsvPart:
    """One CSV file of a streamed table."""

    index: CsvIndex
    start: int
    cmap: ColumnMap

    @property
    def path(self) -> Path:
        return self.index.content.path

    @property
    def height(self) -> int:
        return self.index.rows

    def texts(self, offset: int, length: int) -> pl.DataFrame:
        try:
            frame = self.index.read_blocks(offset, offset + length, text_sources(self.cmap))
        except Unparsed as exc:
            raise self._failed(exc) from exc
        return _canonical(frame, length, self.cmap, self.path)

    def texts_at(self, rows: list[int]) -> pl.DataFrame:
        try:
            frame = self.index.read_at(rows, text_sources(self.cmap))
        except Unparsed as exc:
            raise self._failed(exc) from exc
        return _canonical(frame, len(rows), self.cmap, self.path)

    def piece(self, offset: int, length: int) -> _CsvPart:
        return _CsvPart(self.index.rows_from(offset, offset + length), 0, self.cmap)

    def every_column(self, offset: int, length: int) -> pl.DataFrame:
        try:
            return self.index.read_blocks(offset, offset + length, None)
        except Unparsed as exc:
            raise self._failed(exc) from exc

    def _failed(self, exc: Exception) -> SourceError:
        return SourceError(f"{self.path}: reading its rows failed ({first_line(exc)})")


@dataclass(frozen=True, eq=False)
class _JsonlPart:
    """One JSON Lines file of a streamed table; ``records`` know every column's type."""

    records: JsonlRecords
    start: int
    height: int
    cmap: ColumnMap

    @property
    def path(self) -> Path:
        return self.records.content.path

    def texts(self, offset: int, length: int) -> pl.DataFrame:
        frame = self._texts.read(offset, offset + length)
        return _canonical(frame, length, self.cmap, self.path)

    def texts_at(self, rows: list[int]) -> pl.DataFrame:
        return _canonical(self._texts.read_at(rows), len(rows), self.cmap, self.path)

    def piece(self, offset: int, length: int) -> _JsonlPart:
        return _JsonlPart(self.records.rows_from(offset, offset + length), 0, length, self.cmap)

    def every_column(self, offset: int, length: int) -> pl.DataFrame:
        frame = self.records.read(offset, offset + length)
        if frame.height != length:
            raise changed_while_read(self.path, length, frame.height)
        return frame

    @property
    def _texts(self) -> JsonlRecords:
        """The records with only the text columns made (the others stay unparsed text)."""
        dtypes = self.records.dtypes
        return replace(self.records, dtypes={c: dtypes[c] for c in text_sources(self.cmap)
                                             if c in dtypes})  # fmt: skip
