"""What a file's first bytes say it is, when that contradicts its name.

`detect_format` picks a format from a file's extension; a file whose content is plainly another
format (a JSON array saved as ``.csv``, a pretty-printed JSON document saved as ``.jsonl``, an
inspect_ai ``.eval`` log renamed ``.json``) would then fail with a message about the wrong
format: no rows, a bad first line, a zip to decompress. `misnamed` names what the file looks
like and how to read it instead, in one message, before any reader runs.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from answer_audit.sources.decode import (
    COMPRESSED_SUFFIXES,
    DECOMPRESSION_ERRORS,
    compression,
    open_text_file,
)
from answer_audit.table.errors import SourceError

HEAD_BYTES = 65_536
"""Bytes read from a file's start to tell what it is."""
_ZIP = b"PK\x03\x04"
# Members every inspect_ai .eval log holds (a zip archive of JSON files).
_EVAL_MEMBERS = ("header.json", "_journal/start.json")
_FORMAT_NAMES = {"csv": "CSV", "jsonl": "JSON Lines", "json": "JSON", "parquet": "Parquet",
                 "sqlite": "SQLite", "lm-eval": "lm-eval samples",
                 "inspect": "an inspect_ai .json log"}  # fmt: skip


def misnamed(path: Path, named: str) -> str | None:
    """A message when the file at ``path``, named as format ``named`` (its extension's), plainly
    holds another format; None when it does not, or when its start cannot be read (the reader
    then says why).

    Example: a JSON array saved as ``runs.csv`` gives ``"runs.csv: looks like JSON (an array of
    records), not CSV; rename it to runs.json or pass --format json"``.
    """
    if is_eval_log(path) and path.suffix.lower() != ".eval":
        return eval_log_message(path, named)
    if named not in ("csv", "jsonl") or compression(path) in ("zip", "zstd"):
        return None
    first, whole = _first_line(path)
    if named == "csv" and first[:1] in ("[", "{"):
        return _json_as_csv(path, first, whole)
    if named == "jsonl" and (first.startswith("[") or (whole and _opens_a_document(first))):
        return _document_as_jsonl(path, first)
    return None


# Bytes of a first line read to find records listed inside it (only after a column is missing).
_NESTED_BYTES = 8 * 1024 * 1024


def records_inside(path: Path, column: str | None) -> str | None:
    """A hint for a column missing from a JSON Lines file whose first line is one object
    listing records that hold that column (``{"records": [{"raw": ...}, ...]}``): the file is
    one JSON document, to read with ``--format json --records KEY``; None otherwise.

    Example: a one-line runs.jsonl ``{"records": [{"raw": "A"}]}`` missing column ``raw`` gives
    ``"; 'raw' is a field of the records listed under 'records' on its first line: if the file
    is one JSON document, read it with --format json --records records"``.
    """
    if column is None or not path.is_file() or compression(path) in ("zip", "zstd"):
        return None
    try:
        with open_text_file(path) as fh:
            head = fh.readline(_NESTED_BYTES)
        document = json.loads(head.decode("utf-8").removeprefix("\ufeff"))
    except (*DECOMPRESSION_ERRORS, SourceError, ValueError):
        return None  # unreadable, or not one whole JSON value on the first line
    if not isinstance(document, dict):
        return None
    keys = [
        key
        for key, value in document.items()
        if isinstance(value, list)
        and any(isinstance(item, dict) and column in item for item in value)
    ]
    if not keys:
        return None
    return (
        f"; '{column}' is a field of the records listed under '{keys[0]}' on its first line: "
        f"if the file is one JSON document, read it with --format json --records {keys[0]}"
    )


def is_eval_log(path: Path) -> bool:
    """Whether the file is an inspect_ai .eval log (a zip archive holding its header), whatever
    its name."""
    if compression(path) != "zip":
        return False
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
    except (OSError, zipfile.BadZipFile):
        return False
    return any(member in names for member in _EVAL_MEMBERS)


def eval_log_message(path: Path, named: str) -> str:
    """The message for an .eval log read as format ``named`` (a name of `files.FORMATS`):
    inspect_ai reads a log by its ending, so renaming is the fix (--format inspect alone cannot
    read it)."""
    inner = Path(path.stem) if path.suffix.lower() in COMPRESSED_SUFFIXES else path
    return (
        f"{path}: looks like an inspect_ai .eval log (a zip archive), not "
        f"{_FORMAT_NAMES.get(named, named)}; rename it to "
        f"{inner.stem}.eval (inspect_ai reads a log by its .eval ending)"
    )


def _json_as_csv(path: Path, first: str, whole: bool) -> str | None:
    """JSON under a .csv name: an array, lines of objects, or one document (``whole``: the
    first line was read to its end)."""
    stem = path.stem
    if first.startswith("["):
        if not _starts_records(first):
            return None  # a header cell such as "[id]": CSV after all
        return (
            f"{path}: looks like JSON (an array of records), not CSV; rename it to {stem}.json "
            "or pass --format json"
        )
    if whole and _is_object(first):
        return (
            f"{path}: looks like JSON Lines (one JSON object per line), not CSV; rename it to "
            f"{stem}.jsonl or pass --format jsonl"
        )
    if whole and _opens_a_document(first):
        return (
            f"{path}: looks like one JSON document, not CSV; rename it to {stem}.json or pass "
            "--format json (and --records KEY for the key of its list of records)"
        )
    if not first.startswith('{"'):
        return None  # a header cell such as "{id}": CSV after all
    return (
        f"{path}: looks like JSON, not CSV; rename it to {stem}.jsonl (one object per line) or "
        f"{stem}.json (one document), or pass --format jsonl or json"
    )


def _document_as_jsonl(path: Path, first: str) -> str:
    """One JSON document (an array, or an object spread over lines) under a .jsonl name."""
    what = "one JSON array" if first.startswith("[") else "one JSON document over several lines"
    records = "" if first.startswith("[") else " (and --records KEY for the key of its list)"
    return (
        f"{path}: looks like {what}, not JSON Lines (one record per line); rename it to "
        f"{path.stem}.json or pass --format json{records}"
    )


def _first_line(path: Path) -> tuple[str, bool]:
    """The first non-blank line of the file, stripped (a BOM dropped), and whether it was read
    to its end (a long line is cut at `HEAD_BYTES`); ``""`` when the file cannot be read here
    (a pipe, an unreadable or undecodable file: the reader then says why)."""
    if not path.is_file():
        return "", False
    try:
        with open_text_file(path) as fh:
            head = fh.read(HEAD_BYTES)
    except (*DECOMPRESSION_ERRORS, SourceError):
        return "", False
    text = head.decode("utf-8", errors="replace").removeprefix("\ufeff").lstrip()
    line, newline, _ = text.partition("\n")
    return line.strip(), bool(newline) or len(head) < HEAD_BYTES


def _starts_records(line: str) -> bool:
    """Whether a line opens a JSON array of values: ``[`` alone, or ``[`` then an object, an
    array, a string or the closing bracket."""
    rest = line[1:].lstrip()
    return not rest or rest[0] in '{["]'


def _opens_a_document(line: str) -> bool:
    """Whether a line opens a JSON document spread over lines: a lone ``{`` or ``[``, or an
    object's first line that opens a nested value (``{"results": [``) and is not JSON alone.
    A JSON Lines record is a whole object on its line."""
    if line in ("{", "["):
        return True
    return line.startswith("{") and line.endswith(("[", "{")) and not _is_object(line)


def _is_object(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False
