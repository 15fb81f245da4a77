"""The commands as one app: audit, rescore and diff each give a report on the same odd inputs
(JSON-kind values that are not finite, a group column of lists)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
from typer.testing import CliRunner

from answer_audit.cli import app
from group_fixtures import nan_group_rows

runner = CliRunner()


def test_cli_json_kind_with_inf_gives_a_report(tmp_path: Path) -> None:
    rows = [
        {"raw": '{"isup_grade": 2}', "truth": "2", "parsed": "inf", "label": 1},
        {"raw": '{"isup_grade": 3}', "truth": "inf", "parsed": "3", "label": 0},
    ]
    path = tmp_path / "j.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    common = [str(path), "-q"]
    for args in (
        ["audit", *common, "--kind", "json", "--parsed", "parsed", "--label", "label",
         "--out-md", str(tmp_path / "a.md")],
        ["rescore", *common, "-p", "json/isup_grade", "--parsed", "parsed"],
        ["diff", *common, "--a", "stored:parsed", "--b", "json/isup_grade"],
    ):  # fmt: skip
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (args, result.stderr, result.exception)


def test_group_by_a_list_column(tmp_path: Path) -> None:
    path = tmp_path / "l.parquet"
    nan_group_rows().with_columns(
        pl.Series("tags", [["x"], ["x"], [], None], dtype=pl.List(pl.String))
    ).write_parquet(path)
    common = [str(path), "--group-by", "tags", "-q"]
    for args in (
        ["audit", *common, "--kind", "choice", "--label", "label", "--out-json",
         str(tmp_path / "a.json")],
        ["rescore", *common, "-p", "choice/v3", "--out-json", str(tmp_path / "r.json")],
        ["diff", *common, "--a", "choice/v1", "--b", "choice/v3"],
    ):  # fmt: skip
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (args, result.stderr, result.exception)
    groups = json.loads((tmp_path / "r.json").read_text())["groups"]
    assert sorted(str(g["group"]["tags"]) for g in groups) == ["None", '["x"]', "[]"]
