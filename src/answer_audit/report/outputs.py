"""Writing outputs safely: atomically (temporary file + rename), and never over an input."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import BinaryIO

import polars as pl


class OutputError(ValueError):
    """An output path that cannot or must not be written."""


# The files SQLite keeps beside a database: writing over one loses or corrupts its rows.
SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")


def check_output_path(
    path: str | Path, inputs: Iterable[str | Path] = (), *, probe: bool = True
) -> Path:
    """The file to write for output ``path``, after refusing any that is one of the inputs
    (same file on disk), a folder, a device or pipe, or in a folder that cannot be written.
    A symlink is followed: its target is written, the link stays. ``probe``: also create and
    remove a temporary file in the folder (os.access trusts root), so a run fails before its
    work rather than after."""
    out = Path(path)
    try:
        target = out.resolve()
        for item in inputs:
            src = Path(item)
            if target == src.resolve() or (out.exists() and src.exists() and out.samefile(src)):
                raise OutputError(
                    f"refusing to write {out}: it is one of the inputs; choose another path"
                )
            for suffix in SQLITE_COMPANIONS:  # a database's log holds rows not yet in the file
                # beside the path given and beside the file a symlink points to (SQLite's place)
                sides = {Path(f"{src}{suffix}").resolve(), Path(f"{src.resolve()}{suffix}")}
                same = out.exists() and any(s.exists() and out.samefile(s) for s in sides)
                if target in sides or same:
                    raise OutputError(
                        f"refusing to write {out}: it is {src}'s {suffix[1:]} file, part of that "
                        "input database; choose another path"
                    )
    except (RuntimeError, OSError) as err:  # a symlink loop, a path too long
        raise OutputError(f"cannot write {out}: {_reason(err)}") from None
    if target.is_dir():
        raise OutputError(f"cannot write {out}: it is a directory")
    if target.exists() and not target.is_file():
        raise OutputError(
            f"refusing to write {out}: it is a device or a pipe, not a file (writing would "
            "replace it); choose a file path"
        )
    if len(target.name.encode()) > _MAX_NAME:
        raise OutputError(f"cannot write {out}: the file name is too long; choose a shorter one")
    folder = target.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent  # the folders to create: the first one that exists decides
    if not folder.is_dir():
        raise OutputError(f"cannot write {out}: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write {out}: no permission to write in {folder}")
    if probe and folder == target.parent:
        try:
            fd, trial = tempfile.mkstemp(prefix=".answer-audit-", suffix=".tmp", dir=folder)
        except OSError as err:
            raise OutputError(f"cannot write {out}: {_reason(err)}") from None
        os.close(fd)
        os.unlink(trial)
    return target


# Longest file name most file systems take (255 bytes), less room for the temporary name.
_MAX_NAME = 255 - len(".tmp") - 10


def _reason(err: BaseException) -> str:
    if isinstance(err, RuntimeError):
        return "a symlink loop"
    return getattr(err, "strerror", None) or str(err)


def check_output_paths(
    paths: Iterable[str | Path | None], inputs: Iterable[str | Path] = ()
) -> None:
    """`check_output_path` for every given path, and no two of them the same file."""
    given = [Path(p) for p in paths if p is not None]
    sources = list(inputs)
    for path in given:
        check_output_path(path, sources)
    if len({p.resolve() for p in given}) < len(given):
        raise OutputError("two outputs point at the same file; give each its own path")


def atomic_write(
    path: str | Path, write: Callable[[Path], object], inputs: Iterable[str | Path] = ()
) -> Path:
    """Call ``write(tmp_path)`` on a temporary file beside ``path``, then rename it into place.

    A crash or error leaves any previous file at ``path`` untouched.
    """
    out = check_output_path(path, inputs, probe=False)  # the temporary file below is the test
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent)
    except OSError as err:
        raise OutputError(f"cannot write {path}: {_reason(err)}") from None
    os.close(fd)
    try:
        write(Path(tmp))
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual permissions
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return out


def atomic_write_text(path: str | Path, text: str, inputs: Iterable[str | Path] = ()) -> Path:
    """Write ``text`` (UTF-8) atomically; see `atomic_write`."""
    return atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"), inputs)


# ------------------------------------------------------------------ row tables

ROW_FORMATS = {
    ".csv": "csv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "json",
    ".parquet": "parquet",
}
_NESTED = (pl.List, pl.Array, pl.Struct)


def row_format(path: str | Path) -> str:
    """The table format an output path asks for, from its extension; OutputError otherwise."""
    suffix = Path(path).suffix.lower()
    if suffix not in ROW_FORMATS:
        raise OutputError(
            f"cannot tell the output format of {path}: use one of {', '.join(ROW_FORMATS)}"
        )
    return ROW_FORMATS[suffix]


def write_rows(frame: pl.DataFrame, path: str | Path, inputs: Iterable[str | Path] = ()) -> Path:
    """Write a table as CSV, JSON Lines, JSON (a list of records) or Parquet, by extension.

    Atomic, and never over an input. CSV cells of nested columns (lists, structs) are written as
    JSON text; the other formats keep them nested.

    Example: `write_rows(result.annotate(), "rescored.jsonl", inputs=["results.json"])`.
    """
    fmt = row_format(path)

    def write(tmp: Path) -> None:
        if fmt == "parquet":
            frame.write_parquet(tmp)
            return
        with tmp.open("wb") as fh:
            _write_text(fmt, [frame], fh)

    return atomic_write(path, write, inputs)


@contextmanager
def writing_rows(
    path: str | Path, inputs: Iterable[str | Path] = ()
) -> Iterator[Callable[[pl.DataFrame], None]]:
    """A function that takes a table's rows a slice at a time, in order; on leaving the block
    they are written to ``path`` as `write_rows` writes the whole table (the same file
    content), atomically and never over an input; on an error nothing is written. The slices
    share their columns; a column that is integers in some and text in others is text in
    all (as in `answer_audit.analysis.rescore.row_frame`). Each waits in a Parquet file in a
    private folder beside ``path``, so only the slice being written is held.

    Example: ``with writing_rows("rows.jsonl") as add: add(first); add(second)``.
    """
    fmt = row_format(path)
    sources = list(inputs)
    out = check_output_path(path, sources)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise OutputError(f"cannot write {path}: {_reason(err)}") from None
    with tempfile.TemporaryDirectory(prefix=".answer-audit-", dir=out.parent) as folder:
        parts: list[Path] = []
        group = [0]  # rows per Parquet row group, from the first slice's width

        def add(frame: pl.DataFrame) -> None:
            group[0] = group[0] or _group_rows(frame)
            parts.append(Path(folder) / f"{len(parts):09d}.parquet")
            frame.write_parquet(parts[-1], row_group_size=group[0])

        yield add
        if not parts:
            raise OutputError(f"no rows to write to {path}")
        atomic_write(path, partial(_joined_parts, fmt, parts, group[0]), sources)


_GROUP_BYTES = 16 << 20  # a Parquet row group in memory: what the copy into one file holds


def _group_rows(frame: pl.DataFrame) -> int:
    """Rows per Parquet row group of about `_GROUP_BYTES` for rows like ``frame``'s."""
    width = frame.estimated_size() / max(frame.height, 1)
    return max(1_000, min(512**2, int(_GROUP_BYTES / max(width, 1))))


def _joined_parts(fmt: str, parts: list[Path], group_rows: int, tmp: Path) -> None:
    """The Parquet files ``parts`` written to ``tmp`` as one table (`writing_rows`)."""
    schemas = [pl.read_parquet_schema(part) for part in parts]
    schema = pl.concat([pl.DataFrame(schema=s) for s in schemas], how="vertical_relaxed").schema
    if fmt == "parquet":
        scans = [pl.scan_parquet(part).cast(schema) for part in parts]
        # small row groups read and written: the streamed copy holds a few of them
        pl.concat(scans, how="vertical").sink_parquet(tmp, row_group_size=group_rows)
        return
    read = (pl.read_parquet(part).cast(schema) for part in parts)
    with tmp.open("wb") as fh:
        _write_text(fmt, read, fh)


def _write_text(fmt: str, frames: Iterable[pl.DataFrame], fh: BinaryIO) -> None:
    """CSV (one header), JSON Lines or a JSON list, one frame after another."""
    written = [False]  # a JSON list: a comma before each frame's records but the first

    def write(frame: pl.DataFrame, first: bool) -> None:
        if fmt == "csv":
            _flat(_as_text(frame, (pl.Binary, pl.Duration))).write_csv(fh, include_header=first)
        elif fmt == "jsonl":
            _as_text(frame, (pl.Binary,)).write_ndjson(fh)
        else:
            records = _as_text(frame, (pl.Binary,)).write_json()[1:-1]  # without [ and ]
            if records:
                fh.write((("," if written[0] else "") + records).encode("utf-8"))
                written[0] = True

    if fmt == "json":
        fh.write(b"[")
    _each(frames, write)
    if fmt == "json":
        fh.write(b"]")


def _each(frames: Iterable[pl.DataFrame], write: Callable[[pl.DataFrame, bool], object]) -> None:
    """``write(frame, first)`` for each frame, each let go of before the next is made (a for
    loop would hold the last one while the next is read: two slices at once)."""
    source = iter(frames)
    first = True
    while True:
        frame = next(source, None)
        if frame is None:
            return
        write(frame, first)
        del frame
        first = False


def _flat(frame: pl.DataFrame) -> pl.DataFrame:
    """Nested columns as JSON text, so every cell fits in a CSV field."""
    nested = [name for name, dtype in frame.schema.items() if isinstance(dtype, _NESTED)]
    return frame.with_columns(
        pl.Series(name, [_json_cell(v) for v in frame[name].to_list()], dtype=pl.String)
        for name in nested
    )


def _as_text(frame: pl.DataFrame, kinds: tuple[type[pl.DataType], ...]) -> pl.DataFrame:
    """Columns of the given types (e.g. Binary from Parquet, which Polars cannot write as CSV
    or JSON) as text: bytes decoded as UTF-8 with replacement, other values by `str`."""
    chosen = [name for name, dtype in frame.schema.items() if isinstance(dtype, kinds)]
    return frame.with_columns(
        pl.Series(name, [_text_cell(v) for v in frame[name].to_list()], dtype=pl.String)
        for name in chosen
    )


def _text_cell(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return str(value)


def _json_cell(value: object) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False, default=str)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def generated_at() -> str:
    """The generated-at stamp every report carries (UTC, to the minute): the one wall-clock
    value in a report."""
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
