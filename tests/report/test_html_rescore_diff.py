"""The rescore and diff HTML reports without a browser: facts, charts, marks, escaping, CLI."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest
from markupsafe import escape
from typer.testing import CliRunner

from answer_audit.analysis.diff import DiffResult, diff_labelings
from answer_audit.analysis.rescore import RescoreResult, rescore
from answer_audit.analysis.stats import holm, paired_delta_ci
from answer_audit.cli import app
from answer_audit.report.html import ELIDED, GAP_CONTEXT, mark_spans
from answer_audit.report.html.charts import heat_table
from answer_audit.report.html.diff import render_diff_html
from answer_audit.report.html.rescore import delta_interval, render_rescore_html
from html_fixtures import (
    HOSTILE,
    STAMP,
    Elements,
    assert_self_contained,
    choice_diff,
    choice_rescore,
    choice_table,
    hostile_diff,
    hostile_rescore,
    json_rescore,
)

# Every element our templates and charts may emit; anything else came from model text.
ALLOWED_TAGS = {
    "html", "head", "meta", "title", "link", "style", "body", "nav", "div", "span", "a", "main",
    "header", "section", "p", "article", "h1", "h2", "h3", "dl", "dt", "dd", "table", "thead",
    "tbody", "tfoot", "tr", "th", "td", "code", "strong", "em", "svg", "line", "circle", "polygon",
    "rect", "path", "text", "details", "summary", "pre", "mark", "footer", "ul", "li", "br",
    "wbr", "i",
}  # fmt: skip


def section(page: str, anchor: str) -> str:
    start = page.index(f'id="{anchor}"')
    end = page.find("<section", start)
    return page[start : end if end != -1 else len(page)]


@pytest.fixture(scope="module")
def choice() -> RescoreResult:
    return choice_rescore()


@pytest.fixture(scope="module")
def diff() -> DiffResult:
    return choice_diff()


# ------------------------------------------------------------------ rescore


def test_rescore_cards_show_both_sides_and_the_change(choice: RescoreResult) -> None:
    page = render_rescore_html(choice, generated_at=STAMP)
    for anchor in ("summary", "groups", "recall", "incidence", "confusion"):
        assert f'id="{anchor}"' in page and f'href="#{anchor}"' in page
    summary = section(page, "summary")
    o = choice.overall
    for side, m in (("stored", o.stored), ("rescored", o.rescored)):
        assert m is not None and m.accuracy is not None and m.balanced_accuracy is not None
        assert m.bootstrap.accuracy is not None
        lo, hi = m.bootstrap.accuracy.ci
        card = summary[summary.index(f'id="card-{side}"') :]
        assert f'{100 * m.accuracy:.1f}</span><span class="unit">% accuracy' in card
        assert f"95% CI {100 * lo:.1f}–{100 * hi:.1f}" in card
        assert f"{100 * m.balanced_accuracy:.1f}%" in card
    assert o.change is not None
    change = summary[summary.index('id="card-change"') :]
    assert f"{100 * o.change.accuracy_delta:+.1f}</span>" in change
    assert f"<dt>flips</dt><dd>{o.change.flips}</dd>" in change
    assert f"{o.change.mcnemar_p:.3f}" in change
    assert "<title>Rescore with choice/v3</title>" in page and STAMP in page


def test_rescore_change_interval_is_the_paired_bootstrap_of_the_rows(
    choice: RescoreResult,
) -> None:
    rows = choice.rows
    lo, hi = paired_delta_ci(rows["stored_is_correct"].to_numpy(), rows["is_correct"].to_numpy(),
                             B=200, seed=3)  # fmt: skip
    # the helper gives the error-rate change; the report shows the accuracy change
    assert delta_interval(choice.overall, choice.settings) == pytest.approx((-hi, -lo))
    no_stored = rescore(choice_table().drop("parsed"), "choice/v3", n_boot=50)
    assert delta_interval(no_stored.overall, no_stored.settings) is None


def test_rescore_groups_have_bars_a_forest_marker_and_holm_diamonds(
    choice: RescoreResult,
) -> None:
    part = Elements(section(render_rescore_html(choice), "groups"))
    assert len(part.with_class("bars")) == len(choice.groups)
    markers = part.with_class("fp-pt")
    assert len(markers) == len(choice.groups)
    changes = [g.comparison.change for g in choice.groups]
    adjusted = holm([None if c is None else c.mcnemar_p for c in changes])
    significant = sum(p is not None and p < 0.05 for p in adjusted)
    assert significant == 1  # run-1: every flip goes one way
    assert len([m for m in markers if "sig" in m["class"].split()]) == significant
    # each accuracy bar carries its bootstrap whisker
    assert len(part.with_class("bar-ci")) == 2 * len(choice.groups)


def test_rescore_without_a_stored_parse_has_bars_but_no_change(tmp_path: Path) -> None:
    r = rescore(choice_table().drop("parsed"), "choice/v3", group_by=("g",), n_boot=50)
    page = render_rescore_html(r)
    assert page.count("No stored parse given") == 2  # the stored card and the change card
    part = Elements(section(page, "groups"))
    assert len(part.with_class("bars")) == len(r.groups) and not part.with_class("fp-pt")
    assert 'id="confusion"' not in page


def test_rescore_recall_rows_per_truth_class(choice: RescoreResult) -> None:
    part = section(render_rescore_html(choice), "recall")
    for cls, cell in choice.overall.rescored.per_class_recall.items():
        assert f'<td class="mono">{cls}</td>' in part
        assert f"{cell.correct}/{cell.total}" in part


def test_json_incidence_draws_a_truth_bar_per_scored_category() -> None:
    r = json_rescore()
    page = render_rescore_html(r)
    part = section(page, "incidence")
    assert "How the JSON field appeared" in part
    scored = [c for c in r.incidence.categories if c.scored]
    assert len(Elements(part).with_class("stack")) == len(scored)
    assert part.count('<tr class="dim">') == sum(1 for c in r.incidence.categories if not c.n)
    for k in r.incidence.classes:
        assert f'<span class="keep">{k}</span>' in part
    # the null row: rows that said null, by their true grade
    null = next(c for c in r.incidence.categories if c.category == "null")
    assert f"truth 1: {null.truth['1']} of {null.scored}" in part


def test_rule_incidence_for_other_presets(choice: RescoreResult) -> None:
    part = section(render_rescore_html(choice), "incidence")
    assert "Which rule fired" in part
    for c in choice.incidence.categories:
        assert f"<code>{c.category}</code>" in part


def test_confusion_heat_map_shades_same_and_changed_values_apart() -> None:
    h = heat_table(["a", "b", "none"], [[50, 6, 0], [1, 4, 0], [0, 0, 0]])
    rows = h["rows"]
    assert isinstance(rows, list)
    cells = [[c["cls"] for c in row["cells"]] for row in rows]
    assert cells[0] == ["heat same h5", "heat diff h5", "heat diff h0"]
    assert cells[1] == ["heat diff h1", "heat same h1", "heat diff h0"]
    assert (h["columns"], h["total"], h["same"]) == ([51, 10, 0], 61, 54)


def test_rescore_confusion_table_in_the_page(choice: RescoreResult) -> None:
    assert choice.confusion is not None
    part = Elements(section(render_rescore_html(choice), "confusion"))
    assert len(part.with_class("heat")) == len(choice.confusion.labels) ** 2


# --------------------------------------------------------------------- diff


def test_diff_summary_confusion_groups_and_rule_pairs(diff: DiffResult) -> None:
    page = render_diff_html(diff, generated_at=STAMP)
    for anchor in ("summary", "confusion", "groups", "rules", "disagreements"):
        assert f'id="{anchor}"' in page
    ag, acc = diff.agreement, diff.accuracy
    assert acc is not None
    summary = section(page, "summary")
    assert ag.rate is not None
    assert f"{100 * ag.rate:.1f}</span>" in summary
    assert f"{ag.agree} of {ag.n} rows" in summary
    assert f"{100 * acc.a:.1f}</span>" in summary and f"{100 * acc.b:.1f}</span>" in summary
    assert f"{100 * acc.delta:+.1f} pp" in summary and f"{acc.mcnemar_p:.3f}" in summary
    groups = Elements(section(page, "groups"))
    assert len(groups.with_class("bars")) == 2 * len(diff.groups)  # agreement, A/B accuracy
    rules = section(page, "rules")
    for p in diff.rule_pairs:
        assert f'<code>{p.a}</code></td><td><code>{p.b}</code></td><td class="num">{p.n}' in rules


def test_diff_disagreements_mark_each_sides_span_in_the_raw_text(diff: DiffResult) -> None:
    page = render_diff_html(diff, max_rows=len(diff.disagreements))
    found = Elements(section(page, "disagreements"))
    details = [a for t, a in found.tags if t == "details"]
    assert len(details) == len(diff.disagreements) and not [a for a in details if "open" in a]
    expected = []
    for e, (raw_a, raw_b) in zip(diff.disagreements, diff.raw_texts, strict=True):
        assert raw_a == raw_b  # one table: one raw text, both spans in it
        for name, side in (("a", e.a), ("b", e.b)):
            if side.span is not None:
                expected.append((name, (raw_a or "")[side.span[0] : side.span[1]]))
    marks = list(zip(found.mark_classes, found.marks, strict=True))[3:]  # after the legend
    got = [(cls.removeprefix("side-"), text) for cls, text in marks]
    assert sorted(got) == sorted(expected)  # these spans never overlap


def test_diff_max_rows_and_two_tables_show_two_raw_texts() -> None:
    a = choice_table().with_columns(raw=pl.lit("Answer: a"))
    b = choice_table()
    d = diff_labelings(a, "choice/v3", "choice/v3", frame_b=b, align="order")
    page = render_diff_html(d, max_rows=3)
    part = section(page, "disagreements")
    assert f"the first 3 of {len(d.disagreements)}" in part
    assert part.count("<details") == 3
    assert part.count("Raw output A,") == 3 and part.count("Raw output B,") == 3


def test_diff_without_raw_texts_shows_the_snippets_unmarked(diff: DiffResult) -> None:
    data = diff.to_dict()
    assert "raw_texts" not in data  # the JSON is unchanged
    bare = dataclasses.replace(diff, raw_texts=())
    part = section(render_diff_html(bare, max_rows=2), "disagreements")
    assert "<mark" not in part.split("</div>", 1)[1]  # only the legend marks
    assert str(escape(diff.disagreements[0].a.snippet)) in part


def test_diff_with_no_disagreement() -> None:
    d = diff_labelings(choice_table(), "choice/v3", "choice/v3")
    page = render_diff_html(d)
    assert "None: both sides extract the same value on every row." in page
    assert 'id="rules"' not in page


def test_mark_spans_nests_overlaps_clamps_and_elides() -> None:
    raw = "0123456789"
    assert mark_spans(raw, {"a": [0, 10], "b": [3, 5]}).parts == (
        ("012", "a"), ("34", "ab"), ("56789", "a"))  # fmt: skip
    assert mark_spans(raw, {"a": [2, 6], "b": [4, 99]}).parts == (
        ("23", "a"), ("45", "ab"), ("6789", "b"))  # fmt: skip
    view = mark_spans(raw, {"a": None, "b": [-3, 1]})
    assert (view.before, view.parts, view.after) == ("", (("0", "b"),), "123456789")
    assert mark_spans(raw, {"a": None}).parts == ()
    far = "A" + "x" * 5000 + "B"
    view = mark_spans(far, {"a": [0, 1], "b": [5001, 5002]})
    gap = str(5000 - 2 * GAP_CONTEXT)
    assert [kind for _, kind in view.parts] == ["a", "", ELIDED, "", "b"]
    assert view.parts[2][0] == gap and sum(len(t) for t, k in view.parts if k != ELIDED) == 602


# ---------------------------------------------------------- both: safety


PAGES: dict[str, Callable[[], str]] = {
    "rescore": lambda: render_rescore_html(hostile_rescore()),
    "diff": lambda: render_diff_html(hostile_diff()),
}


@pytest.mark.parametrize("kind", list(PAGES))
def test_hostile_text_is_only_ever_escaped(kind: str) -> None:
    page = PAGES[kind]()
    lowered = page.lower()
    for tag in ("<script", "<img", "</textarea", "<b>", "<iframe", "<textarea"):
        assert tag not in lowered, tag
    unbroken = page.replace("<wbr>", "")  # our line-break hints inside long group values
    for text in HOSTILE:
        assert str(escape(text)) in unbroken
    assert "{{ 7*7 }}" in page and ">49<" not in page and "49 London" not in page
    tags = Elements(page).tags
    assert {t for t, _ in tags} <= ALLOWED_TAGS
    assert not [a for _, attrs in tags for a in attrs if a.startswith("on")]


def test_hostile_diff_marks_the_spans_as_text() -> None:
    d = hostile_diff()
    found = Elements(render_diff_html(d))
    marks = list(zip(found.mark_classes, found.marks, strict=True))[3:]
    for text in HOSTILE:
        # freeform/v1 reads the whole output, freeform/v2 the tail after </think>: nested spans
        assert ("side-ab", f"{text} London") in marks
        assert ("side-a", f"Paris? {text}\n</think>\n") in marks


@pytest.mark.parametrize("kind", list(PAGES))
def test_self_contained_and_locked_down(kind: str) -> None:
    assert_self_contained(PAGES[kind]())


def test_output_is_deterministic() -> None:
    assert render_rescore_html(choice_rescore(), generated_at=STAMP) == render_rescore_html(
        choice_rescore(), generated_at=STAMP
    )
    assert render_diff_html(choice_diff(), generated_at=STAMP) == render_diff_html(
        choice_diff(), generated_at=STAMP
    )


def test_groups_with_long_values_can_wrap_and_empty_groups_render() -> None:
    frame = pl.DataFrame({"id": ["1", "2"], "raw": ["Answer: a", "nothing"], "truth": ["a", None],
                          "parsed": ["a", None],
                          "g": ["20251127-0411_qwen3_hf_ft_v2_dev_norag_direct.json", "empty"]})  # fmt: skip
    page = render_rescore_html(rescore(frame, "choice/v3", group_by=("g",), n_boot=20))
    assert "20251127-<wbr>0411_<wbr>qwen3_<wbr>hf_<wbr>ft_<wbr>v2_<wbr>dev_" in page
    assert '<td class="group">empty</td><td class="num">0</td>' in page
    assert '<td class="num">— → —</td>' in page


# ---------------------------------------------------------------------- CLI


def test_cli_rescore_and_diff_write_html_and_refuse_an_input(tmp_path: Path) -> None:
    source = tmp_path / "runs.csv"
    choice_table().write_csv(source)
    flags = ["--id", "id", "--group-by", "g", "--quiet"]
    runner = CliRunner()
    out = tmp_path / "rescore.html"
    done = runner.invoke(app, ["rescore", str(source), "--parser", "choice/v3", "--parsed",
                               "parsed", *flags, "--bootstrap", "50", "--out-html", str(out)])  # fmt: skip
    assert done.exit_code == 0, done.stderr
    assert f"wrote {out}" in done.stdout.replace("\n", "")
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    out = tmp_path / "diff.html"
    done = runner.invoke(app, ["diff", str(source), "--a", "stored:parsed", "--b", "choice/v3",
                               *flags, "--max-rows", "2", "--out-html", str(out)])  # fmt: skip
    assert done.exit_code == 0, done.stderr
    assert f"wrote {out}" in done.stdout.replace("\n", "")
    assert out.read_text(encoding="utf-8").count("<details") == 2
    for command in (["rescore", str(source), "--parser", "choice/v3"],
                    ["diff", str(source), "--a", "stored:parsed", "--b", "choice/v3"]):  # fmt: skip
        refused = runner.invoke(app, [*command, "--quiet", "--out-html", str(source)])
        assert refused.exit_code == 2 and "refusing to write" in refused.stderr
        clash = runner.invoke(app, [*command, "--quiet", "--out-html", str(tmp_path / "x"),
                                    "--out-md", str(tmp_path / "x")])  # fmt: skip
        assert clash.exit_code == 2 and "same file" in clash.stderr
