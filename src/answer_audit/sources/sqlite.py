"""Read SQLite databases without ever creating or changing a file next to them."""

from __future__ import annotations

import re
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import polars as pl

from answer_audit.sources.columns import frame_from_rows
from answer_audit.table.errors import SourceError

SQLITE_HEADER = b"SQLite format 3\x00"
_WAL_VERSION = 2  # header bytes 18 and 19 (read/write format versions) are 2 in WAL mode


def _header(path: Path) -> bytes:
    try:
        with path.open("rb") as fh:
            return fh.read(100)
    except OSError:
        return b""


def has_sqlite_header(path: Path) -> bool:
    """Whether the file starts with the 16-byte SQLite header."""
    return _header(path).startswith(SQLITE_HEADER)


def _needs_copy(path: Path) -> bool:
    header = _header(path)
    wal_mode = len(header) >= 20 and header[18] == header[19] == _WAL_VERSION
    return wal_mode or any(_sidecar(path, s).exists() for s in ("-wal", "-journal"))


def _sidecar(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def connect_readonly(path: Path) -> sqlite3.Connection:
    """A read-only connection to a database that needs no copy (see `open_readonly`)."""
    uri = f"file:{quote(path.resolve().as_posix())}?mode=ro"
    return sqlite3.connect(uri, uri=True)


@contextmanager
def open_readonly(path: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection to the database; nothing in its folder is created or changed.

    A WAL database (or one with a `-wal` file beside it) would need `-shm`/`-wal` files even to
    be read, so it is copied with its `-wal` to a temporary folder and the copy is opened.
    """
    if not path.is_file():
        raise SourceError(f"{path}: database file not found; check the path")
    if not has_sqlite_header(path):
        raise SourceError(f"{path}: not a SQLite database (its header is not 'SQLite format 3')")
    real = path.resolve()  # a symlinked database: its -wal lies beside the real file
    try:
        if not _needs_copy(real):
            with closing(connect_readonly(real)) as conn:
                yield conn
            return
        with tempfile.TemporaryDirectory(prefix="answer-audit-") as tmp:
            copy = Path(tmp) / real.name
            wal, journal = _sidecar(real, "-wal"), _sidecar(real, "-journal")
            # WAL first: a checkpoint between the two copies then only repeats pages we have.
            if wal.exists():
                shutil.copyfile(wal, _sidecar(copy, "-wal"))
            # A rollback journal left by a writer that stopped mid-transaction ("hot"): SQLite
            # must undo that transaction before reading, which writes; it writes our copy.
            hot = journal.exists()
            if hot:
                shutil.copyfile(journal, _sidecar(copy, "-journal"))
            shutil.copyfile(real, copy)
            with closing(sqlite3.connect(copy) if hot else connect_readonly(copy)) as conn:
                yield conn
    except sqlite3.DatabaseError as exc:
        raise SourceError(f"{path}: SQLite could not read the database ({exc})") from exc


def describe_tables(conn: sqlite3.Connection) -> dict[str, list[str]]:
    """Table and view names with their column names, in name order."""
    names = [
        row[0]
        for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') "
            "AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
    ]
    return {n: [c[1] for c in conn.execute(f"PRAGMA table_info({quote_name(n)})")] for n in names}


def _tables_text(tables: dict[str, list[str]]) -> str:
    if not tables:
        return "(the database has no tables)"
    return "; ".join(f"{name}({', '.join(cols)})" for name, cols in tables.items())


def quote_name(name: str) -> str:
    """An SQL identifier in double quotes, safe for any table or column name."""
    return '"' + name.replace('"', '""') + '"'


def read_sqlite(
    path: Path, *, table: str | None, query: str | None
) -> tuple[pl.DataFrame, dict[str, Any]]:
    """All rows of one table, or of one query's result, and what was read.

    With neither `table` nor `query`, a database holding exactly one table reads that table.
    """
    if table is not None and query is not None:
        raise SourceError(f"{path}: pass either --table or --query, not both")
    with open_readonly(path) as conn:
        tables = describe_tables(conn)
        if query is None:
            table = _pick_table(path, tables, table)
            query = f"SELECT * FROM {quote_name(table)}"
        else:
            _check_query(path, query)
            conn.set_authorizer(_read_only)
        try:
            cursor = conn.execute(query)
            rows = cursor.fetchall()
        except sqlite3.Error as exc:
            raise SourceError(
                f"{path}: the query failed ({exc}); tables: {_tables_text(tables)}"
            ) from exc
        names = [d[0] for d in cursor.description or ()]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        listed = ", ".join(f"'{n}'" for n in repeated)
        raise SourceError(
            f"{path}: the query returns several columns named {listed}; give each its own "
            "name with AS"
        )
    stats: dict[str, Any] = {"table": table} if table is not None else {"query": query}
    return frame_from_rows(names, rows), stats


_FIRST_WORD = re.compile(r"\s*(?:(?:--[^\n]*(?:\n|$)|/\*.*?\*/)\s*)*(\w*)", re.DOTALL)


def _check_query(path: Path, query: str) -> None:
    """Only a query that reads: even on a read-only connection, ``VACUUM INTO 'x.db'`` and
    ``ATTACH 'x.db'`` create files."""
    m = _FIRST_WORD.match(query)
    word = m.group(1).upper() if m else ""
    if word not in ("SELECT", "WITH", "VALUES"):
        raise SourceError(
            f"{path}: --query must be a SELECT (or WITH ... SELECT) query, not {word or 'empty'}"
        )


def _read_only(action: int, *_: object) -> int:
    """SQLite authorizer for a user's query: reading, functions and CTEs only."""
    allowed = (sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION,
               sqlite3.SQLITE_RECURSIVE)  # fmt: skip
    return sqlite3.SQLITE_OK if action in allowed else sqlite3.SQLITE_DENY


def _pick_table(path: Path, tables: dict[str, list[str]], table: str | None) -> str:
    if table is not None:
        if table not in tables:
            raise SourceError(
                f"{path}: table '{table}' not found; available: {_tables_text(tables)}"
            )
        return table
    if len(tables) == 1:
        return next(iter(tables))
    raise SourceError(
        f"{path}: the database has {len(tables)} tables; pass --table NAME or --query SQL. "
        f"Tables: {_tables_text(tables)}"
    )
