"""Rescoring saved outputs: re-extract with a preset, score both labellings, compare them.

Pure: takes a canonical table, returns a `RescoreResult` (typed, frozen; see
`answer_audit.analysis.rescore_result`): ``to_dict()`` is the documented JSON (docs/reports.md,
"The rescore report"), ``annotate()`` the input rows with the new labels. The steps, each in
its own module:

1. plan (`rescore_partials.plan_rescore`): the preset, its matcher and the settings, checked;
2. label each slice of rows and keep it as a mergeable partial (`rescore_partials`), merged as
   the slices come: the merge a cluster engine runs over its partitions (`engines.ray`);
3. the report from the merged counts (`rescore_totals.rescore_result`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from answer_audit.analysis.rescore_partials import (
    RescorePartial,
    RescorePlan,
    RowLabels,
    label_rows,
    merge_rescore_partials,
    plan_rescore,
    rescore_partial,
)
from answer_audit.analysis.rescore_result import RENAME_SUFFIX, RescoreResult, output_names
from answer_audit.analysis.rescore_totals import rescore_result
from answer_audit.parsers import Parser
from answer_audit.schemes.kinds import KINDS
from answer_audit.schemes.labels import Labels
from answer_audit.table.canonical import LoadedTable, in_memory_table

__all__ = [
    "CHUNK_ROWS",
    "RENAME_SUFFIX",
    "RescoreResult",
    "output_names",
    "rename_notes",
    "rescore",
    "row_frame",
]

CHUNK_ROWS = 100_000
"""Rows per slice (read at each call, so a test can make many slices of a small table)."""


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
    plan = plan_rescore(frame.columns, parser, presets=presets, choices=choices,
                        normalizer=normalizer, group_by=group_by, n_boot=n_boot, seed=seed,
                        ci=ci, compare=compare, baseline=baseline, item=item)  # fmt: skip
    merged, labels = _label_slices(frame, plan, workers)
    rows = row_frame(labels.new, labels.old)
    loaded = table if isinstance(table, LoadedTable) else None
    notes = () if loaded is None else (*loaded.notes, *rename_notes(loaded.original.columns,
                                                                    rows.columns))  # fmt: skip
    return rescore_result(
        merged,
        plan,
        source_coverage=None if loaded is None else loaded.coverage,
        notes=notes,
        rows=rows,
        original=None if loaded is None else loaded.original,
    )


def _label_slices(
    frame: pl.DataFrame, plan: RescorePlan, workers: int
) -> tuple[RescorePartial, RowLabels]:
    """Every slice of `CHUNK_ROWS` rows labelled and kept as a partial, merged as they come
    (one code path with the cluster engines); the labels of all rows, for the row output."""
    merged: RescorePartial | None = None
    labelled: list[RowLabels] = []
    for start in range(0, max(frame.height, 1), CHUNK_ROWS):
        chunk = frame.slice(start, CHUNK_ROWS)
        labels = label_rows(chunk, plan, workers)
        part = rescore_partial(chunk, labels, plan)
        merged = part if merged is None else merge_rescore_partials([merged, part])
        labelled.append(labels)
    assert merged is not None
    return merged, _joined(labelled)


def _joined(parts: Sequence[RowLabels]) -> RowLabels:
    """The labels of consecutive slices as the labels of all their rows."""
    if len(parts) == 1:
        return parts[0]

    def join(pieces: Sequence[Labels]) -> Labels:
        first = pieces[0]
        return Labels(
            first.name,
            first.kind,
            [v for p in pieces for v in p.values],
            [r for p in pieces for r in p.rules],
            [s for p in pieces for s in p.spans],
            [c for p in pieces for c in p.correct],
        )

    olds = [p.old for p in parts if p.old is not None]
    return RowLabels(join([p.new for p in parts]), join(olds) if olds else None)


_INT64 = range(-(2**63), 2**63)


def _value_type(new: Labels, old: Labels | None) -> type[pl.DataType]:
    """Int64 for JSON values, unless one is an integer beyond 64 bits (JSON has no limit):
    then the values are written as text, every digit kept, rather than fail or round."""
    if KINDS[new.kind].value_dtype is not pl.Int64:
        return pl.String
    values = [*new.values, *(old.values if old is not None else ())]
    return pl.Int64 if all(v is None or v in _INT64 for v in values) else pl.String


def row_frame(new: Labels, old: Labels | None) -> pl.DataFrame:
    """Per row, the new labels (and the stored ones): the columns ``annotate()`` adds."""
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


def rename_notes(existing: Sequence[str], new: Sequence[str]) -> list[str]:
    """A note per new column written under another name, the input having one of its name."""
    return [
        f"the input already has a column '{name}'; it is kept, and the new one is written as "
        f"'{chosen}'"
        for name, chosen in output_names(existing, new).items()
        if chosen != name
    ]
