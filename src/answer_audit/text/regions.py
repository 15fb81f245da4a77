"""Answer-region rules: think delimiters, garbage-tail markers, line and whitespace bounds."""

from __future__ import annotations

import re
from collections.abc import Iterable

from answer_audit import arguments


def strip_think(text: str) -> str:
    """Keep only the text after the LAST ``</think>`` (any case), left-stripped.

    Unchanged when there is no ``</think>``; many models emit the closing tag alone.

    >>> strip_think("reasoning...</think>  Paris")
    'Paris'
    """
    arguments.text(text, "strip_think")
    start = think_region_start(text)
    return text[start:].lstrip() if start else text


def think_region_start(text: str) -> int:
    """Offset just after the last ``</think>``, or 0 when there is none."""
    pos = lower_same_length(text).rfind("</think>")
    return pos + len("</think>") if pos >= 0 else 0


# Closing and opening delimiters of a reasoning block, as models write them (any case, spaces
# allowed inside the tag: `</think >`). A closer missing its final `>` is not a closer.
# REASONING_CLOSERS is the readable list shown in preset descriptions; the patterns decide.
# Every character Python's `str.strip()` removes (the highest is U+3000). Polars' default
# `strip_chars()` keeps U+001C-U+001F; strip with this to agree with the row rules.
WHITESPACE = "".join(c for c in map(chr, range(0x3001)) if c.isspace())

REASONING_CLOSERS = ("</think>", "</reasoning>", "</thought>", "<|end_of_thought|>")
_CLOSER = re.compile(r"</\s*(?:think|reasoning|thought)\s*>|<\|end_of_thought\|>", re.IGNORECASE)
_OPENER = re.compile(r"<\s*(?:think|reasoning|thought)\s*>|<\|begin_of_thought\|>", re.IGNORECASE)


def reasoning_bounds(text: str) -> tuple[int, bool]:
    """Where the final answer starts, and whether a reasoning block was left open.

    The start is the offset just after the last closing delimiter (0 when there is none). The
    flag is True when an opening delimiter comes after that point and is never closed: the
    output was cut off while still reasoning, so it has no final answer.

    >>> reasoning_bounds("<think>so B</think> Answer: B"), reasoning_bounds("<think>maybe B")
    ((19, False), (0, True))
    """
    start = 0
    for m in _CLOSER.finditer(text):
        start = m.end()
    return start, _OPENER.search(text, start) is not None


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
