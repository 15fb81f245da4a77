"""JSON-field answers: the first JSON object in a completion, and one integer field of it.

The built-in presets are data in `answer_audit.parsers.presets.json`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from answer_audit.extraction import Extraction, Span

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

Accept = Callable[[dict[str, Any]], bool] | type


@dataclass(frozen=True, slots=True)
class JsonScan:
    """Result of scanning a text for JSON objects."""

    obj: dict[str, Any] | None
    span: Span | None
    candidates: int  # how many places looked like the start of an object


def scan_json_objects(text: str, accept: Accept | None = None) -> JsonScan:
    """Find the first JSON object that decodes (and that ``accept`` accepts)."""
    check = _acceptor(accept)
    budget = _SCAN_BUDGET_FACTOR * len(text) + 4096
    deep_failures = 0
    candidates = 0
    for m in _OBJECT_START.finditer(text):
        candidates += 1
        start = m.start()
        try:
            obj, end = _DECODER.raw_decode(text, start)
        except json.JSONDecodeError as err:
            budget -= max(err.pos - start, 1)
        except RecursionError:
            deep_failures += 1
            budget -= len(text) - start
            if deep_failures >= _MAX_DEEP_FAILURES:
                break
        else:
            if isinstance(obj, dict) and check(obj):
                return JsonScan(obj, (start, end), candidates)
            budget -= end - start
        if budget <= 0:
            break
    return JsonScan(None, None, candidates)


def first_json_object(
    text: str, accept: Accept | None = None
) -> tuple[dict[str, Any], Span] | None:
    """The first JSON object in ``text`` and its ``(start, end)`` span, or None.

    Tries the standard decoder at each ``{``; trailing text after the object is ignored, an
    object inside a Markdown fence is found too. ``accept`` (a predicate, or a pydantic model
    class) rejects objects, and the scan continues with the next one.

    >>> first_json_object('Sure: {"grade": 2} hope this helps')
    ({'grade': 2}, (6, 18))
    """
    found = scan_json_objects(text, accept)
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
) -> Extraction:
    """An integer field of the first JSON object, with every way it can go wrong named.

    Rules: ``json-value``, ``json-null`` (value null -> ``null_as``), ``json-missing-key``,
    ``json-not-integer``, ``json-out-of-range``, ``json-invalid`` (looks like JSON, none
    decodes; no fallback), ``integer-fallback`` (no JSON at all: first standalone integer),
    ``integer-fallback-out-of-range``, ``not-found``.

    >>> extract_json_field('{"isup_grade": null}', "isup_grade", null_as=0)
    Extraction(value=0, rule='json-null', span=(15, 19))
    """
    found = scan_json_objects(text)
    if found.obj is not None and found.span is not None:
        if field not in found.obj:
            return Extraction(None, "json-missing-key", found.span)
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


@dataclass(frozen=True)
class JsonFieldPreset:
    """A frozen JSON-field preset: which field, what null means, which values are allowed."""

    name: str
    field: str
    null_as: int | None = None
    allowed: tuple[int, int] | None = None  # inclusive bounds
    integer_fallback: bool = True
    family: str = "json"

    def extract(self, text: str) -> Extraction:
        allowed = range(self.allowed[0], self.allowed[1] + 1) if self.allowed else None
        return extract_json_field(
            text,
            self.field,
            null_as=self.null_as,
            allowed=allowed,
            integer_fallback=self.integer_fallback,
        )

    def describe(self) -> list[str]:
        allowed = f"{self.allowed[0]}-{self.allowed[1]}" if self.allowed else "any integer"
        steps = [
            "first JSON object: the standard decoder tried at each `{`, trailing text ignored",
            f"`json-value`: field `{self.field}` as an integer in {allowed}",
            f"`json-null`: null -> {self.null_as}",
            "`json-missing-key` / `json-not-integer` / `json-out-of-range`: None",
            "`json-invalid`: something looks like JSON but nothing decodes: None, no fallback",
        ]
        if self.integer_fallback:
            steps.append("`integer-fallback`: no JSON at all: the first standalone integer")
        return steps
