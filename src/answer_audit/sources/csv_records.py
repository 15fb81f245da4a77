"""Where the records of a CSV file start, found without parsing it: NumPy over its bytes, a
block at a time, so a file of any size is indexed in memory of the block's size.

A record ends at a line feed outside quotes. With RFC 4180's quoting (a quoted cell opens at
the start of a field and closes before a separator or a line end; a quote inside it is
doubled), a line feed is outside quotes exactly when an even number of quote characters comes
before it. Any other use of quotes (a quote inside an unquoted cell, text after a closing
quote, a quoted cell that never closes) is left to a reader of the whole file: `record_starts`
then returns None.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from answer_audit.sources.file_bytes import Offsets

SCAN_BYTES = 1 << 22  # bytes looked at per step: the step's arrays are a few times this
_QUOTE, _LF, _CR = 0x22, 0x0A, 0x0D


def record_starts(
    path: Path, separator: str, start: int = 0, block: int | None = None
) -> Offsets | None:
    """The byte offset of every record of the file from ``start`` (the header's offset: after
    a byte-order mark), then the file's size: record ``i`` is ``starts[i]:starts[i + 1]``, its
    line feed included. A blank line is a record. None when the quotes are not RFC 4180's.
    The file is read ``block`` bytes at a time (default `SCAN_BYTES`).

    Example: ``a,b\\n1,"x\\ny"\\n`` gives ``[0, 4, 12]``: the header, then one record.
    """
    block = block or SCAN_BYTES
    found = [np.array([start], dtype=np.int64)]
    quotes = 0  # quote characters before the step
    before = _LF  # the byte before the step: the start counts as a line start
    offset = start
    with path.open("rb") as fh:
        fh.seek(start)
        while data := fh.read(block):
            after = fh.read(2)
            fh.seek(-len(after), 1)
            step = _Step(data, after, before, ord(separator))
            if not step.quotes_are_plain(quotes):
                return None
            found.append(offset + 1 + step.record_ends(quotes))
            quotes += len(step.quotes)
            before, offset = data[-1], offset + len(data)
    if quotes % 2:
        return None  # a quoted cell runs to the end of the file
    starts = np.concatenate(found)
    return starts if starts[-1] == offset else np.append(starts, np.int64(offset))


class _Step:
    """One block of bytes, with the byte before it and the two after (a line feed past the
    end of the file: the end closes a quoted cell as a line end does)."""

    def __init__(self, data: bytes, after: bytes, before: int, separator: int) -> None:
        padded = bytes([before]) + data + after + b"\n\n"
        self.bytes = np.frombuffer(padded, dtype=np.uint8)
        self.size = len(data)
        self.separator = separator
        self.quotes = np.flatnonzero(self.bytes[1 : 1 + self.size] == _QUOTE)

    def quotes_are_plain(self, quotes_before: int) -> bool:
        """Whether each quote opens a cell at a field start (or doubles the quote before it)
        or closes one before a separator, a line end or a doubled quote; the first quote of
        the step is the file's quote number ``quotes_before``."""
        at = self.quotes
        if not len(at):
            return True
        opening = (quotes_before + np.arange(len(at))) % 2 == 0
        # self.bytes[at] is the byte before the quote at data[at]; at + 2 the one after
        prev, after, after2 = self.bytes[at], self.bytes[at + 2], self.bytes[at + 3]
        opens = (prev == self.separator) | (prev == _LF) | (prev == _QUOTE)
        closes = (after == self.separator) | (after == _LF) | (after == _QUOTE)
        closes |= (after == _CR) & (after2 == _LF)
        return bool(np.all(np.where(opening, opens, closes)))

    def record_ends(self, quotes_before: int) -> Offsets:
        """Positions in the step of the line feeds outside quotes."""
        feeds = np.flatnonzero(self.bytes[1 : 1 + self.size] == _LF)
        inside = (quotes_before + np.searchsorted(self.quotes, feeds)) % 2 == 1
        ends: Offsets = feeds[~inside].astype(np.int64)
        return ends
