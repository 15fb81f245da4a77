"""Stored correctness labels, in whatever spelling a pipeline wrote them, as booleans."""

from __future__ import annotations

import math
from collections.abc import Sequence

import polars as pl

from answer_audit.table.errors import SourceError

_WORDS = {"true": True, "false": False, "1": True, "0": False, "yes": True, "no": False}
ACCEPTED = (
    "true/false, 1/0 (also 1.0/0.0), yes/no (any letter case); empty cells and NaN are missing"
)


def _label(value: object) -> bool | None:
    """The label a value spells, None for missing; raises ValueError for anything else."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, float) and math.isnan(value):
        return None  # how numeric tools write a missing label
    if isinstance(value, int | float) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        word = value.strip().lower()
        if not word:
            return None
        if word in _WORDS:
            return _WORDS[word]
        try:
            number = float(word)
        except ValueError:
            raise ValueError(value) from None
        # A float column written as text ("1.0", "0.0", "nan") reads like the floats do.
        return _label(number)
    raise ValueError(value)


def parse_label(
    values: pl.Series | Sequence[object], *, column: str | None = None, where: str | None = None
) -> pl.Series:
    """Labels as a Boolean Series: bools, 1/0, "1"/"0" ("1.0"/"0.0"), "true"/"false", "yes"/"no".

    Nulls and empty strings stay null. Any other value raises SourceError naming the column
    (default: the Series name), the place, the row (1-based) and the value.
    Example: `parse_label(pl.Series("ok", ["True", "0", None]))` gives `[true, false, null]`.
    """
    name = column or (values.name if isinstance(values, pl.Series) else "") or "label"
    if isinstance(values, pl.Series) and values.dtype in (pl.Boolean, pl.Null):
        return values.cast(pl.Boolean).alias(name)  # nothing to read
    cells = values.to_list() if isinstance(values, pl.Series) else list(values)
    parsed: list[bool | None] = []
    for row, value in enumerate(cells, start=1):
        try:
            parsed.append(_label(value))
        except ValueError:
            place = f" in {where}" if where else ""
            raise SourceError(
                f"label column '{name}'{place}, row {row}: cannot read {value!r} as a label; "
                f"accepted: {ACCEPTED}. Mark missing values with --null-values"
            ) from None
    return pl.Series(name, parsed, dtype=pl.Boolean)
