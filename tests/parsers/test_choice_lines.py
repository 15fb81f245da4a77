"""`choice_lines.lines_holding` yields the lines asking every line yields (the reading of the
``trigger-lines`` step before it), on generated outputs and on floods of lines."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from answer_audit.parsers.choice_lines import lines_holding, split_lines

_PIECES = st.sampled_from(
    ["answer", "answ", "er", "Answer: B", "回答", "回", "答", "正解は", "b", "a", "7", " ", "  ",
     "\t", "\n", "\n\n", "\r\n", "\x0b", "\u2028", ": ", "the answer is (a).", "x"]
)  # fmt: skip
_TEXTS = st.one_of(
    st.lists(_PIECES, max_size=30).map("".join),
    st.tuples(st.lists(_PIECES, min_size=1, max_size=4).map("".join), st.integers(1, 60)).map(
        lambda t: t[0] * t[1]
    ),
)
_TRIGGERS = st.lists(
    st.sampled_from(["answer", "回答", "正解は", "er", " ", "b\n", "a", ""]), max_size=3
).map(tuple)


@settings(max_examples=3000)
@given(_TEXTS, _TRIGGERS)
@example("B\n" * 500, ("answer", "回答"))
@example("answer\n" + "7\n" * 300 + "x answer x", ("answer",))
@example("answer b\n", ("answer", ""))
@example("  answer", (" answer",))  # an occurrence reaching into the space before a line
def test_the_lines_holding_a_trigger_are_those_each_line_says(
    text: str, triggers: tuple[str, ...]
) -> None:
    lines = split_lines(text)
    expected = [(o, x) for o, x in reversed(lines) if any(t in x for t in triggers)]
    assert list(lines_holding(lines, text, triggers)) == expected


class _CountingText(str):
    """A text that adds up how many characters its `rfind` calls read."""

    read = 0

    def rfind(self, sub: str, start: int | None = None, end: int | None = None) -> int:  # type: ignore[override]
        found = super().rfind(sub, start, end)
        stop = len(self) if end is None else end
        self.read += stop - max(found, start or 0)
        return found


def test_each_trigger_is_searched_for_across_the_text_once() -> None:
    # every other line holds a trigger (the pattern then fails on it); the other triggers are
    # nowhere: each search must go on from the last one, not start again from the line read
    text = _CountingText("これは説明です。\n回答：わかりません\n" * 2000)
    triggers = ("answer", "回答", "正解は")
    lines = split_lines(text)
    held = list(lines_holding(lines, text, triggers))
    assert len(held) == 2000
    assert text.read <= len(triggers) * len(text) + 2 * len(held) * max(map(len, triggers))
