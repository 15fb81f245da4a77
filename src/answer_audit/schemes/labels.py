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
from string import ascii_lowercase
from typing import Any

import polars as pl

from answer_audit.extraction import Span
from answer_audit.parsers import ChoicePreset, Parser, PresetError, get_parser
from answer_audit.parsers.choice import DEFAULT_CHOICES, choice_letters
from answer_audit.parsers.registry import BUILTIN
from answer_audit.schemes.apply import apply_scheme
from answer_audit.schemes.columns import ERROR_RULE, NO_OUTPUT_RULE, mask_error_rows
from answer_audit.schemes.kinds import CHOICE, Kind, KindName, Value, get_kind, parser_kind
from answer_audit.schemes.scheme import STORED, Scheme
from answer_audit.text.regions import WHITESPACE

__all__ = [
    "ERROR_RULES",
    "STORED",
    "STORED_PREFIX",
    "Labels",
    "Value",
    "group_indices",
    "kind_of",
    "outside_choices",
    "parser_labels",
    "pick_normalizer",
    "resolve_parser",
    "stored_labels",
    "truth_classes",
    "with_choices",
]

ERROR_RULES = (ERROR_RULE, NO_OUTPUT_RULE)
STORED_PREFIX = "stored:"


@dataclass(frozen=True)
class Labels:
    """Per row: the value as the matcher compares it, the rule, the span, and correctness.

    Values are typed by the kind (`Kind.value`): ints for JSON, lowercase letters for choice,
    text for free-form; ``correct`` is None where the row has no truth. ``kind`` is the kind's
    name, as the reports write it (`answer_audit.schemes.kinds.KINDS` has the object).
    """

    name: str
    kind: KindName
    values: list[Value]
    rules: list[str]
    spans: list[Span | None]
    correct: list[bool | None]

    def __len__(self) -> int:
        return len(self.values)


def kind_of(parser: Parser) -> KindName:
    """The name of the kind the parser labels (`parser_kind`); PresetError for a family no
    matcher handles."""
    return parser_kind(parser).name


def resolve_parser(
    parser: str | Parser,
    presets: Mapping[str, Parser] | None = None,
    choices: str | None = None,
) -> Parser:
    """A preset by name (or as given), with ``choices`` applied to a choice preset.

    >>> resolve_parser("choice/v3", choices="abcde").choices
    'abcde'
    """
    if not isinstance(parser, str) and not hasattr(parser, "extract"):
        raise TypeError(
            f"parser must be a preset name such as 'choice/v4' or a preset; got {parser!r}"
        )
    preset = get_parser(parser, presets) if isinstance(parser, str) else parser
    if choices is None:
        return preset
    if not isinstance(preset, ChoicePreset):
        raise PresetError(f"choices apply to choice presets only, not {preset.name!r}")
    return dataclasses.replace(preset, choices=choices.lower())


def with_choices(presets: Mapping[str, Parser] | None, choices: str) -> dict[str, Parser]:
    """Every preset of ``presets`` (the built-ins when None), choice presets with the default
    choice set (``abcd``) reading ``choices`` instead (e.g. ``abcde`` for five options); a
    preset file's choice preset that declares other choices keeps its own.

    >>> with_choices(None, "abcde")["choice/v4"].choices
    'abcde'
    """
    table = presets if presets is not None else BUILTIN
    return {name: resolve_parser(p, choices=choices) if _default_choices(p) else p
            for name, p in table.items()}  # fmt: skip


def _default_choices(preset: Parser) -> bool:
    return isinstance(preset, ChoicePreset) and preset.choices.lower() == DEFAULT_CHOICES


def outside_choices(
    truths: pl.Series, schemes: Sequence[Any], presets: Mapping[str, Parser] | None
) -> list[str]:
    """Notes for choice schemes whose preset can never extract some truth letters (truth
    ``e`` with the default choices ``abcd``): every such row would count as an error. None when
    most distinct truths are no letter (free text, numbers): more choices would not help, and
    the input notes say what to check (`answer_audit.analysis.input_notes`)."""
    keys = [CHOICE.truth_key(t) for t in truths.drop_nulls().unique().to_list()]
    keys = [k for k in keys if k is not None]
    if 2 * sum(CHOICE.in_value_set(k) for k in keys) <= len(keys):
        return []
    letters = {k for k in keys if isinstance(k, str) and CHOICE.in_value_set(k)}
    by_gap: dict[tuple[str, str], list[str]] = {}
    for scheme in schemes:
        if scheme.uses_stored_parse:
            continue
        preset = get_parser(scheme.parser, presets)
        if isinstance(preset, ChoicePreset):
            own = choice_letters(preset.choices.lower())
            missing = "".join(sorted(letters - set(own)))
            if missing:
                by_gap.setdefault((missing, own), []).append(scheme.name)
    notes = []
    for (missing, own), names in by_gap.items():
        # a through the last letter needed: option numbers 1, 2, ... keep meaning a, b, ...
        needed = ascii_lowercase[: ascii_lowercase.index(max(own + missing)) + 1]
        notes.append(
            f"truth letter(s) {', '.join(missing)} are not among the choices '{own}' of "
            f"scheme(s) {', '.join(names)}, which can never extract them; pass --choices "
            f"{needed}"
        )
    return notes


def pick_normalizer(normalizer: str | None, kind: Kind | str) -> str:
    """The normalizer to match with (`Kind.pick_normalizer`): the kind's default (v1) when
    None; one given must exist and suit the kind.

    Choice and JSON values are compared as letters and integers, so a normalizer named for
    them is a mistake, not something to ignore.
    """
    return get_kind(kind).pick_normalizer(normalizer)


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
    kind = parser_kind(parser)
    scheme = Scheme(name or parser.name, parser.name, normalizer)
    table = apply_scheme(frame, scheme, kind, {parser.name: parser}, workers=workers)
    return _finish(frame, table, scheme.name, kind)


def stored_labels(
    frame: pl.DataFrame,
    kind: Kind | str,
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
    blank = frame["parsed"].str.strip_chars(WHITESPACE).eq("").fill_null(False)
    frame = frame.with_columns(
        pl.when(blank).then(None).otherwise(pl.col("parsed")).alias("parsed")
    )
    table = apply_scheme(frame, Scheme(name, STORED, normalizer), kind)
    return _finish(frame, table, name, kind)


def _finish(frame: pl.DataFrame, table: pl.DataFrame, name: str, kind: Kind | str) -> Labels:
    """The labelled table as Labels: error rows masked, values typed by the kind."""
    kind = get_kind(kind)
    table = mask_error_rows(frame, table, no_output=True)
    values = [kind.value(v) for v in table["value"].to_list()]
    spans: list[Span | None] = [
        None if start is None else (start, end)
        for start, end in zip(
            table["span_start"].to_list(), table["span_end"].to_list(), strict=True
        )
    ]
    return Labels(
        name, kind.name, values, table["rule"].to_list(), spans, table["correct"].to_list()
    )


def truth_classes(frame: pl.DataFrame, kind: Kind | str) -> list[str | None]:
    """Each row's truth class as text: the matcher's key for choice/JSON, the truth otherwise."""
    if "truth" not in frame.columns:
        return [None] * frame.height
    return [get_kind(kind).truth_class(truth) for truth in frame["truth"].to_list()]


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
