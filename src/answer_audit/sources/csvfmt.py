"""CSV text to a frame: separator detection, header checks and line-precise messages.

`read_csv_text` reads a whole decoded text; `sources.csv_blocks` reads a file a block of
records at a time with the same helpers and the same result.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from itertools import islice
from pathlib import Path

import polars as pl

from answer_audit.sources.decode import COMPRESSED_SUFFIXES, iter_lines
from answer_audit.table.errors import SourceError, first_line

SEPARATOR_NAMES = {",": "comma", "\t": "tab", ";": "semicolon"}
SNIFF_LINES = 20  # a separator must split this many first lines into the same columns


def find_separator(text: str, where: Path) -> str:
    """The separator whose reading of the first lines gives a header of several columns and
    rows of that many fields: a comma first (a tab first for a .tsv file), then a tab, then
    a semicolon (a spreadsheet saved with a comma decimal mark); else the first of these.
    ``text`` may be the file's first `SNIFF_LINES` + 1 lines only: the rest is not looked at."""
    name = where.name.lower()
    tsv = any(name.endswith(".tsv" + z) for z in ("", *COMPRESSED_SUFFIXES))
    order = ("\t", ",", ";") if tsv else (",", "\t", ";")
    lines = list(islice(iter_lines(text), SNIFF_LINES + 1))
    for sep in order:
        try:
            rows = [row for row in csv.reader(lines, delimiter=sep) if row]
        except csv.Error:
            continue
        if len(lines) > SNIFF_LINES:
            rows = rows[:-1]  # the last line read may end inside a quoted cell
        if rows and len(rows[0]) > 1 and all(len(row) == len(rows[0]) for row in rows):
            return sep
    return order[0]


def separator_note(where: Path, found: str) -> str:
    """The note saying a file was read with a separator found other than a comma."""
    name = SEPARATOR_NAMES[found]
    return f"{where}: read as {name}-separated (its first lines split into the same columns on {name}s)"


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


def read_csv_text(text: str, where: Path, separator: str | None = None) -> tuple[pl.DataFrame, str]:
    """A whole CSV text as a frame of text cells, and the separator used (``separator``, or
    the one `find_separator` finds)."""
    if "\n" not in text and "\r" in text:
        text = text.replace("\r", "\n")  # old Mac line endings: every line ends in CR alone
    sep = separator or find_separator(text, where)
    reject_duplicate_headers(text, where, sep)
    try:
        # Every cell as text: ids and answers such as "007" must survive unchanged.
        frame = pl.read_csv(
            text.encode("utf-8"), separator=sep, infer_schema=False, raise_if_empty=False
        )
    except pl.exceptions.PolarsError as exc:
        raise SourceError(
            f"{where}: not a readable CSV file "
            f"({ragged_line(iter_lines(text), sep) or first_line(exc)})"
        ) from exc
    return frame, sep


def ragged_line(lines: Iterable[str], sep: str) -> str | None:
    """Where a row has more fields than the header (an unquoted comma), if that is the fault;
    ``lines`` are the file's decoded lines, each with its ``"\\n"``."""
    try:
        rows = csv.reader(lines, delimiter=sep)
        width = len(next(rows, []))
        for row in rows:
            if len(row) > width:
                # the reader's line_num counts physical lines, as an editor does
                held = f"{SEPARATOR_NAMES[sep]}s" if sep in SEPARATOR_NAMES else repr(sep)
                return (
                    f"line {rows.line_num} has {len(row)} fields, the header {width}; quote "
                    f"cells that hold {held}"
                )
    except csv.Error:
        return None
    return None


def reject_duplicate_headers(text: str, where: Path, sep: str = ",") -> None:
    """Polars would rename a repeated column (``x_duplicated_0``) and a run would silently
    read the wrong one: a repeated header name is an error naming the positions. ``text``
    may be the header record alone."""
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
