"""The JSON readers' shortcuts on hostile text give what reading step by step gives.

- `jsonfield._FAILS_EARLY`: an object the standard decoder gives up on a few members in is not
  decoded; the place it names must be where the decoder fails (`_decode_windowed`, and the
  decoder on the whole text).
- `json_tolerant._INTEGER_ITEMS`: the tolerant reader reads a run of integers in a list in one
  step; the reading must be the one it makes item by item (the shortcut switched off).
"""

from __future__ import annotations

import json
import re
from typing import Any
from unittest.mock import patch

from hypothesis import example, given, settings
from hypothesis import strategies as st

from answer_audit import extract
from answer_audit.parsers import json_tolerant
from answer_audit.parsers.json_tolerant import OBJECT_START, TolerantReader
from answer_audit.parsers.jsonfield import (
    _DECODER,
    _FAILS_EARLY,
    _LOOKAHEAD,
    _decode_at,
    _decode_windowed,
    _parse_int,
)

# Pieces of objects that decode, that fail early (a key or value where another token must
# stand, the hostile `{"a":1,` over and over) and that fail late or differently (escapes,
# control characters, fractions, exponents, constants cut short, Unicode spaces, trailing commas).
_PIECES = st.sampled_from(
    ['{', '}', '[', ']', '"a"', '"b c"', '"\\n"', '"\\u00e9"', '"\x01"', '"', ':', ',', ' ', '\t',
     '\n', '\r', '\u3000', '\xa0', '1', '0', '-', '-1', '12', '01', '1.5', '1.', '1e5', '1E', 'e',
     '.', 'true', 'tru', 'false', 'null', 'nul', 'NaN', 'Infinity', '-Infinity', 'x', '/', '*',
     "'", 'a', '{"a":1,', '{"a":', '"a":1', '"a": "b", ', '{"a" x', '{"a":1}']
)  # fmt: skip
_TEXTS = st.one_of(
    st.lists(_PIECES, max_size=24).map("".join),
    st.tuples(st.lists(_PIECES, min_size=1, max_size=5).map("".join), st.integers(1, 30)).map(
        lambda t: t[0] * t[1]
    ),
)


def _decode_whole(text: str, start: int) -> tuple[Any, int] | int:
    try:
        value, end = _DECODER.raw_decode(text[start:])
    except json.JSONDecodeError as err:
        return start + err.pos
    except RecursionError:
        return -1
    return value, start + end


@settings(max_examples=3000)
@given(_TEXTS, st.integers(1, 300))
@example('{"a":1,' * 60, 256)
@example('{"a":12x', 256)
@example('{"a":1,}', 256)  # 3.13 names the comma: not taken
@example('{"a":1.x', 256)
@example('{"a":01', 256)
@example('{ "a" : "b" , "c":true ,q', 256)
def test_an_early_failure_is_where_the_decoder_fails(text: str, window: int) -> None:
    for m in re.finditer(r"\{", text):
        start = m.start()
        early = _FAILS_EARLY.match(text, start, start + window - _LOOKAHEAD)
        if early is None:
            continue
        assert _decode_whole(text, start) == early.end()
        assert _decode_windowed(text, start, window) == early.end()
        assert _decode_at(text, start, window) == early.end()


@settings(max_examples=1000)
@given(_TEXTS)
def test_the_decoded_objects_are_the_decoders(text: str) -> None:
    for m in re.finditer(r"\{", text):
        try:
            windowed = _decode_windowed(text, m.start(), 256)
        except RecursionError:
            continue
        assert repr(_decode_at(text, m.start())) == repr(windowed)


# Lists of integers (signs, zeros, whitespace, comments, fractions, exponents, constants and
# strings among them) inside tolerant objects.
_LIST_PIECES = st.sampled_from(
    ["1", "0", "12", "-3", "-0", "01", "-", "1.5", "1e3", "2E", ",", ", ", " ,", ",\n", ",\t",
     ",\u3000", ",/*c*/", ",// c\n", ",/", "[", "]", "{a:[", "{'a': [", "}", "'s'", '"t"', "null",
     "None", "-Infinity", "NaN", "x", " ", "9" * 12, "1,1,1,1,"]
)  # fmt: skip
_ITEMS = st.sampled_from(["1", "0", "12", "-3", "-0", "01", "1.5", "1e3", "'s'", "null", "[]"])
_SEPARATORS = st.sampled_from([",", ",", ", ", " ,", ",\n", ",/*c*/", ",// c\n"])
_TOLERANT_TEXTS = st.one_of(
    st.lists(st.tuples(_ITEMS, _SEPARATORS).map("".join), max_size=30).map(
        lambda items: "{a:[" + "".join(items) + "2]}"  # mostly lists that read to their end
    ),
    st.lists(_LIST_PIECES, max_size=30).map(lambda p: "{a:[" + "".join(p)),
    st.lists(_LIST_PIECES, max_size=30).map("".join),
    st.tuples(st.lists(_LIST_PIECES, min_size=1, max_size=4).map("".join), st.integers(1, 40)).map(
        lambda t: "{a:[" + t[0] * t[1] + "]}"
    ),
)


def _readings(text: str) -> list[str]:
    reader = TolerantReader(text, _parse_int)
    return [repr(reader.read_object(m.start())) for m in OBJECT_START.finditer(text)]


@settings(max_examples=3000)
@given(_TOLERANT_TEXTS)
@example("{a:[" + "1," * 500)
@example("{a:[1, 2 ,3,\t-4,05,6.5,7e1,8, /*c*/ 9, 10,]}")
@example("{a:[1,-Infinity,2,]}")
@example("{a:[1,2,-3,-0,4]}")
def test_a_run_of_integers_reads_as_item_by_item(text: str) -> None:
    fast = _readings(text)
    with patch.object(json_tolerant, "_INTEGER_ITEMS", re.compile(r"(?!)")):
        assert _readings(text) == fast


def test_the_hostile_shapes_keep_their_outcomes() -> None:
    members = '{"a":1,' * 2000
    assert extract(members, "json/isup_grade").rule == "json-invalid"
    assert extract(members + ' {"isup_grade": 2}', "json/isup_grade").value == 2
    array = "{a:[" + "1," * 5000
    assert extract(array, "json/isup_grade/v2").rule == "json-invalid"
    assert extract(array + "1]}", "json/isup_grade/v2").rule == "json-missing-key"
