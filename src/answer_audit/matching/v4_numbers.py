"""Where the ``v4`` matcher finds a number truth in an answer: by value, in any unit of its kind.

A truth that is one number with an optional unit (`number_truth`: ``1889``, ``0 °C``, ``9.8
m/s^2``) is mentioned wherever the answer writes that quantity (`number_mentions`):

- the same value; with a unit or a decimal in the truth, also within v3's 0.5%;
- in another unit of the same kind, converted (`answer_audit.matching.v4_units`), also within
  the precision the number is written with in its unit (``273 K`` is -0.15 ± 0.5 °C); a unit
  of another kind is another quantity;
- for a truth of 10 to 99999, its digits listed in a sentence about digits (``1 and 4``, or the
  decimals of ``3.14``), as v3 reads them.

Numbers are read from the end of the answer back, and only the last `MENTIONS_READ` mentions
among the last `NUMBERS_READ` numbers are kept: the matcher reads the last one that is
asserted, so a megabyte of numbers costs the window that holds the last few, not a reading of
every number.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction
from functools import lru_cache

from answer_audit.matching import v3 as _v3
from answer_audit.matching.v4_normalizer import canonical_v4
from answer_audit.matching.v4_units import Unit, stated_precision, unit_after
from answer_audit.text.numerals import find_numbers, number_spans

REL_TOL_V4 = Fraction(_v3.REL_TOL_V3)
# A text that mentions the truth this many times after its last assertion of it does not
# assert it: reading one text stays linear however many mentions it holds.
MENTIONS_READ = 32
# A truth stated only before this many other numbers is not the final statement: the reading of
# a flood of numbers stops here.
NUMBERS_READ = 10_000


@lru_cache(maxsize=4096)
def number_truth(truth: str) -> tuple[Fraction | None, Unit | None]:
    """The truth's value and unit when it is one number with an optional unit, else (None, None).

    >>> number_truth("21,196 km")
    (Fraction(21196, 1), Unit(symbol='km', dimension='length', scale=Fraction(1000, 1), offset=Fraction(0, 1)))
    """
    text = canonical_v4(truth).strip()
    numbers = find_numbers(text)
    if len(numbers) != 1 or numbers[0].start != 0:
        return None, None
    said = unit_after(text, numbers[0].end)
    tail = text[said[1] :] if said else text[numbers[0].end :]
    if tail.strip(" .,"):
        return None, None  # more than a number and a unit
    return numbers[0].value, said[0] if said else None


def number_mentions(
    p: str, value: Fraction, unit: Unit | None, tolerant: bool
) -> list[tuple[int, int]]:
    """The spans of the last `MENTIONS_READ` mentions of the quantity in the canonical text
    ``p`` (and of the digit lists after the first of them), in no particular order."""
    exact_integer = unit is None and not tolerant and value.denominator == 1
    # v3's proof that no number equals it, made for ASCII text, holds for any text whose digits
    # are ASCII (`\d` reads the others too; NFKC left no superscripts)
    ascii_digits = p.isascii() or _OTHER_DIGIT.search(p) is None
    if exact_integer and ascii_digits and not _v3._may_state_integer(p, value.numerator):
        return []
    digits = str(value.numerator) if value.denominator == 1 and 10 <= value <= 99999 else None
    found: list[tuple[int, int]] = []
    read_from = 0  # where the reading stopped, when it stopped early
    for count, (v, start, end) in enumerate(_numbers_from_the_end(p), 1):
        if _states(p, v, start, end, value, unit, tolerant) or (
            digits is not None and _decimals_are(p, start, end, digits)
        ):
            found.append((start, end))
        if len(found) == MENTIONS_READ or count == NUMBERS_READ:
            read_from = start
            break
    if digits is not None:
        lists = _digit_list(digits).finditer(p, read_from)
        found += [m.span() for m in lists if _about_digits(p, m.start(), m.end())]
    return found


def _states(
    p: str, v: Fraction, start: int, end: int, value: Fraction, unit: Unit | None, tolerant: bool
) -> bool:
    """The number ``v`` at ``p[start:end]`` is the truth's quantity."""
    converted_by = None  # the scale from the written unit to the truth's, when they differ
    if unit is not None and (said := unit_after(p, end)) is not None:
        said_unit = said[0]
        if said_unit.dimension != unit.dimension:
            return False  # "343 km" is not "343 m/s"
        if said_unit is not unit:
            v = unit.from_base(said_unit.to_base(v))
            converted_by = said_unit.scale / unit.scale
    # Fractions are kept in lowest terms: equal values have equal parts (cheaper than ==)
    if v.numerator == value.numerator and v.denominator == value.denominator:
        return True
    if not tolerant:
        return False
    gap = abs(v - value)
    if gap <= REL_TOL_V4 * abs(value):
        return True
    # A value written in another unit was rounded in that unit ("273 K" for 0 °C); in the
    # truth's own unit, "10 m/s²" is another value than 9.8.
    return converted_by is not None and gap <= stated_precision(p[start:end]) * converted_by


# ------------------------------------------------------------ numbers, last first

_OTHER_DIGIT = re.compile(r"(?![0-9])\d")

# A character no number (`answer_audit.text.numerals`) can hold: a window of text that starts
# with one holds exactly the whole text's numbers after it. Punctuation outside the numbers'
# alphabet, a letter that is none of the exponent and operator letters (x, e, \times,
# \cdot) and does not follow a digit (the `\b` after an exponent sees it), a space between
# two digits, a comma before one or two digits (grouping takes three): numerals' own barrier
# for reading back from the end (`final_number`).
_BARRIER = re.compile(
    r"[^\w\s,./×*\\^{}\-+−$€£¥₹%]|(?<!\d)[^\W\d_xetimscdo]"
    r"|(?<=\d)\s(?=\d)|(?<=\d),(?=\d{1,2}(?!\d))"
)
_WINDOW = 512


def _numbers_from_the_end(p: str) -> Iterator[tuple[Fraction, int, int]]:
    """Every number of ``p`` as (value, start, end), the last first, read back in windows."""
    end, width = len(p), _WINDOW
    while end > 0:
        start = max(0, end - width)
        if start > 0:
            barrier = _BARRIER.search(p, start, end)
            if barrier is None:
                width *= 2  # no barrier in reach: look further back
                continue
            start = barrier.start()
        spans = list(number_spans(p[start:end]))  # the window opens with its barrier
        for v, s, e in reversed(spans):
            yield v, start + s, start + e
        end = start


# ------------------------------------------------------------ digits named one by one

_DIGIT_WORDS = re.compile(r"\b(?:digits?|decimals?)\b")
_SENTENCE_END = re.compile(r"[!?\n。]|\.(?!\d)")
_SENTENCE_REACH = 2000


@lru_cache(maxsize=256)
def _digit_list(digits: str) -> re.Pattern[str]:
    """``1 and 4``, ``1, 4``, ``1 & 4`` for 14 (v3's pattern)."""
    sep = r"\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)"
    return re.compile(r"(?<!\d)(?<!\d\.)" + sep.join(digits) + r"(?!\d|\.\d|\s*,\s*\d)")


def _decimals_are(p: str, start: int, end: int, digits: str) -> bool:
    """``3.14`` in a sentence about digits names the decimals 1 and 4."""
    text = p[start:end]
    return "." in text and text.split(".")[1] == digits and _about_digits(p, start, end)


def _about_digits(p: str, start: int, end: int) -> bool:
    """The sentence around ``p[start:end]`` talks about digits (read at most
    `_SENTENCE_REACH` characters each way)."""
    s = max(0, start - _SENTENCE_REACH)
    for m in _SENTENCE_END.finditer(p, s, start):
        s = m.end()
    after = _SENTENCE_END.search(p, end, end + _SENTENCE_REACH)
    e = after.start() if after else min(len(p), end + _SENTENCE_REACH)
    return _DIGIT_WORDS.search(p, s, e) is not None
