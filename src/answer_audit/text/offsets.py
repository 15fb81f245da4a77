"""Offset-mapped views: a normalized string whose spans map back to the original text."""

from __future__ import annotations

import operator
import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

Offsets = Sequence[int] | npt.NDArray[np.integer[Any]]  # one original offset per character


class OffsetMap:
    """Maps a span of a normalized string back to the original text.

    Each normalized character knows the original piece it came from; a piece is one base
    character with its combining marks. Characters of an unchanged piece map one to one;
    those of a changed piece (``⒝`` -> ``(b)``) map to the whole piece.
    """

    __slots__ = ("_ends", "_starts")

    def __init__(self, starts: Offsets | None, ends: Offsets | None) -> None:
        self._starts = starts  # None (with ends None): the identity map; lists or NumPy arrays
        self._ends = ends

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original ``(start, end)`` covering normalized ``[start:end]`` (end > start)."""
        if self._starts is None or self._ends is None:
            return start, end
        return int(self._starts[start]), int(self._ends[end - 1])

    def through(
        self, starts: npt.NDArray[np.integer[Any]], ends: npt.NDArray[np.integer[Any]]
    ) -> OffsetMap:
        """The map of a string made from the normalized one, whose character ``i`` came from
        its characters ``starts[i]`` to ``ends[i] - 1``: ``span`` of character ``i`` is then
        ``self.span(starts[i], ends[i])``, computed for all at once."""
        if self._starts is None or self._ends is None:
            return OffsetMap(starts, ends)
        return OffsetMap(np.asarray(self._starts)[starts], np.asarray(self._ends)[ends - 1])


@lru_cache(maxsize=1 << 16)
def _piece(chunk: str) -> str:
    return unicodedata.normalize("NFKC", chunk).lower()


def nfkc_lower_with_map(text: str) -> tuple[str, OffsetMap | None]:
    """``NFKC(text).lower()`` and, when it can be built exactly, its `OffsetMap`.

    The map is built per base character with its combining marks; when that does not
    reproduce the whole-string normalization (rare compositions such as Hangul jamo),
    the map is None. Python touches each distinct character (or piece) once; the per-character
    offsets are built by NumPy, so a megabyte of full-width or accented text costs milliseconds.
    """
    nfkc = unicodedata.normalize("NFKC", text)
    whole = nfkc.lower()
    if nfkc == text and len(whole) == len(text):
        # NFKC changed nothing and lowercasing kept every character one character long
        return whole, OffsetMap(None, None)
    distinct = set(text)
    marks = "".join(sorted(c for c in distinct if unicodedata.combining(c)))
    if not marks:
        return whole, _char_map(text, whole, distinct)
    # a piece is a base character with the combining marks after it (marks that open the
    # text form the first piece)
    cls = "".join(map(re.escape, marks))
    pieces = re.findall(rf"\A[{cls}]+|[^{cls}][{cls}]*", text)
    # each distinct piece is normalized once; occurrences are read through its index
    distinct_pieces = list(dict.fromkeys(pieces))
    normalized = [_piece(piece) for piece in distinct_pieces]
    index = {piece: i for i, piece in enumerate(distinct_pieces)}
    ids = np.fromiter(map(index.__getitem__, pieces), dtype=np.int64, count=len(pieces))
    if "".join([normalized[i] for i in ids.tolist()]) != whole:
        return whole, None
    piece_len = np.array([len(piece) for piece in distinct_pieces], dtype=np.int64)[ids]
    norm_len = np.array([len(piece) for piece in normalized], dtype=np.int64)[ids]
    changed = np.array(list(map(operator.ne, distinct_pieces, normalized)), dtype=bool)[ids]
    piece_start = np.cumsum(piece_len) - piece_len
    first = np.repeat(piece_start, norm_len)
    # an unchanged piece maps character to character; a changed one maps to the whole piece
    within = np.arange(len(whole)) - np.repeat(np.cumsum(norm_len) - norm_len, norm_len)
    was_changed = np.repeat(changed, norm_len)
    starts = np.where(was_changed, first, first + within)
    ends = np.where(was_changed, np.repeat(piece_start + piece_len, norm_len), starts + 1)
    return whole, OffsetMap(starts, ends)


def _char_map(text: str, whole: str, distinct: set[str]) -> OffsetMap | None:
    """The map when every piece is one character: each maps to all it normalizes to."""
    table = {ord(c): _piece(c) for c in distinct}
    if text.translate(table) != whole:
        return None
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    sizes_of = np.zeros(int(codes.max()) + 1, dtype=np.int64)
    sizes_of[list(table)] = [len(piece) for piece in table.values()]
    starts = np.repeat(np.arange(len(text)), sizes_of[codes])
    return OffsetMap(starts, starts + 1)
