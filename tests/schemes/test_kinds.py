"""The Kind objects: one value-typing rule, one matcher and one set of defaults per kind."""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from answer_audit.cli import app
from answer_audit.extraction import NOT_FOUND, Extraction
from answer_audit.parsers import BUILTIN, PresetError, get_parser
from answer_audit.schemes.apply import apply_scheme, label_value, stored_extraction
from answer_audit.schemes.extract import extract_column
from answer_audit.schemes.kinds import (
    CHOICE,
    FREEFORM,
    JSON,
    KINDS,
    NUMBER,
    Kind,
    choice_key,
    get_kind,
    integer_value,
    parser_kind,
)
from answer_audit.schemes.labels import stored_labels, truth_classes
from answer_audit.schemes.scheme import STORED, Scheme

runner = CliRunner()

# ------------------------------------------------------------------ the registry


def test_the_registry_holds_one_object_per_kind_in_message_order() -> None:
    assert list(KINDS) == ["freeform", "choice", "json", "number"]
    assert [KINDS[name] for name in KINDS] == [FREEFORM, CHOICE, JSON, NUMBER]
    assert all(kind.name == name and str(kind) == name for name, kind in KINDS.items())


def test_get_kind_takes_a_name_or_a_kind_and_refuses_unknown_names() -> None:
    assert get_kind("json") is JSON
    assert get_kind(CHOICE) is CHOICE
    with pytest.raises(ValueError, match="kind must be one of freeform, choice, json, number"):
        get_kind("mcq")


def test_a_kind_sent_to_a_worker_process_comes_back_as_the_registry_object() -> None:
    assert all(pickle.loads(pickle.dumps(kind)) is kind for kind in KINDS.values())


def test_a_presets_kind_is_its_familys_and_number_presets_read_free_form_data() -> None:
    assert parser_kind(get_parser("choice/v4")) is CHOICE
    assert parser_kind(get_parser("freeform/v3")) is FREEFORM
    assert parser_kind(get_parser("number/v1")) is FREEFORM
    json_preset = next(p for p in BUILTIN.values() if p.family == "json")
    assert parser_kind(json_preset) is JSON


@dataclass(frozen=True)
class _OddParser:
    name: str = "odd"
    family: str = "number"  # a family name that is a kind name but not the kind's family

    def extract(self, text: str) -> Extraction:
        return NOT_FOUND

    def describe(self) -> list[str]:
        return []


def test_a_family_without_a_matcher_is_refused() -> None:
    with pytest.raises(PresetError, match="has family 'number'; no matcher for it"):
        parser_kind(_OddParser())


# ------------------------------------------------------------------ value typing

# The table of the module docstring: input -> (freeform and number, choice, json) values.
TYPING: list[tuple[object, tuple[object, object, object]]] = [
    ("3.0", ("3.0", "3.0", 3)),
    (" 3 ", (" 3 ", "c", 3)),
    (3.5, ("3.5", "3.5", None)),
    ("", (None, None, None)),
    (None, (None, None, None)),
]


@pytest.mark.parametrize(("raw", "expected"), TYPING)
def test_values_are_typed_as_the_module_docstring_says(
    raw: object, expected: tuple[object, object, object]
) -> None:
    text, choice, json_value = expected
    assert FREEFORM.value(raw) == text and NUMBER.value(raw) == text
    assert CHOICE.value(raw) == choice
    assert JSON.value(raw) == json_value


@pytest.mark.parametrize(
    ("truth", "expected"),
    [("3.0", 3), (" 3 ", 3), ("3.5", "3.5"), ("", None), (None, None), (" X ", "x")],
)
def test_json_truths_keep_text_that_spells_no_integer(truth: str | None, expected: object) -> None:
    assert JSON.truth_key(truth) == expected


def test_choice_values_and_truths_share_one_rule() -> None:
    for text in ("B", " 2 ", "02", "27", "e", " ", "9" * 5000):
        assert CHOICE.value(text) == CHOICE.truth_key(text) == choice_key(text)
    assert [choice_key(t) for t in ("B", "02", "0001", "26", "27", "0")] == [
        "b", "b", "a", "z", "27", "0",
    ]  # fmt: skip


def test_free_form_truths_stay_as_they_are_and_the_matcher_decides() -> None:
    assert FREEFORM.truth_key("  ") == "  " and FREEFORM.truth_key(None) is None
    assert FREEFORM.correct("anything", "  ") is None  # a blank truth is no truth


@pytest.mark.parametrize(
    ("text", "expected"),
    [("3", 3), (" 3 ", 3), ("3.0", 3), ("3e0", 3), ("1e3", 1000), ("-2", -2),
     ("2.7", None), ("inf", None), ("nan", None), ("", None), ("abc", None)],
)  # fmt: skip
def test_integer_value(text: str, expected: int | None) -> None:
    assert integer_value(text) == expected


def test_json_values_that_are_already_numbers() -> None:
    assert JSON.value(7) == 7 and JSON.value(3.0) == 3
    assert JSON.value(float("inf")) is None and JSON.value(True) is None


@pytest.mark.parametrize(
    ("kind", "parsed", "value", "rule"),
    [
        (JSON, "3.0", 3, "stored"),
        (JSON, " 3 ", 3, "stored"),
        (JSON, "2.7", None, "stored-unparseable"),
        (JSON, "", None, "stored-unparseable"),
        (JSON, None, None, "stored-missing"),
        (CHOICE, " B ", " B ", "stored"),  # the table keeps the text; typing comes later
        (CHOICE, None, None, "stored-missing"),
        (FREEFORM, "Paris", "Paris", "stored"),
        (FREEFORM, "", "", "stored"),
    ],
)
def test_stored_extraction(kind: Kind, parsed: str | None, value: object, rule: str) -> None:
    found = kind.stored_extraction(parsed)
    assert (found.value, found.rule) == (value, rule)


def test_the_stored_column_is_the_stored_extraction_of_every_row() -> None:
    parsed = ["3.0", None, "b", " 2 ", "", "x"]
    frame = pl.DataFrame({"parsed": parsed}, schema={"parsed": pl.String})
    for kind in KINDS.values():
        column = kind.stored_column(frame)
        expected = [kind.stored_extraction(p) for p in parsed]
        assert column["rule"].to_list() == [e.rule for e in expected]
        assert column["value"].to_list() == [
            None if e.value is None else str(e.value) for e in expected
        ]


def test_every_site_types_a_value_the_same_way() -> None:
    """The stored parse through the audit's columns, the rescore/diff Labels and the matcher:
    one rule per kind (a JSON ``"3.0"`` is 3 everywhere)."""
    frame = pl.DataFrame(
        {"id": ["1", "2", "3", "4"], "raw": ["x", "x", "x", "x"],
         "parsed": ["3.0", " 3 ", "2.7", "1e0"], "truth": ["3", "3.0", "2.7", "1"]}
    )  # fmt: skip
    column = extract_column(frame, STORED, "json")
    labels = stored_labels(frame, "json")
    assert column["value"].to_list() == ["3", "3", None, "1"]
    assert labels.values == [3, 3, None, 1]
    assert labels.values == [JSON.value(p) for p in frame["parsed"]]
    assert labels.correct == [True, True, False, True]
    assert labels.correct == [
        label_value(p, t, "json") for p, t in frame.select("parsed", "truth").iter_rows()
    ]


def test_truth_classes_are_the_kinds_keys() -> None:
    frame = pl.DataFrame({"truth": ["2", " B ", None, "3.0"]})
    assert truth_classes(frame, "choice") == ["b", "b", None, "3.0"]
    assert truth_classes(frame, "json") == ["2", "b", None, "3"]
    assert truth_classes(frame, "freeform") == ["2", " B ", None, "3.0"]


# ------------------------------------------------------------------ matching


def test_matching_per_kind() -> None:
    assert label_value(3, "3.0", "json") is True
    assert label_value(2, "2.7", "json") is False
    assert label_value(None, "2", "json") is False
    assert label_value(2, None, "json") is None
    assert label_value("b", "2", "choice") is True and label_value("B", " b ", "choice") is True
    assert label_value("a", "²", "choice") is False
    assert label_value("It is 18.", "8", "freeform") is False
    assert label_value("$1,234.50", "1234.5", "number", "numeric") is True


def test_apply_scheme_labels_with_the_kinds_matcher() -> None:
    frame = pl.DataFrame({"id": ["1", "2", "3"], "raw": ["Answer: B", "Answer: 2", None],
                          "truth": ["b", "2", "c"]})  # fmt: skip
    table = apply_scheme(frame, Scheme("v4", "choice/v4"), CHOICE)
    expected = [CHOICE.correct(v, t) for v, t in zip(table["value"], frame["truth"], strict=True)]
    assert table["correct"].to_list() == expected == [True, True, False]


def test_agreement_keys() -> None:
    assert FREEFORM.agreement_key("The U.S.", "v2") == FREEFORM.agreement_key("the us", "v2")
    assert FREEFORM.agreement_key("!!", "v2") is None  # nothing left after normalizing
    assert CHOICE.agreement_key("b") == "b" and JSON.agreement_key(3) == 3


def test_pick_normalizer() -> None:
    assert FREEFORM.pick_normalizer(None) == "v1" and NUMBER.pick_normalizer(None) == "numeric"
    assert CHOICE.pick_normalizer(None) == "v1" and FREEFORM.pick_normalizer("v3") == "v3"
    with pytest.raises(ValueError, match="unknown normalizer 'v9'"):
        FREEFORM.pick_normalizer("v9")
    for named in ("v1", "v2"):  # even v1, when named: a normalizer for letters is a mistake
        with pytest.raises(ValueError, match="free-form parsers only, not to choice ones"):
            CHOICE.pick_normalizer(named)


def test_check_scheme() -> None:
    CHOICE.check_scheme(Scheme("s", STORED))
    FREEFORM.check_scheme(Scheme("n", "number/v1", "numeric"))
    NUMBER.check_scheme(Scheme("n", "number/v1", "numeric"))
    with pytest.raises(PresetError, match=r"not to json ones .* write j=stored"):
        JSON.check_scheme(Scheme("j", STORED, "v2"))
    with pytest.raises(PresetError, match="pass --kind choice or pick a freeform preset"):
        FREEFORM.check_scheme(Scheme("c", "choice/v4"))


# ------------------------------------------------------------------ defaults, display


def test_default_schemes() -> None:
    assert [s.spec() for s in FREEFORM.default_schemes()] == [
        "parse_only=freeform/v2:v1", "parse_norm=freeform/v2:v2", "norm_only=stored:v2",
        "parse_v4=freeform/v4:v5",
    ]  # fmt: skip
    choice = [s.parser for s in CHOICE.default_schemes()]
    assert choice == sorted(n for n, p in BUILTIN.items() if p.family == "choice")
    assert {s.normalizer for s in [*CHOICE.default_schemes(), *JSON.default_schemes()]} == {"v1"}
    assert all(get_parser(s.parser).family == "json" for s in JSON.default_schemes())
    assert [s.spec() for s in NUMBER.default_schemes()] == [
        "number/v1=number/v1:numeric", "number/v2=number/v2:numeric",
        "number/v3=number/v3:numeric", "number/v4=number/v4:numeric",
        "stored_numeric=stored:numeric",
    ]  # fmt: skip
    for kind in KINDS.values():
        for scheme in kind.default_schemes():
            kind.check_scheme(scheme)


def test_defaults_and_display() -> None:
    assert CHOICE.default_choices == "abcd"
    assert [k.name for k in KINDS.values() if k.default_choices is not None] == ["choice"]
    assert [k.name for k in KINDS.values() if k.value_dtype == pl.Int64] == ["json"]
    assert [k.name for k in KINDS.values() if k.closed_values] == ["choice", "json"]
    assert [k.name for k in KINDS.values() if k.compares_text] == ["freeform", "number"]
    assert JSON.display(3) == "3" and CHOICE.display("b") == "b" and FREEFORM.display(None) is None


# --------------------------------------------------- numbers the JSON and choice kinds cannot read


@pytest.mark.parametrize("text", ["inf", "-inf", "1e400"])
def test_json_kind_infinite_values_do_not_crash(text: str) -> None:
    assert stored_extraction(text, "json").value is None
    assert label_value(2, text, "json", "v1") is False


def test_json_kind_non_integer_truth_is_not_truncated() -> None:
    assert label_value(2, "2.7", "json", "v1") is False
    assert label_value(3, "3.0", "json", "v1") is True
    assert stored_extraction("2.7", "json").value is None
    assert stored_extraction("3.0", "json").value == 3


def test_choice_truth_with_a_superscript_digit_is_not_an_error(tmp_path: Path) -> None:
    # "²".isdigit() is True but int("²") fails: the truth is simply a class of its own.
    assert label_value("a", "²", "choice", "v1") is False
    path = tmp_path / "s.csv"
    path.write_text("raw,truth,parsed\nAnswer: a,²,a\n", encoding="utf-8")
    result = runner.invoke(app, ["rescore", str(path), "-p", "choice/v3", "--parsed", "parsed"])
    assert result.exit_code == 0, result.stderr
