"""Polars columns from loose Python values (JSON records, SQLite rows), never failing on mixes."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence

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


class RecordFrames:
    """`frame_from_records` over records that arrive a chunk at a time (a large JSON Lines
    file), without holding every record: each chunk becomes a frame at once, and the column
    types are settled at the end exactly as `frame_from_records` settles them over all
    records (a column mixing types across chunks becomes text, written as `str` writes it).

    Example: `builder.add(chunk)` for each chunk, then `builder.frame()`.
    """

    def __init__(self, keep: Collection[str] | None = None) -> None:
        self._frames: list[tuple[list[pl.Series], int]] = []  # a chunk's columns, rows
        self._kinds: dict[str, set[type]] = {}  # first-seen column order
        self._as_text: set[str] = set()  # a chunk fell back to text (e.g. an int over 64 bits)
        # the columns whose cells are kept (None: all); the others' types are settled all the
        # same (a streamed read leaves their cells in the file)
        self._keep = None if keep is None else frozenset(keep)
        self.rows = 0

    def add(self, records: Sequence[Mapping[str, object]]) -> None:
        names: dict[str, None] = {}
        for record in records:
            names.update(dict.fromkeys(record))
        columns = []
        for name in names:
            values = [r.get(name) for r in records]
            kinds = set(map(type, values)) - {type(None)}
            if not self._kept(name) and kinds <= {str}:
                self._kinds.setdefault(name, set()).update(kinds)  # text stays text: no column
                continue
            column = column_from_values(name, values)
            if any(issubclass(k, list | dict | bytes) for k in kinds):
                kinds = kinds - {list, dict, bytes} | {str}  # encoded as JSON or text
            if column.dtype == pl.String and kinds - {str}:
                self._as_text.add(name)
            self._kinds.setdefault(name, set()).update(kinds)
            if self._kept(name):
                columns.append(column)
        self._frames.append((columns, len(records)))
        self.rows += len(records)

    def _kept(self, name: str) -> bool:
        return self._keep is None or name in self._keep

    def dtypes(self) -> dict[str, pl.DataType]:
        """The type of every column seen so far, those not kept too, in first-seen order:
        the types `frame` gives (see `frame_with_dtypes`)."""
        return {name: self._dtype(name, kinds) for name, kinds in self._kinds.items()}

    def frame(self) -> pl.DataFrame:
        """Every chunk's rows, in order, with the types one `frame_from_records` call gives
        (the kept columns alone); the builder is empty afterwards."""
        dtypes = {n: t for n, t in self.dtypes().items() if self._kept(n)}
        frames = [self._aligned(columns, height, dtypes) for columns, height in self._frames]
        self._frames, self._kinds, self._as_text = [], {}, set()  # handed over: start afresh
        if not dtypes:
            return pl.DataFrame()
        return pl.concat(frames, how="vertical") if len(frames) > 1 else frames[0]

    def _dtype(self, name: str, kinds: set[type]) -> pl.DataType:
        if not kinds:
            return pl.Null()
        if len(kinds) == 1 and name not in self._as_text:
            found = _DTYPES.get(next(iter(kinds)))
            if found is not None:
                return found
        return pl.String()

    @staticmethod
    def _aligned(
        chunk: list[pl.Series], height: int, dtypes: dict[str, pl.DataType]
    ) -> pl.DataFrame:
        present = {column.name: column for column in chunk}
        columns = []
        for name, dtype in dtypes.items():
            if name not in present:
                columns.append(pl.Series(name, [None] * height, dtype=dtype))
                continue
            column = present[name]
            if column.dtype == pl.Float64 and dtype == pl.String:
                # as `_as_text` writes a float (Polars would write 1e+16 as "1e16")
                column = pl.Series(name, [_as_text(v) for v in column.to_list()], dtype=dtype)
            elif column.dtype != dtype:
                column = column.cast(dtype)  # ints and booleans read as `_as_text` writes them
            columns.append(column)
        return pl.DataFrame(columns)


def frame_with_dtypes(
    records: Sequence[Mapping[str, object]], dtypes: Mapping[str, pl.DataType]
) -> pl.DataFrame:
    """The columns ``dtypes`` names of some records, typed as `RecordFrames.dtypes` settled
    them over every record of a file: the cells a whole read of the file gives these records.

    Example: `frame_with_dtypes([{"a": 1}], {"a": pl.String()})["a"]` is ``["1"]``.
    """
    columns = [column_from_values(name, [r.get(name) for r in records]) for name in dtypes]
    return RecordFrames._aligned(columns, len(records), dict(dtypes))


def frame_from_rows(names: Sequence[str], rows: Sequence[Sequence[object]]) -> pl.DataFrame:
    """A frame from positional rows (e.g. a SQLite cursor) with the given column names."""
    return pl.DataFrame(
        [column_from_values(n, [row[i] for row in rows]) for i, n in enumerate(names)]
    )
