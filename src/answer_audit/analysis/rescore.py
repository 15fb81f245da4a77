"""Rescoring saved outputs: re-extract with a preset, score both labellings, compare them.

Pure: takes a canonical table, returns a RescoreResult of plain data; `to_dict()` is the
documented JSON (see README, "Rescore JSON"), `annotate()` the input rows with the new labels.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

from answer_audit.analysis.incidence import confusion, incidence, rule_descriptions
from answer_audit.analysis.stats import (
    accuracy,
    balanced_accuracy,
    bootstrap_accuracy,
    bootstrap_balanced_accuracy,
    check_bootstrap,
    mcnemar_paired,
    per_class_recall,
)
from answer_audit.parsers import Parser
from answer_audit.schemes.labels import (
    ERROR_RULES,
    Labels,
    group_indices,
    kind_of,
    parser_labels,
    pick_normalizer,
    resolve_parser,
    stored_labels,
    truth_classes,
)
from answer_audit.sources import LoadedTable
from answer_audit.table.canonical import in_memory_table

Mask = npt.NDArray[np.bool_]
JSON_KEYS = ("parser", "family", "normalizer", "settings", "coverage", "overall", "groups",
             "incidence", "confusion", "notes")  # fmt: skip
RENAME_SUFFIX = "_rescored"
DISAGREEMENT_EXAMPLES = 10


@dataclass
class RescoreResult:
    """Before/after metrics; ``rows`` holds the per-row labels in the table's row order."""

    parser: str
    family: str
    normalizer: str
    settings: dict[str, Any]
    coverage: dict[str, Any]
    overall: dict[str, Any]
    groups: list[dict[str, Any]]
    incidence: dict[str, Any]
    confusion: dict[str, Any] | None
    notes: list[str]
    rows: pl.DataFrame = field(repr=False)
    original: pl.DataFrame | None = field(default=None, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """The JSON report: exactly the keys documented in the README."""
        return {key: getattr(self, key) for key in JSON_KEYS}

    def annotate(self, original: pl.DataFrame | None = None) -> pl.DataFrame:
        """Every input row and column, then the new columns (renamed ``*_rescored`` on a clash)."""
        base = original if original is not None else self.original
        if base is None:
            raise ValueError("annotate() needs the original table (rescore was given a frame)")
        if base.height != self.rows.height:
            raise ValueError(f"original has {base.height} rows, the rescore {self.rows.height}")
        names = output_names(base.columns, self.rows.columns)
        return pl.concat([base, self.rows.rename(names)], how="horizontal")


def output_names(existing: Sequence[str], new: Sequence[str]) -> dict[str, str]:
    """New column names that do not clash with the input's: ``is_correct`` -> ``is_correct_rescored``."""
    taken = set(existing)
    names = {}
    for name in new:
        chosen = name
        while chosen in taken:
            chosen += RENAME_SUFFIX
        taken.add(chosen)
        names[name] = chosen
    return names


def rescore(
    table: pl.DataFrame | LoadedTable,
    parser: str | Parser = "choice/v3",
    *,
    presets: Mapping[str, Parser] | None = None,
    choices: str | None = None,
    normalizer: str | None = None,
    group_by: Sequence[str] = (),
    n_boot: int = 1000,
    seed: int = 42,
    ci: float = 0.95,
    workers: int = 1,
) -> RescoreResult:
    """Re-extract every row with ``parser`` and score it against the truth, beside the stored parse.

    ``table`` is a canonical table (``id, raw, parsed?, label?, truth, error?, <groups>``) or a
    LoadedTable (then ``annotate()`` needs no argument). ``normalizer`` (free-form only, default
    v1) is the matcher's. Metrics cover rows with a truth; rows with no extraction or an error
    count as incorrect. ``workers`` > 1 runs a row-by-row preset in that many processes (same
    numbers; see `answer_audit.schemes.parallel`).

    >>> t = pl.DataFrame({"id": ["1", "2"], "raw": ["Answer: b", "Answer: c"],
    ...                   "parsed": ["b", "a"], "truth": ["b", "c"]})
    >>> r = rescore(t, "choice/v3", n_boot=10)
    >>> r.overall["stored"]["accuracy"], r.overall["rescored"]["accuracy"], r.overall["flips"]
    (0.5, 1.0, 1)
    """
    frame = (
        table.frame
        if isinstance(table, LoadedTable)
        else in_memory_table(table, group_by, what="the rescore table")
    )
    _check_columns(frame, group_by)
    check_bootstrap(n_boot, seed, ci)
    preset = resolve_parser(parser, presets, choices)
    kind = kind_of(preset)
    normalizer = pick_normalizer(normalizer, kind)
    new = parser_labels(frame, preset, normalizer=normalizer, name="rescored", workers=workers)
    old = stored_labels(frame, kind, normalizer=normalizer) if "parsed" in frame.columns else None
    classes = truth_classes(frame, kind)
    scored = [c is not None for c in new.correct]
    labels = frame["label"].to_list() if "label" in frame.columns else None
    compare = _Comparer(classes, new, old, (labels, frame["id"].to_list()), (n_boot, seed, ci))
    found = incidence(new, classes, scored, json_field=kind == "json",
                      descriptions=rule_descriptions(preset.describe()))  # fmt: skip
    groups = _groups(frame, group_by, compare, new, found)
    rows = _row_frame(new, old)
    coverage = {"rows": frame.height, "scored": sum(scored),
                "no_truth": frame.height - sum(scored), "groups": len(groups)}  # fmt: skip
    notes: list[str] = []
    if isinstance(table, LoadedTable):
        coverage = {**table.coverage, **coverage}
        if "rows_with_truth" in coverage:  # as the matcher counts them (a blank truth is none)
            coverage["rows_with_truth"] = coverage["rows"] - coverage["no_truth"]
        notes = [*table.notes, *_rename_notes(table.original.columns, rows.columns)]
    settings = {"group_by": list(group_by), "bootstrap": n_boot, "seed": seed, "ci": ci,
                "choices": choices}  # fmt: skip
    return RescoreResult(
        parser=preset.name, family=kind, normalizer=normalizer, settings=settings,
        coverage=coverage, overall=compare(np.ones(frame.height, dtype=bool)), groups=groups,
        incidence=found,
        confusion=None if old is None or kind == "freeform" else confusion(old.values, new.values),
        notes=notes, rows=rows, original=table.original if isinstance(table, LoadedTable) else None,
    )  # fmt: skip


def _groups(
    frame: pl.DataFrame,
    group_by: Sequence[str],
    compare: _Comparer,
    new: Labels,
    found: dict[str, Any],
) -> list[dict[str, Any]]:
    """One entry per group value, in a stable order (by the values' text)."""
    if not group_by:
        return []
    groups = []
    for key, idx in group_indices(frame, group_by):
        rows = np.zeros(frame.height, dtype=bool)
        rows[idx] = True
        entry = {"group": dict(zip(group_by, key, strict=True)), **compare(rows)}
        groups.append({**entry, "incidence": _category_counts(new, idx, found)})
    return groups


def _check_columns(frame: pl.DataFrame, group_by: Sequence[str]) -> None:
    missing = [c for c in ("id", "raw", "truth", *group_by) if c not in frame.columns]
    if missing:
        raise ValueError(
            f"the table lacks column(s) {', '.join(missing)}; available: {', '.join(frame.columns)}"
        )


class _Comparer:
    """Stored vs rescored metrics for any subset of rows (a boolean mask over all rows)."""

    def __init__(
        self,
        classes: Sequence[str | None],
        new: Labels,
        old: Labels | None,
        stored_label: tuple[Sequence[bool | None] | None, Sequence[str | None]],
        boot: tuple[int, int, float],
    ) -> None:
        self.scored = np.array([c is not None for c in new.correct], dtype=bool)
        self.classes = np.array([c or "" for c in classes], dtype=object)
        self.new, self.old = _arrays(new), None if old is None else _arrays(old)
        label, ids = stored_label
        self.label = None if label is None else np.array(label, dtype=object)
        self.ids = np.array(ids, dtype=object)
        self.boot = boot

    def __call__(self, rows: Mask) -> dict[str, Any]:
        sel = rows & self.scored
        new_ok = self.new[0][sel]
        out: dict[str, Any] = {"stored": None, "rescored": self._metrics(self.new, sel)}
        out.update(accuracy_delta=None, flips=None, stored_only_correct=None,
                   rescored_only_correct=None, mcnemar_p=None)  # fmt: skip
        if self.old is not None:
            out["stored"] = self._metrics(self.old, sel)
            old_ok = self.old[0][sel]
            if sel.any():
                b, c, p = mcnemar_paired(old_ok, new_ok)
                out.update(accuracy_delta=accuracy(new_ok) - accuracy(old_ok), flips=b + c,
                           stored_only_correct=b, rescored_only_correct=c, mcnemar_p=p)  # fmt: skip
        out["stored_label"] = self._stored_label(sel)
        return out

    def _metrics(self, side: tuple[Mask, Mask, Mask], sel: Mask) -> dict[str, Any]:
        ok, failed, errored = (a[sel] for a in side)
        n = int(sel.sum())
        classes = self.classes[sel]
        if n == 0:
            return {"n": 0, "accuracy": None, "balanced_accuracy": None, "per_class_recall": {},
                    "failures": 0, "errors": 0,
                    "bootstrap": {"accuracy": None, "balanced_accuracy": None}}  # fmt: skip
        b, seed, ci = self.boot
        return {
            "n": n,
            "accuracy": accuracy(ok),
            "balanced_accuracy": balanced_accuracy(classes, ok),
            "per_class_recall": per_class_recall(classes, ok),
            "failures": int(failed.sum()),
            "errors": int(errored.sum()),
            "bootstrap": {
                "accuracy": bootstrap_accuracy(ok, B=b, seed=seed, ci=ci),
                "balanced_accuracy": bootstrap_balanced_accuracy(
                    classes, ok, B=b, seed=seed, ci=ci
                ),
            },
        }

    def _stored_label(self, sel: Mask) -> dict[str, Any] | None:
        if self.label is None:
            return None
        has = sel & np.array([v is not None for v in self.label], dtype=bool)
        label = self.label[has].astype(bool)
        out: dict[str, Any] = {"n": int(has.sum()), "accuracy": accuracy(label) if has.any() else None,
                               "disagreements": None, "disagreement_ids": []}  # fmt: skip
        if self.old is not None:
            differs = label != self.old[0][has]
            out["disagreements"] = int(differs.sum())
            out["disagreement_ids"] = self.ids[has][differs][:DISAGREEMENT_EXAMPLES].tolist()
        return out


def _arrays(labels: Labels) -> tuple[Mask, Mask, Mask]:
    """(correct, failed, errored) per row; failed = no value on a row that is not an error row."""
    errored = np.array([r in ERROR_RULES for r in labels.rules], dtype=bool)
    missing = np.array([v is None for v in labels.values], dtype=bool)
    ok = np.array([bool(c) for c in labels.correct], dtype=bool)
    return ok, missing & ~errored, errored


def _category_counts(new: Labels, idx: list[int], found: dict[str, Any]) -> dict[str, int]:
    rules = Counter(new.rules[i] for i in idx)
    return {c["category"]: sum(rules[r] for r in c["rules"]) for c in found["categories"]}


_INT64 = range(-(2**63), 2**63)


def _value_type(new: Labels, old: Labels | None) -> type[pl.DataType]:
    """Int64 for JSON values, unless one is an integer beyond 64 bits (JSON has no limit):
    then the values are written as text, every digit kept, rather than fail or round."""
    if new.kind != "json":
        return pl.String
    values = [*new.values, *(old.values if old is not None else ())]
    return pl.Int64 if all(v is None or v in _INT64 for v in values) else pl.String


def _row_frame(new: Labels, old: Labels | None) -> pl.DataFrame:
    value_type = _value_type(new, old)

    def values(labels: Labels) -> list[Any]:
        if value_type is pl.String:
            return [None if v is None else str(v) for v in labels.values]
        return list(labels.values)

    columns = [
        pl.Series("extracted", values(new), dtype=value_type),
        pl.Series("rule", new.rules, dtype=pl.String),
        pl.Series("span_start", [s[0] if s else None for s in new.spans], dtype=pl.Int64),
        pl.Series("span_end", [s[1] if s else None for s in new.spans], dtype=pl.Int64),
        pl.Series("is_correct", new.correct, dtype=pl.Boolean),
    ]
    if old is not None:
        columns += [
            pl.Series("stored_extracted", values(old), dtype=value_type),
            pl.Series("stored_rule", old.rules, dtype=pl.String),
            pl.Series("stored_is_correct", old.correct, dtype=pl.Boolean),
        ]
    return pl.DataFrame(columns)


def _rename_notes(existing: Sequence[str], new: Sequence[str]) -> list[str]:
    return [
        f"the input already has a column '{name}'; it is kept, and the new one is written as "
        f"'{chosen}'"
        for name, chosen in output_names(existing, new).items()
        if chosen != name
    ]
