"""Labels: one labelling of the canonical rows (a preset or a stored parse), error rows masked."""

from __future__ import annotations

import dataclasses
import math

import polars as pl
import pytest

from answer_audit.analysis.audit import AuditSettings, audit
from answer_audit.analysis.diff import diff_labelings
from answer_audit.analysis.rescore import rescore
from answer_audit.parsers import ChoicePreset, PresetError, get_parser
from answer_audit.schemes.columns import mask_error_rows
from answer_audit.schemes.labels import (
    group_indices,
    kind_of,
    outside_choices,
    parser_labels,
    pick_normalizer,
    resolve_parser,
    stored_labels,
    truth_classes,
    with_choices,
)
from answer_audit.schemes.scheme import STORED, Scheme
from group_fixtures import nan_group_rows


def _frame(**columns: list[str | None]) -> pl.DataFrame:
    n = len(next(iter(columns.values())))
    ids: list[str | None] = [str(i) for i in range(n)]
    return pl.DataFrame({"id": ids, **columns}, schema={c: pl.String for c in ["id", *columns]})


# ------------------------------------------------------------------ presets and kinds


def test_resolve_parser_applies_choices_to_a_choice_preset_only() -> None:
    preset = resolve_parser("choice/v3", choices="ABCDE")
    assert isinstance(preset, ChoicePreset) and preset.choices == "abcde"
    assert resolve_parser(get_parser("freeform/v2")) is get_parser("freeform/v2")
    with pytest.raises(PresetError, match="choices apply to choice presets only"):
        resolve_parser("freeform/v2", choices="abcde")
    with pytest.raises(TypeError, match="parser must be a preset name"):
        resolve_parser(3)  # type: ignore[arg-type]  # wrong on purpose


def test_with_choices_changes_only_the_presets_with_the_default_choices() -> None:
    v4_preset = get_parser("choice/v4")
    assert isinstance(v4_preset, ChoicePreset)
    own = dataclasses.replace(v4_preset, name="mine/v1", choices="abc")
    presets = with_choices({"choice/v4": get_parser("choice/v4"), "mine/v1": own}, "abcde")
    v4 = presets["choice/v4"]
    assert isinstance(v4, ChoicePreset) and v4.choices == "abcde"
    assert presets["mine/v1"] is own
    assert with_choices(None, "abcde")["freeform/v2"] is get_parser("freeform/v2")


def test_kind_of_names_the_kind_a_preset_labels() -> None:
    assert [kind_of(get_parser(n)) for n in ("choice/v4", "freeform/v3", "number/v1")] == [
        "choice", "freeform", "freeform",
    ]  # fmt: skip


def test_pick_normalizer() -> None:
    assert pick_normalizer(None, "choice") == "v1" and pick_normalizer("v2", "freeform") == "v2"
    with pytest.raises(ValueError, match="not to json ones"):
        pick_normalizer("v2", "json")


def test_outside_choices_names_the_letters_no_scheme_can_extract() -> None:
    truths = pl.Series(["a", "e", "5", None, "f"])
    schemes = [Scheme("v4", "choice/v4"), Scheme("s", STORED), Scheme("v3", "choice/v3")]
    [note] = outside_choices(truths, schemes, None)
    assert note == (
        "truth letter(s) e, f are not among the choices 'abcd' of scheme(s) v4, v3, which can "
        "never extract them; pass --choices abcdef"
    )
    assert outside_choices(pl.Series(["a", "d"]), schemes, None) == []


# ------------------------------------------------------------------ labelling


def test_parser_labels_types_values_by_the_kind_and_masks_error_rows() -> None:
    frame = _frame(
        raw=["Answer: B", "Answer: C", "   ", "Answer: A", "no idea"],
        truth=["b", "b", "a", "a", None],
        error=[None, None, None, "timeout", None],
    )
    labels = parser_labels(frame, get_parser("choice/v4"), name="v4")
    assert (labels.name, labels.kind, len(labels)) == ("v4", "choice", 5)
    assert labels.values == ["b", "c", None, None, None]
    assert labels.rules[2:4] == ["no-output", "error"]
    assert labels.spans[2:4] == [None, None] and labels.spans[0] is not None
    assert labels.correct == [True, False, False, False, None]


def test_stored_labels_read_blank_values_as_missing_and_type_them_by_the_kind() -> None:
    frame = _frame(raw=["x", "x", "x", "x"], parsed=["2", " ", None, " B "],
                   truth=["b", "b", "b", None])  # fmt: skip
    labels = stored_labels(frame, "choice")
    assert labels.name == STORED
    assert labels.values == ["b", None, None, "b"]
    assert labels.rules == ["stored", "stored-missing", "stored-missing", "stored"]
    assert labels.correct == [True, False, False, None]


def test_stored_labels_from_values_given_in_row_order() -> None:
    frame = _frame(raw=["x", "x"], truth=["3", "4"])
    labels = stored_labels(frame, "json", ["3.0", "five"], name="stored:col")
    assert (labels.name, labels.values, labels.correct) == ("stored:col", [3, None], [True, False])
    assert labels.rules == ["stored", "stored-unparseable"]
    with pytest.raises(ValueError, match="stored:col: 1 stored values for 2 rows"):
        stored_labels(frame, "json", ["3"], name="stored:col")
    with pytest.raises(ValueError, match="no stored parse column was mapped"):
        stored_labels(frame, "json")


def test_free_form_values_stay_text_and_blank_ones_are_none() -> None:
    frame = _frame(raw=["x", "x"], parsed=["  Paris ", ""], truth=["paris", "paris"])
    labels = stored_labels(frame, "freeform", normalizer="v2")
    assert labels.values == ["  Paris ", None] and labels.correct == [True, False]


def test_mask_error_rows_marks_error_before_no_output() -> None:
    frame = _frame(raw=["a", " ", None, "b"], error=["boom", "boom", None, None])
    labelled = pl.DataFrame(
        {"value": ["a", "b", "c", "d"], "rule": ["r"] * 4, "span_start": [0, 0, 0, 0],
         "span_end": [1, 1, 1, 1], "correct": [True, True, None, True]}
    )  # fmt: skip
    masked = mask_error_rows(frame, labelled, no_output=True)
    assert masked["rule"].to_list() == ["error", "error", "no-output", "r"]
    assert masked["value"].to_list() == [None, None, None, "d"]
    assert masked["correct"].to_list() == [False, False, None, True]  # no truth stays None
    assert mask_error_rows(frame, labelled)["rule"].to_list() == ["error", "error", "r", "r"]


# ------------------------------------------------------------------ truths and groups


def test_truth_classes_without_a_truth_column() -> None:
    assert truth_classes(_frame(raw=["x", "y"]), "choice") == [None, None]


def test_group_indices_order_groups_by_text_and_keep_nan_one_group() -> None:
    frame = pl.DataFrame({"model": ["b", "a", "b", "a"], "t": [math.nan, 1.0, math.nan, 2.0]})
    assert group_indices(frame, ["model"]) == [(("a",), [1, 3]), (("b",), [0, 2])]
    groups = group_indices(frame, ["t"])
    assert [rows for _, rows in groups] == [[1], [3], [0, 2]]


# ------------------------------------------------------ one definition of groups and of error rows


def test_nan_group_is_one_group_in_rescore_and_diff_as_in_audit() -> None:
    frame = nan_group_rows()
    assert [len(idx) for _, idx in group_indices(frame, ["temp"])] == [1, 3]
    r = rescore(frame, "choice/v3", group_by=["temp"], n_boot=10)
    assert [g.comparison.rescored.n for g in r.groups] == [1, 3]
    d = diff_labelings(frame, "choice/v1", "choice/v3", group_by=["temp"])
    assert [g.agreement.n for g in d.groups] == [1, 3]
    a = audit(frame, settings=AuditSettings(kind="choice", group_by=("temp",), n_boot=10))
    assert a.coverage.groups == 2


def test_audit_rescore_and_diff_mask_the_same_error_rows() -> None:
    # "\x1c" is whitespace to Python's str.strip (the row rules) but not to Polars' default
    # strip: the audit (Polars) marked such an error cell as an error, rescore (Python) did not.
    frame = pl.DataFrame(
        {"id": ["1", "2", "3", "4"], "raw": ["Paris", "Paris", "Rome", "\x1c\x1d "],
         "truth": ["Paris"] * 4, "label": [True, True, False, False],
         "error": ["\x1c", "timeout", None, None], "parsed": ["Paris", "Paris", "Rome", ""]}
    )  # fmt: skip
    report = audit(frame, [Scheme("p", "freeform/v2", "v2")], AuditSettings(n_boot=10))
    audit_rules = report.rules["p"].overall
    assert audit_rules.get("error") == 1  # row 2 only
    from answer_audit.parsers import get_parser
    from answer_audit.schemes.labels import parser_labels, stored_labels

    labels = parser_labels(frame, get_parser("freeform/v2"))
    assert labels.rules[:2] == ["whole-text", "error"]
    assert labels.rules[3] == "no-output"  # blank to Python: no output, not an answer
    assert labels.correct == [True, False, False, False]
    assert stored_labels(frame, "freeform").rules[:2] == ["stored", "error"]
    assert diff_labelings(frame, "stored", "freeform/v2").rule_pairs == ()  # same rows masked


def test_outside_choices_says_nothing_when_most_truths_are_no_letter() -> None:
    # free-text truths whose numbers read as option numbers (14 -> n): more choices never help
    truths = pl.Series(["Paris", "14", "H2O", "5", "Tokyo", "9.8 m/s²"])
    assert outside_choices(truths, [Scheme("v4", "choice/v4")], None) == []
