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
from answer_audit.text.prefilters import least_width, may_match, needed_strings

# The step kinds whose patterns are compiled here (the others are plain regex lists).
STEP_KINDS = ("statements", "option-text")

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
# The spaces before the link are taken whole (possessive: no link starts with a space), so a
# choice before a long blank run (a masked middle) fails at once instead of backtracking over it.
_BETWEEN_ALTERNATIVES = (
    r"(?:\s*+(?:/|,|、|・|か|或|或者|和|及び|および|または|と|や)\s*"
    r"|\s++(?:or|and|oder|und|ou|et|o|y|e|atau|dan|au|na|و|या|বা|및|또는)\s+)"
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
    # choice/v5 (`compile_script_step`): where a clause starts (an example cue reaches back to
    # it, not to the line start), conditional cues ("if ... would be A"), and doubts after the
    # final statement ("or maybe D?"); None for older presets.
    clause: re.Pattern[str] | None = None
    conditional: re.Pattern[str] | None = None
    doubt: re.Pattern[str] | None = None
    needs: Mapping[str, frozenset[str] | None] = field(default_factory=dict, compare=False)
    pattern_needs: tuple[frozenset[str] | None, ...] = ()  # the same for each of `patterns`
    _variants: dict[tuple[str, ...], StepRegexes] = field(
        default_factory=dict, compare=False, repr=False
    )
    # choice/v5: whether each of `patterns` can match an ASCII text (one written for other
    # scripts cannot), the patterns read only on lines that end in a choice (`line_final`), and
    # the characters that are choice tokens
    pattern_ascii: tuple[bool, ...] = ()
    line_final: tuple[re.Pattern[str], ...] = ()
    # the fewest characters each of `line_final` matches (0: unknown): a shorter line is skipped
    line_final_least: tuple[int, ...] = ()
    token_chars: frozenset[str] = frozenset()
    # choice/v7 (`ChoiceStep.verdict_lines`, `ChoiceStep.not_article`): None for older presets
    verdict_line: re.Pattern[str] | None = None
    not_article: re.Pattern[str] | None = None
    # choice/v8 (`ChoiceStep.table_answers`, `ChoiceStep.undecided`): None for older presets
    table_header: re.Pattern[str] | None = None
    undecided: re.Pattern[str] | None = None

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


_CUES = ("negation", "ignore", "stop", "conditional", "doubt", "undecided")


NEGATION_TEMPLATE = r"[\s\"'”’」』)\]）】*_$}}]*(?:{})"  # right after the choice
STOP_TEMPLATE = r"^[ \t*#>]*(?:{})"  # a line that starts a new question
# choice/v5: the run of spaces and closing marks is taken whole (possessive) and its cues start
# after it; the template above, with a cue that opens with spaces, tries every split of a long
# run of spaces (quadratic: a blanked answer region is one).
SCRIPT_NEGATION_TEMPLATE = r"[\s\"'”’」』)\]）】*_$}}]*+(?:{})"
SCRIPT_STOP_TEMPLATE = r"^[ \t*#>]*+(?:{})"  # the same, possessive: a line of spaces is no trap


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


# ---------------------------------------------------------------- choice/v5 (any script)

# As _OPEN, with the words that name an option in more languages ("Letter A", "الخيار ج").
_SCRIPT_OPEN = (
    r"(?:[\s*_#>\-]|\\boxed\{|\\text(?:bf)?\{|\\mathrm\{|\$|[(\[（【「『\"'“‘]"
    r"|(?:option|choice|letter|alternative|alternativa|letra|選択肢|选项|الخيار|विकल्प|বিকল্প)\s*)*+"
)
# A sentence end, or a comma before a conclusion ("..., so the answer is D"): an example cue
# before it does not reach a statement after it. "e.g." and "i.e." end no sentence.
CLAUSE_END = (
    r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)[.!?;](?=\s)|[。！？；，]|\n"
    r"|[,;](?=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])"  # NFKC made "，" a ","
    r"|,\s*(?=(?:so|but|thus|hence|therefore|which|while|whereas|yet|and so|then)\b)"
    r"|\s[—–]\s|所以|因此|因而|故|但是|但"
)


def compile_script_step(
    step: ChoiceStep, expand: Callable[[str], re.Pattern[str]], *, user: bool = False
) -> StepRegexes:
    """A ``statements`` / ``option-text`` step of a ``scripts`` preset (``choice/v5``): tokens
    in any script (``{K}`` the token characters, ``{W}`` what they must not touch, ``{A}`` the
    letters without digits), examples reaching back to the clause start, conditionals and
    doubts. ``{TRIGGER}`` in a pattern stands for the step's ``triggers``: the pattern is built
    twice, once with those a text in Latin script can hold and once with the others (skipped on
    ASCII texts), so that `re` tries a few dozen words at each position, not every language's.
    ``user``: the step comes from a preset file (each cue compiled alone, as `compile_step`)."""
    return _compile_script_step(step, expand, user)


def _with_triggers(
    patterns: Sequence[str], triggers: Sequence[str], expand: Callable[[str], re.Pattern[str]]
) -> tuple[tuple[re.Pattern[str], bool], ...]:
    latin = [t for t in triggers if t.isascii()]
    other = [t for t in triggers if not t.isascii()]
    out: list[tuple[re.Pattern[str], bool]] = []
    for p in patterns:
        if "{TRIGGER}" not in p:
            out.append((expand(p), True))
            continue
        for group, ascii_ok in ((latin, True), (other, False)):
            if group:
                out.append((expand(p.replace("{TRIGGER}", word_alternation(group))), ascii_ok))
    return tuple(out)


def _compile_script_step(
    step: ChoiceStep, expand: Callable[[str], re.Pattern[str]], user: bool
) -> StepRegexes:
    token = r"[{K}]"
    negation = _either(step.negations, expand, SCRIPT_NEGATION_TEMPLATE, separate=user)
    ignore = _either(step.ignore, expand, separate=user)
    stop = _either(step.stops, expand, SCRIPT_STOP_TEMPLATE, separate=user)
    # (a preset file cannot set these: they are choice/v5's own, one pattern each way)
    conditional = _either(step.conditionals, expand)
    doubt = _either(step.doubts, expand)
    undecided = _either(step.undecided, expand)
    built = _with_triggers(step.patterns, step.triggers, expand)
    patterns = tuple(p for p, _ in built)
    line_final = tuple(p for p, _ in _with_triggers(step.line_final, step.triggers, expand))
    return StepRegexes(
        patterns=patterns,
        pattern_ascii=tuple(a for _, a in built),
        line_final=line_final,
        line_final_least=tuple(map(least_width, line_final)),
        negation=negation,
        ignore=ignore,
        stop=stop,
        after_alternative=expand(
            rf"[\"'”’」』)\]）】*_$}}]*(?>{_BETWEEN_ALTERNATIVES}){_SCRIPT_OPEN}{token}(?![{{W}}])"
        ),
        before_alternative=expand(
            rf"(?<![{{W}}]){token}[)）]?{_BETWEEN_ALTERNATIVES}(?:option\s*|選択肢|选项)?[(（]?$"
        ),
        bare_line=expand(rf"{_SCRIPT_OPEN}({token}){_CLOSE}(?:です|でした|だ)?[。.!！]?"),
        lead_line=expand(r"(?:[*_]|[(\[（【])*([{A}])(?:[*_]|[)\]）】])*\s*[).:：]\s*\S"),
        # Roman numerals count as listed too: a first line "I. ..." over "II. ..." is no answer
        enumerated_line=expand(r"^[(\[（]?(?:([{A}])|ii|iii|iv)[)\]）.:：]\s*\S"),
        clause=expand(CLAUSE_END),
        conditional=conditional,
        doubt=doubt,
        verdict_line=_either(step.verdict_lines, expand),
        not_article=_either(step.not_article, expand, r"[ \t]++(?:{})"),
        # (read with fullmatch on one header cell, its markup and spaces stripped)
        table_header=_either(step.table_answers, expand),
        undecided=undecided,
        needs={
            "negation": needed_strings(negation),
            "ignore": needed_strings(ignore),
            "stop": needed_strings(stop),
            "conditional": needed_strings(conditional),
            "doubt": needed_strings(doubt),
            "undecided": needed_strings(undecided),
        },
        pattern_needs=tuple(map(needed_strings, patterns)),
    )


def word_alternation(words: Sequence[str]) -> str:
    """A regex matching any of ``words`` (literal), written as a trie so that `re` tests one
    branch per character instead of one per word: the same matches as the words joined by
    ``|`` longest first (a word never loses to a prefix of it), at a fraction of the cost on
    text where most positions start no word.

    >>> word_alternation(["answer", "antwort", "an"])
    'an(?:swer|twort)?'
    """
    trie: dict[str, Any] = {}
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}
    return _trie_source(trie)


def _trie_source(node: dict[str, Any]) -> str:
    branches = [re.escape(ch) + _trie_source(child) for ch, child in sorted(node.items()) if ch]
    if not branches:
        return ""
    # longer words first: a trie branch always tries to read on before it stops at a word end
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    if "" not in node:
        return body
    if len(branches) == 1 and not body.startswith("(?:"):
        return f"(?:{body})?"
    return body + "?" if body.startswith("(?:") else f"(?:{body})?"
