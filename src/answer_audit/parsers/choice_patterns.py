"""The compiled patterns of a ``statements`` or ``option-text`` choice step (`StepRegexes`).

A step's own patterns and cue lists (negations, examples, invented next questions) are compiled
once per choice set, together with the fixed checks every statement goes through: a choice named
as one of alternatives ("B or C"), a line that is one choice alone (``**B**``), a first line led
by one (``B) 1648``) and a line that lists an option (``(a) ...``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from answer_audit.parsers.choice_step import ChoiceStep
from answer_audit.text.prefilters import may_match, needed_strings

# The step kinds whose patterns are compiled here (the others are plain regex lists).
KINDS = ("statements", "option-text")

# Characters that wrap a choice on a line of its own: markdown, brackets, quotes, LaTeX.
# Possessive: a choice cannot follow any shorter reading of them (a letter they hold is inside
# an option word, followed by more letters), and trying every way to split the spaces between
# the marks and `option\s*` was exponential ("option option ... x" on one line). The same
# matches as without (tests/parsers/test_choice.py compares).
_OPEN = (
    r"(?:[\s*_#>\-]|\\boxed\{|\\text(?:bf)?\{|\\mathrm\{|\$|[(\[（【「『\"'“‘]"
    r"|(?:option|choice|選択肢|选项)\s*)*+"
)
_CLOSE = r"(?:[\s*_]|\}|\$|[)\]）】」』\"'”’.。:：!])*"
# Between two choices named as alternatives ("B or C", "aかb", "A、B").
_BETWEEN_ALTERNATIVES = (
    r"(?:\s*(?:/|,|、|・|か|或|或者|和|及び|および|または|と|や)\s*"
    r"|\s+(?:or|and|oder|und|ou|et|o|y|e|atau|dan|au|na|و|या|বা|및|또는)\s+)"
)
_ENUMERATED_LINE = r"^[(\[（]?([{L}])[)\]）.:：]\s*\S"


@dataclass(frozen=True)
class StepRegexes:
    """A ``statements`` / ``option-text`` step compiled for one choice set."""

    patterns: tuple[re.Pattern[str], ...]
    negation: re.Pattern[str] | None
    ignore: re.Pattern[str] | None
    stop: re.Pattern[str] | None
    after_alternative: re.Pattern[str]
    before_alternative: re.Pattern[str]
    bare_line: re.Pattern[str]
    lead_line: re.Pattern[str]
    enumerated_line: re.Pattern[str]
    # Per cue pattern, strings one of which its every match holds (`first_chars.needed_strings`;
    # None when unknown, e.g. a preset file's timed pattern).
    needs: Mapping[str, frozenset[str] | None] = field(default_factory=dict, compare=False)
    pattern_needs: tuple[frozenset[str] | None, ...] = ()  # the same for each of `patterns`
    _variants: dict[tuple[str, ...], StepRegexes] = field(
        default_factory=dict, compare=False, repr=False
    )

    def for_text(self, norm: str) -> StepRegexes:
        """These regexes for one text, without the cue patterns that have no match anywhere in
        it (it holds none of the strings they need): the same statements, fewer searches."""
        idle = tuple(
            name
            for name in _CUES
            if getattr(self, name) is not None and not may_match(self.needs.get(name), norm)
        )
        if not idle:
            return self
        if idle not in self._variants:
            off: dict[str, Any] = dict.fromkeys(idle)
            self._variants[idle] = replace(self, _variants={}, **off)
        return self._variants[idle]


_CUES = ("negation", "ignore", "stop")


NEGATION_TEMPLATE = r"[\s\"'”’」』)\]）】*_$}}]*(?:{})"  # right after the choice
STOP_TEMPLATE = r"^[ \t*#>]*(?:{})"  # a line that starts a new question


def cue_source(template: str, parts: Sequence[str]) -> str:
    """The multiline pattern of a list of cue patterns inside ``template``."""
    return "(?m)" + template.format("|".join(f"(?:{p})" for p in parts))


def _either(
    parts: Sequence[str],
    expand: Callable[[str], re.Pattern[str]],
    template: str = "{}",
    *,
    separate: bool = False,
) -> re.Pattern[str] | None:
    """One multiline pattern for a list of cue patterns, compiled by ``expand`` (so a preset
    file's cues get ``{L}``/``{D}`` filled and run with the time limit, like its patterns).
    ``separate`` (a preset file's cues): each compiled alone, so its groups, back-references
    and inline flags stay its own (`_AnyOf`)."""
    if not parts:
        return None
    if separate:
        return _AnyOf(tuple(expand(cue_source(template, [p])) for p in parts))  # type: ignore[return-value]
    return expand(cue_source(template, parts))


class _AnyOf:
    """Patterns tried as one alternation of them: ``search`` finds the match that starts first
    (the earlier pattern on a tie), ``match`` the first pattern that matches at ``pos``."""

    def __init__(self, patterns: Sequence[re.Pattern[str]]) -> None:
        self.patterns = tuple(patterns)

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> re.Match[str] | None:
        end = len(text) if endpos is None else endpos
        best: re.Match[str] | None = None
        for pattern in self.patterns:
            m = pattern.search(text, pos, end)
            if m is not None and (best is None or m.start() < best.start()):
                best = m
        return best

    def match(self, text: str, pos: int = 0, endpos: int | None = None) -> re.Match[str] | None:
        end = len(text) if endpos is None else endpos
        for pattern in self.patterns:
            if (m := pattern.match(text, pos, end)) is not None:
                return m
        return None


def compile_step(
    step: ChoiceStep, expand: Callable[[str], re.Pattern[str]], *, user: bool = False
) -> StepRegexes:
    """Compile a step's patterns once per choice set (``expand`` fills ``{L}`` and ``{D}``;
    ``user``: the step comes from a preset file)."""
    token = r"[{L}{D}]"
    negation = _either(step.negations, expand, NEGATION_TEMPLATE, separate=user)
    ignore = _either(step.ignore, expand, separate=user)
    stop = _either(step.stops, expand, STOP_TEMPLATE, separate=user)
    patterns = tuple(expand(p) for p in step.patterns)
    return StepRegexes(
        patterns=patterns,
        negation=negation,
        ignore=ignore,
        stop=stop,
        # only whether it matches is read: the link is taken whole (atomic), since _OPEN reads
        # any spaces it would give back; splitting a long run of spaces was quadratic
        after_alternative=expand(
            rf"[\"'”’」』)\]）】*_$}}]*(?>{_BETWEEN_ALTERNATIVES}){_OPEN}{token}(?![0-9a-z])"
        ),
        before_alternative=expand(
            rf"(?<![0-9a-z]){token}[)）]?{_BETWEEN_ALTERNATIVES}(?:option\s*|選択肢|选项)?[(（]?$"
        ),
        bare_line=expand(rf"{_OPEN}({token}){_CLOSE}(?:です|でした|だ)?[。.]?"),
        lead_line=expand(r"(?:[*_]|[(\[（【])*([{L}])(?:[*_]|[)\]）】])*\s*[).:：]\s*\S"),
        enumerated_line=expand(_ENUMERATED_LINE),
        needs={
            "negation": needed_strings(negation),
            "ignore": needed_strings(ignore),
            "stop": needed_strings(stop),
        },
        pattern_needs=tuple(map(needed_strings, patterns)),
    )
