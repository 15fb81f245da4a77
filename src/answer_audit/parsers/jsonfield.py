"""JSON-field answers: the first JSON object in a completion, and one integer field of it.

Two readings of "a JSON object": the standard decoder's (the v1 presets, e.g. `json/isup_grade`)
and the tolerant reader's (`json_tolerant`: the v2 presets, e.g. `json/isup_grade/v2`), which
also reads trailing commas, single quotes, unquoted keys, comments and Python's constants.
The built-in presets are data in `answer_audit.parsers.presets.json`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NamedTuple

from answer_audit.extraction import Extraction, Span
from answer_audit.parsers.json_tolerant import OBJECT_START as TOLERANT_OBJECT_START
from answer_audit.parsers.json_tolerant import TolerantFailure, TolerantReader

# A JSON object can only start with "{" followed by a key or "}"; this skips prose braces
# (and a megabyte of "{") without calling the decoder.
_OBJECT_START = re.compile(r"\{\s*[\"}]")
# A signed integer not inside a word or a decimal; "-1" is minus one, never grade 1.
_STANDALONE_INT = re.compile(r"(?<![\w.])[-+\u2212]?[0-9]+(?![\w]|\.[0-9])")
# Integers longer than this are read as infinity (like 1e999: `json-not-integer`, or out of
# range in the fallback) instead of raising: Python refuses to convert them by default, and a
# fixed bound keeps the result the same whatever the interpreter's own limit is.
_MAX_INT_DIGITS = 4300


def _parse_int(digits: str) -> int | float:
    return int(digits) if len(digits.lstrip("+-")) <= _MAX_INT_DIGITS else float(digits)


_DECODER = json.JSONDecoder(parse_int=_parse_int)
# Work bounds for hostile input: failed decode attempts may read at most this many times the
# text length in total, and deep nesting (RecursionError) is given up on after a few tries.
_SCAN_BUDGET_FACTOR = 8
_MAX_DEEP_FAILURES = 4
# The tolerant reading charges every failed start at least this many characters of that budget
# (and starts from a larger one): it reads in Python steps, not in the C decoder, so a text of
# many short failed starts gives up after a bounded number of them (16 per kilobyte).
_TOLERANT_MIN_COST = 512
_TOLERANT_BUDGET_BASE = 16384
# A failed decode builds its message by counting the lines before the failure
# (`json.JSONDecodeError`), which made each failed start cost the whole text before it. So the
# decoder reads a window of the text that grows until the outcome cannot depend on what lies
# beyond it: it reports a failure at most `_LOOKAHEAD` characters before the end of what it
# read (a literal such as "-Infinity" cut short), except an unterminated string, which it
# reports where the string starts.
_FIRST_WINDOW = 256
_LOOKAHEAD = 16

Accept = Callable[[dict[str, Any]], bool] | type


@dataclass(frozen=True, slots=True)
class JsonScan:
    """Result of scanning a text for JSON objects."""

    obj: dict[str, Any] | None
    """The first object that decoded and was accepted, or None."""
    span: Span | None
    """Where that object stands in the text."""
    candidates: int
    """How many places looked like the start of an object."""
    member_spans: Mapping[str, Span] | None = None
    """Where each top-level member's value stands, when the tolerant reader read the object
    (None: `_value_span` finds them with the standard decoder)."""


# An object the decoder gives up on a few members in, and where: members with simple values
# (an integer, a string without escapes or control characters, true, false, null), then a
# character that cannot come next: after "{" or a ",", no key (nor "}", which Python 3.13
# reports at the comma); after a key no ":"; after a value no "," or "}" (nor what could make
# the integer go on). The decoder reads these members as the pattern does (its whitespace is
# these four characters) and fails at that character, whatever follows it. Possessive: no
# shorter reading of an integer or a run of whitespace is tried.
_SPACE = r"[ \t\n\r]*+"
_KEY = r'"[^"\\\x00-\x1f]*+"'
_SCALAR = rf"(?:-?+(?:0|[1-9][0-9]*+)|{_KEY}|true|false|null)"
_FAILS_EARLY = re.compile(
    rf"\{{{_SPACE}(?:{_KEY}{_SPACE}:{_SPACE}{_SCALAR}{_SPACE},{_SPACE})*+"
    rf"(?:(?=[^\"}} \t\n\r])|{_KEY}{_SPACE}(?=[^: \t\n\r])"
    rf"|{_KEY}{_SPACE}:{_SPACE}{_SCALAR}{_SPACE}(?=[^,}} \t\n\r.eE0-9]))"
)


def _decode_at(text: str, start: int, window: int = _FIRST_WINDOW) -> tuple[Any, int] | int:
    """``_DECODER.raw_decode(text, start)`` read through a growing window (see `_FIRST_WINDOW`):
    the value and where it ends, or where decoding failed. RecursionError propagates.

    An object that `_FAILS_EARLY` reads to its failure inside the window is not decoded: the
    window's decode would fail at that place, before the window's last `_LOOKAHEAD` characters
    (no exception to build: a text of many such objects is read at regex speed)."""
    early = _FAILS_EARLY.match(text, start, start + window - _LOOKAHEAD)
    if early is not None:
        return early.end()
    return _decode_windowed(text, start, window)


def _decode_windowed(text: str, start: int, window: int) -> tuple[Any, int] | int:
    """`_decode_at` without its shortcut: every object decoded."""
    while True:
        whole = start + window >= len(text)
        try:
            value, end = _DECODER.raw_decode(text[start : start + window])
        except json.JSONDecodeError as err:
            cut_short = err.pos >= window - _LOOKAHEAD or err.msg.startswith("Unterminated")
            if whole or not cut_short:
                return start + err.pos
        else:
            if whole or end < window - _LOOKAHEAD:  # (a number at the end might go on)
                return value, start + end
        window *= 4


def scan_json_objects(
    text: str, accept: Accept | None = None, *, tolerant: bool = False
) -> JsonScan:
    """Find the first JSON object that decodes (and that ``accept`` accepts); with ``tolerant``,
    the first one the tolerant reader reads (`json_tolerant`)."""
    check = _acceptor(accept)
    if tolerant:
        return _scan_tolerant(text, check)
    budget = _SCAN_BUDGET_FACTOR * len(text) + 4096
    deep_failures = 0
    candidates = 0
    for m in _OBJECT_START.finditer(text):
        candidates += 1
        start = m.start()
        try:
            decoded = _decode_at(text, start)
        except RecursionError:
            deep_failures += 1
            budget -= len(text) - start
            if deep_failures >= _MAX_DEEP_FAILURES:
                break
        else:
            if isinstance(decoded, int):
                budget -= max(decoded - start, 1)
            else:
                obj, end = decoded
                if isinstance(obj, dict) and check(obj):
                    return JsonScan(obj, (start, end), candidates)
                budget -= end - start
        if budget <= 0:
            break
    return JsonScan(None, None, candidates)


def _scan_tolerant(text: str, check: Callable[[dict[str, Any]], bool]) -> JsonScan:
    """`scan_json_objects` with the tolerant reader, at each place where an object may start
    for it (`json_tolerant.OBJECT_START`). A place counts as a candidate (so that nothing
    reading there means `json-invalid`) where v1 counts one, or where it read as JSON up to a
    value (`TolerantFailure.reads_as_json`). Work is bounded as in v1, and every failed start
    costs at least `_TOLERANT_MIN_COST`."""
    reader = TolerantReader(text, _parse_int)
    budget = _SCAN_BUDGET_FACTOR * len(text) + _TOLERANT_BUDGET_BASE
    deep_failures = candidates = 0
    known_failures: set[int] = set()  # objects that were open where a reading failed
    for m in TOLERANT_OBJECT_START.finditer(text):
        start = m.start()
        if start in known_failures:  # inside a failed reading that read as JSON: counted
            candidates += 1
            continue
        found = _read_tolerantly(text, start, reader)
        if isinstance(found, _Found):
            candidates += 1
            if check(found.obj):
                return JsonScan(found.obj, (start, found.end), candidates, found.member_spans)
            budget -= found.end - start
        elif found.too_deep:
            candidates += 1
            deep_failures += 1
            budget -= len(text) - start
            if deep_failures >= _MAX_DEEP_FAILURES:
                break
        else:
            candidates += found.reads_as_json
            known_failures.update(found.open_objects)
            budget -= max(found.pos - start, _TOLERANT_MIN_COST)
        if budget <= 0:
            break
    return JsonScan(None, None, candidates)


class _Found(NamedTuple):
    obj: dict[str, Any]
    end: int
    member_spans: Mapping[str, Span] | None  # None: `_value_span` finds them


def _read_tolerantly(text: str, start: int, reader: TolerantReader) -> _Found | TolerantFailure:
    """The object at ``start``: where v1 would try the standard decoder and it decodes, its
    reading (the same value and span as v1's), else the tolerant reader's. A failure where v1
    would have tried reads as JSON, as v1 counts it."""
    v1_start = _OBJECT_START.match(text, start) is not None
    if v1_start:
        try:
            decoded = _decode_at(text, start)
        except RecursionError:
            return TolerantFailure(start, True, (), True)
        if not isinstance(decoded, int) and isinstance(decoded[0], dict):
            return _Found(decoded[0], decoded[1], None)
    read = reader.read_object(start)
    if isinstance(read, TolerantFailure):
        return (
            TolerantFailure(read.pos, read.too_deep, read.open_objects, True) if v1_start else read
        )
    return _Found(read.obj, read.end, read.member_spans)


def first_json_object(
    text: str, accept: Accept | None = None, *, tolerant: bool = False
) -> tuple[dict[str, Any], Span] | None:
    """The first JSON object in ``text`` and its ``(start, end)`` span, or None.

    Tries the standard decoder at each ``{``; trailing text after the object is ignored, an
    object inside a Markdown fence is found too. ``accept`` (a predicate, or a pydantic model
    class) rejects objects, and the scan continues with the next one. ``tolerant`` reads the
    JSON models write besides the standard (`json_tolerant`): trailing commas, single quotes,
    unquoted keys, comments, ``None``/``True``/``False``.

    >>> first_json_object('Sure: {"grade": 2} hope this helps')
    ({'grade': 2}, (6, 18))
    >>> first_json_object("Sure: {grade: 2,} // done", tolerant=True)
    ({'grade': 2}, (6, 17))
    """
    found = scan_json_objects(text, accept, tolerant=tolerant)
    return None if found.obj is None or found.span is None else (found.obj, found.span)


def _acceptor(accept: Accept | None) -> Callable[[dict[str, Any]], bool]:
    if accept is None:
        return lambda obj: True
    if isinstance(accept, type):
        validate = getattr(accept, "model_validate", None)
        if validate is None:
            raise TypeError("accept must be a predicate or a pydantic model class")

        def by_model(obj: dict[str, Any]) -> bool:
            try:
                validate(obj)
            except Exception:  # pydantic.ValidationError and anything a validator raises
                return False
            return True

        return by_model
    return accept


def _as_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?[0-9]+\s*", value):
        number = _parse_int(value.strip())
        return number if isinstance(number, int) else None
    return None


_WS = frozenset(" \t\n\r")


def _skip_ws(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in _WS:
        pos += 1
    return pos


def _value_span(text: str, obj_span: Span, field: str) -> Span:
    """Where the field's value sits among the object's top-level members (last one wins, as in
    ``json.loads``); the object's span if it cannot be walked."""
    pos = _skip_ws(text, obj_span[0] + 1)
    found = obj_span
    try:
        while pos < obj_span[1] and text[pos] == '"':
            key, pos = _DECODER.raw_decode(text, pos)
            value_start = _skip_ws(text, _skip_ws(text, pos) + 1)  # past ":"
            _, value_end = _DECODER.raw_decode(text, value_start)
            if key == field:
                found = (value_start, value_end)
            pos = _skip_ws(text, _skip_ws(text, value_end) + 1)  # past "," or "}"
    except (ValueError, RecursionError, IndexError):
        return obj_span
    return found


def extract_json_field(
    text: str,
    field: str,
    *,
    null_as: int | None = None,
    allowed: range | None = None,
    integer_fallback: bool = True,
    tolerant: bool = False,
) -> Extraction:
    """An integer field of the first JSON object, with every way it can go wrong named.

    Rules: ``json-value``, ``json-null`` (value null -> ``null_as``), ``json-missing-key``,
    ``json-not-integer``, ``json-out-of-range``, ``json-invalid`` (looks like JSON, none
    decodes; no fallback), ``integer-fallback`` (no JSON at all: first standalone integer),
    ``integer-fallback-out-of-range``, ``not-found``. ``tolerant`` reads objects with the
    tolerant reader (`json_tolerant`; the v2 presets); the rules stay the same.

    >>> extract_json_field('{"isup_grade": null}', "isup_grade", null_as=0)
    Extraction(value=0, rule='json-null', span=(15, 19))
    >>> extract_json_field("{'isup_grade': None,}", "isup_grade", null_as=0, tolerant=True)
    Extraction(value=0, rule='json-null', span=(15, 19))
    """
    found = scan_json_objects(text, tolerant=tolerant)
    if found.obj is not None and found.span is not None:
        if field not in found.obj:
            return Extraction(None, "json-missing-key", found.span)
        if found.member_spans is not None:
            span = found.member_spans[field]
        else:
            span = _value_span(text, found.span, field)
        raw_value = found.obj[field]
        if raw_value is None:
            return Extraction(null_as, "json-null", span)
        value = _as_int(raw_value)
        if value is None:
            return Extraction(None, "json-not-integer", span)
        if allowed is not None and value not in allowed:
            return Extraction(None, "json-out-of-range", span)
        return Extraction(value, "json-value", span)
    if found.candidates:
        return Extraction(None, "json-invalid", None)
    if integer_fallback:
        m = _STANDALONE_INT.search(text)
        if m is not None:
            if len(m.group().lstrip("+-\u2212")) > _MAX_INT_DIGITS:
                return Extraction(None, "integer-fallback-out-of-range", m.span())
            value = int(m.group().replace("\u2212", "-"))
            if allowed is not None and value not in allowed:
                return Extraction(None, "integer-fallback-out-of-range", m.span())
            return Extraction(value, "integer-fallback", m.span())
    return Extraction(None, "not-found", None)


# The --parser keywords that build a JSON-field preset from flags (--field, --null-as, ...),
# and whether each reads with the tolerant reader: `json` (v1) and `json/v2`.
ADHOC_JSON_PARSERS: Mapping[str, bool] = MappingProxyType({"json": False, "json/v2": True})


@dataclass(frozen=True)
class JsonFieldPreset:
    """A frozen JSON-field preset: which field, what null means, which values are allowed, and
    which reading of JSON (``tolerant``: the v2 reader, `json_tolerant`)."""

    name: str
    field: str
    null_as: int | None = None
    allowed: tuple[int, int] | None = None  # inclusive bounds
    integer_fallback: bool = True
    family: str = "json"
    tolerant: bool = False

    def extract(self, text: str) -> Extraction:
        allowed = range(self.allowed[0], self.allowed[1] + 1) if self.allowed else None
        return extract_json_field(
            text,
            self.field,
            null_as=self.null_as,
            allowed=allowed,
            integer_fallback=self.integer_fallback,
            tolerant=self.tolerant,
        )

    def describe(self) -> list[str]:
        allowed = f"{self.allowed[0]}-{self.allowed[1]}" if self.allowed else "any integer"
        if self.tolerant:
            reading = (
                "first JSON object: at each `{`, the standard decoder where it reads, else the "
                "tolerant reader (trailing commas, single quotes, unquoted keys, `//` and `/* */` "
                "comments, `None`/`True`/`False`, line breaks inside strings); trailing text "
                "ignored"
            )
            invalid = (
                '`json-invalid`: something reads as JSON (`{"`, or a key, `:` and the start of '
                "a value) but no object reads to its end: None, no fallback"
            )
        else:
            reading = (
                "first JSON object: the standard decoder tried at each `{`, trailing text ignored"
            )
            invalid = (
                "`json-invalid`: something looks like JSON but nothing decodes: None, no fallback"
            )
        steps = [
            reading,
            f"`json-value`: field `{self.field}` as an integer in {allowed}",
            f"`json-null`: null -> {self.null_as}",
            "`json-missing-key` / `json-not-integer` / `json-out-of-range`: None",
            invalid,
        ]
        if self.integer_fallback:
            steps.append("`integer-fallback`: no JSON at all: the first standalone integer")
        return steps
