"""The conclusions section in the Markdown, HTML and terminal reports: first, changed first,
never an all-clear beside a change, hostile level names inert."""

from __future__ import annotations

import io
import re

import polars as pl
import pytest
from rich.console import Console

from answer_audit.analysis.audit import AuditResult, AuditSettings, audit
from answer_audit.analysis.conclusions import ConclusionSettings
from answer_audit.analysis.conclusions_section import (
    COMPARISON_ONLY,
    NOISE,
    ConclusionsSection,
    conclusions_from_labels,
)
from answer_audit.report.conclusions import change_groups
from answer_audit.report.html import environment, render_audit_html
from answer_audit.report.html.conclusions import conclusions_context
from answer_audit.report.markdown.audit import render_audit_markdown
from answer_audit.report.markdown.conclusions import conclusions_markdown
from answer_audit.report.terminal import print_audit_summary, print_conclusions
from answer_audit.schemes.apply import parse_scheme
from conclusion_fixtures import status_frame

SCHEMES = [parse_scheme("new=stored:numeric"), parse_scheme("same=stored:v1")]
LETTERS = "choice/letter-boundary"


@pytest.fixture(scope="module")
def result() -> AuditResult:
    settings = AuditSettings(group_by=("case",), compare="cond", baseline="control", item="q",
                             n_boot=500)  # fmt: skip
    return audit(status_frame(), SCHEMES, settings)


def terminal(result: AuditResult) -> str:
    buffer = io.StringIO()
    console = Console(file=buffer, width=200, color_system=None)
    print_audit_summary(result, console, console)
    return buffer.getvalue()


def test_markdown_section_is_first_and_lists_changes_first(result: AuditResult) -> None:
    md = render_audit_markdown(result)
    sections = re.findall(r"^## (.+)$", md, flags=re.M)
    assert sections[0] == "Conclusions"
    assert "**Conclusions change under re-labelling" in md
    changed = md.split("### Contrasts that changed")[1].split("###")[0]
    assert changed.strip().splitlines()[0].endswith(": significant reversal")
    table = md.split("### Every contrast")[1].split("###")[0]
    statuses = [row.rsplit("|", 2)[1].strip() for row in table.strip().splitlines()[2:]]
    assert statuses.index("same") > statuses.index("shifted")  # changed rows first


def test_html_section_is_first_with_a_forest_per_labelling(result: AuditResult) -> None:
    page = render_audit_html(result)
    assert page.index('id="conclusions"') < page.index('id="summary"')
    section = page.split('id="conclusions"')[1].split("</section>")[0]
    rows = section.split("<tbody>")[1].split("</tbody>")[0].split("</tr>")[:-1]
    assert len(rows) == 7  # one per stratum's contrast
    for row in rows:  # stored, new and same, side by side (— where not estimable)
        assert row.count('class="chart forest"') + row.count("—") == 3
    assert "significant reversal" in rows[0] and 'class="same"' in rows[-1]
    assert "<script" not in page and "_conclusions" not in page


def test_terminal_puts_the_verdict_first(result: AuditResult) -> None:
    shown = terminal(result)
    lines = shown.splitlines()
    assert lines[0] == "Conclusions"
    assert lines[1].startswith("Conclusions change under re-labelling")
    assert shown.index("significant reversal") < shown.index("rows, ")


def test_identical_labellings_read_as_holding(result: AuditResult) -> None:
    frame = status_frame().filter(pl.col("case") == "same")
    settings = AuditSettings(compare="cond", baseline="control", item="q", n_boot=200)
    held = audit(frame.with_columns(label=pl.col("new_ok").cast(pl.Int64)), SCHEMES[:1], settings)
    assert terminal(held).splitlines()[1].startswith("Conclusions hold")
    assert 'class="c-verdict holds"' in render_audit_html(held)


def test_level_names_are_escaped_everywhere() -> None:
    frame = status_frame().filter(pl.col("case") == "gained")
    frame = frame.with_columns(cond=pl.col("cond").replace("treat", "<img src=x onerror=alert(1)>"))
    settings = AuditSettings(compare="cond", baseline="control", item="q", n_boot=200)
    found = audit(frame, SCHEMES[:1], settings)
    assert "<img" not in render_audit_html(found)
    assert "<img" not in render_audit_markdown(found)


def test_a_significant_overall_shift_never_gets_the_all_clear_badge() -> None:
    # every row flips one way in two groups: the overall shift is significant, no group is
    frame = pl.DataFrame({
        "raw": ["x"] * 40, "parsed": ["1"] * 40, "label": [False] * 40, "truth": ["1"] * 40,
        "g": [f"g{i % 8}" for i in range(40)],
    })  # fmt: skip
    found = audit(frame, SCHEMES[:1], AuditSettings(group_by=("g",), n_boot=100))
    summary = found.schemes[0]
    assert summary.significant_groups == 0 and summary.overall.mcnemar_p < 0.05
    page = render_audit_html(found)
    badge = page.split("groups significant (Holm)")[1].split("</dd>")[0]
    assert "badge sig" in badge and "overall shift significant" in badge
    assert "badge ns" not in badge


def test_changes_within_noise_and_comparison_only_ones_have_headings_of_their_own() -> None:
    # "noisy" swaps b and c within noise (one row each); "choice/letter-boundary", a framework
    # convention shown for comparison, reverses b - a
    rows = []
    for level, right, noisy, boundary in (("a", 50, 50, 80), ("b", 60, 61, 20), ("c", 61, 60, 61)):
        rows += [{"cond": level, "stored": i < right, "noisy": i < noisy, "boundary": i < boundary}
                 for i in range(100)]  # fmt: skip
    frame = pl.DataFrame(rows)
    found = conclusions_from_labels(
        frame, ConclusionSettings("cond", n_boot=500), frame["stored"].to_list(),
        {"noisy": frame["noisy"].to_list(), LETTERS: frame["boundary"].to_list()},
    )  # fmt: skip
    section = ConclusionsSection(found)
    groups = change_groups(section)
    assert [g.weight for g in groups] == [NOISE, COMPARISON_ONLY]
    assert groups[0].contrasts == [] and [r.scheme for r in groups[0].rankings] == ["noisy"]
    assert groups[1].title == f"Shown for comparison only ({LETTERS}), not counted in the verdict"
    assert {c.scheme for c in groups[1].contrasts} == {LETTERS}
    assert section.verdict().startswith("Conclusions hold") and not section.changed()
    buffer = io.StringIO()
    print_conclusions(section, "", Console(file=buffer, width=200, color_system=None))
    shown = buffer.getvalue()
    headings = [line for line in shown.splitlines() if line in {g.title for g in groups}]
    assert headings == [g.title for g in groups]
    md = "\n".join(conclusions_markdown(section, ""))
    assert "### Changed within resampling noise: rankings" in md
    assert f"### Shown for comparison only ({LETTERS})" in md
    assert "### Contrasts that changed" not in md
    page = (
        environment()
        .get_template("_conclusions.html.j2")
        .render(**conclusions_context(section, ""))
    )
    assert 'class="c-verdict holds"' in page and "<h3>Changed within resampling noise" in page
