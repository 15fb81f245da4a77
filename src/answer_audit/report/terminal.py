"""Rich renderings of rescores and diffs for the terminal: compact tables, model text inert.

Every cell is a `Text`, never markup, so a model output such as ``[red]`` prints as written,
and control characters are shown as symbols (`inert`), so an escape sequence in a model output
cannot retitle, clear or recolour the user's terminal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from answer_audit.analysis.audit import AuditResult
from answer_audit.analysis.conclusions_results import SAME
from answer_audit.analysis.conclusions_section import CHANGED, ConclusionsSection
from answer_audit.analysis.diff import SPAN_CLOSE, SPAN_OPEN
from answer_audit.analysis.diff_result import DiffResult, DisagreementSide
from answer_audit.analysis.incidence import ValueChanges
from answer_audit.analysis.rescore_result import RescoreResult
from answer_audit.report.conclusions import STATUS_CLASS, change_groups, scope_text
from answer_audit.report.markdown.diff import (
    ACCURACY_HEADER,
    accuracy_rows,
    agreement_text,
    diff_group_rows,
)
from answer_audit.report.markdown.rescore import (
    flips_text,
    group_rows,
    metric_rows,
    stored_label_text,
)
from answer_audit.report.value_changes import change_rows, changes_caption

# C0 controls but tab and newline, and DEL, as their Unicode control pictures (ESC -> ␛); C1
# controls (0x80-0x9f: 0x9b opens a CSI sequence on some terminals) as the replacement
# character. One character each, so offsets into the text still hold.
_CONTROL_PICTURES = {
    **{c: 0x2400 + c for c in range(0x20) if c not in (0x09, 0x0A)},
    0x7F: 0x2421,
    **dict.fromkeys(range(0x80, 0xA0), 0xFFFD),
}


def inert(text: str) -> str:
    """``text`` safe to print on a terminal: control characters as visible symbols.

    >>> inert("ok\\x1b[2J")
    'ok␛[2J'
    """
    return text.translate(_CONTROL_PICTURES)


TERMINAL_METRICS = ["", "n", "acc. % ± sd", "95% CI", "bal. acc. %", "95% CI", "fail", "err"]
TERMINAL_GROUPS = ["n", "stored %", "rescored %", "Δ pp", "flips", "McNemar p"]


# How each status reads in the terminal (`report.conclusions.STATUS_CLASS` keys).
_STATUS_STYLE = {"reversal": "bold white on red", "reversed": "bold red", "gained": "bold yellow",
                 "lost": "bold yellow", "shifted": "yellow", "missing": "magenta", "same": "green"}  # fmt: skip
SHOWN_CONCLUSIONS = 12  # sentences of each kind in the terminal; the reports hold them all
SHOWN_ASIDE = 3  # the same within resampling noise and under comparison-only schemes


def print_conclusions(section: ConclusionsSection | None, hint: str, out: Console) -> None:
    """The conclusions first: the verdict, then the contrasts and rankings that changed, as
    sentences under a heading per weight (beyond resampling noise, within it, comparison-only
    schemes); without a comparison, the one line on how to ask for one."""
    if section is None:
        out.print(Text(inert(hint), style="dim"))
        return
    out.print(Text("Conclusions", style="bold underline"))
    style = "bold red" if section.changed() else "bold green"
    out.print(Text(inert(section.verdict()), style=style))
    out.print(Text(inert(scope_text(section)), style="dim"))
    left = 0
    for group in change_groups(section):
        shown = SHOWN_CONCLUSIONS if group.weight == CHANGED else SHOWN_ASIDE
        out.print(Text(inert(group.title), style="bold"))
        for c in group.contrasts[:shown]:
            mark = Text(f" {c.status} ", style=_STATUS_STYLE[STATUS_CLASS[c.status]])
            out.print(Text("• ") + mark + Text(" " + inert(section.sentence(c))))
        for r in group.rankings[:shown]:
            mark = Text(" ranking ", style="bold cyan")
            out.print(Text("• ") + mark + Text(" " + inert(section.sentence(r))))
        left += max(len(group.contrasts) - shown, 0) + max(len(group.rankings) - shown, 0)
    unchanged = sum(c.status == SAME for c in section.conclusions.contrasts)
    tail = f"{unchanged} contrast(s) unchanged (same)"
    tail += f"; {left} more change(s) in the reports" if left else "; every contrast in the reports"
    out.print(Text(tail + ".", style="dim"))
    out.print()


def print_rescore(result: RescoreResult, out: Console, err: Console) -> None:
    """The terminal summary: the conclusions, then metrics side by side, flips, groups, and
    JSON-field incidence."""
    print_conclusions(result.conclusions, result.conclusions_hint, out)
    c = result.coverage
    head = f"{c.rows} rows, {c.scored} scored; parser {result.parser} ({result.family})"
    out.print(Text(inert(head), style="bold"))
    out.print(_table(TERMINAL_METRICS, metric_rows(result.overall, result.stored_name)))
    out.print(Text(flips_text(result.overall)))
    label = result.overall.stored_label
    if label is not None and label.disagreements:
        err.print(Text("WARNING: ", style="bold red") + Text(inert(stored_label_text(label))))
    elif label is not None:
        out.print(Text(inert(stored_label_text(label))))
    if result.groups:
        _, rows = group_rows(result)
        keep = len(result.settings.group_by) + len(TERMINAL_GROUPS)  # up to McNemar p
        header = [*result.settings.group_by, *TERMINAL_GROUPS]
        out.print(_table(header, [row[:keep] for row in rows]))
    if result.incidence.by == "json-field":
        out.print(_incidence_table(result))
    if result.confusion is not None:
        labels = result.confusion.labels
        rows = [[lab, *m] for lab, m in zip(labels, result.confusion.matrix, strict=True)]
        out.print(_table(["stored \\ rescored", *labels], rows, title="stored vs rescored values"))
    elif result.value_changes is not None:
        _print_changes(result.value_changes, ("stored", "rescored"), out)
    print_notes(result.notes, err)


def _print_changes(changes: ValueChanges, sides: tuple[str, str], out: Console) -> None:
    """The most frequent value changes (`report.value_changes`), or the line that there are none."""
    out.print(Text(inert(changes_caption(changes, *sides))))
    if changes.top:
        header = [f"{sides[0]} value", f"{sides[1]} value", "rows"]
        out.print(_table(header, change_rows(changes)))


def print_notes(notes: Sequence[str], err: Console) -> None:
    """Each note on stderr, one line each, as plain text."""
    for note in notes:
        err.print(Text(f"note: {inert(note)}", style="dim"))


def _table(header: list[str], rows: list[list[object]], title: str | None = None) -> Table:
    """A compact Rich table whose cells are plain text (model text never read as markup)."""
    t = Table(*(inert(h) for h in header), title=title, box=box.SIMPLE_HEAD, pad_edge=False)
    for column in t.columns:
        column.overflow = "fold"
    for row in rows:
        t.add_row(*(Text("" if v is None else inert(str(v))) for v in row))
    return t


def _incidence_table(result: RescoreResult) -> Table:
    inc = result.incidence
    rows = [[c.category, c.n, f"{c.correct}/{c.scored}", *(c.truth[k] for k in inc.classes)]
            for c in inc.categories]  # fmt: skip
    header = ["category", "rows", "correct", *(f"truth {k}" for k in inc.classes)]
    return _table(header, rows, title="JSON-field incidence (rescored)")


def print_diff(result: DiffResult, max_rows: int, out: Console, err: Console) -> None:
    """The conclusions, then agreement, accuracy, confusion and the first disagreements with
    highlighted snippets."""
    print_conclusions(result.conclusions, result.conclusions_hint, out)
    out.print(Text(inert(agreement_text(result).replace("`", ""))))
    if result.accuracy is not None:
        out.print(_table(ACCURACY_HEADER, accuracy_rows(result), title="accuracy"))
    if result.confusion is not None:
        labels = result.confusion.labels
        rows = [[lab, *m] for lab, m in zip(labels, result.confusion.matrix, strict=True)]
        out.print(_table(["A \\ B", *labels], rows, title="A rows, B columns"))
    elif result.value_changes is not None and result.value_changes.changed:
        _print_changes(result.value_changes, ("A", "B"), out)
    if result.groups:
        out.print(_table(*diff_group_rows(result)))
    shown = result.disagreements[:max_rows]
    if shown:
        t = Table("id", "truth", "A", "B", title=f"disagreements ({len(shown)} of "
                  f"{len(result.disagreements)})", show_lines=True)  # fmt: skip
        for column in t.columns:
            column.overflow = "fold"
        for e in shown:
            t.add_row(Text(inert(str(e.id))), Text(inert(str(e.truth))), _side_cell(e.a),
                      _side_cell(e.b))  # fmt: skip
        out.print(t)
    print_notes(result.notes, err)


def _side_cell(side: DisagreementSide) -> Text:
    mark = "" if side.correct is None else (" ✓" if side.correct else " ✗")
    text = Text().append(inert(f"{side.label} ({side.rule})") + f"{mark}\n", style="bold")
    snippet = inert(side.snippet.replace("\r\n", "\n").replace("\n", "↵ "))
    start, end = snippet.find(SPAN_OPEN), snippet.rfind(SPAN_CLOSE)
    if start < 0 or end < start:
        return text.append(snippet)
    text.append(snippet[:start])
    text.append(snippet[start + 1 : end], style="bold black on yellow")
    return text.append(snippet[end + 1 :])


def print_audit_summary(result: AuditResult, out: Console, err: Console) -> None:
    """The conclusions, the audit's coverage line, the consistency warning (stderr) and one
    row per scheme."""
    print_conclusions(result.conclusions, result.conclusions_hint, out)
    c = result.coverage
    out.print(Text.assemble((str(c.rows), "bold"), " rows, ", (str(c.scored), "bold"),
                            f" scored, {c.groups} group(s)"))  # fmt: skip
    if not result.recorded_labels:
        out.print(Text(f"The source recorded no correctness: stored means the "
                       f"{result.stored_name}."))  # fmt: skip
    consistency = result.consistency
    if consistency is not None and consistency.mismatches:
        err.print(
            Text("WARNING", style="bold red"),
            f": {consistency.mismatches} of {consistency.n} "
            "stored labels are not reproduced by the stored parse + v1 matcher",
            sep="",
        )
    out.print(_scheme_table(result))


def _scheme_table(result: AuditResult) -> Table:
    """One row per scheme: the numbers never wrap (short headers, two lines each), so the
    scheme column takes the rest of the width and names wrap whole, never cut to "…"."""
    t = Table()
    t.add_column("scheme", overflow="fold")
    for header in ("flips", "stored\nerr %", "err %", "Δpp", "sig. groups\n(Holm)"):
        t.add_column(header, no_wrap=True, justify="right")
    for s in result.schemes:
        o = s.overall
        t.add_row(Text(inert(s.name)), str(o.flips), f"{o.stored_error_pct:.2f}", f"{o.error_pct:.2f}",
                  f"{o.delta_pp:+.2f}", f"{s.significant_groups}/{s.groups}")  # fmt: skip
    return t


def print_written(paths: Iterable[Path | None], out: Console) -> None:
    """One ``wrote PATH`` line per report written, never wrapped inside a path."""
    for path in paths:
        if path is not None:
            out.print(Text(inert(f"wrote {path}")), soft_wrap=True)
