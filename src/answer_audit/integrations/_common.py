"""What both integrations share: a preset resolved once, its data kind, and its choice set."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from answer_audit.extraction import Extraction
from answer_audit.matching import NORMALIZERS
from answer_audit.parsers import ChoicePreset, Parser, PresetSet, get_parser
from answer_audit.parsers.extract import extract
from answer_audit.schemes.kinds import Kind, parser_kind


@dataclass(frozen=True)
class PresetMatcher:
    """A preset plus the matcher of its kind: extraction and correctness in one place."""

    parser: Parser
    kind: Kind
    normalizer: str = "v1"

    @classmethod
    def create(
        cls, preset: str, normalizer: str = "v1", presets: str | Path | None = None
    ) -> PresetMatcher:
        """Resolve ``preset`` (built-in, or from a TOML file) and check the normalizer."""
        if normalizer not in NORMALIZERS:
            known = ", ".join(NORMALIZERS)
            raise ValueError(f"unknown normalizer {normalizer!r}; known: {known}")
        user = PresetSet.from_file(Path(presets)) if presets is not None else None
        parser = get_parser(preset, user)
        return cls(parser, parser_kind(parser), normalizer)

    def extract(
        self, text: str, options: Sequence[str] | None = None, choices: str | None = None
    ) -> Extraction:
        """The preset's extraction. For a choice preset, ``choices`` (e.g. ``"abcde"``) is the
        choice set, else ``options`` (the option texts) give it, else the preset's own."""
        if not isinstance(self.parser, ChoicePreset):
            return extract(text, self.parser)
        choice_set = choices or (letters(len(options)) if options else None)
        return extract(text, self.parser, choices=choice_set, choices_text=options or None)

    def correct(self, value: str | int | None, targets: Sequence[str]) -> bool:
        """Whether the value matches any of the targets with the kind's matcher."""
        return any(self.kind.correct(value, t, self.normalizer) for t in targets)


def letters(count: int) -> str:
    """``letters(4)`` -> ``"abcd"``: the choice set of ``count`` options."""
    if not 1 <= count <= 26:
        raise ValueError(f"a choice set has 1 to 26 options, not {count}")
    return "".join(chr(ord("a") + i) for i in range(count))


def option_texts(value: object) -> list[str] | None:
    """Option texts from a list, or from an ARC-style ``{"text": [...], "label": [...]}``."""
    if isinstance(value, Mapping):
        value = value.get("text")
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return list(value)
    return None
