"""Answer-region rules (think delimiters, garbage tails) and the named normalizers."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from answer_audit import arguments
from answer_audit.normalizer_v3 import normalize_v3
from answer_audit.numbers import normalize_number

# Re-exported: they lived here first.
from answer_audit.offsets import OffsetMap as OffsetMap
from answer_audit.offsets import nfkc_lower_with_map as nfkc_lower_with_map


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


# ---------------------------------------------------------------- normalizers

# Each punctuation character becomes one space (a table: one C pass, however much punctuation);
# `" ".join(text.split())` collapses whitespace as `re`'s `\s+` -> " " and strip do (both use
# `str.isspace`).
_V1_PUNCT = str.maketrans(dict.fromkeys(".,;:!?'\"()[]{}", " "))
_V2_PUNCT = str.maketrans(dict.fromkeys(".,;:!?'\"()[]{}*_`~", " "))
_DOTTED_ABBREVIATION = re.compile(r"\b(?:[a-z]\.)+[a-z]\b")
SUB_SUPER_FROM, SUB_SUPER_TO = "₀₁₂₃₄₅₆₇₈₉⁰¹²³⁴⁵⁶⁷⁸⁹", "01234567890123456789"
_SUB_SUPER_DIGITS = str.maketrans(SUB_SUPER_FROM, SUB_SUPER_TO)
_ANY_SUB_SUPER = re.compile(f"[{SUB_SUPER_FROM}]")


def normalize_v1(text: str) -> str:
    """Lowercase, strip, punctuation ``.,;:!?'"()[]{}`` to spaces, collapse whitespace."""
    return " ".join(text.lower().strip().translate(_V1_PUNCT).split())


def normalize_v2(text: str) -> str:
    """v1 plus sub/superscript digits, dotted abbreviations (u.s. -> us) and ``*_`~``."""
    text = text.lower().strip()
    if _ANY_SUB_SUPER.search(text):  # a table pass costs a lookup per character: only if needed
        text = text.translate(_SUB_SUPER_DIGITS)
    text = _DOTTED_ABBREVIATION.sub(lambda m: m.group(0).replace(".", ""), text)
    return " ".join(text.translate(_V2_PUNCT).split())


# A name here is also the name of a matcher in `answer_audit.matching.MATCHERS`: ``v1`` to
# ``v3`` compare by containment, ``numeric`` by value (this normalizer gives the final number).
NORMALIZERS: dict[str, Callable[[str], str]] = {
    "v1": normalize_v1,
    "v2": normalize_v2,
    "v3": normalize_v3,
    "numeric": normalize_number,
}


def normalize(text: str, normalizer: str = "v1") -> str:
    """Apply a named normalizer (``"v1"``, ``"v2"``, ``"v3"`` or ``"numeric"``).

    >>> normalize("The U.S. (mainland)!", "v2")
    'the us mainland'
    """
    arguments.text(text, "normalize")
    try:
        fn = NORMALIZERS[normalizer]
    except (KeyError, TypeError):  # TypeError: an unhashable name
        raise ValueError(
            f"unknown normalizer {normalizer!r}; known: {', '.join(sorted(NORMALIZERS))}"
        ) from None
    return fn(text)
