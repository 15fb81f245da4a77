"""Every choice preset keeps its span inside the text, whatever the text: an output cut off in
an unclosed ``\\boxed{`` of several choices once gave a span past the text's end (an IndexError
when the text also held a character normalization changes)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from answer_audit import extract, list_parsers
from choice_cases import assert_choice_or_none

CHOICE_PRESETS = [name for name in list_parsers() if name.startswith("choice/")]


@pytest.mark.parametrize("preset", CHOICE_PRESETS)
@pytest.mark.parametrize(
    "text",
    [
        "最终答案：\\boxed{A, C",  # full-width colon: normalization maps offsets
        "\u200f\\boxed{A, C",  # an invisible mark is dropped before reading
        "\\boxed{A, C",
        "Answer: \\boxed{B, D}  ",
        "\u200f\\boxed{32",
    ],
)
def test_an_unclosed_box_of_several_choices_gives_a_span_inside_the_text(
    preset: str, text: str
) -> None:
    assert_choice_or_none(extract(text, preset, choices="abcd"), text)


_PIECES = st.sampled_from(
    ["\\boxed{", "A", "C", ", ", "，", "：", "}", "\u200f", "\u200b", " ", "\n", "Answer:", "ｂ"]
)


@given(st.lists(_PIECES, max_size=12).map("".join))
def test_any_mix_of_boxes_and_normalized_marks_reads_inside_the_text(text: str) -> None:
    for preset in ("choice/v9", "choice/v10"):
        assert_choice_or_none(extract(text, preset, choices="abcd"), text)
