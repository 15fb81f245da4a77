"""A CSV file read a block of records at a time, exactly as a read of the whole text reads it.

`index_csv` finds where each record starts (`sources.csv_records`) and checks what a whole read
checks first (encoding, separator, header); `CsvIndex.read` parses any run of records with the
header before it, the cells of the whole read. Records are cut at line feeds, where UTF-8
decoding and Polars' parsing start afresh, so pieces read like the whole; every piece's row
count is checked against the index, and anything unusual (quotes outside RFC 4180, blank lines
before the header, no rows) returns None, for the whole read to decide.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from itertools import islice
from pathlib import Path

import polars as pl

from answer_audit.sources.csv_records import record_starts
from answer_audit.sources.csvfmt import (
    SNIFF_LINES,
    find_separator,
    ragged_line,
    reject_duplicate_headers,
)
from answer_audit.sources.decode import decode_utf8, reject_binary, reject_wide_encodings
from answer_audit.sources.file_bytes import (
    FileBytes,
    Offsets,
    changed_while_read,
    record_blocks,
)
from answer_audit.table.errors import SourceError

_BOM = b"\xef\xbb\xbf"


class Unparsed(Exception):
    """Polars could not parse some records (`read_blocks` then looks for the reason a whole
    read gives)."""


@dataclass(frozen=True)
class CsvIndex:
    """Where a CSV file's records are, and what reading any of them needs."""

    content: FileBytes
    separator: str
    header: bytes
    """The header record, valid UTF-8 (undecodable bytes replaced)."""
    header_replacements: int
    starts: Offsets
    """Data record ``i`` is the file's bytes ``starts[i]:starts[i + 1]``."""

    @property
    def rows(self) -> int:
        return len(self.starts) - 1

    def rows_from(self, lo: int, hi: int) -> CsvIndex:
        """The index of records ``lo`` to ``hi`` alone (small to send to another process)."""
        return replace(self, starts=self.starts[lo : hi + 1].copy())

    def read(self, lo: int, hi: int, columns: list[str] | None = None) -> tuple[pl.DataFrame, int]:
        """Records ``lo`` to ``hi`` (0-based, data rows) as a frame of text cells (only
        ``columns``, when given), and the undecodable byte sequences replaced in them. Raises
        `Unparsed` when Polars cannot parse them; the caller checks the frame's height (a
        blank last line may be no record)."""
        data = self.content.read([(int(self.starts[lo]), int(self.starts[hi]))])
        return self._parsed(data, columns)

    def read_blocks(self, lo: int, hi: int, columns: list[str] | None) -> pl.DataFrame:
        """`read` of ``columns`` (None: all), a block of records at a time (see
        `record_blocks`), each block's row count checked: a SourceError if one is not what the
        index says."""
        frames = []
        for a, b in record_blocks(self.starts, lo, hi):
            frame = self.read(a, b, columns)[0]
            if frame.height != b - a:
                raise changed_while_read(self.content.path, b - a, frame.height)
            frames.append(frame)
        return pl.concat(frames, how="vertical") if frames else self.read(lo, lo, columns)[0]

    def read_at(self, rows: list[int], columns: list[str]) -> pl.DataFrame:
        """``columns`` of the records at these sorted, distinct positions, in that order (as
        `read`)."""
        # only the file's last record may lack its line feed, and it comes last
        spans = [(int(self.starts[a]), int(self.starts[b])) for a, b in _runs(rows)]
        return self._parsed(self.content.read(spans), columns)[0]

    def _parsed(self, data: bytes, columns: list[str] | None) -> tuple[pl.DataFrame, int]:
        try:
            return self._polars(data, columns), 0
        except Unparsed:
            # Polars refuses undecodable bytes (its strings are UTF-8): replace them as the
            # whole read does, then try again; valid bytes are as they were
            valid, replaced = valid_utf8(data)
            if not replaced:
                raise
        return self._polars(valid, columns), replaced

    def _polars(self, data: bytes, columns: list[str] | None) -> pl.DataFrame:
        try:
            return pl.read_csv(self.header + data, separator=self.separator, columns=columns,
                               infer_schema=False, raise_if_empty=False)  # fmt: skip
        except pl.exceptions.PolarsError as exc:
            raise Unparsed(str(exc)) from exc


def index_csv(path: Path, file: Path, separator: str | None) -> CsvIndex | None:
    """The index of a CSV file (``file``: the input, or its decompressed copy; messages name
    ``path``), after the checks a whole read makes first: not UTF-16, not binary, no header
    name twice. ``separator`` given, or found from the first lines. None when the file is one
    a block read may not read as the whole read does (see the module docstring)."""
    try:
        bytes_of = FileBytes.of(path, file)
        with file.open("rb") as fh:
            head = fh.read(4096)
            fh.seek(0)
            sniffed = b"".join(islice(fh, SNIFF_LINES + 1))
    except OSError:
        return None  # the whole read says what is wrong
    reject_wide_encodings(head, path)
    reject_binary(head, path, "CSV")
    sep = separator or find_separator(decode_utf8(sniffed)[0], path)
    bom = len(_BOM) if head.startswith(_BOM) else 0
    try:
        starts = record_starts(file, sep, bom)
    except OSError:
        return None
    if starts is None or len(starts) < 3:
        return None  # quotes a whole read parses its own way, or no data rows
    header = bytes_of.read([(int(starts[0]), int(starts[1]))])
    header_text, replaced = decode_utf8(header, strip_bom=False)
    if not header_text.strip("\r\n"):
        return None  # a blank line first: Polars skips it, the header comes later
    reject_duplicate_headers(header_text, path, sep)
    return CsvIndex(bytes_of, sep, header_text.encode("utf-8"), replaced, starts[1:])


def read_blocks(
    index: CsvIndex, keep: Callable[[pl.DataFrame], pl.DataFrame]
) -> tuple[list[pl.DataFrame], int] | None:
    """Every record, a block at a time, each block's frame passed through ``keep``; and the
    undecodable byte sequences replaced (header included). A block that Polars cannot parse
    is the whole read's error when a line has more fields than the header, else None."""
    frames = []
    replaced = index.header_replacements
    for lo, hi in record_blocks(index.starts, 0, index.rows):
        try:
            frame, bad = index.read(lo, hi)
        except Unparsed:
            found = ragged_line(_decoded_lines(index.content.file), index.separator)
            if found is None:
                return None
            raise SourceError(f"{index.content.path}: not a readable CSV file ({found})") from None
        if frame.height != hi - lo:
            return None  # records the index counts and Polars does not: the whole read decides
        frames.append(keep(frame))
        replaced += bad
    return frames, replaced


def valid_utf8(data: bytes) -> tuple[bytes, int]:
    """``data`` with undecodable byte sequences replaced by U+FFFD (as `decode_utf8` does),
    and how many were; valid data comes back as it is."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        text, replaced = decode_utf8(data, strip_bom=False)
        return text.encode("utf-8"), replaced
    return data, 0


def _decoded_lines(file: Path) -> Iterator[str]:
    """The file's lines decoded as a whole read decodes them (a leading BOM dropped)."""
    with file.open("rb") as fh:
        for number, line in enumerate(fh):
            yield decode_utf8(line, strip_bom=number == 0)[0]


def _runs(rows: list[int]) -> list[tuple[int, int]]:
    """Sorted distinct positions as ``(first, last + 1)`` runs of consecutive ones."""
    spans: list[tuple[int, int]] = []
    for row in rows:
        if spans and spans[-1][1] == row:
            spans[-1] = (spans[-1][0], row + 1)
        else:
            spans.append((row, row + 1))
    return spans
