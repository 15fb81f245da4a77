"""Numerals in a plain statement, read exactly, and the separator convention of a text.

A `Numeral` is one number as written (``1,234.5``, ``2½``, ``3 3/4``, ``⁵/₈``, ``3.0 × 10^8``,
``6.02e23``, ``2^{5}``, ``10³``, ``-$15``, ``45%``, ``১৫``) with its value under both decimal
conventions: `point` (``1,234.5``: comma groups, point decimal) and `comma` (``1.234,5``).
Space, thin-space, apostrophe and underscore grouping (``12 345``, ``1'250``, ``1_000``) and
Indian grouping (``1,50,000``) read the same under both. Where the two readings differ
(``2,500``: 2500 or 2.5) the text's `answer_audit.text.decimal_convention.Convention`
decides.

The text is expected plain (see `answer_audit.text.latex.plain_math`): ASCII spaces and minus,
LaTeX fractions already written ``a/b``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from answer_audit.text.latex import NOT_PLAIN

_SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉"
_VULGAR = "½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅐⅛⅜⅝⅞⅑⅒↉"
# Not inside a Latin, Greek or Cyrillic word, nor inside another number (711 holds no 11); CJK,
# Thai or Indic letters may touch a number (36个, ৭২টি).
_NOT_AFTER = rf"0-9A-Za-z_\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff.,/{_SUPERSCRIPTS}"
_NUMERAL = re.compile(
    rf"""(?=[-+.\d$€£¥₹₩₽¢USRACHNZ{_VULGAR}{_SUPERSCRIPTS}])(?<![{_NOT_AFTER}])(?<!\d)(?<!\^)(?<!\^\{{)
    (?P<sign>[-+])?(?P<cur>(?:US|R|A|C|HK|NZ|S)?[$€£¥₹₩₽¢]\s?)?(?P<sign2>-)?
    (?:
        (?P<sup>[{_SUPERSCRIPTS}]+)/(?P<sub>[{_SUBSCRIPTS}]+)
      | (?P<vulgar>[{_VULGAR}])
      | (?P<body>(?:\d{{1,3}}(?:[ '’](?=\d{{3}}(?!\d))\d{{3}})+|\d+)(?:[.,_](?=\d)\d+)*|\.(?=\d)\d+)
        (?:
            (?P<mixed>\ ?[{_VULGAR}])
          | /(?P<den>\d+(?:\.\d+)?)(?![\d/])
        )?
    )
    (?:
        \s*[×x*·]\s*10\s*(?:\^\s*\{{?\s*(?P<e1>[-+]?\d+)(?:\s*\}})?|(?P<e2>⁻?[{_SUPERSCRIPTS}]+))
      | [eE](?P<e3>[-+]?\d+)(?![A-Za-z\d])
      | \^\s*\{{?\s*(?P<power>[-+]?\d+)(?:\s*\}})?
      | (?P<power2>⁻?[{_SUPERSCRIPTS}]+)(?!/)
    )?
    (?P<percent>\ ?%)?""",
    re.VERBOSE,
)
_MAX_DIGITS = 1000  # beyond this a "number" is noise, and exact arithmetic on it slow
_MAX_EXPONENT = 400
_VULGAR_VALUES = {
    c: Fraction(*map(int, unicodedata.normalize("NFKC", c).split("\u2044"))) for c in _VULGAR
}
_WESTERN_GROUPS = re.compile(r"\d{1,3}(?:,\d{3})+")
_INDIAN_GROUPS = re.compile(r"\d{1,2}(?:,\d{2})+,\d{3}")
_POINT_GROUPS = re.compile(r"\d{1,3}(?:\.\d{3})+")


class Numeral:
    """One number as written: where it is and its value under each decimal convention.

    ``point`` is the value when points are decimals and commas group, ``comma`` the value the
    other way round; None where that reading is not a number. ``bare_comma``: written ``a,b``
    with ``b`` not three digits (``1,5``: a decimal comma, or the list "1, 5"). ``not_plain``:
    part of a value that is not a plain number (``3√2``, ``2π``). The values are read when
    first asked for: a statement's reader needs one or two of its numbers' values.
    """

    __slots__ = ("_match", "_readings", "_whole", "end", "not_plain", "start")
    start: int
    end: int
    not_plain: bool

    def __init__(
        self,
        match: re.Match[str],
        not_plain: bool = False,
        readings: tuple[Fraction | None, Fraction | None, bool] | None = None,
        whole: Numeral | None = None,
    ) -> None:
        self._match = match
        self._readings = readings
        self._whole = whole  # the integer part of a mixed number (3 in 3 3/4)
        self.start = match.start() if whole is None else whole.start
        self.end = match.end()
        self.not_plain = not_plain

    @property
    def point(self) -> Fraction | None:
        return self._read()[0]

    @property
    def comma(self) -> Fraction | None:
        return self._read()[1]

    @property
    def bare_comma(self) -> bool:
        return self._read()[2]

    def _read(self) -> tuple[Fraction | None, Fraction | None, bool]:
        if self._readings is None:
            point, comma, bare = _value(self._match)
            if bare and _is_money(self._match):
                bare = False  # 3,50 € or R$ 25,50: cents, not a list
            whole = None if self._whole is None else self._whole.point
            if whole is not None and point is not None:
                point = comma = whole + point
            self._readings = (point, comma, bare)
        return self._readings

    @property
    def integer_literal(self) -> bool:
        """Digits only, no sign or separator (the whole part of ``3 3/4``, ``$2\\frac{1}{2}``)."""
        m = self._match
        body = m.group("body")
        if self._whole is not None or body is None or not body.isdecimal():
            return False
        return m.end() == m.end("body") and not m.group("sign")

    @property
    def proper_fraction(self) -> bool:
        """``a/b`` with ``a < b`` and nothing else (the fraction of ``3 3/4``)."""
        m = self._match
        body, den = m.group("body", "den")
        if den is None or not body.isdecimal() or not den.isdecimal() or m.end() != m.end("den"):
            return False
        return (
            self._whole is None
            and 0 < int(body) < int(den)
            and m.group("sign", "cur") == (None, None)
        )


def find_numerals(text: str) -> list[Numeral]:
    """Every numeral of a plain text, in reading order, mixed numbers joined (``3 3/4``).

    >>> [str(n.point) for n in find_numerals("He paid $1,234.50 for 2½ kg, not 3 3/4.")]
    ['2469/2', '5/2', '15/4']
    """
    found: list[Numeral] = []
    # a statement with no symbol of a non-plain value needs no check per numeral
    symbols = _NOT_PLAIN_SYMBOL.search(text) is not None
    for m in _NUMERAL.finditer(text):
        start, end = m.span()
        whole = m.group()
        not_plain = symbols and _touches_not_plain(text, start, end)
        if whole.isdecimal() and len(whole) <= _MAX_DIGITS:  # the common case: a plain integer
            value = _integer(whole)
            found.append(Numeral(m, not_plain, (value, value, False)))
            continue
        numeral = Numeral(m, not_plain)
        if found and _joins_mixed(found[-1], numeral, text):
            numeral = Numeral(m, not_plain, whole=found.pop())
        found.append(numeral)
    return found


_NOT_PLAIN_SYMBOL = re.compile(f"[π√∞±{NOT_PLAIN}]|pi|sqrt")


@lru_cache(maxsize=4096)
def _integer(digits: str) -> Fraction:
    """Digits as a Fraction; cached: statements repeat the same small integers."""
    return Fraction(int(digits))


def _value(m: re.Match[str]) -> tuple[Fraction | None, Fraction | None, bool]:
    sup, sub, vulgar, body, mixed, den = m.group("sup", "sub", "vulgar", "body", "mixed", "den")
    bare = False
    if sup is not None:
        point = comma = _ratio(
            unicodedata.normalize("NFKC", sup), unicodedata.normalize("NFKC", sub)
        )
    elif vulgar is not None:
        point = comma = _VULGAR_VALUES[vulgar]
    elif den is not None and body.isdecimal() and den.isdecimal():  # 3/4: one exact division
        point = comma = _ratio(body, den)
    else:
        point, comma, bare = readings(body)
        if mixed is not None:
            point, comma = _both(lambda v: v + _VULGAR_VALUES[mixed.strip()], point, comma)
        elif den is not None:
            denominator = _decimal(den)
            if not denominator:
                return None, None, False
            point, comma = _both(lambda v: v / denominator, point, comma)
    if m.group("e1", "e2", "e3", "power", "power2") != (None, None, None, None, None):
        scale = _scale(m)
        if scale is not None:
            point, comma = _both(scale, point, comma)
    if m.group("sign") == "-" or m.group("sign2") == "-":
        point, comma = _both(lambda v: -v, point, comma)
    return point, comma, bare


def _both(
    change: Callable[[Fraction], Fraction | None], point: Fraction | None, comma: Fraction | None
) -> tuple[Fraction | None, Fraction | None]:
    """``change`` applied to both readings (once when they are the same value)."""
    if point is comma:
        point = comma = None if point is None else change(point)
        return point, comma
    return (None if point is None else change(point)), (None if comma is None else change(comma))


def readings(body: str) -> tuple[Fraction | None, Fraction | None, bool]:
    """The value of digits with separators under the point and the comma convention, and
    whether it is a bare ``a,b`` (a decimal comma, or a list).

    >>> readings("2,500"), readings("1.234,5")[1], readings("1,50,000")[0]
    ((Fraction(2500, 1), Fraction(5, 2), False), Fraction(2469, 2), Fraction(150000, 1))
    """
    grouped = any(c in body for c in " '’_")
    plain = body.replace(" ", "").replace("'", "").replace("’", "").replace("_", "")
    points, commas = plain.count("."), plain.count(",")
    if not points and not commas:
        value = _decimal(plain)
        return value, value, False
    if plain.startswith("."):
        value = _decimal(plain) if not commas else None
        return value, value, False
    whole, _, tail = plain.partition("," if commas and not points else ".")
    if points + commas == 1:
        decimal = _decimal(f"{whole}.{tail}")
        if grouped or len(tail) != 3 or whole == "0" or len(whole) > 3:
            if commas:  # 1,5 / 0,75 / 1 500,50: a decimal comma (or a list, when bare)
                return None, decimal, not grouped and whole != "0"
            return decimal, decimal, False
        grouping = _decimal(whole + tail)  # 2,500 or 1.500: grouping or decimal
        return (grouping, decimal, False) if commas else (decimal, grouping, False)
    return _point_reading(plain), _comma_reading(plain), False


def _point_reading(plain: str) -> Fraction | None:
    whole, _, decimals = plain.partition(".")
    if "." in decimals or "," in decimals:
        return None
    if not (_WESTERN_GROUPS.fullmatch(whole) or _INDIAN_GROUPS.fullmatch(whole)):
        return None
    return _decimal(whole.replace(",", "") + ("." + decimals if decimals else ""))


def _comma_reading(plain: str) -> Fraction | None:
    whole, _, decimals = plain.partition(",")
    if "." in decimals or "," in decimals or not _POINT_GROUPS.fullmatch(whole):
        return None
    return _decimal(whole.replace(".", "") + ("." + decimals if decimals else ""))


def _decimal(digits: str) -> Fraction | None:
    if digits.isdecimal() and len(digits) <= _MAX_DIGITS:
        return _integer(digits)
    whole, _, decimals = digits.partition(".")
    if len(whole) + len(decimals) > _MAX_DIGITS:
        return None
    # int() reads every script's digits (১৫, ๘, ४२); Fraction from ints, not from a string
    return Fraction(
        int(whole or "0") * 10 ** len(decimals) + int(decimals or "0"), 10 ** len(decimals)
    )


def _ratio(numerator: str, denominator: str) -> Fraction | None:
    if len(numerator) + len(denominator) > _MAX_DIGITS or int(denominator) == 0:
        return None
    return Fraction(int(numerator), int(denominator))


def _scale(m: re.Match[str]) -> _Scale | None:
    e1, e2, e3, power, power2 = m.group("e1", "e2", "e3", "power", "power2")
    ten = e1 or e3 or (e2 and unicodedata.normalize("NFKC", e2))
    if ten:
        exponent = int(ten.replace("⁻", "-").replace("−", "-")[:6])
        return None if abs(exponent) > _MAX_EXPONENT else _Scale(Fraction(10) ** exponent, 0)
    raised = power or (power2 and unicodedata.normalize("NFKC", power2))
    if raised:
        exponent = int(raised.replace("⁻", "-").replace("−", "-")[:6])
        return _Scale(Fraction(1), exponent)
    return None


@dataclass(frozen=True, slots=True)
class _Scale:
    """Times ``factor``, then raised to ``power`` (when not 0)."""

    factor: Fraction
    power: int

    def __call__(self, value: Fraction) -> Fraction | None:
        if not self.power:
            return value * self.factor
        size = max(len(str(value.numerator)), len(str(value.denominator)))
        if abs(self.power) > _MAX_EXPONENT or size * abs(self.power) > _MAX_DIGITS:
            return None
        if value == 0 and self.power < 0:
            return None
        return value**self.power


def _touches_not_plain(text: str, start: int, end: int) -> bool:
    after = text[end : end + 2].lstrip(" ")
    if after[:1] in ("π", "√", "∞", NOT_PLAIN) or after.startswith(("pi", "sqrt")):
        return True
    before = text[max(0, start - 3) : start].rstrip(" {(")
    return before[-1:] in ("√", "±", NOT_PLAIN)


_CURRENCY_AFTER = re.compile(
    r"\s?(?:€|₽|zł|kr|kč|lei|eur|euros?|rub|chf|brl)(?![^\W\d_])", re.IGNORECASE
)


def _is_money(m: re.Match[str]) -> bool:
    cents = m.group("body").rpartition(",")[2]
    money = m.group("cur") is not None or _CURRENCY_AFTER.match(m.string, m.end()) is not None
    return money and len(cents) == 2


def _joins_mixed(whole: Numeral, fraction: Numeral, text: str) -> bool:
    """``3 3/4``: an integer, one space, a proper fraction (``2\\frac{1}{2}`` reads so too)."""
    return (
        whole.integer_literal
        and fraction.proper_fraction
        and text[whole.end : fraction.start] in (" ", "  ")
    )
