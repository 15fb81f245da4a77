"""choice/v4 reads a long text's bare lines by "\\n"-segment and finds long cycles by comparing
slices (`choice_bulk`): the same statements and decisions as reading the text line by line."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from answer_audit.parsers.choice import _compiled
from answer_audit.parsers.choice_bulk import cycle_start_in_text
from answer_audit.parsers.choice_lines import first_lines, split_lines
from answer_audit.parsers.choice_statements import (
    _by_segment_reads,
    _cycle_start_by_token,
    _decide,
    _statements,
    _statements_by_segment,
    read_statements,
)
from answer_audit.parsers.presets.choice import CHOICE_V4

# pieces of the hostile shapes and of ordinary answers, joined by every kind of line break
_PIECES = st.sampled_from(
    [
        "b", "a", "c", "d", "7", "3", " b ", "**b**", "(c)", "b.", "option d", "b) 1648",
        "answer: b", "the answer is (a).", "the answer is 3.", "e.g. b", "for example:", "a",
        "not b", "b or c", "question 2:", "d is correct", "so the answer is c", "",
        "  ", "x", "a) paris", "\\boxed{b}", "答えは b", "a b c d",
    ]
)  # fmt: skip
_BREAKS = st.sampled_from(["\n", "\n", "\n", "\r\n", "\r", "\x0b", "\u2028", " \n", "\n\n"])


@st.composite
def _texts(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.tuples(_PIECES, _BREAKS), max_size=30))
    text = "".join(p + b for p, b in parts)
    repeat = draw(st.integers(1, 4))
    return draw(st.sampled_from(["", "  ", "\n"])) + text * repeat


def _by_lines_and_by_segment(norm: str) -> tuple[object, object]:
    """choice/v4's statements and decision, read line by line and by segment."""
    compiled = _compiled(CHOICE_V4, "abcd")
    (step, _), rx = compiled.steps[0], compiled.extras[0]
    assert rx is not None and step.kind == "statements"
    assert _by_segment_reads(step, rx, None)  # (its example cues look back one character)
    by_lines = _statements(step, rx, norm, split_lines(norm))
    by_segment = _statements_by_segment(step, rx, norm)
    if by_segment is None:  # a first line led by a choice: read line by line
        return by_lines, by_lines
    assert _decide(by_segment, 4, norm) == _decide(by_lines, 4, norm)
    assert read_statements(step, rx, norm, None, 4) == _decide(by_lines, 4, norm)
    return by_lines, list(by_segment)


@settings(max_examples=400, deadline=None)
@given(_texts())
def test_bare_lines_by_segment_decide_as_line_by_line(norm: str) -> None:
    by_lines, by_segment = _by_lines_and_by_segment(norm)
    assert by_segment == by_lines


def test_hostile_floods_decide_as_line_by_line() -> None:
    for unit in (
        "b\n",
        "a\nb\nc\nd\n",
        "7\n",
        "answer: b\n",
        "the answer is 3.\nthe answer is 4.\n",
    ):
        for head in ("", "b) x\n", "e.g.\r", "the answer is a.\n"):
            norm = head + unit * 5000  # past `_BY_SEGMENT_FROM`: read_statements reads by segment
            by_lines, by_segment = _by_lines_and_by_segment(norm)
            assert by_segment == by_lines, (head, unit)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from("abcd"), max_size=12),
    st.lists(st.sampled_from("abcd"), min_size=1, max_size=9),
    st.integers(0, 1200),
    st.lists(st.sampled_from("abcd"), max_size=3),
)
def test_cycles_in_text_are_found_as_token_by_token(
    head: list[str], unit: list[str], repeats: int, tail: list[str]
) -> None:
    tokens = head + unit * repeats + tail
    if tokens:
        assert cycle_start_in_text("".join(tokens), 6) == _cycle_start_by_token(tokens)


@given(st.text(alphabet="ab \n\r\t\x0b", max_size=40), st.integers(0, 5))
def test_first_lines_are_the_first_lines(text: str, count: int) -> None:
    assert first_lines(text, count) == split_lines(text)[:count]
