"""User-supplied patterns run with a time limit, so a preset file cannot hang the program.

Built-in presets use the standard ``re`` module and are checked linear by `make bench`. Patterns
from a user's TOML file are compiled with the ``regex`` module (the same syntax for everything
``re`` accepts) and every match call gets ``USER_PATTERN_TIMEOUT`` seconds; a call that runs
out raises `PatternTimeout`, which the engines turn into the rule ``pattern-timeout``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import regex

USER_PATTERN_TIMEOUT = 1.0


class PatternTimeout(Exception):
    """A user pattern took longer than `USER_PATTERN_TIMEOUT` on one text."""


class TimedPattern:
    """The subset of ``re.Pattern`` the engines use, each call bounded in time."""

    __slots__ = ("_pattern", "pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._pattern = regex.compile(pattern, flags)
        self.pattern = pattern

    @property
    def groups(self) -> int:
        return int(self._pattern.groups)

    def _guard(self, method: str, *args: Any) -> Any:
        try:
            return getattr(self._pattern, method)(*args, timeout=USER_PATTERN_TIMEOUT)
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
            found = list(self._pattern.finditer(text, pos, end, timeout=USER_PATTERN_TIMEOUT))
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
