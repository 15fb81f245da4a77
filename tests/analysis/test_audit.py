"""The audit's statistics on small tables whose numbers are computed by hand."""

from collections.abc import Sequence
from pathlib import Path

import polars as pl
import pytest

from answer_audit.analysis.audit import (
    AuditSettings,
    Consistency,
    MarkerCounts,
    SkippedRows,
    audit,
)
from answer_audit.schemes.apply import Scheme, parse_scheme
from group_fixtures import nan_group_rows

Row = tuple[str, str, str | None, bool | None, str | None, str]


def table(rows: Sequence[Row]) -> pl.DataFrame:
    return pl.DataFrame(
        rows,
        schema={"id": pl.String, "raw": pl.String, "parsed": pl.String, "label": pl.Boolean,
                "truth": pl.String, "g": pl.String},
        orient="row",
    )  # fmt: skip


ROWS = [
    # id, raw, stored parse, stored label, truth, group
    ("1", "Paris.\nuser: Rome?", "Paris.\nuser: Rome?", True, "Paris", "x"),  # no flip
    (
        "2",
        "Rome.\nuser: it is Paris",
        "Rome.\nuser: it is Paris",
        True,
        "Paris",
        "x",
    ),  # v2 cuts -> wrong
    (
        "3",
        "draft Paris</think>Lyon",
        "draft Paris</think>Lyon",
        True,
        "Paris",
        "x",
    ),  # think -> wrong
    ("4", "The U.S.", "The U.S.", False, "US", "y"),  # v2 normalizer -> right
    ("5", "H₂O", "H₂O", False, "H2O", "y"),  # v2 normalizer -> right
    ("6", "Berlin", "Berlin", False, "Paris", "y"),
    ("7", "an opinion", "an opinion", None, None, "y"),  # no truth: not scored
]


def test_flips_deltas_and_significance_by_hand() -> None:
    result = audit(table(ROWS), settings=AuditSettings(group_by=("g",)))
    assert result.coverage.rows == 7
    assert result.coverage.scored == 6
    assert result.coverage.skipped == SkippedRows(no_truth=1, no_stored_label=0)
    assert result.consistency == Consistency(scheme="consistency=stored:v1", n=6, mismatches=0)
    by_name = {s.name: s.overall for s in result.schemes}
    # parse_only: freeform/v2 + v1 -> rows 2 and 3 flip right->wrong; 4 and 5 stay wrong under v1
    po = by_name["parse_only"]
    assert (po.flips, po.stored_right_scheme_wrong, po.stored_wrong_scheme_right) == (2, 2, 0)
    assert po.stored_error_pct == pytest.approx(50.0)
    assert po.error_pct == pytest.approx(500 / 6)
    assert po.delta_pp == pytest.approx(100 / 3)
    assert po.mcnemar_p == pytest.approx(0.5)  # 2 * (1/2)^2
    # norm_only: stored parse + v2 -> rows 4 and 5 flip wrong->right
    no = by_name["norm_only"]
    assert (no.flips, no.stored_wrong_scheme_right) == (2, 2)
    assert no.delta_pp == pytest.approx(-100 / 3)
    # parse_norm: both effects
    assert by_name["parse_norm"].flips == 4
    assert by_name["parse_norm"].mcnemar_p == pytest.approx(1.0)


def test_cells_per_group_holm_and_sort_order() -> None:
    result = audit(table(ROWS), settings=AuditSettings(group_by=("g",)))
    cells = result.cells_of("norm_only")
    assert [c.group for c in cells] == [{"g": "y"}, {"g": "x"}]  # |Δ| descending
    y = cells[0].stats
    assert (y.n, y.flips, y.stored_error_pct) == (3, 2, 100.0)
    assert y.error_pct == pytest.approx(100 / 3)
    assert y.mcnemar_p == pytest.approx(0.5)
    assert cells[0].holm_p == pytest.approx(min(1.0, 2 * 0.5))
    assert cells[1].stats.flips == 0 and cells[1].stats.mcnemar_p == 1.0
    # sorted by (|Δpp|, flips) descending across schemes
    keys = [(abs(c.stats.delta_pp), c.stats.flips) for c in result.cells]
    assert keys == sorted(keys, reverse=True)


def test_verdict_line_names_the_numbers() -> None:
    result = audit(table(ROWS), settings=AuditSettings(group_by=("g",)))
    verdict = {s.name: s.verdict for s in result.schemes}["norm_only"]
    assert verdict.startswith("overall Δ -33.3 pp (95% CI")
    assert "max |Δ| 66.7 pp over 2 group(s); no group significant at 0.05 after Holm" in verdict


def test_bootstrap_intervals_are_seeded() -> None:
    t = table(ROWS)
    a = audit(t, settings=AuditSettings(group_by=("g",), seed=3))
    b = audit(t, settings=AuditSettings(group_by=("g",), seed=3))
    assert [s.overall.delta_ci for s in a.schemes] == [s.overall.delta_ci for s in b.schemes]
    lo, hi = a.schemes[0].overall.delta_ci
    assert lo <= a.schemes[0].overall.delta_pp <= hi


def test_consistency_mismatch_is_counted() -> None:
    rows = [*ROWS[:-1], ("8", "Paris", "Paris", False, "Paris", "y")]  # the runner said wrong
    result = audit(table(rows))
    assert result.consistency is not None and result.consistency.mismatches == 1


def test_markers_think_rules_and_examples() -> None:
    result = audit(table(ROWS), settings=AuditSettings(group_by=("g",), max_examples=3, seed=1))
    assert result.markers == MarkerCounts(raw_role=2, raw_block=0, parsed_role=2, parsed_block=0)
    assert result.think.rows == 1
    assert result.think.post_think_flips == 1
    assert [e.id for e in result.think.stored_right_post_think_wrong] == ["3"]
    assert result.rules["parse_only"].overall == {
        "whole-text": 3,
        "truncated-at-marker": 2,
        "after-think": 1,
    }
    assert "norm_only" not in result.rules  # stored parses have no rules to count
    assert len(result.examples) == 3
    again = audit(table(ROWS), settings=AuditSettings(group_by=("g",), max_examples=3, seed=1))
    assert result.examples == again.examples
    for e in result.examples:
        assert e.stored_label != e.scheme_label
        if e.span is not None:
            assert e.raw[e.span[0] : e.span[1]] == e.scheme_parse


def test_stored_label_derived_from_stored_parse_when_absent() -> None:
    t = table(ROWS).drop("label")
    result = audit(t)
    assert result.consistency is None
    assert result.coverage.scored == 6


def test_choice_kind_compares_letters() -> None:
    t = pl.DataFrame(
        {"id": ["1", "2", "3"], "raw": ["Answer: B", "回答: 3", "I think a is wrong. Answer: d"],
         "parsed": ["b", "a", "a"], "label": [True, False, False], "truth": ["B", "c", "3"]}
    )  # fmt: skip
    result = audit(t, [Scheme("v3", "choice/v3")], AuditSettings(kind="choice"))
    s = result.schemes[0].overall
    assert (s.n, s.flips) == (3, 1)
    assert s.error_pct == pytest.approx(100 / 3)
    assert result.consistency is not None and result.consistency.mismatches == 0


def test_missing_columns_and_wrong_family_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="lacks column\\(s\\) nope; available: id, raw"):
        audit(table(ROWS), settings=AuditSettings(group_by=("nope",)))
    with pytest.raises(ValueError, match="uses 'choice/v3' \\(choice\\) on freeform data"):
        audit(table(ROWS), [Scheme("x", "choice/v3")])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a=freeform/v2:v2", Scheme("a", "freeform/v2", "v2")),
        ("b = stored", Scheme("b", "stored", "v1")),
    ],
)
def test_parse_scheme(text: str, expected: Scheme) -> None:
    assert parse_scheme(text) == expected


@pytest.mark.parametrize("text", ["noequals", "a=freeform/v2:v9", "=x"])
def test_parse_scheme_errors(text: str) -> None:
    with pytest.raises(ValueError, match="--scheme"):
        parse_scheme(text)


def test_slicing_the_table_changes_no_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import answer_audit.analysis.audit as audit_module
    from answer_audit.sources.demo import write_demo_runs
    from answer_audit.sources.runs import load_runs

    metadata = write_demo_runs(tmp_path / "runs")
    frame = load_runs(tmp_path / "runs", metadata).frame
    settings = AuditSettings(group_by=("temperature", "variant"), max_examples=50)
    whole = audit(frame, settings=settings).to_dict()
    monkeypatch.setattr(audit_module, "CHUNK_ROWS", 7)  # many slices, one ending mid-group
    sliced = audit(frame, settings=settings).to_dict()
    assert frame.height > 7 * 3 and whole["examples"] and whole["think"]["rows"]
    assert sliced == whole


def test_package_functions_stay_functions_after_their_modules_load() -> None:
    # The README's library example imports the report module (which loads the audit module)
    # before calling aa.audit; a submodule named like the function replaced it on the package.
    import answer_audit as aa
    import answer_audit.analysis.audit
    import answer_audit.analysis.rescore
    import answer_audit.report.markdown.audit

    t = pl.DataFrame({"id": ["1"], "raw": ["Paris."], "parsed": ["Paris."], "label": [True],
                      "truth": ["Paris"]})  # fmt: skip
    for _ in range(2):
        assert aa.audit(t).coverage.rows == 1
        assert aa.rescore(t, "freeform/v3", n_boot=10).coverage.rows == 1


# ---------------------------------- rows a scheme's matcher cannot judge, groups named like counts


def test_audit_scheme_leaves_out_rows_its_matcher_cannot_judge() -> None:
    # The numeric matcher has no label for a truth without a number ("Paris"); those rows must
    # not count as scheme errors, and the stored error rate must not depend on the scheme.
    frame = pl.DataFrame(
        {
            "id": ["1", "2", "3", "4"],
            "raw": ["Paris", "Lyon", "It is 12", "It is 13"],
            "parsed": ["Paris", "Lyon", "It is 12", "It is 13"],
            "label": [True, False, True, False],
            "truth": ["Paris", "Paris", "12", "12"],
        }
    )
    schemes = [Scheme("v1", "stored", "v1"), Scheme("num", "freeform/v3", "numeric")]
    result = audit(frame, schemes, AuditSettings(n_boot=10))
    by = {s.name: s.overall for s in result.schemes}
    assert by["v1"].n == 4 and by["v1"].stored_error_pct == pytest.approx(50.0)
    num = by["num"]
    assert num.n == 2  # only the two rows with a numeric truth
    assert num.stored_error_pct == pytest.approx(50.0)
    assert num.error_pct == pytest.approx(50.0)
    assert num.flips == 0
    assert [e for e in result.examples if e.scheme == "num"] == []


def test_audit_coverage_does_not_depend_on_the_first_schemes_matcher() -> None:
    # Without a stored parse, "has a truth" came from the first scheme: a numeric one first
    # dropped the "Paris" rows from every scheme and called them rows without truth.
    frame = pl.DataFrame(
        {
            "id": ["1", "2", "3", "4"],
            "raw": ["Paris", "Lyon", "It is 12", "It is 13"],
            "label": [True, False, True, False],
            "truth": ["Paris", "Paris", "12", "12"],
        }
    )
    schemes = [Scheme("num", "freeform/v3", "numeric"), Scheme("v1", "freeform/v2", "v1")]
    result = audit(frame, schemes, AuditSettings(n_boot=10))
    assert result.coverage.scored == 4
    assert result.coverage.skipped.to_dict() == {"no_truth": 0, "no_stored_label": 0}
    assert {s.name: s.overall.n for s in result.schemes} == {"num": 2, "v1": 4}


@pytest.mark.parametrize("name", ["n", "b", "c", "both"])
def test_audit_group_column_named_like_a_count(name: str) -> None:
    frame = nan_group_rows().with_columns(pl.Series(name, ["x", "x", "y", "y"]))
    result = audit(frame, settings=AuditSettings(kind="choice", group_by=(name,), n_boot=10))
    v3 = result.cells_of("choice/v3")
    assert sorted((str(c.group[name]), c.stats.n) for c in v3) == [("x", 2), ("y", 2)]
