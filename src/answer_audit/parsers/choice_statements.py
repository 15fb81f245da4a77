"""Reading answer statements: the ``statements`` step kind of the choice engine.

A *statement* is a place where the output gives one choice: a pattern match (``Answer: B``,
``正解は b``, ``D is correct``), or with ``bare`` a line that is one choice alone (``**B**``) or a
first line led by one (``B) 1648``). Negated, example and alternative ("B or C") statements are
dropped, and so is everything after an invented next question. Then the final statement wins,
with two exceptions that mean "no answer": the statements end in a cycle through the options
(``a b c d a b c d ...``), or they end by enumerating every option once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import NamedTuple

from answer_audit.parsers.choice_patterns import StepRegexes
from answer_audit.parsers.choice_step import ChoiceStep, Decision, Lines, NoAnswer
from answer_audit.text.prefilters import may_match


class _Statement(NamedTuple):  # a tuple: a long repetitive output makes tens of thousands
    start: int
    end: int
    token: str
    rule: str
    # A pattern's statement: its whole match, read (only if a cycle makes it matter) for
    # whether its line says more than a label and the choice (`_says_more`).
    said: tuple[int, int] | None = None


# A captured token -> the choice it names (None: no choice of this set); choice/v5 compares
# statements by choice, so "3", "c" and "the third option" are the same statement.
Canon = Callable[[str], str | None]


def read_statements(
    step: ChoiceStep,
    rx: StepRegexes,
    norm: str,
    lines: Lines,
    n_choices: int,
    canon: Canon | None = None,
) -> Decision:
    """Run one ``statements`` step on the normalized (masked) text: the final statement, no
    answer (a cycle, an enumeration, or with ``doubts`` a doubt after it), or None when the
    text makes no statement."""
    rx = rx if rx.pattern_ascii else rx.for_text(norm)  # choice/v5 reads cues locally anyway
    found = _statements(step, rx, norm, lines, canon)
    split = _split_verdicts(found) if rx.verdict_line is not None else None
    decision = split or _decide(found, n_choices, norm)
    if rx.doubt is not None and found and not isinstance(decision, NoAnswer) and decision:
        doubted = _doubted(rx.doubt, norm, found[-1], canon)
        if doubted is not None:
            return doubted
    return decision


def _doubted(doubt: re.Pattern[str], norm: str, last: _Statement, canon: Canon | None) -> Decision:
    """No answer when, after the final statement, the output doubts it by naming another
    choice ("The answer is B. Hmm, or maybe D?")."""
    for m in doubt.finditer(norm, last.end):
        token = m.group(1) if m.re.groups else m.group()
        other = canon(token) if canon is not None else token
        if other is not None and other != last.token:
            return NoAnswer("doubt-no-answer", (last.start, m.end()))
    return None


def _statements(
    step: ChoiceStep, rx: StepRegexes, norm: str, lines: Lines, canon: Canon | None = None
) -> list[_Statement]:
    found: dict[int, _Statement] = {}
    # choice/v7: where the second of two alternatives starts (dropped with the first)
    paired: set[int] | None = set() if step.pair_alternatives else None
    if rx.verdict_line is not None:  # first: a verdict line is read as one, whatever else matches
        _add_verdicts(rx, norm, found, canon)
    ascii_text = bool(rx.pattern_ascii) and norm.isascii()
    for i, (pattern, needs) in enumerate(zip(rx.patterns, rx.pattern_needs, strict=True)):
        if ascii_text and not rx.pattern_ascii[i]:
            continue  # written for other scripts: no match in an ASCII text
        if not may_match(_few(rx, needs), norm):
            continue  # no match anywhere in this text
        _add_matches(step, rx, norm, pattern.finditer(norm), found, canon, paired)
    for offset, line in _line_final_lines(rx, lines):
        for pattern in rx.line_final:
            matches = pattern.finditer(norm, offset, offset + len(line))
            _add_matches(step, rx, norm, matches, found, canon, paired)
    if step.bare:
        for i, (offset, line) in enumerate(lines):
            bare = rx.bare_line.fullmatch(line)
            if bare is not None and _not_example(rx, norm, offset + bare.start(1)):
                s = offset + bare.start(1)
                token = bare.group(1) if canon is None else canon(bare.group(1))
                if token is not None:
                    found.setdefault(s, _Statement(s, s + 1, token, "bare-line"))
            elif i == 0 and (lead := _lead_line(rx, lines)) is not None:
                s = offset + lead.start(1)
                token = lead.group(1) if canon is None else canon(lead.group(1))
                if token is not None:
                    found.setdefault(s, _Statement(s, s + 1, token, "lead-line"))
    ordered = [found[k] for k in sorted(found) if not paired or k not in paired]
    if ordered and rx.stop is not None:
        stop = rx.stop.search(norm, ordered[0].end)
        if stop is not None:
            ordered = [s for s in ordered if s.start < stop.start()]
    return ordered


# choice/v5 checks a pattern's needed strings only when they are few: each is a scan of the
# text, and past a handful they cost more than the (guarded) search they would skip.
_MAX_NEEDS = 8


def _few(rx: StepRegexes, needs: frozenset[str] | None) -> frozenset[str] | None:
    if rx.pattern_ascii and needs is not None and len(needs) > _MAX_NEEDS:
        return None
    return needs


def _add_matches(
    step: ChoiceStep,
    rx: StepRegexes,
    norm: str,
    matches: Iterator[re.Match[str]],
    found: dict[int, _Statement],
    canon: Canon | None,
    paired: set[int] | None = None,
) -> None:
    """The statements among a pattern's matches (keyed by where their token starts); with
    ``paired``, also where the second of two alternatives starts."""
    for m in matches:
        g = 1 if m.re.groups else 0
        start, end = m.span(g)
        if start < 0:
            continue  # the group took no part (a preset file's alternative groups)
        token = m.group(g) if canon is None else canon(m.group(g))
        if token is None or start in found:
            continue
        if paired is not None and (other := rx.after_alternative.match(norm, end)) is not None:
            paired.add(other.end() - 1)  # its token: one character, the pattern's last
            continue  # (one of alternatives: no statement, as `_counts` would say)
        if not _counts(rx, norm, start, end, paired is not None):
            continue
        if rx.conditional is not None and _conditional(rx, norm, m.start(), start, end):
            continue
        found[start] = _Statement(start, end, token, step.rule, m.span())


# What may follow the choice of a line-final statement: closing marks, quotes and spaces.
_LINE_CLOSERS = " \t)）]】*_\"'”’$}.。!！"
_OPTION_NOUNS = ("option", "choice", "alternative", "one", "answer")


def _line_final_lines(rx: StepRegexes, lines: Lines) -> Iterator[tuple[int, str]]:
    """The lines where a ``line_final`` pattern can match: those that end in a choice token
    (or an ordinal's noun: "so the last option.") before their closing marks."""
    if not rx.line_final:
        return
    for offset, line in lines:
        body = line.rstrip(_LINE_CLOSERS)
        if body[-1:] in rx.token_chars or body.endswith(_OPTION_NOUNS):
            yield offset, line


def _lead_line(rx: StepRegexes, lines: Lines) -> re.Match[str] | None:
    """A first line led by a choice ("B) 1648"), unless other lines list options the same way."""
    lead = rx.lead_line.match(lines[0][1])
    if lead is None or sum(rx.enumerated_line.match(x) is not None for _, x in lines) > 1:
        return None
    return lead


def _counts(rx: StepRegexes, norm: str, start: int, end: int, paired: bool = False) -> bool:
    """A pattern's token is a statement unless negated, one of alternatives, or an example
    (``paired``: the caller has found it is not the first of alternatives)."""
    if norm[start:end] == "a" and _is_article(norm, end) and not _option_a(rx, norm, end):
        return False
    if rx.negation is not None and rx.negation.match(norm, end):
        return False
    if not paired and rx.after_alternative.match(norm, end):
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


def _option_a(rx: StepRegexes, norm: str, end: int) -> bool:
    """choice/v7: what follows a token "a" makes it option A ("A best fits"), not the article."""
    return rx.not_article is not None and rx.not_article.match(norm, end) is not None


_EXAMPLE_LOOKBACK = 120  # characters: an example cue is close; bounded so long lines stay linear


def _not_example(rx: StepRegexes, norm: str, start: int) -> bool:
    if rx.ignore is None:
        return True
    line_start = max(
        norm.rfind("\n", max(0, start - _EXAMPLE_LOOKBACK), start) + 1, start - _EXAMPLE_LOOKBACK, 0
    )
    if rx.clause is not None:  # choice/v5: a cue reaches back to its clause's start only
        line_start = _clause_start(rx.clause, norm, line_start, start)
    return rx.ignore.search(norm, line_start, start) is None


def _clause_start(clause: re.Pattern[str], norm: str, line_start: int, start: int) -> int:
    """The end of the last clause boundary in ``norm[line_start:start]``, else ``line_start``."""
    for m in clause.finditer(norm, line_start, start):
        line_start = m.end()
    return line_start


_WOULD = re.compile(r"\b(?:would|could|might)\b|会|would")


def _conditional(rx: StepRegexes, norm: str, said: int, start: int, end: int) -> bool:
    """A statement that says what the answer *would* be under a condition stated before it in
    the same clause ("If it asked about mass, the answer would be A")."""
    assert rx.conditional is not None and rx.clause is not None
    if _WOULD.search(norm, said, end) is None:
        return False
    lo = max(
        norm.rfind("\n", max(0, said - _EXAMPLE_LOOKBACK), said) + 1, said - _EXAMPLE_LOOKBACK, 0
    )
    for m in _SENTENCE_END.finditer(norm, lo, said):
        lo = m.end()
    return rx.conditional.search(norm, lo, said) is not None


_SENTENCE_END = re.compile(r"[.!?。！？](?=\s)|[。！？]")


# ------------------------------------------------------------------- verdict lists (v7)

VERDICT_RULE = "verdict-line"


def _add_verdicts(
    rx: StepRegexes, norm: str, found: dict[int, _Statement], canon: Canon | None
) -> None:
    """The positive verdicts of a per-option list ("- C: yes"), when two or more choices are
    judged (one line "A: yes" alone is no list: a Q/A pair's speaker says it too)."""
    assert rx.verdict_line is not None
    rows = []
    judged: set[str] = set()
    for m in rx.verdict_line.finditer(norm):
        token = m.group(1) if canon is None else canon(m.group(1))
        if token is None:
            continue
        judged.add(token)
        if m.group(2) is not None:
            rows.append((m.start(1), m.end(1), token, m.span()))
    if len(judged) < 2:
        return
    for start, end, token, said in rows:
        if start not in found and _not_example(rx, norm, start):
            found[start] = _Statement(start, end, token, VERDICT_RULE, said)


def _split_verdicts(found: list[_Statement]) -> NoAnswer | None:
    """No answer when the statements end in positive verdicts for different choices."""
    tokens: set[str] = set()
    first = None
    for s in reversed(found):
        if s.rule != VERDICT_RULE:
            break
        tokens.add(s.token)
        first = s
    if len(tokens) < 2 or first is None:
        return None
    return NoAnswer("verdict-list-no-answer", (first.start, found[-1].end))


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
