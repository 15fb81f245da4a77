"""Writing outputs safely: atomically (temporary file + rename), and never over an input."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path

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
        if fmt == "csv":
            _flat(_as_text(frame, (pl.Binary, pl.Duration))).write_csv(tmp)
        elif fmt == "jsonl":
            _as_text(frame, (pl.Binary,)).write_ndjson(tmp)
        elif fmt == "json":
            _as_text(frame, (pl.Binary,)).write_json(tmp)
        else:
            frame.write_parquet(tmp)

    return atomic_write(path, write, inputs)


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
