"""Rescoring saved outputs: re-extract with a preset, score both labellings, compare them.

Takes a canonical table, in memory or streamed from its files (`table.lazy`: the texts read
a slice at a time), and returns a `RescoreResult` (typed, frozen; see
`answer_audit.analysis.rescore_result`): ``to_dict()`` is the documented JSON (docs/reports.md,
"The rescore report"), ``annotated()`` the input rows with the new labels, a slice at a time.
The steps, each in its own module:

1. plan (`rescore_partials.plan_rescore`): the preset, its matcher and the settings, checked;
2. label each slice of rows and keep it as a mergeable partial (`rescore_partials`), merged as
   the slices come: the merge a cluster engine runs over its partitions (`engines.ray`). The
   report needs no row (its examples are chosen by a seeded key, its value lists bounded), so
   each slice's rows and labels are handed to the row output as it is labelled (``rows_to``)
   and kept only when asked (``keep_rows``);
3. the report from the merged counts (`rescore_totals.rescore_result`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import polars as pl

from answer_audit.analysis.rescore_partials import (
    RescorePartial,
    RescorePlan,
    label_rows,
    merge_rescore_partials,
    plan_rescore,
    rescore_partial,
)
from answer_audit.analysis.rescore_result import (
    RENAME_SUFFIX,
    RescoreResult,
    output_names,
    with_labels,
)
from answer_audit.analysis.rescore_totals import rescore_result
from answer_audit.parsers import Parser
from answer_audit.schemes.kinds import KINDS
from answer_audit.schemes.labels import Labels
from answer_audit.table.canonical import LoadedTable, in_memory_table
from answer_audit.table.lazy import InMemoryRows, InputRows, Rows, StreamedTable

__all__ = [
    "CHUNK_ROWS",
    "RENAME_SUFFIX",
    "RescoreResult",
    "output_names",
    "rename_notes",
    "rescore",
    "row_columns",
    "row_frame",
]

CHUNK_ROWS = 100_000
"""Rows per slice (read at each call, so a test can make many slices of a small table)."""


def rescore(
    table: pl.DataFrame | LoadedTable | StreamedTable,
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
    keep_rows: bool = True,
    rows_to: Callable[[pl.DataFrame], object] | None = None,
) -> RescoreResult:
    """Re-extract every row with ``parser`` and score it against the truth, beside the stored parse.

    ``table`` is a canonical table (``id, raw, parsed?, label?, truth, error?, <groups>``), a
    LoadedTable, or a StreamedTable (`sources.spec.load_streamed`: its texts are read a slice
    of `CHUNK_ROWS` rows at a time, and the caller closes it afterwards); from either of the
    last two, ``annotate()`` needs no argument. ``normalizer`` (free-form only, default v1) is
    the matcher's. Metrics cover rows with a truth; rows with no extraction or an error count
    as incorrect. ``workers`` > 1 runs a row-by-row preset in that many processes (same
    numbers; see `answer_audit.schemes.parallel`).

    ``keep_rows`` False keeps no per-row labels (``rows`` is empty, ``annotate()``
    unavailable): memory then does not grow with the rows beyond the table's short columns.
    ``rows_to`` (a LoadedTable or StreamedTable only) is called with each slice's input rows
    and their new labels as the slice is labelled, in row order: ``annotate()`` a slice at a
    time, e.g. `answer_audit.report.outputs.writing_rows`'s writer. A slice with a JSON
    integer beyond 64 bits has its values as text where the others have integers (one
    labelling of the whole table makes them all text; the writer does).

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
    rows = _rows_of(table, group_by)
    plan = plan_rescore(rows.columns, parser, presets=presets, choices=choices,
                        normalizer=normalizer, group_by=group_by, n_boot=n_boot, seed=seed,
                        ci=ci, compare=compare, baseline=baseline, item=item)  # fmt: skip
    loaded = table if isinstance(table, LoadedTable | StreamedTable) else None
    notes = () if loaded is None else (*loaded.notes, *rename_notes(loaded.original.columns,
                                                                    row_columns(plan)))  # fmt: skip
    if rows_to is not None and loaded is None:
        raise ValueError("rows_to needs the input rows: pass a LoadedTable or a StreamedTable")
    emit = None if rows_to is None or loaded is None else _emitter(loaded.original, plan, rows_to)
    merged, labels = _label_slices(rows, plan, workers, keep_rows, emit)
    return rescore_result(
        merged,
        plan,
        source_coverage=None if loaded is None else loaded.coverage,
        notes=notes,
        rows=labels,
        original=None if loaded is None else loaded.original,
    )


def _rows_of(table: object, group_by: Sequence[str]) -> Rows:
    """The canonical rows of what `rescore` was given, read by slices."""
    if isinstance(table, StreamedTable):
        return table.rows
    if isinstance(table, LoadedTable):
        return InMemoryRows(table.frame)
    return InMemoryRows(in_memory_table(table, group_by, what="the rescore table"))


Emit = Callable[[int, pl.DataFrame], None]


def _emitter(
    original: pl.DataFrame | InputRows, plan: RescorePlan, rows_to: Callable[[pl.DataFrame], object]
) -> Emit:
    """Hands ``rows_to`` the input rows from ``start`` on beside their labels (`row_frame`)."""
    names = output_names(original.columns, row_columns(plan))

    def emit(start: int, labels: pl.DataFrame) -> None:
        rows_to(with_labels(original.slice(start, labels.height), labels, names))

    return emit


def _label_slices(
    rows: Rows, plan: RescorePlan, workers: int, keep_rows: bool, emit: Emit | None
) -> tuple[RescorePartial, pl.DataFrame | None]:
    """Every slice of `CHUNK_ROWS` rows read (a streamed table's texts then), labelled and kept
    as a partial, merged as they come (one code path with the cluster engines); its labels
    (`row_frame`) handed to ``emit``, and with ``keep_rows`` kept: those of all rows."""
    merged: RescorePartial | None = None
    labelled: list[pl.DataFrame] = []
    for start in range(0, max(rows.height, 1), CHUNK_ROWS):
        chunk = rows.slice(start, CHUNK_ROWS)
        labels = label_rows(chunk, plan, workers)
        part = rescore_partial(chunk, labels, plan)
        merged = part if merged is None else merge_rescore_partials([merged, part])
        found = row_frame(labels.new, labels.old) if keep_rows or emit is not None else None
        del chunk, labels  # one slice's texts held at a time, the next read after
        if found is not None:
            if emit is not None:
                emit(start, found)
            if keep_rows:
                labelled.append(found)
        del found
    assert merged is not None
    if not keep_rows:
        return merged, None
    # a slice with a JSON integer beyond 64 bits writes its values as text; relaxed, every
    # slice's are then text, as one labelling of the whole table writes them
    return merged, pl.concat(labelled, how="vertical_relaxed")


_INT64 = range(-(2**63), 2**63)


def _value_type(new: Labels, old: Labels | None) -> type[pl.DataType]:
    """Int64 for JSON values, unless one is an integer beyond 64 bits (JSON has no limit):
    then the values are written as text, every digit kept, rather than fail or round."""
    if KINDS[new.kind].value_dtype is not pl.Int64:
        return pl.String
    values = [*new.values, *(old.values if old is not None else ())]
    return pl.Int64 if all(v is None or v in _INT64 for v in values) else pl.String


def row_columns(plan: RescorePlan) -> list[str]:
    """The columns the rows gain (`row_frame`), as named before any renaming."""
    empty = Labels("rescored", plan.kind, [], [], [], [])
    return row_frame(empty, empty if plan.stored_parse else None).columns


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
