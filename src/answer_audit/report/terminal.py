"""Rich renderings of rescores and diffs for the terminal: compact tables, model text inert.

Every cell is a `Text`, never markup, so a model output such as ``[red]`` prints as written.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from answer_audit.diff import SPAN_CLOSE, SPAN_OPEN, DiffResult
from answer_audit.report.diff_md import (
    ACCURACY_HEADER,
    accuracy_rows,
    agreement_text,
    diff_group_rows,
)
from answer_audit.report.rescore_md import (
    flips_text,
    group_rows,
    metric_rows,
    stored_label_text,
)
from answer_audit.rescore import RescoreResult

TERMINAL_METRICS = ["", "n", "acc. % ± sd", "95% CI", "bal. acc. %", "95% CI", "fail", "err"]
TERMINAL_GROUPS = ["n", "stored %", "rescored %", "Δ pp", "flips", "McNemar p"]


def print_rescore(result: RescoreResult, out: Console, err: Console) -> None:
    """The terminal summary: metrics side by side, flips, groups, and JSON-field incidence."""
    c = result.coverage
    head = f"{c['rows']} rows, {c['scored']} scored; parser {result.parser} ({result.family})"
    out.print(Text(head, style="bold"))
    out.print(_table(TERMINAL_METRICS, metric_rows(result.overall)))
    out.print(Text(flips_text(result.overall)))
    label = result.overall.get("stored_label")
    if label is not None and label["disagreements"]:
        err.print(Text("WARNING: ", style="bold red") + Text(stored_label_text(label)))
    elif label is not None:
        out.print(Text(stored_label_text(label)))
    if result.groups:
        _, rows = group_rows(result)
        keep = len(result.settings["group_by"]) + len(TERMINAL_GROUPS)  # up to McNemar p
        header = [*result.settings["group_by"], *TERMINAL_GROUPS]
        out.print(_table(header, [row[:keep] for row in rows]))
    if result.incidence["by"] == "json-field":
        out.print(_incidence_table(result))
    if result.confusion is not None:
        labels = result.confusion["labels"]
        rows = [[lab, *m] for lab, m in zip(labels, result.confusion["matrix"], strict=True)]
        out.print(_table(["stored \\ rescored", *labels], rows, title="stored vs rescored values"))
    for note in result.notes:
        err.print(Text(f"note: {note}", style="dim"))


def _table(header: list[str], rows: list[list[object]], title: str | None = None) -> Table:
    """A compact Rich table whose cells are plain text (model text never read as markup)."""
    t = Table(*header, title=title, box=box.SIMPLE_HEAD, pad_edge=False)
    for column in t.columns:
        column.overflow = "fold"
    for row in rows:
        t.add_row(*(Text("" if v is None else str(v)) for v in row))
    return t


def _incidence_table(result: RescoreResult) -> Table:
    inc = result.incidence
    rows = [[c["category"], c["n"], f"{c['correct']}/{c['scored']}",
             *(c["truth"][k] for k in inc["classes"])] for c in inc["categories"]]  # fmt: skip
    header = ["category", "rows", "correct", *(f"truth {k}" for k in inc["classes"])]
    return _table(header, rows, title="JSON-field incidence (rescored)")


def print_diff(result: DiffResult, max_rows: int, out: Console, err: Console) -> None:
    """Agreement, accuracy, confusion and the first disagreements with highlighted snippets."""
    out.print(Text(agreement_text(result).replace("`", "")))
    if result.accuracy is not None:
        out.print(_table(ACCURACY_HEADER, accuracy_rows(result), title="accuracy"))
    if result.confusion is not None:
        labels = result.confusion["labels"]
        rows = [[lab, *m] for lab, m in zip(labels, result.confusion["matrix"], strict=True)]
        out.print(_table(["A \\ B", *labels], rows, title="A rows, B columns"))
    if result.groups:
        out.print(_table(*diff_group_rows(result)))
    shown = result.disagreements[:max_rows]
    if shown:
        t = Table("id", "truth", "A", "B", title=f"disagreements ({len(shown)} of "
                  f"{len(result.disagreements)})", show_lines=True)  # fmt: skip
        for column in t.columns:
            column.overflow = "fold"
        for e in shown:
            t.add_row(Text(str(e["id"])), Text(str(e["truth"])), _side_cell(e["a"]),
                      _side_cell(e["b"]))  # fmt: skip
        out.print(t)
    for note in result.notes:
        err.print(Text(f"note: {note}", style="dim"))


def _side_cell(side: dict[str, Any]) -> Text:
    mark = {True: " ✓", False: " ✗"}.get(side["correct"], "")
    text = Text().append(f"{side['label']} ({side['rule']}){mark}\n", style="bold")
    snippet = side["snippet"].replace("\r\n", "\n").replace("\n", "↵ ")
    start, end = snippet.find(SPAN_OPEN), snippet.rfind(SPAN_CLOSE)
    if start < 0 or end < start:
        return text.append(snippet)
    text.append(snippet[:start])
    text.append(snippet[start + 1 : end], style="bold black on yellow")
    return text.append(snippet[end + 1 :])
