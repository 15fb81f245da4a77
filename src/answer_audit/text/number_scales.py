"""Scale words and fraction words in an answer statement (number/v3).

A scale word right after a number multiplies it, like a number word: ``$3.2 million`` is
3200000, ``1.5 lakh`` 150000. In Chinese, Japanese and Korean the scale is a character and
the parts run on: ``3.5万`` is 35000, ``2万5千`` 25000, ``1万2500`` 12500, ``1億2000万``
120000000. A fraction written in words, ``四分之三`` (Chinese) or ``三分の二`` (Japanese), is
``3/4`` and ``2/3``; ``百分之二十`` is 20% (read 20, like ``20%``).

`plain_scales` rewrites the character forms as plain numerals before the numerals are found
(offsets mapped back); `scale_after` gives the factor of a word that follows a numeral. A scale
named as the unit of a table or an answer (``(in millions)``) is not right after a number and
is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

from answer_audit.text.latex import Mapped, Piece, rewrite
from answer_audit.text.number_words import cjk_numeral_value
from answer_audit.text.numerals import format_number

_WORD_SCALES = {
    "thousand": 10**3,
    "million": 10**6,
    "billion": 10**9,
    "trillion": 10**12,
    "lakh": 10**5,
    "lakhs": 10**5,
    "crore": 10**7,
    "crores": 10**7,
    "bn": 10**9,
    "millions": 10**6,  # French, and a careless English plural
    "millionen": 10**6,
    "milliarde": 10**9,
    "milliarden": 10**9,
    "milliard": 10**9,
    "milliards": 10**9,
    "mio": 10**6,
    "mrd": 10**9,
    "millón": 10**6,
    "millones": 10**6,
    "milhão": 10**6,
    "milhões": 10**6,
    "миллион": 10**6,
    "миллиона": 10**6,
    "миллионов": 10**6,
    "миллиард": 10**9,
    "миллиарда": 10**9,
    "миллиардов": 10**9,
    "juta": 10**6,
    "ribu": 10**3,
    "triệu": 10**6,
}
_SCALE_WORD = re.compile(
    r"[ \u00a0]?(?P<word>"
    + "|".join(sorted(map(re.escape, _WORD_SCALES), key=len, reverse=True))
    + r")(?![^\W\d_])\.?",
    re.IGNORECASE,
)


def scale_after(text: str, end: int) -> int | None:
    """The factor of a scale word right after a numeral ending at ``end`` (None: no scale).

    >>> scale_after("$3.2 million in 2019", 4), scale_after("-1,234 (in millions)", 6)
    (1000000, None)
    """
    m = _SCALE_WORD.match(text, end)
    return None if m is None else _WORD_SCALES[m.group("word").lower()]


# A CJK scale character after digits; 千 is not the 千 of 千克 (kilogram), 千米 (kilometre) ...
_BIG = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8, "兆": 10**12, "만": 10**4, "억": 10**8}
_SMALL = {"千": 1000, "천": 1000}
_SCALE = r"(?:[千천]?[万萬亿億兆만억]|千(?![克米瓦卡焦帕字])|천)"
_CJK_SCALED = re.compile(
    rf"(?<![\d.,])(?P<pairs>(?:\d+(?:\.\d+)?{_SCALE} ?)+)(?P<rest>\d+(?![\d.,]))?"
)
_PAIR = re.compile(rf"(\d+(?:\.\d+)?)({_SCALE})")
_CJK_NUMERAL = "[零〇一二两兩三四五六七八九十百千]+"
_FRACTION_WORD = re.compile(
    rf"(?P<den>{_CJK_NUMERAL}|\d+)分[之の](?P<num>{_CJK_NUMERAL}|\d+(?:\.\d+)?)"
)


def plain_scales(mapped: Mapped) -> Mapped:
    """``3.5万`` written ``35000`` and ``四分之三`` written ``3/4`` (offsets mapped).

    >>> plain_scales(Mapped("答え：2万5千円、四分之三")).text
    '答え：25000円、3/4'
    """
    if not mapped.text.isascii():
        mapped = rewrite(mapped, _CJK_SCALED, _scaled)
        mapped = rewrite(mapped, _FRACTION_WORD, _fraction)
    return mapped


def _scaled(m: re.Match[str]) -> Sequence[Piece]:
    total = section = Fraction(0)
    for number, scale in _PAIR.findall(m.group("pairs")):
        factor = 1
        for ch in scale:
            factor *= _BIG.get(ch) or _SMALL[ch]
        if any(ch in _BIG for ch in scale):
            total += (section + Fraction(number)) * factor
            section = Fraction(0)
        else:
            section += Fraction(number) * factor
    value = total + section + int(m.group("rest") or 0)
    if value.denominator != 1:
        return [0]  # 1.23456万: not a whole number, left as written
    return [format_number(value)]


def _fraction(m: re.Match[str]) -> Sequence[Piece]:
    den, num = (_part(m.group(g)) for g in ("den", "num"))
    if den is None or num is None or den == 0:
        return [0]
    if den == 100:
        return [f"{format_number(num)}%"]  # 百分之二十: a percentage, read like 20%
    return [f"{format_number(num)}/{format_number(den)}"]


def _part(text: str) -> Fraction | None:
    return Fraction(text) if text[0].isdigit() else cjk_numeral_value(text)
