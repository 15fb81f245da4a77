"""Tests for answer_audit.analysis.conclusions: statuses, reference statistics, invariances."""

from __future__ import annotations

import doctest
import subprocess
import sys
from collections.abc import Sequence
from types import ModuleType

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import (
    confint_proportions_2indep,
    proportion_confint,
    proportions_ztest,
)

from answer_audit import extract, is_correct
from answer_audit.analysis import conclusions as conclusions_module
from answer_audit.analysis import conclusions_counts, conclusions_results
from answer_audit.analysis.conclusions import (
    STATUS_ORDER,
    Conclusions,
    ConclusionSettings,
    conclusions,
    conclusions_from_counts,
    contrast_pairs,
    contrast_status,
    merge_outcome_counts,
    outcome_counts,
)
from paths import REAL

Cell = tuple[int, int, int, int]  # rows: both right, stored-only right, scheme-only right, neither
STATUS_CASES: dict[str, tuple[Cell, Cell]] = {
    # case (= expected status): paired cells at control and at treat, 100 rows per level
    "significant reversal": ((20, 0, 60, 20), (20, 60, 0, 20)),  # +60 pp -> -60 pp
    "gained": ((50, 0, 0, 50), (55, 0, 35, 10)),  # +5 (p .48) -> +40 (p < 1e-8)
    "lost": ((50, 0, 0, 50), (55, 35, 0, 10)),  # +40 -> +5
    "reversed": ((50, 0, 0, 50), (42, 16, 0, 42)),  # +8 -> -8, 16 rows flip
    "shifted": ((50, 0, 0, 50), (52, 0, 10, 38)),  # +2 -> +12, 10 rows flip
    "same": ((50, 0, 0, 50), (49, 2, 0, 49)),  # +1 -> -1: 2 flips, a sign flip within noise
}
PATTERNS = ((True, True), (True, False), (False, True), (False, False))


def case_rows(case: str, level: str, cells: Cell, first_item: int) -> list[dict[str, object]]:
    rows = []
    for (stored, scheme), count in zip(PATTERNS, cells, strict=True):
        rows += [{"case": case, "cond": level, "stored": stored, "v3": scheme}] * count
    # Items pair each control row with a treat row in a seeded random order, so the pairing
    # carries no signal of its own.
    items = np.random.default_rng(first_item).permutation(len(rows))
    return [{**row, "q": f"q{item:03d}"} for row, item in zip(rows, items, strict=True)]


def status_table() -> pl.DataFrame:
    rows: list[dict[str, object]] = []
    for case, (control, treat) in STATUS_CASES.items():
        rows += case_rows(case, "control", control, 0)
        rows += case_rows(case, "treat", treat, 1)
    # One case more: the scheme leaves every treat row unscored.
    rows += case_rows("not estimable", "control", (50, 0, 0, 50), 0)
    rows += [
        {"case": "not estimable", "cond": "treat", "stored": i < 50, "v3": None, "q": f"q{i:03d}"}
        for i in range(100)
    ]
    return pl.DataFrame(
        rows,
        schema={
            "case": pl.String,
            "cond": pl.String,
            "stored": pl.Boolean,
            "v3": pl.Boolean,
            "q": pl.String,
        },
    )


def run(table: pl.DataFrame, item: str | None = None, seed: int = 0) -> Conclusions:
    chosen = ConclusionSettings("cond", "control", ("case",), item, seed=seed, n_boot=2000)
    return conclusions(table, chosen, stored="stored", schemes={"v3": "v3"})


# --- statuses --------------------------------------------------------------------------------


@pytest.mark.parametrize("item", [None, "q"], ids=["rows", "items"])
def test_every_status_occurs_and_matches_its_case(item: str | None) -> None:
    found = run(status_table(), item=item)
    statuses = {c.stratum["case"]: c.status for c in found.contrasts}
    assert statuses == {case: case for case in [*STATUS_CASES, "not estimable"]}
    assert set(statuses.values()) == set(STATUS_ORDER)


def test_changed_contrasts_list_consequential_statuses_first() -> None:
    found = run(status_table())
    order = [c.status for c in found.changed_contrasts()]
    assert order == [s for s in STATUS_ORDER if s != "same"]
    lines = found.lines()
    assert lines[0].endswith(": significant reversal")
    assert lines[len(order)].endswith(": same")


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ((5.0, 0.01, -5.0, 0.01, (-12.0, -8.0)), "significant reversal"),
        ((5.0, 0.01, 9.0, 0.01, (3.0, 5.0)), "shifted"),  # both significant, same direction
        ((5.0, 0.01, 9.0, 0.01, (-1.0, 5.0)), "same"),
        ((5.0, 0.5, 0.0, 0.5, (-9.0, -1.0)), "shifted"),  # a zero effect has no sign
        ((5.0, 0.5, -1.0, 0.5, (-9.0, 0.0)), "same"),  # the interval touches 0: not excluded
        ((5.0, 0.5, -1.0, 0.5, None), "same"),
        ((None, None, 1.0, 0.5, None), "not estimable"),
        ((5.0, 0.049, 5.0, 0.05, (0.0, 0.0)), "lost"),  # significant means p < alpha
    ],
)
def test_contrast_status_rules(
    arguments: tuple[float | None, float | None, float, float, conclusions_results.Interval | None],
    expected: str,
) -> None:
    assert contrast_status(*arguments) == expected


def test_sentence_and_verdict_read_as_changed() -> None:
    found = run(status_table())
    gained = next(c for c in found.contrasts if c.status == "gained")
    assert gained.ci is not None
    assert gained.sentence("parse_v3") == (
        f"Under parse_v3 the effect of treat vs control on accuracy for case=gained is +40.0 pp "
        f"(95% CI {gained.ci[0]:+.1f} to {gained.ci[1]:+.1f}), stored +5.0 pp: gained"
    )
    # every changed contrast here moved beyond noise (its change interval excludes 0); of the
    # three rankings whose best level changed, only the significant reversal's is a clear one
    assert found.verdict() == (
        "Conclusions change under re-labelling: 5 of 7 contrasts changed beyond resampling noise "
        "(1 significant reversal, 1 gained, 1 lost, 1 reversed, 1 shifted); the clear best cond "
        "(best in at least 95% of resamples) changed in 1 of 7 rankings; 1 of 7 contrasts could "
        "not be estimated. Within resampling noise: the best cond changed in 2 and the order in 2 "
        "of 7 rankings, no labelling sure of its best level."
    )


def test_a_ranking_that_moved_within_noise_is_named_beside_the_all_clear() -> None:
    # Three levels, no baseline: every pairwise change is within noise, but b and c swap places.
    rows = level_rows("a", 50, 50) + level_rows("b", 60, 61) + level_rows("c", 61, 60)
    found = conclusions(
        pl.DataFrame(rows), ConclusionSettings("cond"), stored="stored", schemes=["v3"]
    )
    assert {c.status for c in found.contrasts} == {"same"}
    (ranking,) = found.rankings
    assert ranking.stored_order == ("c", "b", "a") and ranking.order == ("b", "c", "a")
    assert ranking.best_changed and not ranking.clearly_changed()
    assert found.verdict() == (
        "Conclusions hold: no contrast or ranking of cond changed beyond resampling noise. "
        "Within resampling noise: the best cond changed in 1 and the order in 1 of 1 rankings, "
        "no labelling sure of its best level."
    )


def test_significance_crossing_alpha_within_noise_is_not_a_headline_change() -> None:
    # +12 pp (p 0.087) -> +15 pp (p 0.032): gained, but by 3 flipped rows, a change whose
    # interval holds 0
    rows = level_rows("control", 50, 50) + level_rows("treat", 62, 65)
    chosen = ConclusionSettings("cond", "control")
    found = conclusions(pl.DataFrame(rows), chosen, stored="stored", schemes=["v3"])
    (contrast,) = found.contrasts
    assert contrast.status == "gained" and not contrast.beyond_noise
    assert contrast.change_ci is not None and contrast.change_ci[0] <= 0 <= contrast.change_ci[1]
    assert found.verdict() == (
        "Conclusions hold: no contrast or ranking of cond changed beyond resampling noise. "
        "Within resampling noise: 1 contrast crossed the significance line while the change "
        "interval holds 0 (1 gained)."
    )


def test_a_clear_best_level_that_changes_is_a_headline_change() -> None:
    rows = level_rows("a", 80, 50) + level_rows("b", 50, 80)
    found = conclusions(pl.DataFrame(rows), ConclusionSettings("cond"), stored="stored",
                        schemes=["v3"])  # fmt: skip
    (ranking,) = found.rankings
    assert ranking.stored_p_best["a"] > 0.95 and ranking.p_best["b"] > 0.95
    assert ranking.clearly_changed()
    assert "the clear best cond (best in at least 95% of resamples) changed in 1 of 1" in (
        found.verdict()
    )


def test_comparison_only_schemes_are_counted_after_the_headline() -> None:
    # "v3" keeps every label; "framework" reverses the effect (+30 -> -30 pp)
    rows = level_rows("a", 50, 50) + level_rows("b", 80, 80)
    table = pl.DataFrame(rows).with_columns(
        framework=pl.when(pl.col("cond") == "b").then(pl.col("q") < "q2").otherwise(pl.col("v3"))
    )
    found = conclusions(table, ConclusionSettings("cond", "a"), stored="stored",
                        schemes=["v3", "framework"])  # fmt: skip
    assert [c.status for c in found.contrasts] == ["same", "significant reversal"]
    assert found.verdict().startswith("Conclusions change under re-labelling: 1 of 2 contrasts")
    held = found.verdict(comparison_only={"framework"})
    assert held == (
        "Conclusions hold: no contrast or ranking of cond changed beyond resampling noise. "
        "Shown for comparison only (framework): 1 contrasts and 1 rankings changed, not counted "
        "above."
    )
    # when every scheme is a comparison one, they are what was compared
    assert found.verdict(comparison_only={"v3", "framework"}) == found.verdict()


def test_verdict_reads_as_holding_only_when_nothing_moved() -> None:
    rows = level_rows("a", 50, 50) + level_rows("b", 70, 70)
    table = pl.DataFrame(rows)
    found = conclusions(table, ConclusionSettings("cond"), stored="stored", schemes=["v3"])
    assert found.verdict() == (
        "Conclusions hold: all 1 contrasts of cond are the same within resampling noise, and "
        "every ranking keeps its order."
    )
    (ranking,) = found.rankings
    assert ranking.sentence(compare="cond") == (
        f"Under v3 the best cond is b (best in {100 * ranking.p_best['b']:.0f}% of resamples), "
        "as stored; order unchanged: b > a"
    )
    alone = conclusions(table, ConclusionSettings("cond"), stored="stored")
    assert alone.verdict() == "No contrast of cond to check: no scheme, or fewer than 2 levels."
    unscored = table.with_columns(v3=pl.when(pl.col("cond") == "b").then(pl.col("v3")))
    missing = conclusions(unscored, ConclusionSettings("cond"), stored="stored", schemes=["v3"])
    assert missing.verdict() == (
        "Conclusions not fully checked: 1 of 1 contrasts could not be estimated."
    )


def level_rows(
    level: str, stored_right: int, scheme_right: int, n: int = 100
) -> list[dict[str, object]]:
    """n rows of one level; the scheme changes the fewest labels that give its count."""
    return [
        {"cond": level, "stored": i < stored_right, "v3": i < scheme_right, "q": f"q{i}"}
        for i in range(n)
    ]


# --- reference values (statsmodels, scipy) ---------------------------------------------------


def test_table_statistics_match_references_without_item() -> None:
    found = run(status_table())
    for row in found.levels:
        if row.scored == 0:
            assert (row.accuracy_pct, row.ci_pct) == (None, None)
            continue
        assert row.ci_pct is not None
        expected = proportion_confint(row.correct, row.scored, method="wilson")
        assert [x / 100 for x in row.ci_pct] == pytest.approx(list(expected), abs=1e-12)
    by_case = {c.stratum["case"]: c for c in found.contrasts}
    stored = {(r.stratum["case"], r.level): r for r in found.levels if r.labelling == "stored"}
    for case, contrast in by_case.items():
        a, b = stored[(case, "treat")], stored[(case, "control")]
        low, high = confint_proportions_2indep(
            a.correct, a.scored, b.correct, b.scored, method="newcomb"
        )
        assert contrast.stored_ci == pytest.approx((100 * low, 100 * high), abs=1e-9)
        p = proportions_ztest([a.correct, b.correct], [a.scored, b.scored])[1]
        assert contrast.stored_p == pytest.approx(p)


def test_holm_runs_over_all_contrasts_of_one_scheme() -> None:
    found = run(status_table())
    stored = [c.stored_p for c in found.contrasts]
    assert [c.stored_holm_p for c in found.contrasts] == pytest.approx(
        list(multipletests(stored, method="holm")[1])
    )
    estimable = [c for c in found.contrasts if c.p is not None]
    expected = multipletests([c.p for c in estimable], method="holm")[1]
    assert [c.holm_p for c in estimable] == pytest.approx(list(expected))


# --- cluster bootstrap, rankings, summaries ---------------------------------------------------


def test_cluster_bootstrap_widens_intervals_when_items_repeat() -> None:
    # 20 items x 10 identical rows at each level: only 20 independent observations per level.
    rows = [
        {"cond": level, "stored": (i + shift) % 20 < 10, "v3": (i + shift) % 20 < 10, "q": f"q{i}"}
        for level, shift in (("control", 0), ("treat", 4))
        for i in range(20)
        for _ in range(10)
    ]
    table = pl.DataFrame(rows)
    naive = conclusions(table, ConclusionSettings("cond", "control"), stored="stored")
    clustered = conclusions(table, ConclusionSettings("cond", "control", item="q"), stored="stored")
    width = [(lv.ci_pct[1] - lv.ci_pct[0]) for lv in (naive.levels[0], clustered.levels[0])]  # type: ignore[index]  # both have an interval
    assert width[1] > 2.5 * width[0]  # ~sqrt(10) wider


def test_ranking_orders_tau_and_best_share() -> None:
    rows = level_rows("a", 80, 40) + level_rows("b", 60, 60) + level_rows("c", 40, 80)
    found = conclusions(
        pl.DataFrame(rows), ConclusionSettings("cond", "a"), stored="stored", schemes=["v3"]
    )
    (ranking,) = found.rankings
    assert ranking.stored_order == ("a", "b", "c") and ranking.order == ("c", "b", "a")
    assert ranking.kendall_tau == pytest.approx(-1.0) and ranking.best_changed
    assert list(ranking.p_best) == ["c", "b", "a"]
    assert sum(ranking.p_best.values()) == pytest.approx(1.0)
    assert ranking.p_best["c"] > 0.99 and ranking.stored_p_best["a"] > 0.99


def test_ties_in_a_ranking_keep_the_listing_order() -> None:
    rows = level_rows("b", 50, 50) + level_rows("control", 50, 50) + level_rows("a", 50, 50)
    found = conclusions(
        pl.DataFrame(rows), ConclusionSettings("cond", "control"), stored="stored", schemes=["v3"]
    )
    (ranking,) = found.rankings
    assert ranking.order == ("control", "a", "b") == ranking.stored_order
    assert ranking.kendall_tau is None  # both accuracy lists are constant
    assert ranking.p_best["a"] == pytest.approx(ranking.p_best["b"], abs=0.1)


def test_contrast_pairs() -> None:
    assert contrast_pairs(["b", "a"], None) == [("a", "b")]
    assert contrast_pairs(["c", "a"], "a") == [("c", "a")]
    assert contrast_pairs(["c", "a"], "z") == []


def test_json_has_exactly_the_issue_keys() -> None:
    data = run(status_table(), item="q").to_dict()
    assert list(data) == ["settings", "contrasts", "rankings"]
    assert data["settings"] == {
        "compare": "cond",
        "baseline": "control",
        "strata": ["case"],
        "item": "q",
    }
    assert list(data["contrasts"][0]) == [
        "scheme",
        "stratum",
        "level",
        "baseline",
        "stored_effect_pp",
        "stored_ci",
        "stored_p",
        "effect_pp",
        "ci",
        "p",
        "holm_p",
        "change_pp",
        "change_ci",
        "status",
    ]
    assert list(data["rankings"][0]) == [
        "scheme",
        "stratum",
        "stored_order",
        "order",
        "kendall_tau",
        "best_changed",
        "p_best",
    ]
    assert data["contrasts"][0]["stratum"] == {"case": "gained"}  # strata in sorted order


# --- invariances -----------------------------------------------------------------------------

LEVELS = st.sampled_from(["a", "b", "c"])
LABELS = st.sampled_from([True, False, None])
ROWS = st.lists(
    st.tuples(
        LEVELS,
        st.sampled_from(["x", "y"]),
        st.sampled_from(["q1", "q2", "q3", "q4"]),
        LABELS,
        LABELS,
    ),
    min_size=1,
    max_size=40,
)


def frame(rows: Sequence[tuple[str, str, str, bool | None, bool | None]]) -> pl.DataFrame:
    schema = {
        "cond": pl.String,
        "g": pl.String,
        "q": pl.String,
        "stored": pl.Boolean,
        "v3": pl.Boolean,
    }
    return pl.DataFrame(rows, schema=schema, orient="row")


@settings(max_examples=60)
@given(ROWS, st.sampled_from([None, "q"]))
def test_a_scheme_equal_to_the_stored_labels_changes_nothing(
    rows: list[tuple[str, str, str, bool | None, bool | None]], item: str | None
) -> None:
    table = frame(rows).with_columns(pl.col("stored").alias("v3"))
    chosen = ConclusionSettings("cond", strata=("g",), item=item, n_boot=50)
    found = conclusions(table, chosen, stored="stored", schemes=["v3"])
    for c in found.contrasts:
        assert c.status in ("same", "not estimable")
        if c.status == "same":
            assert c.change_pp == 0.0 and c.change_ci in ((0.0, 0.0), None)
            assert (c.effect_pp, c.ci, c.p, c.holm_p) == (
                c.stored_effect_pp,
                c.stored_ci,
                c.stored_p,
                c.stored_holm_p,
            )
    for r in found.rankings:
        assert r.order == r.stored_order and not r.best_changed
        assert r.p_best == r.stored_p_best
    assert not found.verdict().startswith("Conclusions change")
    assert not found.changed_contrasts() or {c.status for c in found.changed_contrasts()} == {
        "not estimable"
    }


@settings(max_examples=40)
@given(ROWS, st.sampled_from([None, "q"]), st.integers(0, 2**32 - 1))
def test_row_order_and_partitioning_do_not_change_the_numbers(
    rows: list[tuple[str, str, str, bool | None, bool | None]], item: str | None, split_seed: int
) -> None:
    table = frame(rows)
    chosen = ConclusionSettings("cond", strata=("g",), item=item, n_boot=50, seed=7)
    whole = conclusions(table, chosen, stored="stored", schemes=["v3"]).to_dict()
    rng = np.random.default_rng(split_seed)
    shuffled = table[rng.permutation(table.height).tolist()]
    assert conclusions(shuffled, chosen, stored="stored", schemes=["v3"]).to_dict() == whole
    side = rng.integers(0, 3, size=table.height)
    parts = [
        outcome_counts(table.filter(pl.Series(side == k)), chosen, stored="stored", schemes=["v3"])
        for k in range(3)
    ]
    merged = merge_outcome_counts(parts[::-1])
    assert conclusions_from_counts(merged, chosen).to_dict() == whole


def test_same_seed_same_numbers_other_seed_other_intervals() -> None:
    table = status_table()
    first, again = run(table, item="q", seed=5), run(table, item="q", seed=5)
    assert first == again
    other = run(table, item="q", seed=6)
    assert [c.change_ci for c in other.contrasts] != [c.change_ci for c in first.contrasts]


def test_adding_a_scheme_leaves_the_others_unchanged() -> None:
    table = status_table().with_columns(pl.col("stored").not_().alias("flipped"))
    chosen = ConclusionSettings("cond", "control", strata=("case",), item=None, n_boot=200)
    alone = conclusions(table, chosen, stored="stored", schemes=["v3"])
    both = conclusions(table, chosen, stored="stored", schemes=["v3", "flipped"])
    assert [c for c in both.contrasts if c.scheme == "v3"] == list(alone.contrasts)


# --- input checks ----------------------------------------------------------------------------


def test_clear_errors_for_unusable_input() -> None:
    table = status_table()
    with pytest.raises(ValueError, match="baseline 'nope' is not a level"):
        conclusions(table, ConclusionSettings("cond", "nope"), stored="stored")
    with pytest.raises(ValueError, match="has null values"):
        conclusions(
            table.with_columns(q=pl.lit(None, pl.String)),
            ConclusionSettings("cond", item="q"),
            stored="stored",
        )
    with pytest.raises(ValueError, match="booleans or 0/1"):
        conclusions(
            table.with_columns(pl.col("q").alias("bad")), ConclusionSettings("cond"), stored="bad"
        )
    with pytest.raises(ValueError, match="not in the table"):
        conclusions(table, ConclusionSettings("cond"), stored="missing")
    with pytest.raises(ValueError, match="names the stored labels"):
        conclusions(table, ConclusionSettings("cond"), stored="stored", schemes={"stored": "v3"})
    with pytest.raises(ValueError, match="both compared and a stratum"):
        ConclusionSettings("cond", strata=("cond",))
    with pytest.raises(TypeError):
        ConclusionSettings("cond", strata="case")  # type: ignore[arg-type]  # wrong on purpose


def test_integer_labels_and_levels_are_accepted() -> None:
    table = pl.DataFrame({"temp": [0, 0, 1, 1], "ok": [1, 0, 1, 1], "v3": [1, None, 0, 1]})
    found = conclusions(
        table, ConclusionSettings("temp", baseline="0"), stored="ok", schemes=["v3"]
    )
    (contrast,) = found.contrasts
    assert (contrast.level, contrast.baseline) == ("1", "0")
    assert (contrast.stored_effect_pp, contrast.effect_pp) == (50.0, -50.0)


def test_the_package_needs_neither_scipy_nor_statsmodels() -> None:
    code = (
        "import sys, answer_audit.analysis.conclusions; "
        "assert not {'scipy', 'statsmodels'} & set(sys.modules), sorted(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def freeform_v3(raw: str) -> str | None:
    value = extract(raw, "freeform/v3").value
    return None if value is None else str(value)


@pytest.mark.real
def test_conformity_effects_move_under_freeform_v3() -> None:
    folder = REAL / "conformity"
    if not folder.is_dir():
        pytest.skip(f"real data not present at {folder}")
    table = pl.concat(
        [pl.read_csv(path, infer_schema_length=0) for path in sorted(folder.glob("*.csv"))]
    ).with_columns(pl.col("ground_truth_text").replace("None", None))
    rescored = [
        None if truth is None else is_correct(freeform_v3(raw), truth, "v3")
        for raw, truth in table.select("raw_text", "ground_truth_text").iter_rows()
    ]
    table = table.with_columns(
        # Rows without a truth are unscored under both labellings, so both compare the same rows.
        stored=pl.when(pl.col("ground_truth_text").is_null())
        .then(None)
        .otherwise(pl.col("is_correct") == "1"),
        v3=pl.Series(rescored, dtype=pl.Boolean),
    )
    chosen = ConclusionSettings("condition_name", "control", ("variant",), "question")
    found = conclusions(table, chosen, stored="stored", schemes=["v3"])
    base = next(
        c
        for c in found.contrasts
        if c.stratum == {"variant": "base"} and c.level == "authoritative_bias"
    )
    assert base.stored_effect_pp == pytest.approx(-5.0)
    assert base.effect_pp == pytest.approx(-20.0)
    assert base.status == "gained"
    assert found.verdict().startswith("Conclusions change under re-labelling")
    assert sum(r.best_changed for r in found.rankings) >= 2


@pytest.mark.parametrize("module", [conclusions_module, conclusions_counts, conclusions_results])
def test_docstring_examples_hold(module: ModuleType) -> None:
    assert doctest.testmod(module).failed == 0


def test_a_section_sets_the_comparison_presets_aside_and_weighs_each_change() -> None:
    from answer_audit.analysis.conclusions_section import (
        CHANGED,
        COMPARISON_ONLY,
        NOISE,
        UNCHANGED,
        ConclusionsSection,
    )

    rows = level_rows("a", 50, 50) + level_rows("b", 80, 80) + level_rows("c", 60, 61)
    table = pl.DataFrame(rows).with_columns(
        pl.when(pl.col("cond") == "b").then(pl.col("q") < "q2").otherwise(pl.col("v3"))
        .alias("choice/answer-colon-first"),
        pl.col("v3").alias("choice/v4"),
    )  # fmt: skip
    schemes = ["choice/v4", "choice/answer-colon-first"]
    found = conclusions(table, ConclusionSettings("cond", "a"), stored="stored", schemes=schemes)
    section = ConclusionsSection(found)
    assert section.aside() == {"choice/answer-colon-first"}
    weights = {(c.scheme, c.level): section.weight(c) for c in found.contrasts}
    assert weights == {("choice/v4", "b"): UNCHANGED, ("choice/v4", "c"): UNCHANGED,
                       ("choice/answer-colon-first", "b"): COMPARISON_ONLY,
                       ("choice/answer-colon-first", "c"): UNCHANGED}  # fmt: skip
    assert not section.changed()
    assert section.verdict().startswith("Conclusions hold: no contrast or ranking of cond")
    assert "Shown for comparison only (choice/answer-colon-first)" in section.verdict()
    # named by the caller instead, or every scheme a comparison one: all count
    assert ConclusionsSection(found, comparison_only=()).changed()
    only = conclusions(table, ConclusionSettings("cond", "a"), stored="stored",
                       schemes=["choice/answer-colon-first"])  # fmt: skip
    assert ConclusionsSection(only).aside() == frozenset()
    assert ConclusionsSection(only).changed()
    every = run(status_table())
    weighed = ConclusionsSection(every)
    assert {weighed.weight(c) for c in every.contrasts} == {CHANGED, UNCHANGED}
    assert {weighed.weight(r) for r in every.rankings} == {CHANGED, NOISE, UNCHANGED}
