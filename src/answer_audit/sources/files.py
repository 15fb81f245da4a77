"""One file of any supported format to a Polars frame of all its columns, with read statistics."""

from __future__ import annotations

import csv
import os
import selectors
import stat
import tempfile
from collections.abc import Callable
from itertools import islice
from pathlib import Path
from typing import Any, BinaryIO

import polars as pl

from answer_audit.sources.columns import RecordFrames, frame_from_records
from answer_audit.sources.decode import (
    COMPRESSED_SUFFIXES,
    DECOMPRESSION_ERRORS,
    decode_utf8,
    iter_lines,
    open_text_file,
    read_bytes,
    refuse_compressed,
    reject_binary,
    reject_wide_encodings,
    unreadable,
)
from answer_audit.sources.inspect_log import looks_like_inspect_json, read_inspect_log
from answer_audit.sources.jsonfmt import (
    may_hold_surrogates,
    parse_json_records,
    parse_jsonl,
    replace_surrogates,
)
from answer_audit.sources.lm_eval import lm_eval_frame, looks_like_lm_eval
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
    with lm-eval's sample keys is `lm-eval`, a .json that starts like an inspect log `inspect`."""
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
    else:
        data = read_bytes(where)
        reject_wide_encodings(data, where)
        reject_binary(data, where, "CSV" if kind == "csv" else "JSON")
        text, stats["decode_replacements"] = decode_utf8(data)
        del data  # the bytes and the text of a big file need not both stay in memory
        if kind == "csv":
            frame, found = _read_csv(text, where, sep)
            if sep is None and found != ",":
                name = _SEPARATOR_NAMES[found]
                stats["notes"] = [f"{where}: read as {name}-separated (its first lines split "
                                  f"into the same columns on {name}s)"]  # fmt: skip
        elif kind == "lm-eval":
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


# JSON Lines are read this many lines at a time: a piece's records become a frame at once, so
# a large file is never held as bytes, text and records all at the same time.
JSONL_CHUNK_LINES = 50_000


def _read_jsonl(
    where: Path, *, skip_bad_lines: bool, chunk_lines: int | None = None
) -> tuple[pl.DataFrame, int, int]:
    """A JSON Lines file as one frame, read ``chunk_lines`` lines at a time: the same frame,
    line numbers, skipped lines and replacement counts as reading it whole. Returns
    ``(frame, bad_lines_skipped, decode_replacements)``."""
    size = chunk_lines or JSONL_CHUNK_LINES
    builder = RecordFrames()
    skipped = replaced = 0
    try:
        with open_text_file(where) as fh:
            head = fh.read(4096)
            reject_wide_encodings(head, where)
            reject_binary(head, where, "JSON Lines")
        with open_text_file(where) as fh:
            first = 1
            while piece := list(islice(fh, size)):
                text, bad_bytes = decode_utf8(b"".join(piece), strip_bom=first == 1)
                records, bad = parse_jsonl(
                    text, str(where), skip_bad_lines=skip_bad_lines, first_line=first
                )
                if may_hold_surrogates(text):
                    bad_bytes += replace_surrogates(records)
                del text
                builder.add(records)
                skipped, replaced, first = skipped + bad, replaced + bad_bytes, first + len(piece)
    except DECOMPRESSION_ERRORS as exc:
        raise SourceError(f"{where}: cannot read the file ({unreadable(exc)})") from exc
    frame = builder.frame()
    if builder.rows and frame.width == 0:
        raise SourceError(f"{where}: the records have no fields (every object is empty)")
    return frame, skipped, replaced


def _records_frame(records: list[dict[str, Any]], where: Path) -> pl.DataFrame:
    frame = frame_from_records(records)
    if records and frame.width == 0:
        raise SourceError(f"{where}: the records have no fields (every object is empty)")
    return frame


_SEPARATOR_NAMES = {",": "comma", "\t": "tab", ";": "semicolon"}


def _separator(text: str, where: Path) -> str:
    """The separator whose reading of the first lines gives a header of several columns and
    rows of that many fields: a comma first (a tab first for a .tsv file), then a tab, then
    a semicolon (a spreadsheet saved with a comma decimal mark); else the first of these."""
    name = where.name.lower()
    tsv = any(name.endswith(".tsv" + z) for z in ("", *COMPRESSED_SUFFIXES))
    order = ("\t", ",", ";") if tsv else (",", "\t", ";")
    lines = list(islice(iter_lines(text), _SNIFF_LINES + 1))
    for sep in order:
        try:
            rows = [row for row in csv.reader(lines, delimiter=sep) if row]
        except csv.Error:
            continue
        if len(lines) > _SNIFF_LINES:
            rows = rows[:-1]  # the last line read may end inside a quoted cell
        if rows and len(rows[0]) > 1 and all(len(row) == len(rows[0]) for row in rows):
            return sep
    return order[0]


_SNIFF_LINES = 20


def checked_separator(separator: str | None) -> str | None:
    """A CSV separator as given by a user: one character, or ``tab`` (also ``\\t``)."""
    if separator is None:
        return None
    sep = "\t" if separator.lower() in ("tab", "\\t") else separator
    if len(sep) != 1 or not sep.isascii() or sep in '"\r\n':
        raise SourceError(
            "--separator must be one ASCII character other than a quote or a line break, or "
            f"'tab'; got {separator!r}"
        )
    return sep


def _read_csv(text: str, where: Path, separator: str | None = None) -> tuple[pl.DataFrame, str]:
    if "\n" not in text and "\r" in text:
        text = text.replace("\r", "\n")  # old Mac line endings: every line ends in CR alone
    sep = separator or _separator(text, where)
    _reject_duplicate_headers(text, where, sep)
    try:
        # Every cell as text: ids and answers such as "007" must survive unchanged.
        frame = pl.read_csv(
            text.encode("utf-8"), separator=sep, infer_schema=False, raise_if_empty=False
        )
    except pl.exceptions.PolarsError as exc:
        raise SourceError(
            f"{where}: not a readable CSV file ({_ragged_line(text, sep) or first_line(exc)})"
        ) from exc
    return frame, sep


def _ragged_line(text: str, sep: str) -> str | None:
    """Where a row has more fields than the header (an unquoted comma), if that is the fault."""
    try:
        rows = csv.reader(iter_lines(text), delimiter=sep)
        width = len(next(rows, []))
        for row in rows:
            if len(row) > width:
                # the reader's line_num counts physical lines, as an editor does
                held = f"{_SEPARATOR_NAMES[sep]}s" if sep in _SEPARATOR_NAMES else repr(sep)
                return (
                    f"line {rows.line_num} has {len(row)} fields, the header {width}; quote "
                    f"cells that hold {held}"
                )
    except csv.Error:
        return None
    return None


def _reject_duplicate_headers(text: str, where: Path, sep: str = ",") -> None:
    """Polars would rename a repeated column (``x_duplicated_0``) and a run would silently
    read the wrong one: a repeated header name is an error naming the positions."""
    try:
        header = next(csv.reader(iter_lines(text), delimiter=sep), [])  # reads the header only
    except csv.Error:
        return  # Polars reports the malformed file
    positions: dict[str, list[int]] = {}
    for i, name in enumerate(header, start=1):
        positions.setdefault(name, []).append(i)
    repeated = {name: at for name, at in positions.items() if len(at) > 1}
    if repeated:
        name, at = next(iter(repeated.items()))
        shown = ", ".join(map(str, at))
        raise SourceError(
            f"{where}: column {name!r} appears {len(at)} times in the header (columns {shown}); "
            "rename them so each column has its own name"
        )


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
