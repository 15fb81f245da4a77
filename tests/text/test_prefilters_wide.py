"""`first_chars(..., wide=True)`: a non-ASCII literal under IGNORECASE stands for every
non-ASCII character and the ASCII letters `re` matches to it, so a guard built from it (number/v2's
question lines, `number_region._after_newline`) finds what the pattern finds."""

from __future__ import annotations

import re
import string

from hypothesis import example, given, settings
from hypothesis import strategies as st

from answer_audit.parsers.number_region import _after_newline
from answer_audit.parsers.presets.number import NUMBER_V2_REGION
from answer_audit.text.prefilters import _CASE_EXTRAS, first_chars

# Letters whose case folding crosses ASCII (the Kelvin sign, long s, dotted and dotless i),
# other scripts' cases, and the question words of number/v2 in several spellings.
_PIECES = st.sampled_from(
    ["\n", " ", "\t", ">", "*", "#", "_", "q", "Q", "question", "QUESTION", "Question 2:",
     "q1)", "вопрос", "ВОПРОС", "Вопрос:", "ᲀопрос", "câu hỏi", "CÂU HỎI:", "domanda.", "Frage:",
     "问题：", "問題:", "질문:", "السؤال:", "প্রশ্ন:", "problem", "PROBLEM 3.", "задача)", "ЗАДАЧА:",
     "K", "\u212a", "\u017f", "\u0130", "\u0131", "s", "k", "i", "I", "x", "7", ":", ".", ")"]
)  # fmt: skip


def _matches(
    pattern: re.Pattern[str], text: str
) -> list[tuple[tuple[int, int], tuple[str | None, ...]]]:
    return [(m.span(), m.groups()) for m in pattern.finditer(text)]


@settings(max_examples=2000)
@given(st.lists(_PIECES, max_size=20).map("".join))
@example("\n\u212aK question\n\u0131")
@example("\nВОПРОС: 1\nᲀопрос: 2")
def test_a_wide_guard_finds_what_the_question_lines_find(text: str) -> None:
    for source in NUMBER_V2_REGION.question_patterns:
        guarded = re.compile(_after_newline(source), re.MULTILINE)
        plain = re.compile("\n" + source[1:], re.MULTILINE)
        assert guarded.pattern != plain.pattern  # a guard was built
        assert _matches(guarded, text) == _matches(plain, text)


@settings(max_examples=300)
@given(st.integers(0x80, 0x10FFFF).filter(lambda c: not 0xD800 <= c <= 0xDFFF))
@example(0x212A)
@example(0x17F)
@example(0x130)
@example(0x131)
def test_ignore_case_folding_between_ascii_and_other_letters_is_symmetric(code: int) -> None:
    other = chr(code)
    for letter in string.ascii_letters:
        forward = re.match(f"(?i){letter}", other) is not None
        backward = re.match(f"(?i){re.escape(other)}", letter) is not None
        assert forward == backward
        assert backward == (code in _CASE_EXTRAS.get(letter.lower(), ()))


def test_a_wide_literal_keeps_its_ascii_letters() -> None:
    assert first_chars("(?i:\u212aelvin)") is None
    wide = first_chars("(?i:\u212aelvin)", wide=True)
    assert wide == [(ord("K"), ord("K")), (ord("k"), ord("k")), (0x80, 0x10FFFF)]
    assert first_chars("(?i:вопрос)", wide=True) == [(0x80, 0x10FFFF)]
    assert first_chars("(?i:вопрос|q)", wide=True) == [(ord("Q"), ord("Q")), (ord("q"), ord("q")),
                                                       (0x80, 0x10FFFF)]  # fmt: skip
