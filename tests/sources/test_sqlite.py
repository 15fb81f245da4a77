"""SQLite sources: table/query choice, errors that list what exists, and strictly read-only use."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from answer_audit.sources import SourceError, read_table
from source_fixtures import make_db, snapshot


def test_single_table_read_without_naming_it(tmp_path: Path) -> None:
    frame, stats = read_table(make_db(tmp_path / "a.db"))
    assert frame["id"].to_list() == ["007", "008", "009"]
    assert frame["score"].to_list() == ["1", "high", None]  # mixed SQLite types -> text
    assert stats["format"] == "sqlite"
    assert stats["table"] == "outputs"


def test_named_table_and_query(tmp_path: Path) -> None:
    path = make_db(tmp_path / "a.sqlite", tables=("one", "two"))
    assert read_table(path, table="two")[0].height == 3
    frame, stats = read_table(path, query="SELECT id FROM one WHERE raw IS NOT NULL")
    assert frame["id"].to_list() == ["007", "008"]
    assert stats["query"].startswith("SELECT id")


def test_several_tables_without_choice_lists_them(tmp_path: Path) -> None:
    path = make_db(tmp_path / "a.sqlite3", tables=("one", "two"))
    with pytest.raises(SourceError, match=r"2 tables; pass --table NAME .*one\(id, raw, score\)"):
        read_table(path)


def test_table_and_query_together_refused(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="either --table or --query"):
        read_table(make_db(tmp_path / "a.db"), table="outputs", query="SELECT 1")


def test_missing_table_lists_tables(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"table 'output' not found; available: outputs\("):
        read_table(make_db(tmp_path / "a.db"), table="output")


def test_missing_column_in_query_lists_columns(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"no such column: answer.*outputs\(id, raw, score\)"):
        read_table(make_db(tmp_path / "a.db"), query="SELECT answer FROM outputs")


def test_sqlite_detected_by_header_whatever_the_extension(tmp_path: Path) -> None:
    frame, stats = read_table(make_db(tmp_path / "export.bin"))
    assert stats["format"] == "sqlite"
    assert frame.height == 3


def test_db_extension_without_sqlite_header_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "a.db"
    path.write_text("id,raw\n1,x\n")
    with pytest.raises(SourceError, match="not a SQLite database"):
        read_table(path)


def test_corrupt_database_is_a_source_error(tmp_path: Path) -> None:
    path = tmp_path / "a.db"
    path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 2000)
    with pytest.raises(SourceError, match=r"a\.db: SQLite could not read the database"):
        read_table(path)


def test_rollback_journal_db_left_byte_identical(tmp_path: Path) -> None:
    path = make_db(tmp_path / "a.db")
    before = snapshot(tmp_path)
    read_table(path)
    read_table(path, query="SELECT count(*) AS n FROM outputs")
    assert snapshot(tmp_path) == before


@pytest.fixture
def live_wal_db(tmp_path: Path) -> Iterator[Path]:
    """A WAL database whose committed rows sit only in the -wal file, with a writer still open
    in the middle of an uncommitted transaction."""
    path = tmp_path / "live.db"
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")  # keep every commit in the -wal file
    writer.execute("CREATE TABLE t (id TEXT, raw TEXT)")
    writer.execute("INSERT INTO t VALUES ('1', 'committed'), ('2', 'committed')")
    writer.execute("BEGIN")
    writer.execute("INSERT INTO t VALUES ('3', 'uncommitted')")
    try:
        yield path
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_live_wal_db_read_from_a_copy_and_left_byte_identical(live_wal_db: Path) -> None:
    folder = live_wal_db.parent
    assert (folder / "live.db-wal").exists()
    before = snapshot(folder)
    frame, _ = read_table(live_wal_db)
    # Committed rows live only in the -wal file: seeing them proves the WAL was read.
    assert frame["raw"].to_list() == ["committed", "committed"]
    assert snapshot(folder) == before


def test_closed_wal_db_creates_no_side_files(tmp_path: Path) -> None:
    path = tmp_path / "closed.db"
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE t (id TEXT)")
        conn.execute("INSERT INTO t VALUES ('1')")
    assert path.read_bytes()[18:20] == b"\x02\x02"  # still WAL mode, no -wal file left
    before = snapshot(tmp_path)
    assert read_table(path)[0]["id"].to_list() == ["1"]
    assert snapshot(tmp_path) == before  # a plain read-only open would add -wal and -shm
