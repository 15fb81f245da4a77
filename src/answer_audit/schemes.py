"""Schemes: a parser (a preset, or the stored parse) + a normalizer + the family's matcher.

Applying a scheme to the canonical table gives, per row, the extracted value, the rule that
fired, its span, and the correctness label (None where there is no truth).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import polars as pl

from answer_audit.extraction import Extraction
from answer_audit.matching import is_correct
from answer_audit.parsers import BUILTIN, Parser, PresetError, get_parser
from answer_audit.text import NORMALIZERS

Kind = Literal["freeform", "choice", "json"]
KINDS: tuple[Kind, ...] = ("freeform", "choice", "json")
STORED = "stored"
NO_OUTPUT = Extraction(None, "no-output")


@dataclass(frozen=True)
class Scheme:
    """How to label a row: ``parser`` is a preset name or ``"stored"`` (the stored parse)."""

    name: str
    parser: str
    normalizer: str = "v1"

    @property
    def uses_stored_parse(self) -> bool:
        return self.parser == STORED

    def spec(self) -> str:
        return f"{self.name}={self.parser}:{self.normalizer}"


def parse_scheme(text: str) -> Scheme:
    """Parse ``NAME=PARSER[:NORMALIZER]`` (normalizer defaults to v1).

    >>> parse_scheme("strict=freeform/v2:v2")
    Scheme(name='strict', parser='freeform/v2', normalizer='v2')
    """
    m = re.fullmatch(r"\s*([\w.\-]+)\s*=\s*([\w./\-]+)\s*(?::\s*([\w\-]+))?\s*", text)
    if m is None:
        raise ValueError(
            f"--scheme {text!r}: expected NAME=PARSER[:NORMALIZER], e.g. mine=freeform/v2:v2"
        )
    name, parser, normalizer = m.group(1), m.group(2), m.group(3) or "v1"
    if normalizer not in NORMALIZERS:
        raise ValueError(
            f"--scheme {text!r}: unknown normalizer {normalizer!r}; known: {', '.join(NORMALIZERS)}"
        )
    return Scheme(name, parser, normalizer)


CONSISTENCY = Scheme("consistency", STORED, "v1")


def default_schemes(kind: Kind) -> list[Scheme]:
    """The schemes an audit runs when the user names none (see README)."""
    if kind == "freeform":
        return [
            Scheme("parse_only", "freeform/v2", "v1"),
            Scheme("parse_norm", "freeform/v2", "v2"),
            Scheme("norm_only", STORED, "v2"),
        ]
    family = "choice" if kind == "choice" else "json"
    return [Scheme(name, name, "v1") for name, p in sorted(BUILTIN.items()) if p.family == family]


def merge_schemes(base: Sequence[Scheme], extra: Sequence[Scheme]) -> list[Scheme]:
    """``base`` with ``extra`` added; a scheme of the same name replaces the base one."""
    merged = {s.name: s for s in base}
    merged.update({s.name: s for s in extra})
    return list(merged.values())


def check_scheme(scheme: Scheme, kind: Kind, presets: Mapping[str, Parser] | None) -> None:
    """Raise a clear error when a scheme's parser does not exist or does not fit the data kind."""
    if scheme.uses_stored_parse:
        return
    preset = get_parser(scheme.parser, presets)
    if preset.family != kind and not (kind == "freeform" and preset.family == "freeform"):
        raise PresetError(
            f"scheme {scheme.name!r} uses {scheme.parser!r} ({preset.family}) on {kind} data; "
            f"pass --kind {preset.family} or pick a {kind} preset"
        )


# ------------------------------------------------------------------ labelling


def truth_key(truth: str | None, kind: Kind) -> str | int | None:
    """What an extracted choice/number is compared with: a lowercase letter or an integer."""
    if truth is None:
        return None
    t = truth.strip().lower()
    if not t:
        return None
    if kind == "choice":
        return chr(ord("a") + int(t) - 1) if t.isdigit() and 1 <= int(t) <= 26 else t
    if kind == "json":
        try:
            return int(float(t))
        except ValueError:
            return t
    return truth


def label_value(
    value: str | int | None, truth: str | None, kind: Kind, normalizer: str
) -> bool | None:
    """Correctness of one extracted value against the truth, with the kind's matcher."""
    if kind == "freeform":
        return is_correct(None if value is None else str(value), truth, normalizer)
    key = truth_key(truth, kind)
    if key is None:
        return None
    if value is None:
        return False
    if kind == "choice":
        return truth_key(str(value), kind) == key
    return value == key


def stored_extraction(parsed: str | None, kind: Kind) -> Extraction:
    """The stored parse as an Extraction (rule ``stored``), typed like the kind's values."""
    if parsed is None:
        return Extraction(None, "stored-missing")
    if kind == "json":
        try:
            return Extraction(int(float(parsed)), STORED)
        except ValueError:
            return Extraction(None, "stored-unparseable")
    return Extraction(parsed, STORED)


def apply_scheme(
    frame: pl.DataFrame,
    scheme: Scheme,
    kind: Kind,
    presets: Mapping[str, Parser] | None = None,
) -> pl.DataFrame:
    """Columns ``value`` (as string), ``rule``, ``span_start``, ``span_end``, ``correct``.

    Each distinct raw text is parsed once; each distinct (value, truth) pair matched once.
    """
    if scheme.uses_stored_parse:
        if "parsed" not in frame.columns:
            raise ValueError(
                f"scheme {scheme.name!r} uses the stored parse, but no parsed column was given (--parsed)"
            )
        extractions = _map_unique(frame["parsed"], lambda p: stored_extraction(p, kind))
    else:
        preset = get_parser(scheme.parser, presets)
        extractions = _map_unique(
            frame["raw"], lambda raw: NO_OUTPUT if raw is None else preset.extract(raw)
        )
    truths = frame["truth"].to_list() if "truth" in frame.columns else [None] * frame.height
    cache: dict[tuple[object, str | None], bool | None] = {}
    correct: list[bool | None] = []
    for ex, truth in zip(extractions, truths, strict=True):
        key = (ex.value, truth)
        if key not in cache:
            cache[key] = label_value(ex.value, truth, kind, scheme.normalizer)
        correct.append(cache[key])
    return pl.DataFrame(
        {
            "value": [None if e.value is None else str(e.value) for e in extractions],
            "rule": [e.rule for e in extractions],
            "span_start": [e.span[0] if e.span else None for e in extractions],
            "span_end": [e.span[1] if e.span else None for e in extractions],
            "correct": correct,
        },
        schema={
            "value": pl.String,
            "rule": pl.String,
            "span_start": pl.Int64,
            "span_end": pl.Int64,
            "correct": pl.Boolean,
        },
    )


def _map_unique(column: pl.Series, fn: Callable[[str | None], Extraction]) -> list[Extraction]:
    """``fn`` over a column, computed once per distinct value."""
    seen: dict[str | None, Extraction] = {}
    return [seen[v] if v in seen else seen.setdefault(v, fn(v)) for v in column.to_list()]
