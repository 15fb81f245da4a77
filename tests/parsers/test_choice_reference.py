"""The choice engine's internals checked against reference definitions written plainly: the
start of a cycle of statements, choice/v4's answer statements and statement checks as first
written (before their backtracking was removed), the lines of a text, and the end of a list of
alternatives."""

from __future__ import annotations

import functools

from hypothesis import example, given, settings
from hypothesis import strategies as st

from answer_audit.parsers import choice, choice_lines, choice_statements
from answer_audit.parsers.choice_patterns import StepRegexes
from answer_audit.parsers.presets.choice import CHOICE_V4


def _cycle_start_by_definition(tokens: list[str]) -> int | None:
    """The earliest start of a tail that repeats a period of 2..8 at least twice (and over at
    least 6 statements) and holds two different tokens: checked start by start."""
    n, best = len(tokens), None
    for period in range(2, 9):
        need = max(2 * period, 6)
        for start in range(n - need + 1):
            tail = tokens[start:]
            if all(tail[i] == tail[i + period] for i in range(len(tail) - period)):
                if len(set(tail)) > 1:
                    best = start if best is None else min(best, start)
                break  # the earliest start of this period; later ones are shorter tails
    return best


@given(
    st.lists(st.sampled_from("abcd"), max_size=30),
    st.lists(st.sampled_from("abcd"), min_size=1, max_size=4),
    st.integers(0, 40),
)
@settings(max_examples=400)
def test_cycle_start_is_the_definition(head: list[str], unit: list[str], repeats: int) -> None:
    from answer_audit.parsers.choice_statements import _cycle_start

    tokens = head + unit * repeats  # random heads, with tails that repeat (or run one token)
    assert _cycle_start(tokens) == _cycle_start_by_definition(tokens)


# choice/v4's answer statement as first written: the gap and the wrap around the choice read the
# same characters, and `\*\*|\*` and `\$+` repeat, so a run of `$` or `*` with no choice after
# it backtracked exponentially (40 stars took a minute). The preset now spells them so that
# no split is tried twice; these tests hold it to the first form's matches.
_FIRST_GAP = (
    r"(?:[ \t*_#>=:\-–—)）\]】\"'“”‘’]|\([^()\n]{0,24}\)|（[^（）\n]{0,24}）"
    r"|\b(?:{LINK})\b|是|为|為|は|が|은|는|হলো|হল|を)*(?:\n[ \t*_>]*)?"
)
_FIRST_WRAP = (
    r"(?:\*\*|\*|__|[「『\"'“‘(\[（【<]|\$+|\\boxed\{|\\text(?:bf)?\{|\\mathrm\{|\\mathbf\{"
    r"|(?:option|choice|letter|選択肢|选项|보기|opción|opção|opzione|pilihan|chaguo|الخيار"
    r"|विकल्प|বিকল্প)\s*)*"
)
_STATEMENT_PIECES = st.sampled_from(
    ["answer", ":", " ", "*", "**", "_", "__", '"', "'", "“", "‘", "”", "’", "(", ")", "（",
     "）", "[", "【", "<", "$", "\\boxed{", "\\textbf{", "option", "choice ", "\n", "\t", ">",
     " is ", "b", "c", "2", "x", ".", "は", "是", "-", "=", "#", "final:", "(1文字)"]
)  # fmt: skip


# the characters both parts read, after a trigger: where the two forms could part ways
_SPLIT_PIECES = st.sampled_from(["\n", "*", "_", '"', "”", "“", "(", "$", " ", ">", "b", "x"])


@given(
    st.one_of(
        st.lists(_STATEMENT_PIECES, max_size=12).map("".join),
        st.lists(_SPLIT_PIECES, max_size=9).map(lambda p: "answer" + "".join(p)),
    )
)
@settings(max_examples=2000)
def test_answer_statements_match_as_first_written(text: str) -> None:
    import re

    from answer_audit.parsers.presets import choice as cp

    def fill(pattern: str) -> re.Pattern[str]:
        return re.compile(pattern.replace("{L}", "abcd").replace("{D}", "1-4"))

    gap = _FIRST_GAP.replace("{LINK}", cp._LINK_WORDS)
    pairs = [
        (cp._TRIGGER + gap + _FIRST_WRAP + cp._TOKEN, cp._ANSWER_STATEMENT),
        (cp._TRIGGER + gap, cp._TRIGGER + cp._GAP),  # the option-text step's pattern
    ]
    for first, now in pairs:
        a, b = fill(first), fill(now)
        assert [(m.span(), m.groups()) for m in a.finditer(text)] == [
            (m.span(), m.groups()) for m in b.finditer(text)
        ]


# The statement checks as first written: _OPEN's spaces could be read by `[\s...]` or by the
# `\s*` after an option word, and the "x or y" link gave back spaces _OPEN read again, so
# "option option ... x" and "b or" + spaces were exponential and quadratic.
_FIRST_OPEN = (
    r"(?:[\s*_#>\-]|\\boxed\{|\\text(?:bf)?\{|\\mathrm\{|\$|[(\[（【「『\"'“‘]"
    r"|(?:option|choice|選択肢|选项)\s*)*"
)
_LINE_PIECES = st.sampled_from(
    ["option", "choice", " ", "  ", "\t", "*", "_", "#", ">", "-", "\\boxed{", "$", "(", "「",
     '"', "b", "c", "2", "x", ")", "}", ".", "。", "です", " or ", " and ", "/", "、", "か", "h"]
)  # fmt: skip


@functools.cache
def _v4_statement_step() -> StepRegexes:
    """choice/v4's statements step compiled once (per example, it was 9/10 of the test's time)."""
    import re

    from answer_audit.parsers import choice_patterns as cr

    return cr.compile_step(
        CHOICE_V4.steps[0], lambda p: re.compile(p.replace("{L}", "abcd").replace("{D}", "1-4"))
    )


@given(st.lists(_LINE_PIECES, max_size=10).map("".join))
@settings(max_examples=2000)
def test_statement_checks_match_as_first_written(text: str) -> None:
    import re

    from answer_audit.parsers import choice_patterns as cr

    token = "[abcd1-4]"
    first_bare = re.compile(rf"{_FIRST_OPEN}({token}){cr._CLOSE}(?:です|でした|だ)?[。.]?")
    first_after = re.compile(
        rf"[\"'”’」』)\]）】*_$}}]*{cr._BETWEEN_ALTERNATIVES}{_FIRST_OPEN}{token}(?![0-9a-z])"
    )
    compiled = _v4_statement_step()
    old, new = first_bare.fullmatch(text), compiled.bare_line.fullmatch(text)
    assert (old and (old.span(1), old.group(1))) == (new and (new.span(1), new.group(1)))
    for pos in range(len(text) + 1):  # the link check: only whether it matches is read
        assert (first_after.match(text, pos) is None) == (
            compiled.after_alternative.match(text, pos) is None
        )


def _lines_by_splitting(text: str) -> list[tuple[int, str]]:
    """The reference for `choice._lines`: split at every line break, strip each line."""
    out, offset = [], 0
    for line in text.splitlines(keepends=True):
        if line.strip():
            out.append((offset + len(line) - len(line.lstrip()), line.strip()))
        offset += len(line)
    return out


@settings(max_examples=300)
@given(
    st.text(alphabet=st.sampled_from([*"ab \t\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029\u3000\xa0"]))
)
def test_lines_are_the_stripped_non_blank_lines(text: str) -> None:
    assert choice_lines.split_lines(text) == _lines_by_splitting(text)


_ALTERNATIVE_PIECES = st.sampled_from(
    [*"abcdn14 \t\u3000/,、・か或和びはとや(（)x:.", "or", "and", "option", "選択肢", "选项", "或者",
     "及び", "または"]
)  # fmt: skip


@settings(max_examples=300)
@given(st.lists(_ALTERNATIVE_PIECES, min_size=1, max_size=14), st.sampled_from(["abcd", "abcdn"]))
@example(["b", " or ", "c"], "abcd")  # "b or c": the search before c matches (at end b or )
@example(["b", " or ", "option", " n"], "abcdn")
def test_an_end_that_cannot_close_alternatives_needs_no_search(
    pieces: list[str], choices: str
) -> None:
    text = "".join(pieces)
    steps = [s for s in choice._compile(CHOICE_V4, choices).extras if s is not None]
    for rx in steps:
        for end in range(1, len(text) + 1):
            for start in (max(0, end - 1), max(0, end - 3)):
                found = rx.before_alternative.search(text, max(0, start - 24), end)
                if found is not None:
                    assert choice_statements._may_end_alternatives(rx, text[end - 1])


# The link between two alternatives as first written: the spaces before it could be given back.
_BETWEEN_AS_WRITTEN = (
    r"(?:\s*(?:/|,|、|・|か|或|或者|和|及び|および|または|と|や)\s*"
    r"|\s+(?:or|and|oder|und|ou|et|o|y|e|atau|dan|au|na|و|या|বা|및|또는)\s+)"
)
_LINK_PIECES = [" ", "\n", "\t", "/", ",", "、", "or", "and", "o", "e", "x", "b", "(", ")",
                "option ", "或"]  # fmt: skip


@given(st.lists(st.sampled_from(_LINK_PIECES), max_size=24).map("".join))
@settings(max_examples=600)
@example(" " * 30 + "x")
def test_the_possessive_link_reads_as_written(tail: str) -> None:
    """`_BETWEEN_ALTERNATIVES` takes its leading spaces whole (a long blank run fails at once);
    after a choice and before one, it matches exactly where the first writing did."""
    import re

    from answer_audit.parsers.choice_patterns import _BETWEEN_ALTERNATIVES

    def after(link: str) -> re.Pattern[str]:
        return re.compile(rf"[\"')]*(?>{link})(?:[\s(]|option\s*)*+[abcd](?![0-9a-z])")

    def before(link: str) -> re.Pattern[str]:
        return re.compile(rf"(?<![0-9a-z])[abcd][)]?{link}(?:option\s*)?[(]?$")

    text = "a" + tail
    for build in (after, before):
        new, old = build(_BETWEEN_ALTERNATIVES), build(_BETWEEN_AS_WRITTEN)
        for pos in range(len(text) + 1):
            assert bool(new.match(text, pos)) == bool(old.match(text, pos))
            found, first = new.search(text, pos), old.search(text, pos)
            assert (found and found.span()) == (first and first.span())
