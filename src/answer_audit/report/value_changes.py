"""The table of the most frequent value changes, as every renderer shows it.

Rescores and diffs of free text (or of many distinct values) list their most frequent changes
instead of a confusion matrix (`answer_audit.analysis.incidence.value_comparison`). The values
are whole in the JSON; here each is cut to one short line, so a completion does not fill the
screen, the Markdown table or the HTML page. The terminal, Markdown and HTML reports all take
their rows and caption from this module.
"""

from __future__ import annotations

import re

from answer_audit.analysis.incidence import ValueChanges

VALUE_CHARS = 60
"""Characters of a value shown in the table (the ellipsis included)."""

# a run of line breaks (every character str.splitlines() breaks on) shows as one mark
_LINE_BREAKS = re.compile(r"(?:\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029])+")


def shown_value(label: str, limit: int = VALUE_CHARS) -> str:
    """A value label on one line (each run of line breaks as one ``↵``) cut to ``limit``
    characters.

    >>> shown_value("The answer is\\n42, because " + "x" * 60, 24)
    'The answer is↵42, becau…'
    """
    text = _LINE_BREAKS.sub("↵", label)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def change_rows(changes: ValueChanges) -> list[list[object]]:
    """One row per listed change: the value before, the value after (both cut), the rows."""
    return [[shown_value(c.before), shown_value(c.after), c.n] for c in changes.top]


def changes_caption(changes: ValueChanges, rows_name: str, columns_name: str) -> str:
    """What the table lists, in a sentence (saying so when a value was cut).

    >>> from answer_audit.analysis.incidence import ValueChange
    >>> top = (ValueChange("a", "b", 2), ValueChange("a", "c", 1))
    >>> changes_caption(ValueChanges(3, 2, top), "stored", "rescored")
    '3 row(s) change value from stored to rescored, in 2 distinct way(s):'
    """
    if not changes.changed:
        return f"No row changes value from {rows_name} to {columns_name}."
    head = f"{changes.changed} row(s) change value from {rows_name} to {columns_name}"
    listed = len(changes.top)
    if listed == changes.pairs:
        head += f", in {changes.pairs} distinct way(s)"
    else:
        head += f", in {changes.pairs} distinct ways; the {listed} most frequent"
    if any(len(v) > VALUE_CHARS for c in changes.top for v in (c.before, c.after)):
        head += f" (values cut to {VALUE_CHARS} characters; whole in the JSON report)"
    return head + ":"


def changes_context(changes: ValueChanges, rows_name: str, columns_name: str) -> dict[str, object]:
    """The caption and rows an HTML page lays out (`change_rows`, `changes_caption`)."""
    return {"caption": changes_caption(changes, rows_name, columns_name),
            "rows": change_rows(changes)}  # fmt: skip
