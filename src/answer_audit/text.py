"""Answer-region rules (think delimiters, garbage tails) and the named normalizers."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable


def strip_think(text: str) -> str:
    """Keep only the text after the LAST ``</think>`` (any case), left-stripped.

    Unchanged when there is no ``</think>``; many models emit the closing tag alone.

    >>> strip_think("reasoning...</think>  Paris")
    'Paris'
    """
    start = think_region_start(text)
    return text[start:].lstrip() if start else text


def think_region_start(text: str) -> int:
    """Offset just after the last ``</think>``, or 0 when there is none."""
    pos = lower_same_length(text).rfind("</think>")
    return pos + len("</think>") if pos >= 0 else 0


def lower_same_length(text: str) -> str:
    """Lowercase without changing offsets (a character whose lowercase is longer stays as is)."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


def earliest_marker(text: str, markers: Iterable[str], case_sensitive: bool = True) -> int | None:
    """Position of the earliest occurrence (at a position > 0) of any marker, or None."""
    haystack = text if case_sensitive else lower_same_length(text)
    best: int | None = None
    for marker in markers:
        if not marker:
            continue
        needle = marker if case_sensitive else marker.lower()
        pos = haystack.find(needle, 1)
        if pos > 0 and (best is None or pos < best):
            best = pos
    return best


def stripped_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """Bounds of ``text[start:end].strip()`` inside ``text``."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def first_nonempty_line_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """Bounds of the first non-blank line of ``text[start:end]``, stripped (empty if none)."""
    offset = start
    for line in text[start:end].splitlines(keepends=True):
        s, e = stripped_bounds(text, offset, offset + len(line))
        if s < e:
            return s, e
        offset += len(line)
    return start, start


def truncation_bounds(
    text: str, start: int, end: int, markers: Iterable[str], case_sensitive: bool
) -> tuple[int, int, str | None]:
    """Where `truncate_at_markers` keeps ``text[start:end]``, and how it decided.

    The third item is None (no marker), ``"truncated-at-marker"`` or ``"first-line-fallback"``.
    """
    pos = earliest_marker(text[start:end], markers, case_sensitive)
    if pos is None:
        s, e = stripped_bounds(text, start, end)
        return s, e, None
    s, e = stripped_bounds(text, start, start + pos)
    if s < e:
        return s, e, "truncated-at-marker"
    s, e = first_nonempty_line_bounds(text, start, end)
    return s, e, "first-line-fallback"


def truncate_at_markers(text: str, markers: Iterable[str], case_sensitive: bool = True) -> str:
    """Cut at the earliest marker occurring at a position > 0, then strip.

    If the cut leaves nothing, the first non-empty line is returned instead.
    Case-insensitive search looks for the lowercased markers in the lowercased text.

    >>> truncate_at_markers("Paris.\\nUSER: and Rome?", ["USER:"])
    'Paris.'
    """
    s, e, _ = truncation_bounds(text, 0, len(text), markers, case_sensitive)
    return text[s:e]


# ---------------------------------------------------------------- normalizers

_V1_PUNCT = re.compile(r"[.,;:!?'\"()\[\]{}]")
_V2_PUNCT = re.compile(r"[.,;:!?'\"()\[\]{}*_`~]")
_WHITESPACE = re.compile(r"\s+")
_DOTTED_ABBREVIATION = re.compile(r"\b(?:[a-z]\.)+[a-z]\b")
_SUB_SUPER_DIGITS = str.maketrans("₀₁₂₃₄₅₆₇₈₉⁰¹²³⁴⁵⁶⁷⁸⁹", "01234567890123456789")


def normalize_v1(text: str) -> str:
    """Lowercase, strip, punctuation ``.,;:!?'"()[]{}`` to spaces, collapse whitespace."""
    text = _V1_PUNCT.sub(" ", text.lower().strip())
    return _WHITESPACE.sub(" ", text).strip()


def normalize_v2(text: str) -> str:
    """v1 plus sub/superscript digits, dotted abbreviations (u.s. -> us) and ``*_`~``."""
    text = text.lower().strip().translate(_SUB_SUPER_DIGITS)
    text = _DOTTED_ABBREVIATION.sub(lambda m: m.group(0).replace(".", ""), text)
    text = _V2_PUNCT.sub(" ", text)
    return _WHITESPACE.sub(" ", text).strip()


NORMALIZERS: dict[str, Callable[[str], str]] = {"v1": normalize_v1, "v2": normalize_v2}


def normalize(text: str, normalizer: str = "v1") -> str:
    """Apply a named normalizer (``"v1"`` or ``"v2"``).

    >>> normalize("The U.S. (mainland)!", "v2")
    'the us mainland'
    """
    try:
        fn = NORMALIZERS[normalizer]
    except KeyError:
        raise ValueError(
            f"unknown normalizer {normalizer!r}; known: {', '.join(sorted(NORMALIZERS))}"
        ) from None
    return fn(text)


# ------------------------------------------------------- offset-mapped views


class OffsetMap:
    """Maps a span of a normalized string back to the original text.

    Each normalized character knows the original piece it came from; a piece is one base
    character with its combining marks. Characters of an unchanged piece map one to one;
    those of a changed piece (``⒝`` -> ``(b)``) map to the whole piece.
    """

    __slots__ = ("_ends", "_starts")

    def __init__(self, starts: list[int], ends: list[int]) -> None:
        self._starts = starts
        self._ends = ends

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original ``(start, end)`` covering normalized ``[start:end]`` (end > start)."""
        return self._starts[start], self._ends[end - 1]


def nfkc_lower_with_map(text: str) -> tuple[str, OffsetMap | None]:
    """``NFKC(text).lower()`` and, when it can be built exactly, its `OffsetMap`.

    The map is built per base character with its combining marks; when that does not
    reproduce the whole-string normalization (rare compositions such as Hangul jamo),
    the map is None.
    """
    whole = unicodedata.normalize("NFKC", text).lower()
    if whole == text:
        positions = list(range(len(text)))
        return whole, OffsetMap(positions, [p + 1 for p in positions])
    pieces: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
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
