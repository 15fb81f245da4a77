"""Streamed CSV and JSON Lines files (plain and compressed): the same rows, notes, coverage,
errors and audit as a whole read."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import polars as pl
import pytest

import answer_audit.analysis.audit as audit_module
from answer_audit.analysis.audit import AuditSettings, audit
from answer_audit.sources import ColumnMap, LoadedTable, SourceError, load_files
from answer_audit.sources.load import stream_files
from answer_audit.sources.spec import SourceSpec, load, load_streamed
from answer_audit.table.lazy import InMemoryRows, StreamedTable
from stream_fixtures import CMAP, pathology_rows, write_rows

NAMES = ["a.csv", "a.tsv", "a.jsonl", "a.csv.gz", "a.jsonl.gz"]


def _streamed(paths: list[Path], cmap: ColumnMap = CMAP, **options: object) -> StreamedTable:
    streamed = stream_files(paths, cmap, **options)  # type: ignore[arg-type]
    assert isinstance(streamed, StreamedTable)
    return streamed


@pytest.mark.parametrize("name", NAMES)
def test_streamed_rows_equal_the_whole_read(tmp_path: Path, name: str) -> None:
    first = write_rows(pathology_rows(23), tmp_path / name)
    second = write_rows(pathology_rows(31, start=23), tmp_path / f"b-{name}")
    whole = load_files([first, second], CMAP)
    streamed = _streamed([first, second])
    rows = streamed.rows
    try:
        assert rows.columns == whole.frame.columns
        assert rows.small.equals(InMemoryRows(whole.frame).small)
        for offset, length in [(0, 54), (0, 5), (20, 7), (23, 31), (50, 100), (54, 3)]:
            assert rows.slice(offset, length).equals(whole.frame.slice(offset, length)), offset
        picked = [40, 3, 22, 23, 3, 53, 0]  # unsorted, across files, one row twice
        assert rows.take(picked).equals(whole.frame[picked])
        assert (streamed.coverage, streamed.notes) == (whole.coverage, whole.notes)
    finally:
        rows.close()


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("chunk", [5, 23, 1000])
def test_a_streamed_audit_equals_the_whole_one(
    tmp_path: Path, name: str, chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(audit_module, "CHUNK_ROWS", chunk)
    paths = (write_rows(pathology_rows(23), tmp_path / name),
             write_rows(pathology_rows(31, start=23), tmp_path / f"b-{name}"))  # fmt: skip
    spec = SourceSpec(paths=paths)
    loaded, groups = load(spec, CMAP)
    streamed, streamed_groups = load_streamed(spec, CMAP)
    assert isinstance(streamed, StreamedTable) and groups == streamed_groups
    settings = AuditSettings(group_by=groups, max_examples=40, n_boot=50)
    whole = audit(loaded.frame, settings=settings).to_dict()
    assert whole["examples"] and whole["think"]["rows"] and whole["markers"]["raw_role"]
    try:
        assert audit(streamed.rows, settings=settings).to_dict() == whole
    finally:
        streamed.rows.close()


@pytest.mark.parametrize("name", ["a.csv.gz", "a.jsonl.gz"])
def test_a_compressed_file_is_read_from_one_copy_removed_on_close(
    tmp_path: Path, name: str
) -> None:
    path = write_rows(pathology_rows(9), tmp_path / name)
    rows = _streamed([path]).rows
    assert rows.slice(0, 9)["raw"].to_list() == pathology_rows(9)["out"].to_list()
    part = rows.parts[0]
    read = part.index.content if name.startswith("a.csv") else part.records.content  # type: ignore[attr-defined]
    assert read.path == path and read.file != path and read.file.exists()
    rows.close()
    assert not read.file.exists()


def test_jsonl_odd_lines_stream_like_the_whole_read(tmp_path: Path) -> None:
    lines = [
        b'\xef\xbb\xbf{"out": "x\xff", "gold": 1, "ok": true}',  # a BOM, a bad byte, an int truth
        b"",
        b"{oops",
        b'{"out": 7, "gold": "8", "ok": false, "parse": "\\ud800"}',  # a number as raw
        b"   ",
        b'{"out": {"a": [1]}, "gold": null, "ok": null, "parse": "p"}',
        b'{"out": "last", "gold": "8", "extra": 1.5}',
    ]
    path = tmp_path / "odd.jsonl"
    path.write_bytes(b"\n".join(lines))
    cmap = ColumnMap(raw="out", parsed="parse", label="ok", truth="gold")
    whole = load_files(path, cmap, skip_bad_lines=True)
    streamed = _streamed([path], cmap, skip_bad_lines=True)
    assert streamed.rows.slice(0, 9).equals(whole.frame)
    assert streamed.rows.take([3, 0, 2]).equals(whole.frame[[3, 0, 2]])
    assert (streamed.coverage, streamed.notes) == (whole.coverage, whole.notes)
    assert whole.coverage["bad_lines_skipped"] == 1 and whole.coverage["decode_replacements"] == 2
    assert whole.frame["raw"].to_list() == ["x\ufffd", "7", '{"a": [1]}', "last"]


def test_csv_odd_cells_stream_like_the_whole_read(tmp_path: Path) -> None:
    text = (
        b'\xef\xbb\xbfout;parse;ok;gold\r\n"a;b";"two\r\nlines";true;Paris\r\n'
        b'"say ""hi""";;false;None\r\n\r\nx\xff;p;;8\r\n;;;None'
    )
    path = tmp_path / "odd.csv"
    path.write_bytes(text)
    cmap = ColumnMap(raw="out", parsed="parse", label="ok", truth="gold", null_values=("",))
    whole = load_files(path, cmap)
    streamed = _streamed([path], cmap)
    assert streamed.rows.slice(0, 9).equals(whole.frame)
    assert streamed.rows.take([4, 1]).equals(whole.frame[[4, 1]])
    assert (streamed.coverage, streamed.notes) == (whole.coverage, whole.notes)
    assert whole.frame["raw"].to_list() == ["a;b", 'say "hi"', None, "x\ufffd", None]
    assert any("semicolon-separated" in n for n in whole.notes)
    assert any("truth column 'gold' holds 'None' in 2 rows" in n for n in whole.notes)


def test_a_null_text_note_counts_the_streamed_parse_too(tmp_path: Path) -> None:
    frame = pl.DataFrame({"out": ["a", "b", "c"], "parse": ["None", "x", "y"],
                          "gold": ["None", "x", "z"]})  # fmt: skip
    path = write_rows(frame, tmp_path / "n.csv")
    cmap = ColumnMap(raw="out", parsed="parse", truth="gold")
    whole = load_files(path, cmap)
    assert any("would also blank the 'None' cells of parsed" in n for n in whole.notes)
    assert _streamed([path], cmap).notes == whole.notes


def test_a_given_separator_streams_without_a_note(tmp_path: Path) -> None:
    path = tmp_path / "p.csv"
    path.write_text("out|gold\nParis|Paris\nRome|Paris\n", encoding="utf-8")
    cmap = ColumnMap(raw="out", truth="gold")
    streamed = _streamed([path], cmap, separator="|")
    whole = load_files(path, cmap, separator="|")
    assert streamed.rows.slice(0, 2).equals(whole.frame)
    assert streamed.notes == whole.notes == []


def test_only_rows_only_text_columns_still_count(tmp_path: Path) -> None:
    path = write_rows(pl.DataFrame({"out": ["a", "b", "c"]}), tmp_path / "t.jsonl")
    for file in (path, write_rows(pl.DataFrame({"out": ["a", "b", "c"]}), tmp_path / "t.csv"),
                 write_rows(pl.DataFrame({"out": ["a", "b", "c"]}), tmp_path / "t.parquet")):  # fmt: skip
        streamed = _streamed([file], ColumnMap(raw="out"))
        assert streamed.rows.slice(0, 3).equals(load_files(file, ColumnMap(raw="out")).frame)


# ------------------------------------------------------------------ what does not stream


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("q.csv", b'out,gold\n5" screen,x\n'),  # a quote inside an unquoted cell
        ("q.csv", b'out,gold\n"a"b,x\n'),  # text after a closing quote
        ("q.csv", b'out,gold\n"never closed,x\n'),
        ("blank.csv", b"\nout,gold\nx,y\n"),  # Polars skips a blank first line
        ("cr.csv", b"out,gold\rx,y\r"),  # old Mac line ends
        ("h.csv", b"out,gold\n"),  # no rows
        ("e.jsonl", b"\n\n"),
        ("f.jsonl", b"{}\n{}\n"),
    ],
)
def test_files_a_block_read_may_not_read_are_read_whole(
    tmp_path: Path, name: str, data: bytes
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    cmap = ColumnMap(raw="out", truth="gold")
    assert stream_files([path], cmap) is None
    spec = SourceSpec(paths=(path,))
    try:
        whole: object = load(spec, cmap)[0]
    except SourceError as exc:
        whole = str(exc)
    try:
        loaded: object = load_streamed(spec, cmap)[0]
    except SourceError as exc:
        loaded = str(exc)
    assert isinstance(loaded, LoadedTable) == isinstance(whole, LoadedTable)
    if isinstance(loaded, LoadedTable) and isinstance(whole, LoadedTable):
        assert loaded.frame.equals(whole.frame)
    else:
        assert loaded == whole


def test_other_formats_and_reader_options_are_read_whole(tmp_path: Path) -> None:
    frame = pl.DataFrame({"out": ["a"], "gold": ["a"]})
    cmap = ColumnMap(raw="out", truth="gold")
    records = tmp_path / "r.json"
    records.write_text(json.dumps([{"out": "a", "gold": "a"}]), encoding="utf-8")
    packed = tmp_path / "p.parquet.gz"
    frame.write_parquet(tmp_path / "p.parquet")
    packed.write_bytes(gzip.compress((tmp_path / "p.parquet").read_bytes()))
    csv = write_rows(frame, tmp_path / "c.csv")
    assert stream_files([records], cmap) is None
    assert stream_files([packed], cmap) is None
    assert stream_files([tmp_path / "missing.csv"], cmap) is None
    assert stream_files([write_rows(frame, tmp_path / "j.jsonl")], cmap, separator="|") is None
    with pytest.raises(SourceError, match="--records applies to JSON files only"):
        load_streamed(SourceSpec(paths=(csv,), records_key="k"), cmap)
    with pytest.raises(SourceError, match="--separator applies to CSV files only"):
        load_streamed(SourceSpec(paths=(tmp_path / "j.jsonl",), separator="|"), cmap)


# ------------------------------------------------------------------ errors


def _errors(path: Path, cmap: ColumnMap, **options: object) -> tuple[str, str]:
    """The streamed read's error and the whole read's."""
    with pytest.raises(SourceError) as streamed:
        stream_files([path], cmap, **options)  # type: ignore[arg-type]
    with pytest.raises(SourceError) as whole:
        load_files([path], cmap, **options)  # type: ignore[arg-type]
    return str(streamed.value), str(whole.value)


def test_a_bad_jsonl_line_is_named_by_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "b.jsonl"
    path.write_text('{"out": "a"}\n\n{"out": oops}\n', encoding="utf-8")
    streamed, whole = _errors(path, ColumnMap(raw="out"))
    assert streamed == whole
    assert streamed.startswith(f"{path}:3: not valid JSON (Expecting value: column 9); fix")


def test_a_bad_line_of_a_compressed_jsonl_is_named_by_the_compressed_file(tmp_path: Path) -> None:
    path = tmp_path / "b.jsonl.gz"
    path.write_bytes(gzip.compress(b'{"out": "a"}\n[1]\n'))
    streamed, whole = _errors(path, ColumnMap(raw="out"))
    assert (
        streamed
        == whole
        == f"{path}:2: not a JSON object (found a list); fix the line or pass --skip-bad-lines"
    )


def test_a_row_longer_than_the_header_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_text('out,gold\n"a\nb",x\nc,d,e\n', encoding="utf-8")
    streamed, whole = _errors(path, ColumnMap(raw="out"))
    assert (
        streamed
        == whole
        == (
            f"{path}: not a readable CSV file (line 4 has 3 fields, the header 2; quote cells that "
            "hold commas)"
        )
    )


def test_a_repeated_header_and_a_missing_column_are_the_whole_reads_errors(
    tmp_path: Path,
) -> None:
    path = tmp_path / "d.csv"
    path.write_text("out,gold,out\na,b,c\n", encoding="utf-8")
    streamed, whole = _errors(path, ColumnMap(raw="out"))
    assert (
        streamed
        == whole
        == (
            f"{path}: column 'out' appears 2 times in the header (columns 1, 3); rename them so "
            "each column has its own name"
        )
    )
    path = write_rows(pl.DataFrame({"out": ["a"], "gold": ["b"]}), tmp_path / "m.jsonl")
    streamed, whole = _errors(path, ColumnMap(raw="nope"))
    assert streamed == whole == f"column 'nope' not found in {path}; available: out, gold, source"


def test_a_broken_compressed_file_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "t.csv.gz"
    path.write_bytes(gzip.compress(b"out,gold\na,b\n", mtime=0)[:20])
    streamed, whole = _errors(path, ColumnMap(raw="out"))
    assert streamed == whole
    assert streamed.startswith(f"{path}: cannot read the file (")


@pytest.mark.parametrize("name", ["c.csv", "c.jsonl"])
def test_an_input_changed_while_read_is_one_clear_error(tmp_path: Path, name: str) -> None:
    path = write_rows(pathology_rows(20), tmp_path / name)
    streamed = _streamed([path])
    write_rows(pathology_rows(5), path)
    with pytest.raises(SourceError, match=rf"{name}: the file changed after it was indexed; "
                       "was an input changed while it was read"):  # fmt: skip
        streamed.rows.slice(10, 5)
    streamed.rows.close()


@pytest.mark.parametrize("name", ["c.jsonl", "c.csv"])
def test_choice_options_stream_like_the_whole_read(tmp_path: Path, name: str) -> None:
    lines = [
        {"out": "The answer is Lyon.", "gold": "b", "ok": True, "opts": ["Paris", "Lyon"]},
        {"out": "B", "gold": "b", "ok": True, "opts": '["x", "y"]'},
        {"out": "no idea", "gold": "a", "ok": False, "opts": None},
    ]
    path = tmp_path / name
    if name.endswith(".jsonl"):
        path.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    else:
        frame = pl.DataFrame([{**r, "opts": json.dumps(r["opts"])} for r in lines])
        frame.write_csv(path)
    cmap = ColumnMap(raw="out", truth="gold", label="ok", choices="opts")
    whole = load_files([path], cmap).frame
    rows = _streamed([path], cmap).rows
    assert rows.slice(0, 3).equals(whole)
    settings = AuditSettings(kind="choice", n_boot=20)
    assert audit(rows, settings=settings).to_dict() == audit(whole, settings=settings).to_dict()
