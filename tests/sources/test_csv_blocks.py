"""A CSV file read a block of records at a time (`sources.csv_blocks`), and streamed, gives
exactly what reading its whole decoded text gives: the same frame, separator, replacement
count and error, whatever the block sizes and however odd the quoting."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import answer_audit.sources.csv_records as csv_records
import answer_audit.sources.file_bytes as file_bytes
from answer_audit.sources import ColumnMap, SourceError, load_files, read_table
from answer_audit.sources.csv_records import record_starts
from answer_audit.sources.csvfmt import read_csv_text, separator_note
from answer_audit.sources.decode import decode_utf8
from answer_audit.sources.load import stream_files

PLAIN = ["", "a", "b c", "007", '"q"', '"x,y"', '"x;y"', '"l1\nl2"', '"l1\r\nl2"', '"a""b"',
         '""', "é", "None", "a\tb"]  # fmt: skip
ODD = ["\xff", "x\xe2\x82", '5" x', '"x"y', ' "z"', "\r"]  # bad bytes, quotes outside RFC 4180


def _reference(data: bytes, path: Path, separator: str | None) -> object:
    """The whole read: decode every byte, then parse the text (or its error)."""
    try:
        text, replaced = decode_utf8(data)
        frame, found = read_csv_text(text, path, separator)
    except SourceError as exc:
        return str(exc)
    if frame.height == 0:
        return "no rows"
    return frame, found, replaced


@st.composite
def csv_files(draw: st.DrawFn) -> bytes:
    sep = draw(st.sampled_from([",", "\t", ";"]))
    width = draw(st.integers(1, 3))
    cell = st.sampled_from(PLAIN * 5 + ODD)  # mostly files a block read takes
    header = (
        [f"c{i}" for i in range(width)]
        if draw(st.booleans())
        else draw(st.lists(cell, min_size=width, max_size=width))
    )
    ragged = st.lists(cell, min_size=0, max_size=width + 1)
    row = st.one_of(*[st.lists(cell, min_size=width, max_size=width)] * 4, ragged)
    rows = draw(st.lists(row, min_size=1, max_size=8))
    end = draw(st.sampled_from(["\n", "\r\n"]))
    text = end.join(sep.join(row) for row in [header, *rows]) + draw(st.sampled_from(["", end]))
    data = (
        text.encode("utf-8")
        .replace("\xff".encode(), b"\xff")
        .replace("\xe2\x82".encode(), b"\xe2\x82")
    )
    return (b"\xef\xbb\xbf" if draw(st.booleans()) else b"") + data


@settings(max_examples=400, deadline=None)
@given(data=csv_files(), given_sep=st.sampled_from([None, ",", "\t"]),
       block=st.integers(1, 40), scan=st.integers(1, 40))  # fmt: skip
def test_blocks_read_like_the_whole_text(
    tmp_path_factory: pytest.TempPathFactory, data: bytes, given_sep: str | None, block: int,
    scan: int,
) -> None:  # fmt: skip
    path = tmp_path_factory.mktemp("csv") / "f.csv"
    path.write_bytes(data)
    expected = _reference(data, path, given_sep)
    sizes = (file_bytes.BLOCK_BYTES, csv_records.SCAN_BYTES)
    file_bytes.BLOCK_BYTES, csv_records.SCAN_BYTES = block, scan
    try:
        try:
            frame, stats = read_table(path, separator=given_sep)
        except SourceError as exc:
            assert expected == ("no rows" if "no rows to read" in str(exc) else str(exc))
            return
        assert not isinstance(expected, str)
        assert frame.equals(expected[0])  # type: ignore[index]
        found, replaced = expected[1:]  # type: ignore[index]
        assert stats["decode_replacements"] == replaced
        noted = [separator_note(path, found)] if given_sep is None and found != "," else []
        assert stats.get("notes", []) == noted
        cmap = ColumnMap(raw=frame.columns[0])
        streamed = stream_files([path], cmap, separator=given_sep)
        if streamed is not None:
            whole = load_files([path], cmap, separator=given_sep)
            assert streamed.rows.slice(0, frame.height).equals(whole.frame)
            assert (streamed.coverage, streamed.notes) == (whole.coverage, whole.notes)
    finally:
        file_bytes.BLOCK_BYTES, csv_records.SCAN_BYTES = sizes


@pytest.mark.parametrize(
    ("data", "starts"),
    [
        (b'a,b\n1,"x\ny"\n', [0, 4, 12]),
        (b'a,b\r\n"1""\n",2\r\n\r\n3,4', [0, 5, 15, 17, 20]),
        (b"a\n\n", [0, 2, 3]),
        (b'a,b\n"x\n', None),  # never closed
        (b'a,b\n5" x,1\n', None),  # a quote inside an unquoted cell
        (b'a,b\n"x"y,1\n', None),  # text after a closing quote
        (b'a,b\n"x"\r1,2\n', None),  # a CR alone after a closing quote
    ],
)
@pytest.mark.parametrize("block", [1, 2, 3, 1 << 20])
def test_record_starts(tmp_path: Path, data: bytes, starts: list[int] | None, block: int) -> None:
    path = tmp_path / "f.csv"
    path.write_bytes(data)
    found = record_starts(path, ",", block=block)
    assert (None if found is None else found.tolist()) == starts
    if found is not None:
        assert found.dtype == np.int64
