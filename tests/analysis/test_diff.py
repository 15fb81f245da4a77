"""diff_labelings and pair_tables on small tables whose numbers are computed by hand."""

from __future__ import annotations

import polars as pl
import pytest

from answer_audit.analysis.diff import diff_labelings, pair_tables, snippet_around
from answer_audit.parsers import PresetError
from answer_audit.schemes.labels import stored_labels
from answer_audit.sources import LoadedTable

# (id, raw, stored answer, truth, group); what choice/v1 and choice/v3 extract after "#".
ROWS = [
    ("1", "Answer: b", "b", "b", "x"),  # v1 b, v3 b
    ("2", "Answer: a\nOn reflection, Answer: c", "a", "c", "x"),  # v1 a (first), v3 c (last)
    ("3", "I think it is b.\n\nb", "b", "b", "x"),  # v1 b (last char), v3 b (tail)
    ("4", "No idea at all", "d", "a", "y"),  # v1 a (last char of "idea"), v3 none
    ("5", "Answer: d", "d", "c", "y"),  # v1 d, v3 d
    ("6", "回答: 2", "2", "b", "y"),  # v1 b (digit 2), v3 b
]
A_V1 = ["b", "a", "b", "a", "d", "b"]
B_V3 = ["b", "c", "b", None, "d", "b"]


def frame() -> pl.DataFrame:
    return pl.DataFrame(
        ROWS, schema=["id", "raw", "stored", "truth", "g"], orient="row"
    ).with_columns(pl.col("stored").alias("parsed"))


def test_two_parsers_on_one_table_by_hand() -> None:
    d = diff_labelings(frame(), "choice/v1", "choice/v3", group_by=["g"], context=5)
    assert (d.a, d.b, d.family, d.align, d.n) == ("choice/v1", "choice/v3", "choice", "rows", 6)
    assert d.agreement.to_dict() == {"n": 6, "agree": 4, "rate": 4 / 6, "both_none": 0}
    # v1 right on 1, 3, 4 (a), 6; v3 right on 1, 2, 3, 6; only-A row 4, only-B row 2
    assert d.accuracy is not None
    assert d.accuracy.to_dict() == {"n": 6, "a": 4 / 6, "b": 4 / 6, "delta": 0.0,
                                    "a_only_correct": 1, "b_only_correct": 1, "mcnemar_p": 1.0}  # fmt: skip
    assert d.confusion is not None
    assert d.confusion.to_dict() == {
        "labels": ["a", "b", "c", "d", "none"],
        "matrix": [
            [0, 0, 1, 0, 1],  # v1 a: row 2 -> c, row 4 -> none
            [0, 3, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 1, 0],
            [0, 0, 0, 0, 0],
        ],
    }
    assert [p.to_dict() for p in d.rule_pairs] == [
        {"a": "answer-regex", "b": "answer-line", "n": 1},
        {"a": "last-char", "b": "not-found", "n": 1},
    ]
    assert [(e.id, e.truth, e.a.value, e.b.value) for e in d.disagreements] == [
        ("2", "c", "a", "c"),
        ("4", "a", "a", None),
    ]
    two = d.disagreements[0]
    assert two.a.snippet == "…wer: ⟦a⟧\nOn r…"
    assert two.b.snippet == "…wer: ⟦c⟧"
    assert (two.a.correct, two.b.correct) == (False, True)
    assert d.disagreements[1].b.snippet == "…dea at all"  # no span: the tail


def test_groups_break_down_agreement_and_accuracy() -> None:
    d = diff_labelings(frame(), "choice/v1", "choice/v3", group_by=["g"])
    x, y = d.groups
    assert x.accuracy is not None and y.accuracy is not None
    assert (x.group, x.agreement.n, x.agreement.agree, x.agreement.rate) == (
        {"g": "x"},
        3,
        2,
        2 / 3,
    )
    assert x.accuracy.a == 2 / 3 and x.accuracy.b == 1.0
    assert (y.agreement.agree, y.accuracy.a, y.accuracy.b) == (2, 2 / 3, 1 / 3)


def test_stored_column_against_a_parser() -> None:
    columns = frame()
    d = diff_labelings(frame(), "stored:stored", "choice/v3", columns=columns)
    # stored: b a b d d 2->b ; v3: b c b none d b
    assert d.agreement.agree == 4
    assert d.accuracy is not None
    assert (d.accuracy.a, d.accuracy.b) == (3 / 6, 4 / 6)
    assert [e.id for e in d.disagreements] == ["2", "4"]
    assert d.disagreements[0].a.rule == "stored"
    assert d.disagreements[0].a.span is None


def test_bare_stored_uses_the_parsed_column_and_labels_pass_through() -> None:
    t = frame()
    d = diff_labelings(t, "stored", stored_labels(t, "choice", t["stored"], name="again"))
    assert d.agreement.agree == 6 and d.disagreements == () and d.b == "again"


def test_side_kinds_must_agree_and_stored_pairs_need_a_kind() -> None:
    with pytest.raises(ValueError, match="different kinds"):
        diff_labelings(frame(), "choice/v3", "json/isup_grade")
    with pytest.raises(ValueError, match="kind 'json' does not fit the sides: choice/v1 is choice"):
        diff_labelings(frame(), "choice/v1", "choice/v3", kind="json")
    with pytest.raises(ValueError, match="name one as stored:COLUMN"):
        diff_labelings(frame().drop("parsed"), "stored", "choice/v3")
    with pytest.raises(ValueError, match="--kind"):
        diff_labelings(frame(), "stored:stored", "stored:truth")
    d = diff_labelings(frame(), "stored:stored", "stored:truth", kind="choice")
    assert d.agreement.agree == 3  # rows 1, 3 and 6 ("2" is b)
    with pytest.raises(ValueError, match="no column 'nope'"):
        diff_labelings(frame(), "stored:nope", "choice/v3")
    with pytest.raises(PresetError, match="unknown parser"):
        diff_labelings(frame(), "choice/v0", "choice/v3")


def test_error_rows_extract_nothing_on_both_sides() -> None:
    t = pl.DataFrame({"id": ["1", "2"], "raw": ["Answer: a", ""], "truth": ["a", "a"],
                      "error": ["boom", None]})  # fmt: skip
    d = diff_labelings(t, "choice/v1", "choice/v3")
    assert d.agreement.to_dict() == {"n": 2, "agree": 2, "rate": 1.0, "both_none": 2}
    assert d.accuracy is not None and d.accuracy.a == 0.0


def loaded(ids: list[str | None], raws: list[str], truths: list[str]) -> LoadedTable:
    f = pl.DataFrame({"id": ids, "raw": raws, "truth": truths})
    return LoadedTable(f, f.rename({"raw": "response"}))


def test_pair_by_id_keeps_a_order_and_notes_the_unmatched() -> None:
    a = loaded(["q1", "q2", "q3"], ["Answer: a", "Answer: b", "Answer: c"], ["a", "b", "d"])
    b = loaded(["q3", "q4", "q1"], ["Answer: d", "Answer: a", "Answer: b"], ["d", "a", "a"])
    ta, tb, notes = pair_tables(a, b, "id")
    assert ta.frame["id"].to_list() == tb.frame["id"].to_list() == ["q1", "q3"]
    assert tb.original["response"].to_list() == ["Answer: b", "Answer: d"]
    assert notes == [
        "1 row(s) of A have no matching id in the other table and are left out",
        "1 row(s) of B have no matching id in the other table and are left out",
    ]
    d = diff_labelings(ta.frame, "choice/v3", "choice/v3", frame_b=tb.frame, align="id")
    assert d.agreement.agree == 0
    assert d.accuracy is not None
    assert (d.accuracy.a, d.accuracy.b, d.accuracy.b_only_correct) == (0.5, 0.5, 1)


def test_pair_by_id_never_pairs_missing_ids() -> None:
    a = loaded(["q1", None, None], ["Answer: a", "Answer: b", "Answer: c"], ["a", "b", "c"])
    b = loaded([None, "q1"], ["Answer: d", "Answer: a"], ["d", "a"])
    ta, tb, notes = pair_tables(a, b, "id")
    assert ta.frame["id"].to_list() == tb.frame["id"].to_list() == ["q1"]
    assert notes == [
        "2 row(s) of A have no id and are left out",
        "1 row(s) of B have no id and are left out",
    ]


def test_pair_by_order_checks_sizes_and_id_checks_uniqueness() -> None:
    a = loaded(["1", "2"], ["a", "b"], ["a", "b"])
    b = loaded(["1", "2", "3"], ["a", "b", "c"], ["a", "b", "c"])
    with pytest.raises(ValueError, match="A has 2 rows and B has 3"):
        pair_tables(a, b, "order")
    _, tb, notes = pair_tables(a, loaded(["9", "8"], ["x", "y"], ["a", "b"]), "order")
    assert notes == [] and tb.frame["id"].to_list() == ["9", "8"]
    with pytest.raises(
        ValueError, match=r"ids repeat in B \(e.g. .1., 1 repeated\).*unique.*--align order"
    ):
        pair_tables(a, loaded(["1", "1"], ["a", "b"], ["a", "b"]), "id")
    with pytest.raises(ValueError, match="share no id"):
        pair_tables(a, loaded(["7", "8"], ["a", "b"], ["a", "b"]), "id")


def test_different_truths_in_paired_tables_are_noted() -> None:
    a = pl.DataFrame({"id": ["1"], "raw": ["Answer: a"], "truth": ["a"]})
    b = pl.DataFrame({"id": ["1"], "raw": ["Answer: a"], "truth": ["b"]})
    d = diff_labelings(a, "choice/v3", "choice/v3", frame_b=b, align="order")
    assert d.notes == (
        "1 aligned row(s) have a different truth in A and B; each side is scored against its "
        "own truth",
    )
    assert d.accuracy is not None and (d.accuracy.a, d.accuracy.b) == (1.0, 0.0)


def test_snippet_around() -> None:
    assert snippet_around("abcdefghij", (4, 5), 2) == "…cd⟦e⟧fg…"
    assert snippet_around("abc", (0, 1), 5) == "⟦a⟧bc"
    assert snippet_around("abcdefghij", None, 2) == "…ghij"
    assert snippet_around(None, None) == ""


def test_to_dict_is_plain_json() -> None:
    import json

    d = diff_labelings(frame(), "choice/v1", "choice/v3")
    data = json.loads(json.dumps(d.to_dict()))
    assert list(data) == ["a", "b", "family", "align", "n", "agreement", "confusion", "accuracy",
                          "groups", "rule_pairs", "disagreements", "notes", "conclusions",
                          "value_changes"]  # fmt: skip
