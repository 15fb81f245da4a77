"""The answer region of a free-form preset, found with two compiled scans: number/v2's region.

`AnswerRegionPreset` tries each turn pattern in turn behind a keyword gate (the lowercased text
searched for some thirty keywords); that costs more than the whole rest of number/v2 on a
chain-of-thought output. `find_region` finds the same region (tests/parsers/test_number.py
checks it against the engine) with the patterns joined: those anchored at a line start in one
pattern (a position that starts no line fails at once), the others in one pattern that opens
with the class of their first characters, and the question patterns in one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from answer_audit.parsers.freeform import AnswerRegionPreset
from answer_audit.text.prefilters import first_chars
from answer_audit.text.regions import first_nonempty_line_bounds, reasoning_bounds, stripped_bounds

_RESTATES = re.compile(r"(?i)\bquestion\b")  # as AnswerRegionPreset reads a restated question


@dataclass(frozen=True)
class _Compiled:
    anywhere: re.Pattern[str] | None
    line_start: re.Pattern[str] | None
    questions: re.Pattern[str] | None
    opening: re.Pattern[str] | None


@lru_cache(maxsize=16)
def _compiled(preset: AnswerRegionPreset) -> _Compiled:
    anchored = [p for p in preset.cut_patterns if p.startswith("^")]
    anywhere = [p for p in preset.cut_patterns if not p.startswith("^")]
    questions = list(preset.question_patterns)
    return _Compiled(
        _joined(anywhere, guard=True),
        _joined([_after_newline(p) for p in anchored]),
        _joined([_after_newline(p) for p in questions])
        if all(p.startswith("^") for p in questions)
        else None,
        _joined(list(preset.opening_turns)),
    )


def _after_newline(pattern: str) -> str:
    """A line-start pattern (``^...``) that matches from the newline before the line: `re`
    then finds it by searching for the newline, not by trying every position, and a line
    that cannot start a match (a number, in a flood of number lines) fails at one class
    check. A cut is never at the region's first line, so nothing is lost (`_first_cut` adds
    one to the start)."""
    line = pattern[1:]
    starts = first_chars(line, re.MULTILINE, wide=True)
    if starts is None or any(lo < 0 for lo, _ in starts):
        return "\n" + line
    return f"\n(?=[{''.join(_class_range(lo, hi) for lo, hi in starts)}])(?:{line})"


def _class_range(lo: int, hi: int) -> str:
    return re.escape(chr(lo)) if lo == hi else f"{re.escape(chr(lo))}-{re.escape(chr(hi))}"


def _joined(patterns: list[str], guard: bool = False) -> re.Pattern[str] | None:
    if not patterns:
        return None
    body = "|".join(f"(?:{p})" for p in patterns)
    starts = [first_chars(p, re.MULTILINE) for p in patterns] if guard else []
    if guard and all(s is not None for s in starts):
        chars = sorted(
            {chr(c) for s in starts for lo, hi in s or () if lo >= 0 for c in range(lo, hi + 1)}
        )
        escapes = sorted({k for s in starts for lo, k in s or () if lo < 0})
        if not escapes and len(chars) < 200:
            # a pattern that opens with a class lets `re` skip to the next character of the
            # class in one C loop; the lookbehind steps back onto it to try the patterns there
            body = f"[{re.escape(''.join(chars))}](?<=(?=(?:{body}))[\\s\\S])"
    return re.compile(body, re.MULTILINE)


def find_region(preset: AnswerRegionPreset, text: str) -> tuple[int, int] | str:
    """The answer region ``preset`` finds in ``text`` with reasoning blocks closed (an open one
    has no answer): its bounds, or the rule that says there is none (``unclosed-think``,
    ``empty``, ``opens-with-turn``)."""
    start, end = stripped_bounds(text, 0, len(text))
    cut, unclosed = reasoning_bounds(text[start:end])
    if unclosed:
        return "unclosed-think"
    if cut:
        start, end = stripped_bounds(text, start + cut, end)
    if start >= end:
        return "empty"
    patterns = _compiled(preset)
    region = text[start:end]
    if patterns.opening is not None and patterns.opening.match(region):
        return "opens-with-turn"
    pos = _first_cut(patterns, region)
    if pos is None:
        return start, end
    s, e = stripped_bounds(text, start, start + pos)
    return (s, e) if s < e else first_nonempty_line_bounds(text, start, end)


def _first_cut(patterns: _Compiled, region: str) -> int | None:
    found = []
    if patterns.anywhere is not None and (m := patterns.anywhere.search(region, 1)):
        found.append(m.start())
    if patterns.line_start is not None and (m := patterns.line_start.search(region)):
        found.append(m.start() + 1)
    if patterns.questions is not None and (m := patterns.questions.search(region)):
        # once the text before a question restates it, so does the text before later ones
        before = patterns.questions.sub("\n", "\n" + region[: m.start() + 1])
        if not _RESTATES.search(before):
            found.append(m.start() + 1)
    return min(found, default=None)
