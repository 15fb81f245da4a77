"""The number presets: number/v1 and the numeric matcher (every case the issue lists, with spans
into the raw text), then number/v2 (the value of the last answer statement)."""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from answer_audit import PresetError, PresetSet, extract, is_correct, normalize
from answer_audit.parsers.number_region import find_region
from answer_audit.parsers.presets.number import NUMBER_V2, NUMBER_V2_REGION
from answer_audit.text import numerals as numbers
from answer_audit.text.numerals import find_numbers, format_number, parse_number, prepare
from strategies import CUT_PIECES

# =================================================== number/v1 and the numeric matcher


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


# =========================================================================== number/v2
# The value of the last answer statement, one test per convention it reads, and properties that
# hold for every text (tests/labels/README.md, "Numbers", has the rules).


def number_v2(text: str) -> tuple[str | None, str]:
    found = extract(text, "number/v2")
    assert found.value is None or isinstance(found.value, str)
    return found.value, found.rule


def value_v2(text: str) -> Fraction | None:
    found = extract(text, "number/v2").value
    return None if found is None else Fraction(str(found))


def shown_v2(text: str) -> str | None:
    span = extract(text, "number/v2").span
    return None if span is None else text[span[0] : span[1]]


def check(text: str, expected: str | None) -> None:
    assert value_v2(text) == (None if expected is None else Fraction(expected)), text


# ------------------------------------------------------------------- answer prefixes


@pytest.mark.parametrize(
    ("text", "expected", "rule"),
    [
        ("#### 42", "42", "hash-answer"),
        ("So the total is $\\boxed{42}$.", "42", "boxed"),
        ("The answer is 42.", "42", "answer-line"),
        ("Final Answer: The final answer is $42$. I hope it is correct.", "42", "answer-line"),
        ("**Final answer:** 42", "42", "answer-line"),
        ("Answer:\n\n42", "42", "answer-line"),
        ("Answer:\n1. 42", "42", "answer-line"),
        ("The answer to the question is 42.", "42", "answer-line"),
        ("<answer>42</answer>", "42", "answer-tag"),
        ('{"final_answer": "42"}', "42", "answer-tag"),
        ("```\nanswer = 42\n```", "42", "answer-line"),
        ("Die Antwort lautet 42.", "42", "answer-line"),
        ("La réponse est 42.", "42", "answer-line"),
        ("La respuesta es 42.", "42", "answer-line"),
        ("Ответ: 42.", "42", "answer-line"),
        ("答案是 42。", "42", "answer-line"),
        ("答えは42個です。", "42", "answer-line"),
        ("정답은 42입니다.", "42", "answer-line"),
        ("Jibu ni 42.", "42", "answer-line"),
        ("উত্তর হল ৪২।", "42", "answer-line"),
        ("కాబట్టి సమాధానం 42.", "42", "answer-line"),
        ("ดังนั้น คำตอบคือ 42 บาท", "42", "answer-line"),
    ],
)
def test_answer_prefixes_in_every_form_and_language(text: str, expected: str, rule: str) -> None:
    assert number_v2(text) == (expected, rule)


def test_the_last_prefix_wins_whatever_its_kind() -> None:
    # a later explicit final answer beats an earlier box (number/v1 ranks the box first)
    assert number_v2("Initially I got $\\boxed{12}$, but 27 - 12 = 15.\n\nFinal answer: 15") == (
        "15",
        "answer-line",
    )
    assert number_v2("The answer is 10.\n\nWait, it asks for ways: $\\boxed{120}$") == (
        "120",
        "boxed",
    )
    assert number_v2("Answer: 12\n\nAnswer: 16")[0] == "16"  # a correction on its own line
    assert number_v2("The answer is 18.\nThe answer is 18.\nThe answer is 18.")[0] == "18"


def test_a_prefix_that_names_the_answer_or_echoes_the_prompt_gives_none() -> None:
    assert number_v2("To find the answer: 6 × 12 = 72. Then 72 + 8 = 80.") == (
        "80",
        "last-statement",
    )
    echo = "Answer: Let's think step by step.\nShe has 3 bags of 4 apples, so 3 × 4 = 12 apples."
    assert number_v2(echo) == ("12", "last-statement")
    assert number_v2("Answer: She has 3 bags of 4 apples. 3 × 4 = 12. So 12 apples.")[0] == "12"
    assert number_v2("Answer: $ANSWER") == (None, "answer-not-a-number")
    assert number_v2("Final Answer: The final answer is $\\text{(C)}$. I hope it is correct.") == (
        None,
        "answer-not-a-number",
    )


@pytest.mark.parametrize("text", ["The final answer is", "####", "Answer:", "\\boxed{}"])
def test_a_prefix_with_nothing_after_it_has_no_answer(text: str) -> None:
    assert number_v2("First 12 × 15 = 180.\n" + text) == (None, "empty-answer")


# ------------------------------------------------------------------- the statement's value


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Answer: 25 × 12 = 300", "300"),
        ("Answer: 48 / 6 = 8 hours", "8"),
        ("The answer is $15 \\times 4 = 60$.", "60"),
        ("Answer: 2 × (10 + 5) = 30 marbles", "30"),
        ("Answer: x = 7", "7"),
        ("Answer: 12 = 3 × 4", "12"),
        ("The answer is: 3 boxes of 12 = 36 pencils, minus 9 = 27 pencils.", "27"),
        ("So, the final answer is 1/2 of 36, or 18.", "18"),
        ("The answer is 20% of 500, which is 100.", "100"),
        ("Answer: 16 − 3 − 4 = 9 eggs, 9 × 2 = 18", "18"),
        ("The answer is 21, because 35 − 14 = 21.", "21"),
        ("The result is $\\boxed{2^{5}} = 32$.", "32"),
    ],
)
def test_an_equation_answers_with_its_result(text: str, expected: str) -> None:
    check(text, expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The answer is 75 km/h.", "75"),
        ("Answer: 16 cups, about 2 kg", "16"),
        ("She needs 16 cups of flour, about 2 kg.", "16"),
        ("The trip takes 2.5 hours (150 minutes).", "2.5"),
        ("The answer is 21. He started with 35 cards.", "21"),
        ("So he keeps 21 cards. He started with 35 cards.", "21"),
        (
            "Therefore 42 cookies are left.\n\nNote: If he had made 10 batches, he would have 90.",
            "42",
        ),
        ("Mark runs 45 km per week. In 4 weeks that would be 180 km, but it asks for one.", "45"),
        ("In total, 45 people came, in 3 buses.", "45"),
        ("So she has 3 + 4 = 7 cats and 2 dogs, 9 pets in total.", "9"),
        ("The total is **$52**, which includes a $6 tip.", "52"),
        ("So the total cost is $45. (Tax would add another $3.)", "45"),
        ("18\n\nExplanation: 16 − 3 − 4 = 9 eggs, sold at $2 each.", "18"),
    ],
)
def test_trailing_quantities_and_asides_do_not_change_the_answer(text: str, expected: str) -> None:
    check(text, expected)


# ------------------------------------------------------------------- notation


@pytest.mark.parametrize(
    ("text", "expected", "span_text"),
    [
        ("Answer: 3/4.", "3/4", "3/4"),  # a fraction before sentence punctuation
        ("The answer is $\\frac{5}{8}$.", "5/8", "\\frac{5}{8}"),
        ("The answer is \\frac{5}{8}.", "5/8", "\\frac{5}{8}"),
        ("Final Answer: The final answer is $\\frac13$.", "1/3", "\\frac13"),
        ("Answer: $\\frac 2 5$", "2/5", "\\frac 2 5"),
        ("Answer: $\\cfrac{9}{10}$", "9/10", "\\cfrac{9}{10}"),
        ("Answer: $\\dfrac{-7}{3}$", "-7/3", "\\dfrac{-7}{3}"),
        ("Answer: $2\\frac{1}{2}$", "5/2", "2\\frac{1}{2}"),
        ("The answer is 2½ cups.", "5/2", "2½"),
        ("The answer is 2 ½ cups.", "5/2", "2 ½"),
        ("Each piece is 3 3/4 inches long.", "15/4", "3 3/4"),
        ("The answer is −1½.", "-3/2", "−1½"),
        ("Answer: ⅝ of the pizza", "5/8", "⅝"),
        ("The answer is ⁵⁄₈.", "5/8", "⁵⁄₈"),
        ("Answer: $0.\\overline{3}$", "1/3", "0.\\overline{3}"),
        ("Answer: $10^{-2}$", "1/100", "10^{-2}"),
        ("Answer: 2·10³", "2000", "2·10³"),
        ("The speed is about 3.0 × 10^8 m/s.", "300000000", "3.0 × 10^8"),
        ("Answer: 6.02e23", "602000000000000000000000", "6.02e23"),
        ("The answer is twenty-four.", "24", "twenty-four"),
        ("答案是十八。", "18", "十八"),
        ("所以一共需要36个。", "36", "36"),
        ("The count is $18\\text{ apples}$.", "18", "18"),
        ("Answer: ​42", "42", "42"),  # a zero-width space before it
        ("The answer is 1\u200b000.", "1000", "1\u200b000"),
        ("Answer: ４２", "42", "４２"),
        ("উত্তর: ৭২", "72", "৭২"),
        ("The loss was 20 dollars, so the change is minus 20.", "-20", "20"),
        ("The answer is 007.", "7", "007"),
    ],
)
def test_number_v2_forms(text: str, expected: str, span_text: str) -> None:
    check(text, expected)
    assert shown_v2(text) == span_text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The total is 1,234,567.", "1234567"),
        ("The total is 12 345 items.", "12345"),
        ("The total is 12\u2009345 items.", "12345"),
        ("The total is 12\u202f345 items.", "12345"),
        ("Der Preis beträgt CHF 1'250.", "1250"),
        ("The house costs ₹1,50,000.", "150000"),
        ("The answer is 1_000_000.", "1000000"),
        ("Final Answer: The final answer is $1{,}024$.", "1024"),
        ("The final answer is $\\$1,\\!200$.", "1200"),
        ("Die Antwort lautet 1.234.567.", "1234567"),
        ("Die Antwort lautet 4,5.", "4.5"),
        ("Ответ: 2,75", "2.75"),
        ("Réponse : 1 500,50 €", "1500.5"),
        ("Respuesta: 1.250,5", "1250.5"),
        ("Das Ergebnis ist 3,5 kg.", "3.5"),
        ("The answer is 0,75.", "0.75"),  # a leading zero: a decimal comma in any text
        ("It costs 3,50 €.", "3.5"),  # cents
        (
            "Er verdient 1.250 Euro und 250 Euro Bonus, also 1.250 + 250 = 1.500. Antwort: 1.500",
            "1500",
        ),
        ("Sie spart 2,50 € pro Tag. Antwort: 1.500", "1500"),  # its other numbers decide
        ("The answer is 2,500.", "2500"),  # English groups with commas
        ("The answer is 1.500.", "1.5"),  # and writes decimal points
    ],
)
def test_grouping_and_decimal_separators_follow_the_text(text: str, expected: str) -> None:
    check(text, expected)


# ------------------------------------------------------------------- no answer, and why


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("Antwort: 1.500", "ambiguous-separator"),  # 1500 in German, 1.5 in English
        ("Die Antwort lautet 2,500.", "ambiguous-separator"),
        ("The answer is 1,5.", "ambiguous-separator"),  # a decimal comma, or the list 1, 5
        ("The answer could be 12 or 15 depending on the teacher.", "several-values"),
        ("It is either 24 or 36; I'm not sure which.", "several-values"),
        ("Answer: x = 2 or x = 3", "several-values"),
        ("Final Answer: The final answer is $5, 7$.", "several-values"),
        ("The answer is \\boxed{3}, \\boxed{5}, \\boxed{7}.", "several-values"),
        ("Final Answer: The final answer is $(2, -3)$.", "several-values"),
        ("Answer: [2, 5)", "several-values"),
        ("The answer is 10–12 minutes.", "range"),
        ("It takes between 10 and 12 minutes.", "several-values"),
        ("The train arrives at 3:45 PM.", "clock-time"),
        ("Answer: 5 hours and 30 minutes", "not-a-plain-number"),
        ("Answer: $3\\sqrt{2}$", "not-a-plain-number"),
        ("The area is $\\boxed{16\\pi}$.", "not-a-plain-number"),
        ("Answer: 2π", "not-a-plain-number"),
        ("Final Answer: The final answer is $\\frac{\\sqrt{3}}{2}$.", "answer-not-a-number"),
        ("The answer is 3.\nThe answer is 4.\nThe answer is 5.\nThe answer is 6.", "cycle"),
        ("3\n4\n5\n6", "cycle"),
        ("The answer is 24. Or maybe 36?", "hedged"),
        ("Maybe 12? Or 15.", "hedged"),
        ("The answer depends on whether he buys pairs. If so, $64; otherwise $60.", "hedged"),
        ("Let me compute step by step. 12 × 15 = 180. Then 180 ÷ ", "cut-off"),
        ("She buys 7 packs of 8 stickers: 7*8 = <<7*8=56>>", "cut-off"),
        ("I cannot solve this problem.", "not-found"),
        ("<think>\n3 × 5 = 15, then", "unclosed-think"),
        (
            "USER: Please show your work.\nASSISTANT: 3 × 4 = 12, so the answer is 12.",
            "opens-with-turn",
        ),
    ],
)
def test_what_is_ambiguous_has_no_answer_and_a_rule_that_says_why(text: str, rule: str) -> None:
    assert number_v2(text) == (None, rule)


# ------------------------------------------------------------------- the answer region


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The answer is 18.\nUSER: What if $3 each?\nASSISTANT: Then $27.", "18"),
        ("So the total is $64.\n\nHuman: Double it.\n\nAssistant: $128.", "64"),
        ("The final answer is 35.<|im_end|>\n<|im_start|>user\nAnd 45?", "35"),
        ("#### 210<|eot_id|><|start_header_id|>user<|end_header_id|>\n\n#### 56", "210"),
        ("The answer is 9.\n\nQuestion: A store has 40 shirts.\nAnswer: 25", "9"),
        ("The answer is 48.\n\nQ: 6 birds, 3 fly away?\nA: The answer is 3.", "48"),
        ("Antwort: 8\n\nFrage: Wie viele?\nAntwort: 5", "8"),
        ("Respuesta: 15\n\nPregunta: ¿Cuántos?\nRespuesta: 3", "15"),
        ("解答：12\n\n問題：次の計算をしなさい。\n解答：7", "12"),
        ("Total = 5 + 7 = 12 apples.\n\nStudent: Is it 13?\nTeacher: No, 12.", "12"),
        (
            "Final Answer: The final answer is $\\frac{1}{3}$.\n\nProblem:\nFind x.\n\nFinal Answer: 4",
            "1/3",
        ),
        ("<think>12 * 13 = 156</think>\n\nThe answer is $\\boxed{150}$.", "150"),
    ],
)
def test_only_the_answer_before_an_invented_turn_counts(text: str, expected: str) -> None:
    check(text, expected)


# ------------------------------------------------------------------- properties

_TURNS = [
    "\nUSER: and the next one?\nASSISTANT: The answer is {n}.",
    "\n\nHuman: thanks\n\nAssistant: #### {n}",
    "<|im_end|>\n<|im_start|>user\nNext?<|im_end|>\n<|im_start|>assistant\n\\boxed{{{n}}}",
    "\n\nQuestion: What is {n} + 1?\nAnswer: {n}",
    "\n\nQ: another?\nA: The answer is {n}.",
    "\n\nFrage: Und dann?\nAntwort: {n}",
    "\n\nProblem:\nCompute {n}.\nFinal Answer: The final answer is ${n}$.",
]
_ANSWERS = [
    "The answer is {n}.",
    "#### {n}",
    "So the total is $\\boxed{{{n}}}$.",
    "She has {n} apples left.",
    "Final Answer: The final answer is ${n}$. I hope it is correct.",
]


@given(
    st.sampled_from(_ANSWERS),
    st.integers(0, 10**6),
    st.sampled_from(_TURNS),
    st.integers(0, 10**6),
)
@example("The answer is {n}.", 7, _TURNS[0], 8)
def test_an_appended_invented_turn_never_changes_the_answer(
    answer: str, n: int, turn: str, other: int
) -> None:
    text = answer.format(n=n)
    assert value_v2(text + turn.format(n=other)) == value_v2(text) == n


_GROUPINGS = [",", " ", "\u2009", "\u202f", "\u00a0", "'", "_"]


@given(st.integers(1000, 10**15), st.sampled_from(_GROUPINGS), st.sampled_from(_ANSWERS))
@example(1500, ",", "The answer is {n}.")
def test_grouping_separators_inserted_consistently_do_not_change_the_value(
    n: int, separator: str, answer: str
) -> None:
    grouped = f"{n:,}".replace(",", separator)
    assert value_v2(answer.format(n=grouped)) == n


@given(st.integers(1, 10**6), st.integers(1, 99))
def test_a_decimal_comma_in_a_decimal_comma_language_is_a_decimal(whole: int, cents: int) -> None:
    text = f"Die Antwort lautet {whole:,}".replace(",", ".") + f",{cents:02d}."
    assert value_v2(text) == whole + Fraction(cents, 100)


@given(
    st.integers(0, 999),
    st.integers(0, 999),
    st.sampled_from(["{a} or {b}", "{a}–{b}", "between {a} and {b}", "{a}, {b}", "({a}, {b})"]),
    st.sampled_from(["The answer is {v}.", "Answer: {v}", "So it takes {v} minutes."]),
)
def test_two_values_a_range_or_a_tuple_give_no_answer(
    a: int, b: int, form: str, sentence: str
) -> None:
    if a == b:
        return
    assert number_v2(sentence.format(v=form.format(a=a, b=b)))[0] is None


_V2_PIECES = st.sampled_from(
    ["12", "3/4", "1,500", "2,5", " ", "\n", ".", "Answer: ", "The answer is ", "\\boxed{", "}",
     "#### ", "\\frac{1}{2}", "½", "×", "=", " or ", "$", "%", "−", "<think>", "</think>",
     "USER: ", "Question: ", "二十", "答案是", "Antwort: ", "π", "\u200b"]
)  # fmt: skip


@given(st.lists(_V2_PIECES | CUT_PIECES, max_size=14).map("".join))
def test_never_raises_and_the_span_shows_the_value(text: str) -> None:
    found = extract(text, "number/v2")
    if found.value is not None:
        assert isinstance(found.value, str)
        Fraction(found.value)
        assert found.span is not None
        start, end = found.span
        assert 0 <= start < end <= len(text)


@given(st.lists(CUT_PIECES | _V2_PIECES, max_size=16).map("".join))
@example("Question: what is 2+2?\nAnswer: 4\nQuestion: next")
@example("Let's look at your question:\nQ: why 1\nq: why 2")
@example("ok\n  **User:** hi")
@example("5\n\nProblem: next\nx")
def test_the_compiled_region_is_the_engines_region(text: str) -> None:
    reference = replace(NUMBER_V2_REGION, read_open_reasoning=False).extract(text)
    expected = reference.rule if reference.span is None else reference.span
    assert find_region(NUMBER_V2_REGION, text) == expected


def test_number_v2_pairs_with_the_numeric_matcher() -> None:
    text = "Total: 720 + 135 = $855\n\nThe answer is 1/2 of 1710, or 855."
    found = extract(text, NUMBER_V2).value
    assert found == "855"
    assert is_correct(str(found), "855.00", "numeric") is True
    assert NUMBER_V2.family == "freeform"
    assert any("several-values" in line for line in NUMBER_V2.describe())
