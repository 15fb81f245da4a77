"""The audit as mergeable partial results: one `AuditPartial` per slice (or partition) of rows,
merged associatively (`merge_partials`), then turned into the report (`audit_totals.result_of`).

A partial holds counts only, plus a bounded set of example candidates: paired counts per
scheme x group, rule counts per scheme x group x rule, the scored groups, marker and
``</think>`` tallies, outcome counts for the conclusions, and the flip examples whose seeded
key (`audit_examples.example_key`) is among the smallest. Every part is a sum, a union or a "k
smallest by key", so the numbers and the examples are the same whatever the split of the rows:
slices of one machine (`analysis.audit`) or the partitions of a Ray dataset (`engines.ray`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

import polars as pl

from answer_audit.analysis.audit_conclusions import SliceOutcomes
from answer_audit.analysis.audit_examples import Keyed, example_key, flip_examples, smallest
from answer_audit.analysis.audit_labels import AuditPlan, label_batch
from answer_audit.analysis.audit_result import MarkerCounts, PostThinkLoss
from answer_audit.analysis.audit_settings import AuditSettings
from answer_audit.analysis.conclusions import OutcomeCounts, merge_outcome_counts
from answer_audit.analysis.markers import count_markers, count_think
from answer_audit.parsers import Parser
from answer_audit.schemes.apply import CONSISTENCY, Scheme, label_column
from answer_audit.schemes.kinds import KINDS

# Underscored names: a group column may well be called "n" or "c".
PAIR_COUNTS = ("_n", "_both", "_b", "_c")


@dataclass(frozen=True)
class AuditPartial:
    """What the audit keeps of some rows; `merge_partials` adds two together."""

    rows: int
    """Rows seen."""
    rows_with_truth: int
    """Rows with a truth the kind's v1 matcher accepts."""
    scored: int
    """Rows with a truth and a stored label."""
    stored_missing: int
    """Rows without a stored label (with or without a truth)."""
    truth_without_stored: int
    """Rows with a truth but no stored label."""
    consistency_mismatches: int | None
    """Scored rows whose stored parse, re-scored, disagrees with the stored label; None when
    the table lacks a stored label or a stored parse."""
    pairs: pl.DataFrame
    """``_scheme`` (index), the group columns and `PAIR_COUNTS`, over judged scored rows."""
    groups: pl.DataFrame
    """The distinct groups of the scored rows (one empty-keyed row without groups)."""
    rules: pl.DataFrame
    """``_scheme``, the group columns, ``_rule`` and ``_count``, over scored rows, for the
    schemes that parse."""
    markers: MarkerCounts
    """Role and block markers of the scored rows."""
    think_rows: int
    """Scored rows with ``</think>``."""
    post_think_flips: int
    """Of those, rows whose label flips when only the text after ``</think>`` is scored."""
    think_losses: tuple[tuple[str, PostThinkLoss], ...]
    """Stored right, post-think wrong: the smallest keys, at most ``max_examples``."""
    truths: frozenset[str]
    """Distinct truths of the scored rows (choice kinds only; else empty)."""
    outcomes: OutcomeCounts | None
    """Outcome counts for the conclusions; None without ``settings.compare``."""
    examples: tuple[Keyed, ...]
    """Flip examples with the smallest keys, at most ``max_examples``."""


def label_partial(
    chunk: pl.DataFrame,
    plan: AuditPlan,
    settings: AuditSettings,
    presets: Mapping[str, Parser] | None,
    workers: int = 1,
    threads: ThreadPoolExecutor | None = None,
) -> AuditPartial:
    """Every scheme of ``plan`` on the canonical rows ``chunk``, kept as a partial."""
    run: Callable[[tuple[Scheme, ...]], list[pl.DataFrame]] = lambda batch: label_batch(  # noqa: E731
        chunk, batch, settings, presets, workers
    )
    if threads is not None:
        pending = [threads.submit(run, batch) for batch in plan.batches]
        done = [future.result() for future in pending]
    else:
        done = [run(batch) for batch in plan.batches]
    labelled: dict[str, pl.DataFrame] = {}
    for batch, parts in zip(plan.batches, done, strict=True):
        for scheme, part in zip(batch, parts, strict=True):
            labelled[CONSISTENCY.name if scheme is CONSISTENCY else scheme.name] = part
    consistency = labelled.get(CONSISTENCY.name) if plan.checks_consistency else None
    return partial_of(chunk, plan.schemes, labelled, consistency, settings, presets)


def partial_of(
    chunk: pl.DataFrame,
    schemes: Sequence[Scheme],
    labelled: Mapping[str, pl.DataFrame],
    consistency: pl.DataFrame | None,
    settings: AuditSettings,
    presets: Mapping[str, Parser] | None,
) -> AuditPartial:
    """The partial of labelled rows: ``labelled`` holds each scheme's rule, span and label
    (by scheme name), ``consistency`` the stored parse re-scored (or None)."""
    blank = pl.Series([""] * chunk.height, dtype=pl.String)
    has_truth = label_column(blank, chunk["truth"], settings.kind, "v1").is_not_null()
    recorded = "label" in chunk.columns
    if not recorded and consistency is None:
        raise ValueError("the audit needs a stored label or a stored parse")
    stored = chunk["label"] if recorded else consistency["correct"]  # type: ignore[index]
    scored = has_truth & stored.is_not_null()
    oks = {s.name: labelled[s.name]["correct"] for s in schemes}
    table = _scored_table(chunk, stored, scored, schemes, oks, settings.group_by)
    mismatches = None
    if consistency is not None and recorded:
        derived = consistency["correct"].filter(scored).cast(pl.Boolean).fill_null(False)
        mismatches = int((derived != table["_stored"].fill_null(False)).sum())
    think_rows, post_flips, lost = count_think(chunk, scored, stored, settings.kind)
    losses = [(example_key(settings.seed, "</think>", loss.id), loss) for loss in lost]
    with_choices = KINDS[settings.kind].default_choices is not None
    return AuditPartial(
        rows=chunk.height,
        rows_with_truth=int(has_truth.sum()),
        scored=int(scored.sum()),
        stored_missing=int(stored.is_null().sum()),
        truth_without_stored=int((has_truth & stored.is_null()).sum()),
        consistency_mismatches=mismatches,
        pairs=_pairs(table, len(schemes), settings.group_by),
        groups=table.select(settings.group_by).unique() if settings.group_by else _no_groups(table),
        rules=_rules(table, chunk, scored, schemes, labelled, settings.group_by),
        markers=count_markers(chunk, scored),
        think_rows=think_rows,
        post_think_flips=post_flips,
        think_losses=smallest(losses, settings.max_examples),
        truths=frozenset(chunk["truth"].filter(scored).drop_nulls().unique().to_list())
        if with_choices
        else frozenset(),
        outcomes=_outcomes(chunk, has_truth, stored, schemes, oks, settings),
        examples=flip_examples(chunk, table, schemes, labelled, settings, presets),
    )


def _outcomes(
    chunk: pl.DataFrame,
    has_truth: pl.Series,
    stored: pl.Series,
    schemes: Sequence[Scheme],
    oks: Mapping[str, pl.Series],
    settings: AuditSettings,
) -> OutcomeCounts | None:
    """The slice's outcome counts for the conclusions; None without ``settings.compare``."""
    chosen = settings.conclusion_settings()
    if chosen is None:
        return None
    counter = SliceOutcomes(chosen, [s.name for s in schemes])
    counter.add(chunk, has_truth, stored, oks)
    return counter.total


def _scored_table(
    chunk: pl.DataFrame,
    stored: pl.Series,
    scored: pl.Series,
    schemes: Sequence[Scheme],
    oks: Mapping[str, pl.Series],
    group_by: Sequence[str],
) -> pl.DataFrame:
    """One row per scored row: groups, id, ``_stored``, ``_ok<i>`` per scheme and ``_row``
    (its position in the chunk)."""
    return (
        chunk.select(*group_by, pl.col("id").alias("_id"), stored.cast(pl.Boolean).alias("_stored"))
        .with_columns(
            pl.int_range(pl.len(), dtype=pl.Int64).alias("_row"),
            **{f"_ok{i}": oks[s.name].cast(pl.Boolean) for i, s in enumerate(schemes)},
        )
        .filter(scored)
    )


def _no_groups(table: pl.DataFrame) -> pl.DataFrame:
    """Without groups: one row (no columns but a marker) when some row is scored."""
    return pl.DataFrame({"_any": [True] * min(table.height, 1)})


def _pairs(table: pl.DataFrame, n_schemes: int, group_by: Sequence[str]) -> pl.DataFrame:
    counts = {
        "_n": pl.len().cast(pl.Int64),
        "_both": (pl.col("_stored") & pl.col("_ok")).sum().cast(pl.Int64),
        "_b": (pl.col("_stored") & ~pl.col("_ok")).sum().cast(pl.Int64),
        "_c": (~pl.col("_stored") & pl.col("_ok")).sum().cast(pl.Int64),
    }
    frames = []
    for i in range(n_schemes):
        t = table.select(*group_by, "_stored", pl.col(f"_ok{i}").alias("_ok")).filter(
            pl.col("_ok").is_not_null()
        )
        per = t.group_by(group_by).agg(**counts) if group_by else t.select(**counts)
        frames.append(per.filter(pl.col("_n") > 0).select(pl.lit(i).alias("_scheme"), pl.all()))
    return pl.concat(frames, how="vertical_relaxed")


def _rules(
    table: pl.DataFrame,
    chunk: pl.DataFrame,
    scored: pl.Series,
    schemes: Sequence[Scheme],
    labelled: Mapping[str, pl.DataFrame],
    group_by: Sequence[str],
) -> pl.DataFrame:
    frames = []
    for i, scheme in enumerate(schemes):
        if scheme.uses_stored_parse:
            continue
        rule = labelled[scheme.name]["rule"].filter(scored).alias("_rule")
        frames.append(
            table.with_columns(rule)
            .select(*group_by, "_rule")
            .group_by([*group_by, "_rule"])
            .agg(pl.len().cast(pl.Int64).alias("_count"))
            .select(pl.lit(i).alias("_scheme"), pl.all())
        )
    if not frames:
        return pl.DataFrame(schema={"_scheme": pl.Int32, "_rule": pl.String, "_count": pl.Int64})
    return pl.concat(frames, how="vertical_relaxed")


def merge_partials(parts: Sequence[AuditPartial], max_examples: int) -> AuditPartial:
    """The partial of the union of the parts' rows (associative and commutative: any split
    and any order of merging gives the same report)."""
    if not parts:
        raise ValueError("merge_partials needs at least one part")
    first = parts[0]
    mismatches = [p.consistency_mismatches for p in parts]
    outcomes = [p.outcomes for p in parts if p.outcomes is not None]
    return replace(
        first,
        rows=sum(p.rows for p in parts),
        rows_with_truth=sum(p.rows_with_truth for p in parts),
        scored=sum(p.scored for p in parts),
        stored_missing=sum(p.stored_missing for p in parts),
        truth_without_stored=sum(p.truth_without_stored for p in parts),
        consistency_mismatches=None if None in mismatches else sum(m or 0 for m in mismatches),
        pairs=_summed([p.pairs for p in parts], PAIR_COUNTS),
        groups=pl.concat([p.groups for p in parts], how="vertical_relaxed").unique(),
        rules=_summed([p.rules for p in parts], ("_count",)),
        markers=sum((p.markers for p in parts[1:]), first.markers),
        think_rows=sum(p.think_rows for p in parts),
        post_think_flips=sum(p.post_think_flips for p in parts),
        think_losses=smallest([kv for p in parts for kv in p.think_losses], max_examples),
        truths=frozenset().union(*(p.truths for p in parts)),
        outcomes=merge_outcome_counts(outcomes) if outcomes else None,
        examples=tuple(
            sorted((e for p in parts for e in p.examples), key=lambda e: e[0])[:max_examples]
        ),
    )


def _summed(frames: Sequence[pl.DataFrame], counts: Sequence[str]) -> pl.DataFrame:
    """Frames of counts added up by their other columns (Polars keys: NaN is one group)."""
    joined = pl.concat(frames, how="vertical_relaxed")
    keys = [c for c in joined.columns if c not in counts]
    if not keys:
        return joined.sum()
    return joined.group_by(keys).agg(pl.col(c).sum() for c in counts)
