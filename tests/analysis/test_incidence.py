"""Incidence: confusion matrices, and value comparisons of two labellings (a confusion matrix for
small closed sets, the most frequent changes otherwise, and always in the JSON)."""

from __future__ import annotations

import polars as pl

from answer_audit.analysis.diff import diff_labelings
from answer_audit.analysis.incidence import (
    MAX_CONFUSION_LABELS,
    TOP_CHANGES,
    ValueChange,
    confusion,
    value_comparison,
)
from answer_audit.analysis.rescore import rescore


def test_choice_letters_get_a_matrix_and_the_changes() -> None:
    matrix, changes = value_comparison("choice", ["a", "b", "b", None], ["a", "c", "c", "d"])
    assert matrix is not None and matrix.labels == ("a", "b", "c", "d", "none")
    assert changes.to_dict() == {"changed": 3, "pairs": 2, "top": [
        {"before": "b", "after": "c", "n": 2}, {"before": "none", "after": "d", "n": 1}]}  # fmt: skip


def test_text_that_is_no_choice_letter_gets_no_matrix() -> None:
    # inspect's match() stores the whole completion as the answer
    stored = ["17 + 25 = 42.", "the result is 63, not 73.", "b"]
    matrix, changes = value_comparison("choice", stored, [None, "c", "b"])
    assert matrix is None
    assert changes.top == (ValueChange("17 + 25 = 42.", "none", 1),
                           ValueChange("the result is 63, not 73.", "c", 1))  # fmt: skip


def test_more_values_than_a_matrix_can_show_get_the_changes() -> None:
    grades = list(range(MAX_CONFUSION_LABELS))  # with "none": one label too many
    matrix, changes = value_comparison("json", [*grades, None], [None, *grades])
    assert matrix is None
    assert changes.changed == len(grades) + 1 and len(changes.top) == TOP_CHANGES
    small, _ = value_comparison("json", grades[:-1], grades[1:])
    assert small is not None and len(small.labels) == MAX_CONFUSION_LABELS


def test_free_text_changes_are_counted_as_the_matcher_compares_them() -> None:
    _, v1 = value_comparison("freeform", ["Paris.", "H₂O"], ["Paris", "H2O"], "v1")
    _, v2 = value_comparison("freeform", ["Paris.", "H₂O"], ["Paris", "H2O"], "v2")
    assert [(c.before, c.after) for c in v1.top] == [("H₂O", "H2O")]
    assert v2.changed == 0 and v2.top == ()


def test_most_frequent_changes_first_then_by_text_values_whole() -> None:
    long = "x" * 500
    before = ["a", "a", "b", "c", long]
    _, changes = value_comparison("freeform", before, ["z", "z", "y", "y", "w"])
    assert [(c.before, c.after, c.n) for c in changes.top] == [
        ("a", "z", 2), ("b", "y", 1), ("c", "y", 1), (long, "w", 1)]  # fmt: skip


def test_rescore_and_diff_carry_the_changes_beside_the_matrix() -> None:
    table = pl.DataFrame({
        "id": ["1", "2", "3"], "raw": ["So: b. Answer: c", "The answer is a", "Answer: d"],
        "parsed": ["So: b. Answer: c", "The answer is a", "d"], "truth": ["c", "a", "d"],
    })  # fmt: skip
    r = rescore(table, "choice/v4", n_boot=10)
    assert r.confusion is None and r.value_changes is not None
    assert r.to_dict()["value_changes"]["top"][0] == {
        "before": "so: b. answer: c", "after": "c", "n": 1}  # fmt: skip
    d = diff_labelings(table, "stored", "choice/v4")
    assert d.confusion is None and d.value_changes == r.value_changes
    letters = table.with_columns(parsed=pl.Series(["b", "a", "d"]))
    r2 = rescore(letters, "choice/v4", n_boot=10)
    assert r2.confusion is not None and r2.value_changes is not None
    assert r2.value_changes.top == (ValueChange("b", "c", 1),)
    assert rescore(letters.drop("parsed"), "choice/v4", n_boot=10).value_changes is None


def test_a_found_none_is_not_confused_with_nothing_found() -> None:
    found = confusion(["none", None, "a"], ["none", "none", None])
    assert found.labels == ('"none"', "a", "none")
    assert found.matrix == ((1, 0, 0), (0, 0, 1), (1, 0, 0))
