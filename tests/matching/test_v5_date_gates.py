"""The v5 date reading's shortcuts change its speed, never its spans.

`date_mentions` skips a date form when the text lacks a piece every match stating the truth
writes (its year, its day, a name or number of its month, a dash, ``年``), skips a match whose
year or day group is not the truth's before reading it, and reads one date per distinct set of
groups; the month names are one alternation branch per first character. These tests compare it
with the reading it replaced, kept here: every form read over the whole text with the plain
month alternation (the names longest first), every match read, on generated texts of dates in
every format v5 reads, spans of days, negations and noise, against generated date truths.
"""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from answer_audit.matching import v5_dates
from answer_audit.matching.v5_dates import MONTHS, Date, date_mentions, date_truth
from answer_audit.text.prefilters import original

# ------------------------------------------------------------------ the reference reading

_PLAIN_MONTH = "(?P<{}>" + "|".join(sorted(map(re.escape, MONTHS), key=len, reverse=True))
_PLAIN_MONTH += r")\.?"


def _plain(pattern: str) -> re.Pattern[str]:
    """``pattern`` with the month names as one plain alternation, as v5 first wrote them."""
    for group in ("m", "m2"):
        pattern = pattern.replace(v5_dates._MONTH.format(group), _PLAIN_MONTH.format(group))
    assert v5_dates._MONTH.format("m") not in pattern
    return re.compile(pattern)


PLAIN_FORMS = tuple(_plain(form) for form in v5_dates._FORMS)
PLAIN_RANGE = _plain(original(v5_dates._RANGE_FORMS).pattern)


def reference_mentions(p: str, truth: Date) -> list[tuple[int, int]]:
    """Every match of every form read as a date; the spans whose readings all state the
    truth, and the ``the 26th`` after a span of days that holds the truth's day."""
    found = []
    for form in PLAIN_FORMS:
        for m in form.finditer(p):
            readings = v5_dates._readings(m)
            if readings and all(d.states(truth) for d in readings):
                found.append(m.span())
    if truth.day is not None:
        for span in PLAIN_RANGE.finditer(p):
            month = MONTHS[span["m"] or span["m2"]]
            year = int(span["y"] or span["y2"])
            days = {int(d) for d in (span["d1"], span["d2"], span["e1"], span["e2"]) if d}
            if (year, month) != (truth.year, truth.month) or truth.day not in days:
                continue
            end = span.end() + v5_dates._RANGE_REACH
            for the_day in v5_dates._THE_DAY.finditer(p, span.end(), end):
                if int(the_day["d"]) == truth.day:
                    found.append((the_day.start("d"), the_day.end()))
    return sorted(found)


# ------------------------------------------------------------------ generated texts

# A few values of each part, so that texts and truths often share them.
_YEARS = (1986, 2007, 2020)
_MONTH_NUMBERS = (1, 3, 5, 12)
_DAYS = (1, 5, 7, 13, 25, 26, 31)
_NAMES = {
    1: ("january", "jan", "jan.", "januar", "janvier", "enero", "января"),
    3: ("march", "mar", "mar.", "marz", "maerz", "mars", "marzo", "marco", "maart", "марта"),
    5: ("may", "mai", "mayo", "maio", "maggio", "mei", "мая"),
    12: ("december", "dec", "dec.", "dezember", "decembre", "diciembre", "декабря"),
}
# Every format v5 reads (numeric in any order and separator, CJK, month names before and
# after the day, with ordinals, "of", "de", commas), spans of days and their "the 26th".
_FORMATS = (
    "{y}-{mm}-{dd}", "{y}/{m}/{d}", "{y}.{mm}.{d}", "{y}-{m}-{dd}",
    "{dd}/{mm}/{y}", "{mm}.{dd}.{y}", "{d}-{m}-{y}", "{m}/{d}/{y}",
    "{y}年{m}月{d}日", "{y} 年 {mm} 月 {dd} 日", "{y}년 {m}월 {d}일", "{y}年{m}月",
    "{name} {d}, {y}", "{name} {d}{suf}", "{name}. {d}", "{name} {d}{suf}, {y}", "{name}{d}",
    "{name} {y}", "{name}, {y}", "{name} de {y}", "{name} del {y}",
    "{d} {name} {y}", "{d}{suf} of {name}, {y}", "{d}. {name} {y}", "{d} de {name} de {y}",
    "{d} {name}", "{dd} {name}", "{d}{suf} {name}",
    "{name} {d}–{d2}, {y}", "{name} {d}-{d2}, {y}", "{name} {d} - {d2}th, {y}",
    "{d}-{d2} {name} {y}", "{d} – {d2} de {name} de {y}", "{d}—{d2}. {name} {y}",
    "the {d}{suf}", "on the {d}{suf}", "the {dd}th",
)  # fmt: skip
_NOISE = (
    "not ", "no, ", " or ", "never ", "instead of ", " ", "  ", "\n", ", ", ". ", "; ", "12 ",
    "-", "–", "/", ".", ",", "0", "1", "5", "2020", "19", "the ", "lorem ", "x", "é", "年",
    "may", "mar", "th", "st", "of ", "de ",
)  # fmt: skip


_NOWHERE = Date(None, None, None)


def _part(draw: st.DrawFn, own: int | None, others: tuple[int, ...]) -> int:
    """The truth's own part half the time (when it has one), else another."""
    return own if own is not None and draw(st.booleans()) else draw(st.sampled_from(others))


@st.composite
def _date_piece(draw: st.DrawFn, like: Date = _NOWHERE) -> str:
    year = _part(draw, like.year, (*_YEARS, 999, 3020))
    month = _part(draw, like.month, (*_MONTH_NUMBERS, 0, 13))
    day, day2 = _part(draw, like.day, (*_DAYS, 0, 32)), _part(draw, like.day, _DAYS)
    name = draw(st.sampled_from(_NAMES.get(month, ("july", "sept", "oct.", "ноября"))))
    return draw(st.sampled_from(_FORMATS)).format(
        y=year, m=month, mm=f"{month:02d}", d=day, dd=f"{day:02d}", d2=day2, name=name,
        suf=draw(st.sampled_from(("st", "nd", "rd", "th", "er", "º", "°", ".", ""))),
    )  # fmt: skip


def _texts(like: Date = _NOWHERE) -> st.SearchStrategy[str]:
    piece = st.one_of(_date_piece(like), st.sampled_from(_NOISE))
    pieces = st.lists(piece, max_size=12).map("".join)
    # a few pieces repeated, as in the hostile date floods
    floods = st.tuples(st.lists(piece, min_size=1, max_size=3).map("".join),
                       st.integers(1, 30)).map(lambda t: t[0] * t[1])  # fmt: skip
    return st.one_of(pieces, floods, st.tuples(pieces, floods, pieces).map("".join))


_TRUTHS = st.builds(
    Date,
    year=st.sampled_from((*_YEARS, None)),
    month=st.sampled_from((*_MONTH_NUMBERS, 7, None)),
    day=st.sampled_from((*_DAYS, None, 0)),
)
# texts whose dates often share the truth's parts
_CASES = _TRUTHS.flatmap(lambda truth: st.tuples(_texts(truth), st.just(truth)))


@settings(max_examples=3000)
@given(_CASES)
@example(("may 5 " * 40, Date(2020, 5, 5)))
@example(("may 5 " * 40 + "2020", Date(2020, 5, 5)))
@example(("may 5, 2020 " * 20, Date(2020, 5, 5)))
@example(("05/05/2020 " * 20, Date(2020, 5, 5)))
@example(("5th of may " * 20 + "2020-05-05", Date(2020, 5, 5)))
@example(("april 25–26, 1986. on the 26th. " * 5, Date(1986, 4, 26)))
@example(("25-26 april 1986, the 25th", Date(1986, 4, 25)))
@example(("2007年12月13日 2007년 12월 13일", Date(2007, 12, 13)))
@example(("december 2007, 13 dec. 2007", Date(2007, 12, None)))
@example(("july 4 07/04", Date(None, 7, 4)))
def test_date_mentions_are_the_reference_reading(case: tuple[str, Date]) -> None:
    text, truth = case
    assert date_mentions(text, truth) == reference_mentions(text, truth)


@settings(max_examples=1000)
@given(_texts(), _date_piece())
def test_truths_as_v5_reads_them_find_the_same_spans(text: str, piece: str) -> None:
    truth = date_truth(piece)  # the truths `match_v5` passes
    if truth is not None:
        assert date_mentions(text + piece, truth) == reference_mentions(text + piece, truth)


@settings(max_examples=2000)
@given(_texts())
@example("marzo 5 marz 5 mar. 5 maerz 5 maart 5 mars 5 marco 5")
@example("сентября 5 ноября 2007 мая")
def test_the_month_branches_match_as_the_plain_alternation(text: str) -> None:
    forms = (*zip(v5_dates._DATES, PLAIN_FORMS, strict=True), (v5_dates._RANGE_FORMS, PLAIN_RANGE))
    for fast, plain in forms:
        assert [(m.span(), m.groupdict()) for m in fast.finditer(text)] == [
            (m.span(), m.groupdict()) for m in plain.finditer(text)
        ]
        whole = [fast.fullmatch(text), plain.fullmatch(text)]
        assert (
            len({None if m is None else (m.span(), tuple(m.groupdict().items())) for m in whole})
            == 1
        )
