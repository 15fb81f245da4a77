import pytest

from answer_audit import extract
from answer_audit.parsers import ChoicePreset, ChoiceStep
from choice_cases import SEED_EXAMPLES


@pytest.mark.parametrize(("text", "expected"), SEED_EXAMPLES)
def test_choice_v3_seed_examples(text: str, expected: str | None) -> None:
    assert extract(text, "choice/v3").value == expected


def test_choice_v3_rules_and_spans_point_at_the_token() -> None:
    text = "選択肢dは不適切である。\nしたがって、正解は b である。"
    e = extract(text, "choice/v3")
    assert e.rule == "correct-is-line"
    assert e.span is not None and text[e.span[0] : e.span[1]] == "b"
    full_width = "回答（1文字のみ）: ３"
    e = extract(full_width, "choice/v3")
    assert e.rule == "answer-line"
    assert e.span is not None and full_width[e.span[0] : e.span[1]] == "３"
    assert extract("よく分かりません。", "choice/v3").rule == "not-found"


def test_choice_v3_tail_single_char() -> None:
    text = "The options were weighed.\nFinal:\n  B  "
    e = extract(text, "choice/v3")
    assert (e.value, e.rule) == ("b", "tail-single-char")
    assert e.span is not None and text[e.span[0] : e.span[1]] == "B"
    # two different tokens on the tail line -> not a single repeated character
    assert extract("x\nc or d", "choice/v3").value is None
    # only the last five lines are considered
    assert extract("d\n" + "ない\n" * 5, "choice/v3").value is None


def test_choice_v3_last_answer_line_wins_and_last_token_in_it() -> None:
    assert extract("Answer: a\nthinking more\nAnswer: b", "choice/v3").value == "b"
    assert extract("answer: a or rather d", "choice/v3").value == "d"


def test_choice_v1_first_regex_then_last_char() -> None:
    assert extract("Answer: b\nAnswer: c", "choice/v1").value == "b"
    e = extract("the options... so maybe d then", "choice/v1")
    # scanning backwards past "then", the first a-d/1-4 character is the standalone "d"
    assert (e.value, e.rule) == ("d", "last-char")
    assert extract("回答：２", "choice/v1").value == "b"
    assert extract("xyz", "choice/v1").value is None


def test_choice_v2_digit_before_letter_in_answer_line() -> None:
    assert extract("Answer is b or 3", "choice/v2").value == "c"
    assert extract("explanation\nanswer: d", "choice/v2").value == "d"
    e = extract("no trigger\nsecond b\nthird", "choice/v2")
    assert (e.value, e.rule) == ("b", "last-lines")
    assert extract("only one 2 digit\n\n\nx\ny\nz", "choice/v2").rule == "whole-text"


def test_choice_set_is_a_parameter() -> None:
    assert extract("Answer: E", "choice/v3", choices="abcde").value == "e"
    # outside the choice set the answer line has no token; the frozen tail rule then reads
    # the "a" of "answer" -- a real pathology of choice/v3, pinned here on purpose
    assert extract("Answer: E", "choice/v3") == extract("Answer: E", "choice/v3", choices="abcd")
    assert extract("Answer: E", "choice/v3").value == "a"
    assert extract("Answer: 5", "choice/v3", choices="ABCDE").value == "e"
    assert extract("answer: j", "choice/v3", choices="abcdefghij").value == "j"


def test_user_defined_choice_preset_runs_on_the_same_engine() -> None:
    preset = ChoicePreset(
        "choice/final",
        (
            ChoiceStep(
                "trigger-lines", "final-line", triggers=("final",), patterns=(r"\b([{L}])\b",)
            ),
        ),
    )
    assert extract("final: c", preset).value == "c"
    assert extract("answer: c", preset).value is None
