"""number/v3: what it reads beyond number/v2 (harmony channels, scale words, CJK fraction words,
spaced fractions, quoted JSON values, padded sums, no-answer forms), each class with negatives,
and number/v2 unchanged on the same texts."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from answer_audit import extract
from answer_audit.text.numerals import parse_number


def v3(text: str) -> str | None:
    value = extract(text, "number/v3").value
    assert value is None or isinstance(value, str)
    return value


def v2(text: str) -> str | None:
    value = extract(text, "number/v2").value
    assert value is None or isinstance(value, str)
    return value


# (text, number/v3's value, number/v2's value): v2's column pins that the older preset is
# frozen on the same texts.
CASES = [
    # --- scale words multiply, a scale named as a unit does not
    ("In 2023 net income rose to €1.75 billion.", "1750000000", "1.75"),
    ("The answer is 2.4 million.", "2400000", "2.4"),
    ("So the budget is 12 thousand dollars.", "12000", "12"),
    ("The property sold for ₹4.5 lakh.", "450000", "4.5"),
    ("Total funding: 3 crore rupees.", "30000000", "3"),
    ("Der Umsatz betrug 3,2 Millionen Euro.\nAntwort: 3,2 Millionen", "3200000", "3.2"),
    ("答：该县有4.2万户。", "42000", "4.2"),
    ("答案是1亿3000万。", "130000000", "1"),
    ("答え：1万2500円", "12500", "1"),
    ("답: 3만 5천원", "35000", "3"),
    ("Answer: 845 (in thousands)", "845", "845"),
    ("Revenue, in millions: 1,234.\nAnswer: 1,234", "1234", "1234"),
    ("He is a millionaire with 7 houses.", "7", "7"),
    ("答：每袋重5千克。", "5", "5"),
    ("Answer: between 2 and 3 million", None, None),
    # --- fraction words and spaced fractions
    ("剩下的部分是整体的五分之二。答案是五分之二。", "0.4", "5"),
    ("残りは全体の三分の一です。答え：三分の一", "1/3", "3"),
    ("答：占全班的百分之二十五。", "25", "100"),
    ("Final answer: 5 / 6 of the cake", "5/6", None),
    ("Answer: 3 / 4", "0.75", None),
    ("Since 56 / 8 = 7, each box holds 7.\nAnswer: 7", "7", "7"),
    ("Answer: 12 / 4 = 3", "3", "3"),
    ("Answer: 3 / 4 or 4 / 5", None, None),
    # --- quoted JSON values keep their grouping
    ('{"answer": "45,300", "unit": "km"}', "45300", "45"),
    ('{"final_answer": "1,234.5"}', "1234.5", "1"),
    ('{"answer": "7"}', "7", "7"),
    ('{"answer": 12, "note": "3,400 were tested"}', "12", "12"),
    # --- padded sums decide point grouping in a decimal-comma text
    ("Totalnya Rp 35.000 + Rp 15.000 = Rp 50.000.\nJawaban: 50.000", "50000", None),
    ("Toplam 2.500 TL + 1.500 TL = 4.000 TL.\nCevap: 4.000", "4000", None),
    ("Gesamt: 1.250 + 0.750 = 2.000\nAntwort: 2.000", "2", "2"),  # 0.750 writes a point decimal
    ("Gesamt: 12.500 + 7.500 = 25.000\nAntwort: 25.000", None, None),  # a wrong sum: undecided
    # --- two values joined by a CJK "or"
    ("答：12个或15个", None, "12"),
    ("정답: 8개 또는 9개", None, "8"),
    ("答え：12個です", "12", "12"),
    # --- a statement that the value cannot be found
    ("We know the 2019 price but not 2018's, so the change can't be determined.", None, "2019"),
    ("The ticket price is not given; there is not enough information.", None, None),
    ("Without the 2020 figure, it cannot be calculated.", None, "2020"),
    ("We cannot compute it directly, so we estimate: about 40.", "40", "40"),
    ("由于缺少2019年的数据，无法求出增长率。", None, "2019"),
    # --- a program never run
    ("def solution():\n    price = 12\n    count = 3\n    return price * count", None, "3"),
    ("```python\nchairs = 36\nprint(chairs)\n```", None, "36"),
    ("```python\nprint(12 * 3)\n```\n```output\n36\n```\nSo there are 36 chairs.", "36", "36"),
    ("def f(x):\n    return x + 1\n\nf(4) is 5, so the answer is 5.", "5", "5"),
    # --- harmony
    (
        "<|channel|>analysis<|message|>12 + 9 = 21, answer 21.<|end|><|start|>assistant"
        "<|channel|>final<|message|>She has 22 stickers.<|return|>",
        "22",
        "22",
    ),
    ("analysisThe sum is 40. Answer 40.assistantfinalThe total is **41**.", "41", "40"),
    ("<|channel|>analysis<|message|>Each row has 6, so 6 × 7 = 42. Now reply", None, "42"),
    ("analysisLet me compute 5 × 9 = 45.", None, "45"),
    ("Analysis: 5 × 9 = 45. So the answer is 45.", "45", "45"),
]


@pytest.mark.parametrize(("text", "expected", "before"), CASES)
def test_number_v3_and_v2_on_each_class(
    text: str, expected: str | None, before: str | None
) -> None:
    assert v3(text) == expected
    assert v2(text) == before


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("<|channel|>analysis<|message|>so 7", "no-final-channel"),
        ("def solution():\n    return 3 + 4", "unrun-program"),
        ("The 2017 value is missing, so it cannot be determined.", "not-determinable"),
        ("答え：3個または4個", "several-values"),
    ],
)
def test_the_rule_says_why_there_is_no_answer(text: str, rule: str) -> None:
    assert extract(text, "number/v3").rule == rule


def test_spans_index_the_raw_text() -> None:
    text = "<|channel|>analysis<|message|>5<|end|><|channel|>final<|message|>Answer: 3.5万人"
    found = extract(text, "number/v3")
    assert found.value == "35000" and found.span is not None
    assert text[found.span[0] : found.span[1]] == "3.5万"


_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "lakh": 10**5}


@given(
    st.integers(1, 999),
    st.integers(0, 99),
    st.sampled_from(sorted(_SCALES)),
    st.sampled_from(["The answer is {}.", "Answer: ${}", "So it comes to {} in total."]),
)
def test_a_scale_word_multiplies_any_number(whole: int, cents: int, word: str, shape: str) -> None:
    written = f"{whole}.{cents:02d}" if cents else str(whole)
    value = v3(shape.format(f"{written} {word}"))
    assert value is not None
    assert parse_number(value) == Fraction(written) * _SCALES[word]


@given(st.integers(1, 99), st.integers(1, 9999), st.sampled_from(["円", "人", "元", ""]))
def test_cjk_man_compounds(man: int, rest: int, unit: str) -> None:
    assert v3(f"答え：{man}万{rest}{unit}") == str(man * 10**4 + rest)


@given(st.integers(1, 12), st.integers(1, 12))
def test_a_spaced_fraction_is_its_value(top: int, bottom: int) -> None:
    value = v3(f"Answer: {top} / {bottom} of the pie")
    assert value is not None and parse_number(value) == Fraction(top, bottom)
