"""How a text writes decimals: ``2,5`` is two and a half in a German text, ``2,500`` two
thousand five hundred in an English one, and in a German text it is what the text's other
numbers or its arithmetic (``1.250 + 250 = 1.500``) say; what nothing decides has no value.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cached_property
from itertools import islice

from answer_audit.text.number_reading import Numeral, readings
from answer_audit.text.vocabulary import DECIMAL_COMMA_WORDS, DECIMAL_POINT_WORDS


class Convention:
    """How one text writes decimals, decided lazily: only a numeral whose readings differ asks.

    The language comes from the answer prefix the reader matched (``decimal_comma`` True for
    ``Antwort:``, False for ``Answer:``, None when unknown) or, when unknown, from the text's
    words. English-like texts (and CJK, Thai, Indic ones) group with commas and use a decimal
    point; in German, French, Spanish, Russian ... texts ``2,5`` is a decimal, while ``2,500``
    and ``1.500`` need the text's other numbers or its arithmetic to decide.
    """

    def __init__(
        self,
        text: str,
        start: int = 0,
        end: int | None = None,
        decimal_comma: bool | None = None,
        padded_sums: bool = False,
    ) -> None:
        self._source = (text, start, len(text) if end is None else end)
        self._hint = decimal_comma
        self._padded_sums = padded_sums  # number/v3: see `_arithmetic`

    @cached_property
    def _text(self) -> str:
        """The text the convention is read from: all of an ordinary output; of a longer one
        (a flood), its start and its end, so the reading stays bounded."""
        text, start, end = self._source
        if end - start <= 2 * _EVIDENCE_REACH:
            return text[start:end]
        return text[start : start + _EVIDENCE_REACH] + "\n" + text[end - _EVIDENCE_REACH : end]

    @cached_property
    def decimal_comma_language(self) -> bool:
        """The text's language writes decimal commas."""
        if self._hint is not None:
            return self._hint
        comma_words = {w.lower() for w in _COMMA_WORDS.findall(self._text)}
        point_words = {w.lower() for w in _POINT_WORDS.findall(self._text)}
        return len(comma_words) > len(point_words) or (
            not point_words and _CYRILLIC.search(self._text) is not None
        )

    @cached_property
    def evidence(self) -> str | None:
        """``point`` or ``comma`` when the text's other numbers or its arithmetic use one
        convention only; None when they say nothing or disagree."""
        point = _POINT_EVIDENCE.search(self._text) is not None
        comma = _COMMA_EVIDENCE.search(self._text) is not None
        if self.decimal_comma_language and _BARE_COMMA_DECIMAL.search(self._text):
            comma = True
        if point != comma:
            return "point" if point else "comma"
        return _arithmetic(self._text, self._padded_sums)

    def value(self, numeral: Numeral) -> Fraction | None:
        """The numeral's value in this text, or None when the convention cannot be decided."""
        point, comma = numeral.point, numeral.comma
        if point is comma or comma is None or point == comma:
            return point
        if point is None:
            if not numeral.bare_comma or self.decimal_comma_language:
                return comma
            return comma if self.evidence == "comma" else None
        if not self.decimal_comma_language:
            return point  # 2,500 and 1.500 read the English way in an English text
        decided = self.evidence
        return point if decided == "point" else comma if decided == "comma" else None


_COMMA_WORDS = re.compile(r"(?i)\b(?:" + "|".join(DECIMAL_COMMA_WORDS) + r")\b")
_POINT_WORDS = re.compile(r"(?i)\b(?:" + "|".join(DECIMAL_POINT_WORDS) + r")\b")
_CYRILLIC = re.compile("[\u0400-\u04ff]")
_EDGE = r"(?<![\d.,])"
_END = r"(?![\d.,]*\d)"
_POINT_EVIDENCE = re.compile(
    rf"{_EDGE}\d+\.(?:\d{{1,2}}|\d{{4,}}){_END}|{_EDGE}\d{{1,3}}(?:,\d{{3}}){{2,}}{_END}"
    rf"|{_EDGE}\d{{1,3}}(?:,\d{{3}})+\.\d+{_END}|{_EDGE}0\.\d+{_END}"
)
_COMMA_EVIDENCE = re.compile(
    rf"{_EDGE}0,\d+{_END}|{_EDGE}\d{{1,3}}(?:\.\d{{3}}){{2,}}{_END}"
    rf"|{_EDGE}\d{{1,3}}(?:\.\d{{3}})+,\d+{_END}|\d \d{{3}},\d+{_END}"
)
_BARE_COMMA_DECIMAL = re.compile(rf"{_EDGE}\d+,(?:\d{{1,2}}|\d{{4,}}){_END}")
_OPERAND = r"(\d{1,3}(?:[.,]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)"
_EQUATION = re.compile(rf"{_EDGE}{_OPERAND}\s*([-+×*·x/÷])\s*{_OPERAND}\s*=\s*{_OPERAND}{_END}")
# number/v3's sums: an operand may carry a currency (`Rp 12.500 + Rp 7.500 = Rp 20.000`)
_MONEY = r"(?:(?:Rp|R\$|RM|Rs|TL|₺|[$€£¥₹₩₽])\.?\s?)?"
_AFTER = r"(?:\s?(?:TL|₺|€|zł|kr|₫|đ)(?![^\W\d_]))?"  # `2.500 TL + 1.500 TL = 4.000 TL`
_MONEY_OPERAND = rf"{_MONEY}{_OPERAND}{_AFTER}"
_MONEY_EQUATION = re.compile(
    rf"{_EDGE}{_MONEY_OPERAND}\s*([-+×*·x/÷])\s*{_MONEY_OPERAND}\s*=\s*{_MONEY}{_OPERAND}{_END}"
)
_PADDED = re.compile(r"\d*[.,]\d\d0")  # 12.500, 20.000: three decimals ending in 0
_MAX_EQUATIONS = 32  # the first ones decide; bounded on a flood of sums
_EVIDENCE_REACH = 8000  # characters read at each end of a longer text


def _arithmetic(text: str, padded_sums: bool = False) -> str | None:
    """``point`` or ``comma`` when the text's sums hold under one convention only.

    With ``padded_sums`` (number/v3) a sum may name a currency, and one that holds either way
    decides when every operand with a separator has three decimals ending in 0 under one
    reading (``12.500 + 7.500 = 20.000``): nobody pads 20 as 20.000, so that separator groups.
    """
    holds = {"point": 0, "comma": 0}
    equations = _MONEY_EQUATION if padded_sums else _EQUATION
    for m in islice(equations.finditer(text), _MAX_EQUATIONS):
        a, op, b, c = m.groups()
        parsed = [readings(x)[:2] for x in (a, b, c)]
        if all(point == comma for point, comma in parsed):
            continue  # 3 + 4 = 7 reads the same either way: it decides nothing
        held = [
            convention
            for index, convention in enumerate(("point", "comma"))
            if _all_hold([pair[index] for pair in parsed], op)
        ]
        if padded_sums and len(held) == 2:
            held = [padded] if (padded := _padding(a, b, c)) else held
        for convention in held:
            holds[convention] += 1
    if holds["point"] != holds["comma"] and 0 in holds.values():
        return "point" if holds["point"] else "comma"
    return None


def _padding(*operands: str) -> str | None:
    """The convention in which the separator of ``operands`` groups, when every operand that
    has one has a single separator followed by three digits ending in 0, and all use the same
    separator; None otherwise."""
    separated = [x for x in operands if "." in x or "," in x]
    separators = {c for x in separated for c in x if c in ".,"}
    if len(separators) != 1 or not all(_PADDED.fullmatch(x) for x in separated):
        return None
    return "comma" if separators == {"."} else "point"


def _all_hold(values: list[Fraction | None], op: str) -> bool:
    x, y, z = values
    return x is not None and y is not None and z is not None and _holds(x, op, y, z)


def _holds(a: Fraction, op: str, b: Fraction, c: Fraction) -> bool:
    if op == "+":
        return a + b == c
    if op == "-":
        return a - b == c
    if op in "×*·x":
        return a * b == c
    return b != 0 and a / b == c
