"""Byte ranges of a text file read on demand (a streamed CSV or JSON Lines table), from the
file itself or, when it is compressed, from a private decompressed copy."""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import ExitStack
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import numpy as np
import numpy.typing as npt

from answer_audit.sources.decode import (
    DECOMPRESSION_ERRORS,
    compression,
    open_text_file,
    unreadable,
)
from answer_audit.table.errors import SourceError

_COPY_CHUNK = 1 << 20
# Records are parsed this many bytes at a time at most: a slice of 100,000 long outputs is read
# as a few dozen pieces, each parsed and freed, not held as bytes, text and cells at once.
BLOCK_BYTES = 1 << 23

Offsets = npt.NDArray[np.int64]


def record_blocks(
    starts: Offsets, lo: int, hi: int, size: int | None = None
) -> list[tuple[int, int]]:
    """Records ``lo`` to ``hi`` as ``(first, end)`` runs of about ``size`` bytes each (default
    `BLOCK_BYTES`; at least one record each); record ``i`` starts at byte ``starts[i]``.

    Example: `record_blocks(np.array([0, 5, 9, 20]), 0, 4, 8)` is ``[(0, 2), (2, 3), (3, 4)]``.
    """
    if lo >= hi:
        return []
    targets = np.arange(starts[lo], starts[hi - 1], size or BLOCK_BYTES)
    cuts = np.searchsorted(starts[lo:hi], targets) + lo
    edges = sorted({lo, *(int(c) for c in cuts), hi})
    return list(pairwise(edges))


def seekable_copy(path: Path, stack: ExitStack) -> Path:
    """``path`` itself when it is not compressed; else its decompressed bytes in a private
    temporary file that ``stack`` removes (a compressed file cannot be read at an offset).
    An unreadable file is the SourceError `read_bytes` gives."""
    if compression(path) is None:
        return path
    folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="answer-audit-")))
    copy = folder / "decompressed"
    try:
        with open_text_file(path) as src, copy.open("wb") as dst:
            shutil.copyfileobj(src, dst, _COPY_CHUNK)
    except DECOMPRESSION_ERRORS as exc:
        raise SourceError(f"{path}: cannot read the file ({unreadable(exc)})") from exc
    return copy


def changed_while_read(path: Path, asked: int, read: int) -> SourceError:
    """The error for a read that found other rows than the index noted."""
    return SourceError(
        f"{path}: {asked} rows asked, {read} read; was an input changed while it was read? "
        "Run again on a copy that stays put"
    )


@dataclass(frozen=True)
class FileBytes:
    """The bytes of ``file`` (the input, or its copy) as they were when indexed: a read after
    the file changed is a SourceError naming ``path`` (the input as given)."""

    path: Path
    file: Path
    size: int
    mtime_ns: int

    @classmethod
    def of(cls, path: Path, file: Path) -> FileBytes:
        """The file as it is now."""
        found = os.stat(file)
        return cls(path, file, found.st_size, found.st_mtime_ns)

    def read(self, ranges: list[tuple[int, int]]) -> bytes:
        """The bytes of each ``(start, end)`` range, joined in the order given."""
        try:
            found = os.stat(self.file)
            if (found.st_size, found.st_mtime_ns) != (self.size, self.mtime_ns):
                raise SourceError(
                    f"{self.path}: the file changed after it was indexed; was an input changed "
                    "while it was read? Run again on a copy that stays put"
                )
            pieces = []
            with self.file.open("rb") as fh:
                for start, end in ranges:
                    fh.seek(start)
                    pieces.append(fh.read(end - start))
        except OSError as exc:
            raise SourceError(f"{self.path}: cannot read the file ({unreadable(exc)})") from exc
        return b"".join(pieces)
