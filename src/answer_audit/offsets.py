"""Offset-mapped views: a normalized string whose spans map back to the original text."""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from itertools import chain, repeat


class OffsetMap:
    """Maps a span of a normalized string back to the original text.

    Each normalized character knows the original piece it came from; a piece is one base
    character with its combining marks. Characters of an unchanged piece map one to one;
    those of a changed piece (``⒝`` -> ``(b)``) map to the whole piece.
    """

    __slots__ = ("_ends", "_starts")

    def __init__(self, starts: list[int] | None, ends: list[int] | None) -> None:
        self._starts = starts  # None (with ends None): the identity map
        self._ends = ends

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original ``(start, end)`` covering normalized ``[start:end]`` (end > start)."""
        if self._starts is None or self._ends is None:
            return start, end
        return self._starts[start], self._ends[end - 1]


@lru_cache(maxsize=1 << 16)
def _char_piece(char: str) -> str:
    return unicodedata.normalize("NFKC", char).lower()


def nfkc_lower_with_map(text: str) -> tuple[str, OffsetMap | None]:
    """``NFKC(text).lower()`` and, when it can be built exactly, its `OffsetMap`.

    The map is built per base character with its combining marks; when that does not
    reproduce the whole-string normalization (rare compositions such as Hangul jamo),
    the map is None.
    """
    nfkc = unicodedata.normalize("NFKC", text)
    whole = nfkc.lower()
    if nfkc == text and len(whole) == len(text):
        # NFKC changed nothing and lowercasing kept every character one character long
        return whole, OffsetMap(None, None)
    if not any(map(unicodedata.combining, text)):
        # every piece is one character: the same map as below, built by C-level iterators
        pieces = list(map(_char_piece, text))
        if "".join(pieces) != whole:
            return whole, None
        sizes = list(map(len, pieces))
        starts = list(chain.from_iterable(map(repeat, range(len(text)), sizes)))
        ends = list(chain.from_iterable(map(repeat, range(1, len(text) + 1), sizes)))
        return whole, OffsetMap(starts, ends)
    pieces = []
    starts = []
    ends = []
    start = 0
    for i in range(1, len(text) + 1):
        if i == len(text) or unicodedata.combining(text[i]) == 0:
            chunk = text[start:i]
            piece = unicodedata.normalize("NFKC", chunk).lower()
            pieces.append(piece)
            if piece == chunk:
                starts.extend(range(start, i))
                ends.extend(range(start + 1, i + 1))
            else:
                starts.extend([start] * len(piece))
                ends.extend([i] * len(piece))
            start = i
    if "".join(pieces) != whole:
        return whole, None
    return whole, OffsetMap(starts, ends)
