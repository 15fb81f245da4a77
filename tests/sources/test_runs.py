"""SQLite run folders: write_runs and load_runs are inverses, and the folders are never touched."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import polars as pl
import pytest

from answer_audit.sources import ColumnMap, SourceError, load_files, load_runs, write_runs
from source_fixtures import ROWS, snapshot

# Deliberately not sorted by temperature, with an opinion item (truth null) and an empty output.
COMPARED = ["id", "raw", "parsed", "label", "truth", "temperature", "variant", "condition"]


def _expected(rows: pl.DataFrame) -> pl.DataFrame:
    ordered = rows.sort("temperature", maintain_order=True)
    return ordered.select(
        pl.col("trial_id").alias("id"), "raw", "parsed", "label", "truth",
        "temperature", "variant", "condition",
    )  # fmt: skip


def test_write_then_load_gives_the_rows_back(tmp_path: Path) -> None:
    metadata = write_runs(ROWS, tmp_path / "runs")
    table = load_runs(tmp_path / "runs", metadata)
    assert table.frame.columns == [
        "id", "raw", "parsed", "label", "truth", "source", "temperature", "variant",
        "condition", "model_id", "item_id", "domain", "question", "run_id", "dataset",
    ]  # fmt: skip
    assert table.frame.select(COMPARED).equals(_expected(ROWS))
    assert (
        table.frame["question"].to_list()
        == ROWS.sort("temperature", maintain_order=True)["question"].to_list()
    )
    assert table.frame.schema["temperature"] == pl.Float64
    assert table.coverage["rows"] == 5
    assert [(r["temperature"], r["rows"]) for r in table.coverage["runs"]] == [(0.0, 3), (0.5, 2)]
    assert table.coverage["skipped_runs"] == []


def test_csv_and_run_folders_give_the_same_canonical_rows(tmp_path: Path) -> None:
    ROWS.write_csv(tmp_path / "rows.csv")
    metadata = write_runs(ROWS, tmp_path / "runs")
    cmap = ColumnMap(
        id="trial_id", raw="raw", parsed="parsed", label="label", truth="truth",
        group_by=("temperature", "variant", "condition"),
    )  # fmt: skip
    from_csv = load_files(tmp_path / "rows.csv", cmap).frame
    # CSV cells are text by contract, so the CSV side's temperature is cast for comparison.
    from_csv = from_csv.with_columns(pl.col("temperature").cast(pl.Float64))
    from_csv = from_csv.sort("temperature", maintain_order=True).select(COMPARED)
    from_runs = load_runs(tmp_path / "runs", metadata).frame.select(COMPARED)
    assert from_runs.equals(from_csv)


def test_conditions_filter_and_note(tmp_path: Path) -> None:
    metadata = write_runs(ROWS, tmp_path)
    table = load_runs(tmp_path, metadata, conditions=("control",))
    assert set(table.frame["condition"]) == {"control"}
    assert table.frame.height == 3
    assert any("authoritative_bias (1)" in note for note in table.notes)
    assert load_runs(tmp_path, metadata, conditions="control").frame.height == 3
    assert load_runs(tmp_path, metadata, conditions=None).frame.height == 5


def test_loading_leaves_run_folders_byte_identical(tmp_path: Path) -> None:
    metadata = write_runs(ROWS, tmp_path)
    before = snapshot(tmp_path)
    load_runs(tmp_path, metadata)
    assert snapshot(tmp_path) == before


def test_non_completed_runs_are_skipped_and_listed(tmp_path: Path) -> None:
    metadata = write_runs(ROWS, tmp_path)
    document = json.loads(metadata.read_text())
    document["experiments"]["1.0"] = {"run_id": "r1", "run_dir": "gone", "status": "failed"}
    metadata.write_text(json.dumps(document))
    table = load_runs(tmp_path, metadata)
    assert table.coverage["skipped_runs"] == [
        {"temperature": 1.0, "run_id": "r1", "run_dir": "gone", "status": "failed"}
    ]
    assert table.frame.height == 5


def test_missing_database_names_the_exact_path(tmp_path: Path) -> None:
    metadata = write_runs(ROWS, tmp_path)
    (tmp_path / "run_t0.5" / "simulation.db").unlink()
    expected = str(tmp_path / "run_t0.5" / "simulation.db")
    with pytest.raises(SourceError, match=f"^{expected}: database not found"):
        load_runs(tmp_path, metadata)


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"runs": {}}, "'experiments'"),
        ({"experiments": {"hot": {"status": "completed"}}}, r"experiments\['hot'\]: .*temperature"),
        ({"experiments": {"0.5": {"status": "completed", "run_id": "r"}}}, r"\['0.5'\] .*run_dir"),
        ({"experiments": {"0.5": "completed"}}, r"\['0.5'\] is a string"),
        ({"experiments": {"0.5": {"run_id": "r", "run_dir": "d"}}}, r"\['0.5'\] has no 'status"),
    ],
)
def test_bad_metadata_names_the_key(tmp_path: Path, document: object, message: str) -> None:
    metadata = tmp_path / "runs_metadata.json"
    metadata.write_text(json.dumps(document))
    with pytest.raises(SourceError, match=message):
        load_runs(tmp_path, metadata)


def test_metadata_that_is_not_json(tmp_path: Path) -> None:
    metadata = tmp_path / "runs_metadata.json"
    metadata.write_text("{experiments:")
    with pytest.raises(SourceError, match=r"runs_metadata\.json:1: not valid JSON"):
        load_runs(tmp_path, metadata)


def test_database_without_run_tables_lists_its_tables(tmp_path: Path) -> None:
    metadata = write_runs(ROWS.filter(pl.col("temperature") == 0.0), tmp_path)
    db = tmp_path / "run_t0.0" / "simulation.db"
    db.unlink()
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("CREATE TABLE other (x)")
    with pytest.raises(SourceError, match=r"no such table: conformity_trials.*tables: other"):
        load_runs(tmp_path, metadata)


def test_write_runs_refuses_to_overwrite_and_missing_columns(tmp_path: Path) -> None:
    write_runs(ROWS, tmp_path)
    with pytest.raises(SourceError, match="already exists"):
        write_runs(ROWS, tmp_path)
    with pytest.raises(SourceError, match="missing column"):
        write_runs(ROWS.drop("domain", "raw"), tmp_path / "other")


def test_generated_trial_ids_are_deterministic(tmp_path: Path) -> None:
    rows = ROWS.drop("trial_id")
    first = load_runs(tmp_path / "a", write_runs(rows, tmp_path / "a")).frame
    second = load_runs(tmp_path / "b", write_runs(rows, tmp_path / "b")).frame
    assert first.equals(second)
    assert first["id"].to_list()[:2] == ["run_t0.0-00000", "run_t0.0-00001"]


def _completed(run_dir: str) -> dict[str, str]:
    return {"run_id": run_dir, "run_dir": run_dir, "status": "completed"}


def _two(key_a: str, dir_a: str, key_b: str, dir_b: str) -> str:
    """An experiments object written by hand, so a key may repeat (a dict cannot)."""
    a, b = ({**_completed(d.rstrip("/")), "run_dir": d} for d in (dir_a, dir_b))
    return f'{{"{key_a}": {json.dumps(a)}, "{key_b}": {json.dumps(b)}}}'


@pytest.mark.parametrize(
    ("experiments", "message"),
    [
        # one folder named two ways: its trials counted twice, under two temperatures
        (_two("0.0", "run_t0.0", "0.5", "run_t0.0/"), "listed under temperatures 0.0 and 0.5"),
        # two runs under one temperature: pooled into its groups
        (_two("0.0", "run_t0.0", "0", "run_t0.5"), "are both temperature 0.0"),
        # a key written twice: json keeps the last and drops a run
        (_two("0.0", "run_t0.0", "0.0", "run_t0.5"), "the key '0.0' is written twice"),
    ],
)
def test_metadata_that_would_double_or_pool_runs_is_refused(
    tmp_path: Path, experiments: str, message: str
) -> None:
    write_runs(ROWS, tmp_path)
    metadata = tmp_path / "m.json"
    metadata.write_text('{"experiments": ' + experiments + "}", encoding="utf-8")
    with pytest.raises(SourceError, match=None) as info:
        load_runs(tmp_path, metadata)
    assert message in str(info.value)


def test_a_symlinked_alias_of_a_run_folder_is_refused(tmp_path: Path) -> None:
    write_runs(ROWS, tmp_path)
    (tmp_path / "alias").symlink_to(tmp_path / "run_t0.0")
    metadata = tmp_path / "m.json"
    metadata.write_text(json.dumps({"experiments": {"0.0": _completed("run_t0.0"),
                                                    "0.5": _completed("alias")}}),
                        encoding="utf-8")  # fmt: skip
    with pytest.raises(SourceError, match="reads the same database"):
        load_runs(tmp_path, metadata)


def test_an_unmatched_condition_is_said_and_no_condition_refused(tmp_path: Path) -> None:
    metadata = write_runs(ROWS, tmp_path)
    table = load_runs(tmp_path, metadata, conditions=("control", "contrl"))
    assert any("no trials of condition(s) contrl" in note for note in table.notes)
    with pytest.raises(SourceError, match="no condition names given"):
        load_runs(tmp_path, metadata, conditions=())
