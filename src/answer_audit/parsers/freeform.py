"""Free-form answers: pick the answer region (think split, garbage-tail truncation).

Two engines: `FreeformPreset` (literal markers; ``freeform/v1`` and ``v2``) and
`AnswerRegionPreset` (regex turn markers, every reasoning delimiter; ``freeform/v3``). The
built-in presets are data in `answer_audit.parsers.presets.freeform`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from answer_audit.extraction import Extraction
from answer_audit.parsers.timed import budgeted, compile_user_pattern
from answer_audit.text.prefilters import guarded
from answer_audit.text.regions import (
    REASONING_CLOSERS,
    first_nonempty_line_bounds,
    reasoning_bounds,
    stripped_bounds,
    think_region_start,
    truncation_bounds,
)
from answer_audit.text.vocabulary import (
    LINE_START,
    QUESTION_PATTERNS,
    TURN_PATTERN_KEYWORDS,
    TURN_PATTERNS,
)

# The keyword gate belongs to exactly freeform/v3's turn patterns: a preset that adds or changes
# one (a preset file building on freeform/v3) searches every region.
_CUT_KEYWORDS: dict[tuple[str, ...], tuple[str, ...]] = {TURN_PATTERNS: TURN_PATTERN_KEYWORDS}
# The one marker too short to be a keyword: a line that is an `AI` role (see `_may_hold`).
_AI_ROLE = re.compile(LINE_START + r"(?i:ai)[ \t*_]*(?::|$)", re.MULTILINE)
# A new question (`QUESTION_PATTERNS`) ends the answer, unless everything before it is a
# preamble that says it is restating the question ("Let's look at your question:").
_RESTATES = re.compile(r"(?i)\bquestion\b")
# Wrappers around a whole answer that are not part of it; the inside may not hold the closer
# ("**Paris** and **Rome**" is not wrapped), and LaTeX braces must balance.
_WRAPPERS = (
    re.compile(r"\*\*((?:(?!\*\*).)+)\*\*", re.S),
    re.compile(r"__((?:(?!__).)+)__", re.S),
    re.compile(r"`([^`]+)`"),
    re.compile(r"\$\$([^$]+)\$\$"),
    re.compile(r"\$([^$]+)\$"),
    re.compile(r"\\\(((?:(?!\\\)).)+)\\\)", re.S),
    re.compile(r"\\\[((?:(?!\\\]).)+)\\\]", re.S),
    re.compile(r"\\(?:boxed|text|textbf|mathrm|mathbf)\{(.+)\}", re.S),
)


@dataclass(frozen=True)
class FreeformPreset:
    """strip -> [text after the last </think>] -> strip -> cut at the earliest marker.

    Rules reported: ``empty``, ``whole-text``, ``after-think``, ``truncated-at-marker``,
    ``first-line-fallback`` (the cut left nothing, so the first non-empty line is used).
    """

    name: str
    markers: tuple[str, ...]
    case_sensitive: bool = True
    strip_think: bool = False
    family: str = "freeform"

    def extract(self, text: str) -> Extraction:
        start, end = stripped_bounds(text, 0, len(text))
        rule = "whole-text"
        if self.strip_think:
            cut = think_region_start(text[start:end])
            if cut:
                start, end = stripped_bounds(text, start + cut, end)
                rule = "after-think"
        if start >= end:
            return Extraction("", "empty", None)
        start, end, cut_rule = truncation_bounds(
            text, start, end, self.markers, self.case_sensitive
        )
        return Extraction(text[start:end], cut_rule or rule, (start, end))

    def describe(self) -> list[str]:
        steps = ["strip surrounding whitespace"]
        if self.strip_think:
            steps.append("`after-think`: keep the text after the last `</think>` (any case), strip")
        case = "case-sensitive" if self.case_sensitive else "searched in the lowercased text"
        shown = ", ".join(repr(m) for m in self.markers)
        steps.append(
            f"`truncated-at-marker`: cut at the earliest marker (position > 0, {case}): {shown}"
        )
        steps.append("`first-line-fallback`: if the cut leaves nothing, the first non-empty line")
        return steps


@dataclass(frozen=True)
class AnswerRegionPreset:
    """The second free-form engine (``freeform/v3``): regex turn markers, every reasoning
    delimiter, restated questions, wrappers. `FreeformPreset` stays the engine of v1 and v2.

    strip -> [``unclosed-think``: a reasoning block never closed has no answer] -> text after
    the last closing delimiter (`REASONING_CLOSERS`) -> cut at the earliest ``cut_patterns``
    match (regexes, multiline) or ``question_patterns`` match whose preceding text does not say
    it restates the question -> [``unwrap``: drop markdown/LaTeX wrapped around the whole
    answer]. Rules: ``empty``, ``unclosed-think``, ``whole-text``, ``after-think``,
    ``truncated-at-marker``, ``first-line-fallback``.
    """

    name: str
    cut_patterns: tuple[str, ...]
    question_patterns: tuple[str, ...] = ()
    unwrap: bool = True
    family: str = "freeform"
    user_patterns: bool = False  # from a preset file: run patterns with a time limit

    def extract(self, text: str) -> Extraction:
        return budgeted(lambda: self._extract(text), timed=self.user_patterns)

    def _extract(self, text: str) -> Extraction:
        start, end = stripped_bounds(text, 0, len(text))
        rule = "whole-text"
        cut, unclosed = reasoning_bounds(text[start:end])
        if unclosed:
            return Extraction("", "unclosed-think", None)
        if cut:
            start, end = stripped_bounds(text, start + cut, end)
            rule = "after-think"
        if start >= end:
            return Extraction("", "empty", None)
        start, end, cut_rule = self._cut(text, start, end)
        if self.unwrap:
            start, end = _unwrap(text, start, end)
        return Extraction(text[start:end], cut_rule or rule, (start, end))

    def _cut(self, text: str, start: int, end: int) -> tuple[int, int, str | None]:
        cuts, questions = _compiled(self.cut_patterns, self.question_patterns, self.user_patterns)
        region = text[start:end]
        pos = None
        keywords = _CUT_KEYWORDS.get(self.cut_patterns)  # None for any other set of patterns
        if keywords is None or _may_hold(region, keywords):
            pos = min(
                (m.start() for p in cuts if (m := _first_after_start(p, region))), default=None
            )
        # With the built-in question pattern (matches open a line and end on it), the text
        # before a later match only grows by what follows: once it restates the question, so
        # does every later one, and the search can stop there (linear, not quadratic).
        stop_when_restated = self.question_patterns == QUESTION_PATTERNS and not self.user_patterns
        for p in questions:
            for m in p.finditer(region):
                before = p.sub(" ", region[: m.start()])  # the question markers say nothing
                if m.start() > 0 and not _RESTATES.search(before):
                    pos = m.start() if pos is None else min(pos, m.start())
                    break
                if m.start() > 0 and stop_when_restated:
                    break
        if pos is None:
            return start, end, None
        s, e = stripped_bounds(text, start, start + pos)
        if s < e:
            return s, e, "truncated-at-marker"
        s, e = first_nonempty_line_bounds(text, start, end)
        return s, e, "first-line-fallback"

    def describe(self) -> list[str]:
        closers = ", ".join(f"`{c}`" for c in REASONING_CLOSERS)
        steps = [
            "strip surrounding whitespace",
            "`unclosed-think`: a reasoning block opened and never closed: empty answer",
            f"`after-think`: keep the text after the last closing delimiter ({closers}), strip",
        ]
        if self.cut_patterns:
            shown = " ; ".join(f"`{p}`" for p in self.cut_patterns)
            steps.append(f"`truncated-at-marker`: cut at the earliest new turn or block: {shown}")
        if self.question_patterns:
            shown = " ; ".join(f"`{p}`" for p in self.question_patterns)
            steps.append(
                f"`truncated-at-marker`: cut at a new question ({shown}) unless the text before "
                "it says it restates the question"
            )
        steps.append("`first-line-fallback`: if the cut leaves nothing, the first non-empty line")
        if self.unwrap:
            steps.append(
                "drop markdown/LaTeX wrapped around the whole answer (`**x**`, `$x$`, ...)"
            )
        return steps


@lru_cache(maxsize=64)
def _compiled(
    cuts: tuple[str, ...], questions: tuple[str, ...], timed: bool = False
) -> tuple[tuple[re.Pattern[str], ...], tuple[re.Pattern[str], ...]]:
    # built-in patterns are guarded by their first characters (same matches, fail faster)
    compile_ = compile_user_pattern if timed else lambda p, f: guarded(re.compile(p, f))
    return (
        tuple(compile_(p, re.MULTILINE) for p in cuts),  # type: ignore[misc]
        tuple(compile_(p, re.MULTILINE) for p in questions),  # type: ignore[misc]
    )


def _may_hold(region: str, keywords: tuple[str, ...]) -> bool:
    """False only when no cut pattern can match: none of ``keywords`` is in the lowercased
    region and no line starts with an ``AI`` role (the one marker too short to be a keyword)."""
    folded = region  # the table changes nothing without its characters: skip its pass then
    if not region.isascii() and any(c in region for c in _CASELESS_EXTRA_CHARS):
        folded = region.translate(_RE_CASELESS_EXTRAS)
    lowered = folded.lower()
    return any(k in lowered for k in keywords) or _AI_ROLE.search(region) is not None


# The only characters `re`'s IGNORECASE matches to an ASCII letter whose `lower()` is not that
# letter: İ and ı match "i", ſ matches "s" (the Kelvin sign lowercases to "k" already).
_CASELESS_EXTRA_CHARS = "\u0130\u0131\u017f"
_RE_CASELESS_EXTRAS = str.maketrans(dict(zip(_CASELESS_EXTRA_CHARS, "iis", strict=True)))


def _first_after_start(pattern: re.Pattern[str], region: str) -> re.Match[str] | None:
    for m in pattern.finditer(region):
        if m.start() > 0:
            return m
    return None


_MAX_WRAPPERS = 8  # nested wrappers peeled at most; bounded so hostile nesting stays linear


def _unwrap(text: str, start: int, end: int) -> tuple[int, int]:
    for _ in range(_MAX_WRAPPERS):
        for wrapper in _WRAPPERS:
            m = wrapper.fullmatch(text, start, end)
            if m is not None and m.end(1) > m.start(1) and _balanced(m.group(1)):
                start, end = stripped_bounds(text, m.start(1), m.end(1))
                break
        else:
            break
    return start, end


def _balanced(inner: str) -> bool:
    depth = 0
    for ch in inner:
        depth += (ch == "{") - (ch == "}")
        if depth < 0:
            return False
    return depth == 0
