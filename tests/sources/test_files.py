"""read_table: each format as read, its stats, and every way a file can be unreadable."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from answer_audit.sources import SourceError, read_table
from answer_audit.sources.columns import frame_from_records


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_csv_keeps_every_cell_as_text_and_multiline_fields(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.csv", 'id,raw,n\n007,"line one\nline two",1\n010,plain,\n')
    frame, stats = read_table(path)
    assert frame.schema == pl.Schema({"id": pl.String, "raw": pl.String, "n": pl.String})
    assert frame["id"].to_list() == ["007", "010"]
    assert frame["raw"].to_list() == ["line one\nline two", "plain"]
    assert frame["n"].to_list() == ["1", None]
    assert stats["format"] == "csv"
    assert stats["rows"] == 2


def test_jsonl_mixed_types_become_text_nested_values_json_missing_keys_null(
    tmp_path: Path,
) -> None:
    lines = [
        {"id": 1, "answer": 42, "meta": {"k": [1, 2]}, "ok": True},
        {"id": 2, "answer": "forty-two", "ok": False},
        {"id": 3, "answer": None, "meta": ["x"], "ok": None},
    ]
    path = _write(tmp_path / "a.jsonl", "\n".join(json.dumps(r) for r in lines) + "\n\n")
    frame, stats = read_table(path)
    assert frame["id"].dtype == pl.Int64
    assert frame["ok"].dtype == pl.Boolean
    assert frame["answer"].to_list() == ["42", "forty-two", None]
    assert frame["meta"].to_list() == ['{"k": [1, 2]}', None, '["x"]']
    assert stats["format"] == "jsonl"
    assert stats["rows"] == 3


def test_ndjson_extension_is_jsonl(tmp_path: Path) -> None:
    frame, _ = read_table(_write(tmp_path / "a.ndjson", '{"a": 1}\n{"a": 2}\n'))
    assert frame["a"].to_list() == [1, 2]


def test_malformed_jsonl_line_names_file_and_line(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.jsonl", '{"a": 1}\n\n{"a": oops}\n{"a": 3}\n')
    with pytest.raises(SourceError, match=r"a\.jsonl:3: not valid JSON .*--skip-bad-lines"):
        read_table(path)


def test_jsonl_line_that_is_not_an_object_is_a_bad_line(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.jsonl", '{"a": 1}\n[1, 2]\n')
    with pytest.raises(SourceError, match=r"a\.jsonl:2: not a JSON object"):
        read_table(path)


def test_malformed_jsonl_lines_skipped_and_counted(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.jsonl", '{"a": 1}\n{"a": oops}\n[]\n{"a": 3}\n')
    frame, stats = read_table(path, skip_bad_lines=True)
    assert frame["a"].to_list() == [1, 3]
    assert stats["bad_lines_skipped"] == 2


def test_json_top_level_list(tmp_path: Path) -> None:
    frame, stats = read_table(_write(tmp_path / "a.json", '[{"a": "x"}, {"a": "y"}]'))
    assert frame["a"].to_list() == ["x", "y"]
    assert stats["records_key"] == ""


def test_json_records_found_automatically(tmp_path: Path) -> None:
    doc = {"config": {"m": 1}, "summary": {"acc": 0.5}, "tags": ["a"], "results": [{"a": 1}]}
    frame, stats = read_table(_write(tmp_path / "a.json", json.dumps(doc)))
    assert frame["a"].to_list() == [1]
    assert stats["records_key"] == "results"


def test_json_ambiguous_records_list_candidates(tmp_path: Path) -> None:
    doc = {"train": [{"a": 1}], "test": [{"a": 2}]}
    with pytest.raises(SourceError, match=r"train, test; pass --records KEY"):
        read_table(_write(tmp_path / "a.json", json.dumps(doc)))


def test_json_without_records_lists_keys(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"no list of records .*keys: config, n"):
        read_table(_write(tmp_path / "a.json", '{"config": {}, "n": 3}'))


def test_json_explicit_and_dotted_records_key(tmp_path: Path) -> None:
    doc = {"train": [{"a": 1}], "eval": {"rows": [{"a": 2}, {"a": 3}]}}
    path = _write(tmp_path / "a.json", json.dumps(doc))
    assert read_table(path, records_key="train")[0]["a"].to_list() == [1]
    frame, stats = read_table(path, records_key="eval.rows")
    assert frame["a"].to_list() == [2, 3]
    assert stats["records_key"] == "eval.rows"


def test_json_missing_records_key_lists_what_exists(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.json", json.dumps({"eval": {"rows": [{"a": 2}]}}))
    with pytest.raises(SourceError, match=r"key 'row' .* not found at eval; available: rows"):
        read_table(path, records_key="eval.row")


def test_invalid_json_names_line(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"a\.json:2:\d+: not valid JSON"):
        read_table(_write(tmp_path / "a.json", '[{"a": 1},\n {"a": }]'))


def test_parquet(tmp_path: Path) -> None:
    source = pl.DataFrame({"id": ["1", "2"], "t": [0.5, 1.0], "ok": [True, None]})
    source.write_parquet(tmp_path / "a.parquet")
    frame, stats = read_table(tmp_path / "a.parquet")
    assert frame.equals(source)
    assert stats["format"] == "parquet"


def test_broken_parquet_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"not a readable Parquet file"):
        read_table(_write(tmp_path / "a.parquet", "not parquet"))


def test_non_utf8_bytes_replaced_and_counted(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    # Two bad bytes, plus one U+FFFD that was already in the file and must not be counted.
    path.write_bytes(b"raw\nca\xffe\nok \xef\xbf\xbd\nbad\xfe\n")
    frame, stats = read_table(path)
    assert frame["raw"].to_list() == ["ca\ufffde", "ok \ufffd", "bad\ufffd"]
    assert stats["decode_replacements"] == 2


def test_non_utf8_in_jsonl_counted(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_bytes(b'{"raw": "caf\xe9"}\n')
    frame, stats = read_table(path)
    assert frame["raw"].to_list() == ["caf\ufffd"]
    assert stats["decode_replacements"] == 1


def test_missing_file_names_the_path(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"nope\.csv: file not found"):
        read_table(tmp_path / "nope.csv")


@pytest.mark.parametrize(
    ("name", "text"),
    [("a.csv", "id,raw\n"), ("a.jsonl", "\n\n"), ("a.json", '{"results": []}')],
)
def test_empty_input_is_an_error(tmp_path: Path, name: str, text: str) -> None:
    with pytest.raises(SourceError, match="no rows"):
        read_table(_write(tmp_path / name, text))


def test_records_without_fields_are_an_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no fields"):
        read_table(_write(tmp_path / "a.jsonl", "{}\n{}\n"))


def test_unknown_extension_asks_for_format(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.txt", "a\n1\n")
    with pytest.raises(SourceError, match=r"pass --format"):
        read_table(path)
    assert read_table(path, fmt="csv")[0]["a"].to_list() == ["1"]


def test_unknown_format_name(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"unknown format 'xlsx'"):
        read_table(_write(tmp_path / "a.csv", "a\n1\n"), fmt="xlsx")


def test_option_for_another_format_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.csv", "a\n1\n")
    with pytest.raises(SourceError, match=r"--records applies to JSON files only"):
        read_table(path, records_key="results")
    with pytest.raises(SourceError, match=r"--table/--query apply to SQLite files only"):
        read_table(path, table="t")


_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5)
_values = _scalars | st.lists(_scalars, max_size=2) | st.dictionaries(st.text(max_size=3), _scalars)


@given(
    st.lists(st.dictionaries(st.sampled_from("abc"), _values), min_size=1, max_size=8).filter(any)
)
def test_any_json_records_make_a_csv_writable_frame(records: list[dict[str, object]]) -> None:
    frame = frame_from_records(records)
    assert frame.height == len(records)
    for name in frame.columns:
        present = sum(1 for r in records if r.get(name) is not None)
        assert frame[name].drop_nulls().len() == present
    frame.write_csv()  # nested or mixed values would raise here


@pytest.mark.parametrize(
    ("name", "text", "kind"),
    [
        ("t.tsv", "id\traw\ttruth\n1\tParis, France\tParis\n", "tab"),
        ("t.csv", "id\traw\ttruth\n1\tParis, France\tParis\n", "tab"),
        ("s.csv", "id;raw;truth\n1;Paris, France;Paris\n", "semicolon"),
    ],
)
def test_tab_and_semicolon_separated_files_are_read_and_said_so(
    tmp_path: Path, name: str, text: str, kind: str
) -> None:
    frame, stats = read_table(_write(tmp_path / name, text))
    assert frame.columns == ["id", "raw", "truth"]
    assert frame["raw"].to_list() == ["Paris, France"]
    assert stats["notes"] == [f"{tmp_path / name}: read as {kind}-separated (its first lines "
                              f"split into the same columns on {kind}s)"]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "text", "columns", "first"),
    [
        # one column whose header holds "; ": the quoted row says commas are right
        ("one.csv", 'model output; raw\n"Answer: B, final"\n', ["model output; raw"],
         ("Answer: B, final",)),
        # semicolons, with a quoted comma in the header
        ("q.csv", '"answer, raw";truth\nB;B\n', ["answer, raw", "truth"], ("B", "B")),
        # a .tsv whose header holds a comma
        ("h.tsv", "question, short\tanswer\nq\ta\n", ["question, short", "answer"], ("q", "a")),
        # a one-column .tsv whose cells hold commas
        ("c.tsv", "raw\nParis, France\n", ["raw"], ("Paris, France",)),
    ],
)  # fmt: skip
def test_the_separator_is_the_one_the_first_rows_agree_on(
    tmp_path: Path, name: str, text: str, columns: list[str], first: tuple[str, ...]
) -> None:
    frame, _ = read_table(_write(tmp_path / name, text))
    assert frame.columns == columns
    assert frame.row(0) == first


@pytest.mark.parametrize(("given", "sep"), [("|", "|"), ("tab", "\t"), ("\\t", "\t"), (",", ",")])
def test_a_given_separator_is_used_as_it_is_without_a_note(
    tmp_path: Path, given: str, sep: str
) -> None:
    # a pipe-separated file whose answers hold commas, semicolons and tabs besides the separator
    text = sep.join(["id", "raw", "truth"]) + "\n" + sep.join(["1", '"a, b; c"', "a"]) + "\n"
    frame, stats = read_table(_write(tmp_path / "p.csv", text), separator=given)
    assert frame.columns == ["id", "raw", "truth"]
    assert frame.row(0) == ("1", "a, b; c", "a")
    assert "notes" not in stats


def test_a_pipe_separated_file_without_separator_reads_as_one_column(tmp_path: Path) -> None:
    frame, _ = read_table(_write(tmp_path / "p.csv", "id|raw|truth\n1|Paris|Paris\n"))
    assert frame.columns == ["id|raw|truth"]  # what --separator '|' is for


@pytest.mark.parametrize("given", ["", "||", '"', "\n", "comma", "é", "€", "\u2028"])
def test_a_separator_must_be_one_usable_character(tmp_path: Path, given: str) -> None:
    with pytest.raises(SourceError, match=r"--separator must be one ASCII character other than "
                       r"a quote or a line break, or 'tab'; got"):  # fmt: skip
        read_table(_write(tmp_path / "p.csv", "id,raw\n1,x\n"), separator=given)


@pytest.mark.parametrize("sep", ["|", " "])
def test_a_row_longer_than_the_header_names_a_given_separator(tmp_path: Path, sep: str) -> None:
    text = sep.join(["raw", "truth"]) + "\n" + sep.join(["x", "y", "z"]) + "\n"
    with pytest.raises(SourceError, match=rf"p\.csv: not a readable CSV file \(line 2 has 3 "
                       rf"fields, the header 2; quote cells that hold '{re.escape(sep)}'\)"):  # fmt: skip
        read_table(_write(tmp_path / "p.csv", text), separator=sep)


def test_a_separator_for_another_format_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"p\.jsonl: --separator applies to CSV files only; "
                       r"this is jsonl"):  # fmt: skip
        read_table(_write(tmp_path / "p.jsonl", '{"raw": "x"}\n'), separator="|")


def test_a_comma_in_the_header_keeps_commas_and_one_column_stays_one(tmp_path: Path) -> None:
    frame, stats = read_table(_write(tmp_path / "c.csv", "raw,note\nx;y,a\tb\n"))
    assert frame.row(0) == ("x;y", "a\tb")
    assert "notes" not in stats
    frame, _ = read_table(_write(tmp_path / "one.csv", "raw\nParis\n"))
    assert frame.columns == ["raw"]


def test_jsonl_messages_read_well_and_an_array_file_is_pointed_to_json(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"t\.jsonl:1: not valid JSON \(Unterminated string "
                       r"starting at: column 7\); fix the line"):  # fmt: skip
        read_table(_write(tmp_path / "t.jsonl", '{"a": "x'))
    with pytest.raises(SourceError, match=r"a\.jsonl:1: not a JSON object \(found a list\); "
                       r"the file may be one JSON array, not JSON Lines: pass --format json"):  # fmt: skip
        read_table(_write(tmp_path / "a.jsonl", '[{"raw": "x"}, {"raw": "y"}]\n'), fmt="jsonl")
    with pytest.raises(SourceError, match=r"b\.jsonl:1: not valid JSON .*pass --format json"):
        read_table(_write(tmp_path / "b.jsonl", '[{"raw": "x"},\n{"raw": "y"}]\n'), fmt="jsonl")
    # told nothing, the extension's format is checked against the file's start first
    with pytest.raises(SourceError, match=r"b\.jsonl: looks like one JSON array, not JSON Lines"):
        read_table(tmp_path / "b.jsonl")


@pytest.mark.parametrize("name", ["outputs.csv", "outputs.jsonl", "outputs.json"])
def test_a_parquet_file_under_a_text_name_says_it_looks_like_parquet(
    tmp_path: Path, name: str
) -> None:
    path = tmp_path / name
    pl.DataFrame({"raw": ["a"], "truth": ["a"]}).write_parquet(path)
    with pytest.raises(SourceError, match=r"looks like Parquet.*--format parquet"):
        read_table(path)
    assert read_table(path, fmt="parquet")[0]["raw"].to_list() == ["a"]


@pytest.mark.parametrize("name", ["outputs.jsonl", "outputs.csv"])
def test_a_binary_file_is_not_text_and_no_skip_is_suggested(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(bytes(range(256)) * 8)
    with pytest.raises(SourceError, match="is not text") as caught:
        read_table(path, skip_bad_lines=True)
    assert "--skip-bad-lines" not in str(caught.value)


@given(st.text(alphabet=st.characters(codec="latin-1", exclude_categories=["Cc"]), min_size=1))
def test_text_in_an_8_bit_encoding_is_still_read_as_text(text: str) -> None:
    from answer_audit.sources.decode import reject_binary

    reject_binary(("raw\n" + text).encode("latin-1"), Path("x.csv"), "CSV")  # no error
