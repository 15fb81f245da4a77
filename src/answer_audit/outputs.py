"""Writing outputs safely: atomically (temporary file + rename), and never over an input."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path


class OutputError(ValueError):
    """An output path that cannot or must not be written."""


def check_output_path(path: str | Path, inputs: Iterable[str | Path] = ()) -> Path:
    """The output path, after refusing any that is one of the inputs (same file on disk)."""
    out = Path(path)
    for item in inputs:
        src = Path(item)
        if out.resolve() == src.resolve() or (out.exists() and src.exists() and out.samefile(src)):
            raise OutputError(
                f"refusing to write {out}: it is one of the inputs; choose another path"
            )
    if out.exists() and out.is_dir():
        raise OutputError(f"cannot write {out}: it is a directory")
    return out


def atomic_write(
    path: str | Path, write: Callable[[Path], object], inputs: Iterable[str | Path] = ()
) -> Path:
    """Call ``write(tmp_path)`` on a temporary file beside ``path``, then rename it into place.

    A crash or error leaves any previous file at ``path`` untouched.
    """
    out = check_output_path(path, inputs)
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent)
    os.close(fd)
    try:
        write(Path(tmp))
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return out


def atomic_write_text(path: str | Path, text: str, inputs: Iterable[str | Path] = ()) -> Path:
    """Write ``text`` (UTF-8) atomically; see `atomic_write`."""
    return atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"), inputs)
