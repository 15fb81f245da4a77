"""JSON reports: strict JSON (no bare NaN), whatever the command."""

from __future__ import annotations

import io
import json
from pathlib import Path

from typer.testing import CliRunner

from answer_audit.cli import app
from answer_audit.report.json import to_json, write_json
from group_fixtures import nan_group_rows

runner = CliRunner()


def test_json_reports_are_strict_json_with_a_nan_group(tmp_path: Path) -> None:
    path = tmp_path / "n.parquet"
    nan_group_rows().write_parquet(path)
    for args in (
        ["audit", "--kind", "choice", "--label", "label", "--out-json", str(tmp_path / "a.json")],
        ["rescore", "-p", "choice/v3", "--out-json", str(tmp_path / "r.json")],
        ["diff", "--a", "choice/v1", "--b", "choice/v3", "--out-json", str(tmp_path / "d.json")],
    ):
        result = runner.invoke(app, [args[0], str(path), "--group-by", "temp", "-q", *args[1:]])
        assert result.exit_code == 0, (args, result.stderr, result.exception)
        text = (tmp_path / args[-1].rsplit("/", 1)[-1]).read_text(encoding="utf-8")
        bare: list[str] = []
        json.loads(text, parse_constant=bare.append)
        assert bare == [], args[0]
        assert '"NaN"' in text


def test_written_piece_by_piece_the_json_is_the_same_text() -> None:
    data = {"a": [1.5, float("nan"), {"é": (None, True)}], "b": Path("x"), "c": float("-inf")}
    written = io.StringIO()
    write_json(data, written)
    assert written.getvalue() == to_json(data)
