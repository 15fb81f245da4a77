"""Files whose content is plainly another format than their name says: one message that names
what the file looks like and how to read it (rename, or --format), exit code 2, no traceback."""

from __future__ import annotations

import gzip
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from answer_audit.cli import app
from answer_audit.sources import SourceError, read_table
from answer_audit.sources.files import detect_format
from answer_audit.sources.sniff import HEAD_BYTES, is_eval_log, misnamed

RECORDS = [{"raw": "Answer: A", "truth": "A", "label": True},
           {"raw": "B", "truth": "C", "label": False}]  # fmt: skip
runner = CliRunner()


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def fake_eval_log(path: Path) -> Path:
    """A zip archive laid out like an inspect_ai .eval log (what `is_eval_log` looks for)."""
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("_journal/start.json", "{}")
        archive.writestr("header.json", "{}")
    return path


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("runs.csv", json.dumps(RECORDS), "looks like JSON (an array of records), not CSV; "
         "rename it to runs.json or pass --format json"),
        ("runs.csv", json.dumps(RECORDS, indent=2), "looks like JSON (an array of records)"),
        ("runs.csv", "\n".join(map(json.dumps, RECORDS)), "looks like JSON Lines (one JSON "
         "object per line), not CSV; rename it to runs.jsonl or pass --format jsonl"),
        ("runs.csv", json.dumps({"results": RECORDS}, indent=2), "looks like one JSON document, "
         "not CSV; rename it to runs.json or pass --format json (and --records KEY"),
        ("runs.jsonl", json.dumps({"results": RECORDS}, indent=2), "looks like one JSON document "
         "over several lines, not JSON Lines (one record per line); rename it to runs.json or "
         "pass --format json (and --records KEY for the key of its list)"),
        ("runs.jsonl", '{"results": [\n' + json.dumps(RECORDS[0]) + "\n]}\n", "one JSON document"),
        ("runs.jsonl", json.dumps(RECORDS, indent=1), "looks like one JSON array, not JSON Lines"),
        ("runs.jsonl", json.dumps(RECORDS), "looks like one JSON array, not JSON Lines"),
    ],
)  # fmt: skip
def test_json_under_a_text_name_says_what_it_is(
    tmp_path: Path, name: str, text: str, expected: str
) -> None:
    path = write(tmp_path / name, "\ufeff\n  " + text)  # a BOM and blank lines change nothing
    with pytest.raises(SourceError) as caught:
        detect_format(path)
    assert str(caught.value).startswith(f"{path}: looks like ")
    assert expected in str(caught.value)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("a.csv", "[id],raw,truth\n1,x,y\n"),  # a bracketed header cell is CSV
        ("a.csv", "{id},raw\n1,x\n"),
        ("a.csv", "raw,truth\n[1, 2],x\n"),
        ("a.jsonl", "\n".join(map(json.dumps, RECORDS))),
        ("a.jsonl", '{"raw": "truncated\n' + json.dumps(RECORDS[1])),  # a bad first line
        ("a.json", json.dumps(RECORDS, indent=2)),
        ("a.json", "\n".join(map(json.dumps, RECORDS))),  # the JSON reader names this one
    ],
)
def test_files_that_are_what_they_say_are_left_to_their_reader(
    tmp_path: Path, name: str, text: str
) -> None:
    path = write(tmp_path / name, text)
    assert misnamed(path, detect_format(path)) is None


def test_a_compressed_file_is_read_inside(tmp_path: Path) -> None:
    path = tmp_path / "runs.csv.gz"
    path.write_bytes(gzip.compress(json.dumps(RECORDS).encode()))
    with pytest.raises(SourceError, match=r"looks like JSON \(an array of records\), not CSV"):
        detect_format(path)


def test_a_long_first_line_is_judged_by_its_start_only(tmp_path: Path) -> None:
    long_record = {"raw": "x" * HEAD_BYTES, "meta": [1]}
    jsonl = write(tmp_path / "long.jsonl", json.dumps(long_record) + "\n")
    assert misnamed(jsonl, "jsonl") is None
    array = write(tmp_path / "long.csv", json.dumps([long_record]))
    assert "an array of records" in str(misnamed(array, "csv"))
    lines = write(tmp_path / "lines.csv", json.dumps(long_record) + "\n")
    assert "looks like JSON, not CSV; rename it to lines.jsonl (one object per line) or " \
        "lines.json (one document)" in str(misnamed(lines, "csv"))  # fmt: skip


@pytest.mark.parametrize("name", ["log.json", "log.jsonl", "log.csv", "log.json.zip"])
def test_an_eval_log_under_another_name_is_to_be_renamed(tmp_path: Path, name: str) -> None:
    path = fake_eval_log(tmp_path / name)
    assert is_eval_log(path)
    with pytest.raises(SourceError) as caught:
        read_table(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: looks like an inspect_ai .eval log (a zip archive), not ")
    assert message.endswith("rename it to log.eval (inspect_ai reads a log by its .eval ending)")
    for fmt in ("csv", "json", "jsonl", "inspect"):  # --format cannot read it either
        with pytest.raises(SourceError, match=r"rename it to log\.eval"):
            read_table(path, fmt=fmt)


def test_an_other_zip_is_no_eval_log(tmp_path: Path) -> None:
    path = tmp_path / "data.csv"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("data.csv", "raw\nx\n")
    assert not is_eval_log(path)
    assert misnamed(path, "csv") is None
    assert not is_eval_log(fake_eval_log(tmp_path / "ok.eval").with_name("absent.eval"))


RECORD = st.dictionaries(
    st.text(min_size=1, max_size=8),
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=30)),
    min_size=1,
    max_size=4,
)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(RECORD, min_size=1, max_size=5), st.sampled_from([None, 1, 2, 4]))
def test_any_json_array_saved_as_csv_is_named_and_any_jsonl_is_not(
    tmp_path: Path, records: list[dict[str, Any]], indent: int | None
) -> None:
    array = write(tmp_path / "a.csv", json.dumps(records, indent=indent))
    assert "looks like JSON (an array of records), not CSV" in str(misnamed(array, "csv"))
    lines = write(tmp_path / "a.jsonl", "\n".join(json.dumps(r) for r in records) + "\n")
    assert misnamed(lines, "jsonl") is None
    document = write(tmp_path / "d.jsonl", json.dumps({"rows": records}, indent=indent or 1))
    assert "one JSON document over several lines" in str(misnamed(document, "jsonl"))


@pytest.mark.parametrize("command", [["audit"], ["rescore", "--parser", "choice/v4"],
                                     ["diff", "--a", "choice/v1", "--b", "choice/v4"]])  # fmt: skip
def test_every_command_says_it_in_one_line_and_exits_2(tmp_path: Path, command: list[str]) -> None:
    for path, fragment in [
        (write(tmp_path / "runs.csv", json.dumps(RECORDS)), "rename it to runs.json"),
        (write(tmp_path / "doc.jsonl", json.dumps({"r": RECORDS}, indent=2)), "--format json"),
        (fake_eval_log(tmp_path / "log.json"), "rename it to log.eval"),
    ]:
        result = runner.invoke(app, [*command, str(path), "-q"] if command[0] != "diff"
                               else [*command, str(path)])  # fmt: skip
        assert result.exit_code == 2, (result.stdout, result.stderr)
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
        assert result.stderr.startswith("error: ") and fragment in result.stderr


# ------------------------------------------------ one JSON document on the one line of a .jsonl


@pytest.mark.parametrize("command", [["audit", "--truth", "truth", "--label", "label"],
                                     ["rescore", "--parser", "choice/v7", "--truth", "truth"]])  # fmt: skip
@pytest.mark.parametrize("gz", [False, True])
def test_records_listed_on_a_jsonl_line_name_the_json_reading(
    tmp_path: Path, command: list[str], gz: bool
) -> None:
    text = json.dumps({"meta": {"model": "m"}, "samples": RECORDS}) + "\n"
    path = tmp_path / ("one.jsonl.gz" if gz else "one.jsonl")
    given = gzip.compress(text.encode()) if gz else text.encode()
    path.write_bytes(given)
    result = runner.invoke(app, [command[0], str(path), *command[1:], "-q"])
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "'raw' is a field of the records listed under 'samples'" in result.stderr
    assert result.stderr.rstrip().endswith("read it with --format json --records samples")
    fixed = runner.invoke(app, [command[0], str(path), *command[1:], "-q",
                                "--format", "json", "--records", "samples"])  # fmt: skip
    assert fixed.exit_code == 0, (fixed.stdout, fixed.stderr)
    assert path.read_bytes() == given


@given(key=st.text(st.characters(categories=["L", "N"]), min_size=1, max_size=12),
       column=st.sampled_from(["raw", "truth", "answer text"]))  # fmt: skip
@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_hint_names_the_key_that_lists_the_column(
    tmp_path: Path, key: str, column: str
) -> None:
    from answer_audit.sources.sniff import records_inside

    path = write(tmp_path / "k.jsonl", json.dumps({"n": 1, key: [{column: "A"}]}) + "\n")
    assert records_inside(path, column) == (
        f"; '{column}' is a field of the records listed under '{key}' on its first line: "
        f"if the file is one JSON document, read it with --format json --records {key}"
    )


def test_no_hint_where_no_listed_record_holds_the_column(tmp_path: Path) -> None:
    from answer_audit.sources.sniff import records_inside

    lines = write(tmp_path / "l.jsonl", "\n".join(json.dumps(r) for r in RECORDS) + "\n")
    nested = write(tmp_path / "n.jsonl", json.dumps({"samples": [{"text": "A"}]}) + "\n")
    array = write(tmp_path / "a.jsonl", json.dumps(RECORDS) + "\n")
    broken = write(tmp_path / "b.jsonl", '{"samples": [{"raw": "A"}\n')
    for path in (lines, nested, array, broken):
        assert records_inside(path, "raw") is None
    assert records_inside(lines, None) is None
    result = runner.invoke(app, ["audit", str(lines), "--raw", "text", "-q"])
    assert result.exit_code == 2 and "records listed" not in result.stderr
