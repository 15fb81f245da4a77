"""lm-evaluation-harness sample logs: mapping, detection, loglikelihood rows, filters, the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from answer_audit.cli import app
from answer_audit.sources import ColumnMap, SourceError, load_files, read_table
from answer_audit.sources.lm_eval import filter_agreement, task_from_file_name
from answer_audit.sources.spec import SourceSpec, load
from lm_eval_fixtures import DATE_ID, gsm8k_lines, write_run, write_samples

runner = CliRunner()


def test_gsm8k_samples_become_one_canonical_row_per_doc_and_filter(tmp_path: Path) -> None:
    gsm8k, _ = write_run(tmp_path)
    loaded = load_files(gsm8k, ColumnMap(), fmt="lm-eval")
    frame = loaded.frame
    assert frame.columns == ["id", "raw", "parsed", "label", "truth", "source", "task", "filter"]
    assert frame.height == 20
    first = frame.row(0, named=True)
    assert first["id"] == "gsm8k:0:strict-match"
    assert first["raw"].endswith("9 * 2 = $18.\n#### 18")  # resps[0][0]
    assert (first["parsed"], first["label"], first["truth"]) == ("18", True, "18")
    assert frame["filter"].unique(maintain_order=True).to_list() == [
        "strict-match",
        "flexible-extract",
    ]
    # filtered_resps[0] as the harness stored it, the fallback included
    assert frame.filter(pl.col("id") == "gsm8k:7:strict-match")["parsed"].item() == "[invalid]"
    assert frame.filter(pl.col("id") == "gsm8k:7:flexible-extract")["parsed"].item() == "$1,200"
    # the stored label is exact_match, as the harness computed it
    assert frame["label"].sum() == 5 + 8
    # the original keeps the provenance columns
    assert {"doc_id", "target", "prompt"} <= set(loaded.original.columns)
    assert loaded.original["prompt"][0].startswith("Question: A baker makes 16 muffins")


def test_truth_is_the_final_answer_of_a_gsm8k_solution_and_says_so(tmp_path: Path) -> None:
    gsm8k, _ = write_run(tmp_path)
    loaded = load_files(gsm8k, ColumnMap(), fmt="lm-eval")
    assert loaded.frame["truth"].to_list()[:3] == ["18", "3", "70000"]
    assert loaded.original["target"][0].startswith("She has 16 - 3 - 4")
    assert any("text after '####' of the target in 20 row(s)" in n for n in loaded.notes)


def test_auto_detects_samples_by_their_keys_and_leaves_plain_jsonl_alone(tmp_path: Path) -> None:
    gsm8k, _ = write_run(tmp_path)
    frame, stats = read_table(gsm8k)
    assert stats["format"] == "lm-eval"
    assert stats["task"] == "gsm8k" and stats["metric"] == "exact_match"
    assert "filter" in frame.columns
    plain = tmp_path / "plain.jsonl"
    plain.write_text('{"doc_id": 1, "raw": "x"}\n', encoding="utf-8")
    assert read_table(plain)[1]["format"] == "jsonl"


def test_default_groups_are_task_and_filter_unless_the_user_groups(tmp_path: Path) -> None:
    paths = write_run(tmp_path)
    spec = SourceSpec(paths=paths)
    _, groups = load(spec, ColumnMap(raw="raw", truth="truth"))
    assert groups == ("task", "filter")
    loaded, groups = load(spec, ColumnMap(raw="raw", truth="truth", group_by=("filter",)))
    assert groups == ("filter",)
    assert "task" not in loaded.frame.columns


def test_loglikelihood_rows_are_left_out_with_a_note(tmp_path: Path) -> None:
    gsm8k, arc = write_run(tmp_path)
    loaded = load_files([gsm8k, arc], ColumnMap(), fmt="auto")
    assert loaded.frame.height == 20
    assert loaded.frame["task"].unique().to_list() == ["gsm8k"]
    assert any("left out 3 loglikelihood row(s)" in n for n in loaded.notes)
    files = {f["source"]: f for f in loaded.coverage["files"]}
    assert files[arc.name]["rows"] == 0 and files[arc.name]["loglikelihood_rows"] == 3


def test_only_loglikelihood_rows_is_an_error_that_says_why(tmp_path: Path) -> None:
    _, arc = write_run(tmp_path)
    with pytest.raises(SourceError, match=r"no rows to read.*generated no text"):
        load_files(arc, ColumnMap())


def test_metric_flag_picks_the_label_and_unknown_metrics_are_listed(tmp_path: Path) -> None:
    gsm8k, _ = write_run(tmp_path)
    with pytest.raises(SourceError, match=r"no metric 'acc' in the samples; metrics: exact_match"):
        load_files(gsm8k, ColumnMap(), metric="acc")
    lines = gsm8k_lines()
    for line in lines:
        line["mean_f1"] = 0.5
    odd = write_samples(tmp_path / "odd", "gsm8k", lines)
    with pytest.raises(SourceError, match=r":1: metric 'mean_f1' is 0.5, not 0 or 1"):
        load_files(odd, ColumnMap(), metric="mean_f1")
    with pytest.raises(SourceError, match=r"--metric applies to lm-eval samples only; this is csv"):
        csv = tmp_path / "a.csv"
        csv.write_text("raw,truth\nx,y\n", encoding="utf-8")
        load_files(csv, ColumnMap(raw="raw", truth="truth"), metric="acc")


def test_without_exact_match_there_is_no_stored_label_and_a_note(tmp_path: Path) -> None:
    lines = gsm8k_lines()
    for line in lines:
        line["metrics"] = ["bleu"]
        line["bleu"] = line.pop("exact_match") * 100
    path = write_samples(tmp_path, "gsm8k", lines)
    loaded = load_files(path, ColumnMap())
    assert "label" not in loaded.frame.columns
    assert any("no 'exact_match' metric (metrics: bleu)" in n for n in loaded.notes)


def test_filter_agreement_counts_disagreements_on_the_same_documents(tmp_path: Path) -> None:
    gsm8k, _ = write_run(tmp_path)
    loaded = load_files(gsm8k, ColumnMap())
    table = filter_agreement(loaded.original)
    assert table.to_dicts() == [
        {
            "source": gsm8k.name,
            "task": "gsm8k",
            "filter_a": "strict-match",
            "filter_b": "flexible-extract",
            "docs": 10,
            "answers_differ": 5,
            "labels_differ": 5,
            "a_only_correct": 1,
            "b_only_correct": 4,
        }
    ]
    assert (
        "lm-eval gsm8k: filters strict-match vs flexible-extract on 10 doc(s): stored answers "
        "differ on 5, labels on 5 (strict-match alone right 1, flexible-extract alone right 4)"
    ) in loaded.notes


def test_older_logs_without_filter_key_and_with_list_arguments(tmp_path: Path) -> None:
    lines = gsm8k_lines()[:10]
    for line in lines:
        del line["filter"]
        line["arguments"] = [[line["arguments"]["gen_args_0"]["arg_0"], {"until": ["\n\n"]}]]
        line["target"] = [line["target"], "alias"]
    path = tmp_path / "samples_gsm8k.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    loaded = load_files(path, ColumnMap())
    assert loaded.frame["filter"].unique().to_list() == ["none"]
    assert loaded.frame["task"][0] == "gsm8k"
    assert loaded.original["prompt"][0].startswith("Question:")
    assert loaded.frame["truth"][0] == "18"
    assert any("10 target(s) list several answers; truth is the first" in n for n in loaded.notes)


@pytest.mark.parametrize(
    ("name", "task"),
    [
        (f"samples_gsm8k_{DATE_ID}.jsonl", "gsm8k"),
        (f"samples_mmlu_abstract_algebra_{DATE_ID}.jsonl", "mmlu_abstract_algebra"),
        ("samples_arc_easy.jsonl", "arc_easy"),
    ],
)
def test_task_comes_from_the_file_name(name: str, task: str) -> None:
    assert task_from_file_name(Path(name)) == task


def test_format_lm_eval_on_plain_jsonl_names_the_line_and_the_fix(tmp_path: Path) -> None:
    plain = tmp_path / "plain.jsonl"
    plain.write_text('{"raw": "x", "truth": "y"}\n', encoding="utf-8")
    with pytest.raises(SourceError, match=r"plain\.jsonl:1: not an lm-evaluation-harness sample "
                       r"\(missing doc_id, resps, filtered_resps; keys: raw, truth\); for plain "
                       r"JSON Lines use --format jsonl"):  # fmt: skip
        read_table(plain, fmt="lm-eval")


def test_auto_detected_file_that_fails_says_what_was_recognized(tmp_path: Path) -> None:
    lines = gsm8k_lines()
    lines[3]["resps"] = "oops"
    path = write_samples(tmp_path, "gsm8k", lines)
    with pytest.raises(SourceError, match=r":4: 'resps' is a string, not a list.*--format auto "
                       r"took the file for lm-eval samples"):  # fmt: skip
        read_table(path)


def test_mapping_a_fixed_column_is_refused(tmp_path: Path) -> None:
    gsm8k, _ = write_run(tmp_path)
    with pytest.raises(SourceError, match=r"fixed columns, so the raw column cannot be mapped"):
        load_files(gsm8k, ColumnMap(raw="response"))


def test_cli_audit_needs_no_flag_beyond_the_files(tmp_path: Path) -> None:
    paths = write_run(tmp_path / "out")
    out_json = tmp_path / "audit.json"
    result = runner.invoke(app, ["audit", "--format", "lm-eval", *map(str, paths),
                                 "--out-md", str(tmp_path / "a.md"), "--out-json", str(out_json),
                                 "--quiet"])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    report = json.loads(out_json.read_text())
    assert report["settings"]["group_by"] == ["task", "filter"]
    assert report["coverage"]["rows"] == 20 and report["coverage"]["scored"] == 20
    groups = {tuple(c["group"].values()) for c in report["cells"]}
    assert groups == {("gsm8k", "strict-match"), ("gsm8k", "flexible-extract")}
    stored = {c["group"]["filter"]: round(c["stored_error_pct"], 6) for c in report["cells"]}
    assert stored == {"strict-match": 50.0, "flexible-extract": 20.0}
    assert any("filters strict-match vs flexible-extract" in n for n in report["notes"])


def test_cli_rescore_reads_lm_eval_with_metric(tmp_path: Path) -> None:
    gsm8k, _ = write_run(tmp_path)
    out_json = tmp_path / "r.json"
    result = runner.invoke(app, ["rescore", str(gsm8k), "--parser", "number/v1", "--metric",
                                 "exact_match", "--normalizer", "numeric", "--out-json",
                                 str(out_json), "--quiet"])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    report = json.loads(out_json.read_text())
    assert report["settings"]["group_by"] == ["task", "filter"]
    assert report["overall"]["rescored"]["accuracy"] == 0.9
    assert report["overall"]["stored_label"]["accuracy"] == 0.65


def test_align_by_id_uses_the_logs_own_ids(tmp_path: Path) -> None:
    # "--align id needs --id COLUMN" while lm-eval logs refuse --id: no way to pair by id
    a = write_samples(tmp_path / "m1", "gsm8k", gsm8k_lines())
    b = write_samples(tmp_path / "m2", "gsm8k", list(reversed(gsm8k_lines())))
    result = runner.invoke(app, ["diff", str(a), str(b), "--align", "id", "-a", "stored",
                                 "-b", "stored", "--kind", "freeform", "--out-json",
                                 str(tmp_path / "d.json"), "-q"])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    report = json.loads((tmp_path / "d.json").read_text(encoding="utf-8"))
    assert report["agreement"]["agree"] == report["agreement"]["n"] == len(gsm8k_lines())


def test_an_eval_log_read_as_lm_eval_says_to_read_it_as_inspect(tmp_path: Path) -> None:
    import zipfile

    log = tmp_path / "mc.eval"
    with zipfile.ZipFile(log, "w") as archive:
        archive.writestr("header.json", "{}")
    result = runner.invoke(app, ["audit", str(log), "--format", "lm-eval", "-q"])
    assert result.exit_code == 2
    assert "--format inspect" in result.stderr and "unzip" not in result.stderr
