"""One file of any supported format to a Polars frame of all its columns, with read statistics."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import polars as pl

from answer_audit.sources.columns import frame_from_records
from answer_audit.sources.decode import decode_utf8, read_bytes
from answer_audit.sources.errors import SourceError
from answer_audit.sources.jsonfmt import parse_json_records, parse_jsonl
from answer_audit.sources.sqlite import has_sqlite_header, read_sqlite

FORMATS = ("csv", "jsonl", "json", "parquet", "sqlite")
_BY_EXTENSION = {
    ".csv": "csv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "json",
    ".parquet": "parquet",
    ".db": "sqlite",
    ".sqlite": "sqlite",
    ".sqlite3": "sqlite",
}


def detect_format(path: Path) -> str:
    """The format of a file: a SQLite header wins, otherwise the extension decides."""
    if has_sqlite_header(path):
        return "sqlite"
    found = _BY_EXTENSION.get(path.suffix.lower())
    if found is None:
        raise SourceError(
            f"{path}: cannot tell the format from the extension '{path.suffix}'; "
            f"pass --format with one of: {', '.join(FORMATS)}"
        )
    return found


def read_table(
    path: str | os.PathLike[str],
    *,
    fmt: str = "auto",
    records_key: str | None = None,
    table: str | None = None,
    query: str | None = None,
    skip_bad_lines: bool = False,
) -> tuple[pl.DataFrame, dict[str, Any]]:
    """Read one file as it is: every column, rows in file order, CSV cells as text.

    Returns the frame and its stats: `{"path", "format", "rows", "bad_lines_skipped",
    "decode_replacements"}` plus `records_key` (JSON) or `table`/`query` (SQLite).
    Raises SourceError for a missing file, an unreadable one, or one without rows.

    Example: `frame, stats = read_table("runs.jsonl", skip_bad_lines=True)`.
    """
    where = Path(path)
    if not where.exists():
        raise SourceError(f"{where}: file not found; check the path")
    kind = detect_format(where) if fmt == "auto" else _checked_format(fmt)
    _check_options(where, kind, records_key=records_key, table=table, query=query)
    stats: dict[str, Any] = {
        "path": str(where),
        "format": kind,
        "bad_lines_skipped": 0,
        "decode_replacements": 0,
    }
    if kind == "sqlite":
        frame, extra = read_sqlite(where, table=table, query=query)
        stats.update(extra)
    elif kind == "parquet":
        frame = _read_parquet(where)
    else:
        text, stats["decode_replacements"] = decode_utf8(read_bytes(where))
        if kind == "csv":
            frame = _read_csv(text, where)
        elif kind == "jsonl":
            records, stats["bad_lines_skipped"] = parse_jsonl(
                text, str(where), skip_bad_lines=skip_bad_lines
            )
            frame = _records_frame(records, where)
        else:
            records, stats["records_key"] = parse_json_records(text, str(where), records_key)
            frame = _records_frame(records, where)
    if frame.height == 0:
        raise SourceError(f"{where}: no rows to read; check the file (or --records/--table)")
    stats["rows"] = frame.height
    return frame, stats


def _checked_format(fmt: str) -> str:
    kind = "jsonl" if fmt == "ndjson" else fmt
    if kind not in FORMATS:
        raise SourceError(f"unknown format '{fmt}'; use auto or one of: {', '.join(FORMATS)}")
    return kind


def _check_options(
    where: Path, kind: str, *, records_key: str | None, table: str | None, query: str | None
) -> None:
    # An option that cannot apply is a mistake worth stopping for, not something to ignore.
    if records_key is not None and kind != "json":
        raise SourceError(f"{where}: --records applies to JSON files only; this is {kind}")
    if (table is not None or query is not None) and kind != "sqlite":
        raise SourceError(f"{where}: --table/--query apply to SQLite files only; this is {kind}")


def _records_frame(records: list[dict[str, Any]], where: Path) -> pl.DataFrame:
    frame = frame_from_records(records)
    if records and frame.width == 0:
        raise SourceError(f"{where}: the records have no fields (every object is empty)")
    return frame


def _read_csv(text: str, where: Path) -> pl.DataFrame:
    try:
        # Every cell as text: ids and answers such as "007" must survive unchanged.
        return pl.read_csv(text.encode("utf-8"), infer_schema=False, raise_if_empty=False)
    except pl.exceptions.PolarsError as exc:
        raise SourceError(f"{where}: not a readable CSV file ({_first_line(exc)})") from exc


def _read_parquet(where: Path) -> pl.DataFrame:
    try:
        return pl.scan_parquet(where).collect()
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise SourceError(f"{where}: not a readable Parquet file ({_first_line(exc)})") from exc


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
