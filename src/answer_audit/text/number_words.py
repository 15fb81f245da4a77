"""Numbers written as words: English cardinals (``twelve``, ``forty-two``, ``three hundred and
five``) and Chinese/Japanese numerals (``十八``, ``三十六``, ``两千零五``).

The number reader asks only where a statement holds no digits: ``The answer is twelve.``
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction

# English number words (one fact for every reader of them): zero to nineteen, then the tens
ENGLISH_UNITS = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
)
ENGLISH_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_SCALES = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9}
_WORD_VALUES = {
    **{w: i for i, w in enumerate(ENGLISH_UNITS)},
    **{w: 10 * (i + 2) for i, w in enumerate(ENGLISH_TENS)},
    "fourty": 40,
}
_WORD = "|".join(sorted([*_WORD_VALUES, *_SCALES], key=len, reverse=True))
# Words join with a space or a hyphen, and with "and" only after a scale ("three hundred and
# five"): "twelve, forty-two" and "twelve and forty" are two numbers.
_AFTER_SCALE = "".join(
    f"(?<={scale})" if i == 0 else f"|(?<={scale})" for i, scale in enumerate(_SCALES)
)
_ENGLISH = re.compile(
    rf"(?i)(?<![\w-])(?P<minus>minus |negative )?(?:{_WORD})"
    rf"(?:(?:[ -]|(?:{_AFTER_SCALE}),? and )(?:{_WORD}))*"
    r"(?P<half> and a (?:half|quarter))?(?![\w-])"
)
_CJK_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5}
_CJK_DIGITS.update({"六": 6, "七": 7, "八": 8, "九": 9})
_CJK_SMALL = {"十": 10, "百": 100, "千": 1000}
_CJK_LARGE = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8}
_CJK = re.compile("[零〇一二两兩三四五六七八九十百千万萬亿億]+")


def word_numbers(text: str) -> Iterator[tuple[Fraction, int, int]]:
    """Every number written in words in ``text``: (value, start, end), in reading order.

    >>> [int(v) for v, _, _ in word_numbers("forty-two, or 一百二十, not 'someone'")]
    [42, 120]
    """
    found: list[tuple[int, int, Fraction | None]] = [
        (m.start(), m.end(), _english(m)) for m in _ENGLISH.finditer(text)
    ]
    found += [(m.start(), m.end(), _chinese(m.group())) for m in _CJK.finditer(text)]
    for start, end, value in sorted(found):
        if value is not None:
            yield Fraction(value), start, end


def _english(m: re.Match[str]) -> Fraction | None:
    words = re.findall(r"[a-z]+", m.group().lower())
    if m.group("minus"):
        words = words[1:]
    extra = Fraction(0)
    if m.group("half"):
        extra = Fraction(1, 2) if words[-1] == "half" else Fraction(1, 4)
        words = words[:-3]
    total = current = 0
    for word in words:
        if word in ("and", "a"):
            continue
        if word in _SCALES:
            scale = _SCALES[word]
            if scale == 100:
                current = max(current, 1) * 100
            else:
                total += max(current, 1) * scale
                current = 0
        else:
            current += _WORD_VALUES[word]
    value = total + current + extra
    return -value if m.group("minus") else value


def _chinese(numeral: str) -> Fraction | None:
    if len(numeral) > 24:  # noise, not a number
        return None
    total = section = digit = 0
    for ch in numeral:
        if ch in _CJK_DIGITS:
            digit = _CJK_DIGITS[ch]
        elif ch in _CJK_SMALL:
            section += max(digit, 1) * _CJK_SMALL[ch]
            digit = 0
        else:
            total = (total + section + digit) * _CJK_LARGE[ch]
            section = digit = 0
    return Fraction(total + section + digit)


def cjk_numeral_value(numeral: str) -> Fraction | None:
    """The value of a Chinese/Japanese numeral written in characters (``三百四十`` -> 340), or
    None when it is not one.

    >>> cjk_numeral_value("两千零五"), cjk_numeral_value("abc")
    (Fraction(2005, 1), None)
    """
    return _chinese(numeral) if _CJK.fullmatch(numeral) else None
