"""Cross-tabulations of labellings: how a value was found (incidence) and value confusion.

Pure functions over per-row lists, returning the typed `Incidence` and `Confusion` records that
the rescore and diff results embed.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
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
MAX_LISTED_VALUES = 1000
"""Distinct values of an incidence category beyond which they are not listed: free-form values
are whole answers, about as many as the rows, and counting them would hold every row's text."""
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
    values: Mapping[str, int] | None
    """Rows per value found (`value_label`), in `label_order`; None when the category found
    more than `MAX_LISTED_VALUES` distinct values (e.g. free-form whole texts)."""


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
    return _confusion_of(pairs)


def _confusion_of(pairs: Mapping[tuple[str, str], int]) -> Confusion:
    """The matrix of counted (row label, column label) pairs."""
    labels = label_order([label for pair, n in pairs.items() if n for label in pair])
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
    return ValuePairs.of(kind, rows_values, column_values, normalizer).comparison()


@dataclass(frozen=True)
class ValuePairs:
    """The counts behind `value_comparison`, mergeable (`merge`): slices or partitions of two
    labellings each count their own rows, and the comparison of the merged counts is the
    comparison of all rows."""

    closed: bool
    """Every value seen is in the kind's closed value set (a confusion matrix may be drawn)."""
    counts: Mapping[tuple[str, str, bool], int]
    """Rows per (before label, after label, changed): every pair while ``closed``, else only
    the changed ones (the rest would never be shown)."""

    @classmethod
    def of(
        cls,
        kind: Kind | str,
        rows_values: Sequence[Value],
        column_values: Sequence[Value],
        normalizer: str = "v1",
    ) -> ValuePairs:
        """The pairs of two labellings' values, row by row (see `value_comparison`)."""
        kind = get_kind(kind)
        closed = kind.closed_values and all(
            v is None or kind.in_value_set(v) for v in {*rows_values, *column_values}
        )
        counts: Counter[tuple[str, str, bool]] = Counter()
        for r, c in zip(rows_values, column_values, strict=True):
            changed = r != c and kind.agreement_key(r, normalizer) != kind.agreement_key(
                c, normalizer
            )
            if changed or closed:
                counts[(value_label(r), value_label(c), changed)] += 1
        return cls(closed, dict(counts))

    def merge(self, other: ValuePairs) -> ValuePairs:
        """The pairs of both parts' rows."""
        closed = self.closed and other.closed
        counts = Counter(self.counts)
        counts.update(other.counts)
        return ValuePairs(closed, {k: n for k, n in counts.items() if closed or k[2]})

    def comparison(self) -> tuple[Confusion | None, ValueChanges]:
        """The confusion matrix (None unless closed, with at most `MAX_CONFUSION_LABELS`
        labels) and the most frequent changes."""
        matrix = None
        if self.closed:
            pairs: Counter[tuple[str, str]] = Counter()
            for (r, c, _), n in self.counts.items():
                pairs[(r, c)] += n
            matrix = _confusion_of(pairs)
            if len(matrix.labels) > MAX_CONFUSION_LABELS:
                matrix = None
        changes: Counter[tuple[str, str]] = Counter()
        for (r, c, changed), n in self.counts.items():
            if changed:
                changes[(r, c)] += n
        ordered = sorted(changes.items(), key=lambda kv: (-kv[1], kv[0]))
        top = tuple(ValueChange(before, after, n) for (before, after), n in ordered[:TOP_CHANGES])
        return matrix, ValueChanges(changed=sum(changes.values()), pairs=len(changes), top=top)


@dataclass(frozen=True)
class IncidenceCounts:
    """The counts behind an `Incidence`, mergeable (`merge`): slices or partitions of a table
    each count their own rows, and the incidence of the merged counts is that of all rows."""

    cells: Mapping[tuple[str, str | None, bool, bool], int]
    """Rows per (rule, truth class, scored, labelled correct)."""
    values: Mapping[tuple[str, str], int]
    """Rows per (rule, value found as `value_label`), for the rules not in ``unlisted``."""
    unlisted: frozenset[str] = frozenset()
    """Rules that found more than `MAX_LISTED_VALUES` distinct values: theirs are not counted
    (the rows of any part that has that many are more, so whatever the split)."""

    @classmethod
    def of(
        cls, labels: Labels, classes: Sequence[str | None], scored: Sequence[bool]
    ) -> IncidenceCounts:
        """The counts of labelled rows: each row's class and whether it is scored."""
        cells = Counter(
            (rule, c, bool(s), bool(s and ok))
            for rule, c, s, ok in zip(labels.rules, classes, scored, labels.correct, strict=True)
        )
        values = Counter(zip(labels.rules, map(value_label, labels.values), strict=True))
        return cls(dict(cells), *_listed(values, frozenset()))

    def merge(self, other: IncidenceCounts) -> IncidenceCounts:
        """The counts of both parts' rows."""
        cells, values = Counter(self.cells), Counter(self.values)
        cells.update(other.cells)
        values.update(other.values)
        return IncidenceCounts(dict(cells), *_listed(values, self.unlisted | other.unlisted))


def _listed(
    values: Mapping[tuple[str, str], int], unlisted: frozenset[str]
) -> tuple[dict[tuple[str, str], int], frozenset[str]]:
    """The value counts of the rules that stay listed, and the rules that are not."""
    distinct = Counter(rule for rule, _ in values)
    unlisted |= {rule for rule, n in distinct.items() if n > MAX_LISTED_VALUES}
    return {k: n for k, n in values.items() if k[0] not in unlisted}, unlisted


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
    counts = IncidenceCounts.of(labels, classes, scored)
    return incidence_of_counts(counts, json_field=json_field, descriptions=descriptions)


def incidence_of_counts(
    counts: IncidenceCounts, *, json_field: bool, descriptions: Mapping[str, str] | None = None
) -> Incidence:
    """`incidence` from (possibly merged) counts: the same record as from the rows."""
    category_of = {rule: cat for cat, _, rules in JSON_CATEGORIES for rule in rules}

    def key(rule: str) -> str:
        return category_of.get(rule, rule) if json_field else rule

    rows: Counter[str] = Counter()
    for (rule, _, _, _), n in counts.cells.items():
        rows[key(rule)] += n
    order: list[tuple[str, str, tuple[str, ...]]]
    if json_field:
        order = list(JSON_CATEGORIES)
        order += [(k, "other rule", (k,)) for k in sorted(set(rows) - set(category_of.values()))]
    else:
        notes = {**(descriptions or {}), **_RULE_NOTES}
        order = [(k, notes.get(k, ""), (k,)) for k in sorted(rows, key=lambda k: (-rows[k], k))]
    class_names = label_order(c for (_, c, s, _), n in counts.cells.items() if s and c and n)
    categories = [_category(entry, key, counts, class_names) for entry in order]
    return Incidence(
        by="json-field" if json_field else "rule",
        classes=tuple(class_names),
        categories=tuple(categories),
    )


def _category(
    entry: tuple[str, str, tuple[str, ...]],
    key: Callable[[str], str],
    counts: IncidenceCounts,
    class_names: Sequence[str],
) -> IncidenceCategory:
    category, description, rules = entry
    n = scored = correct = 0
    truth: Counter[str | None] = Counter()
    for (rule, c, s, ok), rows in counts.cells.items():
        if key(rule) != category:
            continue
        n += rows
        if s:
            scored += rows
            correct += rows if ok else 0
            truth[c] += rows
    values: Counter[str] = Counter()
    for (rule, value), rows in counts.values.items():
        if key(rule) == category:
            values[value] += rows
    unlisted = any(key(rule) == category for rule in counts.unlisted)
    listed = not unlisted and len(values) <= MAX_LISTED_VALUES
    return IncidenceCategory(
        category=category,
        description=description,
        rules=tuple(rules),
        n=n,
        scored=scored,
        correct=correct,
        truth={c: truth.get(c, 0) for c in class_names},
        values={v: values[v] for v in label_order(v for v, k in values.items() if k)}
        if listed
        else None,
    )
