"""Rescoring saved outputs: re-extract with a preset, score both labellings, compare them.

Pure: takes a canonical table, returns a `RescoreResult` (typed, frozen; see
`answer_audit.analysis.rescore_result`): ``to_dict()`` is the documented JSON (docs/reports.md,
"The rescore report"), ``annotate()`` the input rows with the new labels.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

from answer_audit.analysis.conclusions_results import ConclusionSettings
from answer_audit.analysis.conclusions_section import (
    ConclusionsSection,
    conclusion_settings,
    conclusions_from_labels,
)
from answer_audit.analysis.incidence import (
    Incidence,
    incidence,
    rule_descriptions,
    value_comparison,
)
from answer_audit.analysis.input_notes import input_notes
from answer_audit.analysis.metrics import BootSettings, Metrics
from answer_audit.analysis.rescore_result import (
    RENAME_SUFFIX,
    Comparison,
    PairedChange,
    RescoreCoverage,
    RescoreGroup,
    RescoreResult,
    RescoreSettings,
    StoredLabelCheck,
    output_names,
    stored_labelling_name,
)
from answer_audit.analysis.stats import accuracy, check_bootstrap, mcnemar_paired
from answer_audit.parsers import Parser
from answer_audit.schemes.kinds import KINDS
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
from answer_audit.table.canonical import LoadedTable, in_memory_table

__all__ = ["RENAME_SUFFIX", "RescoreResult", "output_names", "rescore"]

Mask = npt.NDArray[np.bool_]
DISAGREEMENT_EXAMPLES = 10


def rescore(
    table: pl.DataFrame | LoadedTable,
    parser: str | Parser = "choice/v3",
    *,
    presets: Mapping[str, Parser] | None = None,
    choices: str | None = None,
    normalizer: str | None = None,
    group_by: Sequence[str] = (),
    n_boot: int = 1000,
    seed: int = 0,
    ci: float = 0.95,
    workers: int = 1,
    compare: str | None = None,
    baseline: str | None = None,
    item: str | None = None,
) -> RescoreResult:
    """Re-extract every row with ``parser`` and score it against the truth, beside the stored parse.

    ``table`` is a canonical table (``id, raw, parsed?, label?, truth, error?, <groups>``) or a
    LoadedTable (then ``annotate()`` needs no argument). ``normalizer`` (free-form only, default
    v1) is the matcher's. Metrics cover rows with a truth; rows with no extraction or an error
    count as incorrect. ``workers`` > 1 runs a row-by-row preset in that many processes (same
    numbers; see `answer_audit.schemes.parallel`).

    "Stored" is the correctness the source recorded (the ``label`` column) where it has one; a
    row without a recorded label, or a table without the column, falls back to the stored parse
    re-matched by this matcher. ``compare`` (with ``baseline`` and ``item``) adds conclusions:
    whether each effect and ranking of that column survives the rescore (the other ``group_by``
    columns are strata).

    >>> t = pl.DataFrame({"id": ["1", "2"], "raw": ["Answer: b", "Answer: c"],
    ...                   "parsed": ["b", "a"], "truth": ["b", "c"]})
    >>> r = rescore(t, "choice/v3", n_boot=10)
    >>> r.overall.stored.accuracy, r.overall.rescored.accuracy, r.overall.change.flips
    (0.5, 1.0, 1)
    """
    frame = (
        table.frame
        if isinstance(table, LoadedTable)
        else in_memory_table(table, group_by, what="the rescore table")
    )
    _check_columns(frame, group_by)
    check_bootstrap(n_boot, seed, ci)
    chosen = conclusion_settings(compare, baseline, item, group_by, seed=seed, n_boot=n_boot,
                                 alpha=round(1 - ci, 12))  # fmt: skip
    preset = resolve_parser(parser, presets, choices)
    kind = kind_of(preset)
    normalizer = pick_normalizer(normalizer, kind)
    new = parser_labels(frame, preset, normalizer=normalizer, name="rescored", workers=workers)
    old = stored_labels(frame, kind, normalizer=normalizer) if "parsed" in frame.columns else None
    settings = RescoreSettings(group_by=tuple(group_by), bootstrap=n_boot, seed=seed, ci=ci,
                               choices=choices)  # fmt: skip
    classes = truth_classes(frame, kind)
    stored_ok = _stored_correct(frame, old)
    comparer = _Comparer(frame, classes, new, old, stored_ok, settings.boot)
    found = incidence(new, classes, comparer.scored.tolist(), json_field=KINDS[kind].json_field,
                      descriptions=rule_descriptions(preset.describe()))  # fmt: skip
    groups = _groups(frame, group_by, comparer, new, found)
    rows = _row_frame(new, old)
    overall = comparer(np.ones(frame.height, dtype=bool))
    matrix, changes = (None, None) if old is None else value_comparison(
        kind, old.values, new.values, normalizer)  # fmt: skip
    return RescoreResult(
        parser=preset.name, family=kind, normalizer=normalizer, settings=settings,
        coverage=_coverage(table, frame.height, int(comparer.scored.sum()), len(groups)),
        overall=overall, groups=groups, incidence=found, confusion=matrix,
        notes=(*_notes(table, rows), *_input_notes(frame, kind, preset.name, overall)),
        rows=rows, original=table.original if isinstance(table, LoadedTable) else None,
        conclusions=_conclusions(frame, chosen, new, stored_ok,
                                 stored_labelling_name("label" in frame.columns, kind, normalizer)),
        value_changes=changes,
    )  # fmt: skip


def _input_notes(frame: pl.DataFrame, kind: str, parser: str, overall: Comparison) -> list[str]:
    """Truths the preset's kind cannot match, and a rescore that gets every row wrong."""
    rescored, stored = overall.rescored, overall.stored
    return input_notes(frame["truth"], kind, {parser: (rescored.accuracy, rescored.n)},
                       stored_accuracy=None if stored is None else stored.accuracy)  # fmt: skip


def _stored_correct(frame: pl.DataFrame, old: Labels | None) -> list[bool | None] | None:
    """Per row, the stored correctness: the recorded label, else (no label on the row, or no
    label column) the stored parse re-matched; None with neither a label nor a stored parse."""
    rematched = None if old is None else old.correct
    if "label" not in frame.columns:
        return rematched
    return [
        recorded if recorded is not None else (None if rematched is None else rematched[i])
        for i, recorded in enumerate(frame["label"].to_list())
    ]


def _conclusions(
    frame: pl.DataFrame,
    chosen: ConclusionSettings | None,
    new: Labels,
    stored_ok: list[bool | None] | None,
    stored_name: str,
) -> ConclusionsSection | None:
    """The rescore as one scheme against the stored labels, on the rows with a truth."""
    if chosen is None:
        return None
    if stored_ok is None:
        raise ValueError(
            "conclusions hold the rescore against the stored labels: pass --label COLUMN "
            "(recorded correctness) or --parsed COLUMN (the stored parse)"
        )
    scored = [ok is not None for ok in new.correct]
    stored = [ok if keep else None for ok, keep in zip(stored_ok, scored, strict=True)]
    found = conclusions_from_labels(frame, chosen, stored, {new.name: new.correct})
    return ConclusionsSection(found, stored_name)


def _coverage(
    table: pl.DataFrame | LoadedTable, rows: int, scored: int, groups: int
) -> RescoreCoverage:
    """The counts, after the loader's coverage when the table was read from files."""
    source: dict[str, Any] = {}
    if isinstance(table, LoadedTable):
        source = dict(table.coverage)
        if "rows_with_truth" in source:  # as the matcher counts them (a blank truth is none)
            source["rows_with_truth"] = scored
    return RescoreCoverage(rows=rows, scored=scored, no_truth=rows - scored, groups=groups,
                           source=source)  # fmt: skip


def _notes(table: pl.DataFrame | LoadedTable, rows: pl.DataFrame) -> tuple[str, ...]:
    """The loader's notes and the renamed output columns (none for a frame: no input columns)."""
    if not isinstance(table, LoadedTable):
        return ()
    return (*table.notes, *_rename_notes(table.original.columns, rows.columns))


def _groups(
    frame: pl.DataFrame,
    group_by: Sequence[str],
    compare: _Comparer,
    new: Labels,
    found: Incidence,
) -> tuple[RescoreGroup, ...]:
    """One entry per group value, in a stable order (by the values' text)."""
    groups = []
    for key, idx in group_indices(frame, group_by) if group_by else ():
        rows = np.zeros(frame.height, dtype=bool)
        rows[idx] = True
        groups.append(RescoreGroup(group=dict(zip(group_by, key, strict=True)),
                                   comparison=compare(rows),
                                   incidence=_category_counts(new, idx, found)))  # fmt: skip
    return tuple(groups)


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
        frame: pl.DataFrame,
        classes: Sequence[str | None],
        new: Labels,
        old: Labels | None,
        stored_ok: list[bool | None] | None,
        boot: BootSettings,
    ) -> None:
        self.scored = np.array([c is not None for c in new.correct], dtype=bool)
        self.classes = np.array([c or "" for c in classes], dtype=object)
        self.new = _arrays(new)
        # the stored side: recorded correctness (`_stored_correct`), failures and errors of the
        # stored parse; the re-matched parse alone is what the stored-label check compares
        self.old = None if old is None else _arrays(old, stored_ok)
        self.rematched = None if old is None else _arrays(old)[0]
        has_label = "label" in frame.columns
        self.label = np.array(frame["label"].to_list(), dtype=object) if has_label else None
        self.ids = np.array(frame["id"].to_list(), dtype=object)
        self.boot = boot

    def __call__(self, rows: Mask) -> Comparison:
        sel = rows & self.scored
        change = None
        if self.old is not None and sel.any():
            change = _paired_change(self.old[0][sel], self.new[0][sel])
        return Comparison(
            stored=None if self.old is None else self._metrics(self.old, sel),
            rescored=self._metrics(self.new, sel),
            change=change,
            stored_label=self._stored_label(sel),
        )

    def _metrics(self, side: tuple[Mask, Mask, Mask], sel: Mask) -> Metrics:
        ok, failed, errored = (a[sel] for a in side)
        return Metrics.of(ok, failed, errored, self.classes[sel], self.boot)

    def _stored_label(self, sel: Mask) -> StoredLabelCheck | None:
        if self.label is None:
            return None
        has = sel & np.array([v is not None for v in self.label], dtype=bool)
        label = self.label[has].astype(bool)
        found = accuracy(label) if has.any() else None
        if self.old is None:
            return StoredLabelCheck(int(has.sum()), found, None, ())
        assert self.rematched is not None
        differs = label != self.rematched[has]
        ids = tuple(self.ids[has][differs][:DISAGREEMENT_EXAMPLES].tolist())
        return StoredLabelCheck(int(has.sum()), found, int(differs.sum()), ids)


def _paired_change(stored_ok: Mask, rescored_ok: Mask) -> PairedChange:
    """The accuracy change and exact McNemar test of two labellings of the same rows."""
    b, c, p = mcnemar_paired(stored_ok, rescored_ok)
    return PairedChange(accuracy_delta=accuracy(rescored_ok) - accuracy(stored_ok), flips=b + c,
                        stored_only_correct=b, rescored_only_correct=c, mcnemar_p=p)  # fmt: skip


def _arrays(
    labels: Labels, correct: Sequence[bool | None] | None = None
) -> tuple[Mask, Mask, Mask]:
    """(correct, failed, errored) per row; failed = no value on a row that is not an error row.
    ``correct`` replaces the labels' own correctness (the stored side's recorded labels)."""
    errored = np.array([r in ERROR_RULES for r in labels.rules], dtype=bool)
    missing = np.array([v is None for v in labels.values], dtype=bool)
    ok = np.array([bool(c) for c in (labels.correct if correct is None else correct)], dtype=bool)
    return ok, missing & ~errored, errored


def _category_counts(new: Labels, idx: list[int], found: Incidence) -> dict[str, int]:
    rules = Counter(new.rules[i] for i in idx)
    return {c.category: sum(rules[r] for r in c.rules) for c in found.categories}


_INT64 = range(-(2**63), 2**63)


def _value_type(new: Labels, old: Labels | None) -> type[pl.DataType]:
    """Int64 for JSON values, unless one is an integer beyond 64 bits (JSON has no limit):
    then the values are written as text, every digit kept, rather than fail or round."""
    if KINDS[new.kind].value_dtype is not pl.Int64:
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
