"""`answer-audit rescore` and `answer-audit diff` end to end, and on the real statutes files."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

import answer_audit.cli.rescore as cli_rescore
from answer_audit.analysis import rescore as rescore_module
from answer_audit.analysis import rescore_result as rescore_result_module
from answer_audit.cli import app
from answer_audit.schemes import parallel
from answer_audit.sources.demo import demo_rows
from answer_audit.sources.spec import load
from paths import REAL
from source_fixtures import grades_file
from stream_fixtures import write_rows as write_input

runner = CliRunner()

GRADES_FLAGS = ["--raw", "prediction", "--truth", "truth", "--error", "error", "--id", "id",
                "--parsed", "stored_grade", "--label", "stored_correct",
                "--group-by", "site", "--bootstrap", "200", "--seed", "7"]  # fmt: skip


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def test_rescore_writes_rows_json_and_markdown(tmp_path: Path) -> None:
    source = grades_file(tmp_path / "grades.jsonl")
    rows, metrics, report = tmp_path / "r.csv", tmp_path / "m.json", tmp_path / "m.md"
    code, stdout, stderr = run("rescore", source, "--parser", "json/isup_grade", *GRADES_FLAGS,
                               "--out", rows, "--out-json", metrics, "--out-md", report)  # fmt: skip
    assert code == 0, stdout
    data = json.loads(metrics.read_text(encoding="utf-8"))
    assert list(data) == ["parser", "family", "normalizer", "settings", "coverage", "overall",
                          "groups", "incidence", "confusion", "notes", "conclusions",
                          "value_changes", "generated_at", "engine"]  # fmt: skip
    assert data["engine"] == "local"
    assert data["parser"] == "json/isup_grade"
    assert data["overall"]["rescored"]["accuracy"] == pytest.approx(4 / 14)
    assert data["overall"]["stored"]["accuracy"] == pytest.approx(5 / 14)
    assert (data["overall"]["flips"], data["overall"]["mcnemar_p"]) == (3, 1.0)
    assert [g["group"] for g in data["groups"]] == [{"site": "A"}, {"site": "B"}]
    assert data["settings"] == {"group_by": ["site"], "bootstrap": 200, "seed": 7, "ci": 0.95,
                                "choices": None}  # fmt: skip
    written = pl.read_csv(rows, infer_schema=False)
    assert written.height == 15
    assert written["id"].to_list()[:2] == ["r01", "r02"]
    assert written["rule"].to_list()[8:11] == ["integer-fallback-out-of-range",
                                              "integer-fallback", "error"]  # fmt: skip
    assert written["is_correct"].to_list()[:4] == ["true", "true", "true", "false"]
    md = report.read_text(encoding="utf-8")
    assert "## How the JSON field appeared" in md
    assert "| null | value null (read as the preset's null value) | 2 | 13.3 | 1/2 | 1 | 1 |" in md
    assert "JSON-field incidence" in stdout
    assert "28.6 ± " in stdout and "35.7 ± " in stdout
    assert "WARNING" in stderr and "disagrees with it on 2 row(s) (e.g. r08, r12)" in stderr


def test_rescore_adhoc_json_parser_matches_the_builtin(tmp_path: Path) -> None:
    source = grades_file(tmp_path / "grades.jsonl")
    builtin, adhoc = tmp_path / "b.json", tmp_path / "a.json"
    assert run("rescore", source, "-p", "json/isup_grade", *GRADES_FLAGS, "--out-json", builtin,
               "-q")[0] == 0  # fmt: skip
    code, _, _ = run("rescore", source, "-p", "json", "--field", "isup_grade", "--null-as", "0",
                     "--allowed", "0-5", *GRADES_FLAGS, "--out-json", adhoc, "-q")  # fmt: skip
    assert code == 0
    b, a = (json.loads(p.read_text(encoding="utf-8")) for p in (builtin, adhoc))
    assert a["parser"] == "json(field=isup_grade, null_as=0, allowed=0-5)"
    assert a["overall"] == b["overall"] and a["incidence"] == b["incidence"]


def test_rescore_without_integer_fallback_moves_rows_to_not_found(tmp_path: Path) -> None:
    source = grades_file(tmp_path / "grades.jsonl")
    out = tmp_path / "m.json"
    code, _, _ = run("rescore", source, "-p", "json", "--field", "isup_grade", "--null-as", "0",
                     "--allowed", "0-5", "--no-integer-fallback", *GRADES_FLAGS,
                     "--out-json", out, "-q")  # fmt: skip
    assert code == 0
    cats = {c["category"]: c["n"] for c in json.loads(out.read_text())["incidence"]["categories"]}
    assert (cats["integer-fallback"], cats["integer-fallback-out-of-range"]) == (0, 0)
    assert cats["not-found"] == 3  # r09, r10, r14


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-p", "choice/v99"], "unknown parser 'choice/v99'"),
        (["-p", "json"], "`json` needs --field"),
        (["-p", "choice/v3", "--field", "x"], "apply to `--parser json` only"),
        (["-p", "json/isup_grade", "--null-as", "0"], "need --field"),
        (["-p", "json", "--field", "g", "--allowed", "5-1"], "LOW is above HIGH"),
        (["-p", "choice/v3", "--normalizer", "v2"], "free-form parsers only"),
        (["-p", "choice/v3", "--raw", "nope"], "column 'nope' not found"),
        (["-p", "choice/v3", "--out", "x.txt"], "cannot tell the output format"),
    ],
)
def test_rescore_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, args: list[str], message: str
) -> None:
    source = grades_file(tmp_path / "grades.jsonl")
    code, _, stderr = run("rescore", source, "--raw", "prediction", *args)
    assert code == 2
    assert message in stderr
    assert len(stderr.strip().splitlines()) == 1


def test_no_input_and_bad_bootstrap_are_one_line_errors(tmp_path: Path) -> None:
    code, _, stderr = run("rescore", "-p", "choice/v3")
    assert (code, stderr.strip()) == (2, "error: no input: pass one or more result files")
    source = grades_file(tmp_path / "grades.jsonl")
    code, _, stderr = run("rescore", source, "-p", "json/isup_grade", *GRADES_FLAGS,
                          "--bootstrap", "1")  # fmt: skip
    assert code == 2 and stderr.count("\n") == 1
    assert (
        stderr.startswith("error: Invalid value for '--bootstrap'") and "rescore --help" in stderr
    )


def test_rescore_refuses_to_write_over_an_input(tmp_path: Path) -> None:
    source = grades_file(tmp_path / "grades.jsonl")
    before = source.read_text(encoding="utf-8")
    code, _, stderr = run("rescore", source, "-p", "json/isup_grade", *GRADES_FLAGS,
                          "--out", source)  # fmt: skip
    assert code == 2 and "one of the inputs" in stderr
    assert source.read_text(encoding="utf-8") == before
    code, _, stderr = run(
        "rescore",
        source,
        "-p",
        "json/isup_grade",
        *GRADES_FLAGS,
        "--out-json",
        tmp_path / "x.json",
        "--out-md",
        tmp_path / "x.json",
    )
    assert code == 2 and "same file" in stderr


def choice_file(path: Path, rows: list[tuple[str, str, str, str]]) -> Path:
    keys = ("qid", "response", "predicted", "answer")
    path.write_text("\n".join(json.dumps(dict(zip(keys, r, strict=True))) for r in rows) + "\n")
    return path


def test_diff_two_parsers_prints_and_writes(tmp_path: Path) -> None:
    source = choice_file(tmp_path / "c.jsonl", [
        ("q1", "Answer: a\nOn reflection, Answer: c", "a", "c"),
        ("q2", "Answer: b", "b", "b"),
    ])  # fmt: skip
    md, js = tmp_path / "d.md", tmp_path / "d.json"
    code, stdout, _ = run("diff", source, "--a", "choice/v1", "--b", "choice/v3", "--raw",
                          "response", "--truth", "answer", "--id", "qid", "--out-md", md,
                          "--out-json", js)  # fmt: skip
    assert code == 0, stdout
    assert "extract the same value on 1 of 2 rows (50.0%)" in stdout
    data = json.loads(js.read_text(encoding="utf-8"))
    assert data["accuracy"]["a"] == 0.5 and data["accuracy"]["b"] == 1.0
    assert data["disagreements"][0]["id"] == "q1"
    assert "### q1" in md.read_text(encoding="utf-8")
    assert "Answer: ⟦c⟧" in md.read_text(encoding="utf-8")


def test_diff_two_files_by_id_and_by_order(tmp_path: Path) -> None:
    one = choice_file(tmp_path / "one.jsonl", [("q1", "Answer: a", "a", "a"),
                                               ("q2", "Answer: b", "b", "c")])  # fmt: skip
    two = choice_file(tmp_path / "two.jsonl", [("q2", "Answer: c", "c", "c"),
                                               ("q1", "Answer: a", "a", "a")])  # fmt: skip
    js = tmp_path / "d.json"
    flags = ["--a", "stored:predicted", "--b", "stored:predicted", "--kind", "choice", "--raw",
             "response", "--truth", "answer", "--id", "qid"]  # fmt: skip
    code, stdout, _ = run("diff", one, two, *flags, "--align", "id", "--out-json", js, "-q")
    assert code == 0, stdout
    data = json.loads(js.read_text(encoding="utf-8"))
    assert data["align"] == "id"
    assert data["agreement"] == {"n": 2, "agree": 1, "rate": 0.5, "both_none": 0}
    assert (data["accuracy"]["a"], data["accuracy"]["b"], data["accuracy"]["mcnemar_p"]) == (
        0.5, 1.0, 1.0,
    )  # fmt: skip
    code, _, _ = run("diff", one, two, *flags, "--align", "order", "--out-json", js, "-q")
    assert json.loads(js.read_text(encoding="utf-8"))["agreement"]["agree"] == 0
    three = choice_file(tmp_path / "three.jsonl", [("q1", "Answer: a", "a", "a")])
    code, _, stderr = run("diff", one, three, *flags, "--align", "order")
    assert code == 2 and "A has 2 rows and B has 1" in stderr
    code, _, stderr = run("diff", one, two, *flags[:-2], "--align", "id")
    assert code == 2 and "--align id needs --id" in stderr


# ---------------------------------------------------------------- real data


def statutes() -> list[Path]:
    folder = REAL / "statutes"
    if not folder.is_dir():
        pytest.skip(f"real data not present at {folder}")
    return sorted(folder.glob("*.json"))


STATUTES_FLAGS = ["--raw", "response", "--truth", "correct_answer", "--parsed",
                  "predicted_answer", "--group-by", "source"]  # fmt: skip
# Correct answers out of 27 per file (0411, 0559, 0616, 0804): stored, then per preset.
STORED = [12, 20, 16, 13]
RESCORED = {"choice/v1": [12, 20, 16, 16], "choice/v2": [12, 14, 13, 13],
            "choice/v3": [12, 19, 18, 18]}  # fmt: skip


@pytest.mark.real
@pytest.mark.parametrize("parser", sorted(RESCORED))
def test_statutes_rescore_needs_no_preprocessing(tmp_path: Path, parser: str) -> None:
    files = statutes()
    out, rows = tmp_path / "m.json", tmp_path / "rescored.jsonl"
    code, stdout, stderr = run("rescore", *files, "--parser", parser, *STATUTES_FLAGS,
                               "--out", rows, "--out-json", out)  # fmt: skip
    assert code == 0, stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    got = [(g["stored"]["n"], round(g["stored"]["accuracy"] * 27), round(g["rescored"]["accuracy"]
            * 27)) for g in data["groups"]]  # fmt: skip
    assert got == [(27, s, r) for s, r in zip(STORED, RESCORED[parser], strict=True)]
    assert data["overall"]["rescored"]["n"] == 108
    written = pl.read_ndjson(rows)
    assert written.height == 108
    assert {"is_correct", "is_correct_rescored", "extracted", "rule"} <= set(written.columns)
    assert "wrote" in stdout


@pytest.mark.real
def test_statutes_stored_parse_reproduces_stored_labels(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    code, _, stderr = run("rescore", *statutes(), "-p", "choice/v3", *STATUTES_FLAGS,
                          "--label", "is_correct", "--out-json", out, "-q")  # fmt: skip
    assert code == 0, stderr
    label = json.loads(out.read_text(encoding="utf-8"))["overall"]["stored_label"]
    assert (label["n"], label["disagreements"]) == (108, 0)


@pytest.mark.real
def test_statutes_diff_stored_vs_v3(tmp_path: Path) -> None:
    out = tmp_path / "d.json"
    code, _, stderr = run("diff", *statutes(), "--a", "stored:predicted_answer", "--b",
                          "choice/v3", "--raw", "response", "--truth", "correct_answer",
                          "--group-by", "source", "--out-json", out, "-q")  # fmt: skip
    assert code == 0, stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["agreement"]["agree"] == 82 and data["agreement"]["n"] == 108
    assert [g["agree"] for g in data["groups"]] == [22, 22, 24, 14]
    assert (data["accuracy"]["a_only_correct"], data["accuracy"]["b_only_correct"]) == (7, 13)


@pytest.mark.parametrize(
    ("cells", "flags", "column", "expected"),
    [
        # an integer beyond 64 bits in the model's JSON, then in the stored column: written
        # whole, as text, instead of a Polars TypeError traceback
        ('{"x": 99999999999999999999999}\t3', ["-p", "json", "--field", "x"], "extracted",
         "99999999999999999999999"),
        ('{"isup_grade": 2}\t2\t99999999999999999999', ["-p", "json/isup_grade", "--parsed", "st"],
         "stored_extracted", "99999999999999999999"),
    ],
)  # fmt: skip
def test_rescore_keeps_integers_beyond_64_bits(
    tmp_path: Path, cells: str, flags: list[str], column: str, expected: str
) -> None:
    source = tmp_path / "big.tsv"
    source.write_text("raw\ttruth\tst\n" + cells + "\n", encoding="utf-8")
    rows = tmp_path / "rows.jsonl"
    code, _, stderr = run("rescore", source, *flags, "-q", "--out", rows)
    assert code == 0, stderr
    assert json.loads(rows.read_text(encoding="utf-8"))[column] == expected


def test_rescore_keeps_64_bit_json_values_as_integers(tmp_path: Path) -> None:
    source = tmp_path / "small.tsv"
    source.write_text('raw\ttruth\n{"x": 9223372036854775807}\t3\n', encoding="utf-8")
    rows = tmp_path / "rows.jsonl"
    code, _, stderr = run("rescore", source, "-p", "json", "--field", "x", "-q", "--out", rows)
    assert code == 0, stderr
    assert json.loads(rows.read_text(encoding="utf-8"))["extracted"] == 2**63 - 1


def test_old_stored_spellings_still_work_with_a_deprecation_note(tmp_path: Path) -> None:
    source = grades_file(tmp_path / "grades.jsonl")
    common = ["rescore", str(source), "-p", "json/isup_grade", "--raw", "prediction", "-q"]
    new = runner.invoke(app, [*common, "--parsed", "stored_grade", "--label", "stored_correct",
                              "--out-json", str(tmp_path / "new.json")])  # fmt: skip
    old = runner.invoke(app, [*common, "--stored", "stored_grade", "--stored-label",
                              "stored_correct", "--out-json", str(tmp_path / "old.json")])  # fmt: skip
    assert new.exit_code == 0 and old.exit_code == 0, (new.output, old.output)
    assert "deprecated" not in new.stderr
    assert "--stored is deprecated; use --parsed" in old.stderr
    assert "--stored-label is deprecated; use --label" in old.stderr
    assert (tmp_path / "new.json").read_text() == (tmp_path / "old.json").read_text()


def test_old_and_new_spelling_disagreeing_is_an_error(tmp_path: Path) -> None:
    source = grades_file(tmp_path / "grades.jsonl")
    result = runner.invoke(app, ["rescore", str(source), "-p", "json/isup_grade", "--raw",
                                 "prediction", "--parsed", "stored_grade", "--stored", "truth"])  # fmt: skip
    assert result.exit_code == 2
    assert "--stored is the old name of --parsed" in result.stderr


# --------------------------------------------------------------------- odd columns and null values


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".json", ".parquet"])
def test_rescore_rows_with_binary_and_duration_columns(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / "in.parquet"
    pl.DataFrame(
        {"raw": ["Answer: a", "Answer: b"], "truth": ["a", "c"], "blob": [b"\xffx", None],
         "took": [datetime.timedelta(seconds=3), None]}
    ).write_parquet(path)  # fmt: skip
    out = tmp_path / f"rows{suffix}"
    result = runner.invoke(app, ["rescore", str(path), "-p", "choice/v3", "-q", "--out", str(out)])
    assert result.exit_code == 0, (result.stderr, result.exception)
    assert out.stat().st_size > 0


def test_diff_stored_column_honours_null_values_like_rescore(tmp_path: Path) -> None:
    path = tmp_path / "n.csv"
    path.write_text("raw,truth,parsed\nAnswer: a,a,NA\nAnswer: b,b,b\n", encoding="utf-8")
    common = [str(path), "--null-values", "NA", "-q"]
    runner.invoke(app, ["rescore", *common, "-p", "choice/v3", "--parsed", "parsed",
                        "--out-json", str(tmp_path / "r.json")])  # fmt: skip
    result = runner.invoke(app, ["diff", *common, "--a", "stored:parsed", "--b", "choice/v3",
                                 "--out-json", str(tmp_path / "d.json")])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    rescored = json.loads((tmp_path / "r.json").read_text())
    diffed = json.loads((tmp_path / "d.json").read_text())
    assert diffed["confusion"] == rescored["confusion"]
    assert diffed["disagreements"][0]["a"]["rule"] == "stored-missing"


# --------------------------------------------------------------------- streamed inputs

STREAM_FLAGS = ["-p", "freeform/v4", "--raw", "raw", "--parsed", "parsed", "--label", "label",
                "--truth", "truth", "--group-by", "variant", "--compare", "condition",
                "--baseline", "control", "--item", "question", "--bootstrap", "50", "-q"]  # fmt: skip


def _report(path: Path) -> dict[str, object]:
    data = json.loads(path.read_text(encoding="utf-8"))
    data.pop("generated_at")
    return dict(data)


def _rows_of(path: Path) -> pl.DataFrame | bytes:
    return pl.read_parquet(path) if path.suffix == ".parquet" else path.read_bytes()


@pytest.mark.parametrize("name", ["rows.csv", "rows.jsonl.gz", "rows.parquet"])
def test_a_streamed_rescore_writes_the_whole_reads_report_and_rows(
    tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rescore_module, "CHUNK_ROWS", 13)  # many slices of 150 rows
    monkeypatch.setattr(rescore_result_module, "ANNOTATE_ROWS", 11)
    source = write_input(demo_rows().head(150), tmp_path / name)
    before = source.read_bytes()
    streamed = {s: tmp_path / f"streamed{s}" for s in (".csv", ".jsonl", ".json", ".parquet")}
    whole = {s: tmp_path / f"whole{s}" for s in streamed}
    for out in streamed.values():
        code, _, stderr = run("rescore", source, *STREAM_FLAGS, "--out", out,
                              "--out-json", out.with_suffix(".report"))  # fmt: skip
        assert code == 0, stderr
    monkeypatch.setattr(cli_rescore, "load_streamed", load)  # the whole read
    for out in whole.values():
        code, _, stderr = run("rescore", source, *STREAM_FLAGS, "--out", out,
                              "--out-json", out.with_suffix(".report"))  # fmt: skip
        assert code == 0, stderr
    for suffix, out in streamed.items():
        report = _report(out.with_suffix(".report"))
        assert report == _report(whole[suffix].with_suffix(".report"))
        assert report["conclusions"]
        left, right = _rows_of(out), _rows_of(whole[suffix])
        if isinstance(left, pl.DataFrame) and isinstance(right, pl.DataFrame):
            assert left.schema == right.schema and left.equals(right)
        else:
            assert left == right
    assert pl.read_csv(streamed[".csv"]).height == 150
    assert source.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary left


def test_a_streamed_rescore_gives_the_same_numbers_on_two_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rescore_module, "CHUNK_ROWS", 40)
    monkeypatch.setattr(parallel, "MIN_PARALLEL_ITEMS", 10)  # the workers run on 40 rows
    source = write_input(demo_rows().head(120), tmp_path / "rows.csv")
    flags = [*STREAM_FLAGS[2:], "-p", "freeform/v3", "--normalizer", "v3"]  # row by row
    for workers in ("1", "2"):
        code, _, stderr = run("rescore", source, *flags, "--workers", workers,
                              "--out", tmp_path / f"rows{workers}.jsonl",
                              "--out-json", tmp_path / f"r{workers}.json")  # fmt: skip
        assert code == 0, stderr
    assert _report(tmp_path / "r1.json") == _report(tmp_path / "r2.json")
    assert (tmp_path / "rows1.jsonl").read_bytes() == (tmp_path / "rows2.jsonl").read_bytes()


def test_streamed_inputs_that_cannot_be_stacked_are_one_line_and_exit_2(tmp_path: Path) -> None:
    rows = demo_rows().head(4)
    first = write_input(rows.with_columns(extra=pl.lit([1, 2])), tmp_path / "a.parquet")
    second = write_input(rows.with_columns(extra=pl.lit({"a": 1})), tmp_path / "b.parquet")
    code, _, stderr = run("rescore", first, second, *STREAM_FLAGS)
    assert code == 2 and "the input files cannot be combined" in stderr
    assert len(stderr.strip().splitlines()) == 1
