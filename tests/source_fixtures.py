"""Input files and snapshots shared by the source, table, analysis and CLI tests."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import polars as pl

GRADES: list[tuple[str, str, str | None, int | None, str | None, int | None, bool | None]] = [
    ("r01", "A", '{"isup_grade": 3}', 3, None, 3, True),  # valid 3 ✓; stored ✓
    ("r02", "A", '{"isup_grade": 2} Hope this helps: grade 2.', 2, "", None, False),  # trailing prose: valid ✓; stored missing
    ("r03", "A", '{"isup_grade": null}', 0, None, 0, True),  # null -> 0 ✓
    ("r04", "A", 'Result: {"isup_grade": null}', 1, None, 0, False),  # null -> 0 ✗ (truly 1)
    ("r05", "A", '{"grade": 4}', 4, None, None, False),  # missing key ✗
    ("r06", "A", '{"isup_grade": 7}', 5, None, 7, False),  # out of range ✗; stored 7 ✗
    ("r07", "A", '{"isup_grade": "high"}', 5, None, None, False),  # not an integer ✗
    ("r08", "B", '{"isup_grade": 4,}', 4, None, 4, False),  # invalid JSON, no fallback ✗; stored ✓ (label says ✗)
    ("r09", "B", "Tumour at (12, 40): grade 3 pattern.", 3, None, 3, True),  # fallback 12 out of range ✗
    ("r10", "B", "ISUP grade 2 at position 15.", 2, None, 2, True),  # fallback 2 ✓
    ("r11", "B", "", 1, "timeout", None, False),  # error row
    ("r12", "B", '{"isup_grade": 1}', 1, "rate limited", 1, True),  # error row (label says ✓)
    ("r13", "B", None, 0, None, None, False),  # no output: error row
    ("r14", "B", "I cannot determine the grade.", 2, None, None, False),  # not found ✗
    ("r15", "B", '{"isup_grade": 5}', None, None, 5, None),  # no truth: not scored
]  # fmt: skip


def grades_file(path: Path) -> Path:
    keys = ("id", "site", "prediction", "truth", "error", "stored_grade", "stored_correct")
    lines = [json.dumps(dict(zip(keys, row, strict=True))) for row in GRADES]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under the folder with its bytes: equal snapshots mean nothing was touched."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def make_db(path: Path, *, tables: tuple[str, ...] = ("outputs",)) -> Path:
    with closing(sqlite3.connect(path)) as conn, conn:
        for name in tables:
            conn.execute(f"CREATE TABLE {name} (id TEXT, raw TEXT, score)")
            conn.executemany(
                f"INSERT INTO {name} VALUES (?, ?, ?)",
                [("007", "A", 1), ("008", "B", "high"), ("009", None, None)],
            )
    return path


ROWS = pl.DataFrame(
    {
        "temperature": [0.5, 0.0, 0.5, 0.0, 0.0],
        "model_id": ["m"] * 5,
        "variant": ["base", "base", "sft", "sft", "base"],
        "condition": ["control", "control", "asch_history_5", "authoritative_bias", "control"],
        "question": ["Capital of France?", "Capital of France?", "Best food?", "2+2?", "2+2?"],
        "truth": ["Paris", "Paris", None, "4", "4"],
        "domain": ["geo", "geo", "preference", "math", "math"],
        "raw": ["Paris.", "It is Lyon", "Pizza", "", "4\nUSER: more"],
        "parsed": ["Paris", "Lyon", "Pizza", "", "4"],
        "label": [True, False, None, False, True],
        "trial_id": ["t5a", "t0a", "t5b", "t0b", "t0c"],
    }
)
