"""The tolerant JSON reader of the JSON family's v2 presets: the JSON models actually write.

It reads every object the standard decoder reads, to the same value, and also:

- trailing commas: ``{"a": 1,}``, ``[1, 2,]`` (one, before the closing bracket);
- single-quoted strings: ``{'a': 'b'}`` (with the JSON escapes, and ``\\'``);
- unquoted keys that are identifiers: ``{isup_grade: 4}``;
- comments wherever whitespace may stand: ``// to the end of the line`` and ``/* ... */``;
- Python's constants: ``None``, ``True``, ``False`` (as ``null``, ``true``, ``false``);
- raw line breaks and tabs inside strings, and any Unicode whitespace between tokens.

Numbers are JSON's (``03``, ``1_000``, ``.5`` and ``0x1F`` are not read), and so are ``NaN``,
``Infinity`` and ``-Infinity``, which the standard decoder reads too. Nothing in the text is
ever evaluated: this is a scanner that builds dicts, lists, strings and numbers. It keeps its
own stack (no recursion), gives up beyond `MAX_DEPTH` levels, and reads each character a
bounded number of times, so one call takes time linear in what it reads.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from answer_audit.extraction import Span

# Nesting the tolerant reader follows before it gives up (`TolerantFailure.too_deep`).
MAX_DEPTH = 512

# Whitespace and line comments; a block comment is looked for separately, so that an unclosed
# "/*" costs nothing (see `TolerantReader.skip`).
_TRIVIA = re.compile(r"\s*(?://[^\n]*\s*)*")
# String bodies up to the closing quote, any escape taken as two characters (linear: no two
# ways to match the same text).
_DOUBLE_QUOTED_BODY = re.compile(r'[^"\\]*(?:\\[\s\S][^"\\]*)*')
_SINGLE_QUOTED_BODY = re.compile(r"[^'\\]*(?:\\[\s\S][^'\\]*)*")
# A surrogate pair first (the standard decoder joins the two halves), then one code unit, then
# a one-character escape.
_ESCAPE = re.compile(
    r"\\(?:u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})"
    r"|u([0-9a-fA-F]{4})|([\s\S]))"
)
_SIMPLE_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "'": "'",
                   "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}  # fmt: skip
# JSON's number grammar, with ASCII digits as the standard decoder reads them.
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_NUMBER_START = frozenset("0123456789")
# Integers in a list, each after whitespace and before a comma: what the steps of
# `TolerantReader.read_object` read one by one (a comment, a fraction or an exponent ends the
# run; the reader goes on from there). Possessive: read once, never backtracked into.
_INTEGER_ITEMS = re.compile(r"(?:\s*+-?+(?:0|[1-9][0-9]*+),)++")
_INTEGER = re.compile(r"-?[0-9]+")
_IDENTIFIER_SOURCE = r"(?:[^\W\d]|\$)[\w$]*"
_IDENTIFIER = re.compile(_IDENTIFIER_SOURCE)
_CONSTANTS: dict[str, Any] = {
    "true": True, "false": False, "null": None, "True": True, "False": False, "None": None,
    "NaN": float("nan"), "Infinity": float("inf"),
}  # fmt: skip
# Where an object may start for this reader: "{", then whitespace and a quote, "}", an
# identifier and ":", or a "/" that may open a comment (a cheap filter: the reader decides).
OBJECT_START = re.compile(rf"\{{(?=\s*(?:[\"'}}/]|{_IDENTIFIER_SOURCE}\s*[:/]))")
# What a value can start with; a constant (true, None, ...) too.
_VALUE_START = frozenset("\"'{[-0123456789")

# The reader's states: what it expects next.
_VALUE, _VALUE_OR_CLOSE, _KEY_OR_CLOSE, _COLON, _COMMA_OR_CLOSE = range(5)


class _BadEscape(ValueError):
    """A backslash escape the reader does not know."""


@dataclass(frozen=True, slots=True)
class TolerantObject:
    """An object the tolerant reader read."""

    obj: dict[str, Any]
    """The object, as `json.loads` would build it (the last of two equal keys wins)."""
    end: int
    """Where it ends in the text: one past its closing brace."""
    member_spans: dict[str, Span]
    """Where each top-level member's value stands in the text (the last one of a repeated
    key)."""


@dataclass(frozen=True, slots=True)
class TolerantFailure:
    """Why nothing could be read from a given ``{``."""

    pos: int
    """Where reading stopped: everything before it was read."""
    too_deep: bool
    """Whether it stopped because the text nests deeper than `MAX_DEPTH`."""
    open_objects: tuple[int, ...]
    """Where the objects still open when it stopped start: read on their own they stop at the
    same place for the same reason (a value reads the same whatever surrounds it), unless the
    reason was depth."""
    reads_as_json: bool
    """Whether the text read as JSON up to a value: past the first key and ``:`` to something a
    value starts with (a quote, a bracket, a digit, ``-``, a constant). Braces in prose
    (``{x : x > 0}``, ``{'a', 'b'}``) do not."""


class TolerantReader:
    """Reads tolerant JSON objects out of one text (see the module docstring for the forms).

    ``parse_int`` turns the digits of an integer into a value, as in `json.JSONDecoder`.

    >>> TolerantReader("x {a: 'b', // c\\n}").read_object(2).obj
    {'a': 'b'}
    """

    def __init__(self, text: str, parse_int: Callable[[str], Any] = int) -> None:
        self.text = text
        self.parse_int = parse_int
        # No "*/" after this index: a "/*" beyond it is unclosed, known without a search.
        self._last_comment_close = text.rfind("*/")

    def skip(self, pos: int) -> int:
        """The first position at or after ``pos`` that is not whitespace or a comment (an
        unclosed ``/*`` stays: it is no token, so reading stops there)."""
        text = self.text
        while True:
            pos = _TRIVIA.match(text, pos).end()  # type: ignore[union-attr]  # always matches
            if not text.startswith("/*", pos) or pos + 2 > self._last_comment_close:
                return pos
            pos = text.find("*/", pos + 2) + 2

    def read_object(self, start: int) -> TolerantObject | TolerantFailure:
        """The object whose ``{`` is at ``start``, or where and why reading it failed."""
        text, n, skip = self.text, len(self.text), self.skip
        stack: list[Any] = [{}]  # the open containers, innermost last
        starts = [start]  # where each one opened
        keys: list[str] = [""]  # the key each open object's next value goes to
        spans: dict[str, Span] = {}
        began = False  # a value has started (`TolerantFailure.reads_as_json`)
        state, pos = _KEY_OR_CLOSE, start + 1
        while True:
            char = text[pos] if pos < n else ""
            if char.isspace() or char == "/":  # (the same whitespace as the pattern's \s)
                pos = skip(pos)
                char = text[pos] if pos < n else ""
            if not char:
                return self._failure(pos, stack, starts, began)
            if state == _COMMA_OR_CLOSE:
                if char == ",":
                    state = _KEY_OR_CLOSE if type(stack[-1]) is dict else _VALUE_OR_CLOSE
                    pos += 1
                    continue
                if char != ("}" if type(stack[-1]) is dict else "]"):
                    return self._failure(pos, stack, starts, began)
                value, value_start, pos = stack.pop(), starts.pop(), pos + 1
                if type(value) is dict:
                    keys.pop()
                if not stack:
                    return TolerantObject(value, pos, spans)
            elif state == _KEY_OR_CLOSE:
                if char == "}":  # "{}", or a trailing comma
                    value, value_start, pos = stack.pop(), starts.pop(), pos + 1
                    keys.pop()
                    if not stack:
                        return TolerantObject(value, pos, spans)
                else:
                    key, pos = self._key(pos, char)
                    if key is None:
                        return self._failure(pos, stack, starts, began)
                    keys[-1] = key
                    if pos < n and text[pos] == ":":  # the usual "key:", in one step
                        state, pos = _VALUE, pos + 1
                    else:
                        state = _COLON
                    continue
            elif state == _COLON:
                if char != ":":
                    return self._failure(pos, stack, starts, began)
                state, pos = _VALUE, pos + 1
                continue
            elif char == "]" and state == _VALUE_OR_CLOSE:  # "[]", or a trailing comma
                value, value_start, pos = stack.pop(), starts.pop(), pos + 1
            elif char in "{[":
                if len(stack) >= MAX_DEPTH:
                    return TolerantFailure(pos, True, (), True)
                began = True
                stack.append({} if char == "{" else [])
                starts.append(pos)
                if char == "{":
                    keys.append("")
                state, pos = (_KEY_OR_CLOSE if char == "{" else _VALUE_OR_CLOSE), pos + 1
                continue
            else:
                value_start = pos
                number = _NUMBER.match(text, pos) if char in _NUMBER_START else None
                if number is not None and number.lastindex is None:  # an integer, the most common
                    value, pos = self.parse_int(number.group()), number.end()
                else:
                    found, value, end = self._scalar(pos, char)
                    if not found:
                        began = began or char in _VALUE_START
                        return self._failure(end, stack, starts, began)
                    pos = end
                began = True
            # A value is complete: it goes into the innermost open container.
            parent = stack[-1]
            in_object = type(parent) is dict
            if in_object:
                parent[keys[-1]] = value
                if len(stack) == 1:
                    spans[keys[-1]] = (value_start, pos)
            else:
                parent.append(value)
            if pos < n and text[pos] == ",":  # the usual "value,", in one step
                state, pos = (_KEY_OR_CLOSE if in_object else _VALUE_OR_CLOSE), pos + 1
                if not in_object and (items := _INTEGER_ITEMS.match(text, pos)) is not None:
                    # the integers that follow, each with its comma, in one step
                    parent.extend(map(self.parse_int, _INTEGER.findall(text, pos, items.end())))
                    pos = items.end()
            else:
                state = _COMMA_OR_CLOSE

    def _failure(
        self, pos: int, stack: list[Any], starts: list[int], began: bool
    ) -> TolerantFailure:
        opened = tuple(s for s, c in zip(starts, stack, strict=True) if type(c) is dict)
        return TolerantFailure(pos, False, opened, began)

    def _key(self, pos: int, char: str) -> tuple[str | None, int]:
        if char in "\"'":
            return self._string(pos, char)
        name = _IDENTIFIER.match(self.text, pos)
        return (None, pos) if name is None else (name.group(), name.end())

    def _scalar(self, pos: int, char: str) -> tuple[bool, Any, int]:
        """A string, number or constant at ``pos``: (found, value, end or where it failed)."""
        text = self.text
        if char in "\"'":
            string, end = self._string(pos, char)
            return string is not None, string, end
        if char == "-" and text.startswith("-Infinity", pos):
            return True, float("-inf"), pos + 9
        if char == "-" or "0" <= char <= "9":
            number = _NUMBER.match(text, pos)
            if number is None:
                return False, None, pos
            digits = number.group()
            if number.group(1) is None and number.group(2) is None:
                return True, self.parse_int(digits), number.end()
            return True, float(digits), number.end()
        name = _IDENTIFIER.match(text, pos)
        if name is None or name.group() not in _CONSTANTS:
            return False, None, pos
        return True, _CONSTANTS[name.group()], name.end()

    def _string(self, pos: int, quote: str) -> tuple[str | None, int]:
        """The string whose opening quote is at ``pos``, and where it ends (or None and where
        reading stopped)."""
        text = self.text
        body = _DOUBLE_QUOTED_BODY if quote == '"' else _SINGLE_QUOTED_BODY
        end = body.match(text, pos + 1).end()  # type: ignore[union-attr]  # always matches
        if end >= len(text) or text[end] != quote:
            return None, end
        string = text[pos + 1 : end]
        if "\\" in string:
            try:
                string = _ESCAPE.sub(_unescape, string)
            except _BadEscape:
                return None, end
        return string, end + 1


def _unescape(escape: re.Match[str]) -> str:
    high, low, unit, char = escape.groups()
    if high is not None:
        return chr(0x10000 + ((int(high, 16) - 0xD800) << 10) + int(low, 16) - 0xDC00)
    if unit is not None:
        return chr(int(unit, 16))
    try:
        return _SIMPLE_ESCAPES[char]
    except KeyError:
        raise _BadEscape(char) from None
