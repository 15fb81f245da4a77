"""load_files and parse_label: the canonical table every later stage depends on."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import polars as pl
import pytest

from answer_audit.sources import ColumnMap, SourceError, load_files, parse_label

CSV = (
    "trial_id,raw_text,parsed,is_correct,truth,variant,err\n"
    "007,A,A,1,A,base,\n"
    "008,B,B,0,None,sft,timeout\n"
    '009,"multi\nline",None,None,C,None, \n'
)
FULL_MAP = ColumnMap(
    id="trial_id",
    raw="raw_text",
    parsed="parsed",
    label="is_correct",
    truth="truth",
    error="err",
    group_by=("variant",),
    null_values=("None",),
)


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_canonical_columns_types_and_order(tmp_path: Path) -> None:
    table = load_files(_write(tmp_path / "a.csv", CSV), FULL_MAP)
    frame = table.frame
    assert frame.columns == ["id", "raw", "parsed", "label", "truth", "error", "source", "variant"]
    assert frame["id"].to_list() == ["007", "008", "009"]
    assert frame["label"].dtype == pl.Boolean
    assert frame["label"].to_list() == [True, False, None]
    assert frame["source"].to_list() == ["a.csv"] * 3
    assert frame["error"].to_list() == [None, "timeout", None]  # blank is not an error
    assert table.coverage["rows"] == 3
    assert table.coverage["rows_with_truth"] == 2


def test_null_values_apply_everywhere_but_raw(tmp_path: Path) -> None:
    text = "raw,parsed,label,truth,group\nNone,None,None,None,None\nx,y,true,z,g\n"
    cmap = ColumnMap(
        raw="raw", parsed="parsed", label="label", truth="truth", group_by=("group",),
        null_values=("None",),
    )  # fmt: skip
    frame = load_files(_write(tmp_path / "a.csv", text), cmap).frame
    assert frame.row(0, named=True) == {
        "id": "0", "raw": "None", "parsed": None, "label": None, "truth": None,
        "source": "a.csv", "group": None,
    }  # fmt: skip


def test_original_keeps_every_column_as_read(tmp_path: Path) -> None:
    table = load_files(_write(tmp_path / "a.csv", CSV), FULL_MAP)
    assert table.original.columns == [*CSV.splitlines()[0].split(","), "source"]
    assert table.original["truth"].to_list() == ["A", "None", "C"]  # null_values not applied


def test_group_columns_keep_their_types(tmp_path: Path) -> None:
    rows = [{"raw": "a", "temperature": 0.5}, {"raw": "b", "temperature": 1.0}]
    path = _write(tmp_path / "a.jsonl", "\n".join(json.dumps(r) for r in rows))
    frame = load_files(path, ColumnMap(raw="raw", group_by=("temperature",))).frame
    assert frame["temperature"].dtype == pl.Float64


def test_text_columns_cast_from_numbers(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.jsonl", '{"id": 7, "raw": 12, "truth": 12}\n')
    frame = load_files(path, ColumnMap(id="id", raw="raw", truth="truth")).frame
    assert frame.row(0) == ("7", "12", "12", "a.jsonl")


def test_several_files_concatenated_with_source_and_prefixed_ids(tmp_path: Path) -> None:
    first = _write(tmp_path / "one.csv", "raw,extra\na,1\nb,2\n")
    second = _write(tmp_path / "two.jsonl", '{"raw": "c", "other": true}\n')
    table = load_files([first, second], ColumnMap(raw="raw"))
    assert table.frame["id"].to_list() == ["one.csv:0", "one.csv:1", "two.jsonl:0"]
    assert table.frame["source"].to_list() == ["one.csv", "one.csv", "two.jsonl"]
    assert table.original["extra"].to_list() == ["1", "2", None]
    assert table.original["other"].to_list() == [None, None, True]
    assert [f["rows"] for f in table.coverage["files"]] == [2, 1]


def test_single_file_ids_are_plain_row_numbers(tmp_path: Path) -> None:
    frame = load_files(_write(tmp_path / "a.csv", "raw\nx\ny\n"), ColumnMap(raw="raw")).frame
    assert frame["id"].to_list() == ["0", "1"]


def test_files_sharing_a_name_use_their_paths(tmp_path: Path) -> None:
    (tmp_path / "t0").mkdir()
    (tmp_path / "t1").mkdir()
    first = _write(tmp_path / "t0" / "out.csv", "raw\nx\n")
    second = _write(tmp_path / "t1" / "out.csv", "raw\ny\n")
    frame = load_files([str(first), str(second)], ColumnMap(raw="raw")).frame
    assert frame["source"].to_list() == [str(first), str(second)]


def test_same_file_twice_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.csv", "raw\nx\n")
    with pytest.raises(SourceError, match="given twice"):
        load_files([path, tmp_path / "." / "a.csv"], ColumnMap(raw="raw"))


def test_unknown_column_lists_available(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.csv", "a,b,c\n1,2,3\n")
    with pytest.raises(SourceError) as caught:
        load_files(path, ColumnMap(raw="a", truth="answer"))
    assert str(caught.value) == f"column 'answer' not found in {path}; available: a, b, c, source"


def test_raw_column_is_required(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="--raw"):
        load_files(_write(tmp_path / "a.csv", "a\n1\n"), ColumnMap(truth="a"))


def test_group_named_like_a_canonical_column_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.csv", "raw,label\nx,y\n")
    with pytest.raises(SourceError, match="group column 'label'"):
        load_files(path, ColumnMap(raw="raw", group_by=("label",)))


def test_truth_without_values_is_an_error(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.csv", "raw,truth\nx,None\ny,None\n")
    with pytest.raises(SourceError, match=r"truth column 'truth' has no values; check --truth"):
        load_files(path, ColumnMap(raw="raw", truth="truth", null_values=("None",)))


def test_bad_label_names_column_file_row_and_value(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.csv", "raw,ok\nx,1\ny,maybe\n")
    with pytest.raises(SourceError, match=r"label column 'ok' in .*a\.csv, row 2: .*'maybe'"):
        load_files(path, ColumnMap(raw="raw", label="ok"))


def test_read_notes_and_coverage_add_up(tmp_path: Path) -> None:
    bad = tmp_path / "a.jsonl"
    bad.write_bytes(b'{"raw": "caf\xe9"}\n{oops\n')
    good = _write(tmp_path / "b.json", '{"meta": {}, "results": [{"raw": "x"}]}')
    table = load_files([bad, good], ColumnMap(raw="raw"), skip_bad_lines=True)
    assert table.coverage["bad_lines_skipped"] == 1
    assert table.coverage["decode_replacements"] == 1
    assert any("skipped 1 malformed JSONL line" in note for note in table.notes)
    assert "records read from the key 'results' (1 file(s))" in table.notes


def test_duplicate_ids_are_noted(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.csv", "id,raw\nq1,x\nq1,y\nq2,z\n")
    table = load_files(path, ColumnMap(id="id", raw="raw"))
    assert table.notes == ["2 rows share an id with another row (e.g. q1); ids are not unique"]


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([True, False, None], [True, False, None]),
        ([1, 0, None], [True, False, None]),
        (["1", "0", ""], [True, False, None]),
        (["True", "False", None], [True, False, None]),
        (["true", "false", "TRUE"], [True, False, True]),
        (["yes", "no", " Yes "], [True, False, True]),
        ([1.0, 0.0, float("nan")], [True, False, None]),
    ],
)
def test_parse_label_spellings(values: list[object], expected: list[bool | None]) -> None:
    assert parse_label(values).to_list() == expected
    assert parse_label(values).dtype == pl.Boolean


@pytest.mark.parametrize("bad", [2, "maybe", "2", 0.5])
def test_parse_label_rejects_other_values(bad: object) -> None:
    expected = re.escape(f"label column 'ok', row 2: cannot read {bad!r}")
    with pytest.raises(SourceError, match=expected):
        parse_label([True, bad], column="ok")


def test_parse_label_uses_series_name() -> None:
    with pytest.raises(SourceError, match="label column 'is_correct'"):
        parse_label(pl.Series("is_correct", [3]))


@pytest.mark.parametrize(
    ("text", "cmap", "note", "declared", "column", "after"),
    [
        ("raw,truth\nParis,Paris\nmaybe,None\nsure,None\nx,NaN\n",
         ColumnMap(raw="raw", truth="truth"),
         "truth column 'truth' holds 'None' in 2 rows, 'NaN' in 1 rows; these are scored as "
         "truths. If they mean no truth, pass --null-values None,NaN",
         ("None", "NaN"), "truth", ["Paris", None, None, None]),
        ("raw,truth,err\na,a,\nb,b,0\nc,c,False\nd,d,timeout\n",
         ColumnMap(raw="raw", error="err"),
         "error column 'err' holds '0' in 1 rows, 'False' in 1 rows; every non-empty cell "
         "counts as an error. If the column is a flag, pass --null-values 0,False",
         ("0", "False"), "error", [None, None, None, "timeout"]),
    ],
)  # fmt: skip
def test_cells_spelled_like_missing_are_noted_until_declared(
    tmp_path: Path, text: str, cmap: ColumnMap, note: str, declared: tuple[str, ...],
    column: str, after: list[str | None],
) -> None:  # fmt: skip
    path = tmp_path / "c.csv"
    path.write_text(text, encoding="utf-8")
    assert note in load_files(path, cmap).notes
    loaded = load_files(path, dataclasses.replace(cmap, null_values=declared))
    assert loaded.frame[column].to_list() == after
    assert not any(n.startswith(f"{column} column") for n in loaded.notes)


def test_whole_float_truths_are_written_as_integers(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    rows = ['{"raw": "3", "truth": 3.0}', '{"raw": "2.5", "truth": 2.5}', '{"raw": "x", "truth": null}',
            '{"raw": "-0", "truth": -4.0}', '{"raw": "big", "truth": 1e300}']  # fmt: skip
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    truths = load_files(path, ColumnMap(raw="raw", truth="truth")).frame["truth"].to_list()
    assert truths[:4] == ["3", "2.5", None, "-4"]
    assert truths[4] is not None and "e" in truths[4].lower()  # as Polars writes a huge float


def test_missing_spellings_compare_as_null_values_do_and_advice_never_blanks_a_truth(
    tmp_path: Path,
) -> None:
    path = tmp_path / "e.csv"
    # a padded " None" is not what --null-values None would blank: no note for it
    path.write_text("raw,truth,err\na, None,\nb,0,0\nc,5,0\n", encoding="utf-8")
    notes = load_files(path, ColumnMap(raw="raw", truth="truth", error="err")).notes
    assert not any("truth column" in n for n in notes)
    (note,) = [n for n in notes if "error column" in n]
    assert "--null-values would also blank the '0' cells of truth" in note
    assert "pass --null-values" not in note


# ------------------------------------------------------------------------ labels written as floats


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
