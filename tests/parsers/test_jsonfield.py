import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from answer_audit import extract, extract_json_field, first_json_object
from answer_audit.parsers.jsonfield import _DECODER, _decode_at


@pytest.mark.parametrize(
    ("text", "value", "rule"),
    [
        ('{"isup_grade": 3}', 3, "json-value"),
        ('{"primary_pattern": null, "isup_grade": null}', 0, "json-null"),
        ('{"reasoning": "no key 5"}', None, "json-missing-key"),
        ('{"isup_grade": 6}', None, "json-out-of-range"),
        ('Here: {"isup_grade": 2} I hope this helps', 2, "json-value"),
        ('{"isup_grade": 2}}', 2, "json-value"),
        ("The ISUP grade is 4", 4, "integer-fallback"),
        ('{"isup_grade": "3"}', 3, "json-value"),
        ('{"isup_grade": 3.0}', 3, "json-value"),
        ('{"isup_grade": 3.5}', None, "json-not-integer"),
        ('{"isup_grade": true}', None, "json-not-integer"),
        ('{"isup_grade": "high"}', None, "json-not-integer"),
        ('```json\n{"isup_grade": 1}\n```', 1, "json-value"),
        ('{"isup_grade": 1,}', None, "json-invalid"),  # invalid JSON: no integer fallback
        ("The tumour sits at x=1700 px", None, "integer-fallback-out-of-range"),
        ("grade 3.5 maybe", None, "not-found"),
        ("", None, "not-found"),
    ],
)
def test_isup_grade_preset(text: str, value: int | None, rule: str) -> None:
    e = extract(text, "json/isup_grade")
    assert (e.value, e.rule) == (value, rule)


def test_spans_point_at_the_value() -> None:
    text = 'Here: {"isup_grade": 2} I hope this helps'
    e = extract(text, "json/isup_grade")
    assert e.span is not None and text[e.span[0] : e.span[1]] == "2"


def test_missing_key_is_never_the_null_value() -> None:
    e = extract_json_field('{"other": 1}', "isup_grade", null_as=0)
    assert (e.value, e.rule) == (None, "json-missing-key")


def test_no_fallback_when_disabled() -> None:
    e = extract_json_field("grade 4", "isup_grade", integer_fallback=False)
    assert (e.value, e.rule) == (None, "not-found")


def test_first_json_object_accept_predicate_and_model() -> None:
    text = 'a {"kind": "draft"} then {"kind": "final", "grade": 2} end'
    obj = first_json_object(text, accept=lambda o: o.get("kind") == "final")
    assert obj is not None and obj[0]["grade"] == 2
    assert text[obj[1][0] : obj[1][1]] == '{"kind": "final", "grade": 2}'

    class Graded(BaseModel):
        grade: int

    obj = first_json_object(text, accept=Graded)
    assert obj is not None and obj[0] == {"kind": "final", "grade": 2}
    assert first_json_object("no json here") is None


def test_hostile_json_inputs_are_bounded_and_do_not_raise() -> None:
    assert first_json_object("{" * 1_000_000) is None
    assert first_json_object('{"a":' * 100_000) is None
    deep_then_valid = '{"a":' * 3000 + ' x {"isup_grade": 4}'
    # the deep prefix is given up on without RecursionError; the result is well-defined
    extract(deep_then_valid, "json/isup_grade")


@pytest.mark.parametrize(
    ("text", "rule"),
    [  # integers longer than Python converts by default (4300 digits) raised ValueError
        ('{"isup_grade": ' + "9" * 5000 + "}", "json-not-integer"),  # read like 1e999
        ('{"isup_grade": -' + "9" * 5000 + "}", "json-not-integer"),
        ('{"isup_grade": "' + "9" * 5000 + '"}', "json-not-integer"),
        ("grade " + "9" * 5000, "integer-fallback-out-of-range"),
        ('{"isup_grade": 1' + "0" * 4299 + "}", "json-out-of-range"),  # at the bound: an int
    ],
)
def test_huge_integers_are_outcomes_not_errors(text: str, rule: str) -> None:
    assert extract(text, "json/isup_grade").rule == rule
    direct = extract_json_field(text, "isup_grade")  # no allowed range
    assert direct.rule == ("json-value" if rule == "json-out-of-range" else rule)


def test_a_huge_decimal_truth_is_no_option_number() -> None:
    from answer_audit.schemes.apply import truth_key

    assert truth_key("9" * 5000, "choice") == "9" * 5000
    assert truth_key("02", "choice") == "b" and truth_key("0001", "choice") == "a"


# The standard decoder reads a growing window of the text (each failed decode used to count
# the lines of the whole text before it): the outcome must be the decoder's on the whole text.

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=10,
)
NEARLY_JSON = st.builds(
    lambda value, cut, junk: json.dumps(value)[: cut or None] + junk,
    JSON_VALUES,
    st.integers(-40, 0),
    st.text(alphabet='"\\u0123456789abcdef{}[],: \n-IeN', max_size=12),
)
JSONISH = st.text(alphabet="{}[]:,'\"/*\\\n abNT019-.eE_$ue", max_size=60)


def _decode_whole(text: str) -> tuple[Any, int] | int:
    try:
        value, end = _DECODER.raw_decode(text)
    except json.JSONDecodeError as err:
        return err.pos
    return value, end


@given(NEARLY_JSON | JSONISH.map(lambda t: "{" + t), st.integers(1, 48))
def test_a_windowed_decode_is_the_decoders(text: str, window: int) -> None:
    assert repr(_decode_at(text, 0, window)) == repr(_decode_whole(text))  # repr: NaN


def test_many_failed_objects_are_linear_work_with_v1s_outcome() -> None:
    text = '{"a":1,' * 20_000  # each failed decode used to cost the text before it
    assert extract(text, "json/isup_grade").rule == "json-invalid"
    assert extract(text + ' {"isup_grade": 2}', "json/isup_grade").value == 2  # within budget
