"""The real experiment files load into the canonical table with the expected counts."""

from __future__ import annotations

from pathlib import Path

import pytest

from answer_audit.sources import ColumnMap, load_files
from paths import REAL

pytestmark = pytest.mark.real


def _files(folder: str, pattern: str) -> list[Path]:
    path = REAL / folder
    if not path.is_dir():
        pytest.skip(f"real data not present at {path}")
    return sorted(path.glob(pattern))


def test_conformity_csvs() -> None:
    cmap = ColumnMap(
        id="trial_id",
        raw="raw_text",
        parsed="parsed_answer_text",
        label="is_correct",
        truth="ground_truth_text",
        group_by=("source", "variant", "condition_name"),
        null_values=("None",),
    )
    table = load_files(_files("conformity", "*.csv"), cmap)
    frame = table.frame
    assert frame.height == 2160
    assert frame["truth"].drop_nulls().len() == 1080
    assert frame["id"].n_unique() == 2160
    assert frame["source"].unique().sort().to_list() == [
        "behavioral_t0.0.csv", "behavioral_t0.5.csv", "behavioral_t1.0.csv",
    ]  # fmt: skip
    assert frame["label"].null_count() == 0
    assert table.original.height == 2160
    assert table.coverage["decode_replacements"] == 0


def test_statutes_json() -> None:
    cmap = ColumnMap(
        raw="response", parsed="predicted_answer", label="is_correct", truth="correct_answer"
    )
    table = load_files(_files("statutes", "*.json"), cmap)
    assert table.frame.height == 108
    assert table.frame["label"].null_count() == 0
    assert table.coverage["rows_with_truth"] == 108
    assert "records read from the key 'results' (4 file(s))" in table.notes
