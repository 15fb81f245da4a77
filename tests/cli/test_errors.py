"""Every bad input: one clear stderr line, exit code 2, no traceback (unless --debug)."""

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from answer_audit.cli import app

runner = CliRunner()


def audit(tmp_path: Path, *args: str) -> tuple[int, str, Path]:
    out_md = tmp_path / "report.md"
    result = runner.invoke(app, ["audit", *args, "--quiet", "--out-md", str(out_md)])
    return result.exit_code, result.stderr, out_md


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def assert_one_line_error(code: int, stderr: str, *fragments: str) -> None:
    assert code == 2, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr
    assert "Traceback" not in stderr
    for fragment in fragments:
        assert fragment in stderr


def one_line_error(args: list[str], *fragments: str) -> None:
    """Run the CLI with ``args``; it must fail with one ``error:`` line holding ``fragments``."""
    result = runner.invoke(app, args)
    assert result.exit_code == 2, (result.stdout, result.stderr, result.exception)
    assert_one_line_error(result.exit_code, result.stderr, *fragments)


def test_missing_file(tmp_path: Path) -> None:
    code, stderr, _ = audit(tmp_path, str(tmp_path / "absent.csv"), "--label", "l")
    assert_one_line_error(code, stderr, "absent.csv", "not found")


def test_not_a_database(tmp_path: Path) -> None:
    db = write(tmp_path / "x.db", b"this is not sqlite at all")
    code, stderr, _ = audit(tmp_path, str(db), "--label", "l")
    assert_one_line_error(code, stderr, "x.db", "not a SQLite database")


def test_missing_table_lists_tables(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    with sqlite3.connect(db) as con:
        con.execute("create table results (raw text, truth text, l int)")
        con.execute("create table other (x int)")
    code, stderr, _ = audit(tmp_path, str(db), "--table", "nope", "--label", "l")
    assert_one_line_error(code, stderr, "nope", "other", "results")


def test_missing_column_lists_columns(tmp_path: Path) -> None:
    csv = write(tmp_path / "t.csv", b"output,answer,ok\nParis,Paris,1\n")
    code, stderr, _ = audit(
        tmp_path, str(csv), "--raw", "output", "--truth", "gold", "--label", "ok"
    )
    assert_one_line_error(code, stderr, "'gold'", "output", "answer", "ok")


def test_malformed_jsonl_names_file_and_line(tmp_path: Path) -> None:
    jl = write(tmp_path / "r.jsonl", b'{"raw": "a", "truth": "a", "l": 1}\n{oops\n')
    code, stderr, _ = audit(tmp_path, str(jl), "--label", "l")
    assert_one_line_error(code, stderr, "r.jsonl:2", "--skip-bad-lines")


def test_skip_bad_lines_is_counted_in_the_report(tmp_path: Path) -> None:
    jl = write(
        tmp_path / "r.jsonl",
        b'{"raw": "a", "truth": "a", "l": 1}\n{oops\n{"raw": "b", "truth": "a", "l": 0}\n',
    )
    code, stderr, md = audit(tmp_path, str(jl), "--label", "l", "--skip-bad-lines")
    assert code == 0, stderr
    assert "| bad lines skipped | 1 |" in md.read_text()


def test_empty_input(tmp_path: Path) -> None:
    csv = write(tmp_path / "t.csv", b"raw,truth,l\n")
    code, stderr, _ = audit(tmp_path, str(csv), "--label", "l")
    assert_one_line_error(code, stderr, "t.csv", "no rows")


def test_truth_column_all_null(tmp_path: Path) -> None:
    csv = write(tmp_path / "t.csv", b"raw,truth,l\nParis,None,1\nRome,None,0\n")
    code, stderr, _ = audit(tmp_path, str(csv), "--label", "l", "--null-values", "None")
    assert_one_line_error(code, stderr, "truth column 'truth' has no values")


def test_non_utf8_bytes_are_replaced_and_counted(tmp_path: Path) -> None:
    csv = write(tmp_path / "t.csv", b"raw,truth,l\n\xff\xfeParis,Paris,1\nRome,Paris,0\n")
    code, stderr, md = audit(tmp_path, str(csv), "--label", "l")
    assert code == 0, stderr
    text = md.read_text()
    assert "| decode replacements | 2 |" in text
    assert "replaced 2 invalid UTF-8 byte sequence(s)" in text


def test_missing_stored_label_and_parse_explains_the_flags(tmp_path: Path) -> None:
    csv = write(tmp_path / "t.csv", b"raw,truth\nParis,Paris\n")
    code, stderr, _ = audit(tmp_path, str(csv))
    assert_one_line_error(code, stderr, "--label COLUMN", "--parsed COLUMN", "answer-audit rescore")


def test_debug_shows_the_traceback(tmp_path: Path) -> None:
    result = runner.invoke(app, ["--debug", "audit", str(tmp_path / "absent.csv"), "--quiet"])
    assert result.exit_code != 0
    assert result.exception is not None  # re-raised for the traceback


@pytest.mark.parametrize("flag", ["--out-md", "--out-json", "--out-html"])
def test_never_writes_over_an_input(tmp_path: Path, flag: str) -> None:
    csv = write(tmp_path / "t.csv", b"raw,truth,l\nParis,Paris,1\n")
    before = csv.read_bytes()
    result = runner.invoke(app, ["audit", str(csv), "--label", "l", "--quiet", flag, str(csv)])
    assert_one_line_error(result.exit_code, result.stderr, "refusing to write")
    assert csv.read_bytes() == before


@pytest.mark.parametrize("suffix", ["-wal", "-shm", "-journal"])
def test_never_writes_over_an_input_databases_log(tmp_path: Path, suffix: str) -> None:
    # A WAL database whose rows live only in its -wal file: a report written there lost them.
    db = tmp_path / "w.db"
    writer = sqlite3.connect(db, isolation_level=None)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("CREATE TABLE t (raw TEXT, truth TEXT, l INT)")
    writer.execute("INSERT INTO t VALUES ('Paris', 'Paris', 1)")
    try:
        before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
        target = tmp_path / f"w.db{suffix}"
        result = runner.invoke(
            app, ["audit", str(db), "--table", "t", "--label", "l", "-q", "--out-md", str(target)]
        )
        assert_one_line_error(
            result.exit_code, result.stderr, "refusing to write", f"{suffix[1:]} file"
        )
        assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    finally:
        writer.close()


def test_never_writes_over_the_log_of_a_symlinked_database(tmp_path: Path) -> None:
    # SQLite keeps the log beside the file the link points to
    real = tmp_path / "real"
    real.mkdir()
    db = real / "r.db"
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE t (raw TEXT, truth TEXT, l INT)")
        con.execute("INSERT INTO t VALUES ('Paris', 'Paris', 1)")
    link = tmp_path / "link.db"
    link.symlink_to(db)
    result = runner.invoke(app, ["audit", str(link), "--table", "t", "--label", "l", "-q",
                                 "--out-json", str(real / "r.db-wal")])  # fmt: skip
    assert_one_line_error(result.exit_code, result.stderr, "refusing to write", "wal file")
    assert not (real / "r.db-wal").exists()


def test_repeated_csv_header_names_the_column_and_positions(tmp_path: Path) -> None:
    # Polars would read the second one as "raw_duplicated_0" and the run would go on silently
    csv = write(tmp_path / "d.csv", b'raw,truth,"raw"\nParis,Paris,x\n')
    code, stderr, _ = audit(tmp_path, str(csv), "--label", "l")
    assert_one_line_error(code, stderr, "d.csv", "'raw' appears 2 times", "columns 1, 3")


@pytest.mark.parametrize(
    ("encoding", "said"),
    [("utf-16", "UTF-16"), ("utf-16-le", "iconv -f UTF-16 "), ("utf-32", "UTF-32"),
     ("utf-32-le", "iconv -f UTF-32 ")],  # without a BOM: told by its NUL bytes
)  # fmt: skip
def test_wide_unicode_files_are_named_not_garbled(tmp_path: Path, encoding: str, said: str) -> None:
    path = write(
        tmp_path / "w.jsonl", '{"raw": "Paris", "truth": "Paris", "l": 1}\n'.encode(encoding)
    )
    code, stderr, _ = audit(tmp_path, str(path), "--label", "l")
    assert_one_line_error(code, stderr, "w.jsonl", said, "not UTF-8", "iconv")


@pytest.mark.parametrize(
    ("flag", "value"),
    [("--seed", "-1"), ("--bootstrap", "1"), ("--max-rows", "-1"), ("--max-examples", "-2")],
)
def test_out_of_range_numbers_are_rejected_with_the_option_name(
    tmp_path: Path, flag: str, value: str
) -> None:
    csv = write(tmp_path / "t.csv", b"raw,truth,l\nParis,Paris,1\n")
    code, stderr, out = audit(tmp_path, str(csv), "--label", "l", flag, value)
    assert_one_line_error(code, stderr, f"Invalid value for '{flag}'", "audit --help")
    assert not out.exists()


def test_unknown_options_and_commands_are_one_line_errors(tmp_path: Path) -> None:
    code, stderr, _ = audit(tmp_path, "x.csv", "--lable", "l")
    assert_one_line_error(code, stderr, "No such option: --lable", "--label")
    result = runner.invoke(app, ["audti"])
    assert_one_line_error(result.exit_code, result.stderr, "No such command 'audti'")


_CSV = b"raw,truth,l\nParis,Paris,1\nRome,Paris,0\n"


@pytest.mark.parametrize("command", ["audit", "rescore", "diff"])
def test_never_writes_over_the_preset_file(tmp_path: Path, command: str) -> None:
    csv = write(tmp_path / "t.csv", _CSV)
    presets = write(tmp_path / "mine.toml", b'[preset."freeform/x"]\nfamily = "freeform"\n'
                    b'markers = ["q:"]\n')  # fmt: skip
    before = presets.read_bytes()
    per_command = {
        "audit": ["--label", "l"],
        "rescore": ["-p", "freeform/x", "--label", "l"],
        "diff": ["--a", "freeform/x", "--b", "freeform/v2"],
    }
    result = runner.invoke(
        app,
        [command, str(csv), *per_command[command], "--presets", str(presets), "--quiet",
         "--out-md", str(presets)],
    )  # fmt: skip
    assert_one_line_error(result.exit_code, result.stderr, "refusing to write", "mine.toml")
    assert presets.read_bytes() == before


def test_a_device_is_never_replaced(tmp_path: Path) -> None:
    import os
    import stat

    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)  # a special file like /dev/null: renaming over it would replace it
    csv = write(tmp_path / "t.csv", _CSV)
    code, stderr, _ = audit(tmp_path, str(csv), "--label", "l", "--out-json", str(fifo))
    assert_one_line_error(code, stderr, "is a device or a pipe")
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_a_symlinked_output_writes_its_target(tmp_path: Path) -> None:
    csv = write(tmp_path / "t.csv", _CSV)
    target, link = tmp_path / "real.json", tmp_path / "link.json"
    link.symlink_to(target)
    code, stderr, _ = audit(tmp_path, str(csv), "--label", "l", "--out-json", str(link))
    assert code == 0, stderr
    assert link.is_symlink() and target.read_text().startswith("{")


@pytest.mark.parametrize(
    ("make", "fragment"),
    [
        (lambda d: (d / "loop.md").symlink_to(d / "loop.md") or d / "loop.md", "a symlink loop"),
        (lambda d: write(d / "f", b"x") / "x.md", "is not a folder"),
        (lambda d: d / ("a" * 300 + ".md"), "too long"),
    ],
)
def test_unwritable_outputs_fail_before_any_work(
    tmp_path: Path, make: Callable[[Path], Path], fragment: str
) -> None:
    csv = write(tmp_path / "t.csv", _CSV)
    out = make(tmp_path)
    ok = tmp_path / "ok.md"
    code, stderr, _ = audit(tmp_path, str(csv), "--label", "l", "--out-json", str(out),
                            "--out-html", str(ok))  # fmt: skip
    assert_one_line_error(code, stderr, fragment)
    assert not ok.exists()  # nothing written when one output cannot be


def _results_db(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (raw TEXT, truth TEXT, l INTEGER)")
    conn.executemany("INSERT INTO t VALUES (?, ?, ?)", [("Paris", "Paris", 1)] * 3)
    conn.commit()
    return conn


@pytest.mark.parametrize(
    ("query", "said"),
    [("VACUUM INTO '{dir}/dump.db'", "not VACUUM"),
     ("/* x */ ATTACH DATABASE '{dir}/evil.db' AS e", "not ATTACH")],
)  # fmt: skip
def test_a_query_that_would_write_files_is_refused(tmp_path: Path, query: str, said: str) -> None:
    db = tmp_path / "r.db"
    _results_db(db).close()
    out = tmp_path / "out"
    out.mkdir()
    code, stderr, _ = audit(tmp_path, str(db), "--label", "l",
                            "--query", query.format(dir=out))  # fmt: skip
    assert_one_line_error(code, stderr, "--query must be a SELECT", said)
    assert list(out.iterdir()) == []


def test_a_symlinked_wal_database_is_read_with_its_wal(tmp_path: Path) -> None:
    db = tmp_path / "wal.db"
    writer = _results_db(db)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.executemany("INSERT INTO t VALUES (?, ?, ?)", [("Rome", "Paris", 0)] * 3)
    writer.commit()  # these rows are only in wal.db-wal while the writer is open
    (tmp_path / "links").mkdir()
    link = tmp_path / "links" / "wal.db"
    link.symlink_to(db)
    try:
        results = []
        for path in (db, link):
            out = tmp_path / f"{path.parent.name}.json"
            result = runner.invoke(app, ["audit", str(path), "--label", "l", "--quiet",
                                         "--out-json", str(out)])  # fmt: skip
            assert result.exit_code == 0, result.stderr
            results.append(json.loads(out.read_text())["coverage"]["rows"])
    finally:
        writer.close()
    assert results == [6, 6]


@pytest.mark.parametrize("args", [["--raw", "source"], ["--group-by", "source"]])
def test_a_files_own_source_column_is_not_silently_the_file_name(
    tmp_path: Path, args: list[str]
) -> None:
    csv = write(tmp_path / "s.csv", b"source,raw,truth,l\nweb,Paris,Paris,1\nbook,Rome,Paris,0\n")
    code, stderr, _ = audit(tmp_path, str(csv), "--label", "l", *args)
    assert_one_line_error(code, stderr, "its own 'source' column", f"{args[0]} source")
    code, stderr, _ = audit(tmp_path, str(csv), "--label", "l")  # not mapped: read as before
    assert code == 0, stderr


def test_demo_never_overwrites_reports_it_did_not_write(tmp_path: Path) -> None:
    mine = write(tmp_path / "answer_parsing_audit.md", b"keep")
    result = runner.invoke(app, ["demo", "--out", str(tmp_path), "--quiet"])
    assert_one_line_error(result.exit_code, result.stderr, "did not write there")
    assert mine.read_bytes() == b"keep"
    result = runner.invoke(app, ["demo", "--out", str(mine), "--quiet"])
    assert_one_line_error(result.exit_code, result.stderr, "is not a folder")
    again = tmp_path / "demo"
    for _ in range(2):  # an earlier demo is replaced
        assert runner.invoke(app, ["demo", "--out", str(again), "--quiet"]).exit_code == 0


def test_demo_never_deletes_files_put_into_an_earlier_demos_runs(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    assert runner.invoke(app, ["demo", "--out", str(tmp_path), "--quiet"]).exit_code == 0
    notes = write(runs / "run_t0.0" / "notes.txt", b"mine")
    (runs / "myrun").mkdir()
    result = runner.invoke(app, ["demo", "--out", str(tmp_path), "--quiet"])
    assert_one_line_error(result.exit_code, result.stderr, "did not write", "myrun", "1 more")
    assert notes.read_bytes() == b"mine" and (runs / "myrun").is_dir()
    assert (
        sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []
    )  # no leftovers
    notes.unlink()
    (runs / "myrun").rmdir()
    assert runner.invoke(app, ["demo", "--out", str(tmp_path), "--quiet"]).exit_code == 0


def test_bootstrap_is_bounded(tmp_path: Path) -> None:
    csv = write(tmp_path / "t.csv", _CSV)
    code, stderr, _ = audit(tmp_path, str(csv), "--label", "l", "--bootstrap", "999999999999")
    assert_one_line_error(code, stderr, "--bootstrap", "100000")


@pytest.mark.parametrize("second", ["0.3", "nan"])
def test_a_run_folder_listed_twice_or_an_odd_temperature_is_refused(
    tmp_path: Path, second: str
) -> None:
    from answer_audit.sources.demo import write_demo_runs

    metadata = write_demo_runs(tmp_path / "runs", 0)
    document = json.loads(metadata.read_text())
    first = next(iter(document["experiments"].values()))
    document["experiments"] = {"0.0": first, second: dict(first)}
    metadata.write_text(json.dumps(document))
    result = runner.invoke(app, ["audit", "--runs-dir", str(tmp_path / "runs"), "--metadata",
                                 str(metadata), "--quiet"])  # fmt: skip
    said = "is listed under temperatures 0.0 and 0.3" if second == "0.3" else "finite temperature"
    assert_one_line_error(result.exit_code, result.stderr, said)


@pytest.mark.parametrize("suffix", [".jsonl", ".json"])
def test_lone_surrogates_in_json_are_replaced_and_counted(tmp_path: Path, suffix: str) -> None:
    # half of an escaped surrogate pair (a log that cut an emoji) cannot be stored as UTF-8
    rows = [b'{"raw": "a\\ud800b", "truth": "a", "l": 1}',
            b'{"raw": "x \\ud83d\\ude00", "truth": "x", "l": 1}']  # fmt: skip
    data = b"\n".join(rows) if suffix == ".jsonl" else b"[" + b",".join(rows) + b"]"
    path = write(tmp_path / f"s{suffix}", data)
    out = tmp_path / "r.json"
    result = runner.invoke(app, ["audit", str(path), "--label", "l", "--quiet",
                                 "--out-json", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    files = json.loads(out.read_text())["coverage"]["files"]
    assert files[0]["decode_replacements"] == 1  # the whole pair is an emoji, kept


@pytest.mark.parametrize("command", ["explain", "rescore", "diff"])
@pytest.mark.parametrize("choices", ["", "1234", "a-e", "a;b"])
def test_choices_other_than_letters_are_refused(command: str, choices: str) -> None:
    # "a-e" used to read as the two letters a and e, silently
    args = {"explain": ["explain", "-p", "choice/v4", "Answer: b"],
            "rescore": ["rescore", "x.csv", "-p", "choice/v4"],
            "diff": ["diff", "a.csv", "b.csv"]}[command]  # fmt: skip
    result = runner.invoke(app, [*args, "--choices", choices])
    assert_one_line_error(result.exit_code, result.stderr, "list every choice letter")


def test_choices_may_be_separated_and_uppercase() -> None:
    result = runner.invoke(app, ["explain", "-p", "choice/v3", "--choices", "A, B, C, D, E",
                                 "Answer: E"])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert "'e'" in result.stdout


def test_a_hot_journal_is_rolled_back_in_a_copy(tmp_path: Path) -> None:
    # a writer stopped mid-transaction leaves a "hot" journal: reading needs a rollback
    import shutil

    conn = _results_db(tmp_path / "w.db")
    conn.isolation_level = None
    conn.execute("PRAGMA cache_size=1")  # the transaction's pages spill into the file
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO t VALUES (?, ?, ?)", [("x" * 500, "Paris", 0)] * 2000)
    (tmp_path / "hot").mkdir()
    for name in ("w.db-journal", "w.db"):
        shutil.copyfile(tmp_path / name, tmp_path / "hot" / name)
    conn.execute("ROLLBACK")
    conn.close()
    files = sorted((tmp_path / "hot").iterdir())
    before = [p.read_bytes() for p in files]
    out = tmp_path / "r.json"
    result = runner.invoke(app, ["audit", str(tmp_path / "hot" / "w.db"), "--label", "l",
                                 "--quiet", "--out-json", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert json.loads(out.read_text())["coverage"]["rows"] == 3  # the committed rows
    assert sorted((tmp_path / "hot").iterdir()) == files
    assert [p.read_bytes() for p in files] == before


@pytest.mark.parametrize(
    ("data", "fragment"),
    [(b"raw,truth,l\nParis,Paris,1\nRome, Italy,Paris,0\n", "line 3 has 4 fields, the header 3"),
     (None, "is a folder")],
)  # fmt: skip
def test_csv_faults_say_where(tmp_path: Path, data: bytes | None, fragment: str) -> None:
    if data is None:
        path = tmp_path / "folder"
        path.mkdir()
    else:
        path = write(tmp_path / "r.csv", data)
    code, stderr, _ = audit(tmp_path, str(path), "--label", "l")
    assert_one_line_error(code, stderr, fragment)


def test_old_mac_line_endings_are_read(tmp_path: Path) -> None:
    csv = write(tmp_path / "cr.csv", b"raw,truth,l\rParis,Paris,1\rRome,Paris,0\r")
    out = tmp_path / "r.json"
    result = runner.invoke(app, ["audit", str(csv), "--label", "l", "--quiet",
                                 "--out-json", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert json.loads(out.read_text())["coverage"]["rows"] == 2


def test_explain_shows_a_long_text_around_its_span() -> None:
    text = "word " * 20_000 + "Answer: B"  # printing 100 KB whole is slow and unreadable
    result = runner.invoke(app, ["explain", "-p", "choice/v4", text])
    assert result.exit_code == 0, result.stderr
    assert "Answer: B" in result.stdout and len(result.stdout) < 10_000
    whole = runner.invoke(app, ["explain", "-p", "choice/v4", "--context", "0", text])
    assert len(whole.stdout) > 100_000  # asked for: the whole text


def test_separator_reaches_every_reading_command(tmp_path: Path) -> None:
    data = write(tmp_path / "p.csv", b"raw|truth|label\nParis.|Paris|1\nRome|Paris|0\n")
    out = tmp_path / "r.json"
    for command in (["audit", "--label", "label"], ["rescore", "--parser", "freeform/v3"],
                    ["diff", "-a", "freeform/v1", "-b", "freeform/v3"]):  # fmt: skip
        result = runner.invoke(
            app, [*command, str(data), "--separator", "|", "--quiet", "--out-json", str(out)]
        )
        assert result.exit_code == 0, result.stderr
        report = json.loads(out.read_text(encoding="utf-8"))
        assert (report["n"] if "n" in report else report["coverage"]["rows"]) == 2, command


def test_a_wrong_separator_is_one_line_that_names_the_option(tmp_path: Path) -> None:
    data = write(tmp_path / "p.csv", b"raw|truth|label\nParis.|Paris|1\n")
    code, stderr, _ = audit(tmp_path, str(data), "--label", "label")
    assert_one_line_error(code, stderr, "column 'raw' not found",
                          "the header was read as one column: pass the file's --separator")  # fmt: skip
    # a tab file whose long row made the sniffing fall back to commas: one column again
    tabs = write(tmp_path / "t.csv", b"raw\ttruth\tlabel\nx\ty\t1\nx\ty\t1\t2\n")
    code, stderr, _ = audit(tmp_path, str(tabs), "--label", "label")
    assert_one_line_error(code, stderr, "pass the file's --separator")
    # a header split right does not get the hint
    split = write(tmp_path / "s.csv", b"id,raw-output,truth,label\n1,x,y,1\n")
    code, stderr, _ = audit(tmp_path, str(split), "--label", "label")
    assert_one_line_error(code, stderr, "column 'raw' not found")
    assert "--separator" not in stderr
    code, stderr, _ = audit(tmp_path, str(data), "--label", "label", "--separator", "||")
    assert_one_line_error(code, stderr, "--separator must be one ASCII character")
    code, stderr, _ = audit(tmp_path, str(write(tmp_path / "p.jsonl", b'{"raw": "x"}\n')),
                            "--separator", "|")  # fmt: skip
    assert_one_line_error(code, stderr, "--separator applies to CSV files only")


@pytest.mark.parametrize(
    ("option", "flag"),
    [(["--separator", "|"], "--separator"), (["--skip-bad-lines"], "--skip-bad-lines"),
     (["--table", "outputs"], "--table"), (["--format", "csv"], "--format")],
)  # fmt: skip
def test_a_file_option_with_run_folders_is_refused(
    tmp_path: Path, option: list[str], flag: str
) -> None:
    from answer_audit.sources.demo import write_demo_runs

    metadata = write_demo_runs(tmp_path / "runs", 0)
    code, stderr, _ = audit(
        tmp_path, "--runs-dir", str(tmp_path / "runs"), "--metadata", str(metadata), *option
    )
    assert_one_line_error(code, stderr, f"{flag} applies to input files, not to --runs-dir")


def test_files_and_run_folders_together_say_so_before_any_file_option(tmp_path: Path) -> None:
    from answer_audit.sources.demo import write_demo_runs

    metadata = write_demo_runs(tmp_path / "runs", 0)
    data = write(tmp_path / "p.csv", b"raw|truth\nx|y\n")
    code, stderr, _ = audit(tmp_path, str(data), "--runs-dir", str(tmp_path / "runs"),
                            "--metadata", str(metadata), "--separator", "|")  # fmt: skip
    assert_one_line_error(code, stderr, "give either input files or --runs-dir/--metadata")


# ------------------------------------------------------------ bad inputs and outputs of every kind


def test_sqlite_query_with_duplicate_column_names_is_a_user_error(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    with sqlite3.connect(db) as con:
        con.execute("create table t (id, raw, truth, label)")
        con.execute("create table u (id, x)")
        con.execute("insert into t values (1, 'Paris', 'Paris', 1)")
        con.execute("insert into u values (1, 'a')")
    query = "select t.id, t.raw, t.truth, t.label, u.id from t join u on t.id = u.id"
    one_line_error(
        ["audit", str(db), "--query", query, "--label", "label", "-q",
         "--out-md", str(tmp_path / "a.md")],
        "r.db", "'id'",
    )  # fmt: skip


def test_audit_refuses_to_write_over_a_run_database(tmp_path: Path) -> None:
    from answer_audit.sources.demo import write_demo_runs

    metadata = write_demo_runs(tmp_path / "runs")
    db = next((tmp_path / "runs").rglob("simulation.db"))
    before = db.read_bytes()
    one_line_error(
        ["audit", "--runs-dir", str(tmp_path / "runs"), "--metadata", str(metadata), "-q",
         "--out-md", str(db)],
        "one of the inputs",
    )  # fmt: skip
    assert db.read_bytes() == before


def test_audit_refuses_two_reports_at_one_path(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("raw,truth,ok\nParis,Paris,1\n", encoding="utf-8")
    report = str(tmp_path / "report")
    one_line_error(
        ["audit", str(path), "--label", "ok", "-q", "--out-md", report, "--out-json", report],
        "same file",
    )


@pytest.mark.parametrize("name", ["deep.json", "deep.jsonl"])
def test_deeply_nested_json_is_a_user_error(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    nested = "[" * 100_000 + "]" * 100_000
    path.write_text(nested if name.endswith(".json") else '{"raw": ' + nested + "}\n")
    one_line_error(
        ["audit", str(path), "-q", "--out-md", str(tmp_path / "a.md")], name, "nested too deeply"
    )


def test_audit_with_no_scored_row_is_a_user_error(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("raw,truth,label\nParis,Paris,\nRome,Paris,\n", encoding="utf-8")
    one_line_error(
        ["audit", str(path), "--label", "label", "-q", "--out-md", str(tmp_path / "a.md")],
        "no row has both a truth and a stored label",
        "2 without a stored label",
    )
    assert not (tmp_path / "a.md").exists()


# ---------------------------------------------------- a missing column names the flag that set it


@pytest.mark.parametrize(
    ("flags", "start"),
    [
        ([], "--raw: column 'raw' not found"),  # the default names it too
        (["--raw", "out", "--truth", "gt"], "--truth: column 'gt' not found"),
        (["--raw", "out", "--parsed", "p"], "--parsed: column 'p' not found"),
        (["--raw", "out", "--label", "ok?"], "--label: column 'ok?' not found"),
        (["--raw", "out", "--id", "n"], "--id: column 'n' not found"),
        (["--raw", "out", "--error", "e"], "--error: column 'e' not found"),
        (["--raw", "out", "--choices-col", "o"], "--choices-col: column 'o' not found"),
        (["--raw", "out", "--group-by", "modl"], "--group-by: column 'modl' not found"),
        (["--raw", "out", "--compare", "modl"], "--compare: column 'modl' not found"),
        (["--raw", "out", "--compare", "model", "--item", "qq"], "--item: column 'qq' not found"),
        (
            ["--raw", "out", "--group-by", "modl", "--compare", "modl"],
            "--group-by: column 'modl' not found",
        ),
    ],
)
def test_a_missing_column_names_its_flag(tmp_path: Path, flags: list[str], start: str) -> None:
    path = tmp_path / "runs.csv"
    path.write_text("out,truth,label,model\nParis,Paris,1,a\n", encoding="utf-8")
    code, stderr, _ = audit(tmp_path, str(path), *flags)
    assert_one_line_error(code, stderr, "available: out, truth, label, model, source")
    assert stderr.startswith(f"error: {start} in {path}")


def test_rescore_and_diff_name_the_flag_too(tmp_path: Path) -> None:
    path = tmp_path / "runs.csv"
    path.write_text("out,truth\nB,b\n", encoding="utf-8")
    one_line_error(["rescore", str(path), "-p", "choice/v4", "--raw", "out", "--truth", "gold"],
                   "error: --truth: column 'gold' not found")  # fmt: skip
    one_line_error(["diff", str(path), "--raw", "output", "--a", "choice/v1", "--b", "choice/v4"],
                   "error: --raw: column 'output' not found")  # fmt: skip


def test_every_column_flag_is_a_real_option() -> None:
    import pickle

    from answer_audit.cli.errors import COLUMN_FLAGS
    from answer_audit.table.canonical import CANONICAL
    from answer_audit.table.errors import MissingColumn

    shown = " ".join(runner.invoke(app, ["audit", "--help"], terminal_width=200).stdout.split())
    assert set(COLUMN_FLAGS) == {*CANONICAL, "group_by"}
    for flag in COLUMN_FLAGS.values():
        assert f"{flag} " in shown, flag
    copy = pickle.loads(pickle.dumps(MissingColumn("column 'x' not found", "x", "truth")))
    assert (str(copy), copy.column, copy.role) == ("column 'x' not found", "x", "truth")
