"""JSON Lines read a piece at a time, noting where each record's line is in the file, so a
streamed table reads any record again by its bytes.

`scan_jsonl` is the one pass over the file that a whole read and a streamed read both make:
line-precise errors, skipped bad lines, undecodable bytes replaced and counted; each piece's
records go to a `RecordFrames`, which settles the column types over every record.
`JsonlRecords` reads records back by their byte spans with the types settled then.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO

import numpy as np
import polars as pl

from answer_audit.sources.columns import RecordFrames, frame_with_dtypes
from answer_audit.sources.decode import (
    DECOMPRESSION_ERRORS,
    decode_utf8,
    open_text_file,
    reject_binary,
    reject_wide_encodings,
    unreadable,
)
from answer_audit.sources.file_bytes import (
    FileBytes,
    Offsets,
    changed_while_read,
    record_blocks,
)
from answer_audit.sources.jsonfmt import (
    may_hold_surrogates,
    parse_jsonl,
    parse_jsonl_lines,
    replace_surrogates,
)
from answer_audit.table.errors import SourceError

# A piece is at most this many lines and about this many bytes: its text, records and columns
# are made at once, so a large file is never held as bytes, text and records all together.
JSONL_CHUNK_LINES = 50_000
PIECE_BYTES = 1 << 23


@dataclass(frozen=True)
class JsonlScan:
    """What one pass over a JSON Lines file found besides its records."""

    skipped: int
    """Bad lines skipped (``skip_bad_lines``)."""
    replaced: int
    """Undecodable byte sequences and lone surrogates replaced by U+FFFD."""
    starts: Offsets
    """Where each record's line starts in the (decompressed) bytes."""
    ends: Offsets
    """Where it ends, its line feed included."""


def scan_jsonl(
    where: Path,
    builder: RecordFrames,
    *,
    skip_bad_lines: bool,
    chunk_lines: int = JSONL_CHUNK_LINES,
    copy: IO[bytes] | None = None,
) -> JsonlScan:
    """Every record of the file into ``builder``, ``chunk_lines`` lines at a time at most; the
    decompressed bytes are also written to ``copy`` when given. Raises SourceError for a file
    that is not text, cannot be decompressed, or (without ``skip_bad_lines``) has a bad line."""
    skipped = replaced = offset = 0
    starts: list[Offsets] = []
    ends: list[Offsets] = []
    try:
        with open_text_file(where) as fh:
            head = fh.read(4096)
            reject_wide_encodings(head, where)
            reject_binary(head, where, "JSON Lines")
        with open_text_file(where) as fh:
            first = 1
            for piece in _pieces(fh, chunk_lines):
                if copy is not None:
                    copy.writelines(piece)
                text, bad_bytes = decode_utf8(b"".join(piece), strip_bom=first == 1)
                records, numbers, bad = parse_jsonl_lines(
                    text, str(where), skip_bad_lines=skip_bad_lines, first_line=first
                )
                if may_hold_surrogates(text):
                    bad_bytes += replace_surrogates(records)
                del text
                builder.add(records)
                lengths = np.fromiter(map(len, piece), dtype=np.int64, count=len(piece))
                line_starts = offset + np.cumsum(lengths) - lengths
                at = np.asarray(numbers, dtype=np.int64) - first
                starts.append(line_starts[at])
                ends.append(line_starts[at] + lengths[at])
                offset += int(lengths.sum())
                skipped, replaced, first = skipped + bad, replaced + bad_bytes, first + len(piece)
    except DECOMPRESSION_ERRORS as exc:
        raise SourceError(f"{where}: cannot read the file ({unreadable(exc)})") from exc
    empty = np.zeros(0, dtype=np.int64)
    return JsonlScan(skipped, replaced, np.concatenate([empty, *starts]),
                     np.concatenate([empty, *ends]))  # fmt: skip


def _pieces(fh: IO[bytes], lines: int) -> Iterator[list[bytes]]:
    """The file's lines, in lists of at most ``lines`` lines and about `PIECE_BYTES` bytes."""
    piece: list[bytes] = []
    size = 0
    for line in fh:
        piece.append(line)
        size += len(line)
        if len(piece) >= lines or size >= PIECE_BYTES:
            yield piece
            piece, size = [], 0
    if piece:
        yield piece


@dataclass(frozen=True)
class JsonlRecords:
    """The records of a scanned file, read again by their byte spans, with the column types
    settled over the whole file (``dtypes``, of the columns read)."""

    content: FileBytes
    starts: Offsets
    ends: Offsets
    dtypes: dict[str, pl.DataType]

    def rows_from(self, lo: int, hi: int) -> JsonlRecords:
        """Records ``lo`` to ``hi`` alone (small to send to another process)."""
        return replace(self, starts=self.starts[lo:hi].copy(), ends=self.ends[lo:hi].copy())

    def read(self, lo: int, hi: int) -> pl.DataFrame:
        """Records ``lo`` to ``hi`` (0-based), a block at a time (see `record_blocks`): the
        lines between them that are blank or were skipped as bad are skipped again."""
        frames = []
        for a, b in record_blocks(self.starts, lo, hi):
            span = (int(self.starts[a]), int(self.ends[b - 1]))
            frames.append(self._records(self.content.read([span]), span[0] == 0, b - a))
        if not frames:
            return frame_with_dtypes([], self.dtypes)
        return pl.concat(frames, how="vertical")

    def read_at(self, rows: list[int]) -> pl.DataFrame:
        """The records at these sorted, distinct positions, in that order."""
        spans = [(int(self.starts[r]), int(self.ends[r])) for r in rows]
        # each line keeps its line feed; only the file's last may lack one, and it comes last
        return self._records(self.content.read(spans), spans[0][0] == 0, len(rows))

    def _records(self, data: bytes, at_start: bool, expected: int) -> pl.DataFrame:
        text, _ = decode_utf8(data, strip_bom=at_start)
        records, _ = parse_jsonl(text, str(self.content.path), skip_bad_lines=True)
        if may_hold_surrogates(text):
            replace_surrogates(records)
        if len(records) != expected:
            raise changed_while_read(self.content.path, expected, len(records))
        return frame_with_dtypes(records, self.dtypes)
