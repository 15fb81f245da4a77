"""The pieces number/v2 reads numbers with: LaTeX made plain, numerals and their readings under
both decimal conventions, a text's convention, number words, a statement's value; and
number/v1's `prepare`, whose offsets are built with NumPy (checked against the per-character
reference it replaced)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from answer_audit.text import numerals
from answer_audit.text.answer_statements import read_statement
from answer_audit.text.decimal_convention import Convention
from answer_audit.text.latex import NOT_PLAIN, plain_math
from answer_audit.text.number_reading import find_numerals, readings
from answer_audit.text.number_words import word_numbers
from answer_audit.text.numerals import _REWRITES, prepare
from answer_audit.text.offsets import OffsetMap, nfkc_lower_with_map


@pytest.mark.parametrize(
    ("latex", "plain"),
    [
        ("\\frac{3}{8}", "3/8"),
        ("\\dfrac{22}{7}", "22/7"),
        ("\\frac13", "1/3"),
        ("\\frac 2 5", "2/5"),
        ("-\\frac{1}{2}", "-1/2"),
        ("\\frac{-3}{4}", "-3/4"),
        ("2\\frac{1}{2}", "2 1/2"),
        ("0.\\overline{3}", "1/3"),
        ("1.\\overline{6}", "5/3"),
        ("\\frac{\\sqrt{3}}{2}", NOT_PLAIN),
        ("\\boxed{\\textbf{(227)}}", "(227)"),
        ("1{,}024", "1,024"),
        ("\\$1,\\!200", "$1,200"),
        ("4.2 \\times 10^{-5}", "4.2 × 10^{-5}"),
        ("\\left(\\frac{1}{2}\\right)", "(1/2)"),
        ("90^\\circ", "90°"),
        ("Ａｎｓ：４２", "Ans:42"),
        ("1\u200b000", "1000"),
    ],
)
def test_latex_and_typography_become_plain_math(latex: str, plain: str) -> None:
    assert plain_math(latex).text == plain


def test_plain_math_maps_offsets_back() -> None:
    mapped = plain_math("x = \\text{12} apples")
    start = mapped.text.index("12")
    assert mapped.span(start, start + 2) == (10, 12)


@pytest.mark.parametrize(
    ("body", "point", "comma", "bare"),
    [
        ("1234", "1234", "1234", False),
        ("2,500", "2500", "5/2", False),
        ("1.500", "3/2", "1500", False),
        ("1,234,567", "1234567", None, False),
        ("1.234.567", None, "1234567", False),
        ("1,50,000", "150000", None, False),
        ("1.234,5", None, "2469/2", False),
        ("1,234.5", "2469/2", None, False),
        ("0,75", None, "3/4", False),
        ("1,5", None, "3/2", True),
        ("1 500,50", None, "3001/2", False),
        ("2.5", "5/2", "5/2", False),
        ("1,2,3", None, None, False),
    ],
)
def test_readings_under_both_conventions(
    body: str, point: str | None, comma: str | None, bare: bool
) -> None:
    def exact(text: str | None) -> Fraction | None:
        return None if text is None else Fraction(text)

    assert readings(body) == (exact(point), exact(comma), bare)


def test_numerals_join_mixed_numbers_and_mark_values_that_are_not_plain() -> None:
    found = find_numerals("2½ and 3 3/4, not 3 5/4; 4√2 or 2π")
    assert [str(n.point) for n in found] == ["5/2", "15/4", "3", "5/4", "4", "2", "2"]
    assert [n.not_plain for n in found] == [False, False, False, False, True, True, True]
    assert find_numerals("x^2 and 711")[0].point == 711  # an exponent is not a number


@pytest.mark.parametrize(
    ("text", "hint", "numeral", "expected"),
    [
        ("The total is 2,500.", None, "2,500", "2500"),
        ("Die Antwort ist 2,500.", None, "2,500", None),
        ("Die Antwort ist 2,500.", True, "2,500", None),
        ("Es kostet 3,50 €, also 2,500 kg.", None, "2,500", "5/2"),
        ("Es kostet 3.25 €, also 2,500 kg.", None, "2,500", "2500"),
        ("Ответ: 1.500", None, "1.500", None),
        ("1.250 + 250 = 1.500, die Antwort ist 1.500", None, "1.500", "1500"),
        ("The answer is 1,5.", None, "1,5", None),
        ("Die Antwort ist 1,5.", None, "1,5", "3/2"),
    ],
)
def test_a_texts_convention_decides_what_it_can(
    text: str, hint: bool | None, numeral: str, expected: str | None
) -> None:
    found = next(n for n in find_numerals(text) if text[n.start : n.end] == numeral)
    value = Convention(text, decimal_comma=hint).value(found)
    assert value == (None if expected is None else Fraction(expected))


def test_number_words() -> None:
    found = [(int(v), text) for v, text in _words("twelve, forty-two and 一百二十; someone")]
    assert found == [(12, "twelve"), (42, "forty-two"), (120, "一百二十")]
    assert [v for v, _ in _words("two and a half, minus five, three hundred and five")] == [
        Fraction(5, 2),
        -5,
        305,
    ]


def _words(text: str) -> list[tuple[Fraction, str]]:
    return [(v, text[s:e]) for v, s, e in word_numbers(text)]


@pytest.mark.parametrize(
    ("statement", "pick", "expected", "rule"),
    [
        ("25 × 12 = 300 apples", "first", "300", None),
        ("3 boxes of 12 = 36, minus 9 = 27", "first", "27", None),
        ("1/2 of 36, or 18", "first", "18", None),
        ("16 cups, about 2 kg", "first", "16", None),
        ("12 or 15", "first", None, "several-values"),
        ("10–12 minutes", "first", None, "range"),
        ("3:45", "first", None, "clock-time"),
        ("2 × 3/4 cups", "first", None, "unevaluated-expression"),
        ("not 12 but 13", "first", "13", None),
        ("In total, 45 people came, in 3 buses", "last", "45", None),
        ("7 × 18 = $126", "last", "126", None),
        ("15 hours, or 900 minutes", "last", "15", None),
    ],
)
def test_a_statements_value(
    statement: str, pick: str, expected: str | None, rule: str | None
) -> None:
    reading = read_statement(statement, Convention(""), "first" if pick == "first" else "last")
    assert reading.value == (None if expected is None else Fraction(expected))
    assert reading.rule == rule


# ------------------------------------------------------------------- number/v1's prepare


def _reference_prepare(text: str) -> tuple[str, OffsetMap | None]:
    """`prepare` as number/v1 was released: offsets rebuilt character by character."""
    norm, origin = nfkc_lower_with_map(text)
    if not any(pattern.search(norm) for pattern, _ in _REWRITES):
        return norm, origin
    starts = list(range(len(norm)))
    ends = [i + 1 for i in starts]
    for pattern, repl in _REWRITES:
        pieces: list[str] = []
        new_starts: list[int] = []
        new_ends: list[int] = []
        last = 0
        for m in pattern.finditer(norm):
            pieces.append(norm[last : m.start()])
            new_starts += starts[last : m.start()]
            new_ends += ends[last : m.start()]
            out = repl(m)
            pieces.append(out)
            new_starts += [starts[m.start()]] * len(out)
            new_ends += [ends[m.end() - 1]] * len(out)
            last = m.end()
        pieces.append(norm[last:])
        norm = "".join(pieces)
        starts, ends = new_starts + starts[last:], new_ends + ends[last:]
    if origin is None:
        return norm, None
    spans = [origin.span(s, e) for s, e in zip(starts, ends, strict=True)]
    return norm, OffsetMap([a for a, _ in spans], [b for _, b in spans])


_PREPARE_PIECES = st.sampled_from(
    ["\\frac{1}{2}", "\\dfrac{3}{4}", "\\tfrac {5} {6}", "{,}", "\\,", "\\!", "\\ ", "⁄", "Ａ",
     "ﬁ", "½", "e\u0301", "1", "23", " ", "x", "\\frac{", "}", "{", ",", "İ", "\u00a0", "$"]
)  # fmt: skip


@given(st.lists(_PREPARE_PIECES, max_size=12).map("".join))
def test_prepare_maps_offsets_as_the_released_version_did(text: str) -> None:
    prepared = prepare(text)
    norm, origin = _reference_prepare(text)
    assert prepared.text == norm
    assert (prepared.origin is None) == (origin is None)
    for start in range(len(norm)):
        for end in range(start + 1, len(norm) + 1):
            assert prepared.span(start, end) == (
                None if origin is None else origin.span(start, end)
            )


_FLOOD_PIECES = st.sampled_from(
    ["12", "7", "1,234", "1,5", " ", "\n", ",", "$", "$ ", "%", " %", "3 × 10^8", "x", "e5",
     "-", ".", "/", "4/5", "1.5", "\t", "a", "é", "{", "^"]
)  # fmt: skip


@given(st.lists(_FLOOD_PIECES, max_size=40).map("".join))
def test_numbers_read_from_the_end_are_the_whole_text_scans(text: str) -> None:
    # the barriers (between digits too) let number/v1 start reading near the end of a flood
    whole = [m.span() for m in numerals._NUMBER.finditer(text)]
    assert [m.span() for m in numerals._matches_from_the_end(text)] == whole[::-1]


@given(
    st.lists(
        st.sampled_from(["\\boxed{", "\\boxed {", "\\boxed", "{", "}", "5", " ", "\\"]), max_size=20
    ).map("".join)
)
def test_the_last_box_is_the_last_of_all_boxes(text: str) -> None:
    boxes = list(numerals._BOXED.finditer(text))
    last = numerals._LAST_BOXED.match(text)
    assert (last.end() if last else None) == (boxes[-1].end() if boxes else None)
