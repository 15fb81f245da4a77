"""From a merged `RescorePartial` to the `RescoreResult`: metrics, paired changes, stored-label
checks, groups, incidence, value comparison and conclusions, each computed from counts alone.

The same statistics as on the rows (`Metrics.of_counts` draws the same bootstrap as
`Metrics.of`), fed with counts summed over the slices or partitions: every engine ends here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from answer_audit.analysis.conclusions import conclusions_from_counts
from answer_audit.analysis.conclusions_section import ConclusionsSection
from answer_audit.analysis.incidence import Incidence, incidence_of_counts, rule_descriptions
from answer_audit.analysis.input_notes import input_notes
from answer_audit.analysis.metrics import BootSettings, Metrics
from answer_audit.analysis.rescore_partials import (
    CLASS,
    DISAGREEMENT_EXAMPLES,
    ID,
    KEY,
    ROWS,
    RULE,
    RescorePartial,
    RescorePlan,
)
from answer_audit.analysis.rescore_result import (
    Comparison,
    PairedChange,
    RescoreCoverage,
    RescoreGroup,
    RescoreResult,
    StoredLabelCheck,
    stored_labelling_name,
)
from answer_audit.analysis.stats import mcnemar, natural_sort_key
from answer_audit.schemes.kinds import KINDS
from answer_audit.table.lazy import InputRows

__all__ = ["comparison_of", "rescore_result"]

GroupKey = tuple[Any, ...]


def rescore_result(
    partial: RescorePartial,
    plan: RescorePlan,
    *,
    source_coverage: Mapping[str, Any] | None = None,
    notes: Sequence[str] = (),
    rows: pl.DataFrame | None = None,
    original: pl.DataFrame | InputRows | None = None,
) -> RescoreResult:
    """The rescore of the rows merged into ``partial``. ``source_coverage`` is the reader's
    (files, skipped lines ...), ``notes`` the reader's and the output's; the input notes
    follow them. ``rows`` (the per-row labels) and ``original`` (the input as read, or read
    by slices) are kept for ``annotated()`` when the caller holds them."""
    kind = plan.kind
    found = incidence_of_counts(partial.incidence, json_field=KINDS[kind].json_field,
                                descriptions=rule_descriptions(plan.preset.describe()))  # fmt: skip
    overall = comparison_of(partial.outcomes, partial.disagreements, plan)
    groups = _groups(partial, plan, found)
    matrix, changes = (None, None) if partial.values is None else partial.values.comparison()
    return RescoreResult(
        parser=plan.preset.name, family=kind, normalizer=plan.normalizer, settings=plan.settings,
        coverage=_coverage(partial.rows, overall.rescored.n, len(groups), source_coverage),
        overall=overall, groups=groups, incidence=found, confusion=matrix,
        notes=(*notes, *_input_notes(partial, plan, overall)),
        rows=rows if rows is not None else pl.DataFrame(), original=original,
        conclusions=_conclusions(partial, plan), value_changes=changes,
    )  # fmt: skip


def comparison_of(
    outcomes: pl.DataFrame, disagreements: pl.DataFrame, plan: RescorePlan
) -> Comparison:
    """Stored vs rescored on the rows counted in ``outcomes`` (all rows, or one group's), with
    the stored-label disagreements among them (``disagreements``: candidate example ids)."""
    boot = plan.settings.boot
    rescored = _metrics(outcomes, "_new", boot)
    stored = _metrics(outcomes, "_old", boot) if plan.stored_parse else None
    change = None
    if stored is not None and rescored.n:
        change = _paired_change(outcomes, stored, rescored)
    label = _stored_label(outcomes, disagreements, plan) if plan.recorded else None
    return Comparison(stored=stored, rescored=rescored, change=change, stored_label=label)


def _total(outcomes: pl.DataFrame, where: pl.Expr | None = None) -> int:
    """Rows counted in ``outcomes`` (those matching ``where``)."""
    chosen = outcomes if where is None else outcomes.filter(where)
    return int(chosen[ROWS].sum())


def _metrics(outcomes: pl.DataFrame, side: str, boot: BootSettings) -> Metrics:
    """One labelling's metrics (``_new`` or ``_old`` outcome columns) from the counts."""
    ok = pl.col(f"{side}_ok")
    per_class = outcomes.group_by(CLASS).agg(
        pl.col(ROWS).filter(ok).sum().alias("hits"), pl.col(ROWS).sum().alias("total")
    )
    recall = {str(c): (int(h), int(t)) for c, h, t in per_class.iter_rows()}
    failures = _total(outcomes, pl.col(f"{side}_failed"))
    errors = _total(outcomes, pl.col(f"{side}_error"))
    return Metrics.of_counts(recall, failures, errors, boot)


def _paired_change(outcomes: pl.DataFrame, stored: Metrics, rescored: Metrics) -> PairedChange:
    """The accuracy change and exact McNemar test of the two labellings of the same rows."""
    old, new = pl.col("_old_ok"), pl.col("_new_ok")
    b, c = _total(outcomes, old & ~new), _total(outcomes, ~old & new)
    assert stored.accuracy is not None and rescored.accuracy is not None
    return PairedChange(accuracy_delta=rescored.accuracy - stored.accuracy, flips=b + c,
                        stored_only_correct=b, rescored_only_correct=c,
                        mcnemar_p=mcnemar(b, c))  # fmt: skip


def _stored_label(
    outcomes: pl.DataFrame, disagreements: pl.DataFrame, plan: RescorePlan
) -> StoredLabelCheck:
    """The recorded correctness on the scored rows, and how often the re-matched stored parse
    disagrees with it (examples: the smallest keys, listed by id)."""
    label = pl.col("_label")
    n = _total(outcomes, label.is_not_null())
    accuracy = _total(outcomes, label.fill_null(False)) / n if n else None
    if not plan.stored_parse:
        return StoredLabelCheck(n, accuracy, None, ())
    differs = _total(outcomes, label.is_not_null() & (label != pl.col("_rematched")))
    chosen = disagreements.sort([KEY, ID], nulls_last=True).head(DISAGREEMENT_EXAMPLES)
    ids = sorted(chosen[ID].to_list(), key=lambda i: (i is None, natural_sort_key(i or "")))
    return StoredLabelCheck(n, accuracy, differs, tuple(ids))


def _groups(
    partial: RescorePartial, plan: RescorePlan, found: Incidence
) -> tuple[RescoreGroup, ...]:
    """One entry per group value (every row's group), ordered by the values' text."""
    group_by = list(plan.group_by)
    if not group_by:
        return ()
    outcomes = _by_group(partial.outcomes, group_by)
    examples = _by_group(partial.disagreements, group_by)
    rules = _by_group(partial.rules, group_by)
    groups = []
    for key in sorted(rules, key=_group_order):
        mine = rules[key]
        counts = dict(zip(mine[RULE].to_list(), mine[ROWS].to_list(), strict=True))
        comparison = comparison_of(
            outcomes.get(key, partial.outcomes.clear()),
            examples.get(key, partial.disagreements.clear()),
            plan,
        )
        incidence = {c.category: sum(counts.get(r, 0) for r in c.rules) for c in found.categories}
        value = dict(zip(group_by, mine.row(0)[: len(group_by)], strict=True))
        groups.append(RescoreGroup(group=value, comparison=comparison, incidence=incidence))
    return tuple(groups)


def _by_group(frame: pl.DataFrame, group_by: list[str]) -> dict[GroupKey, pl.DataFrame]:
    """``frame`` split by group, keyed by the group's values (NaN made comparable)."""
    parts = frame.partition_by(group_by, as_dict=True, maintain_order=True)
    return {_comparable(key): part for key, part in parts.items()}


def _comparable(key: GroupKey) -> GroupKey:
    """A group key that equals itself (NaN != NaN would make every NaN key its own)."""
    return tuple("\x00nan" if isinstance(v, float) and math.isnan(v) else v for v in key)


def _group_order(key: GroupKey) -> tuple[tuple[str, ...], tuple[bool, ...]]:
    """Groups in the order of their values' text (``nan`` for NaN, ``None`` for null, a null
    before a text "None")."""
    text = tuple("nan" if v == "\x00nan" else str(v) for v in key)
    return text, tuple(v is not None for v in key)


def _coverage(
    rows: int, scored: int, groups: int, source: Mapping[str, Any] | None
) -> RescoreCoverage:
    """The counts, after the reader's coverage when the rows were read from files."""
    read = dict(source or {})
    if "rows_with_truth" in read:  # as the matcher counts them (a blank truth is none)
        read["rows_with_truth"] = scored
    return RescoreCoverage(rows=rows, scored=scored, no_truth=rows - scored, groups=groups,
                           source=read)  # fmt: skip


def _input_notes(partial: RescorePartial, plan: RescorePlan, overall: Comparison) -> list[str]:
    """Truths the preset's kind cannot match, and a rescore that gets every row wrong."""
    rescored, stored = overall.rescored, overall.stored
    return input_notes(partial.truths, plan.kind, {plan.preset.name: (rescored.accuracy, rescored.n)},
                       stored_accuracy=None if stored is None else stored.accuracy)  # fmt: skip


def _conclusions(partial: RescorePartial, plan: RescorePlan) -> ConclusionsSection | None:
    """The rescore as one scheme against the stored labels, on the rows with a truth."""
    if plan.conclusions is None:
        return None
    assert partial.conclusions is not None
    found = conclusions_from_counts(partial.conclusions, plan.conclusions)
    name = stored_labelling_name(plan.recorded, plan.kind, plan.normalizer)
    return ConclusionsSection(found, name)
