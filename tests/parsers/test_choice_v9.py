"""The general rules choice/v9 adds to v8: the ``guard`` step (a final box of several choices, a
sentence cut off after a copula), doubt with a reason, an appositive option, a lead line that a
negation follows, and the ``last-resort`` step (a choice in an answer position in any language,
read in the answer region's last `TAIL` characters). One test per rule with its near variants
and the look-alikes that are not answers (v8 kept as it was); properties checked with
hypothesis.

Beside it: v8 (`test_choice_v8.py`), v1 .. v6 (`test_choice.py`), v7 (`test_choice_verdicts.py`).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from answer_audit import extract
from answer_audit.parsers.choice_last_resort import answer_tail
from answer_audit.parsers.choice_step import TAIL
from choice_cases import SEED_EXAMPLES, assert_choice_or_none


def v9(text: str, choices: str | None = None) -> str | None:
    value = extract(text, "choice/v9", choices=choices).value
    assert value is None or isinstance(value, str)
    return value


def rule(text: str) -> str:
    return extract(text, "choice/v9").rule


@pytest.mark.parametrize(("text", "expected"), SEED_EXAMPLES)
def test_choice_v9_passes_the_seed_examples(text: str, expected: str | None) -> None:
    assert v9(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "The correct options are A, C and D.\n\n\\boxed{ACD}",
        "\\boxed{A, C}",
        "\\boxed{\\text{B}\\text{D}}",
        "So both apply: $\\boxed{BD}$.",
    ],
)
def test_a_final_box_of_several_choices_is_no_answer(text: str) -> None:
    assert extract(text, "choice/v9").rule == "multi-box-no-answer"
    assert v9(text) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("\\boxed{C}", "c"),  # one choice: answered as before
        ("The answer is \\boxed{B}.", "b"),
    ],
)
def test_a_final_box_of_one_choice_still_answers(text: str, expected: str) -> None:
    assert v9(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "So option B is",
        "Checking the options one by one, option C is",
        "我们逐项分析：B项的说法是",
        "Next, option (B): the league controlled trade in the Baltic, and",
    ],
)
def test_a_sentence_cut_off_after_a_copula_is_no_answer(text: str) -> None:
    assert rule(text) == "cut-off-no-answer"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The answer is C.\nThe reason is", "c"),  # the cut sentence names no choice
        ("The answer is B,", "b"),  # a comma after a whole statement cuts nothing
        ("The answer is B", "b"),
    ],
)
def test_a_cut_off_sentence_without_a_choice_keeps_the_answer(text: str, expected: str) -> None:
    assert v9(text) == expected


@pytest.mark.parametrize(
    ("text", "expected", "v8_value"),
    [
        ("The answer is B. Hmm, or maybe D, since the enzyme is heat-stable?", None, "b"),
        ("The answer is B. Or maybe D, because it binds heme?", None, "b"),
        # look-alikes: the same choice doubted, or no question at all
        ("The answer is B. Or maybe B, since it binds heme?", "b", "b"),
        ("The answer is B. Or maybe D, since it binds heme.", "b", "b"),
    ],
)
def test_doubt_with_a_reason_is_no_answer(text: str, expected: str | None, v8_value: str) -> None:
    assert v9(text) == expected
    assert extract(text, "choice/v8").value == v8_value  # v8 kept as it was


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("That leaves heparin-induced thrombocytopenia, option D.", "d"),
        ("The best fit is the second drug, choice (B).", "b"),
        # look-alikes: the appositive option judged against
        ("Heparin, option D, is ruled out.", None),
    ],
)
def test_an_appositive_option_ending_a_line_answers(text: str, expected: str | None) -> None:
    assert v9(text) == expected


@pytest.mark.parametrize(
    ("text", "expected", "v8_value"),
    [
        ("(A) is incorrect because the enzyme is not denatured at that temperature.", None, "a"),
        ("(B) is not the answer.", None, "b"),
        ("A. is false, the rest hold.", None, "a"),
        # look-alikes: a lead line that states its choice, or gives its option's text
        ("(B) is the answer because it binds.", "b", "b"),
        ("C) Mitochondria", "c", "c"),
        ("B) 1648", "b", "b"),
    ],
)
def test_a_lead_line_followed_by_a_negation_is_no_statement(
    text: str, expected: str | None, v8_value: str
) -> None:
    assert v9(text) == expected
    assert extract(text, "choice/v8").value == v8_value


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Det rigtige svar er C.", "c"),
        ("Rätt svar är B.", "b"),
        ("Đáp án đúng là A vì phản ứng tỏa nhiệt.", "a"),
        ("정답을 고르면 C입니다.", "c"),
        ("It is not A, but D.", "d"),
        ("C。理由は簡単です。", "c"),
        ("Reasoning about the ending.\nEnding D.", "d"),
        ("After weighing them, option C, fits best.", "c"),
        ('{"selected": "B", "confidence": 0.8}', "b"),
        ('{"reasoning": "A is wrong", "pick": "C"}', "c"),
        ('{"name": "submit", "arguments": "{\\"pick\\": \\"C\\"}"}', "c"),
    ],
)
def test_last_resort_reads_one_choice_in_an_answer_position(text: str, expected: str) -> None:
    found = extract(text, "choice/v9")
    assert (found.value, found.rule) == (expected, "last-resort")
    assert extract(text, "choice/v8").value is None  # v8 kept as it was


@pytest.mark.parametrize(
    "text",
    [
        "It is not A.",
        "My first thought is A. The textbook's key is B.",  # two choices: no answer
        '{"first": "A", "final": "C"}',
        "If the gas were ideal, the answer would be A.",
        "It is C. Or D.",
        "It is C. Maybe D.",
        "Consider the gas law and",
    ],
)
def test_last_resort_gives_no_answer_to_look_alikes(text: str) -> None:
    assert v9(text) is None


def test_the_answer_tail_is_bounded_and_starts_at_a_line_break_when_one_is_near() -> None:
    assert answer_tail("short text  \n ") == (0, 10)
    text = "x" * 5000 + "\n" + "y " * TAIL
    start, end = answer_tail(text)
    assert end == len(text.rstrip())
    assert end - TAIL - 200 <= start <= end - TAIL
    assert text[start] == "\n" or start == end - TAIL


_FILLER = st.integers(0, 3 * TAIL).map(lambda n: ("xyz " * (n // 4 + 1))[:n])


@settings(max_examples=60, deadline=None)
@given(_FILLER)
def test_last_resort_reads_only_the_tail(filler: str) -> None:
    """A position is read when it lies in the last `TAIL` characters, and not when it lies well
    before them (the tail may start up to 200 characters early, at a line break)."""
    text = "Det rigtige svar er C.\n" + filler
    found = v9(text)
    if len(filler) + 2 <= TAIL - 200:
        assert found == "c"
    elif len(filler) > TAIL:
        assert found is None


# Statements only the last-resort step reads: a subject, its copula, a choice.
_COPULA_STATEMENTS = st.sampled_from(
    ["My first thought is {}.", "The key is {}.", "Det rigtige svar er {}.", "Đáp án đúng là {}.",
     "Rätt svar är {}.", "It is {}."]
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(
    _COPULA_STATEMENTS,
    _COPULA_STATEMENTS,
    st.sampled_from("ABCD"),
    st.sampled_from("ABCD"),
    st.sampled_from([" ", "\n"]),
)
def test_last_resort_never_answers_when_positions_name_two_choices(
    first: str, second: str, x: str, y: str, between: str
) -> None:
    found = extract(first.format(x) + between + second.format(y), "choice/v9")
    if x != y:
        assert found.rule != "last-resort"
    assert found.value in (None, x.lower(), y.lower())


_PIECES = st.sampled_from(
    ["The answer is", " is ", " er ", "là ", "B", "C", " ", "\n", ".", ", option ", "\\boxed{",
     "}", "AC", "not ", " but ", '{"k": "', '"}', "입니다", "。", "since", "?", "(A) ", "or maybe"]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=16).map("".join))
def test_choice_v9_reads_any_mix_of_its_new_forms_to_a_choice_or_none(text: str) -> None:
    assert_choice_or_none(extract(text, "choice/v9"), text)


def test_line_final_patterns_skip_lines_shorter_than_their_shortest_match() -> None:
    import re

    from answer_audit.text.prefilters import least_width

    assert least_width(re.compile(r"(?<=x)ab?c")) == 2  # lookarounds span nothing
    assert least_width(re.compile(r"(?m)^\s*")) == 0
    assert least_width("not a compiled pattern") == 0  # unknown: never skipped
    # a flood of one-letter lines reads as before (the last line, a bare choice)
    assert v9("a\nb\nc\nd\n" * 500 + "b") == extract("a\nb\nc\nd\n" * 500 + "b", "choice/v8").value
