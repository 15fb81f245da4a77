"""The rescore as mergeable partial results: one `RescorePartial` per slice (or partition) of
rows, merged associatively (`merge_rescore_partials`), then turned into the report
(`answer_audit.analysis.rescore_totals.rescore_result`).

A partial holds counts only, plus a bounded set of example ids: rows per group x truth class x
outcome (each labelling's correct / failed / errored, the recorded label), rules per group, the
incidence and value-pair counts (`IncidenceCounts`, `ValuePairs`), the truth tally, outcome
counts for the conclusions, and, per group, the stored-label disagreements whose seeded key
(`example_key`) is among the smallest. Every part is a sum, a logical and, or "k smallest by
key", so the report is the same whatever the split of the rows: slices of one machine
(`answer_audit.analysis.rescore`) or the partitions of a Ray dataset (`answer_audit.engines.ray`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import polars as pl

from answer_audit.analysis.audit_examples import example_key
from answer_audit.analysis.conclusions_counts import (
    OutcomeCounts,
    merge_outcome_counts,
    outcome_counts,
)
from answer_audit.analysis.conclusions_results import ConclusionSettings
from answer_audit.analysis.conclusions_section import (
    check_conclusion_columns,
    conclusion_settings,
)
from answer_audit.analysis.incidence import IncidenceCounts, ValuePairs
from answer_audit.analysis.input_notes import TruthTally
from answer_audit.analysis.rescore_result import RescoreSettings
from answer_audit.analysis.stats import check_bootstrap
from answer_audit.parsers import Parser
from answer_audit.schemes.kinds import KindName
from answer_audit.schemes.labels import (
    ERROR_RULES,
    Labels,
    kind_of,
    parser_labels,
    pick_normalizer,
    resolve_parser,
    stored_labels,
    truth_classes,
)

__all__ = [
    "DISAGREEMENT_EXAMPLES",
    "RescorePartial",
    "RescorePlan",
    "RowLabels",
    "label_rows",
    "merge_rescore_partials",
    "plan_rescore",
    "rescore_partial",
]

DISAGREEMENT_EXAMPLES = 10
"""Ids of stored-label disagreements shown per comparison (the smallest seeded keys)."""

# Count and outcome columns; underscored, as a group column may well be called "rows".
ROWS, CLASS, RULE, KEY, ID = "_rows", "_class", "_rule", "_key", "_id"
_STORED, _RESCORED = "__stored", "__rescored"
_EXAMPLE_SCHEME = "stored-label"  # the example key's scheme part: one key per row id


@dataclass(frozen=True)
class RescorePlan:
    """What every slice of a rescore needs, checked once (`plan_rescore`)."""

    preset: Parser
    """The preset the rows are rescored with (choices applied)."""
    kind: KindName
    """Its kind: decides the matcher."""
    normalizer: str
    """The matcher's normalizer."""
    settings: RescoreSettings
    """Group-by columns and bootstrap settings."""
    conclusions: ConclusionSettings | None
    """The comparison asked for; None without one."""
    stored_parse: bool
    """The table has a stored parse (``parsed``): the stored side is labelled from it."""
    recorded: bool
    """The table has recorded correctness (``label``)."""

    @property
    def group_by(self) -> tuple[str, ...]:
        """The group-by columns."""
        return self.settings.group_by


def plan_rescore(
    columns: Sequence[str],
    parser: str | Parser,
    *,
    presets: Mapping[str, Parser] | None = None,
    choices: str | None = None,
    normalizer: str | None = None,
    group_by: Sequence[str] = (),
    n_boot: int = 1000,
    seed: int = 0,
    ci: float = 0.95,
    compare: str | None = None,
    baseline: str | None = None,
    item: str | None = None,
) -> RescorePlan:
    """The checked plan of a rescore of a canonical table with ``columns`` (arguments as
    `answer_audit.analysis.rescore.rescore` takes them); ValueError or PresetError, with what
    to change, for settings that cannot work."""
    missing = [c for c in ("id", "raw", "truth", *group_by) if c not in columns]
    if missing:
        raise ValueError(
            f"the table lacks column(s) {', '.join(missing)}; available: {', '.join(columns)}"
        )
    check_bootstrap(n_boot, seed, ci)
    chosen = conclusion_settings(compare, baseline, item, group_by, seed=seed, n_boot=n_boot,
                                 alpha=round(1 - ci, 12))  # fmt: skip
    preset = resolve_parser(parser, presets, choices)
    kind = kind_of(preset)
    plan = RescorePlan(
        preset=preset,
        kind=kind,
        normalizer=pick_normalizer(normalizer, kind),
        settings=RescoreSettings(
            group_by=tuple(group_by), bootstrap=n_boot, seed=seed, ci=ci, choices=choices
        ),
        conclusions=chosen,
        stored_parse="parsed" in columns,
        recorded="label" in columns,
    )
    if chosen is not None:
        if not (plan.stored_parse or plan.recorded):
            raise ValueError(
                "conclusions hold the rescore against the stored labels: pass --label COLUMN "
                "(recorded correctness) or --parsed COLUMN (the stored parse)"
            )
        check_conclusion_columns(columns, chosen)
    return plan


@dataclass(frozen=True)
class RowLabels:
    """A slice's rows labelled by the preset, and by the stored parse when there is one."""

    new: Labels
    """The rescored labels."""
    old: Labels | None
    """The stored parse's labels (re-matched); None without a stored parse."""

    def stored_correct(self, label: pl.Series | None) -> list[bool | None] | None:
        """Per row, the stored correctness: the recorded ``label``, else (no label on the row,
        or no label column) the stored parse re-matched; None with neither."""
        rematched = None if self.old is None else self.old.correct
        if label is None:
            return rematched
        return [
            recorded if recorded is not None else (None if rematched is None else rematched[i])
            for i, recorded in enumerate(label.to_list())
        ]


def label_rows(chunk: pl.DataFrame, plan: RescorePlan, workers: int = 1) -> RowLabels:
    """The canonical rows ``chunk`` labelled by the plan's preset and by their stored parse."""
    new = parser_labels(chunk, plan.preset, normalizer=plan.normalizer, name="rescored",
                        workers=workers)  # fmt: skip
    old = stored_labels(chunk, plan.kind, normalizer=plan.normalizer) if plan.stored_parse else None
    return RowLabels(new, old)


@dataclass(frozen=True)
class RescorePartial:
    """What the rescore keeps of some rows; `merge_rescore_partials` adds two together."""

    rows: int
    """Rows seen."""
    outcomes: pl.DataFrame
    """Scored rows (a truth the matcher accepts) per group, truth class (``_class``) and
    outcome: ``_new_ok/_failed/_error``, ``_old_*`` (with a stored parse), ``_label`` and
    ``_rematched`` (with recorded correctness), counted in ``_rows``."""
    rules: pl.DataFrame
    """Rows per group and rescored rule (``_rule``, ``_rows``): every row, so every group."""
    incidence: IncidenceCounts
    """The rescored values' incidence counts."""
    values: ValuePairs | None
    """Stored vs rescored value pairs; None without a stored parse."""
    disagreements: pl.DataFrame
    """Scored rows whose recorded label and re-matched stored parse differ: the group, the
    seeded key (``_key``) and the id (``_id``), at most `DISAGREEMENT_EXAMPLES` per group."""
    truths: TruthTally
    """The truth column as the kind sees it (for the input notes)."""
    conclusions: OutcomeCounts | None
    """Outcome counts for the conclusions; None without a comparison."""


def rescore_partial(chunk: pl.DataFrame, labels: RowLabels, plan: RescorePlan) -> RescorePartial:
    """The partial of the canonical rows ``chunk`` and their labels (`label_rows`)."""
    new, old = labels.new, labels.old
    scored = [ok is not None for ok in new.correct]
    classes = truth_classes(chunk, plan.kind)
    label = chunk["label"] if plan.recorded else None
    stored_ok = labels.stored_correct(label)
    per_row = _outcome_columns(new, old, stored_ok, label, classes)
    rules = pl.Series(RULE, new.rules, dtype=pl.String)
    return RescorePartial(
        rows=chunk.height,
        outcomes=_counted(_beside_groups(chunk, plan, per_row.values()).filter(scored)),
        rules=_counted(_beside_groups(chunk, plan, [rules])),
        incidence=IncidenceCounts.of(new, classes, scored),
        values=_value_pairs(labels, plan),
        disagreements=_disagreements(chunk, per_row, scored, plan),
        truths=TruthTally.of(chunk["truth"], plan.kind),
        conclusions=_outcome_counts(chunk, scored, stored_ok, new, plan.conclusions),
    )


def _outcome_columns(
    new: Labels,
    old: Labels | None,
    stored_ok: list[bool | None] | None,
    label: pl.Series | None,
    classes: Sequence[str | None],
) -> dict[str, pl.Series]:
    """Per row: the truth class and each labelling's outcome (failed = no value on a row that
    is not an error row; the stored side's correctness is the recorded one where given)."""
    columns = {CLASS: pl.Series(CLASS, [c or "" for c in classes], dtype=pl.String)}
    columns |= _side("_new", new, new.correct)
    if old is not None:
        assert stored_ok is not None
        columns |= _side("_old", old, stored_ok)
    if label is not None:
        columns["_label"] = label.cast(pl.Boolean).alias("_label")
        if old is not None:
            rematched = [bool(c) for c in old.correct]
            columns["_rematched"] = pl.Series("_rematched", rematched, dtype=pl.Boolean)
    return columns


def _side(prefix: str, labels: Labels, correct: Sequence[bool | None]) -> dict[str, pl.Series]:
    errored = [r in ERROR_RULES for r in labels.rules]
    failed = [v is None and not e for v, e in zip(labels.values, errored, strict=True)]
    columns = {
        f"{prefix}_ok": pl.Series([bool(c) for c in correct], dtype=pl.Boolean),
        f"{prefix}_failed": pl.Series(failed, dtype=pl.Boolean),
        f"{prefix}_error": pl.Series(errored, dtype=pl.Boolean),
    }
    return {name: column.alias(name) for name, column in columns.items()}


def _value_pairs(labels: RowLabels, plan: RescorePlan) -> ValuePairs | None:
    """Stored vs rescored values, with a stored parse."""
    if labels.old is None:
        return None
    return ValuePairs.of(plan.kind, labels.old.values, labels.new.values, plan.normalizer)


def _beside_groups(
    chunk: pl.DataFrame, plan: RescorePlan, columns: Iterable[pl.Series]
) -> pl.DataFrame:
    """The group columns of ``chunk``, then ``columns`` (each as long as the chunk)."""
    return pl.DataFrame([*(chunk[g] for g in plan.group_by), *columns])


def _counted(frame: pl.DataFrame) -> pl.DataFrame:
    """Rows per distinct combination of ``frame``'s columns (Polars keys: NaN is one group)."""
    return frame.group_by(frame.columns).len(ROWS).with_columns(pl.col(ROWS).cast(pl.Int64))


def _disagreements(
    chunk: pl.DataFrame, per_row: Mapping[str, pl.Series], scored: list[bool], plan: RescorePlan
) -> pl.DataFrame:
    """The scored rows whose recorded label and re-matched parse differ, smallest keys first."""
    ids = chunk["id"].cast(pl.String).alias(ID)
    differs = pl.Series([False] * chunk.height, dtype=pl.Boolean)
    if "_rematched" in per_row:
        label, rematched = per_row["_label"], per_row["_rematched"]
        differs = (pl.Series(scored) & label.is_not_null() & (label != rematched)).fill_null(False)
    found = _beside_groups(chunk, plan, [ids]).filter(differs)
    seed = plan.settings.seed
    keys = [example_key(seed, _EXAMPLE_SCHEME, i) for i in found[ID].to_list()]
    return _smallest(found.with_columns(pl.Series(KEY, keys, dtype=pl.String)), plan.group_by)


def _smallest(frame: pl.DataFrame, group_by: Sequence[str]) -> pl.DataFrame:
    """Per group, the `DISAGREEMENT_EXAMPLES` rows with the smallest keys (ties: by id)."""
    ordered = frame.select(*group_by, KEY, ID).sort([KEY, ID], nulls_last=True)
    if not group_by:
        return ordered.head(DISAGREEMENT_EXAMPLES)
    return ordered.group_by(list(group_by), maintain_order=True).head(DISAGREEMENT_EXAMPLES)


def _outcome_counts(
    chunk: pl.DataFrame,
    scored: list[bool],
    stored_ok: list[bool | None] | None,
    new: Labels,
    chosen: ConclusionSettings | None,
) -> OutcomeCounts | None:
    """The conclusions' counts: the rescore against the stored labels, on the scored rows."""
    if chosen is None:
        return None
    assert stored_ok is not None  # plan_rescore asks for a label or a stored parse
    keep = [*chosen.strata, chosen.compare, *([chosen.item] if chosen.item else [])]
    stored = [ok if keep_row else None for ok, keep_row in zip(stored_ok, scored, strict=True)]
    table = chunk.select(list(dict.fromkeys(keep))).with_columns(
        pl.Series(_STORED, stored, dtype=pl.Boolean),
        pl.Series(_RESCORED, new.correct, dtype=pl.Boolean),
    )
    return outcome_counts(table, chosen, stored=_STORED, schemes={new.name: _RESCORED})


def merge_rescore_partials(parts: Sequence[RescorePartial]) -> RescorePartial:
    """The partial of the union of the parts' rows (associative and commutative: any split
    and any order of merging gives the same report)."""
    if not parts:
        raise ValueError("merge_rescore_partials needs at least one part")
    first = parts[0]
    group_by = [c for c in first.rules.columns if c not in (RULE, ROWS)]
    values = [p.values for p in parts if p.values is not None]
    counted = [p.conclusions for p in parts if p.conclusions is not None]
    incidence = first.incidence
    truths = first.truths
    for part in parts[1:]:
        incidence, truths = incidence.merge(part.incidence), truths.merge(part.truths)
    merged_values = values[0] if values else None
    for more in values[1:]:
        assert merged_values is not None
        merged_values = merged_values.merge(more)
    return RescorePartial(
        rows=sum(p.rows for p in parts),
        outcomes=_summed([p.outcomes for p in parts]),
        rules=_summed([p.rules for p in parts]),
        incidence=incidence,
        values=merged_values,
        disagreements=_smallest(
            pl.concat([p.disagreements for p in parts], how="vertical_relaxed"), group_by
        ),
        truths=truths,
        conclusions=merge_outcome_counts(counted) if counted else None,
    )


def _summed(frames: Sequence[pl.DataFrame]) -> pl.DataFrame:
    """Frames of row counts added up by their other columns."""
    joined = pl.concat(frames, how="vertical_relaxed")
    keys = [c for c in joined.columns if c != ROWS]
    return joined.group_by(keys).agg(pl.col(ROWS).sum())
