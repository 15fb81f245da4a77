"""The HTML audit report without a browser: structure, facts, escaping, self-containment."""

from __future__ import annotations

import importlib.resources
from pathlib import Path

import polars as pl
import pytest
from markupsafe import escape
from typer.testing import CliRunner

from answer_audit.analysis.audit import AuditResult, AuditSettings, audit
from answer_audit.cli import app
from answer_audit.report.html import environment, render_audit_html, split_raw
from answer_audit.report.html.charts import delta_scale, nice_ticks
from html_fixtures import (
    HOSTILE,
    STAMP,
    Elements,
    assert_self_contained,
    demo_result,
    hostile_result,
)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> AuditResult:
    return demo_result(tmp_path_factory.mktemp("demo"))


def section(page: str, anchor: str) -> str:
    start = page.index(f'id="{anchor}"')
    end = page.find("<section", start)
    return page[start : end if end != -1 else len(page)]


def test_sections_and_a_card_with_the_verdict_per_scheme(demo: AuditResult) -> None:
    page = render_audit_html(demo, generated_at=STAMP)
    for anchor in ("summary", "data", "markers", "sensitivity", "think"):
        assert f'id="{anchor}"' in page
    summary = section(page, "summary")
    for k, scheme in enumerate(demo.schemes, 1):
        assert f'id="card-scheme-{k}"' in summary
        assert str(escape(scheme.verdict)) in summary
        assert str(escape(scheme.verdict)) in section(page, f"scheme-{k}")
        assert f'href="#scheme-{k}"' in page  # in the table of contents
    assert STAMP in page


def test_forest_plot_has_one_marker_per_shown_cell_and_marks_significant_ones(
    demo: AuditResult,
) -> None:
    max_rows = 12
    page = render_audit_html(demo, max_rows=max_rows)
    alpha = demo.settings.alpha
    for k, scheme in enumerate(demo.schemes, 1):
        cells = demo.cells_of(scheme.name)
        shown = cells[:max_rows]
        found = Elements(section(page, f"scheme-{k}"))
        markers = found.with_class("fp-pt")
        assert len(markers) == len(shown)
        significant = [c for c in shown if c.holm_p is not None and c.holm_p < alpha]
        assert len([m for m in markers if "sig" in m["class"].split()]) == len(significant)
        assert len(found.with_class("sig")) >= len(significant)
        assert f"top {len(shown)} of {len(cells)}" in section(page, f"scheme-{k}")
    # the demo has a significant group in parse_only: it is drawn as a diamond
    assert any(s.significant_groups for s in demo.schemes)
    assert '<polygon class="fp-pt sig"' in page


def test_rule_provenance_bars_and_error_bars(demo: AuditResult) -> None:
    page = render_audit_html(demo)
    for k, scheme in enumerate(demo.schemes, 1):
        part = Elements(section(page, f"scheme-{k}"))
        rows = demo.cells_of(scheme.name)[:40]
        assert len(part.with_class("errors")) == len(rows)
        rules = demo.rules.get(scheme.name)
        stacks = part.with_class("stack")
        assert len(stacks) == (0 if rules is None else 1 + len(rules.groups))


def test_examples_mark_exactly_the_span(demo: AuditResult) -> None:
    page = render_audit_html(demo)
    found = Elements(page)
    expected = [e.raw[e.span[0] : e.span[1]] for e in demo.examples if e.span]
    # marks appear scheme by scheme, in example order, like the examples themselves
    assert sorted(found.marks) == sorted(expected)
    assert len(found.with_class("example")) == len(demo.examples)
    for tag, attrs in found.tags:
        if "example" in attrs.get("class", "").split():
            assert tag == "details" and "open" not in attrs


def test_hostile_text_is_only_ever_escaped() -> None:
    result = hostile_result()
    page = render_audit_html(result)
    lowered = page.lower()
    for tag in ("<script", "<img", "</textarea", "<b>", "<iframe", "<textarea"):
        assert tag not in lowered
    for text in HOSTILE:
        assert str(escape(text)) in page
    assert "{{ 7*7 }}" in page and "49 London" not in page
    # the span, hostile markup included, is inside <mark> as text
    marks = Elements(page).marks
    assert all(e.span is not None for e in result.examples)
    assert sorted(marks) == sorted(e.raw[e.span[0] : e.span[1]] for e in result.examples if e.span)
    assert all(text + " London" in marks for text in HOSTILE)
    # only our own elements: nothing a model wrote became a tag or an attribute
    allowed = {"html", "head", "meta", "title", "link", "style", "body", "nav", "div", "span", "a",
               "main", "header", "section", "p", "article", "h1", "h2", "h3", "dl", "dt", "dd",
               "table", "thead", "tbody", "tr", "th", "td", "code", "strong", "svg", "line",
               "circle", "polygon", "rect", "text", "details", "summary", "pre", "mark", "footer",
               "ul", "li", "wbr"}  # fmt: skip
    tags = Elements(page).tags
    assert {t for t, _ in tags} <= allowed
    assert not [a for _, attrs in tags for a in attrs if a.startswith("on")]


def test_self_contained_and_locked_down(demo: AuditResult) -> None:
    assert_self_contained(render_audit_html(demo))


def test_output_is_deterministic(demo: AuditResult, tmp_path: Path) -> None:
    first = render_audit_html(demo, generated_at=STAMP)
    assert render_audit_html(demo, generated_at=STAMP) == first
    assert render_audit_html(demo_result(tmp_path), generated_at=STAMP) == first


def test_autoescaping_is_on_and_templates_ship_in_the_package() -> None:
    env = environment()
    assert callable(env.autoescape) and env.autoescape("audit.html.j2") is True
    assert env.from_string("{{ x }}").render(x="<b>") == "&lt;b&gt;"
    templates = importlib.resources.files("answer_audit.report.html") / "templates"
    assert (templates / "audit.html.j2").is_file() and (templates / "base.html.j2").is_file()


def test_split_raw_clamps_and_cuts_around_the_span() -> None:
    assert split_raw("abc", None) == split_raw("abc", None, limit=10)
    view = split_raw("abc", [1, 99])
    assert (view.before, view.marked, view.after) == ("a", "bc", "")
    view = split_raw("abc", [-5, 1])
    assert (view.before, view.marked, view.after) == ("", "a", "bc")
    long = "x" * 1000 + "ANSWER" + "y" * 1000
    view = split_raw(long, [1000, 1006], limit=106)
    assert view.marked == "ANSWER" and (len(view.before), len(view.after)) == (50, 50)
    assert (view.cut_head, view.cut_tail) == (950, 950)
    view = split_raw(long, None, limit=100)
    assert view.marked is None and view.cut_tail == len(long) - 100


def test_nice_ticks_and_scale_cover_zero() -> None:
    assert nice_ticks(0, 100) == [0.0, 50.0, 100.0]
    scale = delta_scale([(2.0, 7.5)])
    assert scale.lo <= 0 <= 7.5 <= scale.hi
    assert delta_scale([]).lo < 0 < delta_scale([]).hi


def test_cli_audit_writes_html_and_refuses_an_input(tmp_path: Path) -> None:
    src = tmp_path / "t.csv"
    src.write_text(
        'raw,truth,label,parsed\n"Paris.\nuser: <b>x</b>",Paris,1,"Paris.\nuser: <b>x</b>"\n'
    )
    out = tmp_path / "r.html"
    result = CliRunner().invoke(app, ["audit", str(src), "--parsed", "parsed", "--label", "label",
                                      "--quiet", "--out-md", str(tmp_path / "r.md"),
                                      "--out-html", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert f"wrote {out}" in result.stdout.replace("\n", "")
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    refused = CliRunner().invoke(app, ["audit", str(src), "--quiet", "--parsed", "parsed",
                                       "--out-md", str(tmp_path / "r2.md"), "--out-html", str(src)])  # fmt: skip
    assert refused.exit_code == 2 and "refusing to write" in refused.stderr


def test_demo_writes_the_html_report(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["demo", "--out", str(tmp_path), "--quiet"])
    assert result.exit_code == 0, result.stderr
    page = tmp_path / "answer_parsing_audit.html"
    assert page.is_file() and f"wrote {page}" in result.stdout.replace("\n", "")


def test_small_and_choice_audits_render() -> None:
    one = pl.DataFrame({"id": ["1"], "raw": ["Paris"], "parsed": ["Paris"], "label": [True],
                        "truth": ["Paris"]})  # fmt: skip
    page = render_audit_html(audit(one))
    assert "all rows" in page and "No flips sampled for this scheme." in page
    choice = pl.DataFrame({"id": ["1", "2"], "raw": ["Answer: B", "(c) I think"], "label": [1, 0],
                           "truth": ["b", "a"]})  # fmt: skip
    result = audit(choice, settings=AuditSettings(kind="choice"))
    page = render_audit_html(result)
    assert "Not checked: the table has no stored parse or no stored label." in page
    assert len(Elements(page).with_class("fp-pt")) == len(result.cells)


def _long_group_result() -> AuditResult:
    groups = ["alpha", "x" * 300, "beta"]
    t = pl.DataFrame({
        "id": [str(i) for i in range(12)], "raw": ["Paris"] * 12,
        "parsed": ["Paris", "Rome"] * 6, "label": [False, True] * 6, "truth": ["Paris"] * 12,
        "g": [g for g in groups for _ in range(4)],
    })  # fmt: skip
    return audit(t, settings=AuditSettings(group_by=("g",), n_boot=50))


def test_a_long_group_value_wraps_in_every_table() -> None:
    # the audit's per-group and provenance tables kept it on one line: the numbers went
    # off-screen for every row
    page = render_audit_html(_long_group_result())
    # per-group tables of the 4 schemes, provenance of the 3 that parse (norm_only re-uses
    # the stored parse)
    assert page.count('<td class="group long">') == 4 + 3


def test_a_table_cut_to_zero_rows_says_so() -> None:
    page = render_audit_html(_long_group_result(), max_rows=0)
    assert "No scored rows." not in page
    assert "3 group(s) not shown: --max-rows limits the table" in page
