"""Streamed tables (`table.lazy`: Parquet files, SQLite run folders; CSV and JSON Lines in
tests/sources/test_streamed_text.py): the same rows, notes and audit as a whole read."""

from __future__ import annotations

import json
import pickle
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

import polars as pl
import pytest

import answer_audit.analysis.audit as audit_module
from answer_audit.analysis.audit import AuditSettings, audit
from answer_audit.sources import ColumnMap, SourceError, load_files, load_runs
from answer_audit.sources.load import stream_files
from answer_audit.sources.runs import stream_runs
from answer_audit.sources.spec import RUN_GROUPS, SourceSpec, load, load_streamed
from answer_audit.table.lazy import InMemoryRows, StreamedTable
from source_fixtures import snapshot
from stream_fixtures import CMAP, pathology_rows, write_rows


@pytest.fixture
def two_files(tmp_path: Path) -> list[Path]:
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    pathology_rows(23).write_parquet(a)
    pathology_rows(31, start=23).write_parquet(b, row_group_size=4)  # slices cross row groups
    return [a, b]


def test_streamed_rows_equal_the_whole_read(two_files: list[Path]) -> None:
    whole = load_files(two_files, CMAP)
    streamed = stream_files(two_files, CMAP)
    assert isinstance(streamed, StreamedTable)
    rows = streamed.rows
    assert rows.columns == whole.frame.columns
    assert rows.height == whole.frame.height == 54
    assert rows.small.equals(InMemoryRows(whole.frame).small)
    for offset, length in [(0, 54), (0, 5), (20, 7), (23, 31), (50, 100), (54, 3)]:
        assert rows.slice(offset, length).equals(whole.frame.slice(offset, length)), offset
    picked = [40, 3, 22, 23, 3]  # unsorted, across files, one row twice
    assert rows.take(picked).equals(whole.frame[picked])
    assert streamed.coverage == whole.coverage
    assert streamed.notes == whole.notes
    assert rows.small["id"].to_list()[:2] == ["a.parquet:0", "a.parquet:1"]


@pytest.mark.parametrize("chunk", [5, 23, 1000])
def test_a_streamed_audit_equals_the_whole_one(
    two_files: list[Path], chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(audit_module, "CHUNK_ROWS", chunk)
    spec = SourceSpec(paths=tuple(two_files))
    loaded, groups = load(spec, CMAP)
    streamed, streamed_groups = load_streamed(spec, CMAP)
    assert isinstance(streamed, StreamedTable) and groups == streamed_groups
    settings = AuditSettings(group_by=groups, max_examples=40, n_boot=50)
    whole = audit(loaded.frame, settings=settings).to_dict()
    assert whole["examples"] and whole["think"]["rows"] and whole["markers"]["raw_role"]
    assert audit(streamed.rows, settings=settings).to_dict() == whole


def test_a_streamed_audit_from_the_stored_parse_alone(two_files: list[Path]) -> None:
    cmap = ColumnMap(raw="out", parsed="parse", truth="gold", group_by=("temp",))
    settings = AuditSettings(group_by=("temp",), n_boot=20)
    streamed = stream_files(two_files, cmap)
    assert streamed is not None
    whole = audit(load_files(two_files, cmap).frame, settings=settings).to_dict()
    assert audit(streamed.rows, settings=settings).to_dict() == whole


def test_choice_options_stream_too(tmp_path: Path) -> None:
    path = tmp_path / "c.parquet"
    pl.DataFrame(
        {"out": ["The answer is Lyon.", "B", "no idea"], "gold": ["b", "b", "a"],
         "ok": [True, True, False],
         "opts": [["Paris", "Lyon"], ["x", "y"], None]}
    ).write_parquet(path)  # fmt: skip
    cmap = ColumnMap(raw="out", truth="gold", label="ok", choices="opts")
    streamed = stream_files([path], cmap)
    assert streamed is not None
    whole = load_files([path], cmap).frame
    assert streamed.rows.slice(0, 3).equals(whole)
    settings = AuditSettings(kind="choice", n_boot=20)
    assert (
        audit(streamed.rows, settings=settings).to_dict()
        == audit(whole, settings=settings).to_dict()
    )


def test_only_parquet_csv_and_jsonl_inputs_stream(tmp_path: Path, two_files: list[Path]) -> None:
    csv = tmp_path / "c.csv"
    pathology_rows(3).write_csv(csv)
    mixed = stream_files([*two_files, csv], CMAP)
    assert mixed is not None
    assert mixed.rows.slice(0, 57).equals(load_files([*two_files, csv], CMAP).frame)
    db = tmp_path / "c.db"
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("CREATE TABLE t (out TEXT)")
    assert stream_files([*two_files, db], CMAP) is None
    assert stream_files([tmp_path / "missing.parquet"], CMAP) is None
    # reader options are checked by the whole read, which says they do not apply
    with pytest.raises(SourceError, match="--table"):
        load_streamed(SourceSpec(paths=tuple(two_files), table="t"), CMAP)


def test_streamed_input_errors_are_the_whole_reads(tmp_path: Path, two_files: list[Path]) -> None:
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"PAR1 this is not parquet")
    with pytest.raises(SourceError, match="not a readable Parquet file"):
        stream_files([bad], CMAP)
    with pytest.raises(SourceError, match=r"column 'nope' not found .*available: out, parse"):
        stream_files(two_files, ColumnMap(raw="nope", truth="gold"))
    empty = tmp_path / "e.parquet"
    pathology_rows(0).write_parquet(empty)
    with pytest.raises(SourceError, match="no rows to read"):
        stream_files([empty], CMAP)
    nulls = tmp_path / "n.parquet"
    pathology_rows(4).with_columns(pl.lit(None, dtype=pl.String).alias("gold")).write_parquet(nulls)
    with pytest.raises(SourceError, match="truth column 'gold' has no values"):
        stream_files([nulls], CMAP)
    typed = tmp_path / "t.parquet"
    pathology_rows(4).with_columns(pl.Series("out", [[1], [2], [3], [4]])).write_parquet(typed)
    with pytest.raises(SourceError, match=r"column 'out' .* cannot be read as text"):
        stream_files([typed], CMAP)  # checked before any slice is read


def test_the_input_own_source_column_is_noted(tmp_path: Path) -> None:
    path = tmp_path / "s.parquet"
    pathology_rows(4).with_columns(pl.lit("elsewhere").alias("source")).write_parquet(path)
    streamed = stream_files([path], CMAP)
    assert streamed is not None
    assert streamed.notes == load_files([path], CMAP).notes
    assert any("own 'source' column" in n for n in streamed.notes)
    assert streamed.rows.small["source"].unique().to_list() == ["s.parquet"]


# ------------------------------------------------------------------ SQLite run folders


@pytest.fixture
def run_folders(tmp_path: Path) -> tuple[Path, Path]:
    from answer_audit.sources.demo import write_demo_runs

    metadata = write_demo_runs(tmp_path / "runs")
    return tmp_path / "runs", metadata


@pytest.mark.parametrize("conditions", [None, ("control",)])
def test_streamed_runs_equal_the_whole_read(
    run_folders: tuple[Path, Path], conditions: tuple[str, ...] | None
) -> None:
    folder, metadata = run_folders
    whole = load_runs(folder, metadata, conditions=conditions)
    streamed = stream_runs(folder, metadata, conditions=conditions)
    rows = streamed.rows
    try:
        assert rows.columns == whole.frame.columns
        assert rows.slice(0, rows.height).equals(whole.frame)
        assert rows.slice(7, 30).equals(whole.frame.slice(7, 30))
        picked = [rows.height - 1, 0, 5, 5]
        assert rows.take(picked).equals(whole.frame[picked])
        handed = pickle.dumps(rows.slice_read(7, 30))  # as a worker process gets it
        assert pickle.loads(handed).read().equals(whole.frame.slice(7, 30))
        assert (streamed.coverage, streamed.notes) == (whole.coverage, whole.notes)
    finally:
        rows.close()


def test_a_streamed_run_audit_equals_the_whole_one(
    run_folders: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, metadata = run_folders
    before = snapshot(folder)
    settings = AuditSettings(group_by=("temperature", "variant"), max_examples=50, n_boot=50)
    whole = audit(load_runs(folder, metadata).frame, settings=settings).to_dict()
    monkeypatch.setattr(audit_module, "CHUNK_ROWS", 9)
    streamed = stream_runs(folder, metadata)
    try:
        assert audit(streamed.rows, settings=settings).to_dict() == whole
        # slices read by worker processes from the databases themselves
        assert audit(streamed.rows, settings=settings, workers=2).to_dict() == whole
    finally:
        streamed.rows.close()
    assert whole["examples"] and whole["think"]["rows"]
    assert snapshot(folder) == before


def test_a_trial_without_output_streams_as_a_null_raw(tmp_path: Path) -> None:
    from answer_audit.sources import write_runs

    rows = pl.DataFrame(
        {"temperature": [0.0, 0.0, 0.0], "model_id": ["m"] * 3, "variant": ["base"] * 3,
         "condition": ["control"] * 3, "question": ["q"] * 3, "truth": ["Paris", "8", "x"],
         "domain": ["geo"] * 3, "raw": ["Paris.", "eight", "y"], "parsed": ["Paris", "8", "y"],
         "label": [True, True, False], "trial_id": ["a", "b", "c"]}
    )  # fmt: skip
    metadata = write_runs(rows, tmp_path / "runs")
    db = next((tmp_path / "runs").rglob("simulation.db"))
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("DELETE FROM conformity_outputs WHERE trial_id = 'b'")
    whole = load_runs(tmp_path / "runs", metadata)
    streamed = stream_runs(tmp_path / "runs", metadata)
    try:
        assert streamed.rows.slice(0, 3).equals(whole.frame)
        assert streamed.rows.slice(0, 3)["raw"].to_list() == ["Paris.", None, "y"]
        assert streamed.notes == whole.notes and any("no output row" in n for n in whole.notes)
    finally:
        streamed.rows.close()


def test_a_live_wal_run_is_read_from_one_copy_and_left_untouched(tmp_path: Path) -> None:
    from answer_audit.sources import write_runs

    metadata = write_runs(_run_rows(40), tmp_path / "runs")
    db = next((tmp_path / "runs").rglob("simulation.db"))
    writer = sqlite3.connect(db)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    with writer:  # a committed change that lives only in the -wal file
        writer.execute("UPDATE conformity_outputs SET raw_text = 'from the wal' WHERE rowid = 1")
    try:
        before = snapshot(tmp_path / "runs")
        temp = Path(tempfile.gettempdir())
        others = set(temp.glob("answer-audit-*"))
        streamed = stream_runs(tmp_path / "runs", metadata)
        copies = set(temp.glob("answer-audit-*")) - others
        assert len(copies) == 1  # one copy, kept while the rows are read
        texts = streamed.rows.slice(0, 40)["raw"].to_list()
        handed = pickle.loads(pickle.dumps(streamed.rows.slice_read(0, 40)))  # reads the copy
        assert handed.read()["raw"].to_list() == texts
        streamed.rows.close()
        assert "from the wal" in texts
        assert not [p for p in copies if p.exists()]  # and goes when they are closed
        assert snapshot(tmp_path / "runs") == before
    finally:
        writer.close()


def _run_rows(n: int) -> pl.DataFrame:
    return pl.DataFrame(
        {"temperature": [0.0] * n, "model_id": ["m"] * n, "variant": ["base"] * n,
         "condition": ["control"] * n, "question": ["q"] * n, "truth": ["Paris"] * n,
         "domain": ["geo"] * n, "raw": [f"Paris {i}" for i in range(n)],
         "parsed": ["Paris"] * n, "label": [True] * n, "trial_id": [f"t{i}" for i in range(n)]}
    )  # fmt: skip


def test_the_cli_audits_streamed_runs_like_the_whole_read(
    run_folders: tuple[Path, Path], tmp_path: Path
) -> None:
    from typer.testing import CliRunner

    from answer_audit.cli import app

    folder, metadata = run_folders
    out = tmp_path / "a.json"
    result = CliRunner().invoke(
        app, ["audit", "--runs-dir", str(folder), "--metadata", str(metadata), "-q",
              "--out-json", str(out), "--out-md", str(tmp_path / "a.md"), "--workers", "1"]
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    report = json.loads(out.read_text(encoding="utf-8"))
    whole = audit(
        load_runs(folder, metadata).frame, settings=AuditSettings(group_by=RUN_GROUPS)
    ).to_dict()
    assert report["schemes"] == json.loads(json.dumps(whole["schemes"]))


@pytest.mark.parametrize("kind", ["view", "without rowid"])
def test_outputs_without_rowids_are_read_whole(tmp_path: Path, kind: str) -> None:
    from answer_audit.sources import LoadedTable, write_runs

    metadata = write_runs(_run_rows(6), tmp_path / "runs")
    db = next((tmp_path / "runs").rglob("simulation.db"))
    with closing(sqlite3.connect(db)) as conn, conn:  # no rowid to read the texts back by
        conn.execute("ALTER TABLE conformity_outputs RENAME TO outputs_table")
        if kind == "view":  # SQLite gives a view's rowid as null
            conn.execute("CREATE VIEW conformity_outputs AS SELECT * FROM outputs_table")
        else:
            names = [r[1] for r in conn.execute("PRAGMA table_info(outputs_table)")]
            listed = ", ".join(f"{n} PRIMARY KEY" if n == "output_id" else n for n in names)
            conn.execute(f"CREATE TABLE conformity_outputs ({listed}) WITHOUT ROWID")
            conn.execute("INSERT INTO conformity_outputs SELECT * FROM outputs_table")
    with pytest.raises(SourceError, match="rowid"):
        stream_runs(tmp_path / "runs", metadata)
    spec = SourceSpec(runs_dir=tmp_path / "runs", metadata=metadata)
    loaded, groups = load_streamed(spec, ColumnMap())
    assert isinstance(loaded, LoadedTable) and groups == RUN_GROUPS
    assert loaded.frame["raw"].to_list() == [f"Paris {i}" for i in range(6)]


def test_an_input_changed_while_read_is_one_clear_error(two_files: list[Path]) -> None:
    streamed = stream_files(two_files, CMAP)
    assert streamed is not None
    pathology_rows(5).write_parquet(two_files[1])  # 31 rows become 5 under the reader's feet
    with pytest.raises(SourceError, match="was an input changed while it was read"):
        streamed.rows.slice(20, 30)


def test_a_slice_handed_to_another_process_reads_the_same_rows(tmp_path: Path) -> None:
    paths = [
        write_rows(pathology_rows(13), tmp_path / "a.parquet"),
        write_rows(pathology_rows(17, start=13), tmp_path / "b.csv.gz"),
        write_rows(pathology_rows(11, start=30), tmp_path / "c.jsonl"),
    ]
    streamed = stream_files(paths, CMAP)
    assert streamed is not None
    whole = load_files(paths, CMAP).frame
    for offset, length in [(0, 41), (5, 20), (13, 17), (29, 3), (40, 9)]:
        handed = pickle.dumps(streamed.rows.slice_read(offset, length))
        assert b"USER: and" not in handed  # the raw texts stay in the files until read
        assert pickle.loads(handed).read().equals(whole.slice(offset, length)), offset
    streamed.rows.close()
