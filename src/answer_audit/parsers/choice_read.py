"""Reading answer statements: the ``statements`` and ``option-text`` step kinds of the choice engine.

A *statement* is a place where the output gives one choice: a pattern match (``Answer: B``,
``正解は b``, ``D is correct``), or with ``bare`` a line that is one choice alone (``**B**``) or a
first line led by one (``B) 1648``). Negated, example and alternative ("B or C") statements are
dropped, and so is everything after an invented next question. Then the final statement wins,
with two exceptions that mean "no answer": the statements end in a cycle through the options
(``a b c d a b c d ...``), or they end by enumerating every option once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from answer_audit.text.prefilters import may_match, needed_strings

if TYPE_CHECKING:
    from answer_audit.parsers.choice import ChoiceStep

KINDS = ("statements", "option-text")
Lines = list[tuple[int, str]]

# Characters that wrap a choice on a line of its own: markdown, brackets, quotes, LaTeX.
# Possessive: a choice cannot follow any shorter reading of them (a letter they hold is inside
# an option word, followed by more letters), and trying every way to split the spaces between
# the marks and `option\s*` was exponential ("option option ... x" on one line). The same
# matches as without (tests/test_choice_v4.py compares).
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
class NoAnswer:
    """A step's decision that the output gives no answer (rule says why); stops the steps."""

    rule: str
    span: tuple[int, int] | None = None


Found = tuple[int, int, str, str]  # start, end, token, rule
Decision = Found | tuple[int, int, str] | NoAnswer | None


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


class _Statement(NamedTuple):  # a tuple: a long repetitive output makes tens of thousands
    start: int
    end: int
    token: str
    rule: str
    # A pattern's statement: its whole match, read (only if a cycle makes it matter) for
    # whether its line says more than a label and the choice (`_says_more`).
    said: tuple[int, int] | None = None


def run_step(
    step: ChoiceStep,
    rx: StepRegexes,
    norm: str,
    lines: Lines,
    letters: str,
    options: Sequence[str] | Mapping[str, str] | None,
) -> Decision:
    """Run one ``statements`` or ``option-text`` step on the normalized (masked) text."""
    if step.kind == "option-text":
        return _option_text(rx, norm, lines, letters, options)
    found = _statements(step, rx.for_text(norm), norm, lines)
    return _decide(found, len(letters), norm)


# ------------------------------------------------------------------ statements


def _statements(step: ChoiceStep, rx: StepRegexes, norm: str, lines: Lines) -> list[_Statement]:
    found: dict[int, _Statement] = {}
    for pattern, needs in zip(rx.patterns, rx.pattern_needs, strict=True):
        if not may_match(needs, norm):
            continue  # no match anywhere in this text
        g = 1 if pattern.groups else 0
        for m in pattern.finditer(norm):
            start, end = m.span(g)
            if start < 0:
                continue  # the group took no part (a preset file's alternative groups)
            if start not in found and _counts(rx, norm, start, end):
                found[start] = _Statement(start, end, m.group(g), step.rule, m.span())
    if step.bare:
        for i, (offset, line) in enumerate(lines):
            bare = rx.bare_line.fullmatch(line)
            if bare is not None and _not_example(rx, norm, offset + bare.start(1)):
                s = offset + bare.start(1)
                found.setdefault(s, _Statement(s, s + 1, bare.group(1), "bare-line"))
            elif i == 0 and (lead := _lead_line(rx, lines)) is not None:
                s = offset + lead.start(1)
                found.setdefault(s, _Statement(s, s + 1, lead.group(1), "lead-line"))
    ordered = [found[k] for k in sorted(found)]
    if ordered and rx.stop is not None:
        stop = rx.stop.search(norm, ordered[0].end)
        if stop is not None:
            ordered = [s for s in ordered if s.start < stop.start()]
    return ordered


def _lead_line(rx: StepRegexes, lines: Lines) -> re.Match[str] | None:
    """A first line led by a choice ("B) 1648"), unless other lines list options the same way."""
    lead = rx.lead_line.match(lines[0][1])
    if lead is None or sum(rx.enumerated_line.match(x) is not None for _, x in lines) > 1:
        return None
    return lead


def _counts(rx: StepRegexes, norm: str, start: int, end: int) -> bool:
    """A pattern's token is a statement unless negated, one of alternatives, or an example."""
    if norm[start:end] == "a" and _is_article(norm, end):
        return False
    if rx.negation is not None and rx.negation.match(norm, end):
        return False
    if rx.after_alternative.match(norm, end):
        return False
    if _may_end_alternatives(rx, norm[end - 1]) and rx.before_alternative.search(
        norm, max(0, start - 24), end
    ):
        return False
    return _not_example(rx, norm, start)


# `before_alternative` ends with `$` at the statement's end, so a match's last character is the
# one before that end: the end of `_BETWEEN_ALTERNATIVES` (a space, or one of its joiners), of
# option/選択肢/选项, or an opening bracket. A statement that ends in its choice letter (every
# built-in pattern's) therefore never matches, and its search over the window is skipped.
_ALTERNATIVES_LAST = frozenset("/,、・か或者和びはとやn肢项(（")


def _may_end_alternatives(rx: StepRegexes, last: str) -> bool:
    """False only when ``before_alternative`` cannot match ending after ``last`` (for `re`
    patterns: `\\s` is `str.isspace`; a preset file's `regex` pattern is always searched)."""
    return (
        last in _ALTERNATIVES_LAST
        or last.isspace()
        or type(rx.before_alternative) is not re.Pattern
    )


_REASON_MIN_CHARS = 4
# Matches at the start of a text exactly when it holds at least _REASON_MIN_CHARS word
# characters (stops at the fourth instead of listing them all; \W and \w never overlap).
_ENOUGH_WORDS = re.compile(rf"(?:\W*\w){{{_REASON_MIN_CHARS}}}")


def _says_more(norm: str, start: int, end: int) -> bool:
    """Whether the statement's line holds other words than the statement (a reason, a
    conclusion), unlike a bare label line such as ``回答（1文字のみ）: a``."""
    window = _EXAMPLE_LOOKBACK  # bounded both ways, so long lines stay linear
    line_start = norm.rfind("\n", max(0, start - window), start) + 1 or max(0, start - window)
    line_end = norm.find("\n", end, end + window)
    rest = norm[line_start:start] + norm[end : end + window if line_end < 0 else line_end]
    return _ENOUGH_WORDS.match(rest) is not None


_ARTICLE_FOLLOWER = re.compile(r"[ \t]+([a-z][a-z'’-]+)")
_NOT_AFTER_ARTICLE = frozenset({"because", "since", "as", "is", "was", "and", "or", "but"})


def _is_article(norm: str, end: int) -> bool:
    """English "a" followed by a word ("the answer is a trick question") is not option a."""
    m = _ARTICLE_FOLLOWER.match(norm, end)
    return m is not None and m.group(1) not in _NOT_AFTER_ARTICLE


_EXAMPLE_LOOKBACK = 120  # characters: an example cue is close; bounded so long lines stay linear


def _not_example(rx: StepRegexes, norm: str, start: int) -> bool:
    if rx.ignore is None:
        return True
    line_start = max(
        norm.rfind("\n", max(0, start - _EXAMPLE_LOOKBACK), start) + 1, start - _EXAMPLE_LOOKBACK, 0
    )
    return rx.ignore.search(norm, line_start, start) is None


# ------------------------------------------------------------------- decisions

_MIN_CYCLE_STATEMENTS = 6


def _decide(found: list[_Statement], n_choices: int, norm: str) -> Decision:
    """The final statement, unless the statements end in a cycle or an enumeration.

    In a cycle, labelled lines (``回答: a``) are part of the cycle like bare letters; only a
    reasoned statement (one whose line says more) can still be the answer, and only when the
    reasoned statements inside the cycle agree.
    """
    if not found:
        return None
    tokens = [s.token for s in found]
    cycle_start = _cycle_start(tokens)
    if cycle_start is not None:
        cycle_span = (found[cycle_start].start, found[-1].end)
        reasoned = [s for s in found if s.said is not None and _says_more(norm, *s.said)]
        inside = {s.token for s in reasoned if s.start >= found[cycle_start].start}
        if len(inside) > 1 or not reasoned:
            return NoAnswer("cycle-no-answer", cycle_span)
        last = reasoned[-1]
        return last.start, last.end, last.token, "answer-before-cycle"
    tail = _distinct_tail(tokens)
    if n_choices >= 3 and len(tail) >= n_choices:
        found = found[: len(found) - len(tail)]
        if not found:
            return NoAnswer("enumeration-no-answer")
    last = found[-1]
    return last.start, last.end, last.token, last.rule


def _cycle_start(tokens: list[str]) -> int | None:
    """Start of the longest tail that repeats a period of 2+ different tokens, if any."""
    best: int | None = None
    n = len(tokens)
    # The final token's trailing run: inside it every period repeats, and a tail holds two
    # different tokens exactly when it reaches past it (a long "b b b ..." costs one pass).
    same = n - next((i for i in range(n - 2, -1, -1) if tokens[i] != tokens[-1]), -1) - 1
    for period in range(2, 9):
        if n < max(2 * period, _MIN_CYCLE_STATEMENTS):
            break
        i = min(n - period - 1, n - same - 1)
        while i >= 0 and tokens[i] == tokens[i + period]:
            i -= 1
        start = i + 1
        if n - start >= max(2 * period, _MIN_CYCLE_STATEMENTS) and n - start > same:
            best = start if best is None else min(best, start)
    return best


def _distinct_tail(tokens: list[str]) -> list[str]:
    seen: list[str] = []
    for t in reversed(tokens):
        if t in seen:
            break
        seen.append(t)
    return seen


# ------------------------------------------------------------------ option text


def _option_text(
    rx: StepRegexes,
    norm: str,
    lines: Lines,
    letters: str,
    options: Sequence[str] | Mapping[str, str] | None,
) -> Decision:
    table = _option_table(options, letters)
    if not any(key in norm for key, _ in table):
        return None  # no option text anywhere: no region can hold one (skip the trigger scans)
    regions: list[tuple[int, int]] = []
    # text after the last trigger, to the end of its line
    for pattern, needs in zip(rx.patterns, rx.pattern_needs, strict=True):
        if not may_match(needs, norm):
            continue  # no trigger of this pattern anywhere in the text
        last = None
        for found in pattern.finditer(norm):
            last = found
        if last is not None:
            end = norm.find("\n", last.end())
            regions.append((last.end(), len(norm) if end < 0 else end))
    if len(lines) <= 2:
        regions.append((0, len(norm)))
    for start, end in regions:
        hits = _option_hits(norm, start, end, table, one_letter=True)
        if len({hit[2] for hit in hits}) == 1:
            s, e, letter, _ = hits[-1]
            negated = rx.negation is not None and rx.negation.match(norm, e) is not None
            if not negated and _NEGATED_BEFORE.search(norm, start, s) is None:
                return s, e, letter, "option-text"
    return None


_NEGATED_BEFORE = re.compile(r"\b(?:not|never|neither|nor)\b|n't\b|不是|ではな|じゃな|아니")


def _option_table(
    options: Sequence[str] | Mapping[str, str] | None, letters: str
) -> list[tuple[str, str]]:
    """(normalized option text, letter), longest text first."""
    import unicodedata

    if options is None:
        return []
    pairs = options.items() if isinstance(options, Mapping) else zip(letters, options, strict=False)
    table = []
    for letter, text in pairs:
        key = unicodedata.normalize("NFKC", text).lower().strip()
        if key and len(letter) == 1 and letter.lower() in letters:  # one choice letter
            table.append((key, letter.lower()))
    return sorted(table, key=lambda kv: -len(kv[0]))


def _option_hits(
    norm: str, start: int, end: int, table: list[tuple[str, str]], *, one_letter: bool = False
) -> list[Found]:
    """Whole-word occurrences of the options' texts in ``norm[start:end]``, longest text first:
    an occurrence overlapping one already taken is dropped. Each text's occurrences come in
    order, so the overlap check walks the taken ones once per text (linear in the hits).
    ``one_letter``: the caller only uses the hits when they name one letter, so stop (with an
    incomplete list) once two letters are taken: taken occurrences are never dropped."""
    taken: list[tuple[int, int, str]] = []  # sorted, non-overlapping
    for key, letter in table:
        mine: list[tuple[int, int, str]] = []
        j = 0  # first taken occurrence that ends after the candidate's start
        # an ASCII letter or digit at an end of the text must not touch another one there
        word_start = key[0].isalnum() and key[0].isascii()
        word_end = key[-1].isalnum() and key[-1].isascii()
        size = len(key)
        pos = norm.find(key, start, end)
        while pos >= 0:
            stop = pos + size
            if not (
                (word_start and pos > 0 and norm[pos - 1].isalnum())
                or (word_end and stop < len(norm) and norm[stop].isalnum())
            ):
                while j < len(taken) and taken[j][1] <= pos:
                    j += 1
                free = (j == len(taken) or taken[j][0] >= stop) and (not mine or mine[-1][1] <= pos)
                if free:
                    mine.append((pos, stop, letter))
                    if one_letter and taken and taken[0][2] != letter:
                        break  # a second letter is taken: no single answer
            pos = norm.find(key, pos + 1, end)
        taken = sorted(taken + mine)  # two sorted runs: a linear merge
        if one_letter and len({hit[2] for hit in taken}) > 1:
            break
    return [(s, e, letter, "option-text") for s, e, letter in taken]


# ---------------------------------------------------------------------- describe


def describe_step(step: ChoiceStep) -> str:
    """One line for `ChoicePreset.describe`."""
    if step.kind == "option-text":
        return (
            f"`{step.rule}`: the options' texts (when given; longest first, whole words): exactly "
            "one of them after the last answer trigger, else in a one- or two-line answer"
        )
    lines = (
        ", lines that are one choice alone (`bare-line`) and a first line led by one "
        "(`lead-line`, unless other lines list options the same way)"
        if step.bare
        else ""
    )
    return (
        f"`{step.rule}`: every answer statement ({len(step.patterns)} patterns){lines}, minus "
        f"negated ones ({len(step.negations)} cue patterns right after the choice), examples "
        f"({len(step.ignore)} cue patterns earlier on the line), 'x or y' ones and those after "
        f"an invented next question ({len(step.stops)} marker patterns); the final statement "
        "wins. `cycle-no-answer`: the statements end in a cycle through the options (a period "
        "of 2+ different choices, repeated); then only a reasoned statement (its line says more "
        "than a label and the choice) can answer (`answer-before-cycle`), if those in the cycle "
        "agree. `enumeration-no-answer`: they end by naming every option once"
    )
