"""The specified presets reproduce the stored parses of real experiment runners."""

import csv
import json
from pathlib import Path

import pytest

from answer_audit import extract, is_correct
from paths import REAL

pytestmark = pytest.mark.real


def _need(folder: str) -> Path:
    path = REAL / folder
    if not path.is_dir():
        pytest.skip(f"real data not present at {path}")
    return path


def test_freeform_v1_and_v1_matcher_reproduce_conformity_runner() -> None:
    files = sorted(_need("conformity").glob("*.csv"))
    assert len(files) == 3
    for path in files:
        with path.open(newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        assert len(rows) == 720
        parse_mismatch = [
            r["trial_id"]
            for r in rows
            if extract(r["raw_text"], "freeform/v1").value != r["parsed_answer_text"]
        ]
        factual = [r for r in rows if r["ground_truth_text"] != "None"]
        label_mismatch = [
            r["trial_id"]
            for r in factual
            if is_correct(r["parsed_answer_text"], r["ground_truth_text"], "v1")
            != (r["is_correct"] == "1")
        ]
        assert (path.name, len(factual), parse_mismatch, label_mismatch) == (path.name, 360, [], [])


@pytest.mark.parametrize(
    ("stem", "parser"),
    [("0411", "choice/v1"), ("0559", "choice/v1"), ("0616", "choice/v1"), ("0804", "choice/v2")],
)
def test_choice_presets_reproduce_statutes_runner(stem: str, parser: str) -> None:
    (path,) = [p for p in _need("statutes").glob("*.json") if f"-{stem}_" in p.name]
    results = json.loads(path.read_text(encoding="utf-8"))["results"]
    assert len(results) == 27
    mismatches = [
        (i, r["predicted_answer"], extract(r["response"], parser).value)
        for i, r in enumerate(results)
        if extract(r["response"], parser).value != (r["predicted_answer"] or None)
    ]
    assert mismatches == []
