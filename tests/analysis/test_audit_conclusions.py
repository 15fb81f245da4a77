"""The audit's conclusions: counted per slice, masked like the audit, named honestly."""

from __future__ import annotations

import polars as pl
import pytest

from answer_audit.analysis import audit as audit_module
from answer_audit.analysis.audit import AuditSettings, audit
from answer_audit.analysis.conclusions_section import ASK_FOR_CONCLUSIONS
from answer_audit.schemes.apply import parse_scheme
from conclusion_fixtures import EVERY_STATUS, status_frame

SETTINGS = AuditSettings(group_by=("case",), compare="cond", baseline="control", item="q",
                         n_boot=2000)  # fmt: skip
NEW = [parse_scheme("new=stored:numeric")]


def test_every_status_from_the_audit_table() -> None:
    result = audit(status_frame(), NEW, SETTINGS)
    assert result.conclusions is not None
    statuses = {c.stratum["case"]: c.status for c in result.conclusions.conclusions.contrasts}
    assert statuses == {case: case for case in EVERY_STATUS}


def test_slices_and_workers_give_the_same_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    whole = audit(status_frame(), NEW, SETTINGS).to_dict()["conclusions"]
    monkeypatch.setattr(audit_module, "CHUNK_ROWS", 97)  # slices that cut strata and items
    sliced = audit(status_frame(), NEW, SETTINGS, workers=2).to_dict()["conclusions"]
    assert sliced == whole


def test_json_object_has_the_issue_keys_and_stored_holm_p() -> None:
    data = audit(status_frame(), NEW, SETTINGS).to_dict()["conclusions"]
    assert list(data) == ["settings", "stored", "verdict", "contrasts", "rankings", "levels"]
    assert data["settings"] == {"compare": "cond", "baseline": "control", "strata": ["case"],
                                "item": "q"}  # fmt: skip
    assert data["stored"] == "stored"
    assert list(data["contrasts"][0]) == [
        "scheme", "stratum", "level", "baseline", "stored_effect_pp", "stored_ci", "stored_p",
        "stored_holm_p", "effect_pp", "ci", "p", "holm_p", "change_pp", "change_ci", "status",
    ]  # fmt: skip
    assert list(data["rankings"][0]) == ["scheme", "stratum", "stored_order", "order",
                                         "kendall_tau", "best_changed", "p_best"]  # fmt: skip
    statuses = [c["status"] for c in data["contrasts"]]
    assert statuses[0] == "significant reversal" and statuses[-1] == "same"  # changed first


def test_without_compare_there_are_no_conclusions_and_a_hint() -> None:
    result = audit(status_frame(), NEW, AuditSettings(group_by=("case",)))
    assert result.conclusions is None
    assert result.to_dict()["conclusions"] is None
    assert result.conclusions_hint == ASK_FOR_CONCLUSIONS


def test_rows_without_a_truth_are_unscored_even_with_a_stored_label() -> None:
    # opinion items: no truth, stored label 0 (as in the conformity runs)
    table = pl.DataFrame({
        "raw": ["a", "b", "c", "d", "e", "f"], "parsed": ["1", "1", "2", "1", "x", "y"],
        "label": [True, True, False, True, False, False],
        "truth": ["1", "1", "1", "1", None, None], "cond": ["c", "c", "t", "t", "t", "t"],
    })  # fmt: skip
    settings = AuditSettings(compare="cond", baseline="c", n_boot=50)
    result = audit(table, NEW, settings)
    assert result.conclusions is not None
    scored = {(lv.labelling, lv.level): lv.scored for lv in result.conclusions.conclusions.levels}
    assert scored == {("stored", "c"): 2, ("stored", "t"): 2, ("new", "c"): 2, ("new", "t"): 2}
    assert result.coverage.skipped.no_truth == 2


def test_a_scheme_equal_to_the_stored_labels_changes_nothing() -> None:
    frame = status_frame().with_columns(label=pl.col("new_ok").cast(pl.Int64))
    frame = frame.filter(pl.col("case") != "not estimable")
    result = audit(frame, NEW, SETTINGS)
    assert result.conclusions is not None
    contrasts = result.conclusions.conclusions.contrasts
    assert {c.status for c in contrasts} == {"same"}
    assert {c.change_pp for c in contrasts} == {0.0}
    assert result.conclusions.verdict().startswith("Conclusions hold")


def test_without_recorded_labels_stored_is_the_stored_parse_rematched() -> None:
    frame = status_frame().drop("label").filter(pl.col("case") == "gained")
    result = audit(frame, NEW, SETTINGS)
    assert result.conclusions is not None
    assert result.stored_name == result.conclusions.stored_name
    assert result.stored_name == "stored parse, re-matched by v1"
    assert result.to_dict()["conclusions"]["stored"] == "stored parse, re-matched by v1"


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (dict(baseline="control"), r"baseline \(--baseline\) needs compare"),
        (dict(item="q"), r"item \(--item\) needs compare"),
        (dict(compare="cond", item="case", group_by=("case",)), "also a group-by column"),
    ],
)
def test_settings_refuse_what_cannot_be_compared(settings: dict[str, object],
                                                 message: str) -> None:  # fmt: skip
    with pytest.raises(ValueError, match=message):
        AuditSettings(**settings)  # type: ignore[arg-type]


def test_a_missing_compare_or_item_column_is_named() -> None:
    settings = AuditSettings(compare="model", item="question")
    with pytest.raises(ValueError, match="model, question"):
        audit(status_frame(), NEW, settings)


def test_compare_may_be_a_group_column_or_another_column() -> None:
    outside = audit(status_frame(), NEW, SETTINGS)  # cond is not a group-by column
    grouped = AuditSettings(group_by=("case", "cond"), compare="cond", baseline="control",
                            item="q", n_boot=2000)  # fmt: skip
    inside = audit(status_frame(), NEW, grouped)
    assert inside.conclusions is not None
    assert inside.conclusions.settings.strata == ("case",)
    assert inside.to_dict()["conclusions"] == outside.to_dict()["conclusions"]
