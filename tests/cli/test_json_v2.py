"""`--parser json/v2`: the ad-hoc JSON-field preset read by the tolerant reader, in `rescore`
and `diff`; `--parser json` stays the standard decoder's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from answer_audit.cli import app
from answer_audit.cli.options import adhoc_json_preset, check_adhoc_used, resolve_parser
from answer_audit.parsers import JsonFieldPreset

runner = CliRunner()

# Raw outputs in the forms models write; v1 misses the first two and the last.
ROWS = [
    ("r1", '{"isup_grade": 2,}', "2"),
    ("r2", "```json\n{'isup_grade': None,}\n```", "0"),
    ("r3", "{isup_grade: 4, // four\n}", "4"),
    ("r4", '{"isup_grade": 1}', "1"),
    ("r5", "grade 5", "5"),
    ("r6", '{"reason": "pattern 4 // and 3", "isup_grade": 3,}', "3"),
]
FLAGS = ["--field", "isup_grade", "--null-as", "0", "--allowed", "0-5", "--id", "id", "-q"]


def grades(tmp_path: Path) -> Path:
    path = tmp_path / "grades.jsonl"
    rows = [json.dumps({"id": i, "raw": raw, "truth": truth}) for i, raw, truth in ROWS]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def test_rescore_with_json_v2_reads_what_json_misses(tmp_path: Path) -> None:
    source, v1, v2 = grades(tmp_path), tmp_path / "v1.json", tmp_path / "v2.json"
    assert run("rescore", source, "-p", "json", *FLAGS, "--out-json", v1)[0] == 0
    assert run("rescore", source, "-p", "json/v2", *FLAGS, "--out-json", v2)[0] == 0
    a, b = (json.loads(p.read_text(encoding="utf-8")) for p in (v1, v2))
    assert a["parser"] == "json(field=isup_grade, null_as=0, allowed=0-5)"
    assert b["parser"] == "json/v2(field=isup_grade, null_as=0, allowed=0-5)"
    assert a["overall"]["rescored"]["accuracy"] == pytest.approx(3 / 6)
    assert b["overall"]["rescored"]["accuracy"] == 1.0


def test_rescore_json_v2_matches_the_builtin_v2(tmp_path: Path) -> None:
    source, adhoc, builtin = grades(tmp_path), tmp_path / "a.json", tmp_path / "b.json"
    assert run("rescore", source, "-p", "json/v2", *FLAGS, "--out-json", adhoc)[0] == 0
    assert run("rescore", source, "-p", "json/isup_grade/v2", "--id", "id", "-q",
               "--out-json", builtin)[0] == 0  # fmt: skip
    a, b = (json.loads(p.read_text(encoding="utf-8")) for p in (adhoc, builtin))
    assert a["overall"] == b["overall"] and a["incidence"] == b["incidence"]


def test_diff_compares_the_two_readings(tmp_path: Path) -> None:
    source, out = grades(tmp_path), tmp_path / "d.json"
    code, _, stderr = run("diff", source, "-a", "json", "-b", "json/v2", *FLAGS, "--out-json", out)
    assert code == 0, stderr
    text = out.read_text(encoding="utf-8")
    assert "json/v2(field=isup_grade" in text and "json(field=isup_grade" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-p", "json/v2"], "`json/v2` needs --field"),
        (["-p", "json"], "`json` needs --field"),
        (["-p", "choice/v3", "--field", "x"], "apply to `--parser json` only"),
    ],
)
def test_bad_json_flags_are_one_line_and_exit_2(
    tmp_path: Path, args: list[str], message: str
) -> None:
    code, _, stderr = run("rescore", grades(tmp_path), *args)
    assert code == 2 and message in stderr


def test_the_default_reading_is_unchanged() -> None:
    adhoc = adhoc_json_preset("g", 0, "0-5", False)
    assert adhoc == JsonFieldPreset("json(field=g, null_as=0, allowed=0-5)", "g", 0, (0, 5))
    assert resolve_parser("json", adhoc) is adhoc and not adhoc.tolerant
    tolerant = resolve_parser("json/v2", adhoc)
    assert isinstance(tolerant, JsonFieldPreset) and tolerant.tolerant
    assert tolerant.name == "json/v2(field=g, null_as=0, allowed=0-5)"
    assert resolve_parser("json/isup_grade/v2", adhoc) == "json/isup_grade/v2"
    check_adhoc_used(adhoc, ["json/v2"])
    with pytest.raises(ValueError, match="apply to"):
        check_adhoc_used(adhoc, ["json/isup_grade/v2"])
