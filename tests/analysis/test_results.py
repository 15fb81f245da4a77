"""The typed rescore and diff results: frozen, documented field by field, and ``to_dict()`` in
the exact shape of the JSON reports (keys and their order)."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import polars as pl
import pytest

from answer_audit.analysis import diff_result, incidence, metrics, records, rescore_result
from answer_audit.analysis.diff import DiffResult, diff_labelings
from answer_audit.analysis.rescore import RescoreResult, rescore

RESULT_MODULES = (rescore_result, diff_result, metrics, incidence)

# Stored parse, stored label, two groups, a wrong and a missing answer: every part is filled.
TABLE = pl.DataFrame({
    "id": ["1", "2", "3", "4"],
    "raw": ["Answer: b", "Answer: c", "no idea", "Answer: a"],
    "parsed": ["b", "a", "d", "a"],
    "label": [True, True, False, True],  # row 2: the runner matched differently
    "truth": ["b", "c", "a", "a"],
    "g": ["x", "x", "y", "y"],
})  # fmt: skip

METRICS = {
    "n": None, "accuracy": None, "balanced_accuracy": None, "per_class_recall": None,
    "failures": None, "errors": None,
    "bootstrap": {"accuracy": {"mean": None, "std": None, "ci": None},
                  "balanced_accuracy": {"mean": None, "std": None, "ci": None}},
}  # fmt: skip
COMPARISON = {
    "stored": METRICS, "rescored": METRICS, "accuracy_delta": None, "flips": None,
    "stored_only_correct": None, "rescored_only_correct": None, "mcnemar_p": None,
    "stored_label": {"n": None, "accuracy": None, "disagreements": None, "disagreement_ids": None},
}  # fmt: skip
RESCORE_SHAPE = {
    "parser": None, "family": None, "normalizer": None,
    "settings": {"group_by": None, "bootstrap": None, "seed": None, "ci": None, "choices": None},
    "coverage": {"rows": None, "scored": None, "no_truth": None, "groups": None},
    "overall": COMPARISON,
    "groups": [{"group": {"g": None}, **COMPARISON, "incidence": None}],
    "incidence": {"by": None, "classes": None, "categories": [{
        "category": None, "description": None, "rules": None, "n": None, "scored": None,
        "correct": None, "truth": None, "values": None}]},
    "confusion": {"labels": None, "matrix": None},
    "notes": None,
    "conclusions": None,
    "value_changes": {"changed": None, "pairs": None, "top": [{"before": None, "after": None,
                                                               "n": None}]},
}  # fmt: skip
ACCURACY = {"n": None, "a": None, "b": None, "delta": None, "a_only_correct": None,
            "b_only_correct": None, "mcnemar_p": None}  # fmt: skip
SIDE = {"id": None, "value": None, "label": None, "rule": None, "span": None, "correct": None,
        "snippet": None}  # fmt: skip
DIFF_SHAPE = {
    "a": None, "b": None, "family": None, "align": None, "n": None,
    "agreement": {"n": None, "agree": None, "rate": None, "both_none": None},
    "confusion": {"labels": None, "matrix": None},
    "accuracy": ACCURACY,
    "groups": [{"group": {"g": None}, "n": None, "agree": None, "rate": None, "both_none": None,
                "accuracy": ACCURACY}],
    "rule_pairs": [{"a": None, "b": None, "n": None}],
    "disagreements": [{"id": None, "truth": None, "a": SIDE, "b": SIDE}],
    "notes": None,
    "conclusions": None,
    "value_changes": {"changed": None, "pairs": None, "top": [{"before": None, "after": None,
                                                               "n": None}]},
}  # fmt: skip


DATA_KEYED = {"per_class_recall", "truth", "values"}  # objects keyed by data, not by field


def shape(data: Any, key: str = "") -> Any:
    """The nested keys of JSON data, in order: objects by their keys, arrays of objects by their
    first element's shape, everything else (and objects keyed by data) None."""
    counts = key == "incidence" and all(isinstance(v, int) for v in data.values())
    if isinstance(data, dict) and key not in DATA_KEYED and not counts:
        return {k: shape(v, k) for k, v in data.items()}
    if isinstance(data, list) and data and isinstance(data[0], dict):
        return [shape(data[0])]
    return None


def ordered(data: Any) -> Any:
    """JSON data with every object as a list of (key, value) pairs: equality checks the order."""
    if isinstance(data, dict):
        return [(k, ordered(v)) for k, v in data.items()]
    if isinstance(data, list):
        return [ordered(v) for v in data]
    return data


@pytest.fixture(scope="module")
def rescored() -> RescoreResult:
    return rescore(TABLE, "choice/v3", group_by=["g"], n_boot=20, seed=1)


@pytest.fixture(scope="module")
def diffed() -> DiffResult:
    return diff_labelings(TABLE, "stored", "choice/v3", group_by=["g"])


def test_rescore_to_dict_has_the_reports_keys_in_order(rescored: RescoreResult) -> None:
    data = rescored.to_dict()
    assert ordered(shape(data)) == ordered(RESCORE_SHAPE)
    assert data["overall"]["stored_label"]["disagreement_ids"] == ["2"]
    assert data["groups"][0]["incidence"] == {"answer-line": 2, "not-found": 0}
    assert data["settings"]["group_by"] == ["g"]


def test_rescore_without_a_stored_parse_keeps_every_key_as_null() -> None:
    data = rescore(TABLE.drop("parsed", "label"), "choice/v3", n_boot=20).to_dict()
    overall = data["overall"]
    assert list(overall) == list(COMPARISON)
    assert [overall[k] for k in COMPARISON if k != "rescored"] == [None] * 7
    assert data["confusion"] is None and data["groups"] == []


def test_diff_to_dict_has_the_reports_keys_in_order(diffed: DiffResult) -> None:
    data = diffed.to_dict()
    assert ordered(shape(data)) == ordered(DIFF_SHAPE)
    assert data["disagreements"][0]["b"]["span"] == [8, 9]


def test_to_dict_is_plain_json_that_round_trips(
    rescored: RescoreResult, diffed: DiffResult
) -> None:
    for result in (rescored, diffed):
        data = result.to_dict()
        assert json.loads(json.dumps(data)) == data  # no tuples, no objects: lists and dicts
        assert result.to_dict() == data  # a fresh copy each time, the same


def test_coverage_of_a_loaded_table_comes_after_the_loaders(tmp_path: Path) -> None:
    from answer_audit.sources import ColumnMap, load_files

    path = tmp_path / "t.csv"
    TABLE.write_csv(path)
    loaded = load_files([path], ColumnMap(id="id", raw="raw", parsed="parsed", truth="truth"))
    coverage = rescore(loaded, "choice/v3", n_boot=20).to_dict()["coverage"]
    assert list(coverage)[:2] == ["files", "rows"]  # the loader's keys keep their places
    assert list(coverage)[-3:] == ["scored", "no_truth", "groups"]
    assert coverage["rows_with_truth"] == coverage["scored"] == 4


def parts(value: Any) -> Iterator[Any]:
    """Every result record reachable from ``value``."""
    if isinstance(value, records.JsonRecord):
        yield value
        for f in dataclasses.fields(value):  # type: ignore[arg-type]  # every JsonRecord is a dataclass
            yield from parts(getattr(value, f.name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from parts(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from parts(item)


def test_every_part_is_frozen(rescored: RescoreResult, diffed: DiffResult) -> None:
    found = {type(p) for p in [*parts(rescored), *parts(diffed)]}
    assert len(found) >= 21  # every record type of both results
    for part in [*parts(rescored), *parts(diffed)]:
        first = dataclasses.fields(part)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(part, first, None)
    assert isinstance(rescored.groups, tuple) and isinstance(diffed.disagreements, tuple)


def test_equal_results_compare_equal_without_comparing_row_frames(
    rescored: RescoreResult,
) -> None:
    again = rescore(TABLE, "choice/v3", group_by=["g"], n_boot=20, seed=1)
    assert again == rescored and again.rows.equals(rescored.rows)


def _records(module: ModuleType) -> Iterator[type]:
    for _, cls in inspect.getmembers(module, inspect.isclass):
        if cls.__module__ == module.__name__ and dataclasses.is_dataclass(cls):
            yield cls


@pytest.mark.parametrize("module", RESULT_MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[1])
def test_every_field_has_a_docstring(module: ModuleType) -> None:
    tree = ast.parse(inspect.getsource(module))
    undocumented, checked = [], 0
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef) or node.name not in {
            c.__name__ for c in _records(module)
        }:
            continue
        body = node.body
        for k, statement in enumerate(body):
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                checked += 1
                following = body[k + 1] if k + 1 < len(body) else None
                documented = (
                    isinstance(following, ast.Expr)
                    and isinstance(following.value, ast.Constant)
                    and isinstance(following.value.value, str)
                )
                if not documented:
                    undocumented.append(f"{node.name}.{statement.target.id}")
    assert checked and undocumented == []
