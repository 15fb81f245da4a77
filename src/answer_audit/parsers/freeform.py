"""Free-form answers: pick the answer region (think split, garbage-tail truncation).

Two engines: `FreeformPreset` (literal markers; ``freeform/v1`` and ``v2``) and
`AnswerRegionPreset` (regex turn markers, every reasoning delimiter; ``freeform/v3`` and
``v4``). The built-in presets are data in `answer_audit.parsers.presets.freeform`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from answer_audit.extraction import Extraction
from answer_audit.parsers.timed import budgeted, compile_user_pattern
from answer_audit.text.prefilters import guarded, may_match, needed_strings
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
    QUESTION_PATTERNS_V4,
    QUESTION_WORDS_V4,
    TURN_PATTERN_KEYWORDS,
    TURN_PATTERN_KEYWORDS_V4,
    TURN_PATTERNS,
    TURN_PATTERNS_V4,
)

# The one marker too short to be a keyword: a line that is an `AI` role (see `_may_hold`);
# freeform/v4 adds the `H` role of Anthropic's old chat format.
_AI_ROLE = re.compile(LINE_START + r"(?i:ai)[ \t*_]*(?::|$)", re.MULTILINE)
_AI_OR_H_ROLE = re.compile(LINE_START + r"(?:(?i:ai)[ \t*_]*(?::|$)|H[ \t*_]*:)", re.MULTILINE)
# The keyword gate belongs to exactly the built-in turn patterns: a preset that adds or changes
# one (a preset file building on freeform/v3) searches every region.
_CUT_KEYWORDS: dict[tuple[str, ...], tuple[tuple[str, ...], re.Pattern[str]]] = {
    TURN_PATTERNS: (TURN_PATTERN_KEYWORDS, _AI_ROLE),
    TURN_PATTERNS_V4: (TURN_PATTERN_KEYWORDS_V4, _AI_OR_H_ROLE),
}
# Every match of freeform/v4's question pattern holds one of these, lowercased: a region
# without any needs no question search (tests/parsers/test_freeform.py checks it).
_QUESTION_KEYWORDS: dict[tuple[str, ...], tuple[str, ...]] = {
    QUESTION_PATTERNS_V4: ("q", *QUESTION_WORDS_V4)
}
# Question patterns whose matches open a line or follow a sentence and end on their line: once
# the text before one restates the question, the text before every later one does (see `_cut`).
_MONOTONE_QUESTIONS = (QUESTION_PATTERNS, QUESTION_PATTERNS_V4)
# The openers `text.regions.reasoning_bounds` knows, at the start of a reasoning trace.
_OPENING_TAG = re.compile(r"<\s*(?:think|reasoning|thought)\s*>|<\|begin_of_thought\|>", re.I)
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
    """The second free-form engine (``freeform/v3``, ``v4``): regex turn markers, every
    reasoning delimiter, restated questions, wrappers. `FreeformPreset` stays the engine of v1
    and v2.

    strip -> [``unclosed-think``: a reasoning block never closed has no answer; with
    ``read_open_reasoning``, ``reasoning-trace``: the trace is read as the answer] -> text
    after the last closing delimiter (`REASONING_CLOSERS`) -> [``opens-with-turn``: a region
    that opens with an ``opening_turns`` match has no answer] -> cut at the earliest
    ``cut_patterns`` match (regexes, multiline) or ``question_patterns`` match whose preceding
    text does not say it restates the question -> [``unwrap``: drop markdown/LaTeX wrapped
    around the whole answer]. Rules: ``empty``, ``unclosed-think``, ``reasoning-trace``,
    ``opens-with-turn``, ``whole-text``, ``after-think``, ``truncated-at-marker``,
    ``first-line-fallback``.
    """

    name: str
    cut_patterns: tuple[str, ...]
    question_patterns: tuple[str, ...] = ()
    unwrap: bool = True
    family: str = "freeform"
    user_patterns: bool = False  # from a preset file: run patterns with a time limit
    read_open_reasoning: bool = False
    """A reasoning block opened and never closed is the answer (a free-form reader judges
    whether the trace asserts the truth and never takes it back), not an empty one."""
    opening_turns: tuple[str, ...] = ()
    """Regexes (anchored at the region's start) of an invented turn of the asker: an output
    that opens with one has no answer of its own."""

    def extract(self, text: str) -> Extraction:
        return budgeted(lambda: self._extract(text), timed=self.user_patterns)

    def _extract(self, text: str) -> Extraction:
        start, end = stripped_bounds(text, 0, len(text))
        rule = "whole-text"
        cut, unclosed = reasoning_bounds(text[start:end])
        if unclosed and not self.read_open_reasoning:
            return Extraction("", "unclosed-think", None)
        if unclosed:
            start, end = stripped_bounds(text, start + cut, end)
            opener = _OPENING_TAG.match(text, start, end)
            start, end = stripped_bounds(text, opener.end() if opener else start, end)
            rule = "reasoning-trace"
        elif cut:
            start, end = stripped_bounds(text, start + cut, end)
            rule = "after-think"
        if start >= end:
            return Extraction("", "empty", None)
        if self.opening_turns and _opens_with(text, start, end, self.opening_turns):
            return Extraction("", "opens-with-turn", None)
        start, end, cut_rule = self._cut(text, start, end)
        if self.unwrap:
            start, end = _unwrap(text, start, end)
        return Extraction(text[start:end], cut_rule or rule, (start, end))

    def _cut(self, text: str, start: int, end: int) -> tuple[int, int, str | None]:
        cuts, questions = _compiled(self.cut_patterns, self.question_patterns, self.user_patterns)
        region = text[start:end]
        pos = None
        gate = _CUT_KEYWORDS.get(self.cut_patterns)  # None for any other set of patterns
        if gate is None or _may_hold(region, *gate):
            pos = min(
                (
                    m.start()
                    for p in cuts
                    # a pattern whose required strings are all absent has no match (exact)
                    if may_match(_needs(p), region) and (m := _first_after_start(p, region))
                ),
                default=None,
            )
        # With the built-in question pattern (matches open a line and end on it), the text
        # before a later match only grows by what follows: once it restates the question, so
        # does every later one, and the search can stop there (linear, not quadratic).
        stop_when_restated = (
            self.question_patterns in _MONOTONE_QUESTIONS and not self.user_patterns
        )
        asks = _QUESTION_KEYWORDS.get(self.question_patterns)  # None: no such gate
        if asks is not None and not _holds_keyword(region, asks):
            questions = ()  # no question pattern can match
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
        steps = ["strip surrounding whitespace"]
        if self.read_open_reasoning:
            steps.append(
                "`reasoning-trace`: a reasoning block opened and never closed: the trace after "
                "its opener is the answer (read for a value it asserts and never takes back)"
            )
        else:
            steps.append(
                "`unclosed-think`: a reasoning block opened and never closed: empty answer"
            )
        steps.append(
            f"`after-think`: keep the text after the last closing delimiter ({closers}), strip"
        )
        if self.opening_turns:
            shown = " ; ".join(f"`{p}`" for p in self.opening_turns)
            steps.append(
                f"`opens-with-turn`: an output that opens with the asker's turn ({shown}) "
                "has no answer of its own"
            )
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


def _may_hold(region: str, keywords: tuple[str, ...], short_roles: re.Pattern[str]) -> bool:
    """False only when no cut pattern can match: none of ``keywords`` is in the lowercased
    region and no line starts with a ``short_roles`` role (``AI``, ``H``: markers too short to
    be keywords)."""
    return _holds_keyword(region, keywords) or short_roles.search(region) is not None


def _holds_keyword(region: str, keywords: tuple[str, ...]) -> bool:
    """One of the lowercase ``keywords`` is in the region, lowercased as `re`'s IGNORECASE
    matches it (so a keyword gate never misses a case-insensitive pattern's match)."""
    folded = region  # the table changes nothing without its characters: skip its pass then
    if not region.isascii() and any(c in region for c in _CASELESS_EXTRA_CHARS):
        folded = region.translate(_RE_CASELESS_EXTRAS)
    lowered = folded.lower()
    ascii_keywords, other_keywords = _by_script(keywords)
    if any(k in lowered for k in ascii_keywords):
        return True
    # an ASCII text holds no non-ASCII keyword (str.isascii is a flag lookup)
    return not lowered.isascii() and any(k in lowered for k in other_keywords)


@lru_cache(maxsize=16)
def _by_script(keywords: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return tuple(k for k in keywords if k.isascii()), tuple(k for k in keywords if not k.isascii())


# The only characters `re`'s IGNORECASE matches to an ASCII letter whose `lower()` is not that
# letter: İ and ı match "i", ſ matches "s" (the Kelvin sign lowercases to "k" already).
_CASELESS_EXTRA_CHARS = "\u0130\u0131\u017f"
_RE_CASELESS_EXTRAS = str.maketrans(dict(zip(_CASELESS_EXTRA_CHARS, "iis", strict=True)))


# The strings one of which every match of a built-in pattern holds (None: unknown, always run).
_needs = lru_cache(maxsize=256)(needed_strings)


def _opens_with(text: str, start: int, end: int, patterns: tuple[str, ...]) -> bool:
    # on the region itself: `^` matches where it starts, whatever precedes it in the text
    region = text[start:end]
    return any(p.match(region) for p in _compiled(patterns, ())[0])


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
