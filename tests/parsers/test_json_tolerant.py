"""The JSON family's v2: the tolerant reader (`parsers.json_tolerant`) and `json/isup_grade/v2`.

v2 reads the JSON models write besides the standard (trailing commas, single quotes, unquoted
keys, comments, Python's constants) with v1's rules for null, range and the integer fallback.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from answer_audit import extract, extract_json_field, first_json_object, get_parser
from answer_audit.parsers import PresetError, PresetSet, load_preset_file
from answer_audit.parsers.json_tolerant import (
    MAX_DEPTH,
    TolerantFailure,
    TolerantObject,
    TolerantReader,
)
from answer_audit.parsers.jsonfield import JsonFieldPreset

V1, V2 = "json/isup_grade", "json/isup_grade/v2"


@pytest.mark.parametrize(
    ("text", "value", "rule", "value_text"),
    [
        # trailing commas, in objects and arrays
        ('{"isup_grade": 2,}', 2, "json-value", "2"),
        ('{"cores": [1, 2,], "isup_grade": 3}', 3, "json-value", "3"),
        ("{isup_grade: 4, cores: [[1,], {a: 1,},],}", 4, "json-value", "4"),
        # single quotes: keys, values, an escaped quote, a double quote inside
        ("{'isup_grade': 4}", 4, "json-value", "4"),
        ("{'isup_grade': '3'}", 3, "json-value", "'3'"),
        ("{'note': 'the patient\\'s biopsy', 'isup_grade': 1}", 1, "json-value", "1"),
        ("{'note': 'a \"cribriform\" focus', 'isup_grade': 5}", 5, "json-value", "5"),
        # unquoted keys
        ("{isup_grade: 4}", 4, "json-value", "4"),
        ("{ $ref: 1, _x: 2, isup_grade : 0 }", 0, "json-value", "0"),
        # comments, wherever whitespace may stand
        ('{"isup_grade": 3 // high grade\n}', 3, "json-value", "3"),
        ('{/* grade */ "isup_grade": /* ISUP */ 5 /* done */}', 5, "json-value", "5"),
        ("{\n  // the ISUP grade group\n  isup_grade: 2\n}", 2, "json-value", "2"),
        ("{isup_grade /* key */ : 1}", 1, "json-value", "1"),
        ('{"url": "http://x.org/a", "isup_grade": 1}', 1, "json-value", "1"),  # no comment
        # code fences
        ("```json\n{isup_grade: 3,}\n```", 3, "json-value", "3"),
        ("Here:\n```json5\n{\n  'isup_grade': 4, // group 4\n}\n```\nDone.", 4, "json-value", "4"),
        # Python's constants
        ("{'isup_grade': None}", 0, "json-null", "None"),
        ("{'isup_grade': True}", None, "json-not-integer", "True"),
        ("{'isup_grade': 2, 'confident': False}", 2, "json-value", "2"),
        # raw line breaks inside a string
        ('{"reason": "pattern 4\nand 3", "isup_grade": 2}', 2, "json-value", "2"),
        # v1's rules for range, null, strings, floats
        ("{isup_grade: 7,}", None, "json-out-of-range", "7"),
        ("{isup_grade: null,}", 0, "json-null", "null"),
        ("{isup_grade: 3.0,}", 3, "json-value", "3.0"),
        ("{isup_grade: 2.5,}", None, "json-not-integer", "2.5"),
        ("{isup_grade: 'high',}", None, "json-not-integer", "'high'"),
        # nested objects: the field is read at the top level only, as in v1
        ("{result: {isup_grade: 3,},}", None, "json-missing-key", None),
        ("{isup_grade: 4, meta: {isup_grade: 1,},}", 4, "json-value", "4"),
        ("{meta: {isup_grade: 1}, isup_grade: 4, isup_grade: 2}", 2, "json-value", "2"),
    ],
)
def test_each_tolerated_form(text: str, value: int | None, rule: str, value_text: str) -> None:
    e = extract(text, V2)
    assert (e.value, e.rule) == (value, rule)
    assert e.span is not None
    if value_text is not None:
        assert text[e.span[0] : e.span[1]] == value_text


def test_the_first_object_wins_as_in_v1() -> None:
    text = '{"isup_grade": 3,} and then {"isup_grade": 4}'
    assert extract(text, V1).value == 4  # v1 cannot read the first one
    assert extract(text, V2).value == 3
    assert extract("{isup_grade: 1} {isup_grade: 2}", V2).value == 1
    assert extract('[{"isup_grade": 3}, {"isup_grade": 4}]', V2).value == 3


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("{isup_grade: 03}", "json-invalid"),  # numbers are JSON's
        ("{isup_grade: 1_000}", "json-invalid"),
        ("{isup_grade: .5}", "not-found"),  # "." starts no value: prose, not broken JSON
        ("{isup_grade: three}", "not-found"),  # no unquoted values
        ('{"isup_grade": 3 // high grade}', "json-invalid"),  # the comment hides the brace
        ("{'isup_grade': 3", "json-invalid"),  # looks like JSON now: no integer fallback
        ("{'isup_grade': 'it's 3'}", "json-invalid"),
        ("{isup_grade: 1,,}", "json-invalid"),
        ("{,} 3", "integer-fallback"),  # not even the start of an object
        ("{'isup_grade': __import__('os').getcwd()}", "not-found"),  # never evaluated
        ("{“isup_grade”: 2}", "integer-fallback"),  # typographic quotes are not read
    ],
)
def test_what_v2_does_not_read(text: str, rule: str) -> None:
    assert extract(text, V2).rule == rule


@pytest.mark.parametrize(
    "text",
    [
        "The ISUP grade is 4",
        "Here {is} the grade: 3",
        "\\frac{a}{b} = 3 so grade 3",
        "The set {x : x > 3} holds grade 3",  # braces in prose are no broken JSON
        "{'a', 'b'} then 2",
        "Use {grade: <0-5>} and answer 4",
        "The set {1, 2, 3} of patterns... ISUP grade 3",
        "isup_grade: 3",
        "ISUP grade −1",
        "",
    ],
)
def test_without_json_the_integer_fallback_is_v1s(text: str) -> None:
    assert extract(text, V2) == extract(text, V1)


def test_the_preset_is_v1s_settings_read_tolerantly() -> None:
    v1, v2 = get_parser(V1), get_parser(V2)
    assert isinstance(v1, JsonFieldPreset) and isinstance(v2, JsonFieldPreset)
    assert (v2.field, v2.null_as, v2.allowed, v2.integer_fallback) == (
        v1.field, v1.null_as, v1.allowed, v1.integer_fallback,
    )  # fmt: skip
    assert (v1.tolerant, v2.tolerant, v2.family) == (False, True, "json")
    assert "tolerant reader" in v2.describe()[0] and "standard decoder" in v1.describe()[0]


def test_library_calls_take_tolerant() -> None:
    assert first_json_object("{grade: 2,}") is None
    assert first_json_object("say {grade: 2,}", tolerant=True) == ({"grade": 2}, (4, 15))
    e = extract_json_field("{'g': None}", "g", null_as=6, tolerant=True)
    assert (e.value, e.rule, e.span) == (6, "json-null", (6, 10))
    found = first_json_object(
        "{kind: 'draft'} {kind: 'final', grade: 2}",
        accept=lambda o: o.get("kind") == "final",
        tolerant=True,
    )
    assert found is not None and found[0] == {"kind": "final", "grade": 2}


# --- the reader -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        '{"s": "\\u00e9\\ud83d\\ude00\\ud800x\\udc00\\n\\"\\\\\\/"}',
        '{"n": [0, -0, 1.5e3, -2E-2, 1e400, 123456789012345678901234567890]}',
        '{"c": [true, false, null, NaN, Infinity, -Infinity]}',
        '{"a": {"b": {"c": []}}, "a": 2, "d": {}}',
        '{ "k" :\t[ 1 , { } ] \r\n}',
    ],
)
def test_the_reader_reads_standard_json_as_the_decoder_does(text: str) -> None:
    read = TolerantReader(text).read_object(0)
    assert isinstance(read, TolerantObject) and read.end == len(text)
    assert repr(read.obj) == repr(json.loads(text))  # repr: NaN is not equal to itself


@pytest.mark.parametrize(
    ("text", "stop"),
    [
        ('{"a": "\\x"}', 9),  # an escape JSON does not know: at the string's end
        ('{"a": "\\u12"}', 11),
        ("{'a': 'open", 11),
        ("{a: 1 /* never closed", 6),
        ("{a: 1 b: 2}", 6),
        ("{a: [1 2]}", 7),
        ("{a: -}", 4),
    ],
)
def test_the_reader_says_where_it_stopped(text: str, stop: int) -> None:
    read = TolerantReader(text).read_object(0)
    assert isinstance(read, TolerantFailure) and not read.too_deep
    assert read.pos == stop


def test_a_failure_names_the_objects_still_open() -> None:
    text = '{"a": {"b": [1, {"c": 2}, 3'
    read = TolerantReader(text).read_object(0)
    assert isinstance(read, TolerantFailure) and read.open_objects == (0, 6)
    for start in read.open_objects:  # each fails the same way on its own
        alone = TolerantReader(text).read_object(start)
        assert isinstance(alone, TolerantFailure) and alone.pos == read.pos


def test_nesting_beyond_the_limit_is_too_deep_not_an_error() -> None:
    deep = "{a:" * (MAX_DEPTH + 10) + "1" + "}" * (MAX_DEPTH + 10)
    read = TolerantReader(deep).read_object(0)
    assert isinstance(read, TolerantFailure) and read.too_deep
    shallow = "{a:" * (MAX_DEPTH - 1) + "1" + "}" * (MAX_DEPTH - 1)
    assert isinstance(TolerantReader(shallow).read_object(0), TolerantObject)
    assert extract(deep + ' {"isup_grade": 2}', V2).rule in ("json-invalid", "json-value")


# --- properties -------------------------------------------------------------------------------

IDENTIFIER_KEYS = st.from_regex(r"[A-Za-z_$][A-Za-z0-9_$]{0,6}", fullmatch=True)
KEYS = IDENTIFIER_KEYS | st.text(max_size=6)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=12,
)
OBJECTS = st.dictionaries(KEYS, VALUES, max_size=5)
GRADED = st.builds(lambda o, g: {**o, "isup_grade": g}, OBJECTS, VALUES | st.integers(-1, 6))
# Whitespace and comments a model may put between two tokens.
SEPARATORS = st.sampled_from(
    ["", " ", "\n", "\t  ", "\u00a0", "// note\n", "/* note */", "\n  /* a // b */\n  ", " // }\n"]
)
_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def _string(s: str, data: st.DataObject) -> str:
    if data.draw(st.booleans()):
        return json.dumps(s, ensure_ascii=data.draw(st.booleans()))
    # every "'" of json.dumps' body follows an even run of backslashes: escape it
    return "'" + json.dumps(s)[1:-1].replace("'", "\\'") + "'"


def _tokens(value: Any, data: st.DataObject) -> list[str]:
    """``value`` as tokens, each form chosen at random among those v2 reads."""
    if value is None or isinstance(value, bool):
        python = {None: "None", True: "True", False: "False"}[value]
        return [data.draw(st.sampled_from([json.dumps(value), python]))]
    if isinstance(value, int | float):
        return [json.dumps(value)]
    if isinstance(value, str):
        return [_string(value, data)]
    items: list[list[str]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            unquoted = _IDENTIFIER.fullmatch(key) is not None and data.draw(st.booleans())
            items.append([key if unquoted else _string(key, data), ":", *_tokens(item, data)])
    else:
        items = [_tokens(item, data) for item in value]
    tokens = ["{" if isinstance(value, dict) else "["]
    for i, item in enumerate(items):
        tokens += [*([","] if i else []), *item]
    trailing_comma: bool = data.draw(st.booleans())
    if items and trailing_comma:
        tokens.append(",")
    return [*tokens, "}" if isinstance(value, dict) else "]"]


def render(value: Any, data: st.DataObject) -> str:
    """``value`` in tolerant JSON, with whitespace or a comment drawn between every two tokens."""
    tokens = _tokens(value, data)
    return tokens[0] + "".join(data.draw(SEPARATORS) + token for token in tokens[1:])


@given(OBJECTS, st.data())
def test_every_tolerant_rendering_reads_as_the_object(obj: dict[str, Any], data: Any) -> None:
    text = render(obj, data)
    assert first_json_object(text, tolerant=True) == (obj, (0, len(text)))


@given(GRADED, st.data())
def test_whitespace_comments_and_forms_do_not_change_the_value(
    obj: dict[str, Any], data: Any
) -> None:
    plain = extract(json.dumps(obj), V2)
    tolerant = extract(render(obj, data), V2)
    assert (tolerant.value, tolerant.rule) == (plain.value, plain.rule)


NO_BRACES = st.text(st.characters(blacklist_characters="{"), max_size=30)


@given(GRADED, st.sampled_from([None, 0, 2]), st.booleans(), NO_BRACES, st.text(max_size=30))
def test_standard_json_reads_the_same_under_v1_and_v2(
    obj: dict[str, Any], indent: int | None, ascii_only: bool, before: str, after: str
) -> None:
    text = before + json.dumps(obj, indent=indent, ensure_ascii=ascii_only) + after
    assert extract(text, V2) == extract(text, V1)
    assert first_json_object(text, tolerant=True) == first_json_object(text)


def test_standard_json_with_nan_reads_the_same() -> None:
    text = '{"isup_grade": NaN, "x": [Infinity, -Infinity]}'
    assert extract(text, V2) == extract(text, V1)
    found = first_json_object(text, tolerant=True)
    assert found is not None and math.isnan(found[0]["isup_grade"])


JSONISH = st.text(alphabet="{}[]:,'\"/*\\\n abNT019-.eE_$ue", max_size=60)


@given(st.text() | JSONISH)
def test_any_text_gives_an_extraction_and_never_raises(text: str) -> None:
    e = extract(text, V2)
    assert e.rule.startswith(("json-", "integer-fallback")) or e.rule == "not-found"
    assert e.span is None or 0 <= e.span[0] <= e.span[1] <= len(text)
    first_json_object(text, tolerant=True)


@pytest.mark.parametrize(
    ("unit", "rule"),
    [  # many failed starts: bounded work, no exception (each used to cost the text before it)
        ('{"a":1,', "json-invalid"),
        ("{a:1,", "json-invalid"),
        ("{'a':'b',", "json-invalid"),
        ("{/*", "not-found"),
        ("{//", "not-found"),
        ("{a:", "json-invalid"),
        ('{a:"x', "json-invalid"),
    ],
)
def test_hostile_inputs_are_bounded(unit: str, rule: str) -> None:
    text = unit * (100_000 // len(unit))
    assert extract(text, V2).rule == rule


# --- user presets and the command line --------------------------------------------------------


def test_a_toml_preset_may_read_tolerantly(tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    path.write_text(
        '[preset."json/gleason"]\nfamily = "json"\nfield = "gleason"\ntolerant = true\n'
        '[preset."json/grade2"]\nfamily = "json"\nbase = "json/isup_grade/v2"\n'
        '[preset."json/grade1"]\nfamily = "json"\nbase = "json/isup_grade"\n',
        encoding="utf-8",
    )
    presets = PresetSet.from_file(path)
    assert extract("{gleason: 7,}", "json/gleason", presets=presets).value == 7
    assert extract('{"isup_grade": 2,}', "json/grade2", presets=presets).value == 2
    assert extract('{"isup_grade": 2,}', "json/grade1", presets=presets).rule == "json-invalid"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('family = "json"\nfield = "g"\ntolerant = "yes"\n', "key 'preset.x.tolerant'"),
        ('family = "choice"\nbase = "choice/v3"\ntolerant = true\n', "key 'preset.x.tolerant'"),
    ],
)
def test_tolerant_is_a_boolean_of_json_presets(tmp_path: Path, body: str, message: str) -> None:
    path = tmp_path / "p.toml"
    path.write_text(f'[preset."x"]\n{body}', encoding="utf-8")
    with pytest.raises(PresetError, match=re.escape(message)):
        load_preset_file(path)


def test_json_v2_cannot_name_a_user_preset(tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    path.write_text('[preset."json/v2"]\nfamily = "json"\nfield = "g"\n', encoding="utf-8")
    with pytest.raises(PresetError, match="cannot name a preset"):
        load_preset_file(path)
