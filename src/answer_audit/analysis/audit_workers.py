"""The audit on several cores: each slice of rows labelled into a partial in a worker process,
the partials merged here in slice order (`analysis.audit_partials`: the same merge, so the
same report, as one process slicing the rows itself).

The parent hands out a few slices at a time (`schemes.parallel.map_ordered`): two per worker,
so a worker that finishes one starts the next at once, and the parent holds those slices, not
the table. A slice of a streamed table is handed out unread (`table.lazy.SliceRead`: its short
columns and where its texts are) and read by its worker, so the parent neither reads nor
pickles the texts; a slice of a table in memory is sent as it is. Every scheme of a slice runs
in its worker, one Polars thread each, so the work spreads over the cores instead of
funnelling through the parent. Slices are smaller than a one-process slice (`slice_rows`): all
the slices held at once come to about what one process holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import partial

import polars as pl

from answer_audit.analysis.audit_labels import AuditPlan
from answer_audit.analysis.audit_partials import AuditPartial, label_partial, merge_partials
from answer_audit.analysis.audit_settings import AuditSettings
from answer_audit.parsers import Parser
from answer_audit.parsers.registry import BUILTIN
from answer_audit.schemes.parallel import map_ordered
from answer_audit.table.lazy import Rows, SliceRead, StreamedRows

MIN_SLICE_ROWS = 10_000  # below this, a slice's fixed costs outweigh its rows


def slice_rows(chunk_rows: int, workers: int) -> int:
    """Rows per slice with ``workers`` workers: each worker holds the slice it labels and the
    next one waiting for it, so a one-process slice (``chunk_rows``) is shared among twice as
    many, down to `MIN_SLICE_ROWS`. A table of one such slice is audited in-process."""
    return min(chunk_rows, max(MIN_SLICE_ROWS, chunk_rows // (2 * workers)))


def partials_in_workers(
    rows: Rows,
    plan: AuditPlan,
    settings: AuditSettings,
    presets: Mapping[str, Parser] | None,
    workers: int,
    chunk_rows: int,
    say: Callable[[str], None],
) -> AuditPartial:
    """Every slice labelled into a partial in ``workers`` processes, merged in slice order."""
    step = slice_rows(chunk_rows, workers)
    starts = range(0, max(rows.height, 1), step)
    label = partial(_label, plan=plan, settings=settings, extra=_user_presets(presets))
    names = ", ".join(s.name for s in plan.schemes)
    merged: AuditPartial | None = None
    handed = map_ordered(label, _slices(rows, starts, step), workers, ahead=2 * workers)
    for start, part in zip(starts, handed, strict=True):
        end = min(start + step, rows.height)
        say(f"scored {names} (rows {start:,}-{end:,} of {rows.height:,})")
        merged = part if merged is None else merge_partials([merged, part], settings.max_examples)
    assert merged is not None
    return merged


def _slices(rows: Rows, starts: range, step: int) -> Iterator[pl.DataFrame | SliceRead]:
    """The slices to hand out: unread where the worker can read them."""
    for start in starts:
        yield (
            rows.slice_read(start, step)
            if isinstance(rows, StreamedRows)
            else rows.slice(start, step)
        )


def _label(
    chunk: pl.DataFrame | SliceRead,
    plan: AuditPlan,
    settings: AuditSettings,
    extra: dict[str, Parser] | None,
) -> AuditPartial:
    """In a worker: one slice's partial, the schemes one after another."""
    presets = None if extra is None else {**BUILTIN, **extra}
    frame = chunk.read() if isinstance(chunk, SliceRead) else chunk
    return label_partial(frame, plan, settings, presets, workers=1)


def _user_presets(presets: Mapping[str, Parser] | None) -> dict[str, Parser] | None:
    """The presets a worker needs sent (those that are not the built-ins it has already):
    user presets and built-ins given other choice letters. None: the built-ins alone."""
    if presets is None:
        return None
    return {name: p for name, p in presets.items() if BUILTIN.get(name) is not p}
