"""Polars columns from loose Python values (JSON records, SQLite rows), never failing on mixes."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import polars as pl

# Homogeneous columns keep their type; anything else becomes text so it can be written as CSV.
_DTYPES: dict[type, pl.DataType] = {
    bool: pl.Boolean(),
    int: pl.Int64(),
    float: pl.Float64(),
    str: pl.String(),
}


def _encode_nested(value: object) -> object:
    if isinstance(value, list | dict):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return value


def _as_text(value: object) -> str | None:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def column_from_values(name: str, values: Sequence[object]) -> pl.Series:
    """One column: lists/dicts JSON-encoded, one scalar type kept, mixed scalar types as text.

    A column with no values at all has the Null type.

    Example: `column_from_values("x", [1, "a", None])` is a String column `["1", "a", null]`.
    """
    kinds = set(map(type, values)) - {type(None)}  # C-level: no Python call per cell
    cells: Sequence[object] = values
    if any(issubclass(k, list | dict | bytes) for k in kinds):
        cells = [_encode_nested(v) for v in values]
        kinds = set(map(type, cells)) - {type(None)}
    if not kinds:
        # Nothing known yet: Null stacks with any type when files or runs are combined.
        return pl.Series(name, cells, dtype=pl.Null)
    if len(kinds) == 1:
        dtype = _DTYPES.get(kinds.pop())
        if dtype is not None:
            try:
                return pl.Series(name, cells, dtype=dtype, strict=True)
            except (OverflowError, TypeError, ValueError, pl.exceptions.PolarsError):
                pass  # e.g. an integer beyond 64 bits: fall through to text
    return pl.Series(name, [_as_text(v) for v in cells], dtype=pl.String)


def frame_from_records(records: Sequence[Mapping[str, object]]) -> pl.DataFrame:
    """A frame from dict records; columns in first-seen key order, missing keys null."""
    names: dict[str, None] = {}
    for record in records:
        names.update(dict.fromkeys(record))
    return pl.DataFrame([column_from_values(n, [r.get(n) for r in records]) for n in names])


def frame_from_rows(names: Sequence[str], rows: Sequence[Sequence[object]]) -> pl.DataFrame:
    """A frame from positional rows (e.g. a SQLite cursor) with the given column names."""
    return pl.DataFrame(
        [column_from_values(n, [row[i] for row in rows]) for i, n in enumerate(names)]
    )
