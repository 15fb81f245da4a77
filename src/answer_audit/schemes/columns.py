"""The columns a scheme adds to the canonical table, and the rules that mark error rows.

Every labelling is four extraction columns (``value`` as text, ``rule``, ``span_start``,
``span_end``) plus ``correct``; an error row (error column set, or, for rescore and diff, a
missing or blank output) keeps its row but loses its value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import polars as pl

from answer_audit.extraction import Extraction
from answer_audit.text.regions import WHITESPACE

EXTRACT_SCHEMA: dict[str, type[pl.DataType]] = {
    "value": pl.String,
    "rule": pl.String,
    "span_start": pl.Int64,
    "span_end": pl.Int64,
}
NO_OUTPUT = Extraction(None, "no-output")  # a row whose raw output is missing
ERROR_RULE = "error"  # the rule of a row whose error column is non-empty
NO_OUTPUT_RULE = "no-output"  # rescore and diff: a row whose raw output is missing or blank

T = TypeVar("T")


def extractions_frame(extractions: list[Extraction]) -> pl.DataFrame:
    """The extraction columns of `EXTRACT_SCHEMA`, one row per extraction, values as text."""
    return pl.DataFrame(
        {
            "value": [None if e.value is None else str(e.value) for e in extractions],
            "rule": [e.rule for e in extractions],
            "span_start": [e.span[0] if e.span else None for e in extractions],
            "span_end": [e.span[1] if e.span else None for e in extractions],
        },
        schema=EXTRACT_SCHEMA,
    )


def empty_extractions(height: int) -> pl.DataFrame:
    """``height`` rows of `EXTRACT_SCHEMA`, every cell null (filled in by scatter)."""
    return pl.DataFrame(
        {name: pl.Series([None] * height, dtype=dtype) for name, dtype in EXTRACT_SCHEMA.items()}
    )


def map_unique(column: pl.Series, fn: Callable[[str | None], T]) -> list[T]:
    """``fn`` over a column, computed once per distinct value."""
    seen: dict[str | None, T] = {}
    return [seen[v] if v in seen else seen.setdefault(v, fn(v)) for v in column.to_list()]


def mask_error_rows(
    frame: pl.DataFrame, labelled: pl.DataFrame, *, no_output: bool = False
) -> pl.DataFrame:
    """`apply_scheme`'s output with the rows whose ``error`` column is non-empty marked as
    errors: no value, rule ``error``, incorrect (None still when there is no truth). With
    ``no_output``, rows whose raw output is missing or blank are marked the same way with the
    rule ``no-output``. Blank means what `str.strip` removes, as in the row rules."""
    failed = filled(frame["error"]) if "error" in frame.columns else None
    empty = ~filled(frame["raw"]) if no_output else None
    if failed is not None and empty is not None:
        empty = empty & ~failed  # an error row is an error, whatever its output
    marks = [(r, n) for r, n in ((empty, NO_OUTPUT_RULE), (failed, ERROR_RULE)) if r is not None]
    marks = [(rows, name) for rows, name in marks if rows.any()]
    if not marks:
        return labelled
    rule, masked = pl.col("rule"), marks[0][0]
    for rows, name in marks:
        rule = pl.when(rows).then(pl.lit(name)).otherwise(rule)
        masked = masked | rows
    return labelled.with_columns(
        pl.when(masked).then(None).otherwise(pl.col("value")).alias("value"),
        rule.alias("rule"),
        pl.when(masked).then(None).otherwise(pl.col("span_start")).alias("span_start"),
        pl.when(masked).then(None).otherwise(pl.col("span_end")).alias("span_end"),
        pl.when(masked & pl.col("correct").is_not_null()).then(pl.lit(False))
        .otherwise(pl.col("correct")).alias("correct"),
    )  # fmt: skip


def filled(column: pl.Series) -> pl.Series:
    """Cells holding more than whitespace (null: False)."""
    text = column.cast(pl.String).str.strip_chars(WHITESPACE)
    return (text.str.len_chars() > 0).fill_null(False)
