"""The audit's typed result: the JSON shape `to_dict` gives, frozen parts, a docstring per field."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import json
from typing import Any

import polars as pl
import pytest

import answer_audit.analysis.audit_result as audit_result
import answer_audit.analysis.audit_settings as audit_settings
from answer_audit.analysis.audit import AuditResult, AuditSettings, audit

SETTINGS = ["kind", "group_by", "seed", "n_boot", "alpha", "max_examples", "choices", "schemes"]
COMPARISON = ["n", "flips", "stored_right_scheme_wrong", "stored_wrong_scheme_right",
              "stored_error_pct", "error_pct", "delta_pp", "delta_ci", "mcnemar_p"]  # fmt: skip
EXAMPLE = ["scheme", "id", "group", "truth", "stored_label", "scheme_label", "rule", "span", "raw",
           "raw_head", "raw_tail", "raw_chars", "stored_parse", "scheme_parse"]  # fmt: skip


@pytest.fixture(scope="module")
def result() -> AuditResult:
    t = pl.DataFrame(
        {"id": ["1", "2", "3", "4"],
         "raw": ["Paris.\nuser: Rome?", "Rome.\nuser: it is Paris", "draft Paris</think>Lyon",
                 "The U.S."],
         "parsed": ["Paris.\nuser: Rome?", "Rome.\nuser: it is Paris", "draft Paris</think>Lyon",
                    "The U.S."],
         "label": [True, True, True, False], "truth": ["Paris", "Paris", "Paris", "US"],
         "g": ["x", "x", "y", "y"]}
    )  # fmt: skip
    return audit(t, settings=AuditSettings(group_by=("g",), n_boot=50, max_examples=5))


def test_to_dict_keys_in_report_order(result: AuditResult) -> None:
    d = result.to_dict()
    assert list(d) == ["settings", "conclusions", "coverage", "consistency", "schemes", "cells", "markers",
                       "think", "rules", "examples", "notes"]  # fmt: skip
    assert list(d["settings"]) == SETTINGS
    assert d["settings"]["group_by"] == ("g",)
    assert d["settings"]["schemes"] == [s.spec for s in result.schemes]
    assert list(d["coverage"]) == ["rows", "scored", "skipped", "groups"]
    assert list(d["coverage"]["skipped"]) == ["no_truth", "no_stored_label"]
    assert list(d["consistency"]) == ["scheme", "n", "mismatches"]
    assert [list(s) for s in d["schemes"]] == [
        ["name", "parser", "normalizer", *COMPARISON, "max_abs_delta_pp", "significant_groups",
         "groups", "verdict"]
    ] * 4  # fmt: skip
    assert {tuple(c) for c in d["cells"]} == {("scheme", "group", *COMPARISON, "holm_p")}
    assert all(isinstance(c["delta_ci"], list) for c in d["cells"])
    assert list(d["markers"]) == ["raw_role", "raw_block", "parsed_role", "parsed_block"]
    assert list(d["think"]) == ["rows", "post_think_flips", "stored_right_post_think_wrong"]
    assert [list(e) for e in d["think"]["stored_right_post_think_wrong"]] == [
        ["id", "truth", "post_think"]
    ]
    assert list(d["rules"]) == ["parse_only", "parse_norm", "parse_v4"]
    assert {tuple(r) for r in d["rules"].values()} == {("overall", "groups")}
    assert list(d["rules"]["parse_only"]["groups"][0]) == ["group", "counts"]
    assert d["examples"] and {tuple(e) for e in d["examples"]} == {tuple(EXAMPLE)}
    assert all(e["span"] is None or isinstance(e["span"], list) for e in d["examples"])
    assert d["notes"] == []
    json.dumps(d)  # plain data


def test_the_readers_coverage_comes_first_and_keeps_its_order() -> None:
    t = pl.DataFrame({"id": ["1"], "raw": ["Paris"], "parsed": ["Paris"], "label": [True],
                      "truth": ["Paris"]})  # fmt: skip
    source = {"files": [{"source": "a.csv"}], "rows": 99, "rows_with_truth": 99, "runs": []}
    coverage = audit(t, source_coverage=source).to_dict()["coverage"]
    assert list(coverage) == ["files", "rows", "rows_with_truth", "runs", "scored", "skipped",
                              "groups"]  # fmt: skip
    assert (coverage["rows"], coverage["rows_with_truth"]) == (1, 1)  # the audit's own counts


def test_with_notes_returns_a_new_result(result: AuditResult) -> None:
    noted = result.with_notes("read 4 rows")
    assert noted.notes == (*result.notes, "read 4 rows")
    assert result.notes == () and noted.to_dict()["notes"] == ["read 4 rows"]


MODULES = (audit_settings, audit_result)


def _result_classes() -> list[type[Any]]:
    return [
        cls
        for module in MODULES
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if dataclasses.is_dataclass(cls) and cls.__module__ == module.__name__
    ]


def test_every_part_is_frozen(result: AuditResult) -> None:
    assert len(_result_classes()) >= 14
    assert all(cls.__dataclass_params__.frozen for cls in _result_classes())
    parts: list[object] = [result, result.settings, result.coverage, result.coverage.skipped,
                           result.consistency, result.schemes[0], result.schemes[0].overall,
                           result.cells[0], result.markers, result.think,
                           result.think.stored_right_post_think_wrong[0],
                           result.rules["parse_only"], result.rules["parse_only"].groups[0],
                           result.examples[0]]  # fmt: skip
    for part in parts:
        field = dataclasses.fields(part)[0].name  # type: ignore[arg-type]  # every part is a dataclass
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(part, field, None)
    assert isinstance(result.schemes, tuple) and isinstance(result.examples, tuple)


def test_every_field_has_a_docstring() -> None:
    classes = {
        node.name: node
        for module in MODULES
        for node in ast.parse(inspect.getsource(module)).body
        if isinstance(node, ast.ClassDef)
    }
    for cls in _result_classes():
        body = classes[cls.__name__].body
        for k, node in enumerate(body):
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                after = body[k + 1] if k + 1 < len(body) else None
                documented = (
                    isinstance(after, ast.Expr)
                    and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)
                )
                assert documented, f"{cls.__name__}.{node.target.id} has no docstring"


@pytest.mark.parametrize("length", [10, 300, 301, 387, 500, 501, 5000])
def test_a_flip_example_never_drops_the_end_of_its_raw_output(length: int) -> None:
    # An output of 301-500 characters showed only its first 300: the end, where the answer
    # usually is, was lost without a mark.
    import polars as pl

    from answer_audit.analysis.audit_examples import flip_example
    from answer_audit.analysis.audit_settings import AuditSettings

    raw = ("x" * (length - 7) + " Answer")[-length:]
    one = pl.DataFrame({"id": ["r1"], "raw": [raw], "truth": ["Answer"]})
    label = {"span_start": None, "span_end": None, "correct": True, "rule": "r"}
    example = flip_example("s", one, label, "Answer", False, AuditSettings())
    shown = example.raw_head + example.raw_tail
    assert raw.endswith(shown[-7:]) and shown.endswith(raw[-7:])
    assert example.raw_tail == "" or example.raw_head == raw[: len(example.raw_head)]
    if length <= 500:
        assert example.raw_head == raw
