"""JSON Lines read a piece at a time give exactly what reading the whole file gives: the same
frame (columns, order, types, cells), the same skipped-line and replacement counts, and the
same error for a bad line, whatever the piece size."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from answer_audit.sources import SourceError
from answer_audit.sources.columns import frame_from_records
from answer_audit.sources.decode import decode_utf8
from answer_audit.sources.files import _read_jsonl
from answer_audit.sources.jsonfmt import may_hold_surrogates, parse_jsonl, replace_surrogates


def _whole(path: Path, skip: bool) -> tuple[pl.DataFrame, int, int]:
    """The reference: the file read, decoded and parsed whole, as read_table used to."""
    text, replaced = decode_utf8(path.read_bytes())
    records, skipped = parse_jsonl(text, str(path), skip_bad_lines=skip)
    if may_hold_surrogates(text):
        replaced += replace_surrogates(records)
    frame = frame_from_records(records)
    if records and frame.width == 0:
        raise SourceError(f"{path}: the records have no fields (every object is empty)")
    return frame, skipped, replaced


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),  # some beyond 64 bits: text
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([1e16, 0.1, -0.0, 1e-7]),
    st.text(max_size=6),
)
values = st.one_of(
    scalars,
    st.lists(scalars, max_size=2),
    st.dictionaries(st.text(max_size=2), scalars, max_size=2),
)
records = st.dictionaries(st.sampled_from(["a", "b", "c", "d", "é"]), values, max_size=4)
odd_lines = st.sampled_from(
    [b"", b"   ", b"{oops", b"[1, 2]", b"7", b'{"a": "\\ud800"}', b'{"a": "x\xff\xfey"}',
     b'\xef\xbb\xbf{"a": 1}', b'{"b": "\xe2\x82"}', b"{}", b'{"a": "\xef\xbf\xbd"}']
)  # fmt: skip
lines = st.lists(
    st.one_of(records.map(lambda r: json.dumps(r).encode()), odd_lines), min_size=0, max_size=14
)


@settings(max_examples=300, deadline=None)
@given(lines=lines, bom=st.booleans(), crlf=st.booleans(), skip=st.booleans(),
       size=st.integers(1, 5), newline_at_end=st.booleans())  # fmt: skip
def test_pieces_read_like_the_whole_file(
    tmp_path_factory: pytest.TempPathFactory, lines: list[bytes], bom: bool, crlf: bool,
    skip: bool, size: int, newline_at_end: bool,
) -> None:  # fmt: skip
    end = b"\r\n" if crlf else b"\n"
    data = (b"\xef\xbb\xbf" if bom else b"") + end.join(lines) + (end if newline_at_end else b"")
    path = tmp_path_factory.mktemp("jsonl") / "f.jsonl"
    path.write_bytes(data)
    expected: tuple[pl.DataFrame, int, int]
    try:
        expected = _whole(path, skip)
    except SourceError as exc:
        with pytest.raises(SourceError) as info:
            _read_jsonl(path, skip_bad_lines=skip, chunk_lines=size)
        assert str(info.value) == str(exc)
        return
    frame, skipped, replaced = _read_jsonl(path, skip_bad_lines=skip, chunk_lines=size)
    assert (skipped, replaced) == expected[1:]
    assert frame.schema == expected[0].schema
    assert frame.to_dicts() == expected[0].to_dicts()


def test_a_column_typed_differently_in_later_pieces_is_text_as_in_a_whole_read(
    tmp_path: Path,
) -> None:
    path = tmp_path / "f.jsonl"
    rows = [{"n": 1, "f": 1e16, "b": True}, {"n": 2}, {"n": "x", "f": "y", "b": 0, "late": 3}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    frame, _, _ = _read_jsonl(path, skip_bad_lines=False, chunk_lines=1)
    assert frame.columns == ["n", "f", "b", "late"]
    assert frame["n"].to_list() == ["1", "2", "x"]
    assert frame["f"].to_list() == ["1e+16", None, "y"]  # as Python writes the float
    assert frame["b"].to_list() == ["true", None, "0"]
    assert frame["late"].dtype == pl.Int64
    assert frame["late"].to_list() == [None, None, 3]


def test_a_bad_line_in_a_later_piece_is_named_by_its_file_line(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    path.write_text('{"a": 1}\n{"a": 2}\n\n{"a": 3}\n{nope\n', encoding="utf-8")
    with pytest.raises(SourceError, match=r"f\.jsonl:5: not valid JSON"):
        _read_jsonl(path, skip_bad_lines=False, chunk_lines=2)
