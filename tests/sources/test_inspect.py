"""inspect_ai logs (.eval and .json) written by real runs with the mock model, read back."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

pytest.importorskip("inspect_ai")

from answer_audit.cli import app
from answer_audit.sources import ColumnMap, SourceError, load_files, read_table
from answer_audit.sources.inspect_log import score_label
from answer_audit.sources.spec import SourceSpec, load
from inspect_fixtures import isolate, run_arith, run_mc

runner = CliRunner()
# inspect_ai's own retry setup trips a tenacity deprecation; not ours to fix.
pytestmark = pytest.mark.filterwarnings(
    "ignore:The 'initial' parameter is deprecated:DeprecationWarning"
)


@pytest.fixture
def isolate_inspect(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return isolate(tmp_path, monkeypatch)


@pytest.mark.parametrize("log_format", ["eval", "json"])
def test_log_samples_become_canonical_rows(isolate_inspect: Path, log_format: str) -> None:
    path = run_mc(isolate_inspect, log_format=log_format)
    _, stats = read_table(path)  # auto: .eval by extension, .json by its first keys
    assert stats["format"] == "inspect"
    assert (stats["task"], stats["model"], stats["scorer"]) == (
        "science_mc",
        "mockllm/model",
        "choice",
    )
    loaded = load_files(path, ColumnMap())
    assert loaded.frame.columns == ["id", "raw", "parsed", "label", "truth", "error", "source",
                                    "task", "model", "epoch"]  # fmt: skip
    first = loaded.frame.row(0, named=True)
    assert first["id"] == "science_mc:mc0:1"
    assert first["raw"] == "Plants take in carbon dioxide and release oxygen.\n\nANSWER: B"
    assert (first["parsed"], first["label"], first["truth"]) == ("B", True, "B")
    assert (first["task"], first["model"], first["epoch"]) == ("science_mc", "mockllm/model", 1)
    # inspect's choice() wants "ANSWER: X": the prose and the self-corrected answers are wrong
    labels = dict(zip(loaded.frame["id"], loaded.frame["label"], strict=True))
    assert [labels[f"science_mc:mc{i}:1"] for i in range(6)] == [
        True,
        False,
        False,
        True,
        True,
        False,
    ]
    assert any("stored parse and label from scorer 'choice'" in n for n in loaded.notes)


def test_several_scorers_need_a_choice_and_the_error_lists_them(isolate_inspect: Path) -> None:
    path = run_arith(isolate_inspect)
    with pytest.raises(
        SourceError, match=r"several scorers \(match, includes\); pass --scorer"
    ) as e:
        load_files(path, ColumnMap())
    assert "--format auto" not in str(e.value)  # the format was right: no detection hint
    loaded = load_files(path, ColumnMap(), scorer="match")
    assert loaded.frame["parsed"].to_list() == ["42", "72", "73", "12"]
    assert loaded.frame["label"].to_list() == [True, True, False, True]
    with pytest.raises(
        SourceError, match=r"no scorer 'exact' in the log; scorers: match, includes"
    ):
        load_files(path, ColumnMap(), scorer="exact")


def test_epochs_are_rows_and_default_groups_are_task_model_epoch(isolate_inspect: Path) -> None:
    path = run_arith(isolate_inspect, epochs=2)
    loaded, groups = load(SourceSpec(paths=(path,), scorer="includes"), ColumnMap(raw="raw"))
    assert groups == ("task", "model", "epoch")
    assert loaded.frame.height == 8
    assert sorted(loaded.frame["epoch"].unique().to_list()) == [1, 2]
    assert loaded.frame["id"].n_unique() == 8


def test_score_values_read_as_labels() -> None:
    assert [score_label(v) for v in ("C", "I", "N", "P", 1, 0, 1.0, 0.5, True, "yes", {"a": 1})] == [
        True, False, False, None, True, False, True, None, True, True, None,
    ]  # fmt: skip


def test_unreadable_scores_are_counted_or_refused(isolate_inspect: Path) -> None:
    path = run_arith(isolate_inspect, log_format="json")
    document = json.loads(path.read_text(encoding="utf-8"))
    for sample in document["samples"]:
        sample["scores"]["match"]["value"] = (
            "P" if sample["id"] == "a0" else sample["scores"]["match"]["value"]
        )
        sample["scores"]["includes"]["value"] = 0.5
    path.write_text(json.dumps(document), encoding="utf-8")
    loaded = load_files(path, ColumnMap(), scorer="match")
    assert loaded.frame["label"].null_count() == 1
    assert any("1 score(s) of 'match' are neither correct nor incorrect (e.g. 'P')" in n
               for n in loaded.notes)  # fmt: skip
    with pytest.raises(SourceError, match=r"no score of 'includes' reads as correct/incorrect"):
        load_files(path, ColumnMap(), scorer="includes")


def test_an_unscored_errored_log_says_why_a_scorer_is_missing(isolate_inspect: Path) -> None:
    path = run_arith(isolate_inspect, log_format="json")
    document = json.loads(path.read_text(encoding="utf-8"))
    document["status"] = "error"
    for sample in document["samples"]:
        sample["scores"] = None
    document.pop("results", None)
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(
        SourceError, match=r"scorers: \(none\) \(the log's status is 'error': the run may have "
        r"stopped before scoring; drop --scorer"
    ):  # fmt: skip
        load_files(path, ColumnMap(), scorer="match")
    loaded = load_files(path, ColumnMap())
    assert "label" not in loaded.frame.columns or loaded.frame["label"].null_count() == 4
    assert any("the log's status is 'error'" in n for n in loaded.notes)


def test_a_plain_json_file_is_not_taken_for_a_log(tmp_path: Path) -> None:
    plain = tmp_path / "results.json"
    plain.write_text('{"version": "1", "results": [{"raw": "a", "truth": "a"}]}', encoding="utf-8")
    assert read_table(plain)[1]["format"] == "json"


def test_a_broken_log_is_a_source_error(tmp_path: Path) -> None:
    broken = tmp_path / "run.eval"
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(SourceError, match=r"run\.eval: not a readable inspect_ai log \(.+\).*"
                       r"--format auto took the file for an inspect_ai log"):  # fmt: skip
        read_table(broken)
    with pytest.raises(SourceError, match=r"--scorer applies to inspect_ai logs only; this is csv"):
        csv = tmp_path / "a.csv"
        csv.write_text("raw,truth\nx,y\n", encoding="utf-8")
        read_table(csv, scorer="match")


def test_without_inspect_ai_the_package_imports_and_reading_says_how_to_install(
    isolate_inspect: Path,
) -> None:
    path = run_mc(isolate_inspect)
    code = (
        "import sys\n"
        "sys.modules['inspect_ai'] = None\n"  # any import of inspect_ai now fails
        "import answer_audit, answer_audit.cli, answer_audit.sources\n"
        "import answer_audit.integrations, answer_audit.integrations.lm_eval\n"
        "from answer_audit.sources import SourceError, read_table\n"
        "try:\n"
        f"    read_table({str(path)!r})\n"
        "except SourceError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "needs inspect_ai: pip install 'answer-audit[inspect]'" in done.stdout


def test_cli_audit_of_a_choice_log(isolate_inspect: Path, tmp_path: Path) -> None:
    path = run_mc(isolate_inspect)
    out_json = tmp_path / "audit.json"
    result = runner.invoke(app, ["audit", str(path), "--kind", "choice", "--out-md",
                                 str(tmp_path / "a.md"), "--out-json", str(out_json), "--quiet"])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    report = json.loads(out_json.read_text())
    assert report["settings"]["group_by"] == ["task", "model", "epoch"]
    assert report["coverage"]["scored"] == 6
    assert report["consistency"]["mismatches"] == 0
    v3 = next(s for s in report["schemes"] if s["name"] == "choice/v3")
    # choice/v3 reads the prose and self-corrected answers that choice() marked wrong
    assert (v3["stored_error_pct"], v3["error_pct"]) == pytest.approx((50.0, 100 / 6))
    frame = pl.DataFrame(report["examples"])
    assert set(frame["id"]) >= {"science_mc:mc1:1", "science_mc:mc2:1"}
