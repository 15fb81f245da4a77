import html
import json
import re

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from answer_audit.analysis.audit import AuditSettings, audit
from answer_audit.analysis.rescore import rescore
from answer_audit.report.markdown.audit import render_audit_markdown
from answer_audit.report.markdown.rescore import render_rescore_markdown
from answer_audit.report.markdown.safe import OwnMarkdown, cell, fence, table

HOSTILE = "a | b\nc ``` d ```` e <script>alert(1)</script>"


def test_cell_escapes_pipes_newlines_and_html() -> None:
    assert cell("a | b\nc\r\nd") == "a \\| b<br>c<br>d"
    assert cell("<img onerror=x>") == "&lt;img onerror=x&gt;"
    assert cell(None) == ""


@given(st.text())
def test_a_cell_never_breaks_the_row(text: str) -> None:
    rendered = table(["h"], [[text]])
    assert len(rendered.splitlines()) == 3  # header, rule, one physical body line
    body = rendered.splitlines()[2]
    # every unescaped pipe is a delimiter we wrote
    assert len(re.findall(r"(?<!\\)\|", body.replace("\\\\", ""))) == 2


@given(st.text())
def test_fence_is_longer_than_any_backtick_run(text: str) -> None:
    fenced = fence(text)
    ticks = re.match(r"`+", fenced)
    assert ticks is not None
    runs = [len(m) for m in re.findall(r"`+", text)]
    assert len(ticks.group()) > max(runs, default=0)
    assert fenced.endswith("\n" + ticks.group())


def test_report_sections_and_untrusted_text() -> None:
    t = pl.DataFrame(
        {"id": ["1", "2"], "raw": [HOSTILE + "</think>Rome", "Paris"], "parsed": [HOSTILE + "</think>Rome", "Paris"],
         "label": [True, True], "truth": ["a", "Paris"], "g": ["x|y", "z"]}
    )  # fmt: skip
    result = audit(t, settings=AuditSettings(group_by=("g",)))
    md = render_audit_markdown(result)
    headings = [line for line in md.splitlines() if line.startswith("## ")]
    assert headings == [
        "## Coverage", "## Stored-label consistency", "## Sensitivity (flips)",
        "## Significance verdicts", "## Marker incidence", "## Per-group deltas",
        "## Think artifacts", "## Rule provenance", "## Examples",
    ]  # fmt: skip
    assert "<script>" not in md.replace("```", "").split("## Examples")[0]
    assert "g=x\\|y" in md
    # the example's raw text sits in a fence of 5 backticks (the text has a run of 4)
    assert "`````text\n" in md
    json.dumps(result.to_dict())  # the JSON report is serializable as is


def test_loud_warning_on_consistency_mismatch() -> None:
    t = pl.DataFrame(
        {"id": ["1"], "raw": ["Paris"], "parsed": ["Paris"], "label": [False], "truth": ["Paris"]}
    )
    md = render_audit_markdown(audit(t))
    assert "WARNING: the stored labels were not produced by this matcher" in md


markdown_it = pytest.importorskip("markdown_it")  # comes with rich
_RENDERER = markdown_it.MarkdownIt("commonmark").enable("table").enable("strikethrough")


def _rendered_cell(text: str) -> str:
    """What a Markdown viewer shows in the table cell holding ``text`` (tags stripped)."""
    html_out = _RENDERER.render(table(["h"], [[text]]))
    body = re.search(r"<td>(.*?)</td>", html_out, re.S)
    shown = "" if body is None else body.group(1)
    assert "<" not in shown.replace("<br>", "").replace("<br />", ""), html_out
    return html.unescape(shown.replace("<br />", "\n").replace("<br>", "\n"))


def test_links_and_images_in_model_text_stay_text() -> None:
    hostile = "![t](http://evil.example/x.png) [b](a) <http://x> *e* _u_ ~~s~~ `c` \\* run_t0_1"
    md = table(["h"], [[hostile]])
    assert "run_t0_1" in md  # snake_case ids keep their underscores unescaped
    assert _rendered_cell(hostile) == hostile


# Printable text a model writes on one line (no control characters: viewers replace NUL, and a
# cell is one line; leading and trailing spaces are trimmed by every table renderer).
_ONE_LINE = st.text(
    st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="\x85")
).map(str.strip)


@given(_ONE_LINE)
def test_a_cell_renders_as_written(text: str) -> None:
    assert _rendered_cell(text) == text


def test_own_markdown_keeps_its_code_spans_in_an_untrusted_table() -> None:
    described = OwnMarkdown("lines that are one choice alone (`bare-line`)")
    assert table(["rule", "meaning"], [["`x`", described]]).splitlines()[2] == (
        "| \\`x\\` | lines that are one choice alone (`bare-line`) |"
    )


def test_a_cut_rule_description_closes_its_code_span() -> None:
    from answer_audit.analysis.incidence import rule_descriptions

    long = "`answer-line`: the last line holding `" + "(?:answer|final)" * 10 + "` <b>x</b>"
    cut = rule_descriptions([long])["answer-line"]
    assert cut.endswith("`…") and cut.count("`") % 2 == 0


def test_a_missing_group_value_is_not_the_text_none() -> None:
    t = pl.DataFrame({"id": ["1", "2"], "raw": ["Paris", "Paris"], "parsed": ["Paris", "Paris"],
                      "label": [True, True], "truth": ["Paris", "Paris"], "g": ["None", None]})  # fmt: skip
    md = render_audit_markdown(audit(t, settings=AuditSettings(group_by=("g",))))
    assert "g=None" in md and "g=—" in md


# --------------------------------------------------------------------------------- ids are escaped


def test_audit_markdown_example_heading_escapes_the_id() -> None:
    hostile_id = "x\n## Injected <img src=x onerror=alert(1)>"
    frame = pl.DataFrame(
        {"id": [hostile_id], "raw": ["Rome</think>Paris"], "parsed": ["Rome</think>Paris"],
         "label": [False], "truth": ["Paris"]}
    )  # fmt: skip
    md = render_audit_markdown(audit(frame, settings=AuditSettings(n_boot=10)))
    assert "## Injected" not in md.replace("<br>## Injected", "")
    assert "<img" not in md


def test_rescore_markdown_escapes_disagreeing_ids() -> None:
    frame = pl.DataFrame(
        {"id": ["<img src=x onerror=alert(1)>\n# Injected"], "raw": ["Answer: b"],
         "parsed": ["b"], "label": [False], "truth": ["b"]}
    )  # fmt: skip
    md = render_rescore_markdown(rescore(frame, "choice/v3", n_boot=10))
    assert "disagrees with it on 1 row" in md
    assert "<img" not in md and "\n# Injected" not in md
