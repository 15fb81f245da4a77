"""Cross-tabulations of labellings: how a value was found (incidence) and value confusion.

Pure functions over per-row lists, returning the typed `Incidence` and `Confusion` records that
the rescore and diff results embed.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from answer_audit.analysis.records import JsonRecord
from answer_audit.schemes.kinds import Kind, get_kind
from answer_audit.schemes.labels import ERROR_RULES, Labels, Value

NONE_LABEL = "none"
MAX_CONFUSION_LABELS = 12
"""Value labels beyond which a confusion matrix is unreadable: the changes are listed instead."""
TOP_CHANGES = 10
"""Value changes listed (`ValueChanges.top`)."""
_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")
_DESCRIBED_RULE = re.compile(r"`([^`]+)`: (.+)", re.DOTALL)

# How a JSON field appeared, in report order: (category, description, rules of jsonfield).
JSON_CATEGORIES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("valid", "value present and valid", ("json-value",)),
    ("null", "value null (read as the preset's null value)", ("json-null",)),
    ("missing-key", "JSON object without the key", ("json-missing-key",)),
    ("out-of-range", "value outside the allowed range", ("json-out-of-range",)),
    ("not-integer", "value not an integer", ("json-not-integer",)),
    ("json-invalid", "looks like JSON but does not decode", ("json-invalid",)),
    ("integer-fallback", "no JSON: first standalone integer used", ("integer-fallback",)),
    (
        "integer-fallback-out-of-range",
        "no JSON: the integer found is outside the allowed range",
        ("integer-fallback-out-of-range",),
    ),
    ("not-found", "no JSON and no integer", ("not-found",)),
    ("error", "error row (error column set, or empty output)", ERROR_RULES),
)


@dataclass(frozen=True)
class Confusion(JsonRecord):
    """Counts of (row value, column value) pairs over the union of both sides' value labels."""

    labels: tuple[str, ...]
    """Value labels (`value_label`) in `label_order`: the rows' and the columns' order."""
    matrix: tuple[tuple[int, ...], ...]
    """``matrix[i][j]``: rows whose row-side value is ``labels[i]`` and column-side ``labels[j]``."""


@dataclass(frozen=True)
class ValueChange(JsonRecord):
    """One way values changed between two labellings, and on how many rows."""

    before: str
    """The row side's value (`value_label`: ``none`` when nothing was found)."""
    after: str
    """The column side's value."""
    n: int
    """Rows whose value changed from ``before`` to ``after``."""


@dataclass(frozen=True)
class ValueChanges(JsonRecord):
    """The most frequent value changes between two labellings: the form a value comparison
    takes when the values are too many, or too free, for a confusion matrix."""

    changed: int
    """Rows whose values differ (as the matcher compares them)."""
    pairs: int
    """Distinct (before, after) pairs among them."""
    top: tuple[ValueChange, ...]
    """The `TOP_CHANGES` most frequent pairs, most frequent first (then by text), values whole."""


@dataclass(frozen=True)
class IncidenceCategory(JsonRecord):
    """The rows in one category of how a value was found (a rule, or a JSON-field state)."""

    category: str
    """The category: a rule name, or one of `JSON_CATEGORIES` for JSON-field presets."""
    description: str
    """What the category means (empty when the preset does not describe the rule)."""
    rules: tuple[str, ...]
    """The extraction rules the category gathers."""
    n: int
    """Rows in the category."""
    scored: int
    """Of those, rows with a truth."""
    correct: int
    """Of the scored rows, those labelled correct."""
    truth: Mapping[str, int]
    """Scored rows per truth class, over every class of the table (zeros included)."""
    values: Mapping[str, int]
    """Rows per value found (`value_label`), in `label_order`."""


@dataclass(frozen=True)
class Incidence(JsonRecord):
    """How values were found, category by category, with the truth classes of their rows."""

    by: Literal["json-field", "rule"]
    """``json-field``: the fixed JSON-field categories; ``rule``: one category per rule."""
    classes: tuple[str, ...]
    """Truth classes of the scored rows, in `label_order`."""
    categories: tuple[IncidenceCategory, ...]
    """Categories in report order (JSON: the fixed order; rules: most frequent first)."""


_RULE_NOTES = {
    "error": "error row: the error column is set",
    "no-output": "error row: empty or missing output",
    "not-found": "no answer found",
}


def rule_descriptions(steps: Iterable[str], limit: int = 90) -> dict[str, str]:
    """Rule name -> what it does, from a preset's ``describe()`` lines (``"`rule`: text"``).

    >>> rule_descriptions(["`last-char`: the last choice character anywhere in the text"])
    {'last-char': 'the last choice character anywhere in the text'}
    """
    found = {}
    for step in steps:
        m = _DESCRIBED_RULE.match(step)
        if m is not None:
            text = m.group(2)
            found[m.group(1)] = text if len(text) <= limit else _cut(text, limit)
    return found


def _cut(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis; a code span the cut opens is
    closed, so what follows it in a Markdown report is not read as Markdown or HTML."""
    cut = text[: limit - 1]
    return cut + ("`…" if cut.count("`") % 2 else "…")


def label_order(labels: Iterable[str]) -> list[str]:
    """Numbers numerically first, then text; ``none`` last.

    >>> label_order(["none", "10", "b", "2"])
    ['2', '10', 'b', 'none']
    """

    def key(label: str) -> tuple[int, float, str]:
        if label == NONE_LABEL:
            return (2, 0.0, label)
        if _NUMBER.fullmatch(label):
            return (0, float(label), label)
        return (1, 0.0, label)

    return sorted(set(labels), key=key)


def value_label(value: Value) -> str:
    """A value as a confusion-matrix label: its text, or ``none`` when nothing was found.

    A found value that would read as that (the text ``none``, or text starting with a double
    quote) is shown JSON-quoted, so no two different values share a label.

    >>> value_label(None), value_label("none"), value_label("b")
    ('none', '"none"', 'b')
    """
    if value is None:
        return NONE_LABEL
    text = str(value)
    return (
        json.dumps(text, ensure_ascii=False) if text == NONE_LABEL or text.startswith('"') else text
    )


def confusion(rows_values: Sequence[Value], column_values: Sequence[Value]) -> Confusion:
    """Counts of (row value, column value) pairs as a square matrix over their union of labels.

    >>> confusion(["a", "b", None], ["a", "a", "b"]).matrix
    ((1, 0, 0), (1, 0, 0), (0, 1, 0))
    """
    pairs = Counter(
        (value_label(r), value_label(c)) for r, c in zip(rows_values, column_values, strict=True)
    )
    labels = label_order([label for pair in pairs for label in pair])
    matrix = tuple(tuple(pairs.get((r, c), 0) for c in labels) for r in labels)
    return Confusion(labels=tuple(labels), matrix=matrix)


def value_comparison(
    kind: Kind | str,
    rows_values: Sequence[Value],
    column_values: Sequence[Value],
    normalizer: str = "v1",
) -> tuple[Confusion | None, ValueChanges]:
    """Two labellings' values compared: a confusion matrix when the values come from a small
    closed set (a kind with `closed_values`, every value in its `in_value_set`, at most
    `MAX_CONFUSION_LABELS` labels), else None; and the most frequent changes, always (rows
    whose values the kind's `agreement_key` tells apart: a change the matcher ignores is none).
    A stored parse of whole completions on a choice kind thus lists its changes.

    >>> matrix, changes = value_comparison("choice", ["a", "b", "b"], ["a", "c", "c"])
    >>> matrix.labels, [(c.before, c.after, c.n) for c in changes.top]
    (('a', 'b', 'c'), [('b', 'c', 2)])
    """
    kind = get_kind(kind)
    closed = kind.closed_values and all(
        v is None or kind.in_value_set(v) for v in {*rows_values, *column_values}
    )
    matrix = confusion(rows_values, column_values) if closed else None
    if matrix is not None and len(matrix.labels) > MAX_CONFUSION_LABELS:
        matrix = None
    pairs = Counter(
        (value_label(r), value_label(c))
        for r, c in zip(rows_values, column_values, strict=True)
        if r != c and kind.agreement_key(r, normalizer) != kind.agreement_key(c, normalizer)
    )
    ordered = sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0]))
    top = tuple(ValueChange(before, after, n) for (before, after), n in ordered[:TOP_CHANGES])
    return matrix, ValueChanges(changed=sum(pairs.values()), pairs=len(pairs), top=top)


def incidence(
    labels: Labels,
    classes: Sequence[str | None],
    scored: Sequence[bool],
    *,
    json_field: bool,
    descriptions: Mapping[str, str] | None = None,
) -> Incidence:
    """How values were found, per category, with the truth classes of each category's rows.

    JSON-field presets use the fixed `JSON_CATEGORIES` (all listed, zeros included); other
    presets use their rules, most frequent first, described by ``descriptions`` (rule -> text).
    See `IncidenceCategory` for what each category counts.
    """
    category_of = {rule: cat for cat, _, rules in JSON_CATEGORIES for rule in rules}
    keys = [category_of.get(r, r) if json_field else r for r in labels.rules]
    order: list[tuple[str, str, tuple[str, ...]]]
    if json_field:
        order = list(JSON_CATEGORIES)
        order += [(k, "other rule", (k,)) for k in sorted(set(keys) - set(category_of.values()))]
    else:
        counts = Counter(keys)
        notes = {**(descriptions or {}), **_RULE_NOTES}
        order = [(k, notes.get(k, ""), (k,)) for k in sorted(counts, key=lambda k: (-counts[k], k))]
    class_names = label_order(c for c, s in zip(classes, scored, strict=True) if s and c)
    categories = [_category(entry, keys, labels, classes, scored, class_names) for entry in order]
    return Incidence(
        by="json-field" if json_field else "rule",
        classes=tuple(class_names),
        categories=tuple(categories),
    )


def _category(
    entry: tuple[str, str, tuple[str, ...]],
    keys: Sequence[str],
    labels: Labels,
    classes: Sequence[str | None],
    scored: Sequence[bool],
    class_names: Sequence[str],
) -> IncidenceCategory:
    category, description, rules = entry
    idx = [i for i, k in enumerate(keys) if k == category]
    truth = Counter(classes[i] for i in idx if scored[i])
    values = Counter(value_label(labels.values[i]) for i in idx)
    return IncidenceCategory(
        category=category,
        description=description,
        rules=tuple(rules),
        n=len(idx),
        scored=sum(1 for i in idx if scored[i]),
        correct=sum(1 for i in idx if scored[i] and labels.correct[i]),
        truth={c: truth.get(c, 0) for c in class_names},
        values={v: values[v] for v in label_order(values)},
    )
