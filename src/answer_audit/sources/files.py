"""One file of any supported format to a Polars frame of all its columns, with read statistics."""

from __future__ import annotations

import os
import selectors
import stat
import tempfile
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any, BinaryIO

import polars as pl

from answer_audit.sources.columns import RecordFrames, frame_from_records
from answer_audit.sources.csv_blocks import index_csv, read_blocks
from answer_audit.sources.csvfmt import checked_separator, read_csv_text, separator_note
from answer_audit.sources.decode import (
    COMPRESSED_SUFFIXES,
    decode_utf8,
    read_bytes,
    refuse_compressed,
    reject_binary,
    reject_wide_encodings,
)
from answer_audit.sources.file_bytes import seekable_copy
from answer_audit.sources.inspect_log import looks_like_inspect_json, read_inspect_log
from answer_audit.sources.jsonfmt import (
    may_hold_surrogates,
    parse_json_records,
    parse_jsonl,
    replace_surrogates,
)
from answer_audit.sources.jsonl_blocks import JSONL_CHUNK_LINES, scan_jsonl
from answer_audit.sources.lm_eval import lm_eval_frame, looks_like_lm_eval
from answer_audit.sources.sniff import eval_log_message, is_eval_log, misnamed
from answer_audit.sources.sqlite import has_sqlite_header, read_sqlite
from answer_audit.table.errors import FormatMismatch, SourceError, first_line

FORMATS = ("csv", "jsonl", "json", "parquet", "sqlite", "lm-eval", "inspect")
_ALIASES = {"ndjson": "jsonl", "lm_eval": "lm-eval", "inspect_ai": "inspect"}
_RECOGNIZED = {
    "lm-eval": "lm-eval samples (its first line has doc_id, resps, filtered_resps)",
    "inspect": 'an inspect_ai log (a .eval, or a .json opening with "version", "status")',
}
_BY_EXTENSION = {
    ".csv": "csv",
    ".tsv": "csv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "json",
    ".parquet": "parquet",
    ".db": "sqlite",
    ".sqlite": "sqlite",
    ".sqlite3": "sqlite",
    ".eval": "inspect",
}


def detect_format(path: Path) -> str:
    """The format of a file: a SQLite header wins, otherwise the extension decides; a .jsonl
    with lm-eval's sample keys is `lm-eval`, a .json that starts like an inspect log `inspect`.
    A file whose start is plainly another format than its extension's (`sources.sniff`) is a
    SourceError that says what it looks like and how to read it."""
    if path.is_dir():
        raise SourceError(f"{path}: is a folder, not a file; pass the file inside it")
    if has_sqlite_header(path):
        return "sqlite"
    suffix = path.suffix.lower()
    if suffix in COMPRESSED_SUFFIXES and Path(path.stem).suffix:
        suffix = Path(path.stem).suffix.lower()  # runs.jsonl.gz: the name inside says the format
    found = _BY_EXTENSION.get(suffix)
    if found is None:
        raise SourceError(
            f"{path}: cannot tell the format: the extension '{suffix}' is none of "
            f"{', '.join(_BY_EXTENSION)} (optionally compressed: "
            f"{', '.join(COMPRESSED_SUFFIXES)}) and the file is not SQLite; "
            f"pass --format with one of: {', '.join(FORMATS)}"
        )
    wrong = misnamed(path, found)
    if wrong is not None:
        raise SourceError(wrong)
    if found == "jsonl" and looks_like_lm_eval(path):
        return "lm-eval"
    if found == "json" and looks_like_inspect_json(path):
        return "inspect"
    return found


def read_table(
    path: str | os.PathLike[str],
    *,
    fmt: str = "auto",
    records_key: str | None = None,
    table: str | None = None,
    query: str | None = None,
    skip_bad_lines: bool = False,
    metric: str | None = None,
    scorer: str | None = None,
    separator: str | None = None,
) -> tuple[pl.DataFrame, dict[str, Any]]:
    """Read one file as it is: every column, rows in file order, CSV cells as text.

    Returns the frame and its stats: `{"path", "format", "rows", "bad_lines_skipped",
    "decode_replacements"}` plus `records_key` (JSON) or `table`/`query` (SQLite). Framework
    logs (`lm-eval` with `metric`, `inspect` with `scorer`) come back with the canonical columns
    already named (see `sources.lm_eval`, `sources.inspect_log`) and `notes` in the stats.
    A CSV file's `separator` (one character, or "tab") is found from its first lines unless
    given. Raises SourceError for a missing file, an unreadable one, or one without rows.

    Example: `frame, stats = read_table("runs.jsonl", skip_bad_lines=True)`.
    """
    where = Path(path)
    if not where.exists():
        raise SourceError(f"{where}: file not found; check the path")
    options = {"records_key": records_key, "table": table, "query": query,
               "skip_bad_lines": skip_bad_lines, "metric": metric, "scorer": scorer,
               "separator": separator}  # fmt: skip
    if _is_stream(where):
        return _read_spooled(where, fmt, options)
    kind = detect_format(where) if fmt == "auto" else _checked_format(fmt)
    _check_options(where, kind, records_key=records_key, table=table, query=query)
    sep = checked_separator(separator)
    if sep is not None and kind != "csv":
        raise SourceError(f"{where}: --separator applies to CSV files only; this is {kind}")
    _check_framework_options(where, kind, metric=metric, scorer=scorer)
    stats: dict[str, Any] = {
        "path": str(where),
        "format": kind,
        "bad_lines_skipped": 0,
        "decode_replacements": 0,
    }
    if where.suffix.lower() != ".eval" and is_eval_log(where):  # whatever --format says
        raise SourceError(eval_log_message(where, kind))
    if kind == "inspect":
        refuse_compressed(where, "an inspect_ai log", own="zip")
        frame, extra = _recognized(fmt, kind, lambda: read_inspect_log(where, scorer=scorer))
        stats.update(extra)
    elif kind == "sqlite":
        refuse_compressed(where, "SQLite")
        frame, extra = read_sqlite(where, table=table, query=query)
        stats.update(extra)
    elif kind == "parquet":
        refuse_compressed(where, "Parquet")
        frame = _read_parquet(where)
    elif kind == "jsonl":
        frame, stats["bad_lines_skipped"], stats["decode_replacements"] = _read_jsonl(
            where, skip_bad_lines=skip_bad_lines
        )
    elif kind == "csv":
        frame, found, stats["decode_replacements"] = _read_csv(where, sep)
        if sep is None and found != ",":
            stats["notes"] = [separator_note(where, found)]
    else:
        data = read_bytes(where)
        reject_wide_encodings(data, where)
        reject_binary(data, where, "JSON")
        text, stats["decode_replacements"] = decode_utf8(data)
        del data  # the bytes and the text of a big file need not both stay in memory
        if kind == "lm-eval":
            records, stats["bad_lines_skipped"] = parse_jsonl(
                text, str(where), skip_bad_lines=skip_bad_lines
            )
            if may_hold_surrogates(text):
                stats["decode_replacements"] += replace_surrogates(records)
            frame, extra = _recognized(
                fmt, kind, lambda: lm_eval_frame(records, where, metric=metric)
            )
            stats.update(extra)
        else:
            records, stats["records_key"] = parse_json_records(text, str(where), records_key)
            if may_hold_surrogates(text):
                stats["decode_replacements"] += replace_surrogates(records)
            frame = _records_frame(records, where)
    if frame.height == 0 and not stats.get("loglikelihood_rows"):
        raise SourceError(f"{where}: no rows to read; check the file (or --records/--table)")
    stats["rows"] = frame.height
    return frame, stats


def _checked_format(fmt: str) -> str:
    kind = _ALIASES.get(fmt, fmt)
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


def _check_framework_options(
    where: Path, kind: str, *, metric: str | None, scorer: str | None
) -> None:
    if metric is not None and kind != "lm-eval":
        raise SourceError(f"{where}: --metric applies to lm-eval samples only; this is {kind}")
    if scorer is not None and kind != "inspect":
        raise SourceError(f"{where}: --scorer applies to inspect_ai logs only; this is {kind}")


Read = Callable[[], tuple[pl.DataFrame, dict[str, Any]]]


def _recognized(fmt: str, kind: str, read: Read) -> tuple[pl.DataFrame, dict[str, Any]]:
    """Run a framework reader; when auto-detection chose it and the file does not read as that
    format, the error says what the detection saw."""
    try:
        return read()
    except FormatMismatch as exc:
        if fmt != "auto":
            raise
        raise FormatMismatch(
            f"{exc} [--format auto took the file for {_RECOGNIZED[kind]}; pass --format to "
            "read it as another format]"
        ) from exc


def _read_jsonl(
    where: Path, *, skip_bad_lines: bool, chunk_lines: int | None = None
) -> tuple[pl.DataFrame, int, int]:
    """A JSON Lines file as one frame, read ``chunk_lines`` lines at a time (see
    `sources.jsonl_blocks`): the same frame, line numbers, skipped lines and replacement counts
    as reading it whole. Returns ``(frame, bad_lines_skipped, decode_replacements)``."""
    builder = RecordFrames()
    scan = scan_jsonl(
        where, builder, skip_bad_lines=skip_bad_lines, chunk_lines=chunk_lines or JSONL_CHUNK_LINES
    )
    frame = builder.frame()
    if builder.rows and frame.width == 0:
        raise SourceError(f"{where}: the records have no fields (every object is empty)")
    return frame, scan.skipped, scan.replaced


def _read_csv(where: Path, separator: str | None) -> tuple[pl.DataFrame, str, int]:
    """A CSV file as a frame of text cells, the separator used and the undecodable byte
    sequences replaced: read a block of records at a time (`sources.csv_blocks`) when the
    file allows, else as one decoded text; the same frame either way."""
    with ExitStack() as stack:
        file = seekable_copy(where, stack) if where.is_file() else None
        index = index_csv(where, file, separator) if file is not None else None
        read = read_blocks(index, lambda frame: frame) if index is not None else None
        if index is not None and read is not None:
            frames, replaced = read
            return pl.concat(frames, how="vertical"), index.separator, replaced
    data = read_bytes(where)
    reject_wide_encodings(data, where)
    reject_binary(data, where, "CSV")
    text, replaced = decode_utf8(data)
    del data  # the bytes and the text of a big file need not both stay in memory
    frame, found = read_csv_text(text, where, separator)
    return frame, found, replaced


def _records_frame(records: list[dict[str, Any]], where: Path) -> pl.DataFrame:
    frame = frame_from_records(records)
    if records and frame.width == 0:
        raise SourceError(f"{where}: the records have no fields (every object is empty)")
    return frame


def _is_stream(where: Path) -> bool:
    """Whether the input is a pipe or socket (``<(zcat runs.jsonl.gz)``, a named FIFO,
    /dev/stdin), which can be read only once; a device is refused (it may never end)."""
    mode = where.stat().st_mode
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        raise SourceError(
            f"{where}: is a device, not a file; pass a file, or pipe the data in with "
            "<(command) or /dev/stdin and --format"
        )
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def _read_spooled(
    where: Path, fmt: str, options: dict[str, Any]
) -> tuple[pl.DataFrame, dict[str, Any]]:
    """Read a pipe once into a private temporary file, then read that like any file: format
    detection peeks at a file's start and Parquet, SQLite and .eval need to seek, so reading a
    pipe directly would lose the bytes already peeked at or fail. Messages name the pipe."""
    with tempfile.TemporaryDirectory(prefix="answer-audit-") as folder:
        copy = Path(folder) / (where.name or "input")
        try:
            with where.open("rb") as src, copy.open("wb") as dst:
                _copy_pipe(src, dst)
        except OSError as exc:
            raise SourceError(f"{where}: cannot read the input ({exc.strerror})") from exc
        try:
            frame, stats = read_table(copy, fmt=fmt, **options)
        except SourceError as exc:
            raise type(exc)(str(exc).replace(str(copy), str(where))) from exc
    stats["path"] = str(where)
    if "notes" in stats:
        stats["notes"] = [note.replace(str(copy), str(where)) for note in stats["notes"]]
    return frame, stats


_PIPE_WAIT_S = 0.25


def _copy_pipe(src: BinaryIO, dst: BinaryIO, wait: float = _PIPE_WAIT_S) -> None:
    """Copy a pipe to a file, waiting for data in short slices: a signal (SIGTERM) delivered
    to another thread than the main one cannot interrupt a blocking read, and Python runs its
    handler only when the main thread returns from the read; a pipe that stays silent would
    keep the process from stopping."""
    fd = src.fileno()
    with selectors.DefaultSelector() as selector:  # any descriptor number, unlike select()
        selector.register(fd, selectors.EVENT_READ)
        while True:
            if not selector.select(wait):
                continue  # nothing yet: back in Python, where pending signal handlers run
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return
            dst.write(chunk)


def _read_parquet(where: Path) -> pl.DataFrame:
    try:
        return pl.scan_parquet(where).collect()
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise SourceError(f"{where}: not a readable Parquet file ({first_line(exc)})") from exc
