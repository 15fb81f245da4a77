"""Dates and spelled-out years for the ``v5`` matcher: the same day in any common format.

A truth that is one date (`date_truth`: ``13 December 2007``, ``July 20, 1969``,
``2007-12-13``, ``December 2007``, ``July 4``) is mentioned wherever the answer writes the same
day (`date_mentions`), in the lowercase v4 canonical text:

- month names in English (``Sept.``, ``Dec``), German, French, Spanish, Portuguese, Italian,
  Dutch and Russian (genitive), day first or month first, with ordinals (``13th of December``,
  ``13. Dezember``, ``13 de diciembre de 2007``);
- numbers: year first (``2007-12-13``, ``2007/12/13``) always; day and month in either order
  (``20/07/1969``, ``07.20.1969``) only when the reading is not in doubt: one part is above 12,
  or both readings give the same day (``05/05/1969``);
- ``2007年12月13日`` and ``2007년 12월 13일``;
- a span of two days in one month (``April 25–26, 1986``) states neither, but a later ``the
  26th`` in the same text commits to one of them.

A full date states a truth that is only its year or its month; a different day, a month or a
year alone does not state a full date. A truth that is a bare year is left to the number
reading (`answer_audit.matching.v4_numbers`), which `year_mentions` completes with the
numeric date forms it reads as arithmetic (``2007-12-13``).

`spell_years` writes years spelled the way they are spoken (``nineteen eighty-nine``, ``twenty
oh five``) as digits, before v3's reading of number words adds them up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from answer_audit.matching.v4_normalizer import canonical_v4
from answer_audit.text.number_words import ENGLISH_TENS, ENGLISH_UNITS
from answer_audit.text.prefilters import guarded

# Month names as the canonical text spells them (lowercase, Latin accents dropped).
_MONTH_NAMES: tuple[tuple[str, ...], ...] = (
    ("january", "jan", "januar", "janvier", "enero", "janeiro", "gennaio", "januari", "января"),
    ("february", "feb", "februar", "fevrier", "febrero", "fevereiro", "febbraio", "februari",
     "февраля"),
    ("march", "mar", "marz", "maerz", "mars", "marzo", "marco", "maart", "марта"),
    ("april", "apr", "avril", "abril", "aprile", "апреля"),
    ("may", "mai", "mayo", "maio", "maggio", "mei", "мая"),
    ("june", "jun", "juni", "juin", "junio", "junho", "giugno", "июня"),
    ("july", "jul", "juli", "juillet", "julio", "julho", "luglio", "июля"),
    ("august", "aug", "aout", "agosto", "augustus", "августа"),
    ("september", "sep", "sept", "septembre", "septiembre", "setiembre", "setembro",
     "settembre", "сентября"),
    ("october", "oct", "oktober", "octobre", "octubre", "outubro", "ottobre", "октября"),
    ("november", "nov", "novembre", "noviembre", "novembro", "ноября"),
    ("december", "dec", "dezember", "decembre", "diciembre", "dezembro", "dicembre", "декабря"),
)  # fmt: skip
MONTHS = {name: number for number, names in enumerate(_MONTH_NAMES, 1) for name in names}


def _alternation(words: list[str]) -> str:
    """``words`` as one alternation tried in their order, with the words that open with the
    same character in one branch: a position fails at one character check, not at each word,
    and the words that can match there are tried in the same order as in ``a|b|c``."""
    branches: dict[str, list[str]] = {}
    for word in words:
        branches.setdefault(word[0], []).append(re.escape(word[1:]))
    return "|".join(f"{re.escape(c)}(?:{'|'.join(rest)})" for c, rest in branches.items())


_MONTH = "(?P<{}>" + _alternation(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<{}>[0-3]?\d)(?:st|nd|rd|th|er|º|°|\.)?"
_YEAR = r"(?P<{}>[12]\d{{3}})"
_NO_DIGIT_BEFORE = r"(?<![\w.,/-])"
_NO_DIGIT_AFTER = r"(?![\w/]|[.,-]\d)"
_OF = r"(?:\s+(?:of|de|del|di|du)\s+|\s*)"  # "13th of december", "13 de diciembre"
_YEAR_OF = r"(?:\s*,?\s*(?:de\s+|del\s+)?)"  # "diciembre de 2007", "december, 2007"
_RANGE = r"\s*[–—-]\s*"

# Each form names its groups: y (year), m (month name), n (month number), d (day), and for a
# numeric form with day and month in either order, a and b (`_ambiguous`).
_FORMS = (
    # 2007-12-13, 2007/12/13, 2007.12.13
    rf"{_NO_DIGIT_BEFORE}{_YEAR.format('y')}(?P<sep>[-/.])(?P<n>[01]?\d)(?P=sep)(?P<d>[0-3]?\d)"
    rf"{_NO_DIGIT_AFTER}",
    # 20/07/1969, 07.20.1969, 20-07-1969
    rf"{_NO_DIGIT_BEFORE}(?P<a>[0-3]?\d)(?P<sep2>[-/.])(?P<b>[0-3]?\d)(?P=sep2){_YEAR.format('y')}"
    rf"{_NO_DIGIT_AFTER}",
    # 2007年12月13日, 2007년 12월 13일
    rf"(?<!\d){_YEAR.format('y')}\s*[年년]\s*(?P<n>[01]?\d)\s*[月월]\s*(?:(?P<d>[0-3]?\d)\s*[日일])?",
    # december 13th, 2007, july 4 (not april 25–26, 1986: a span, `_RANGE_FORMS`)
    rf"(?<![a-z]){_MONTH.format('m')}\s*{_DAY.format('d')}(?!{_RANGE}\d)(?!\w)"
    rf"(?:\s*,?\s*{_YEAR.format('y')}(?!\d))?",
    # december 2007, diciembre de 2007
    rf"(?<![a-z]){_MONTH.format('m')}{_YEAR_OF}{_YEAR.format('y')}(?!\d)",
    # 13 december 2007, 13th of december, 2007, 13. dezember 2007, 13 de diciembre de 2007
    rf"{_NO_DIGIT_BEFORE}{_DAY.format('d')}{_OF}{_MONTH.format('m')}(?![a-z])"
    rf"(?:{_YEAR_OF}{_YEAR.format('y')}(?!\d))?",
)
_DATES = tuple(guarded(re.compile(form)) for form in _FORMS)
_RANGE_FORMS = guarded(
    re.compile(
        rf"(?<![a-z]){_MONTH.format('m')}\s*(?P<d1>[0-3]?\d){_RANGE}(?P<d2>[0-3]?\d)"
        rf"(?:st|nd|rd|th)?\s*,?\s*{_YEAR.format('y')}"
        rf"|{_NO_DIGIT_BEFORE}(?P<e1>[0-3]?\d){_RANGE}(?P<e2>[0-3]?\d)(?:st|nd|rd|th|\.)?"
        rf"{_OF}{_MONTH.format('m2')}(?![a-z]){_YEAR_OF}{_YEAR.format('y2')}"
    )
)
_THE_DAY = re.compile(r"\b(?:on\s+)?the\s+(?P<d>[0-3]?\d)(?:st|nd|rd|th)\b")
# How far after a span of days its "the 26th" is looked for.
_RANGE_REACH = 300


@dataclass(frozen=True, slots=True)
class Date:
    """A date as written: any part may be missing (``December 2007``, ``July 4``)."""

    year: int | None
    month: int | None
    day: int | None

    def states(self, truth: Date) -> bool:
        """This date names the truth's day (or month, or year): every part the truth has is
        here and the same; a full date states a truth that leaves out its day."""
        parts = ((self.year, truth.year), (self.month, truth.month), (self.day, truth.day))
        return all(t is None or s == t for s, t in parts)


def _valid(month: int | None, day: int | None) -> bool:
    return (month is None or 1 <= month <= 12) and (day is None or 1 <= day <= 31)


def _readings(m: re.Match[str]) -> list[Date]:
    """The dates a match can mean: one, two for a numeric day and month in either order, or
    none when the parts are no date."""
    g = m.groupdict()
    year = int(g["y"]) if g.get("y") else None
    if g.get("a"):
        a, b = int(g["a"]), int(g["b"])
        found = [Date(year, b, a), Date(year, a, b)]  # day first, month first
        return [d for d in found if _valid(d.month, d.day)]
    month = MONTHS[g["m"]] if g.get("m") else int(g["n"]) if g.get("n") else None
    day = int(g["d"]) if g.get("d") else None
    return [Date(year, month, day)] if _valid(month, day) else []


@lru_cache(maxsize=4096)
def date_truth(truth: str) -> Date | None:
    """The truth as a date when it is one date with a month (a bare year is a number truth);
    None otherwise, or when a numeric day and month could be read either way.

    >>> date_truth("13 December 2007"), date_truth("1989")
    (Date(year=2007, month=12, day=13), None)
    """
    text = canonical_v4(truth).strip(" .,")
    text = re.sub(r"^(?:on\s+)?(?:the\s+)?", "", text)
    matches = [m for m in (form.fullmatch(text) for form in _DATES) if m is not None]
    if len(matches) != 1:
        return None
    readings = set(_readings(matches[0]))
    if len(readings) != 1:
        return None
    (date,) = readings
    return date if date.month is not None else None


def date_mentions(p: str, truth: Date) -> list[tuple[int, int]]:
    """The spans of the canonical text ``p`` that write the truth's day (see the module
    docstring), in text order.

    >>> date_mentions("may 5, 2020 or may 6, 2020", Date(2020, 5, 5))
    [(0, 11)]
    """
    found = []
    # a reading states the truth's year only where the year group is its digits, and its day
    # only where the day group is the day's digits, with a leading zero or not
    year = None if truth.year is None else str(truth.year)
    days = None if truth.day is None else {str(truth.day), f"0{truth.day}"}
    for form, needs in zip(_DATES, _FORM_NEEDS, strict=True):
        if not _written(p, truth, needs):
            continue  # no match of this form can write the truth's parts
        stated: dict[tuple[str | None, ...], bool] = {}  # by the groups, which make the date
        for m in form.finditer(p):
            if year is not None and m["y"] != year:
                continue
            if days is not None and needs.day_group and m["d"] not in days:
                continue
            verdict = stated.get(groups := m.groups())
            if verdict is None:
                readings = _readings(m)
                verdict = stated[groups] = bool(readings) and all(d.states(truth) for d in readings)
            if verdict:
                found.append(m.span())
    if truth.day is not None and "the" in p and _written(p, truth, _RANGE_NEEDS):
        found += _committed_days(p, truth)  # its "the 26th" needs a "the"
    return sorted(found)


@dataclass(frozen=True, slots=True)
class _Needs:
    """What a match of one date form must write to state a truth. `_written` checks the text
    for it, so a form none of whose matches could state the truth is not read at all: the
    speed changes, never the spans."""

    month_name: bool
    """The month is a name (else a number)."""
    has_day: bool
    """The form can write a day (a form that cannot states no truth that has one)."""
    day_group: bool
    """The day is the group ``d`` (day and month in either order have none)."""
    marks: str = ""
    """One of these characters is in every match (``年``, a dash between two days)."""
    year_joined: tuple[str, ...] = ()
    """One of these, with ``{}`` the year, is in every match with a year (``2007-``)."""


_FORM_NEEDS = (
    # 2007-12-13
    _Needs(month_name=False, has_day=True, day_group=True, year_joined=("{}-", "{}/", "{}.")),
    # 20/07/1969
    _Needs(month_name=False, has_day=True, day_group=False, year_joined=("-{}", "/{}", ".{}")),
    # 2007年12月13日
    _Needs(month_name=False, has_day=True, day_group=True, marks="年년"),
    # december 13th, 2007
    _Needs(month_name=True, has_day=True, day_group=True),
    # december 2007
    _Needs(month_name=True, has_day=False, day_group=False),
    # 13 december 2007
    _Needs(month_name=True, has_day=True, day_group=True),
)
_RANGE_NEEDS = _Needs(month_name=True, has_day=True, day_group=False, marks="–—-")


def _written(p: str, truth: Date, needs: _Needs) -> bool:
    """Whether ``p`` holds every piece a match stating ``truth`` writes: the year's digits,
    the day's (``"05"`` holds ``"5"``), the month's number or one of its names, and the
    form's marks. A necessary condition, not a sufficient one.

    >>> may_5 = Date(2020, 5, 5)
    >>> _written("may 5", may_5, _FORM_NEEDS[3]), _written("may 5, 2020", may_5, _FORM_NEEDS[3])
    (False, True)
    """
    if truth.day is not None and not needs.has_day:
        return False
    if needs.marks and not any(mark in p for mark in needs.marks):
        return False
    numbers = (truth.year, truth.day) if needs.month_name else (truth.year, truth.month, truth.day)
    if any(n is not None and str(n) not in p for n in numbers):
        return False
    joined = (form.format(truth.year) for form in needs.year_joined)
    if truth.year is not None and needs.year_joined and not any(j in p for j in joined):
        return False
    if needs.month_name and truth.month is not None:
        return any(name in p for name in _NAMES_OF.get(truth.month, ()))
    return True


_NAMES_OF = {number: names for number, names in enumerate(_MONTH_NAMES, 1)}


def year_mentions(p: str, year: int) -> list[tuple[int, int]]:
    """The numeric full dates of ``p`` in the year ``year`` (``2007-12-13``, ``13/12/2007``):
    the number reading takes their parts for arithmetic."""
    numeric = _DATES[:2]  # year first, and day and month in either order
    return [
        m.span()
        for form in numeric
        for m in form.finditer(p)
        if any(d.year == year for d in _readings(m))
    ]


def _committed_days(p: str, truth: Date) -> list[tuple[int, int]]:
    """``the 26th`` after a span ``April 25–26, 1986`` that holds it: a mention of that day."""
    found = []
    for span in _RANGE_FORMS.finditer(p):
        month = MONTHS[span["m"] or span["m2"]]
        year = int(span["y"] or span["y2"])
        days = {int(d) for d in (span["d1"], span["d2"], span["e1"], span["e2"]) if d}
        if (year, month) != (truth.year, truth.month) or truth.day not in days:
            continue
        for the_day in _THE_DAY.finditer(p, span.end(), span.end() + _RANGE_REACH):
            if int(the_day["d"]) == truth.day:
                found.append((the_day.start("d"), the_day.end()))
    return found


# ------------------------------------------------------------------ spelled years

_UNITS = ENGLISH_UNITS[1:10]
_TEENS = ENGLISH_UNITS[10:]
_TENS = ENGLISH_TENS
_VALUE = {w: i for i, w in enumerate(ENGLISH_UNITS)} | {w: 10 * i for i, w in enumerate(_TENS, 2)}
_TWO_DIGITS = (
    rf"(?:(?:{'|'.join(_TENS)})(?:[ -](?:{'|'.join(_UNITS)}))?|{'|'.join(_TEENS)}"
    rf"|o(?:h)?[ -](?:{'|'.join(_UNITS)}))"
)
# "nineteen eighty-nine", "twenty twenty-one", "twenty oh five", "eleven sixty-six": a century
# (eleven to twenty) and a two-digit rest, as years are spoken.
_SPOKEN_YEAR = re.compile(
    rf"(?i)(?<![\w-])(eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen"
    rf"|nineteen|twenty)[ -]({_TWO_DIGITS})(?![\w-])"
)


def _two_digit_value(words: str) -> int:
    parts = re.split(r"[ -]", words.lower())
    return sum(_VALUE.get(w, 0) for w in parts)  # "oh" and "o" count 0


def spell_years(text: str) -> str:
    """``text`` with years spoken as two two-digit numbers written as digits.

    >>> spell_years("In nineteen eighty-nine, or twenty oh five.")
    'In 1989, or 2005.'
    """
    lowered = text.lower()
    if not any(part in lowered for part in ("een", "wenty", "leven", "welve")):
        return text  # every spoken century holds one of these
    return _SPOKEN_YEAR.sub(
        lambda m: str(_VALUE[m[1].lower()] * 100 + _two_digit_value(m[2])), text
    )
