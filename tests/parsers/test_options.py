"""Option texts from a table column reach the choice presets (`--choices-col`)."""

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from answer_audit.cli import app
from answer_audit.parsers.options import parse_options


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("a Paris\nb Rome\nc Berlin", {"a": "Paris", "b": "Rome", "c": "Berlin"}),
        ("A. Paris\nB. Rome", {"a": "Paris", "b": "Rome"}),
        ("(A) Paris\n(B) Rome", {"a": "Paris", "b": "Rome"}),
        ("a：東京\nb：大阪", {"a": "東京", "b": "大阪"}),
        ('["Paris", "Rome"]', ("Paris", "Rome")),
        ('{"A": "Paris", "B": "Rome"}', {"a": "Paris", "b": "Rome"}),
        (["Paris", "Rome"], ("Paris", "Rome")),
        ("just prose", None),
        ("a only one", None),
        (None, None),
        ("[not json", None),
    ],
)
def test_parse_options(value: object, expected: object) -> None:
    assert parse_options(value) == expected


def test_choices_col_lets_choice_v4_match_option_text(tmp_path: Path) -> None:
    rows = [
        {
            "raw": "The answer is Rome.",
            "truth": "b",
            "options": json.dumps(["Paris", "Rome", "Berlin"]),
        },
        {"raw": "I would say Berlin.", "truth": "c", "options": "a Paris\nb Rome\nc Berlin"},
    ]
    path = tmp_path / "mc.jsonl"
    pl.DataFrame(rows).write_ndjson(path)
    runner = CliRunner()
    out = tmp_path / "r.json"
    common = ["rescore", str(path), "--parser", "choice/v4", "--quiet", "--out-json", str(out)]
    without = runner.invoke(app, common)
    assert without.exit_code == 0, without.stderr
    assert json.loads(out.read_text())["overall"]["rescored"]["accuracy"] == 0.0
    with_options = runner.invoke(app, [*common, "--choices-col", "options"])
    assert with_options.exit_code == 0, with_options.stderr
    assert json.loads(out.read_text())["overall"]["rescored"]["accuracy"] == 1.0
