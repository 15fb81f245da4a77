"""`--compare`, `--baseline`, `--item` on audit, rescore and diff, end to end through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from answer_audit.cli import app
from answer_audit.cli.comparison import comparison_hint
from answer_audit.sources.spec import SourceSpec
from conclusion_fixtures import AUDIT_FLAGS, EVERY_STATUS, status_csv, status_frame
from paths import REAL

runner = CliRunner()


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def audit_reports(tmp_path: Path, *flags: str) -> tuple[dict[str, object], str, str, str]:
    """Audit the status table; the JSON, Markdown and HTML reports and the terminal output."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    source = status_csv(tmp_path / "status.csv")
    out = tmp_path / "out"
    code, stdout, stderr = run("audit", source, *AUDIT_FLAGS, *flags, "--out-dir", out)
    assert code == 0, stderr + stdout
    data = json.loads((out / "answer_parsing_audit.json").read_text(encoding="utf-8"))
    md = (out / "answer_parsing_audit.md").read_text(encoding="utf-8")
    html = (out / "answer_parsing_audit.html").read_text(encoding="utf-8")
    return data, md, html, stdout


def test_every_status_occurs_through_the_audit_json(tmp_path: Path) -> None:
    data, _, _, _ = audit_reports(tmp_path)
    found = data["conclusions"]
    assert isinstance(found, dict)
    statuses = {c["stratum"]["case"]: c["status"] for c in found["contrasts"]}
    assert statuses == {case: case for case in EVERY_STATUS}
    assert found["settings"] == {"compare": "cond", "baseline": "control", "strata": ["case"],
                                 "item": "q"}  # fmt: skip
    gained = next(c for c in found["contrasts"] if c["status"] == "gained")
    assert gained["holm_p"] < 0.05 <= gained["stored_holm_p"]


def test_changed_conclusions_come_first_in_every_format(tmp_path: Path) -> None:
    data, md, html, stdout = audit_reports(tmp_path)
    # Markdown and the terminal: the section right after the title, changed sentences first
    assert md.split("\n## ")[1].startswith("Conclusions")
    assert md.index("significant reversal") < md.index("### Every contrast")
    assert stdout.startswith("Conclusions")
    assert stdout.index("significant reversal") < stdout.index("rows, ")
    assert "Conclusions hold" not in stdout
    # HTML: the first panel, and the first forest row is the significant reversal
    assert html.index('id="conclusions"') < html.index('id="summary"')
    first_row = html.split('<tr class="changed">')[1]
    assert "significant reversal" in first_row.split("</tr>")[0]
    verdict = data["conclusions"]["verdict"]  # type: ignore[index]
    assert verdict.startswith("Conclusions change under re-labelling")
    assert verdict in html.replace("&#39;", "'")


def test_same_numbers_with_one_or_two_workers_and_a_fixed_seed(tmp_path: Path) -> None:
    one, _, _, _ = audit_reports(tmp_path / "one", "--workers", "1")
    two, _, _, _ = audit_reports(tmp_path / "two", "--workers", "2")
    assert one["conclusions"] == two["conclusions"]
    other, _, _, _ = audit_reports(tmp_path / "other", "--workers", "1", "--seed", "1")
    assert other["conclusions"] != one["conclusions"]  # the seed drives the resampling


def test_without_compare_the_json_is_null_and_every_report_says_how(tmp_path: Path) -> None:
    source = status_csv(tmp_path / "status.csv")
    out = tmp_path / "out"
    code, stdout, stderr = run("audit", source, "--parsed", "parsed", "--label", "label",
                               "--no-default-schemes", "--scheme", "new=stored:numeric",
                               "--out-dir", out)  # fmt: skip
    assert code == 0, stderr
    data = json.loads((out / "answer_parsing_audit.json").read_text(encoding="utf-8"))
    assert data["conclusions"] is None
    for name in ("answer_parsing_audit.md", "answer_parsing_audit.html"):
        assert "pass --compare FACTOR" in (out / name).read_text(encoding="utf-8")
    assert "pass --compare FACTOR" in stdout


def test_baseline_without_compare_is_refused(tmp_path: Path) -> None:
    source = status_csv(tmp_path / "status.csv")
    code, stdout, stderr = run("audit", source, "--parsed", "parsed", "--baseline", "control")
    assert code != 0
    assert "needs compare" in stderr + stdout


def test_rescore_holds_the_preset_against_the_recorded_labels(tmp_path: Path) -> None:
    # the raw output says the scheme's answer; the recorded label is the stored correctness
    frame = status_frame().filter(pl.col("case").is_in(["gained", "same"]))
    frame = frame.with_columns(raw=pl.format("Final answer: {}", pl.col("parsed")))
    source = tmp_path / "t.csv"
    frame.write_csv(source)
    out = tmp_path / "out"
    code, stdout, stderr = run("rescore", source, "--parser", "freeform/v3", "--parsed", "parsed",
                               "--label", "label", "--group-by", "case", "--compare", "cond",
                               "--baseline", "control", "--item", "q", "--out-dir", out)  # fmt: skip
    assert code == 0, stderr + stdout
    data = json.loads((out / "rescore.json").read_text(encoding="utf-8"))
    found = data["conclusions"]
    assert found["stored"] == "stored"
    assert {c["stratum"]["case"]: c["status"] for c in found["contrasts"]} == {
        "gained": "gained", "same": "same"
    }  # fmt: skip
    assert stdout.startswith("Conclusions")
    assert "## Conclusions" in (out / "rescore.md").read_text(encoding="utf-8")
    assert 'id="conclusions"' in (out / "rescore.html").read_text(encoding="utf-8")


def test_diff_holds_b_against_a(tmp_path: Path) -> None:
    frame = status_frame().filter(pl.col("case") != "not estimable")
    frame = frame.with_columns(
        a_answer=pl.when(pl.col("label") == 1).then(pl.lit("1")).otherwise(pl.lit("2"))
    )
    source = tmp_path / "t.csv"
    frame.write_csv(source)
    out_json = tmp_path / "d.json"
    code, stdout, stderr = run("diff", source, "--a", "stored:a_answer", "--b", "stored:parsed",
                               "--kind", "freeform", "--normalizer", "numeric", "--group-by",
                               "case", "--compare", "cond", "--baseline", "control", "--item",
                               "q", "--bootstrap", "2000", "--out-json", out_json)  # fmt: skip
    assert code == 0, stderr + stdout
    found = json.loads(out_json.read_text(encoding="utf-8"))["conclusions"]
    assert found["stored"] == "A (stored:a_answer)"
    statuses = {c["stratum"]["case"]: c["status"] for c in found["contrasts"]}
    assert statuses == {case: case for case in EVERY_STATUS if case != "not estimable"}
    assert stdout.startswith("Conclusions")


def test_rescore_of_an_inspect_match_log_reports_the_recorded_accuracy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("inspect_ai")
    from inspect_ai.scorer import match

    from inspect_fixtures import isolate, run_mc

    # match() scores the whole output against the letter: 4 of 6 recorded correct, while
    # re-matching its stored "answer" (the whole output) as a letter finds none
    log = run_mc(isolate(tmp_path, monkeypatch), scorer=match())
    out_json = tmp_path / "r.json"
    code, stdout, stderr = run("rescore", log, "--parser", "choice/v3", "--out-json", out_json)
    assert code == 0, stderr + stdout
    overall = json.loads(out_json.read_text(encoding="utf-8"))["overall"]
    assert overall["stored"]["accuracy"] == pytest.approx(4 / 6)
    assert overall["stored_label"]["accuracy"] == pytest.approx(4 / 6)
    assert "stored " in stdout and "re-matched" not in stdout


def test_the_hint_suggests_the_comparison_that_fits_the_source() -> None:
    runs = SourceSpec(runs_dir=Path("runs"), metadata=Path("runs/meta.json"))
    table = pl.DataFrame({"condition": ["control", "asch", "control"], "model": ["m"] * 3})
    assert "--compare condition --baseline control" in comparison_hint(runs, {}, table)
    logs = {"files": [{"format": "inspect"}]}
    several = pl.DataFrame({"model": ["a", "b"]})
    assert "--compare model " in comparison_hint(SourceSpec(paths=(Path("x"),)), logs, several)
    one = pl.DataFrame({"model": ["a", "a"]})
    assert "--compare FACTOR" in comparison_hint(SourceSpec(paths=(Path("x"),)), logs, one)
    lm_eval = {"files": [{"format": "lm-eval"}]}
    filters = pl.DataFrame({"filter": ["strict", "flexible"]})
    assert "--compare filter " in comparison_hint(SourceSpec(), lm_eval, filters)


def real(folder: str) -> list[Path]:
    found = sorted((REAL / folder).glob("*.*"))
    if not found:
        pytest.skip(f"real data not present at {REAL / folder}")
    return found


CONFORMITY = ["--id", "trial_id", "--raw", "raw_text", "--parsed", "parsed_answer_text",
              "--label", "is_correct", "--truth", "ground_truth_text", "--null-values", "None",
              "--group-by", "variant,condition_name", "--compare", "condition_name",
              "--baseline", "control", "--item", "question"]  # fmt: skip


@pytest.mark.real
def test_real_conformity_conclusions_change_and_come_first(tmp_path: Path) -> None:
    files = real("conformity")
    outs = {}
    for workers in ("1", "2"):
        out = tmp_path / workers
        code, stdout, stderr = run("audit", *files, *CONFORMITY, "--workers", workers,
                                   "--out-dir", out)  # fmt: skip
        assert code == 0, stderr
        assert stdout.startswith("Conclusions")
        outs[workers] = json.loads((out / "answer_parsing_audit.json").read_text("utf-8"))
    assert outs["1"]["conclusions"] == outs["2"]["conclusions"]
    found = outs["1"]["conclusions"]
    changed = [c for c in found["contrasts"] if c["status"] != "same"]
    assert changed and found["contrasts"][: len(changed)] == changed
    assert any(c["scheme"] == "parse_v4" and c["status"] == "gained" for c in changed)
    md = (tmp_path / "1" / "answer_parsing_audit.md").read_text("utf-8")
    assert md.split("\n## ")[1].startswith("Conclusions")


@pytest.mark.real
def test_real_statutes_best_configuration_changes(tmp_path: Path) -> None:
    files = real("statutes")
    out_json = tmp_path / "a.json"
    code, stdout, stderr = run("audit", *files, "--kind", "choice", "--raw", "response",
                               "--truth", "correct_answer", "--parsed", "predicted_answer",
                               "--label", "is_correct", "--group-by", "source", "--compare",
                               "source", "--out-json", out_json)  # fmt: skip
    assert code == 0, stderr
    found = json.loads(out_json.read_text("utf-8"))["conclusions"]
    v4 = next(r for r in found["rankings"] if r["scheme"] == "choice/v4")
    assert v4["best_changed"]
    assert found["rankings"][0]["best_changed"]  # rankings that changed come first
    assert stdout.startswith("Conclusions\nConclusions change under re-labelling")
