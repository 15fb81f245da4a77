"""User-supplied patterns run with a time limit, so a preset file cannot hang the program.

Built-in presets use the standard ``re`` module and are checked linear by `make bench`. Patterns
from a user's TOML file are compiled with the ``regex`` module (the same syntax for everything
``re`` accepts). One text gets ``USER_PATTERN_TIMEOUT`` seconds for all its user-pattern calls
together (`text_budget`; a call outside one gets that long by itself): a pattern that takes
0.9 s per line cannot add up to hours on a long text. Running out raises `PatternTimeout`,
which the engines turn into the rule ``pattern-timeout``. `check_user_pattern` refuses, when a
file is loaded, what would blow up while compiling (nested counted repeats that the ``regex``
module expands, very deep nesting).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import regex

from answer_audit.extraction import Extraction

USER_PATTERN_TIMEOUT = 1.0
# Nested counted repeats multiply when `regex` compiles them: (?:(?:a{100}){100}){100} is a
# million copies (0.3 s, and 100 more a hundred million: out of memory). Above this, refused.
MAX_REPEAT_PRODUCT = 100_000
MAX_NESTING = 100  # groups inside groups; `regex` recurses per level

_DEADLINE: ContextVar[float | None] = ContextVar("user_pattern_deadline", default=None)


@contextmanager
def text_budget(seconds: float = USER_PATTERN_TIMEOUT) -> Iterator[None]:
    """Give the user-pattern calls inside (one text's extraction) ``seconds`` in total; an
    enclosing budget is never extended."""
    deadline = time.monotonic() + seconds
    outer = _DEADLINE.get()
    token = _DEADLINE.set(deadline if outer is None else min(outer, deadline))
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def budgeted(run: Callable[[], Extraction], *, timed: bool) -> Extraction:
    """``run()``; for a preset file's patterns (``timed``) under one `text_budget`, and the
    rule ``pattern-timeout`` when the budget runs out."""
    if not timed:
        return run()
    try:
        with text_budget():  # all the file's patterns on this text share one time limit
            return run()
    except PatternTimeout:
        return Extraction(None, "pattern-timeout", None)


def _time_left(pattern: str) -> float:
    deadline = _DEADLINE.get()
    if deadline is None:
        return USER_PATTERN_TIMEOUT
    left = deadline - time.monotonic()
    if left <= 0:
        raise PatternTimeout(f"pattern {pattern!r}: the text's time budget ran out")
    return min(left, USER_PATTERN_TIMEOUT)


def check_user_pattern(pattern: str) -> str | None:
    """Why ``pattern`` (already valid syntax or not) may not be compiled, or None.

    >>> check_user_pattern("(?:(?:(?:a{100}){100}){100}){100}")
    'nested counted repeats expand to 100000000 copies (at most 100000)'
    """
    product, depth = _repeat_product(pattern)
    if depth > MAX_NESTING:
        return f"groups nest {depth} deep (at most {MAX_NESTING})"
    if product > MAX_REPEAT_PRODUCT:
        return f"nested counted repeats expand to {product} copies (at most {MAX_REPEAT_PRODUCT})"
    return None


_COUNT = regex.compile(r"\{(\d+)(?:,(\d*))?\}")


def _repeat_product(pattern: str) -> tuple[int, int]:
    """The largest product of counted repeats ``{m}``/``{m,n}`` nested in one another, and the
    deepest group nesting, read from the pattern's text (escapes and classes skipped)."""
    stack = [1]  # per open group: the largest product inside it so far
    deepest, i, n = 0, 0, len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "\\":
            j = i + 2
            if pattern[i + 1 : j] in ("p", "P", "N", "x") and pattern[j : j + 1] == "{":
                j = pattern.find("}", j) + 1 or n  # \p{L}, \N{...}, \x{...}
            atom, i = 1, j
        elif ch == "[":
            atom, i = 1, _class_end(pattern, i)
        elif ch == "(":
            stack.append(1)
            deepest = max(deepest, len(stack) - 1)
            i += 1
            continue  # nothing to repeat yet
        elif ch == ")" and len(stack) > 1:
            atom, i = stack.pop(), i + 1  # a group repeats all that is inside it
        else:
            atom, i = 1, i + 1
        m = _COUNT.match(pattern, i)
        if m is not None:
            atom *= max(int(m.group(2) or m.group(1)), 1)
            i = m.end()
        stack[-1] = max(stack[-1], atom)
    return max(stack), deepest


def _class_end(pattern: str, i: int) -> int:
    """Index after the character class opening at ``i``."""
    j = i + 1
    if j < len(pattern) and pattern[j] == "^":
        j += 1
    if j < len(pattern) and pattern[j] == "]":
        j += 1  # a "]" first is a literal
    while j < len(pattern):
        if pattern[j] == "\\":
            j += 2
        elif pattern[j] == "]":
            return j + 1
        else:
            j += 1
    return len(pattern)


class PatternTimeout(Exception):
    """A user pattern took longer than `USER_PATTERN_TIMEOUT` on one text."""


class TimedPattern:
    """The subset of ``re.Pattern`` the engines use, each call bounded in time."""

    # __weakref__: the engines look a pattern up in `prefilters.original`'s weak mapping
    __slots__ = ("__weakref__", "_pattern", "pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._pattern = regex.compile(pattern, flags)
        self.pattern = pattern

    @property
    def groups(self) -> int:
        return int(self._pattern.groups)

    def _guard(self, method: str, *args: Any) -> Any:
        try:
            return getattr(self._pattern, method)(*args, timeout=_time_left(self.pattern))
        except TimeoutError:
            raise PatternTimeout(f"pattern {self.pattern!r} timed out") from None

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> Any:
        return self._guard("search", text, pos, len(text) if endpos is None else endpos)

    def match(self, text: str, pos: int = 0, endpos: int | None = None) -> Any:
        return self._guard("match", text, pos, len(text) if endpos is None else endpos)

    def fullmatch(self, text: str, pos: int = 0, endpos: int | None = None) -> Any:
        return self._guard("fullmatch", text, pos, len(text) if endpos is None else endpos)

    def finditer(self, text: str, pos: int = 0, endpos: int | None = None) -> Iterator[Any]:
        end = len(text) if endpos is None else endpos
        try:  # materialized, so a timeout is raised here and not in the caller's loop
            found = list(self._pattern.finditer(text, pos, end, timeout=_time_left(self.pattern)))
        except TimeoutError:
            raise PatternTimeout(f"pattern {self.pattern!r} timed out") from None
        return iter(found)

    def findall(self, text: str) -> list[Any]:
        return list(self._guard("findall", text))

    def sub(self, repl: Any, text: str, count: int = 0) -> str:
        return str(self._guard("sub", repl, text, count))


def compile_user_pattern(pattern: str, flags: int = 0) -> TimedPattern:
    """Compile a user pattern for timed matching."""
    return TimedPattern(pattern, flags)
