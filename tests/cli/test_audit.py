"""`answer-audit audit` and `demo` as a user runs them."""

import hashlib
import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from answer_audit.cli import app
from answer_audit.sources import write_runs
from paths import REAL

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def real_csvs() -> list[Path]:
    folder = REAL / "conformity"
    if not folder.is_dir():
        pytest.skip(f"real data not present at {folder}")
    return sorted(folder.glob("*.csv"))


CSV_FLAGS = ["--id", "trial_id", "--raw", "raw_text", "--parsed", "parsed_answer_text",
             "--label", "is_correct", "--truth", "ground_truth_text", "--null-values", "None"]  # fmt: skip
# flips per scheme and file on the real conformity CSVs (see CHANGELOG / the issue note)
REAL_FLIPS = {
    "parse_only": {"behavioral_t0.0.csv": 6, "behavioral_t0.5.csv": 8, "behavioral_t1.0.csv": 9},
    "parse_norm": {"behavioral_t0.0.csv": 9, "behavioral_t0.5.csv": 9, "behavioral_t1.0.csv": 12},
    "norm_only": {"behavioral_t0.0.csv": 6, "behavioral_t0.5.csv": 5, "behavioral_t1.0.csv": 6},
}


def flips_per_source(report: dict[str, object]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for c in report["cells"]:  # type: ignore[attr-defined]  # the JSON report's list of cells
        per = out.setdefault(c["scheme"], {})
        src = c["group"]["source"]
        per[src] = per.get(src, 0) + c["flips"]
    return {k: v for k, v in out.items() if k in REAL_FLIPS}


@pytest.mark.real
def test_real_conformity_csvs_consistency_and_flips(tmp_path: Path) -> None:
    files = real_csvs()
    out_json = tmp_path / "audit.json"
    code, _stdout, stderr = run(
        "audit", *map(str, files), *CSV_FLAGS, "--group-by", "source,variant,condition_name",
        "--out-md", str(tmp_path / "audit.md"), "--out-json", str(out_json), "--quiet",
    )  # fmt: skip
    assert code == 0, stderr
    report = json.loads(out_json.read_text())
    assert report["coverage"]["rows"] == 2160
    assert report["coverage"]["scored"] == 1080
    assert report["consistency"]["mismatches"] == 0
    assert flips_per_source(report) == REAL_FLIPS
    assert (tmp_path / "audit.md").read_text().startswith("# Answer-parsing audit")


@pytest.mark.real
def test_same_rows_through_sqlite_run_folders_give_the_same_figures(tmp_path: Path) -> None:
    files = real_csvs()
    frames = []
    for path in files:
        df = pl.read_csv(path, infer_schema=False)
        temp = float(path.stem.split("_t")[1])
        frames.append(
            df.select(
                pl.lit(temp).alias("temperature"), "model_id", "variant",
                pl.col("condition_name").alias("condition"), "question",
                pl.when(pl.col("ground_truth_text") == "None").then(None)
                .otherwise(pl.col("ground_truth_text")).alias("truth"),
                "domain", pl.col("raw_text").alias("raw"), pl.col("parsed_answer_text").alias("parsed"),
                pl.col("is_correct").cast(pl.Int64).alias("label"), "trial_id",
            )
        )  # fmt: skip
    metadata = write_runs(pl.concat(frames), tmp_path / "runs")
    before = {
        p: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in (tmp_path / "runs").rglob("*")
        if p.is_file()
    }
    out_json = tmp_path / "runs.json"
    code, _, stderr = run(
        "audit", "--runs-dir", str(tmp_path / "runs"), "--metadata", str(metadata),
        "--out-md", str(tmp_path / "runs.md"), "--out-json", str(out_json), "--quiet",
    )  # fmt: skip
    assert code == 0, stderr
    report = json.loads(out_json.read_text())
    assert report["consistency"]["mismatches"] == 0
    per_temp: dict[str, dict[float, int]] = {}
    for c in report["cells"]:
        per = per_temp.setdefault(c["scheme"], {})
        per[c["group"]["temperature"]] = per.get(c["group"]["temperature"], 0) + c["flips"]
    expected = {
        s: {float(f.split("_t")[1][:-4]): n for f, n in v.items()} for s, v in REAL_FLIPS.items()
    }
    assert {s: per_temp[s] for s in REAL_FLIPS} == expected
    # the run folders are byte-identical after the audit, and nothing was added
    after = {
        p: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in (tmp_path / "runs").rglob("*")
        if p.is_file()
    }
    assert after == before


def test_demo_writes_reports(tmp_path: Path) -> None:
    code, stdout, stderr = run("demo", "--out", str(tmp_path), "--quiet")
    assert code == 0, stderr
    report = json.loads((tmp_path / "answer_parsing_audit.json").read_text())
    assert report["coverage"]["rows"] == 2016
    assert report["consistency"]["mismatches"] == 0
    assert {s["name"] for s in report["schemes"]} >= {"parse_only", "parse_norm", "norm_only"}
    assert report["think"]["rows"] > 0 and report["markers"]["raw_role"] > 0
    assert "wrote" in stdout


def test_scheme_flag_adds_and_replaces(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    pl.DataFrame({"raw": ["Paris.\nuser: x", "H₂O"], "truth": ["Paris", "H2O"], "label": [1, 0],
                  "parsed": ["Paris.\nuser: x", "H₂O"]}).write_csv(path)  # fmt: skip
    out_json = tmp_path / "a.json"
    code, _, stderr = run(
        "audit", str(path), "--parsed", "parsed", "--label", "label", "--quiet",
        "--scheme", "norm_only=stored:v1", "--scheme", "mine=freeform/v1:v2",
        "--out-json", str(out_json), "--out-md", str(tmp_path / "a.md"),
    )  # fmt: skip
    assert code == 0, stderr
    schemes = {s["name"]: s for s in json.loads(out_json.read_text())["schemes"]}
    assert list(schemes) == ["parse_only", "parse_norm", "norm_only", "parse_v4", "mine"]
    assert schemes["norm_only"]["normalizer"] == "v1" and schemes["norm_only"]["flips"] == 0
    assert schemes["mine"]["flips"] == 1


def test_error_rows_are_incorrect_under_every_scheme(tmp_path: Path) -> None:
    # row 2 timed out after "Paris": its stored label is 0, and re-parsing its partial text
    # must not turn it into a correct answer (a flip that is no parsing difference)
    path = tmp_path / "t.csv"
    pl.DataFrame({"raw": ["Paris", "Paris", "Rome"], "truth": ["Paris"] * 3, "label": [1, 0, 0],
                  "err": ["", "timeout", ""]}).write_csv(path)  # fmt: skip

    def flips(*extra: str) -> dict[str, int]:
        out_json = tmp_path / "a.json"
        code, _, stderr = run("audit", str(path), "--label", "label", "--quiet", *extra,
                              "--out-json", str(out_json), "--out-md", str(tmp_path / "a.md"))  # fmt: skip
        assert code == 0, stderr
        report = json.loads(out_json.read_text())
        return {s["name"]: s["flips"] for s in report["schemes"]}

    assert set(flips().values()) == {1}
    assert set(flips("--error", "err").values()) == {0}
    report = json.loads((tmp_path / "a.json").read_text())
    assert "error" in json.dumps(report["rules"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.csv"], "missing.csv"),
        (["{csv}", "--truth", "nope"], "column 'nope' not found"),
        (["{csv}", "--group-by", "nope"], "nope"),
        (["{csv}", "--kind", "essay"], "--kind 'essay'"),
        (["{csv}", "--scheme", "bad"], "--scheme 'bad'"),
        (["{csv}", "--scheme", "x=choice/v99"], "unknown parser 'choice/v99'"),
        (["{csv}", "--kind", "choice", "--scheme", "x=choice/v4:v2"], "free-form parsers only"),
        (["{csv}", "--out-md", "{csv}"], "refusing to write"),
        (["--runs-dir", "{tmp}"], "--runs-dir and --metadata go together"),
        ([], "no input"),
    ],
)
def test_bad_input_is_one_clear_line_and_exit_2(
    tmp_path: Path, args: list[str], message: str
) -> None:
    csv = tmp_path / "t.csv"
    csv.write_text("raw,truth,label\nParis,Paris,1\n", encoding="utf-8")
    before = csv.read_bytes()
    argv = [a.format(csv=csv, tmp=tmp_path) for a in args]
    code, _, stderr = (
        run("audit", *argv, "--quiet", "--out-md", str(tmp_path / "o.md"))
        if "--out-md" not in argv
        else run("audit", *argv, "--quiet")
    )
    assert code == 2
    assert message in stderr
    assert "Traceback" not in stderr
    assert len(stderr.strip().splitlines()) == 1
    assert csv.read_bytes() == before


def test_choice_audit_with_five_options_needs_choices_and_says_so(tmp_path: Path) -> None:
    data = tmp_path / "mc.csv"
    data.write_text(
        "id,raw,truth,parsed,label\n1,Answer: E,e,e,1\n2,Answer: B,b,b,1\n3,Answer: C,e,c,0\n",
        encoding="utf-8",
    )
    common = [str(data), "--kind", "choice", "--parsed", "parsed", "--label", "label",
              "--no-default-schemes", "--scheme", "v4=choice/v4", "--quiet"]  # fmt: skip
    out = tmp_path / "a.json"
    code, _, err = run("audit", *common, "--out-json", str(out))
    assert code == 0, err
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["schemes"][0]["error_pct"] == pytest.approx(200 / 3)  # row 1 cannot be read
    assert any("truth letter(s) e are not among the choices 'abcd' of scheme(s) v4" in n
               and "--choices abcde" in n for n in report["notes"])  # fmt: skip
    code, _, err = run("audit", *common, "--choices", "abcde", "--out-json", str(out))
    assert code == 0, err
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["settings"]["choices"] == "abcde"
    assert report["schemes"][0]["error_pct"] == pytest.approx(100 / 3)
    assert report["schemes"][0]["flips"] == 0
    assert not any("truth letter" in n for n in report["notes"])


def test_choices_apply_to_choice_audits_only(tmp_path: Path) -> None:
    data = tmp_path / "f.csv"
    data.write_text("raw,truth,label\nParis,Paris,1\n", encoding="utf-8")
    code, _, err = run("audit", str(data), "--label", "label", "--choices", "abcde", "--quiet",
                       "--out-md", str(tmp_path / "a.md"))  # fmt: skip
    assert code == 2
    assert "--choices applies to --kind choice audits, not --kind freeform" in err


def test_coverage_counts_a_blank_truth_as_no_truth_everywhere(tmp_path: Path) -> None:
    data = tmp_path / "c.jsonl"
    data.write_text(
        '{"raw": "Paris", "truth": "Paris", "label": 1}\n{"raw": "Paris", "truth": "", "label": 1}\n'
        '{"raw": "Paris", "truth": null, "label": 1}\n{"raw": "Rome", "truth": "Paris", "label": 0}\n',
        encoding="utf-8",
    )
    for command in (["audit", "--label", "label", "--out-md", str(tmp_path / "a.md")],
                    ["rescore", "-p", "freeform/v3"]):  # fmt: skip
        out = tmp_path / f"{command[0]}.json"
        code, _, err = run(command[0], str(data), *command[1:], "--out-json", str(out), "--quiet")
        assert code == 0, err
        coverage = json.loads(out.read_text(encoding="utf-8"))["coverage"]
        no_truth = coverage.get("skipped", coverage).get("no_truth")
        assert (coverage["rows_with_truth"], no_truth) == (2, 2), command[0]


def test_choices_note_and_flag_respect_a_preset_files_own_choices(tmp_path: Path) -> None:
    presets = tmp_path / "p.toml"
    presets.write_text(
        '[preset."choice/upper"]\nfamily = "choice"\nbase = "choice/v3"\nchoices = "ABCDEFG"\n',
        encoding="utf-8",
    )
    data = tmp_path / "mc.csv"
    data.write_text("raw,truth,label\nAnswer: E,e,1\nAnswer: G,g,1\nAnswer: B,b,1\n",
                    encoding="utf-8")  # fmt: skip
    common = [str(data), "--kind", "choice", "--label", "label", "--presets", str(presets),
              "--no-default-schemes", "--scheme", "u=choice/upper", "--scheme", "v4=choice/v4",
              "--quiet"]  # fmt: skip
    out = tmp_path / "a.json"
    code, _, err = run("audit", *common, "--out-json", str(out))
    assert code == 0, err
    report = json.loads(out.read_text(encoding="utf-8"))
    errors = {s["name"]: s["error_pct"] for s in report["schemes"]}
    assert errors["u"] == 0.0  # its own seven choices, uppercase in the file
    # only v4 is noted, and the letters suggested run from a without a gap (g is option 7)
    assert [n for n in report["notes"] if "truth letter" in n] == [
        "truth letter(s) e, g are not among the choices 'abcd' of scheme(s) v4, which can "
        "never extract them; pass --choices abcdefg"
    ]
    code, _, err = run("audit", *common, "--choices", "abcde", "--out-json", str(out))
    assert code == 0, err
    report = json.loads(out.read_text(encoding="utf-8"))
    errors = {s["name"]: s["error_pct"] for s in report["schemes"]}
    assert errors["u"] == 0.0  # --choices sets the default choice set, not a file's own
    assert errors["v4"] == pytest.approx(100 / 3)  # g is still out of abcde


def small_csv(tmp_path: Path) -> Path:
    path = tmp_path / "outputs.csv"
    pl.DataFrame(
        {
            "raw": ["Paris.", "It is Lyon", "4\nUSER: more", "None of them"],
            "truth": ["Paris", "Paris", "4", "None"],
            "parsed": ["Paris", "Lyon", "4", "None of them"],
            "label": [True, False, True, False],
        }
    ).write_csv(path)
    return path


def test_audit_writes_reports_only_where_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    source = small_csv(tmp_path)
    code, stdout, stderr = run("audit", str(source), "--parsed", "parsed", "--label", "label")
    assert code == 0, stderr
    assert "scheme" in stdout  # the summary table, and no file
    assert not (tmp_path / "tmp").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["outputs.csv"]


def test_out_dir_writes_every_report_and_prints_the_paths(tmp_path: Path) -> None:
    source = small_csv(tmp_path)
    folder = tmp_path / "reports"
    code, stdout, stderr = run("audit", str(source), "--parsed", "parsed", "--label", "label",
                               "--out-dir", str(folder), "--out-json", str(tmp_path / "a.json"))  # fmt: skip
    assert code == 0, stderr
    written = {"answer_parsing_audit.md", "answer_parsing_audit.html"}
    assert {p.name for p in folder.iterdir()} == written
    assert (tmp_path / "a.json").is_file()  # an explicit path wins over the folder
    for name in (*sorted(written), "a.json"):
        assert name in stdout


def test_notes_reach_stderr_even_when_quiet(tmp_path: Path) -> None:
    source = small_csv(tmp_path)
    code, stdout, stderr = run("audit", str(source), "--parsed", "parsed", "--label", "label", "-q")
    assert code == 0, stderr
    assert stdout == ""
    # the truth 'None' is text unless --null-values says otherwise: the loader says so
    assert "note:" in stderr and "'None'" in stderr


@pytest.mark.real
def test_forgetting_null_values_on_the_real_csvs_is_said_on_stderr() -> None:
    files = real_csvs()
    flags = ["--raw", "raw_text", "--truth", "ground_truth_text", "--parsed",
             "parsed_answer_text", "--label", "is_correct", "-q"]  # fmt: skip
    code, _stdout, stderr = run("audit", *map(str, files), *flags)
    assert code == 0, stderr
    assert "--null-values" in stderr


@pytest.mark.parametrize("command", ["audit", "rescore", "diff", "explain", "parsers", "demo"])
def test_help_shows_switches_without_a_type_and_options_in_panels(command: str) -> None:
    code, stdout, _ = run(command, "--help")
    assert code == 0
    assert "<bool>" not in stdout
    assert "asch_history_5" not in stdout  # no study's names as defaults
    if command in ("audit", "rescore", "diff"):
        for panel in ("Input", "Columns", "Parsing", "Output"):
            assert f"─ {panel} " in stdout, panel
