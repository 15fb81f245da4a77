"""The table of changed values, in the terminal, Markdown and HTML: where a confusion matrix of
free text would be a wall of completions, the most frequent changes, each value cut short."""

from __future__ import annotations

import doctest
import html
import io
import re
from collections.abc import Callable

import polars as pl
import pytest
from rich.console import Console

from answer_audit.analysis.diff import DiffResult, diff_labelings
from answer_audit.analysis.rescore import RescoreResult, rescore
from answer_audit.report.html.diff import render_diff_html
from answer_audit.report.html.rescore import render_rescore_html
from answer_audit.report.markdown.diff import render_diff_markdown
from answer_audit.report.markdown.rescore import render_rescore_markdown
from answer_audit.report.terminal import print_diff, print_rescore
from answer_audit.report.value_changes import VALUE_CHARS, shown_value

LONG = "Water boils at 100 °C at sea level, so the answer is (C), not *B* or [D](x)."
COMPLETIONS = [LONG, "Plants take in carbon dioxide.\nANSWER: B", "ANSWER: D", LONG]
CUT = LONG.lower()[: VALUE_CHARS - 1] + "…"  # choice values are lowercased


def completions_table() -> pl.DataFrame:
    """A choice log whose stored answers are whole completions (inspect's match() scorer)."""
    return pl.DataFrame({"id": ["1", "2", "3", "4"], "raw": COMPLETIONS,
                         "parsed": COMPLETIONS, "truth": ["c", "b", "c", "c"]})  # fmt: skip


@pytest.fixture(scope="module")
def rescored() -> RescoreResult:
    return rescore(completions_table(), "choice/v4", n_boot=10)


@pytest.fixture(scope="module")
def diffed() -> DiffResult:
    return diff_labelings(completions_table(), "stored", "choice/v4")


def terminal(print_report: Callable[..., None], *args: object) -> str:
    """What a print function writes on stdout, at a width that keeps each value on one line."""
    shown = io.StringIO()
    out = Console(file=shown, width=200, markup=False, highlight=False)
    print_report(*args, out, Console(file=io.StringIO(), markup=False))
    return shown.getvalue()


def test_a_long_value_is_cut_to_one_short_line() -> None:
    assert shown_value(LONG.lower()) == CUT and len(CUT) == VALUE_CHARS
    assert shown_value("a\nb\r\nc") == "a↵b↵c"
    assert shown_value("short") == "short"


def test_the_terminal_lists_changes_instead_of_a_matrix_of_completions(
    rescored: RescoreResult, diffed: DiffResult
) -> None:
    assert rescored.confusion is None and diffed.confusion is None
    shown = terminal(print_rescore, rescored)
    assert "stored \\ rescored" not in shown
    assert "4 row(s) change value from stored to rescored, in 3 distinct way(s)" in shown
    assert CUT in shown and LONG.lower() not in shown
    assert "plants take in carbon dioxide.↵answer: b" in shown  # one line per value
    shown = terminal(print_diff, diffed, 20)
    assert "A \\ B" not in shown and "from A to B, in 3 distinct way(s)" in shown


def test_markdown_has_the_table_with_values_cut_and_escaped(
    rescored: RescoreResult, diffed: DiffResult
) -> None:
    for page, title in ((render_rescore_markdown(rescored), "## Stored vs rescored values"),
                        (render_diff_markdown(diffed), "## Changed values")):  # fmt: skip
        part = page.split(title, 1)[1].split("\n## ", 1)[0]
        assert "| stored value |" in part or "| A value |" in part
        assert "(values cut to 60 characters; whole in the JSON report)" in part
        # the cut value, its Markdown escaped: no emphasis, no link
        assert "so the answer is (c), not \\*b\\* or \\[d\\](x)" not in part  # cut before
        assert CUT in part
        assert "| 2 |" in part  # the long completion, twice


def test_html_has_a_changes_section_and_no_heat_map(
    rescored: RescoreResult, diffed: DiffResult
) -> None:
    for page in (render_rescore_html(rescored), render_diff_html(diffed)):
        assert 'id="confusion"' not in page and 'href="#changes"' in page
        start = page.index('id="changes"')
        part = page[start : page.index("</section>", start)]
        cells = [html.unescape(c) for c in re.findall(r"<code>(.*?)</code>", part, re.DOTALL)]
        assert CUT in cells
        assert all(len(c) <= VALUE_CHARS for c in cells)


def test_small_closed_sets_keep_their_matrix_in_every_format() -> None:
    letters = completions_table().with_columns(parsed=pl.Series(["c", "b", "d", "a"]))
    r = rescore(letters, "choice/v4", n_boot=10)
    assert r.confusion is not None
    assert "stored \\ rescored" in terminal(print_rescore, r)
    assert "| stored \\\\ rescored |" in render_rescore_markdown(r)
    page = render_rescore_html(r)
    assert 'id="confusion"' in page and 'id="changes"' not in page


def test_no_change_is_said_in_a_line() -> None:
    same = pl.DataFrame({"id": ["1"], "raw": ["Paris"], "parsed": ["Paris"], "truth": ["Paris"]})
    r = rescore(same, "freeform/v3", n_boot=10)
    assert "No row changes value from stored to rescored." in terminal(print_rescore, r)
    assert "No row changes value from stored to rescored." in render_rescore_markdown(r)


def test_the_docstring_examples_hold() -> None:
    from answer_audit.report import value_changes

    assert doctest.testmod(value_changes).failed == 0
