"""Experiment run folders (one SQLite `simulation.db` per temperature) as one canonical table."""

from __future__ import annotations

import json
import math
import os
import sqlite3
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, ExitStack, closing, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from answer_audit.sources.columns import frame_from_rows
from answer_audit.sources.decode import decode_utf8, read_bytes
from answer_audit.sources.jsonfmt import json_kind
from answer_audit.sources.sqlite import connect_readonly, describe_tables, open_readonly
from answer_audit.table.canonical import (
    ColumnMap,
    LoadedTable,
    canonical_frame,
    canonical_texts,
    concat_frames,
)
from answer_audit.table.errors import SourceError
from answer_audit.table.lazy import InputRows, Part, StreamedRows, StreamedTable

DB_NAME = "simulation.db"
RUNS_MAP = ColumnMap(
    id="trial_id",
    raw="raw_text",
    parsed="parsed_answer_text",
    label="is_correct",
    truth="ground_truth_text",
    group_by=("temperature", "variant", "condition"),
)
RUNS_EXTRA = ("model_id", "item_id", "domain", "question", "run_id", "dataset")

# Outputs are left-joined so that a trial which never produced output stays visible.
# Trials (small rows) and outputs (long texts) are read apart and joined in Polars: one joined
# query makes SQLite build a temporary index and sort that copy every raw text.
_TRIALS_SQL = """
SELECT t.trial_id, t.run_id, t.model_id, t.variant, t.item_id, c.name AS condition, t.seed,
       t.created_at, i.domain, i.question, i.ground_truth_text, d.name AS dataset
FROM conformity_trials AS t
JOIN conformity_conditions AS c ON c.condition_id = t.condition_id
JOIN conformity_items AS i ON i.item_id = t.item_id
LEFT JOIN conformity_datasets AS d ON d.dataset_id = i.dataset_id
WHERE t.run_id = ? AND c.name IN ({marks})
ORDER BY t.created_at, t.trial_id
"""
_OUTPUTS_SQL = """
SELECT o.trial_id, o.output_id, {texts}, o.parsed_answer_json,
       o.is_correct, o.refusal_flag, o.latency_ms, o.token_usage_json
FROM conformity_outputs AS o
WHERE o.trial_id IN (SELECT trial_id FROM conformity_trials WHERE run_id = ?)
"""
_TEXTS = "o.raw_text, o.parsed_answer_text"
_TEXT_COLUMNS = ("raw_text", "parsed_answer_text")
# A streamed read (`stream_runs`) keeps each output's rowid and reads its texts by slices.
_ROWID = "_output_rowid"
_TEXTS_BY_ROWID_SQL = (
    "SELECT rowid, raw_text, parsed_answer_text FROM conformity_outputs WHERE rowid IN ({marks})"
)
# rows minus rowids (`WHERE rowid IS NULL` finds nothing on a view, whose rowids are null)
_NULL_ROWID_SQL = "SELECT COUNT(*) - COUNT(rowid) FROM conformity_outputs"
_MAX_PARAMETERS = 900  # below SQLite's oldest limit on parameters per statement (999)
_CONDITION_COUNTS_SQL = """
SELECT c.name, COUNT(*) FROM conformity_trials AS t
JOIN conformity_conditions AS c ON c.condition_id = t.condition_id
WHERE t.run_id = ? GROUP BY c.name ORDER BY c.name
"""


@dataclass(frozen=True)
class RunEntry:
    """One experiment of the metadata file."""

    temperature: float
    run_id: str | None
    run_dir: str | None
    status: str


def load_runs(
    runs_dir: str | os.PathLike[str],
    metadata_path: str | os.PathLike[str],
    *,
    conditions: Sequence[str] | None = None,
) -> LoadedTable:
    """The completed runs listed in the metadata file as one canonical table.

    Columns: id (trial_id), raw, parsed, label, truth (null for opinion items), source (the run
    folder), temperature, variant, condition, then model_id, item_id, domain, question, run_id,
    dataset. Rows are ordered by temperature, trial created_at, trial_id. Only trials whose
    condition is in `conditions` are kept (None keeps all). Databases are opened read-only.

    Example: `load_runs("runs", "runs/runs_metadata.json").frame`.
    """
    canonical: list[pl.DataFrame] = []
    originals: list[pl.DataFrame] = []

    def read(db_path: Path, run: RunEntry, names: Sequence[str] | None) -> tuple[int, list[str]]:
        with open_readonly(db_path) as conn:
            frame, notes = _read_run(conn, db_path, run, names, _TEXTS)
        originals.append(frame)
        canonical.append(canonical_frame(frame, RUNS_MAP, where=str(db_path), extra=RUNS_EXTRA))
        return frame.height, notes

    coverage, notes = _read_runs(runs_dir, metadata_path, conditions, read)
    return LoadedTable(concat_frames(canonical), concat_frames(originals), coverage, notes)


def stream_runs(
    runs_dir: str | os.PathLike[str],
    metadata_path: str | os.PathLike[str],
    *,
    conditions: Sequence[str] | None = None,
) -> StreamedTable:
    """`load_runs`, with the raw and parsed texts left in the databases and read a slice at a
    time (`sources.lazy`); the databases stay open, read-only, until ``rows.close()``."""
    smalls: list[pl.DataFrame] = []
    parts: list[Part] = []
    columns: dict[str, None] = {}  # the columns of the whole read's input table
    stack = ExitStack()

    def read(db_path: Path, run: RunEntry, names: Sequence[str] | None) -> tuple[int, list[str]]:
        conn = stack.enter_context(open_readonly(db_path))
        _check_rowids(conn, db_path)
        frame, notes = _read_run(conn, db_path, run, names, f"o.rowid AS {_ROWID}")
        small = canonical_frame(frame, RUNS_MAP, where=str(db_path), extra=RUNS_EXTRA, texts=False)
        for name in frame.columns:  # the texts stand where the whole read has them
            columns.update(dict.fromkeys(_TEXT_COLUMNS if name == _ROWID else (name,)))
        start = sum(p.height for p in parts)
        file = Path(conn.execute("PRAGMA database_list").fetchone()[2])  # the copy, if any
        parts.append(_RunPart(db_path, start, frame.height, conn, frame[_ROWID], file))
        smalls.append(small)
        return frame.height, notes

    try:
        coverage, notes = _read_runs(runs_dir, metadata_path, conditions, read)
    except BaseException:
        stack.close()
        raise
    rows = StreamedRows(concat_frames(smalls), tuple(parts), RUNS_MAP, resources=stack)
    return StreamedTable(rows, coverage, notes, InputRows(names=tuple(columns)))


def _check_rowids(conn: sqlite3.Connection, db_path: Path) -> None:
    """The outputs can be read back by rowid: a table with rowids, not a view (whose rowid is
    null) or a WITHOUT ROWID table (which has none)."""
    try:
        missing = conn.execute(_NULL_ROWID_SQL).fetchone()[0] > 0
    except sqlite3.Error as exc:
        raise SourceError(f"{db_path}: conformity_outputs has no rowid ({exc})") from exc
    if missing:
        raise SourceError(f"{db_path}: conformity_outputs has rows without a rowid (a view?)")


def _read_runs(
    runs_dir: str | os.PathLike[str],
    metadata_path: str | os.PathLike[str],
    conditions: Sequence[str] | None,
    read: Callable[[Path, RunEntry, Sequence[str] | None], tuple[int, list[str]]],
) -> tuple[dict[str, Any], list[str]]:
    """Every completed run through ``read`` (rows, notes), in temperature order; the coverage
    and notes of the whole read."""
    if isinstance(conditions, str):
        conditions = (conditions,)  # one name, not its letters
    if conditions is not None and not conditions:
        raise SourceError(
            "no condition names given (--conditions): name at least one, e.g. control, or "
            "leave the option out"
        )
    runs = read_metadata(Path(metadata_path))
    completed = sorted((r for r in runs if r.status == "completed"), key=lambda r: r.temperature)
    if not completed:
        raise SourceError(f"{metadata_path}: no experiment has status 'completed'")
    covered: list[dict[str, Any]] = []
    notes: list[str] = []
    total = 0
    folders: dict[Path, float] = {}
    for run in completed:
        db_path = Path(runs_dir) / str(run.run_dir) / DB_NAME
        if not db_path.is_file():
            raise SourceError(
                f"{db_path}: database not found for the run at temperature {run.temperature} "
                f"(run_dir '{run.run_dir}'); check the runs folder and the metadata file"
            )
        same = folders.get(db_path.resolve())
        if same is not None:  # two names (a symlink, '..') for one database
            raise SourceError(
                f"{db_path}: the run at temperature {run.temperature} reads the same database "
                f"as the run at temperature {same}; each run folder once"
            )
        folders[db_path.resolve()] = run.temperature
        height, run_notes = read(db_path, run, conditions)
        covered.append(
            {"temperature": run.temperature, "run_id": run.run_id, "run_dir": run.run_dir}
            | {"rows": height}
        )
        notes += run_notes
        total += height
    if total == 0:
        why = f" ({notes[0]})" if notes else ""
        raise SourceError(f"{runs_dir}: the completed runs hold no trials for {conditions}{why}")
    skipped = [vars(r) for r in runs if r.status != "completed"]
    notes += [f"skipped run at temperature {r['temperature']}: {r['status']}" for r in skipped]
    coverage = {"runs": covered, "rows": total, "skipped_runs": skipped}
    coverage["conditions"] = list(conditions) if conditions is not None else None
    return coverage, notes


@dataclass(frozen=True, eq=False)
class _RunPart:
    """One run database of a streamed table: its outputs' rowids, in table order (null for a
    trial without output), and the connection their texts are read through: ``conn``, open
    while the table is, or in a `piece` (read by another process) one opened for each read of
    ``file``, the database ``conn`` reads (the input, or the copy `open_readonly` made)."""

    path: Path
    start: int
    height: int
    conn: sqlite3.Connection | None
    rowids: pl.Series
    file: Path

    def texts(self, offset: int, length: int) -> pl.DataFrame:
        return self._texts(self.rowids.slice(offset, length))

    def texts_at(self, rows: list[int]) -> pl.DataFrame:
        return self._texts(self.rowids.gather(rows))

    def piece(self, offset: int, length: int) -> _RunPart:
        return _RunPart(self.path, 0, length, None, self.rowids.slice(offset, length), self.file)

    def _connection(self) -> AbstractContextManager[sqlite3.Connection]:
        if self.conn is not None:
            return nullcontext(self.conn)
        return closing(connect_readonly(self.file))

    def _texts(self, rowids: pl.Series) -> pl.DataFrame:
        wanted = rowids.drop_nulls().unique().sort().to_list()
        found: list[tuple[object, ...]] = []
        try:
            with self._connection() as conn:
                for i in range(0, len(wanted), _MAX_PARAMETERS):
                    batch = wanted[i : i + _MAX_PARAMETERS]
                    sql = _TEXTS_BY_ROWID_SQL.format(marks=", ".join("?" * len(batch)))
                    found += conn.execute(sql, batch).fetchall()
        except sqlite3.Error as exc:
            raise SourceError(f"{self.path}: reading the output texts failed ({exc})") from exc
        texts = frame_from_rows([_ROWID, "raw_text", "parsed_answer_text"], found)
        texts = texts.with_columns(pl.col(_ROWID).cast(pl.Int64))
        rows = rowids.cast(pl.Int64).to_frame(_ROWID)
        joined = rows.join(texts, on=_ROWID, how="left", maintain_order="left")
        return pl.DataFrame(list(canonical_texts(joined, RUNS_MAP, str(self.path)).values()))


def read_metadata(path: Path) -> list[RunEntry]:
    """The experiments of a `runs_metadata.json`; a bad entry raises SourceError naming its key."""
    text, _ = decode_utf8(read_bytes(path))
    try:
        document = json.loads(text, object_pairs_hook=_refuse_repeated_keys(path))
    except json.JSONDecodeError as exc:
        raise SourceError(f"{path}:{exc.lineno}: not valid JSON ({exc.msg})") from exc
    except RecursionError:
        raise SourceError(f"{path}: not readable JSON (nested too deeply)") from None
    experiments = document.get("experiments") if isinstance(document, dict) else None
    if not isinstance(experiments, dict):
        raise SourceError(f"{path}: needs an object under the key 'experiments'")
    entries = [_entry(path, key, value) for key, value in experiments.items()]
    seen: dict[str, float] = {}
    temperatures: dict[float, str] = {}
    for key, entry in zip(experiments, entries, strict=True):
        if entry.status != "completed" or entry.run_dir is None:
            continue
        # one folder under two temperatures would count its rows twice ('run' and 'run/' too)
        folder = os.path.normpath(entry.run_dir)
        if folder in seen:
            raise SourceError(
                f"{path}: run_dir '{entry.run_dir}' is listed under temperatures "
                f"{seen[folder]} and {entry.temperature}; each run folder once"
            )
        seen[folder] = entry.temperature
        # two runs under one temperature ("0.0" and "0") would be pooled into its groups
        if entry.temperature in temperatures:
            raise SourceError(
                f"{path}: experiments {temperatures[entry.temperature]!r} and {key!r} are both "
                f"temperature {entry.temperature}; their rows would be pooled into one "
                "temperature's groups: one completed run per temperature"
            )
        temperatures[entry.temperature] = key
    return entries


def _refuse_repeated_keys(path: Path) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    """A JSON object hook that refuses a key written twice (json keeps the last silently,
    which would drop a run without a word)."""

    def build(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [k for k, _ in pairs]
        repeated = next((k for k in keys if keys.count(k) > 1), None)
        if repeated is not None:
            raise SourceError(f"{path}: the key {repeated!r} is written twice; keep one")
        return dict(pairs)

    return build


def _entry(path: Path, key: str, value: Any) -> RunEntry:
    where = f"{path}: experiments['{key}']"
    try:
        temperature = float(key)
    except ValueError:
        raise SourceError(f"{where}: the key must be a temperature such as 0.5") from None
    if not math.isfinite(temperature):
        raise SourceError(f"{where}: the key must be a finite temperature such as 0.5")
    if not isinstance(value, dict):
        raise SourceError(f"{where} is {json_kind(value)}, not an object")
    status = value.get("status")
    if not isinstance(status, str):
        raise SourceError(f"{where} has no 'status' text")
    needed = ("run_id", "run_dir") if status == "completed" else ()
    for name in needed:
        if not isinstance(value.get(name), str) or not value[name]:
            raise SourceError(f"{where} has no '{name}' text")
    return RunEntry(temperature, value.get("run_id"), value.get("run_dir"), status)


def _read_run(
    conn: sqlite3.Connection,
    db_path: Path,
    run: RunEntry,
    conditions: Sequence[str] | None,
    texts: str,
) -> tuple[pl.DataFrame, list[str]]:
    """One run's trials joined with their outputs; ``texts`` names the output columns read
    for the texts (`_TEXTS`, or the rowid of a streamed read)."""
    try:
        counts = dict(conn.execute(_CONDITION_COUNTS_SQL, (run.run_id,)).fetchall())
        names = list(counts) if conditions is None else list(conditions)
        sql = _TRIALS_SQL.format(marks=", ".join("?" * len(names)) or "NULL")
        trials = _query(conn, sql, (run.run_id, *names))
        outputs = _query(conn, _OUTPUTS_SQL.format(texts=texts), (run.run_id,))
    except sqlite3.Error as exc:
        tables = ", ".join(describe_tables(conn)) or "(none)"
        raise SourceError(f"{db_path}: cannot read the run ({exc}); tables: {tables}") from exc
    if trials.schema["trial_id"] != outputs.schema["trial_id"]:  # e.g. ints in one table
        trials, outputs = (
            f.with_columns(pl.col("trial_id").cast(pl.String)) for f in (trials, outputs)
        )
    # a left join keeps the trials' order, and trials without an output (raw stays null)
    joined = trials.join(outputs, on="trial_id", how="left", maintain_order="left")
    frame = joined.with_columns(
        pl.lit(run.temperature, dtype=pl.Float64).alias("temperature"),
        pl.lit(run.run_dir, dtype=pl.String).alias("source"),
    )
    return frame, _run_notes(db_path, run, counts, names, frame)


def _query(conn: sqlite3.Connection, sql: str, params: Sequence[object]) -> pl.DataFrame:
    cursor = conn.execute(sql, params)
    return frame_from_rows([d[0] for d in cursor.description], cursor.fetchall())


def _run_notes(
    db_path: Path, run: RunEntry, counts: dict[str, int], kept: list[str], frame: pl.DataFrame
) -> list[str]:
    notes = []
    if not counts:
        notes.append(f"{db_path}: no trials with run_id '{run.run_id}'")
    unmatched = [name for name in kept if name not in counts]
    if counts and unmatched:  # a misspelt condition would drop its trials without a word
        notes.append(
            f"{db_path}: no trials of condition(s) {', '.join(unmatched)}; the run has "
            f"{', '.join(counts)}"
        )
    left_out = {name: n for name, n in counts.items() if name not in kept}
    if left_out:
        listed = ", ".join(f"{name} ({n})" for name, n in left_out.items())
        notes.append(f"{db_path}: left out trials of other conditions: {listed}")
    no_output = frame["output_id"].null_count() if frame.height else 0
    if no_output:
        notes.append(f"{db_path}: {no_output} trial(s) have no output row (raw is null)")
    return notes
