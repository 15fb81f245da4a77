"""The inverse of `load_runs`: rows to run folders with a `simulation.db` each, plus metadata."""

from __future__ import annotations

import json
import os
import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import polars as pl

from answer_audit.sources.runs import DB_NAME
from answer_audit.table.errors import SourceError
from answer_audit.table.labels import parse_label

METADATA_NAME = "runs_metadata.json"
WRITE_COLUMNS = (
    "temperature", "model_id", "variant", "condition", "question",
    "truth", "domain", "raw", "parsed", "label",
)  # fmt: skip
_EPOCH = datetime(2025, 1, 1, tzinfo=UTC)  # fixed, so written databases are reproducible

SCHEMA = """
CREATE TABLE conformity_datasets (dataset_id TEXT PRIMARY KEY, name TEXT, version TEXT,
    path TEXT, sha256 TEXT, created_at TEXT);
CREATE TABLE conformity_items (item_id TEXT PRIMARY KEY, dataset_id TEXT, domain TEXT,
    question TEXT, ground_truth_text TEXT, ground_truth_json TEXT, source_json TEXT,
    created_at TEXT);
CREATE TABLE conformity_conditions (condition_id TEXT PRIMARY KEY, name TEXT, params_json TEXT,
    created_at TEXT);
CREATE TABLE conformity_trials (trial_id TEXT PRIMARY KEY, run_id TEXT, model_id TEXT,
    variant TEXT, item_id TEXT, condition_id TEXT, seed INTEGER, temperature REAL,
    created_at TEXT);
CREATE TABLE conformity_outputs (output_id TEXT PRIMARY KEY, trial_id TEXT, raw_text TEXT,
    parsed_answer_text TEXT, parsed_answer_json TEXT, is_correct INTEGER, refusal_flag INTEGER,
    latency_ms REAL, token_usage_json TEXT, created_at TEXT);
"""


def write_runs(
    rows: pl.DataFrame, out_dir: str | os.PathLike[str], *, run_prefix: str = "run"
) -> Path:
    """Write one run folder per distinct temperature and `runs_metadata.json`; return its path.

    `rows` needs the columns temperature, model_id, variant, condition, question, truth (null =
    opinion item), domain, raw, parsed, label (bool or 1/0, nullable); trial_id and dataset are
    optional. Row order within a temperature is kept as trial order. Existing databases are never
    overwritten. Example: `load_runs(out, write_runs(rows, out))` gives the rows back.
    """
    missing = [c for c in WRITE_COLUMNS if c not in rows.columns]
    if missing:
        raise SourceError(f"write_runs: missing column(s) {', '.join(missing)}")
    if rows.height == 0 or rows["temperature"].null_count():
        raise SourceError("write_runs: needs at least one row and a temperature on every row")
    out = Path(out_dir)
    table = rows.with_columns(
        parse_label(rows["label"], column="label").cast(pl.Int64).alias("label"),
        pl.col("temperature").cast(pl.Float64),
    )
    experiments: dict[str, dict[str, Any]] = {}
    for temperature in sorted(set(table["temperature"].to_list())):
        run_dir = f"{run_prefix}_t{temperature}"
        part = table.filter(pl.col("temperature") == temperature)
        _write_database(out / run_dir / DB_NAME, part, run_id=run_dir, temperature=temperature)
        experiments[str(temperature)] = {
            "run_id": run_dir,
            "run_dir": run_dir,
            "status": "completed",
            "trials": part.height,
        }
    metadata = out / METADATA_NAME
    metadata.write_text(json.dumps({"experiments": experiments}, indent=2) + "\n", "utf-8")
    return metadata


def _write_database(path: Path, part: pl.DataFrame, *, run_id: str, temperature: float) -> None:
    if path.exists():
        raise SourceError(f"{path}: already exists; write runs to an empty folder")
    path.parent.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(path)) as conn:
        conn.executescript(SCHEMA)
        try:
            with conn:  # one transaction: a failed write leaves no half-filled run
                _insert_rows(conn, part, run_id=run_id, temperature=temperature)
        except sqlite3.IntegrityError as exc:
            raise SourceError(
                f"{path}: cannot write the run ({exc}); are trial_ids unique?"
            ) from exc


def _insert_rows(
    conn: sqlite3.Connection, part: pl.DataFrame, *, run_id: str, temperature: float
) -> None:
    datasets: dict[str, str] = {}
    items: dict[tuple[Any, ...], str] = {}
    conditions: dict[str, str] = {}
    for index, row in enumerate(part.iter_rows(named=True)):
        created = (_EPOCH + timedelta(seconds=index)).isoformat()
        dataset = str(row.get("dataset") or "answer-audit")
        if dataset not in datasets:
            datasets[dataset] = f"dataset-{len(datasets)}"
            conn.execute(
                "INSERT INTO conformity_datasets VALUES (?, ?, '1', NULL, NULL, ?)",
                (datasets[dataset], dataset, created),
            )
        item_key = (dataset, row["domain"], row["question"], row["truth"])
        if item_key not in items:
            items[item_key] = f"item-{len(items):05d}"
            truth_json = None if row["truth"] is None else json.dumps(row["truth"])
            conn.execute(
                "INSERT INTO conformity_items VALUES (?, ?, ?, ?, ?, ?, NULL, ?)",
                (items[item_key], datasets[dataset], row["domain"], row["question"],
                 row["truth"], truth_json, created),
            )  # fmt: skip
        name = str(row["condition"])
        if name not in conditions:
            conditions[name] = f"condition-{len(conditions)}"
            conn.execute(
                "INSERT INTO conformity_conditions VALUES (?, ?, ?, ?)",
                (conditions[name], name, json.dumps({"type": name}), created),
            )
        trial_id = str(row.get("trial_id") or f"{run_id}-{index:05d}")
        conn.execute(
            "INSERT INTO conformity_trials VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (trial_id, run_id, row["model_id"], row["variant"], items[item_key],
             conditions[name], index, temperature, created),
        )  # fmt: skip
        conn.execute(
            "INSERT INTO conformity_outputs VALUES (?, ?, ?, ?, NULL, ?, 0, NULL, NULL, ?)",
            (f"{trial_id}:output", trial_id, row["raw"], row["parsed"], row["label"], created),
        )
