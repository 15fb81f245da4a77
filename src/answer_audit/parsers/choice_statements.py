"""Reading answer statements: the ``statements`` step kind of the choice engine.

A *statement* is a place where the output gives one choice: a pattern match (``Answer: B``,
``正解は b``, ``D is correct``), or with ``bare`` a line that is one choice alone (``**B**``) or a
first line led by one (``B) 1648``). Negated, example and alternative ("B or C") statements are
dropped, and so is everything after an invented next question. Then the final statement wins,
with two exceptions that mean "no answer": the statements end in a cycle through the options
(``a b c d a b c d ...``), or they end by enumerating every option once.

Over 400 lines on purpose: finding the statements and the checks on each (negations,
alternatives, examples, counterfactuals, verdict lists) share one compiled step and its
helpers; choice/v4's reading in bulk and the search for long cycles are in `choice_bulk`.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from operator import itemgetter

from answer_audit.parsers.choice_bulk import END as _END
from answer_audit.parsers.choice_bulk import RULE as _RULE
from answer_audit.parsers.choice_bulk import START as _START
from answer_audit.parsers.choice_bulk import TOKEN as _TOKEN
from answer_audit.parsers.choice_bulk import Found as _Found
from answer_audit.parsers.choice_bulk import Statement as _Statement
from answer_audit.parsers.choice_bulk import bare_in_segments, cycle_start_in_text
from answer_audit.parsers.choice_lines import LINE, split_lines
from answer_audit.parsers.choice_patterns import StepRegexes
from answer_audit.parsers.choice_step import ChoiceStep, Decision, Lines, NoAnswer
from answer_audit.text.prefilters import may_match

# A captured token -> the choice it names (None: no choice of this set); choice/v5 compares
# statements by choice, so "3", "c" and "the third option" are the same statement.
Canon = Callable[[str], str | None]


def read_statements(
    step: ChoiceStep,
    rx: StepRegexes,
    norm: str,
    lines: Lines | None,
    n_choices: int,
    canon: Canon | None = None,
) -> Decision:
    """Run one ``statements`` step on the normalized (masked) text: the final statement, no
    answer (a cycle, an enumeration, or with ``doubts`` a doubt after it), or None when the
    text makes no statement. ``lines``: the text's lines, or None to read choice/v4's bare
    lines without them in a long text (`_statements_by_segment`; the same statements)."""
    rx = rx if rx.pattern_ascii else rx.for_text(norm)  # choice/v5 reads cues locally anyway
    found: Sequence[_Statement] | None = None
    if lines is None and len(norm) >= _BY_SEGMENT_FROM and _by_segment_reads(step, rx, canon):
        found = _statements_by_segment(step, rx, norm)
    if found is None:
        lines = split_lines(norm) if lines is None else lines
        found = _statements(step, rx, norm, lines, canon)
    split = _split_verdicts(found) if rx.verdict_line is not None else None
    decision = split or _decide(found, n_choices, norm)
    if rx.doubt is not None and found and not isinstance(decision, NoAnswer) and decision:
        doubted = _doubted(rx.doubt, norm, found[-1], canon)
        if doubted is not None:
            return doubted
    if rx.undecided is not None and found and not isinstance(decision, NoAnswer) and decision:
        end = found[-1][_END]
        undecided = rx.undecided.search(norm, end, end + _UNDECIDED_WITHIN)
        if undecided is not None:
            return NoAnswer(UNDECIDED_RULE, (found[-1][_START], undecided.end()))
    return decision


UNDECIDED_RULE = "undecided-no-answer"
# choice/v8 reads indecision this close after the final statement (characters): it says so
# right after naming its last choice, and a bounded search keeps long outputs linear.
_UNDECIDED_WITHIN = 600


def _doubted(doubt: re.Pattern[str], norm: str, last: _Statement, canon: Canon | None) -> Decision:
    """No answer when, after the final statement, the output doubts it by naming another
    choice ("The answer is B. Hmm, or maybe D?")."""
    for m in doubt.finditer(norm, last[_END]):
        token = m.group(1) if m.re.groups else m.group()
        other = canon(token) if canon is not None else token
        if other is not None and other != last[_TOKEN]:
            return NoAnswer("doubt-no-answer", (last[_START], m.end()))
    return None


def _statements(
    step: ChoiceStep, rx: StepRegexes, norm: str, lines: Lines, canon: Canon | None = None
) -> list[_Statement]:
    found: dict[int, _Statement] = {}
    # choice/v7: where the second of two alternatives starts (dropped with the first)
    paired: set[int] | None = set() if step.pair_alternatives else None
    if rx.verdict_line is not None:  # first: a verdict line is read as one, whatever else matches
        _add_verdicts(rx, norm, found, canon)
    if rx.table_header is not None and "|" in norm:
        _add_table_answers(rx, norm, lines, found, canon)
    _add_patterns(step, rx, norm, found, canon, paired)
    # (a line shorter than a pattern's shortest match has none: a flood of one-letter lines)
    least = rx.line_final_least or (0,) * len(rx.line_final)
    for offset, line in _line_final_lines(rx, lines):
        for pattern, width in zip(rx.line_final, least, strict=True):
            if len(line) >= width:
                matches = pattern.finditer(norm, offset, offset + len(line))
                _add_matches(step, rx, norm, matches, found, canon, paired)
    if step.bare:
        _add_bare(rx, norm, lines, found, canon, negated_lead=step.lead_negated)
    ordered = [found[k] for k in sorted(found) if not paired or k not in paired]
    if ordered and rx.stop is not None:
        stop = rx.stop.search(norm, ordered[0][_END])
        if stop is not None:
            ordered = [s for s in ordered if s[_START] < stop.start()]
    return ordered


def _add_bare(
    rx: StepRegexes,
    norm: str,
    lines: Lines,
    found: dict[int, _Statement],
    canon: Canon | None,
    lead: bool = True,
    *,
    negated_lead: bool = False,
) -> None:
    """The lines that are one choice alone, and (``lead``: ``lines[0]`` is the text's first
    line) a first line led by one, where no statement starts yet (``negated_lead``, choice/v9:
    and no negation cue follows its separator)."""
    for i, (offset, line) in enumerate(lines):
        bare = rx.bare_line.fullmatch(line)
        if bare is not None and _not_example(rx, norm, offset + bare.start(1)):
            s = offset + bare.start(1)
            token = bare.group(1) if canon is None else canon(bare.group(1))
            if token is not None:
                found.setdefault(s, (s, s + 1, token, "bare-line", None))
        elif i == 0 and lead and (led := _lead_line(rx, lines)) is not None:
            if negated_lead and _negated_lead(rx, norm, offset + led.end() - 1):
                continue
            s = offset + led.start(1)
            token = led.group(1) if canon is None else canon(led.group(1))
            if token is not None:
                found.setdefault(s, (s, s + 1, token, "lead-line", None))


def _add_patterns(
    step: ChoiceStep,
    rx: StepRegexes,
    norm: str,
    found: dict[int, _Statement],
    canon: Canon | None,
    paired: set[int] | None,
) -> None:
    """The statements of the step's patterns over the whole text."""
    ascii_text = bool(rx.pattern_ascii) and norm.isascii()
    for i, (pattern, needs) in enumerate(zip(rx.patterns, rx.pattern_needs, strict=True)):
        if ascii_text and not rx.pattern_ascii[i]:
            continue  # written for other scripts: no match in an ASCII text
        if not may_match(_few(rx, needs), norm):
            continue  # no match anywhere in this text
        _add_matches(step, rx, norm, pattern.finditer(norm), found, canon, paired)


# ------------------------------------------------------------------- bare lines in bulk (v4)
# (`choice_bulk`: the text read by "\n"-segment, each distinct one once)


# From this many characters on, choice/v4 reads by segment (shorter texts: line by line, as
# fast, without the segments' bookkeeping).
_BY_SEGMENT_FROM = 8192


def _by_segment_reads(step: ChoiceStep, rx: StepRegexes, canon: Canon | None) -> bool:
    """Whether `_statements_by_segment` reads this step (choice/v4's kind: no later option)."""
    ignore = rx.ignore
    return (
        step.bare
        and canon is None
        and not rx.line_final
        and rx.verdict_line is None
        and not step.pair_alternatives
        and rx.clause is None
        and (ignore is None or (type(ignore) is re.Pattern and "(?<" not in ignore.pattern))
    )


def _statements_by_segment(step: ChoiceStep, rx: StepRegexes, norm: str) -> _Found | None:
    """`_statements` without the line list (None: a first line led by a choice, which counts
    the text's enumerated lines; the caller reads the lines)."""
    first = LINE.search(norm)
    head_end = len(norm) if first is None else norm.find("\n", first.start())
    head_end = len(norm) if head_end < 0 else head_end
    head = [(m.start(), m.group()) for m in LINE.finditer(norm, 0, head_end)]
    if head:
        offset, line = head[0]
        bare = rx.bare_line.fullmatch(line)
        is_bare = bare is not None and _not_example(rx, norm, offset + bare.start(1))
        if not is_bare and rx.lead_line.match(line) is not None:
            return None
    found: dict[int, _Statement] = {}
    _add_patterns(step, rx, norm, found, None, None)
    bare_found: dict[int, _Statement] = {}
    _add_bare(rx, norm, head, bare_found, None)  # no lead line: checked above
    starts = list(bare_found)
    tokens = [s[_TOKEN] for s in bare_found.values()]
    if head_end < len(norm):
        more_starts, more_tokens = bare_in_segments(
            norm, head_end + 1, rx.bare_line, lambda lines: _bare_of(rx, norm, lines)
        )
        starts += more_starts
        tokens += more_tokens
    extra = found  # (`bare_found` holds bare lines only: no lead line, checked above)
    if found and not starts:
        starts = sorted(found)
        tokens = list(map(itemgetter(_TOKEN), map(found.__getitem__, starts)))
    elif found:  # a pattern's statement wins where a bare line's starts
        token_at = dict(zip(starts, tokens, strict=True))
        token_at.update(zip(found, map(itemgetter(_TOKEN), found.values()), strict=True))
        starts = sorted(token_at)
        tokens = list(map(token_at.__getitem__, starts))
    if starts and rx.stop is not None:
        head_stmt = extra.get(starts[0])
        stop = rx.stop.search(norm, starts[0] + 1 if head_stmt is None else head_stmt[_END])
        if stop is not None:
            keep = bisect_left(starts, stop.start())
            del starts[keep:], tokens[keep:]
            extra = {k: v for k, v in extra.items() if k < stop.start()}
    return _Found(starts, tokens, extra)


def _bare_of(rx: StepRegexes, norm: str, lines: Lines) -> list[tuple[int, str]]:
    """The bare-line statements (start, token) of some lines after the text's first."""
    found: dict[int, _Statement] = {}
    _add_bare(rx, norm, lines, found, None, lead=False)
    return [(s[_START], s[_TOKEN]) for s in found.values()]


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
    ``paired``, also where the second of two alternatives starts.

    A match's token is a statement unless negated, one of alternatives, an example or (v5) a
    counterfactual; the checks are written out here, once per match (a long repetitive output
    makes a hundred thousand matches, and calls cost more than most checks)."""
    negation, after, before = rx.negation, rx.after_alternative, rx.before_alternative
    search_before = type(before) is not re.Pattern  # (`_may_end_alternatives`)
    pair, rule, ignore, conditional = paired is not None, step.rule, rx.ignore, rx.conditional
    g = -1  # the group that captures the token: 1, or the whole match (0) in a pattern without
    for m in matches:
        if g < 0:  # (every match comes from one pattern)
            g = 1 if m.re.groups else 0
        start, end = m.span(g)
        if start < 0:
            continue  # the group took no part (a preset file's alternative groups)
        raw = m.group(g)  # norm[start:end]
        token = raw if canon is None else canon(raw)
        if token is None or start in found:
            continue
        if paired is not None and (other := after.match(norm, end)) is not None:
            paired.add(other.end() - 1)  # its token: one character, the pattern's last
            continue  # (one of alternatives: no statement, as the check below would say)
        if raw == "a" and _is_article(norm, end) and not _option_a(rx, norm, end):
            continue  # the article
        if negation is not None and negation.match(norm, end):
            continue
        if not pair and after.match(norm, end):
            continue  # the first of alternatives
        last = norm[end - 1]
        if (last in _ALTERNATIVES_LAST or last.isspace() or search_before) and before.search(
            norm, max(0, start - 24), end
        ):
            continue  # the second of alternatives
        if ignore is not None and not _not_example(rx, norm, start):
            continue  # an example
        if conditional is not None and _conditional(rx, norm, m.start(), start, end):
            continue
        found[start] = (start, end, token, rule, m.span())


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


def _negated_lead(rx: StepRegexes, norm: str, after: int) -> bool:
    """Whether a negation cue starts the text of a lead line (at ``after``, past its
    separator): "(A) is incorrect because ..." judges option A, it does not answer."""
    return rx.negation is not None and rx.negation.match(norm, after) is not None


def _lead_line(rx: StepRegexes, lines: Lines) -> re.Match[str] | None:
    """A first line led by a choice ("B) 1648"), unless other lines list options the same way."""
    lead = rx.lead_line.match(lines[0][1])
    if lead is None or sum(rx.enumerated_line.match(x) is not None for _, x in lines) > 1:
        return None
    return lead


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
    back = start - window if start > window else 0
    line_start = norm.rfind("\n", back, start) + 1 or back
    line_end = norm.find("\n", end, end + window)
    after = norm[end : end + window if line_end < 0 else line_end]
    rest = norm[line_start:start] + after if line_start < start else after
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
            found[start] = (start, end, token, VERDICT_RULE, said)


def _split_verdicts(found: Sequence[_Statement]) -> NoAnswer | None:
    """No answer when the statements end in positive verdicts for different choices."""
    tokens: set[str] = set()
    first = None
    for s in reversed(found):
        if s[_RULE] != VERDICT_RULE:
            break
        tokens.add(s[_TOKEN])
        first = s
    if len(tokens) < 2 or first is None:
        return None
    return NoAnswer("verdict-list-no-answer", (first[_START], found[-1][_END]))


# ------------------------------------------------------------------- answer columns (v8)

TABLE_RULE = "table-answer"
_SEPARATOR_CHARS = frozenset("|-: \t")
# What a header cell may hold around its name: markup, a colon, a parenthetical ("(letter)").
_HEADER_MARKUP = re.compile(r"[*_`]+|\s*[:：]\s*$|\s*[(（][^()（）]*[)）]\s*$")


def _add_table_answers(
    rx: StepRegexes, norm: str, lines: Lines, found: dict[int, _Statement], canon: Canon | None
) -> None:
    """The cells of a Markdown table's answer column ("| Question | Answer |", then a separator
    row, then "| 1 | B |"): each that holds one choice alone is a statement, when they all name
    the same choice (a column answering several questions picks none). Read line by line once."""
    assert rx.table_header is not None
    i = 1
    while i < len(lines):
        row = lines[i][1]
        if "-" not in row or "|" not in row or not _SEPARATOR_CHARS.issuperset(row):
            i += 1
            continue
        column = _answer_column(rx.table_header, lines[i - 1][1])
        i += 1
        if column is None:
            continue
        cells: list[_Statement] = []
        while i < len(lines) and "|" in lines[i][1]:
            offset, line = lines[i]
            cell = _cell(line, column)
            if cell is not None:
                start, text = cell
                bare = rx.bare_line.fullmatch(text)
                if bare is not None:
                    token = bare.group(1) if canon is None else canon(bare.group(1))
                    s = offset + start + bare.start(1)
                    if token is not None:
                        cells.append((s, s + len(bare.group(1)), token, TABLE_RULE, None))
            i += 1
        if len({c[_TOKEN] for c in cells}) == 1:
            for c in cells:
                found.setdefault(c[_START], c)


def _cells(line: str) -> list[tuple[int, str]]:
    """The cells of a table row, each with where it starts in the line (outer bars dropped)."""
    body_start = 1 if line.startswith("|") else 0
    body_end = len(line) - 1 if line.endswith("|") and len(line) > body_start else len(line)
    cells = []
    at = body_start
    for part in line[body_start:body_end].split("|"):
        cells.append((at, part))
        at += len(part) + 1
    return cells


def _answer_column(header: re.Pattern[str], row: str) -> int | None:
    """The index of the answer column of a header row, or None (no cell, or two, name one)."""
    names = [_HEADER_MARKUP.sub("", cell).strip() for _, cell in _cells(row)]
    columns = [i for i, name in enumerate(names) if name and header.fullmatch(name)]
    return columns[0] if len(columns) == 1 else None


def _cell(line: str, column: int) -> tuple[int, str] | None:
    """The stripped text of one cell of a row and where it starts in the line (None: no cell)."""
    cells = _cells(line)
    if column >= len(cells):
        return None
    at, text = cells[column]
    stripped = text.strip()
    if not stripped:
        return None
    return at + text.index(stripped), stripped


# ------------------------------------------------------------------- decisions

_MIN_CYCLE_STATEMENTS = 6


def _decide(found: Sequence[_Statement], n_choices: int, norm: str) -> Decision:
    """The final statement, unless the statements end in a cycle or an enumeration.

    In a cycle, labelled lines (``回答: a``) are part of the cycle like bare letters; only a
    reasoned statement (one whose line says more) can still be the answer, and only when the
    reasoned statements inside the cycle agree.
    """
    if not found:
        return None
    tokens = found.tokens if isinstance(found, _Found) else [s[_TOKEN] for s in found]
    cycle_start = _cycle_start(tokens)
    if cycle_start is not None:
        cycle_span = (found[cycle_start][_START], found[-1][_END])
        said = found.said() if isinstance(found, _Found) else found
        last, inside = _reasoned(said, norm, cycle_span[0])
        if len(inside) > 1 or last is None:
            return NoAnswer("cycle-no-answer", cycle_span)
        return last[_START], last[_END], last[_TOKEN], "answer-before-cycle"
    tail = _distinct_tail(tokens)
    kept = len(found)
    if n_choices >= 3 and len(tail) >= n_choices:
        kept -= len(tail)
        if not kept:
            return NoAnswer("enumeration-no-answer")
    last = found[kept - 1]
    return last[_START], last[_END], last[_TOKEN], last[_RULE]


def _reasoned(
    found: Sequence[_Statement], norm: str, cycle: int
) -> tuple[_Statement | None, set[str]]:
    """The last reasoned statement (a pattern's whose line says more) and the choices of those
    from ``cycle`` on, read from the end: only until two choices are in the cycle's, or the
    last one is found before it (what `_decide` asks of them all)."""
    last = None
    inside: set[str] = set()
    for s in reversed(found):
        start, _, token, _, said = s
        if start < cycle and last is not None:
            break
        if said is not None and _says_more(norm, said[0], said[1]):
            last = s if last is None else last
            if start >= cycle:
                inside.add(token)
                if len(inside) > 1:
                    break
    return last, inside


def _cycle_start(tokens: list[str]) -> int | None:
    """Start of the longest tail that repeats a period of 2+ different tokens, if any."""
    n = len(tokens)
    if n > _LONG:
        text = "".join(tokens)
        if len(text) == n:  # one character each
            return cycle_start_in_text(text, _MIN_CYCLE_STATEMENTS)
    return _cycle_start_by_token(tokens)


# Past this many statements, `_cycle_start` compares runs of them at once (`choice_bulk`).
_LONG = 4096


def _cycle_start_by_token(tokens: list[str]) -> int | None:
    """`_cycle_start`, comparing token by token."""
    n = len(tokens)
    best: int | None = None
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
