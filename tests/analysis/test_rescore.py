"""rescore(): before/after metrics, incidence and confusion on tables computed by hand."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from answer_audit.analysis import rescore as rescore_module
from answer_audit.analysis.audit_examples import example_key
from answer_audit.analysis.metrics import BootSettings, Bootstrap, ClassRecall, Metrics
from answer_audit.analysis.rescore import RescoreResult, rescore
from answer_audit.analysis.rescore_partials import (
    DISAGREEMENT_EXAMPLES,
    label_rows,
    merge_rescore_partials,
    plan_rescore,
    rescore_partial,
)
from answer_audit.analysis.rescore_totals import rescore_result
from answer_audit.analysis.stats import bootstrap_accuracy, bootstrap_balanced_accuracy
from answer_audit.parsers import JsonFieldPreset, PresetError
from answer_audit.report.outputs import OutputError, write_rows
from answer_audit.sources import ColumnMap, load_files
from answer_audit.sources.demo import demo_rows
from answer_audit.table.canonical import in_memory_table
from source_fixtures import grades_file

# A JSON-answer results file: (id, site, prediction, truth, error, stored grade, stored label).
# Hand-derived outcome under json/isup_grade (field isup_grade, null -> 0, allowed 0-5) after "#".

GRADES_MAP = ColumnMap(
    id="id", raw="prediction", truth="truth", error="error", parsed="stored_grade",
    label="stored_correct", group_by=("site",),
)  # fmt: skip


@pytest.fixture
def grades(tmp_path: Path) -> RescoreResult:
    loaded = load_files(grades_file(tmp_path / "grades.jsonl"), GRADES_MAP)
    return rescore(loaded, "json/isup_grade", group_by=("site",), n_boot=200, seed=7)


def recall(pairs: dict[int, tuple[int, int]]) -> dict[str, ClassRecall]:
    return {str(k): ClassRecall(correct=c, total=t) for k, (c, t) in pairs.items()}


def test_json_answers_rescored_metrics_by_hand(grades: RescoreResult) -> None:
    m = grades.overall.rescored
    assert (m.n, m.failures, m.errors) == (14, 6, 3)
    assert m.accuracy == pytest.approx(4 / 14)
    assert m.per_class_recall == recall(
        {0: (1, 2), 1: (0, 3), 2: (2, 3), 3: (1, 2), 4: (0, 2), 5: (0, 2)}
    )
    # mean of 1/2, 0, 2/3, 1/2, 0, 0: classes nobody predicts still count
    assert m.balanced_accuracy is not None
    assert Fraction(m.balanced_accuracy).limit_denominator(100) == Fraction(5, 18)


def test_json_answers_stored_metrics_by_hand(grades: RescoreResult) -> None:
    # "stored" is the recorded correctness (issue 17, item 6): the stored_correct column, which
    # differs from the stored grade re-matched on r08 (truth 1, recorded right) and r12 (truth
    # 4, recorded wrong); failures and errors are still those of the stored parse
    s = grades.overall.stored
    assert s is not None
    assert (s.n, s.failures, s.errors) == (14, 4, 3)
    assert s.accuracy == pytest.approx(5 / 14)
    assert s.per_class_recall == recall(
        {0: (1, 2), 1: (1, 3), 2: (1, 3), 3: (2, 2), 4: (0, 2), 5: (0, 2)}
    )
    assert s.balanced_accuracy is not None  # mean of 1/2, 1/3, 1/3, 1, 0, 0
    assert Fraction(s.balanced_accuracy).limit_denominator(100) == Fraction(13, 36)


def test_without_a_label_column_stored_is_the_stored_parse_rematched(tmp_path: Path) -> None:
    unlabelled = dataclasses.replace(GRADES_MAP, label=None)
    loaded = load_files(grades_file(tmp_path / "grades.jsonl"), unlabelled)
    result = rescore(loaded, "json/isup_grade", group_by=("site",), n_boot=200, seed=7)
    s = result.overall.stored
    assert s is not None
    assert s.per_class_recall == recall(
        {0: (1, 2), 1: (0, 3), 2: (1, 3), 3: (2, 2), 4: (1, 2), 5: (0, 2)}
    )
    assert s.balanced_accuracy is not None
    assert Fraction(s.balanced_accuracy).limit_denominator(100) == Fraction(7, 18)
    assert result.stored_name == "stored parse, re-matched by the json matcher"


def test_json_answers_flips_and_mcnemar_by_hand(grades: RescoreResult) -> None:
    o = grades.overall.change
    assert o is not None
    # r02 only rescored right; r08 and r09 only stored right; p = 2 * P(X <= 1 | n=3) = 1
    assert (o.flips, o.stored_only_correct, o.rescored_only_correct) == (3, 2, 1)
    assert o.mcnemar_p == 1.0
    assert o.accuracy_delta == pytest.approx(-1 / 14)


def test_stored_label_column_and_its_disagreements(grades: RescoreResult) -> None:
    label = grades.overall.stored_label
    assert label is not None
    assert label.n == 14
    assert label.accuracy == pytest.approx(5 / 14)
    assert label.disagreements == 2
    assert label.disagreement_ids == ("r08", "r12")


def test_json_incidence_every_category_with_truth_distribution(grades: RescoreResult) -> None:
    inc = grades.incidence
    assert inc.by == "json-field"
    assert inc.classes == ("0", "1", "2", "3", "4", "5")
    got = {c.category: (c.n, c.scored, c.correct, c.truth) for c in inc.categories}

    def truth(**counts: int) -> dict[str, int]:
        return {k: counts.get(f"t{k}", 0) for k in inc.classes}

    assert got == {
        "valid": (3, 2, 2, truth(t2=1, t3=1)),
        "null": (2, 2, 1, truth(t0=1, t1=1)),
        "missing-key": (1, 1, 0, truth(t4=1)),
        "out-of-range": (1, 1, 0, truth(t5=1)),
        "not-integer": (1, 1, 0, truth(t5=1)),
        "json-invalid": (1, 1, 0, truth(t4=1)),
        "integer-fallback": (1, 1, 1, truth(t2=1)),
        "integer-fallback-out-of-range": (1, 1, 0, truth(t3=1)),
        "not-found": (1, 1, 0, truth(t2=1)),
        "error": (3, 3, 0, truth(t0=1, t1=2)),
    }
    assert [c.category for c in inc.categories][:2] == ["valid", "null"]
    values = {c.category: c.values for c in inc.categories}
    assert values["valid"] == {"2": 1, "3": 1, "5": 1}
    assert values["null"] == {"0": 2}
    assert values["error"] == {"none": 3}


def test_stored_vs_rescored_confusion_includes_none(grades: RescoreResult) -> None:
    assert grades.confusion is not None
    assert grades.confusion.to_dict() == {
        "labels": ["0", "2", "3", "4", "5", "7", "none"],
        "matrix": [
            [2, 0, 0, 0, 0, 0, 0],  # stored 0: r03, r04
            [0, 1, 0, 0, 0, 0, 0],  # stored 2: r10
            [0, 0, 1, 0, 0, 0, 1],  # stored 3: r01 -> 3, r09 -> none
            [0, 0, 0, 0, 0, 0, 1],  # stored 4: r08 -> none
            [0, 0, 0, 0, 1, 0, 0],  # stored 5: r15
            [0, 0, 0, 0, 0, 0, 1],  # stored 7: r06 -> none
            [0, 1, 0, 0, 0, 0, 6],  # stored none: r02 -> 2; r05 r07 r11 r12 r13 r14
        ],
    }


def test_groups_by_hand(grades: RescoreResult) -> None:
    ga, gb = grades.groups
    assert ga.group == {"site": "A"} and gb.group == {"site": "B"}
    a, b = ga.comparison, gb.comparison
    assert a.stored is not None and b.stored is not None
    assert a.change is not None and b.change is not None
    assert (a.stored.accuracy, a.rescored.accuracy) == (2 / 7, 3 / 7)
    assert (a.change.flips, a.change.stored_only_correct, a.change.rescored_only_correct) == (
        1, 0, 1,
    )  # fmt: skip
    assert a.change.mcnemar_p == 1.0
    assert (a.rescored.failures, a.rescored.errors) == (3, 0)
    assert (b.stored.accuracy, b.rescored.accuracy) == (3 / 7, 1 / 7)
    assert (b.change.flips, b.change.stored_only_correct, b.change.rescored_only_correct) == (
        2, 2, 0,
    )  # fmt: skip
    assert b.change.mcnemar_p == 0.5  # 2 * P(X = 0 | n = 2)
    assert (b.rescored.failures, b.rescored.errors) == (3, 3)
    assert (b.stored.failures, b.stored.errors) == (1, 3)
    assert ga.incidence["null"] == 2 and gb.incidence["error"] == 3


def test_bootstrap_is_the_seeded_fast_path(grades: RescoreResult) -> None:
    m = grades.overall.rescored
    ok = np.array([True, True, True] + [False] * 6 + [True] + [False] * 4)
    assert m.bootstrap.accuracy == Bootstrap.of(bootstrap_accuracy(ok, B=200, seed=7))
    classes = ["3", "2", "0", "1", "4", "5", "5", "4", "3", "2", "1", "1", "0", "2"]
    assert m.bootstrap.balanced_accuracy == Bootstrap.of(
        bootstrap_balanced_accuracy(classes, ok, B=200, seed=7)
    )
    assert m.bootstrap.accuracy is not None
    lo, hi = m.bootstrap.accuracy.ci
    assert 0.0 <= lo <= 4 / 14 <= hi <= 1.0


def test_same_seed_same_report_other_seed_other_intervals(tmp_path: Path) -> None:
    loaded = load_files(grades_file(tmp_path / "g.jsonl"), GRADES_MAP)
    first = rescore(loaded, "json/isup_grade", n_boot=300, seed=1).to_dict()
    again = rescore(loaded, "json/isup_grade", n_boot=300, seed=1).to_dict()
    other = rescore(loaded, "json/isup_grade", n_boot=300, seed=2).to_dict()
    assert json.dumps(first) == json.dumps(again)
    boot = first["overall"]["rescored"]["bootstrap"]["accuracy"]
    assert boot != other["overall"]["rescored"]["bootstrap"]["accuracy"]


def test_adhoc_json_preset_gives_the_same_numbers(tmp_path: Path, grades: RescoreResult) -> None:
    loaded = load_files(grades_file(tmp_path / "g.jsonl"), GRADES_MAP)
    preset = JsonFieldPreset("mine", "isup_grade", null_as=0, allowed=(0, 5))
    mine = rescore(loaded, preset, group_by=("site",), n_boot=200, seed=7)
    assert mine.parser == "mine"
    assert mine.overall == grades.overall
    assert mine.incidence == grades.incidence


def test_annotate_keeps_every_input_row_and_column(grades: RescoreResult) -> None:
    rows = grades.annotate()
    assert rows.height == 15
    assert rows.columns[:7] == [
        "id", "site", "prediction", "truth", "error", "stored_grade", "stored_correct",
    ]  # fmt: skip
    assert rows.columns[7:] == [
        "source", "extracted", "rule", "span_start", "span_end", "is_correct",
        "stored_extracted", "stored_rule", "stored_is_correct",
    ]  # fmt: skip
    assert rows["extracted"].dtype == pl.Int64
    assert rows["extracted"].to_list()[:4] == [3, 2, 0, 0]
    assert rows["rule"].to_list()[10:13] == ["error", "error", "no-output"]
    assert rows["is_correct"].to_list()[-2:] == [False, None]
    assert rows["span_start"][0] == 15  # '{"isup_grade": 3}'[15] == "3"


def test_clashing_column_names_get_a_suffix_and_a_note() -> None:
    frame = pl.DataFrame(
        {"id": ["1"], "raw": ["Answer: a"], "truth": ["a"], "rule": ["x"], "is_correct": [True]}
    )
    result = rescore(frame, "choice/v3", n_boot=10)
    out = result.annotate(frame)
    assert out["rule"].to_list() == ["x"]
    assert out["rule_rescored"].to_list() == ["answer-line"]
    assert out["is_correct_rescored"].to_list() == [True]


def test_choice_stored_answers_are_matched_like_the_parser() -> None:
    frame = pl.DataFrame(
        {
            "id": ["1", "2", "3", "4", "5"],
            "raw": ["Answer: B", "Answer: 3", "no idea", "Answer: d", "   "],
            "parsed": ["B", "3", "", "b", "d"],
            "truth": ["b", "C", "a", "d", "d"],
        }
    )
    r = rescore(frame, "choice/v3", n_boot=10)
    stored = r.overall.stored
    assert stored is not None
    # stored: "B" ✓, "3" -> c ✓, "" missing ✗, b ✗, error row ✗
    assert stored.accuracy == pytest.approx(2 / 5)
    assert (stored.failures, stored.errors) == (1, 1)
    # rescored: b ✓, c ✓, not found ✗, d ✓, error ✗
    assert r.overall.rescored.accuracy == pytest.approx(3 / 5)
    assert r.overall.rescored.per_class_recall["a"].to_dict() == {"correct": 0, "total": 1}
    assert r.incidence.by == "rule"
    assert [c.category for c in r.incidence.categories] == [
        "answer-line", "no-output", "not-found",
    ]  # fmt: skip
    assert r.rows["stored_extracted"].to_list() == ["b", "c", None, "b", None]


def test_all_failure_group_scores_zero_and_no_truth_group_is_empty() -> None:
    frame = pl.DataFrame(
        {
            "id": ["1", "2", "3", "4"],
            "raw": ["nothing", "still nothing", "Answer: a", "Answer: b"],
            "truth": ["a", "b", None, None],
            "g": ["fail", "fail", "none", "none"],
        }
    )
    r = rescore(frame, "choice/v3", group_by=["g"], n_boot=50)
    fail, empty = (g.comparison for g in r.groups)
    m = fail.rescored
    assert (m.n, m.accuracy, m.balanced_accuracy, m.failures) == (2, 0.0, 0.0, 2)
    assert m.bootstrap.accuracy is not None
    assert m.bootstrap.accuracy.to_dict() == {"mean": 0.0, "std": 0.0, "ci": [0.0, 0.0]}
    assert empty.rescored.n == 0 and empty.rescored.accuracy is None
    assert fail.stored is None and fail.change is None and r.confusion is None
    assert r.coverage.to_dict() == {"rows": 4, "scored": 2, "no_truth": 2, "groups": 2}


def test_freeform_rescore_uses_the_normalizer() -> None:
    frame = pl.DataFrame(
        {"id": ["1"], "raw": ["The U.S.\nUSER: next"], "parsed": ["The U.S."], "truth": ["US"]}
    )
    v1 = rescore(frame, "freeform/v2", n_boot=10)
    v2 = rescore(frame, "freeform/v2", normalizer="v2", n_boot=10)
    assert v1.overall.rescored.accuracy == 0.0
    assert v2.overall.rescored.accuracy == 1.0
    assert v2.overall.stored is not None and v2.overall.stored.accuracy == 1.0
    assert v2.confusion is None


def test_bad_inputs_raise_clear_errors() -> None:
    frame = pl.DataFrame({"id": ["1"], "raw": ["x"], "truth": ["a"]})
    with pytest.raises(PresetError, match="unknown parser"):
        rescore(frame, "choice/v99")
    with pytest.raises(PresetError, match="choice presets only"):
        rescore(frame, "json/isup_grade", choices="abcde")
    with pytest.raises(ValueError, match="lacks column"):
        rescore(frame, "choice/v3", group_by=["nope"])
    with pytest.raises(ValueError, match="unknown normalizer"):
        rescore(frame, "freeform/v2", normalizer="v7")
    with pytest.raises(ValueError, match="needs the original"):
        rescore(frame, "choice/v3", n_boot=10).annotate()


def test_choices_override_reaches_the_parser() -> None:
    frame = pl.DataFrame({"id": ["1"], "raw": ["Answer: e"], "truth": ["e"]})
    assert rescore(frame, "choice/v3", n_boot=10).overall.rescored.accuracy == 0.0
    five = rescore(frame, "choice/v3", choices="abcde", n_boot=10)
    assert five.overall.rescored.accuracy == 1.0


# ------------------------------------------------------------------ write_rows


def test_write_rows_formats_round_trip(tmp_path: Path) -> None:
    frame = pl.DataFrame({"id": ["1", "2"], "tags": [["a", "b"], []], "ok": [True, None]})
    csv = write_rows(frame, tmp_path / "o.csv")
    assert csv.read_text(encoding="utf-8").splitlines() == [
        "id,tags,ok",
        '1,"[""a"", ""b""]",true',
        "2,[],",
    ]
    lines = (write_rows(frame, tmp_path / "o.jsonl")).read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0]) == {"id": "1", "tags": ["a", "b"], "ok": True}
    assert json.loads((write_rows(frame, tmp_path / "o.json")).read_text())[1]["ok"] is None
    assert pl.read_parquet(write_rows(frame, tmp_path / "o.parquet")).equals(frame)


def test_write_rows_refuses_inputs_and_unknown_extensions(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text('{"a": 1}\n', encoding="utf-8")
    frame = pl.DataFrame({"a": [2]})
    with pytest.raises(OutputError, match="one of the inputs"):
        write_rows(frame, source, inputs=[source])
    assert source.read_text(encoding="utf-8") == '{"a": 1}\n'
    with pytest.raises(OutputError, match="output format"):
        write_rows(frame, tmp_path / "out.txt")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl"]


# ------------------------------------------------------------------ partials and merges

SPLIT_ROWS = 240  # demo rows per table in the split property (every group, both stored sides)


def _demo_table() -> pl.DataFrame:
    rows = demo_rows().head(SPLIT_ROWS)
    table = in_memory_table(rows.with_columns(pl.int_range(pl.len()).cast(pl.String).alias("id")))
    # every 5th recorded label flipped: stored-label disagreements in every group
    flipped = pl.when(pl.int_range(pl.len()) % 5 == 0).then(~pl.col("label"))
    return table.with_columns(flipped.otherwise(pl.col("label")).alias("label"))


SPLIT_TABLE = _demo_table()
SPLIT_SETTINGS: dict[str, Any] = {
    "group_by": ("variant", "condition"),
    "compare": "condition",
    "baseline": "control",
    "item": "question",
    "n_boot": 50,
    "seed": 3,
}
WHOLE = rescore(SPLIT_TABLE, "freeform/v4", **SPLIT_SETTINGS).to_dict()
assert WHOLE["overall"]["stored_label"]["disagreements"] > 4 * DISAGREEMENT_EXAMPLES


@given(
    cuts=st.lists(st.integers(min_value=1, max_value=SPLIT_ROWS - 1), max_size=6),
    order=st.randoms(use_true_random=False),
)
@settings(max_examples=20)
def test_any_split_and_merge_order_gives_the_whole_tables_report(
    cuts: list[int], order: random.Random
) -> None:
    # the property the Ray engine relies on: partials of any slices, merged in any order and
    # shape, make the report of the whole table (one code path for every engine)
    plan = plan_rescore(SPLIT_TABLE.columns, "freeform/v4", **SPLIT_SETTINGS)
    points = sorted({0, SPLIT_ROWS, *cuts})
    parts = []
    for start, end in itertools.pairwise(points):
        chunk = SPLIT_TABLE.slice(start, end - start)
        parts.append(rescore_partial(chunk, label_rows(chunk, plan), plan))
    order.shuffle(parts)
    while len(parts) > 1:  # pairs merged in a random tree, not only left to right
        i = order.randrange(len(parts) - 1)
        parts[i : i + 2] = [merge_rescore_partials(parts[i : i + 2])]
    assert rescore_result(parts[0], plan).to_dict() == WHOLE


def test_small_slices_give_the_same_rescore_and_rows(
    tmp_path: Path, grades: RescoreResult, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rescore_module, "CHUNK_ROWS", 4)
    loaded = load_files(grades_file(tmp_path / "grades.jsonl"), GRADES_MAP)
    sliced = rescore(loaded, "json/isup_grade", group_by=("site",), n_boot=200, seed=7)
    assert sliced.to_dict() == grades.to_dict()
    assert sliced.annotate().equals(grades.annotate())


def test_metrics_from_counts_equal_metrics_from_rows() -> None:
    rng = np.random.default_rng(5)
    ok = rng.random(300) < 0.6
    classes = rng.choice(np.array(["10", "2", "b", "a"], dtype=object), size=300)
    none = np.zeros(300, dtype=bool)
    boot = BootSettings(resamples=200, seed=9, ci=0.9)
    rows = Metrics.of(ok, none, none, classes, boot)
    counts = {
        str(c): (int(ok[classes == c].sum()), int((classes == c).sum())) for c in set(classes)
    }
    assert Metrics.of_counts(counts, 0, 0, boot) == rows
    assert list(rows.per_class_recall) == ["2", "10", "a", "b"]


def test_disagreement_examples_are_chosen_by_seeded_key_not_row_order() -> None:
    # the stored label says right and the stored parse is wrong on every row: every row
    # disagrees; the ten shown are the smallest keys, the same for any row order
    n = 30
    ids = [f"q{i:02d}" for i in range(n)]
    frame = pl.DataFrame(
        {"id": ids, "raw": ["Answer: a"] * n, "parsed": ["b"] * n, "label": [True] * n,
         "truth": ["a"] * n, "g": ["x", "y", "z"] * 10}
    )  # fmt: skip
    result = rescore(frame, "choice/v3", n_boot=10, seed=1, group_by=["g"])
    first = result.overall.stored_label
    backwards = rescore(frame.reverse(), "choice/v3", n_boot=10, seed=1).overall.stored_label
    other_seed = rescore(frame, "choice/v3", n_boot=10, seed=2).overall.stored_label
    assert first is not None and backwards is not None and other_seed is not None
    assert first.disagreements == n and len(first.disagreement_ids) == DISAGREEMENT_EXAMPLES
    smallest = sorted(ids, key=lambda i: example_key(1, "stored-label", i))[:DISAGREEMENT_EXAMPLES]
    assert set(first.disagreement_ids) == set(smallest)
    group_x = result.groups[0].comparison.stored_label
    assert group_x is not None and group_x.disagreement_ids == tuple(sorted(ids[0::3]))
    assert first.disagreement_ids == backwards.disagreement_ids
    assert list(first.disagreement_ids) == sorted(str(i) for i in first.disagreement_ids)
    assert first.disagreement_ids != other_seed.disagreement_ids


def test_conclusions_need_a_stored_labelling_before_any_labelling() -> None:
    frame = pl.DataFrame({"id": ["1"], "raw": ["Answer: a"], "truth": ["a"], "g": ["x"]})
    with pytest.raises(ValueError, match="--label COLUMN"):
        plan_rescore(frame.columns, "choice/v3", group_by=("g",), compare="g")
