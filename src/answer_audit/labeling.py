"""One labelling of the canonical rows: a parser preset or a stored parse, with error rows masked.

Both rescoring and diffs label rows this way, so "correct" means the same in both: the parser
family's matcher (`schemes.label_value`) on the extracted value, and an error row is never
correct. Error rows are rows whose error column is non-empty (rule ``error``) or whose raw
output is empty or missing (rule ``no-output``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from answer_audit.extraction import Span
from answer_audit.parsers import ChoicePreset, Parser, PresetError, get_parser
from answer_audit.schemes import (
    ERROR_RULE,
    KINDS,
    STORED,
    Kind,
    Scheme,
    apply_scheme,
    truth_key,
)
from answer_audit.text import NORMALIZERS

Value = str | int | None
NO_OUTPUT_RULE = "no-output"
ERROR_RULES = (ERROR_RULE, NO_OUTPUT_RULE)
STORED_PREFIX = "stored:"


@dataclass(frozen=True)
class Labels:
    """Per row: the value as the matcher compares it, the rule, the span, and correctness.

    Values are ints for JSON presets, lowercase letters for choice presets, text for free-form;
    ``correct`` is None where the row has no truth.
    """

    name: str
    kind: Kind
    values: list[Value]
    rules: list[str]
    spans: list[Span | None]
    correct: list[bool | None]

    def __len__(self) -> int:
        return len(self.values)


def kind_of(parser: Parser) -> Kind:
    """The parser's family as a matcher kind; PresetError for a family no matcher handles."""
    if parser.family not in KINDS:
        raise PresetError(f"parser {parser.name!r} has family {parser.family!r}; no matcher for it")
    return parser.family


def resolve_parser(
    parser: str | Parser,
    presets: Mapping[str, Parser] | None = None,
    choices: str | None = None,
) -> Parser:
    """A preset by name (or as given), with ``choices`` applied to a choice preset.

    >>> resolve_parser("choice/v3", choices="abcde").choices
    'abcde'
    """
    preset = get_parser(parser, presets) if isinstance(parser, str) else parser
    if choices is None:
        return preset
    if not isinstance(preset, ChoicePreset):
        raise PresetError(f"choices apply to choice presets only, not {preset.name!r}")
    return dataclasses.replace(preset, choices=choices.lower())


def pick_normalizer(normalizer: str | None, kind: Kind) -> str:
    """The normalizer to match with: v1 by default; one given must exist and suit the kind.

    Choice and JSON values are compared as letters and integers, so a normalizer named for
    them is a mistake, not something to ignore.
    """
    if normalizer is None:
        return "v1"
    if normalizer not in NORMALIZERS:
        raise ValueError(f"unknown normalizer {normalizer!r}; known: {', '.join(NORMALIZERS)}")
    if kind != "freeform":
        raise ValueError(f"a normalizer applies to free-form parsers only, not to {kind} ones")
    return normalizer


def error_rules(frame: pl.DataFrame) -> list[str | None]:
    """Per row: ``error`` (error column non-empty), ``no-output`` (raw empty/missing) or None."""
    raw = frame["raw"].to_list()
    errors = frame["error"].to_list() if "error" in frame.columns else [None] * frame.height
    out: list[str | None] = []
    for text, error in zip(raw, errors, strict=True):
        if error is not None and str(error).strip():
            out.append(ERROR_RULE)
        elif text is None or not text.strip():
            out.append(NO_OUTPUT_RULE)
        else:
            out.append(None)
    return out


def parser_labels(
    frame: pl.DataFrame,
    parser: Parser,
    *,
    normalizer: str = "v1",
    name: str | None = None,
    workers: int = 1,
) -> Labels:
    """Label every row of a canonical frame with a preset (choices already applied);
    ``workers`` as in `schemes.apply_scheme`."""
    kind = kind_of(parser)
    scheme = Scheme(name or parser.name, parser.name, normalizer)
    table = apply_scheme(frame, scheme, kind, {parser.name: parser}, workers=workers)
    return _finish(frame, table, scheme.name, kind, stored=False)


def stored_labels(
    frame: pl.DataFrame,
    kind: Kind,
    values: Sequence[str | None] | pl.Series | None = None,
    *,
    normalizer: str = "v1",
    name: str = STORED,
) -> Labels:
    """Label every row with a stored parse: ``values`` (same row order), else ``frame["parsed"]``.

    Blank stored values count as missing (rule ``stored-missing``).
    """
    if values is not None:
        column = pl.Series("parsed", list(values), dtype=pl.String, strict=False)
        if column.len() != frame.height:
            raise ValueError(f"{name}: {column.len()} stored values for {frame.height} rows")
        frame = frame.with_columns(column)
    elif "parsed" not in frame.columns:
        raise ValueError(f"{name}: no stored parse column was mapped; name one as stored:COLUMN")
    blank = frame["parsed"].str.strip_chars().eq("").fill_null(False)
    frame = frame.with_columns(
        pl.when(blank).then(None).otherwise(pl.col("parsed")).alias("parsed")
    )
    table = apply_scheme(frame, Scheme(name, STORED, normalizer), kind)
    return _finish(frame, table, name, kind, stored=True)


def _finish(
    frame: pl.DataFrame, table: pl.DataFrame, name: str, kind: Kind, *, stored: bool
) -> Labels:
    values: list[Value] = []
    rules: list[str] = []
    spans: list[Span | None] = []
    correct: list[bool | None] = []
    for row, err in zip(table.iter_rows(named=True), error_rules(frame), strict=True):
        ok: bool | None = row["correct"]
        if err is not None:
            values.append(None)
            rules.append(err)
            spans.append(None)
            correct.append(None if ok is None else False)
            continue
        values.append(typed_value(row["value"], kind, stored=stored))
        rules.append(row["rule"])
        start, end = row["span_start"], row["span_end"]
        spans.append(None if start is None else (start, end))
        correct.append(ok)
    return Labels(name, kind, values, rules, spans, correct)


def typed_value(text: str | None, kind: Kind, *, stored: bool = False) -> Value:
    """An extracted value (as text) back in the form the matcher compares: int, letter, text."""
    if text is None or not text.strip():
        return None
    if kind == "json":
        return int(text)
    if kind == "choice" and stored:
        return truth_key(text, "choice")
    return text


def truth_classes(frame: pl.DataFrame, kind: Kind) -> list[str | None]:
    """Each row's truth class as text: the matcher's key for choice/JSON, the truth otherwise."""
    if "truth" not in frame.columns:
        return [None] * frame.height
    out: list[str | None] = []
    for truth in frame["truth"].to_list():
        key = truth if kind == "freeform" else truth_key(truth, kind)
        out.append(None if key is None else str(key))
    return out


def group_indices(
    frame: pl.DataFrame, group_by: Sequence[str]
) -> list[tuple[tuple[Any, ...], list[int]]]:
    """Each group's key and row indices, groups ordered by the text of their values.

    Grouped by Polars, as the audit groups: NaN is one group (a Python dict would make every
    NaN row its own group, since NaN != NaN).
    """
    row = "__answer_audit_row__"
    grouped = (
        frame.select(group_by)
        .with_row_index(row)
        .group_by(list(group_by), maintain_order=True)
        .agg(pl.col(row))
    )
    groups = [(tuple(r[:-1]), list(r[-1])) for r in grouped.iter_rows()]
    return sorted(groups, key=lambda kv: tuple(map(str, kv[0])))
