"""number/v1 and the numeric matcher: every case the issue lists, with spans into the raw text."""

import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from answer_audit import PresetError, PresetSet, extract, is_correct, normalize
from answer_audit.text import numerals as numbers
from answer_audit.text.numerals import find_numbers, format_number, parse_number, prepare


def number(text: str) -> tuple[str | None, str]:
    e = extract(text, "number/v1")
    assert e.value is None or isinstance(e.value, str)
    return e.value, e.rule


def shown(text: str) -> str:
    e = extract(text, "number/v1")
    assert e.span is not None
    return text[e.span[0] : e.span[1]]


# ------------------------------------------------------------------- priorities


def test_the_final_number_of_the_answer_region() -> None:
    assert number("First 3 apples, then 4 more, so 7 apples.") == ("7", "last-number")
    assert number("<think>maybe 5</think> The result is 29.00 apples.") == ("29", "last-number")
    assert number("It is 12.\nUSER: and 13?\nASSISTANT: 13") == ("12", "last-number")
    assert number("no digits here") == (None, "not-found")
    assert number("<think>so far 12") == (None, "unclosed-think")
    assert number("   ") == (None, "empty")


def test_boxed_then_hashes_then_answer_line_take_priority() -> None:
    assert number("Answer: 5\n#### 6\n\\boxed{7}\nthen 8") == ("7", "boxed")
    assert number("Answer: 5\n#### 6\nthen 8") == ("6", "hash-answer")
    assert number("Answer: 5, I checked it 3 times") == ("5", "answer-line")
    assert number("Answer: 5\nAnswer: 9") == ("9", "answer-line")  # the last one wins
    assert number("\\boxed{\\text{no number}}") == (None, "boxed-no-number")
    assert number("So the answer is $\\boxed{\\frac{3}{4}}$.") == ("0.75", "boxed")
    assert number("回答：42") == ("42", "answer-line")


# ----------------------------------------------------------------- number forms


@pytest.mark.parametrize(
    ("text", "value", "span_text"),
    [
        ("The total is 1,234,567 people.", "1234567", "1,234,567"),
        ("It costs $1,234.50.", "1234.5", "$1,234.50"),
        ("It costs €20 or £15.", "15", "£15"),
        ("It grew by 45%.", "45", "45%"),
        ("The change was -3 degrees.", "-3", "-3"),
        ("The change was −3 degrees.", "-3", "−3"),
        ("The change was +3 degrees.", "3", "+3"),
        ("Pi is about 3.14159.", "3.14159", "3.14159"),
        ("Answer: 29.00", "29", "29.00"),
        ("Answer: 3/4", "0.75", "3/4"),
        ("Answer: 1/3", "1/3", "1/3"),
        ("Answer: \\frac{2}{5}", "0.4", "\\frac{2}{5}"),
        ("Answer: .5", "0.5", ".5"),
        ("c is 3 × 10^8 m/s", "300000000", "3 × 10^8"),
        ("c is 3e8 m/s", "300000000", "3e8"),
        ("Answer: １２３", "123", "１２３"),
        ("Answer: 1\\,000", "1000", "1\\,000"),
    ],
)
def test_number_forms(text: str, value: str, span_text: str) -> None:
    assert number(text)[0] == value
    assert shown(text) == span_text


def test_numbers_never_start_or_end_inside_another() -> None:
    assert [n.canonical for n in find_numbers(prepare("711 and 11, 5-3, x2 and 1.2.3").text)] == [
        "711",
        "11",
        "5",
        "3",
    ]
    assert parse_number("3 apples and 4 pears") is None
    # too long or too large to be an answer: skipped, never a crash or a hang
    assert number("1" * 5000) == (None, "not-found")
    assert number("Answer: 3e999999999") == (None, "not-found")
    assert format_number(Fraction(-1, 8)) == "-0.125"


# ------------------------------------------------------------------ the matcher


@pytest.mark.parametrize(
    ("prediction", "truth", "expected"),
    [
        ("The answer is 711.", "11", False),
        ("The answer is 29.00", "29", True),
        ("The answer is -3", "3", False),
        ("The answer is 3", "-3", False),
        ("The total is $1,234.50.", "1234.5", True),
        ("About 45%.", "45", True),
        ("Answer: 3/4", "0.75", True),
        ("\\boxed{12}", "12", True),
        ("#### 1,000", "1000", True),
        ("It is 7, no wait, 8.", "8", True),
        ("It is 8, no wait, 7.", "8", False),
        ("No number at all.", "8", False),
        (None, "8", False),
    ],
)
def test_numeric_matcher(prediction: str | None, truth: str, expected: bool) -> None:
    assert is_correct(prediction, truth, "numeric") is expected


def test_numeric_matcher_relative_tolerance() -> None:
    assert is_correct("It is 9.81", "9.8", "numeric") is False
    assert is_correct("It is 9.81", "9.8", "numeric", rel_tol=0.005) is True
    assert is_correct("It is 10", "9.8", "numeric", rel_tol=0.005) is False
    assert is_correct("It is 8", "no number here", "numeric") is None  # no truth to judge
    assert normalize("So the total is $1,234.50.", "numeric") == "1234.5"


def test_number_v1_and_numeric_compose() -> None:
    text = "<think>2 + 2 = 4, then times 3</think>\nThe final answer is **12** apples."
    value = extract(text, "number/v1").value
    assert value == "12"
    assert is_correct(str(value), "12.0", "numeric") is True


def test_a_user_number_preset(tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    path.write_text(
        '[preset."number/v2-ish"]\nfamily = "number"\nregion = "freeform/v1"\n',
        encoding="utf-8",
    )
    presets = PresetSet.from_file(path)
    # freeform/v1 keeps the reasoning, so its last number wins
    assert extract("x = 3</think>4 apples", "number/v2-ish", presets=presets).value == "4"
    path.write_text('[preset."n"]\nfamily = "number"\nregion = "choice/v4"\n', encoding="utf-8")
    with pytest.raises(PresetError, match=r"preset\.n\.region"):
        PresetSet.from_file(path)


def test_a_last_number_without_value_falls_back_to_the_one_before() -> None:
    # "3/0" is a number the regex finds but no value: the last number with a value wins
    assert extract("It is 7, not 3/0", "number/v1").value == "7"
    assert extract("It is 7, not 3/0", "number/v1").rule == "last-number"
    assert extract("1/0", "number/v1").rule == "not-found"


# The number's alphabet, barrier characters of each kind, and letters that are barriers only
# away from a digit: what the backward window search has to get right.
_PIECES = st.sampled_from([*"15", *" ,./\n×x*^{}-$%e_;yEé٣", "\\times", "3e5", "1,234"])


@settings(max_examples=500)
@given(st.lists(_PIECES, max_size=40), st.integers(min_value=1, max_value=6))
@example(["a ", "3e5", "y b"], 2)  # an exponent before a letter: that letter is no barrier
@example(["y $", " ", "5"], 1)  # a space after a currency sign is inside the number
@example(["y 5", " ", "%"], 1)  # so is a space before a percent sign
def test_numbers_read_from_the_end_are_the_whole_text_matches(
    pieces: list[str], window: int
) -> None:
    text = "".join(pieces)
    whole = [m.span() for m in numbers._NUMBER.finditer(text)]
    saved = numbers._WINDOW
    numbers._WINDOW = window  # tiny windows: many barriers and window doublings per text
    try:
        backwards = [m.span() for m in numbers._matches_from_the_end(text)]
    finally:
        numbers._WINDOW = saved
    assert backwards == whole[::-1]


def test_the_last_number_of_many_lines_is_read_from_the_end() -> None:
    text = "ab cd 12\n" * 5000 + "so 42 apples; no more\n" + "x y\n" * 300
    assert extract(text, "number/v1").value == "42"
    # an exponent right before a letter is not a number with an exponent; the window cut
    # there must not make it one
    assert extract("a 3e5y b", "number/v1").value == "3"


# Letters that case-fold specially (dotless i, long s, Kelvin sign) and the triggers' openings.
_TRIGGER_PIECES = st.sampled_from(
    [*"aAfFrRjJsSkKıİſ回答え정답 :：", "\u212a", "is", "answer", "final answer", "réponse", "jibu"]
)


@settings(max_examples=300)
@given(st.lists(_TRIGGER_PIECES, max_size=30))
def test_the_answer_trigger_guard_finds_what_the_triggers_find(pieces: list[str]) -> None:
    text = "".join(pieces)
    guard = numbers._ANSWER.pattern.split(")(?:", 1)[0][len("(?i)") :] + ")"
    unguarded = re.compile(numbers._ANSWER.pattern.replace(guard, "", 1))
    assert unguarded.pattern.startswith("(?i)(?:final answer|")
    assert [m.span() for m in numbers._ANSWER.finditer(text)] == [
        m.span() for m in unguarded.finditer(text)
    ]
