"""Bytes to text without ever failing on bad encodings, counting what had to be replaced."""

from __future__ import annotations

import bz2
import gzip
import lzma
import re
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from answer_audit.table.errors import SourceError, first_line

_REPLACEMENT = "\ufffd"
_ENCODED_REPLACEMENT = _REPLACEMENT.encode("utf-8")
_BOM = "\ufeff"

# Compressed text files are read through the standard library's decompressors; the others are
# named so the message can say what the file is. Recognized by their first bytes, not the name.
_OPENERS: dict[str, Callable[..., Any]] = {
    "gzip": gzip.open, "bzip2": bz2.open, "xz": lzma.open,
}  # fmt: skip
_MAGIC = re.compile(
    rb"(?P<gzip>\x1f\x8b)|(?P<bzip2>BZh[1-9]1AY&SY)|(?P<xz>\xfd7zXZ\x00)"
    rb"|(?P<zstd>\x28\xb5\x2f\xfd)|(?P<zip>PK\x03\x04)"
)
_TOOLS = {"gzip": "gunzip -k", "bzip2": "bunzip2 -k", "xz": "unxz -k", "zstd": "unzstd",
          "zip": "unzip"}  # fmt: skip
COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz", ".zst", ".zip")
DECOMPRESSION_ERRORS = (OSError, EOFError, zlib.error, lzma.LZMAError)


def compression(path: Path) -> str | None:
    """The compression a file's first bytes show (gzip, bzip2, xz, zstd, zip), or None; a
    pipe is not peeked at (what is read from it is gone): None."""
    if not path.is_file():
        return None
    try:
        with path.open("rb") as fh:
            head = fh.read(10)
    except OSError:
        return None
    found = _MAGIC.match(head)
    return found.lastgroup if found else None


def refuse_compressed(path: Path, kind: str, own: str | None = None) -> None:
    """A SourceError when a file that must be read as it is (Parquet, SQLite, an inspect_ai
    log) is compressed; ``own`` is the format's own container (a .eval log is a zip)."""
    found = compression(path)
    if found is not None and found != own:
        raise SourceError(
            f"{path}: the file is {found}-compressed; {kind} is read from a plain file: "
            f"decompress it first ({_TOOLS[found]} {path.name})"
        )


def open_text_file(path: Path) -> IO[bytes]:
    """The file's bytes to read, decompressed when it is gzip, bzip2 or xz; zstd and zip are
    refused with the command that unpacks them (the standard library cannot stream them)."""
    found = compression(path)
    if found == "zip" and path.suffix == ".eval":
        raise SourceError(
            f"{path}: an inspect_ai .eval log (a zip archive) read as a text format; pass "
            "--format inspect, or leave --format out"
        )
    if found in ("zstd", "zip"):
        raise SourceError(
            f"{path}: the file is {found}-compressed; decompress it first "
            f"({_TOOLS[found]} {path.name}), or pipe it in with --format"
        )
    opener: Any = _OPENERS.get(found or "")
    return opener(path, "rb") if opener is not None else path.open("rb")


def read_bytes(path: Path) -> bytes:
    """The file's bytes; a missing or unreadable file becomes a SourceError naming the path."""
    if not path.exists():
        raise SourceError(f"{path}: file not found; check the path")
    if path.is_dir():
        raise SourceError(f"{path}: is a folder, not a file; pass the file inside it")
    try:
        with open_text_file(path) as fh:
            return fh.read()
    except DECOMPRESSION_ERRORS as exc:
        raise SourceError(f"{path}: cannot read the file ({unreadable(exc)})") from exc


def unreadable(exc: BaseException) -> str:
    """Why a read failed, in a few words (an OSError's strerror, or a decompressor's text)."""
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else first_line(exc)


# Formats a file may really be when its name says text: (leading bytes, what it is, the fix).
_BINARY_MAGIC = (
    (b"PAR1", "Parquet", "pass --format parquet or rename it to .parquet"),
    (b"SQLite format 3\x00", "SQLite", "pass --format sqlite"),
    (b"\x1f\x8b", "gzip-compressed", "name it with a .gz ending, e.g. runs.jsonl.gz"),
    (b"\x28\xb5\x2f\xfd", "zstd-compressed", "name it with a .zst ending"),
    (
        b"PK\x03\x04",
        "a zip archive (an inspect_ai .eval log?)",
        "pass --format inspect or unzip it",
    ),
)


_BINARY_CONTROLS = (*range(0, 9), *range(14, 27), *range(28, 32))


def reject_binary(data: bytes, where: Path, fmt: str) -> None:
    """A SourceError for a file that is not text at all (a Parquet or compressed file under a
    text name, or any binary file): reading it line by line would only report bad lines, and
    skipping them (--skip-bad-lines) would read nothing."""
    head = data[:4096]
    for magic, what, fix in _BINARY_MAGIC:
        if head.startswith(magic):
            raise SourceError(f"{where}: looks like {what}, not {fmt}; {fix}")
    # Text in any encoding but UTF-16/32 (refused before this) has no NUL byte and few other C0
    # controls (model text may hold some escapes); random bytes have one in eleven.
    controls = sum(head.count(bytes([c])) for c in _BINARY_CONTROLS)
    if b"\x00" in head or (len(head) >= 256 and controls * 10 > len(head)):
        raise SourceError(
            f"{where}: is not text (binary bytes in its first {len(head):,}), so it is not "
            f"{fmt}; check that this is the file you meant"
        )


def reject_wide_encodings(data: bytes, where: Path) -> None:
    """A SourceError for UTF-16/UTF-32 files (a BOM, or NUL bytes in a quarter of the first
    4 KB): decoded as UTF-8 they would become garbage with no clear error."""
    if data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        encoding = source = "UTF-32"
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        encoding = source = "UTF-16"
    elif (head := data[:4096]) and head.count(0) * 4 >= len(head):
        # UTF-32 text has three NULs for each ASCII character, UTF-16 one
        source = "UTF-32" if head.count(0) * 4 >= 3 * len(head) else "UTF-16"
        encoding = f"{source} (it is full of NUL bytes)"
    else:
        return
    raise SourceError(
        f"{where}: the file is {encoding}, not UTF-8; convert it first, "
        f"e.g. iconv -f {source} -t UTF-8 {where.name} > utf8-{where.name}"
    )


def decode_utf8(data: bytes, *, strip_bom: bool = True) -> tuple[str, int]:
    """Decode UTF-8 (dropping a leading BOM unless ``strip_bom`` is False: a later piece of a
    file keeps it), replacing undecodable bytes with U+FFFD.

    Returns the text and how many replacements were made, e.g. `decode_utf8(b"a\\xff")`
    gives `("a\\ufffd", 1)`.
    """
    try:
        text = data.decode("utf-8")
        replaced = 0
    except UnicodeDecodeError:
        text = data.decode("utf-8", errors="replace")
        # U+FFFD characters that were already in the file are not replacements.
        replaced = text.count(_REPLACEMENT) - data.count(_ENCODED_REPLACEMENT)
    return (text.removeprefix(_BOM) if strip_bom else text), replaced


def iter_lines(text: str) -> Iterator[str]:
    """The lines of ``text``, each with its ``"\n"``, one at a time (no list of every line:
    a large file's text is not held twice). Only ``"\n"`` ends a line."""
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end + 1
        yield text[start:end]
        start = end
