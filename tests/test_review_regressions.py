"""Defects found in review: each test failed before its fix."""

import json
import math
import sqlite3
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from answer_audit.analysis.audit import AuditSettings, audit
from answer_audit.analysis.diff import diff_labelings
from answer_audit.analysis.rescore import rescore
from answer_audit.cli import app
from answer_audit.schemes.apply import Scheme, label_value, stored_extraction
from answer_audit.schemes.labels import group_indices
from answer_audit.sources import ColumnMap, SourceError, load_files, parse_label
from paths import REPO

runner = CliRunner()


def _one_line_error(args: list[str], *fragments: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, (result.stdout, result.stderr, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in result.stderr


# ---------------------------------------------------------------- audit: unjudged truths


def test_audit_scheme_leaves_out_rows_its_matcher_cannot_judge() -> None:
    # The numeric matcher has no label for a truth without a number ("Paris"); those rows must
    # not count as scheme errors, and the stored error rate must not depend on the scheme.
    frame = pl.DataFrame(
        {
            "id": ["1", "2", "3", "4"],
            "raw": ["Paris", "Lyon", "It is 12", "It is 13"],
            "parsed": ["Paris", "Lyon", "It is 12", "It is 13"],
            "label": [True, False, True, False],
            "truth": ["Paris", "Paris", "12", "12"],
        }
    )
    schemes = [Scheme("v1", "stored", "v1"), Scheme("num", "freeform/v3", "numeric")]
    result = audit(frame, schemes, AuditSettings(n_boot=10))
    by = {s.name: s.overall for s in result.schemes}
    assert by["v1"].n == 4 and by["v1"].stored_error_pct == pytest.approx(50.0)
    num = by["num"]
    assert num.n == 2  # only the two rows with a numeric truth
    assert num.stored_error_pct == pytest.approx(50.0)
    assert num.error_pct == pytest.approx(50.0)
    assert num.flips == 0
    assert [e for e in result.examples if e.scheme == "num"] == []


# ---------------------------------------------------------------- JSON kind numbers


@pytest.mark.parametrize("text", ["inf", "-inf", "1e400"])
def test_json_kind_infinite_values_do_not_crash(text: str) -> None:
    assert stored_extraction(text, "json").value is None
    assert label_value(2, text, "json", "v1") is False


def test_json_kind_non_integer_truth_is_not_truncated() -> None:
    assert label_value(2, "2.7", "json", "v1") is False
    assert label_value(3, "3.0", "json", "v1") is True
    assert stored_extraction("2.7", "json").value is None
    assert stored_extraction("3.0", "json").value == 3


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


# ---------------------------------------------------------------- SQLite


def test_sqlite_query_with_duplicate_column_names_is_a_user_error(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    with sqlite3.connect(db) as con:
        con.execute("create table t (id, raw, truth, label)")
        con.execute("create table u (id, x)")
        con.execute("insert into t values (1, 'Paris', 'Paris', 1)")
        con.execute("insert into u values (1, 'a')")
    query = "select t.id, t.raw, t.truth, t.label, u.id from t join u on t.id = u.id"
    _one_line_error(
        ["audit", str(db), "--query", query, "--label", "label", "-q",
         "--out-md", str(tmp_path / "a.md")],
        "r.db", "'id'",
    )  # fmt: skip


# ---------------------------------------------------------------- labels


def test_labels_written_as_float_text_read_like_floats() -> None:
    # A pandas float column (1.0/0.0/NaN) written as CSV: the same values as the floats.
    assert parse_label(["1.0", "0.0", "nan", "NaN", " 1.00 "]).to_list() == [
        True, False, None, None, True,
    ]  # fmt: skip
    with pytest.raises(SourceError, match=r"cannot read '0\.5'"):
        parse_label(["0.5"])


def test_jsonl_labels_mixing_ints_and_floats(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    path.write_text('{"raw": "Paris", "truth": "Paris", "ok": 1}\n'
                    '{"raw": "Rome", "truth": "Paris", "ok": 0.0}\n', encoding="utf-8")  # fmt: skip
    table = load_files(path, ColumnMap(raw="raw", truth="truth", label="ok"))
    assert table.frame["label"].to_list() == [True, False]


# ---------------------------------------------------------------- groups


def _choice_rows() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "id": ["1", "2", "3", "4"],
            "raw": ["Answer: a", "Answer: b", "Answer: c", "Answer: d"],
            "parsed": ["a", "b", "c", "d"],
            "label": [True, True, False, True],
            "truth": ["a", "b", "a", "d"],
            "temp": [math.nan, math.nan, math.nan, 0.5],
        }
    )


def test_nan_group_is_one_group_in_rescore_and_diff_as_in_audit() -> None:
    frame = _choice_rows()
    assert [len(idx) for _, idx in group_indices(frame, ["temp"])] == [1, 3]
    r = rescore(frame, "choice/v3", group_by=["temp"], n_boot=10)
    assert [g.comparison.rescored.n for g in r.groups] == [1, 3]
    d = diff_labelings(frame, "choice/v1", "choice/v3", group_by=["temp"])
    assert [g.agreement.n for g in d.groups] == [1, 3]
    a = audit(frame, settings=AuditSettings(kind="choice", group_by=("temp",), n_boot=10))
    assert a.coverage.groups == 2


def test_group_by_a_list_column(tmp_path: Path) -> None:
    path = tmp_path / "l.parquet"
    _choice_rows().with_columns(
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


# ---------------------------------------------------------------- outputs over inputs


def test_audit_refuses_to_write_over_a_run_database(tmp_path: Path) -> None:
    from answer_audit.sources.demo import write_demo_runs

    metadata = write_demo_runs(tmp_path / "runs")
    db = next((tmp_path / "runs").rglob("simulation.db"))
    before = db.read_bytes()
    _one_line_error(
        ["audit", "--runs-dir", str(tmp_path / "runs"), "--metadata", str(metadata), "-q",
         "--out-md", str(db)],
        "one of the inputs",
    )  # fmt: skip
    assert db.read_bytes() == before


# ---------------------------------------------------------------- docs


def test_audit_flag_table_lists_only_audit_flags() -> None:
    import re

    import typer.main

    # The hand-written flag table of the audit guide (docs/cli.md is generated from --help).
    guide = (REPO / "docs" / "commands.md").read_text(encoding="utf-8")
    section = guide.split("### The audit's flags, explained", 1)[1]
    table = section.split("| flag | meaning |", 1)[1].split("\n\n")[0]
    command = typer.main.get_group(app).commands["audit"]
    known = {
        o
        for p in command.params
        for o in [*getattr(p, "opts", []), *getattr(p, "secondary_opts", [])]
    }
    documented = set(re.findall(r"`(--[a-z-]+)", table)) | set(re.findall(r" (--[a-z-]+)", table))
    assert documented - known == set()


def test_choice_truth_with_a_superscript_digit_is_not_an_error(tmp_path: Path) -> None:
    # "²".isdigit() is True but int("²") fails: the truth is simply a class of its own.
    assert label_value("a", "²", "choice", "v1") is False
    path = tmp_path / "s.csv"
    path.write_text("raw,truth,parsed\nAnswer: a,²,a\n", encoding="utf-8")
    result = runner.invoke(app, ["rescore", str(path), "-p", "choice/v3", "--parsed", "parsed"])
    assert result.exit_code == 0, result.stderr


def test_json_reports_are_strict_json_with_a_nan_group(tmp_path: Path) -> None:
    path = tmp_path / "n.parquet"
    _choice_rows().write_parquet(path)
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


def test_audit_markdown_example_heading_escapes_the_id() -> None:
    from answer_audit.report.markdown.audit import render_audit_markdown

    hostile_id = "x\n## Injected <img src=x onerror=alert(1)>"
    frame = pl.DataFrame(
        {"id": [hostile_id], "raw": ["Rome</think>Paris"], "parsed": ["Rome</think>Paris"],
         "label": [False], "truth": ["Paris"]}
    )  # fmt: skip
    md = render_audit_markdown(audit(frame, settings=AuditSettings(n_boot=10)))
    assert "## Injected" not in md.replace("<br>## Injected", "")
    assert "<img" not in md


def test_rescore_markdown_escapes_disagreeing_ids() -> None:
    from answer_audit.report.markdown.rescore import render_rescore_markdown

    frame = pl.DataFrame(
        {"id": ["<img src=x onerror=alert(1)>\n# Injected"], "raw": ["Answer: b"],
         "parsed": ["b"], "label": [False], "truth": ["b"]}
    )  # fmt: skip
    md = render_rescore_markdown(rescore(frame, "choice/v3", n_boot=10))
    assert "disagrees with it on 1 row" in md
    assert "<img" not in md and "\n# Injected" not in md


def test_audit_coverage_does_not_depend_on_the_first_schemes_matcher() -> None:
    # Without a stored parse, "has a truth" came from the first scheme: a numeric one first
    # dropped the "Paris" rows from every scheme and called them rows without truth.
    frame = pl.DataFrame(
        {
            "id": ["1", "2", "3", "4"],
            "raw": ["Paris", "Lyon", "It is 12", "It is 13"],
            "label": [True, False, True, False],
            "truth": ["Paris", "Paris", "12", "12"],
        }
    )
    schemes = [Scheme("num", "freeform/v3", "numeric"), Scheme("v1", "freeform/v2", "v1")]
    result = audit(frame, schemes, AuditSettings(n_boot=10))
    assert result.coverage.scored == 4
    assert result.coverage.skipped.to_dict() == {"no_truth": 0, "no_stored_label": 0}
    assert {s.name: s.overall.n for s in result.schemes} == {"num": 2, "v1": 4}


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".json", ".parquet"])
def test_rescore_rows_with_binary_and_duration_columns(tmp_path: Path, suffix: str) -> None:
    import datetime

    path = tmp_path / "in.parquet"
    pl.DataFrame(
        {"raw": ["Answer: a", "Answer: b"], "truth": ["a", "c"], "blob": [b"\xffx", None],
         "took": [datetime.timedelta(seconds=3), None]}
    ).write_parquet(path)  # fmt: skip
    out = tmp_path / f"rows{suffix}"
    result = runner.invoke(app, ["rescore", str(path), "-p", "choice/v3", "-q", "--out", str(out)])
    assert result.exit_code == 0, (result.stderr, result.exception)
    assert out.stat().st_size > 0


@pytest.mark.parametrize("name", ["n", "b", "c", "both"])
def test_audit_group_column_named_like_a_count(name: str) -> None:
    frame = _choice_rows().with_columns(pl.Series(name, ["x", "x", "y", "y"]))
    result = audit(frame, settings=AuditSettings(kind="choice", group_by=(name,), n_boot=10))
    v3 = result.cells_of("choice/v3")
    assert sorted((str(c.group[name]), c.stats.n) for c in v3) == [("x", 2), ("y", 2)]


def test_audit_refuses_two_reports_at_one_path(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("raw,truth,ok\nParis,Paris,1\n", encoding="utf-8")
    report = str(tmp_path / "report")
    _one_line_error(
        ["audit", str(path), "--label", "ok", "-q", "--out-md", report, "--out-json", report],
        "same file",
    )


@pytest.mark.parametrize("name", ["deep.json", "deep.jsonl"])
def test_deeply_nested_json_is_a_user_error(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    nested = "[" * 100_000 + "]" * 100_000
    path.write_text(nested if name.endswith(".json") else '{"raw": ' + nested + "}\n")
    _one_line_error(
        ["audit", str(path), "-q", "--out-md", str(tmp_path / "a.md")], name, "nested too deeply"
    )


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


def test_audit_with_no_scored_row_is_a_user_error(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("raw,truth,label\nParis,Paris,\nRome,Paris,\n", encoding="utf-8")
    _one_line_error(
        ["audit", str(path), "--label", "label", "-q", "--out-md", str(tmp_path / "a.md")],
        "no row has both a truth and a stored label",
        "2 without a stored label",
    )
    assert not (tmp_path / "a.md").exists()


def test_a_found_none_is_not_confused_with_nothing_found() -> None:
    from answer_audit.analysis.incidence import confusion

    found = confusion(["none", None, "a"], ["none", "none", None])
    assert found.labels == ('"none"', "a", "none")
    assert found.matrix == ((1, 0, 0), (0, 0, 1), (1, 0, 0))


def test_column_from_values_encodes_nested_and_bytes_cells_only() -> None:
    from collections import OrderedDict

    from answer_audit.sources.columns import column_from_values

    assert column_from_values("x", [OrderedDict(a=1), None]).to_list() == ['{"a": 1}', None]
    assert column_from_values("x", [b"caf\xc3\xa9", "x"]).to_list() == ["café", "x"]
    assert column_from_values("x", [1, 2, None]).dtype == pl.Int64
    assert column_from_values("x", [1, "a"]).to_list() == ["1", "a"]


# ------------------------------------------- one definition of an error row and of blank


def test_audit_rescore_and_diff_mask_the_same_error_rows() -> None:
    # "\x1c" is whitespace to Python's str.strip (the row rules) but not to Polars' default
    # strip: the audit (Polars) marked such an error cell as an error, rescore (Python) did not.
    frame = pl.DataFrame(
        {"id": ["1", "2", "3", "4"], "raw": ["Paris", "Paris", "Rome", "\x1c\x1d "],
         "truth": ["Paris"] * 4, "label": [True, True, False, False],
         "error": ["\x1c", "timeout", None, None], "parsed": ["Paris", "Paris", "Rome", ""]}
    )  # fmt: skip
    report = audit(frame, [Scheme("p", "freeform/v2", "v2")], AuditSettings(n_boot=10))
    audit_rules = report.rules["p"].overall
    assert audit_rules.get("error") == 1  # row 2 only
    from answer_audit.parsers import get_parser
    from answer_audit.schemes.labels import parser_labels, stored_labels

    labels = parser_labels(frame, get_parser("freeform/v2"))
    assert labels.rules[:2] == ["whole-text", "error"]
    assert labels.rules[3] == "no-output"  # blank to Python: no output, not an answer
    assert labels.correct == [True, False, False, False]
    assert stored_labels(frame, "freeform").rules[:2] == ["stored", "error"]
    assert diff_labelings(frame, "stored", "freeform/v2").rule_pairs == ()  # same rows masked
