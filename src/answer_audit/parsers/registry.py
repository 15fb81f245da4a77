"""Looking presets up by name: the built-ins (`presets`) plus any user presets given.

User presets are read from TOML files by `preset_files`; `PresetSet.from_file` joins them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType

from answer_audit.parsers.base import Parser, PresetError
from answer_audit.parsers.preset_files import load_preset_file
from answer_audit.parsers.presets import BUILTIN, COMPARISON

__all__ = ["BUILTIN", "COMPARISON", "PresetError", "PresetSet", "get_parser", "list_parsers"]


class PresetSet(Mapping[str, Parser]):
    """An immutable set of presets: the built-ins plus any user presets given to it."""

    def __init__(self, extra: Mapping[str, Parser] | None = None) -> None:
        clash = sorted(set(extra or {}) & set(BUILTIN))
        if clash:
            raise PresetError(f"user presets may not redefine built-in presets: {', '.join(clash)}")
        self._presets: Mapping[str, Parser] = MappingProxyType({**BUILTIN, **(extra or {})})

    def __getitem__(self, name: str) -> Parser:
        return self._presets[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._presets)

    def __len__(self) -> int:
        return len(self._presets)

    @classmethod
    def from_file(cls, path: str | Path | None) -> PresetSet:
        """Built-ins plus the presets defined in a TOML file (None: built-ins only)."""
        return cls(load_preset_file(path) if path else None)


def get_parser(name: str, presets: Mapping[str, Parser] | None = None) -> Parser:
    """The preset called ``name`` (built-in, or from ``presets``).

    >>> get_parser("choice/v3").family
    'choice'
    """
    table = presets if presets is not None else BUILTIN
    try:
        return table[name]
    except KeyError:
        raise PresetError(f"unknown parser {name!r}; known: {', '.join(sorted(table))}") from None


def list_parsers(presets: Mapping[str, Parser] | None = None) -> list[str]:
    """Names of every available preset, sorted with their numbers by value (``choice/v9``
    before ``choice/v10``)."""
    return sorted(presets if presets is not None else BUILTIN, key=_by_number)


def _by_number(name: str) -> list[str | int]:
    """A sort key reading each run of digits as a number: ``["choice/v", 10]``."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]
