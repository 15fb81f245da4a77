"""The canonical table every later stage reads: the column map and the frame built from it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from answer_audit.table.errors import MissingColumn, SourceError
from answer_audit.table.labels import parse_label
from answer_audit.text.regions import WHITESPACE

# Names the canonical frame gives to mapped columns; a group column may not take one of them.
CANONICAL = ("id", "raw", "parsed", "label", "truth", "error", "choices")


@dataclass(frozen=True)
class ColumnMap:
    """Which input column plays which role; None means the role is absent (id: generated)."""

    id: str | None = None
    raw: str | None = None
    parsed: str | None = None
    label: str | None = None
    truth: str | None = None
    error: str | None = None
    choices: str | None = None  # the options' texts, for option-text matching
    group_by: tuple[str, ...] = ()
    null_values: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # Lists passed by callers would make the map unhashable; store tuples, once each.
        object.__setattr__(self, "group_by", tuple(dict.fromkeys(self.group_by)))
        object.__setattr__(self, "null_values", tuple(self.null_values))


@dataclass(frozen=True, eq=False)
class LoadedTable:
    """A canonical frame, the input as read (same row order), what was read, and notes."""

    frame: pl.DataFrame
    original: pl.DataFrame
    coverage: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


# The long text columns: a streamed table (`sources.lazy`) reads them a slice at a time.
TEXT_ROLES = ("raw", "parsed", "choices")


def canonical_frame(
    frame: pl.DataFrame,
    cmap: ColumnMap,
    *,
    where: str,
    id_prefix: str = "",
    extra: tuple[str, ...] = (),
    texts: bool = True,
) -> pl.DataFrame:
    """One input frame (with a `source` column) in canonical form, rows in input order.

    Columns: id, raw, then parsed/label/truth/error when mapped, source, the group columns under
    their own names, then `extra` columns as they are. Generated ids are `id_prefix` + the 0-based
    row number. `null_values` become null in every column but raw and id. With ``texts=False``
    the frame holds no text columns (the caller checked them) and the result has none of
    `TEXT_ROLES` (`canonical_texts` makes them).
    """
    present = frame.columns if texts else [*frame.columns, *text_sources(cmap)]
    check_map(present, cmap, where, extra)
    columns = [_id_column(frame, cmap, id_prefix, where)]
    texts_of = canonical_texts(frame, cmap, where) if texts else {}
    columns += [texts_of[name] for name in ("raw", "parsed") if name in texts_of]
    nulls = cmap.null_values
    if cmap.label is not None:
        stored = _nulled(frame[cmap.label], nulls)
        columns.append(parse_label(stored, column=cmap.label, where=where).alias("label"))
    if cmap.truth is not None:
        columns.append(_text(_whole_floats(frame, cmap.truth), cmap.truth, where, nulls)
                       .alias("truth"))  # fmt: skip
    if cmap.error is not None:
        flags = frame[cmap.error]
        if flags.dtype == pl.Boolean:  # a flag column (Parquet, JSON true/false): true errored
            frame = frame.with_columns(
                pl.when(flags).then(pl.lit("true")).otherwise(None).alias(cmap.error)
            )
        error = _text(frame, cmap.error, where, nulls)
        # "Non-empty means the row errored": blank cells must not count as errors.
        columns.append(_nulled(error, ("",), strip=True).alias("error"))
    if "choices" in texts_of:
        columns.append(texts_of["choices"])
    columns.append(frame["source"].cast(pl.String))
    columns += [_group_column(frame[g], nulls) for g in cmap.group_by if g != "source"]
    columns += [frame[name] for name in extra]
    return pl.DataFrame(columns)


def in_memory_table(
    frame: object, group_by: Sequence[str] = (), *, what: str = "the table"
) -> pl.DataFrame:
    """A caller's table as the canonical frame `audit`, `rescore` and `diff_labelings` read,
    made the way the file readers make it: columns named by role (``id, raw, parsed, label,
    truth, error, choices``; every other column is kept), text columns of other types
    (Categorical, numbers) as text, a float truth's whole numbers as integers, labels in any
    spelling `parse_label` reads (``"False"`` is false, NaN is missing), row numbers as ids
    when there is no ``id`` column. A LazyFrame is collected.

    Raises TypeError for anything but a Polars DataFrame, ValueError when ``raw`` or a group
    column is missing, SourceError naming the column for a column that cannot be read.
    """
    if isinstance(frame, pl.LazyFrame):
        frame = frame.collect()
    if not isinstance(frame, pl.DataFrame):
        raise TypeError(
            f"{what}: expected a Polars DataFrame (or what load_files returns), got "
            f"{type(frame).__name__}; a pandas DataFrame converts with polars.from_pandas(df)"
        )
    missing = [c for c in ("raw", *group_by) if c not in frame.columns]
    if missing:
        raise ValueError(
            f"{what} lacks column(s) {', '.join(missing)}; available: {', '.join(frame.columns)}"
        )
    roles = {role: role if role in frame.columns else None for role in CANONICAL}
    groups = tuple(g for g in group_by if g not in CANONICAL)
    cmap = ColumnMap(**roles, group_by=groups)  # type: ignore[arg-type]
    if "source" not in frame.columns:
        frame = frame.with_columns(pl.lit(what).alias("source"))
    extra = tuple(c for c in frame.columns if c not in (*CANONICAL, "source", *groups))
    return canonical_frame(frame, cmap, where=what, extra=extra)


def canonical_texts(frame: pl.DataFrame, cmap: ColumnMap, where: str) -> dict[str, pl.Series]:
    """The canonical text columns (`TEXT_ROLES` that are mapped) of an input frame."""
    out = {"raw": _text(frame, str(cmap.raw), where, ()).alias("raw")}
    if cmap.parsed is not None:
        out["parsed"] = _text(frame, cmap.parsed, where, cmap.null_values).alias("parsed")
    if cmap.choices is not None:
        out["choices"] = _options_text(frame[cmap.choices]).alias("choices")
    return out


def text_sources(cmap: ColumnMap) -> list[str]:
    """The input columns the canonical text columns are made from."""
    return list(dict.fromkeys(c for c in (cmap.raw, cmap.parsed, cmap.choices) if c is not None))


def _separator_hint(name: str, columns: list[str]) -> str:
    """A hint when the whole header was read as one column that holds the name beside other
    text (``raw|truth|label``): the file was split on the wrong character."""
    own = [c for c in columns if c != "source"]
    if len(own) == 1 and name in own[0]:
        return "; the header was read as one column: pass the file's --separator"
    return ""


def check_map(columns: list[str], cmap: ColumnMap, where: str, extra: tuple[str, ...] = ()) -> None:
    """Every mapped column is among ``columns``; the group columns keep clear of canonical names."""
    if cmap.raw is None:
        raise SourceError("no raw output column given; name it with --raw COLUMN")
    roles = {role: getattr(cmap, role) for role in CANONICAL}
    wanted: list[tuple[str, str | None]] = [(c, role) for role, c in roles.items() if c is not None]
    wanted += [(c, "group_by") for c in cmap.group_by] + [(c, None) for c in extra]
    for name, role in wanted:
        if name not in columns:
            available = ", ".join(columns)
            raise MissingColumn(f"column '{name}' not found in {where}; available: {available}"
                                f"{_separator_hint(name, columns)}", name, role)  # fmt: skip
    for name in cmap.group_by:
        if name in CANONICAL:
            raise SourceError(
                f"group column '{name}' has the name of a canonical column "
                f"({', '.join(CANONICAL)}); rename it in the input file"
            )


def _options_text(series: pl.Series) -> pl.Series:
    """Options as text: lists and structs (e.g. from Parquet) as JSON, text as it is."""
    if series.dtype == pl.String:
        return series
    return pl.Series([None if v is None else json.dumps(v, ensure_ascii=False) for v in series.to_list()],
                     dtype=pl.String)  # fmt: skip


def _group_column(series: pl.Series, nulls: tuple[str, ...]) -> pl.Series:
    """A group column; lists and structs (e.g. from Parquet) as JSON text, so they can key groups."""
    if isinstance(series.dtype, pl.List | pl.Array | pl.Struct):
        return _options_text(series).alias(series.name)
    return _nulled(series, nulls)


def _id_column(frame: pl.DataFrame, cmap: ColumnMap, prefix: str, where: str) -> pl.Series:
    if cmap.id is not None:
        return _text(frame, cmap.id, where, ()).alias("id")
    numbers = pl.Series("id", range(frame.height), dtype=pl.Int64).cast(pl.String)
    return (prefix + numbers).alias("id") if prefix else numbers


def _whole_floats(frame: pl.DataFrame, name: str) -> pl.DataFrame:
    """A float truth column (JSON ``3.0``, or pandas' ints turned float by a missing value)
    with whole numbers written as integers: truth ``3.0`` means 3, and as the text "3.0" a
    free-form matcher would look for "3 0". Other numbers are written as Polars writes them."""
    if not frame[name].dtype.is_float():
        return frame
    column = pl.col(name)
    whole = column.is_finite() & (column == column.round(0)) & (column.abs() < 2.0**63)
    return frame.with_columns(
        pl.when(whole).then(column.cast(pl.Int64, strict=False).cast(pl.String))
        .otherwise(column.cast(pl.String)).alias(name)
    )  # fmt: skip


def _text(frame: pl.DataFrame, name: str, where: str, nulls: tuple[str, ...]) -> pl.Series:
    try:
        series = frame[name].cast(pl.String)
    except pl.exceptions.PolarsError as exc:
        raise SourceError(
            f"column '{name}' in {where} has type {frame[name].dtype}, which cannot be read as "
            "text; map a text column instead"
        ) from exc
    return _nulled(series, nulls)


def with_null_values(frame: pl.DataFrame, nulls: tuple[str, ...]) -> pl.DataFrame:
    """``frame`` with cells equal to one of ``nulls`` set to null in every text column, as the
    canonical frame has them (e.g. for `diff`'s ``stored:COLUMN`` sides, read from the input)."""
    if not nulls:
        return frame
    return frame.with_columns(_nulled(frame[name], nulls) for name in frame.columns)


def _nulled(series: pl.Series, nulls: tuple[str, ...], *, strip: bool = False) -> pl.Series:
    """The series with cells equal to one of `nulls` set to null (text columns only)."""
    if not nulls or series.dtype != pl.String:
        return series
    cells = series.str.strip_chars(WHITESPACE) if strip else series
    missing = cells.is_in(list(nulls)).fill_null(False)
    return pl.select(pl.when(missing).then(None).otherwise(series)).to_series().alias(series.name)


def concat_frames(frames: list[pl.DataFrame]) -> pl.DataFrame:
    """Frames stacked in order; missing columns become null, clashing types a common type."""
    if len(frames) == 1:
        return frames[0]
    try:
        return pl.concat(frames, how="diagonal_relaxed")
    except pl.exceptions.PolarsError as exc:
        raise SourceError(f"the input files cannot be combined: {exc}") from exc
