"""Units the ``v4`` matcher reads after a number, so one quantity in other units is the same.

Each unit belongs to a dimension (temperature, speed, length, mass, acceleration, ratio) and is
a scale and an offset from that dimension's base unit: ``32 °F`` is ``0 °C``, ``1,235 km/h`` is
``343 m/s``, ``13,171 miles`` is ``21,196 km``. Units are read in the lowercase v4 canonical
text (`answer_audit.matching.v4_normalizer`), where v3 has already written some phrases as
symbols (``meters per second squared`` -> ``m/s2``, ``degrees celsius`` -> ``°c``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class Unit:
    """One unit: ``base = value * scale + offset`` in its dimension's base unit."""

    symbol: str
    dimension: str
    scale: Fraction
    offset: Fraction = Fraction(0)

    def to_base(self, value: Fraction) -> Fraction:
        return value * self.scale + self.offset

    def from_base(self, value: Fraction) -> Fraction:
        return (value - self.offset) / self.scale


_MILE = Fraction("1609.344")
_FOOT = Fraction("0.3048")
_HOUR = 3600
_KELVIN_0C = Fraction("273.15")
_W = r"(?![a-z])"  # a unit word or symbol ends where the letters end

# (symbol, dimension, scale, offset, pattern), longest spellings first where one is a prefix of
# another ("km/h" before "km", "m/s2" before "m/s" before "m").
_UNITS: tuple[tuple[str, str, Fraction, Fraction, str], ...] = (
    ("m/s2", "acceleration", Fraction(1), Fraction(0), r"m/s2|m/s\^2|m/s/s"),
    ("ft/s2", "acceleration", _FOOT, Fraction(0), r"ft/s2|ft/s\^2|feet per second squared"),
    ("km/s", "speed", Fraction(1000), Fraction(0), rf"km/s{_W}|kms?/sec(?:ond)?{_W}|kps{_W}"),
    ("km/h", "speed", Fraction(1000, _HOUR), Fraction(0),
     rf"km/h(?:r|our)?{_W}|kmh{_W}|kph{_W}|kmph{_W}|kilomet(?:er|re)s? (?:per|an|a) hour"
     rf"|km (?:per|an|a) hour"),
    ("mph", "speed", _MILE / _HOUR, Fraction(0),
     rf"mph{_W}|mi/h{_W}|miles? (?:per|an|a) hour"),
    ("mi/s", "speed", _MILE, Fraction(0), rf"mi/s{_W}|miles? (?:per|a) second"),
    ("m/s", "speed", Fraction(1), Fraction(0), rf"m/s{_W}"),
    ("kn", "speed", Fraction(1852, _HOUR), Fraction(0), rf"knots?{_W}|kn{_W}"),
    ("°c", "temperature", Fraction(1), _KELVIN_0C,
     rf"°c{_W}|° c{_W}|degrees? c(?:elsius)?{_W}|celsius|centigrade"),
    ("°f", "temperature", Fraction(5, 9), _KELVIN_0C - Fraction(32 * 5, 9),
     rf"°f{_W}|° f{_W}|degrees? f(?:ahrenheit)?{_W}|fahrenheit"),
    ("k", "temperature", Fraction(1), Fraction(0), rf"kelvins?{_W}|°k{_W}|k{_W}"),
    ("km", "length", Fraction(1000), Fraction(0), rf"km{_W}|kilomet(?:er|re)s?{_W}|kms{_W}"),
    ("cm", "length", Fraction(1, 100), Fraction(0), rf"cm{_W}|centimet(?:er|re)s?{_W}"),
    ("mm", "length", Fraction(1, 1000), Fraction(0), rf"mm{_W}|millimet(?:er|re)s?{_W}"),
    ("mi", "length", _MILE, Fraction(0), rf"mi{_W}|miles?{_W}"),
    ("ft", "length", _FOOT, Fraction(0), rf"ft{_W}|feet{_W}|foot{_W}"),
    ("m", "length", Fraction(1), Fraction(0), rf"m{_W}(?!/)|met(?:er|re)s?{_W}"),
    ("kg", "mass", Fraction(1), Fraction(0), rf"kg{_W}|kilo(?:gram)?s?{_W}"),
    ("g", "mass", Fraction(1, 1000), Fraction(0), rf"g{_W}|grams?{_W}"),
    ("lb", "mass", Fraction("0.45359237"), Fraction(0), rf"lbs?{_W}|pounds?{_W}"),
    ("%", "ratio", Fraction(1), Fraction(0), rf"%|per ?cent{_W}"),
)  # fmt: skip
UNITS = {symbol: Unit(symbol, dim, scale, offset) for symbol, dim, scale, offset, _ in _UNITS}
# One alternation, a named group per unit: a number's unit is read with one `match`.
_UNIT_AFTER_NUMBER = re.compile(
    r"[ \t\u00a0-]?(?:"
    + "|".join(f"(?P<u{i}>{pattern})" for i, (*_, pattern) in enumerate(_UNITS))
    + ")"
)
_SYMBOL_OF_GROUP = {f"u{i}": symbol for i, (symbol, *_) in enumerate(_UNITS)}


def unit_after(text: str, end: int) -> tuple[Unit, int] | None:
    """The unit written right after a number that ends at ``end`` (one space or hyphen may stand
    between), and where the unit ends; None when no known unit follows.

    >>> unit, _ = unit_after("it is 32 °f today", 8); unit.symbol
    '°f'
    """
    m = _UNIT_AFTER_NUMBER.match(text, end)
    if m is None or m.lastgroup is None:
        return None
    return UNITS[_SYMBOL_OF_GROUP[m.lastgroup]], m.end()


def stated_precision(number_text: str) -> Fraction:
    """Half a unit of the last digit a plain number is written with (``1,235`` -> 1/2,
    ``9.81`` -> 1/200): a value rounded to that precision is the value the writer meant. 0 for
    other forms (``3 × 10^8``, ``3/4``), which are compared by relative tolerance only."""
    if not _PLAIN_DECIMAL.fullmatch(number_text):
        return Fraction(0)
    decimals = number_text.split(".", 1)[1] if "." in number_text else ""
    return Fraction(1, 2 * 10 ** len(decimals))


_PLAIN_DECIMAL = re.compile(r"[-+−]?[$€£¥₹]?\s?\d[\d,]*(?:\.\d+)?")
