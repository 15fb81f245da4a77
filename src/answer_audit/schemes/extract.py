"""A scheme's extraction columns: the stored parse, or a preset run over every row.

Free-form presets run vectorized in Polars where that is provably identical to the row rules
(`answer_audit.text.vectorized`, `answer_audit.parsers.freeform_polars`); every other preset runs
row by row, each distinct input once, in worker processes when there are many
(`answer_audit.schemes.parallel`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial

import polars as pl

from answer_audit.extraction import Extraction
from answer_audit.parsers import ChoicePreset, FreeformPreset, Parser, freeform_polars, get_parser
from answer_audit.parsers.options import parse_options
from answer_audit.schemes.columns import (
    NO_OUTPUT,
    empty_extractions,
    extractions_frame,
    map_unique,
)
from answer_audit.schemes.kinds import Kind, get_kind
from answer_audit.schemes.parallel import map_chunks
from answer_audit.schemes.scheme import STORED
from answer_audit.text import vectorized


def extract_column(
    frame: pl.DataFrame,
    parser: str,
    kind: Kind | str,
    presets: Mapping[str, Parser] | None = None,
    workers: int = 1,
) -> pl.DataFrame:
    """``value`` (as string), ``rule``, ``span_start``, ``span_end`` for every row."""
    if parser == STORED:
        if "parsed" not in frame.columns:
            raise ValueError(
                "a scheme uses the stored parse, but no parsed column was given (--parsed)"
            )
        return get_kind(kind).stored_column(frame)
    preset = get_parser(parser, presets)
    if isinstance(preset, FreeformPreset):
        return _freeform_fast(frame, preset)
    if isinstance(preset, ChoicePreset) and "choices" in frame.columns:
        return extractions_frame(_with_options(frame, preset))
    gate = freeform_polars.whole_text_gate(preset)
    if gate is not None:  # freeform/v3's or v4's rules: rows whose region is the text, in Polars
        simple = freeform_polars.answer_region_simple(frame["raw"], gate.keywords, gate.line_starts)
        if simple.any():
            whole = freeform_polars.answer_region_whole(frame["raw"].filter(simple))
            rest = _extract_rows(preset, frame["raw"].filter(~simple), workers)
            return (
                pl.concat([whole.with_columns(_at=simple.arg_true()),
                           rest.with_columns(_at=(~simple).arg_true())])
                .sort("_at").drop("_at")
            )  # fmt: skip
    return _extract_rows(preset, frame["raw"], workers)


def _extract_rows(preset: Parser, raw: pl.Series, workers: int) -> pl.DataFrame:
    """The preset row by row, each distinct text once, in ``workers`` processes."""
    raws = raw.to_list()
    distinct = list(dict.fromkeys(raws))
    extracted = map_chunks(partial(_extract_many, preset), distinct, workers)
    found = dict(zip(distinct, extracted, strict=True))
    return extractions_frame([found[raw] for raw in raws])


def _with_options(frame: pl.DataFrame, preset: ChoicePreset) -> list[Extraction]:
    """Choice extraction that may match the options' texts of each row (``choices`` column)."""
    memo: dict[tuple[str | None, str | None], Extraction] = {}
    out = []
    for raw, options in zip(frame["raw"].to_list(), frame["choices"].to_list(), strict=True):
        key = (raw, options)
        if key not in memo:
            memo[key] = (
                NO_OUTPUT
                if raw is None
                else preset.extract(raw, choices_text=parse_options(options))
            )
        out.append(memo[key])
    return out


def _extract_many(preset: Parser, raws: Sequence[str | None]) -> list[Extraction]:
    return [_extract_raw(preset, raw) for raw in raws]


def _extract_raw(preset: Parser, raw: str | None) -> Extraction:
    return NO_OUTPUT if raw is None else preset.extract(raw)


def _freeform_fast(frame: pl.DataFrame, preset: FreeformPreset) -> pl.DataFrame:
    """The preset vectorized on safe rows, row by row on the rest."""
    raw = frame["raw"]
    ok = frame.select(pl.col("raw").is_not_null() & vectorized.safe(pl.col("raw"))).to_series()
    work = freeform_polars.freeform_extract(raw.filter(ok), preset)
    ok = ok.clone().scatter(ok.arg_true(), ~work["needs_rows"])  # fallback rows leave the fast set
    fast_rows = work.filter(~pl.col("needs_rows")).drop("needs_rows")
    slow = extractions_frame(map_unique(raw.filter(~ok), partial(_extract_raw, preset)))
    result = vectorized.scatter(empty_extractions(frame.height), ok, fast_rows)
    return vectorized.scatter(result, ~ok, slow)
