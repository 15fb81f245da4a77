"""Bytes to text without ever failing on bad encodings, counting what had to be replaced."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from answer_audit.sources.errors import SourceError

_REPLACEMENT = "\ufffd"
_ENCODED_REPLACEMENT = _REPLACEMENT.encode("utf-8")
_BOM = "\ufeff"


def read_bytes(path: Path) -> bytes:
    """The file's bytes; a missing or unreadable file becomes a SourceError naming the path."""
    if not path.exists():
        raise SourceError(f"{path}: file not found; check the path")
    if path.is_dir():
        raise SourceError(f"{path}: is a folder, not a file; pass the file inside it")
    try:
        return path.read_bytes()
    except OSError as exc:
        raise SourceError(f"{path}: cannot read the file ({exc.strerror})") from exc


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
