"""Notes on inputs that cannot be what they claim, on stderr in every command (--quiet or
not); rescoring an inspect match() log lists changed values, not a matrix of completions."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from answer_audit.cli import app

runner = CliRunner()
N = 24
URLS = '["https://laws.example/law/{i}", "https://fsa.example/koukai.pdf"]'


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def references_csv(path: Path) -> Path:
    """A choice run whose `references` column holds URL lists, beside the `answer` letters."""
    pl.DataFrame({
        "id": [str(i) for i in range(N)],
        "response": [f"Answer: {'abcd'[i % 4]}" for i in range(N)],
        "predicted": ["abcd"[i % 4] for i in range(N)],
        "correct": [i % 2 == 0 for i in range(N)],
        "answer": ["abcd"[i % 4] for i in range(N)],
        "references": [URLS.format(i=i) for i in range(N)],
    }).write_csv(path)  # fmt: skip
    return path


COLUMNS = ["--raw", "response", "--parsed", "predicted", "--label", "correct", "--id", "id"]
LISTS = f"note: the --truth column holds lists in {N} of {N} rows with a truth"


@pytest.mark.parametrize("command", [
    ["audit", "--kind", "choice", "--bootstrap", "50"],
    ["rescore", "--parser", "choice/v4", "--bootstrap", "50"],
    ["diff", "--a", "stored:predicted", "--b", "choice/v4"],
])  # fmt: skip
def test_a_truth_column_of_lists_is_noted_on_stderr_even_when_quiet(
    tmp_path: Path, command: list[str]
) -> None:
    source = references_csv(tmp_path / "runs.csv")
    # diff reads the stored parse as a side (stored:predicted), and no recorded label
    columns = COLUMNS if command[0] != "diff" else ["--raw", "response", "--id", "id"]
    code, _, stderr = run(*command, source, *columns, "--truth", "references", "-q")
    assert code == 0, stderr
    flat = " ".join(stderr.split())
    assert LISTS in flat and "are they choice answers (--kind)?" in flat
    assert f"labels any of the {N} scored rows correct" in flat or (
        f"choice/v4 labels none of the {N} scored rows correct" in flat
    )
    code, _, stderr = run(*command, source, *columns, "--truth", "answer", "-q")
    assert code == 0 and "--truth column" not in stderr and "scored rows correct" not in stderr


def test_audit_without_a_stored_parse_skips_the_scheme_that_needs_it(tmp_path: Path) -> None:
    source = references_csv(tmp_path / "runs.csv")
    flags = ["--raw", "response", "--label", "correct", "--truth", "answer", "-q"]
    out_json = tmp_path / "a.json"
    code, _, stderr = run("audit", source, *flags, "--out-json", out_json)
    assert code == 0, stderr
    assert "note: scheme norm_only skipped: it rescores the stored parse" in stderr
    report = json.loads(out_json.read_text(encoding="utf-8"))
    assert [s["name"] for s in report["schemes"]] == ["parse_only", "parse_norm", "parse_v4"]
    code, stdout, stderr = run("audit", source, *flags, "--scheme", "mine=stored:v2")
    assert code == 2 and "mine rescore the stored parse" in stderr + stdout


def test_rescore_of_a_match_log_lists_changed_values_in_every_format(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("inspect_ai")
    from inspect_ai.scorer import match

    from inspect_fixtures import isolate, run_mc

    # match() stores the whole output as the answer: no letters to make a matrix of
    log = run_mc(isolate(tmp_path, monkeypatch), scorer=match())
    paths = {ext: tmp_path / f"r.{ext}" for ext in ("json", "md", "html")}
    code, stdout, stderr = run("rescore", log, "--parser", "choice/v4", "--out-json",
                               paths["json"], "--out-md", paths["md"], "--out-html", paths["html"])  # fmt: skip
    assert code == 0, stderr + stdout
    assert "stored \\ rescored" not in stdout
    assert "change value from stored to rescored" in stdout and "rescored value" in stdout
    report = json.loads(paths["json"].read_text(encoding="utf-8"))
    assert report["confusion"] is None
    changes = report["value_changes"]
    assert changes["changed"] == 6 and changes["top"][0]["after"] in "abcd"
    assert any("\n" in c["before"] for c in changes["top"])  # whole completions in the JSON
    markdown = paths["md"].read_text(encoding="utf-8")
    assert "| stored value | rescored value | rows |" in markdown
    block = markdown.split("| stored value |", 1)[1].split("\n\n", 1)[0]
    assert all(line.startswith("|") for line in block.splitlines()[1:])  # one line per change
    page = paths["html"].read_text(encoding="utf-8")
    assert 'id="changes"' in page and 'id="confusion"' not in page


def test_letter_truths_without_kind_choice_are_noted(tmp_path: Path) -> None:
    source = references_csv(tmp_path / "runs.csv")
    flags = [*COLUMNS, "--truth", "answer", "-q"]
    code, _, stderr = run("audit", source, *flags)
    flat = " ".join(stderr.split())
    assert code == 0 and f"note: the --truth column holds single letters in {N} of {N}" in flat
    assert "read the answers as choices (audit --kind choice;" in flat
    code, _, stderr = run("audit", source, *flags, "--kind", "choice")
    assert code == 0 and "single letters" not in stderr
