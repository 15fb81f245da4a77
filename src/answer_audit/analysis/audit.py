"""The parsing-sensitivity audit: flips, per-group deltas with significance, incidence, examples.

Pure: takes the canonical table, returns a typed `AuditResult`; renderers do the I/O. The steps,
each in its own module:

1. plan (`audit_labels.plan_audit`): which schemes run together on a slice;
2. label slices (`label_slices` here): every scheme on every slice of rows, each slice kept as
   a mergeable partial of counts (`audit_partials`): labels compared with the stored ones,
   rule counts, marker and ``</think>`` counts (`markers`), outcome counts for the conclusions
   (`audit_conclusions`) and the example candidates;
3. compare (`audit_compare`): flips, deltas with intervals, McNemar and Holm, rule counts, from
   the merged counts;
4. collect examples (`audit_examples`): flipped rows picked by a seeded key, with their texts;
5. with ``settings.compare``, draw conclusions: whether each effect and ranking of the compared
   factor survives each scheme.

`audit_totals.result_of` turns the merged partial into the result (steps 3 to 5); a cluster
engine (`engines.ray`) runs steps 2 to 5 over its partitions the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import polars as pl

from answer_audit.analysis.audit_inputs import (
    audit_input_notes,
    check_stored_schemes,
    runnable_schemes,
)
from answer_audit.analysis.audit_labels import AuditPlan, plan_audit
from answer_audit.analysis.audit_partials import AuditPartial, label_partial, merge_partials
from answer_audit.analysis.audit_result import (
    AuditResult,
    Consistency,
    Coverage,
    FlipExample,
    GroupCell,
    GroupRuleCounts,
    MarkerCounts,
    PairedComparison,
    PostThinkLoss,
    RuleCounts,
    SchemeSummary,
    SkippedRows,
    ThinkArtifacts,
)
from answer_audit.analysis.audit_settings import AuditSettings
from answer_audit.analysis.audit_totals import result_of
from answer_audit.analysis.audit_workers import partials_in_workers, slice_rows
from answer_audit.analysis.markers import snippet
from answer_audit.parsers import Parser
from answer_audit.schemes.apply import (
    Scheme,
    check_scheme,
    default_schemes,
)
from answer_audit.schemes.kinds import KINDS
from answer_audit.schemes.labels import with_choices
from answer_audit.table.canonical import in_memory_table
from answer_audit.table.lazy import InMemoryRows, Rows, StreamedRows
from answer_audit.text.vocabulary import BLOCK_MARKERS, ROLE_MARKERS

__all__ = [
    "BLOCK_MARKERS",
    "CHUNK_ROWS",
    "ROLE_MARKERS",
    "AuditResult",
    "AuditSettings",
    "Consistency",
    "Coverage",
    "FlipExample",
    "GroupCell",
    "GroupRuleCounts",
    "MarkerCounts",
    "PairedComparison",
    "PostThinkLoss",
    "RuleCounts",
    "SchemeSummary",
    "SkippedRows",
    "ThinkArtifacts",
    "audit",
    "check_inputs",
    "checked_schemes",
    "checked_settings",
    "presets_with_choices",
    "runnable_schemes",
    "snippet",
]

CHUNK_ROWS = 100_000
"""Rows per slice (read at each call, so a test can make many slices of a small table)."""


def audit(
    frame: pl.DataFrame | Rows,
    schemes: Sequence[Scheme] | None = None,
    settings: AuditSettings | None = None,
    *,
    presets: Mapping[str, Parser] | None = None,
    source_coverage: Mapping[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
    workers: int = 1,
) -> AuditResult:
    """Relabel every row under each scheme and compare with the stored labels.

    ``frame`` is a canonical table (``id, raw, parsed?, label?, truth, <groups>``), in memory
    or streamed from files (`answer_audit.table.lazy`); ``progress`` is called with a short
    message as each scheme starts. ``workers`` > 1 runs the row-by-row presets and matchers in
    that many processes (`answer_audit.schemes.parallel`; a script doing so needs an
    ``if __name__ == "__main__":`` guard); the numbers are the same.

    ``schemes`` None runs the kind's default schemes, but those that rescore the stored parse
    when the table has none (each left out with a note: `runnable_schemes`); a scheme given
    here that needs it raises ValueError. The notes also say when the truths or the results
    look like the wrong column or kind (`answer_audit.analysis.input_notes`).

    >>> import polars as pl
    >>> t = pl.DataFrame({"id": ["1"], "raw": ["Paris.\\nUSER: hi"], "parsed": ["Paris."],
    ...                   "label": [True], "truth": ["Paris"]})
    >>> audit(t).schemes[0].overall.flips
    0
    """
    settings = checked_settings(settings)
    presets = presets_with_choices(presets, settings)
    rows = _as_rows(frame, settings)
    skipped: list[str] = []
    if schemes is None:  # the kind's defaults, but those the table cannot run (noted)
        schemes, skipped = runnable_schemes(default_schemes(settings.kind), rows.columns)
    else:
        schemes = checked_schemes(schemes)
    check_inputs(rows, schemes, settings, presets)
    check_stored_schemes(schemes, rows.columns)
    say = progress or _silent
    plan = plan_audit(rows.columns, schemes, settings, presets, workers)
    merged = label_slices(rows, plan, settings, presets, workers, say)
    result = result_of(merged, schemes, settings, recorded_labels="label" in rows.columns,
                       source_coverage=source_coverage, presets=presets, say=say)  # fmt: skip
    return result.with_notes(*skipped, *audit_input_notes(result, rows.small["truth"]))


def label_slices(
    rows: Rows,
    plan: AuditPlan,
    settings: AuditSettings,
    presets: Mapping[str, Parser] | None,
    workers: int,
    say: Callable[[str], None],
) -> AuditPartial:
    """The label-slices step: every slice of `CHUNK_ROWS` rows labelled into a partial
    (`label_partial`: labels, paired and rule counts, markers, example candidates), merged as
    they come (the merge a cluster engine runs over its partitions: one code path). With
    several workers and several slices, the slices are labelled in the workers
    (`audit_workers`)."""
    if workers > 1 and rows.height > slice_rows(CHUNK_ROWS, workers):
        return partials_in_workers(rows, plan, settings, presets, workers, CHUNK_ROWS, say)
    merged: AuditPartial | None = None
    names = ", ".join(s.name for s in plan.schemes)
    with ThreadPoolExecutor(max_workers=max(len(plan.batches), 1)) as threads:
        for start in range(0, max(rows.height, 1), CHUNK_ROWS):
            end = min(start + CHUNK_ROWS, rows.height)
            where = (
                f" (rows {start:,}-{end:,} of {rows.height:,})" if rows.height > CHUNK_ROWS else ""
            )
            say(f"reading rows{where}")
            chunk = rows.slice(start, CHUNK_ROWS)
            say(f"scoring {names}{where}")
            part = label_partial(chunk, plan, settings, presets, workers, threads)
            merged = (
                part if merged is None else merge_partials([merged, part], settings.max_examples)
            )
            del chunk
    assert merged is not None
    return merged


def _silent(message: str) -> None:
    """A progress callback that shows nothing."""


def presets_with_choices(
    presets: Mapping[str, Parser] | None, settings: AuditSettings
) -> Mapping[str, Parser] | None:
    """The presets, with the settings' choice letters where they set some."""
    if settings.choices is None:
        return presets
    if KINDS[settings.kind].default_choices is None:  # the kind reads no choice letters
        raise ValueError("choices apply to choice audits only (--kind choice)")
    return with_choices(presets, settings.choices)


def checked_settings(settings: object) -> AuditSettings:
    """The caller's settings (the defaults for None), refused when not an AuditSettings."""
    settings = settings or AuditSettings()
    if not isinstance(settings, AuditSettings):
        raise TypeError(
            f"settings must be an AuditSettings, e.g. AuditSettings(group_by=('model',)); got "
            f"{type(settings).__name__}"
        )
    return settings


def checked_schemes(schemes: object) -> list[Scheme]:
    """The caller's schemes as a list, refused when one is not a Scheme or two share a name
    (each name keys its columns and report rows)."""
    if isinstance(schemes, str | Scheme) or not isinstance(schemes, Sequence):
        raise TypeError(
            "schemes must be a list of Scheme objects, e.g. [parse_scheme('mine=freeform/v3:v3')]"
        )
    odd = [s for s in schemes if not isinstance(s, Scheme)]
    if odd:
        raise TypeError(f"schemes must be Scheme objects (see parse_scheme); got {odd[0]!r}")
    names = [s.name for s in schemes]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"scheme name(s) {', '.join(repeated)} appear more than once; give each "
                         "scheme its own name")  # fmt: skip
    return list(schemes)


def _as_rows(frame: pl.DataFrame | Rows, settings: AuditSettings) -> Rows:
    if isinstance(frame, StreamedRows | InMemoryRows):
        return frame
    # a caller's table, read as the file readers read one
    return InMemoryRows(in_memory_table(frame, settings.group_by, what="the audit table"))


def check_inputs(
    rows: Rows,
    schemes: Sequence[Scheme],
    settings: AuditSettings,
    presets: Mapping[str, Parser] | None,
) -> None:
    """Refuse a table the audit cannot run on: a column the settings name is missing, a scheme
    does not fit the kind, or there is neither a stored label nor a stored parse."""
    chosen = settings.conclusion_settings()
    asked = [] if chosen is None else [chosen.compare, *([chosen.item] if chosen.item else [])]
    missing = [c for c in ("raw", "truth", *settings.group_by) if c not in rows.columns]
    missing += [c for c in asked if c not in rows.columns and c not in missing]
    if missing:
        raise ValueError(
            f"the audit table lacks column(s) {', '.join(missing)}; available: "
            f"{', '.join(rows.columns)}"
        )
    for scheme in schemes:
        check_scheme(scheme, settings.kind, presets)
    if "label" not in rows.columns and "parsed" not in rows.columns:
        raise ValueError(
            "the audit compares with stored labels: pass --label COLUMN (stored correctness) "
            "or --parsed COLUMN (stored parse, labelled with the v1 matcher); a framework log "
            "without scores has neither: `answer-audit rescore` labels its outputs afresh"
        )
