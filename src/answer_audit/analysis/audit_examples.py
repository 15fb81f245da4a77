"""The audit's last step: a seeded sample of flipped rows, each shown with its texts."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from answer_audit.analysis.audit_compare import RowIndices
from answer_audit.analysis.audit_result import FlipExample
from answer_audit.analysis.audit_settings import AuditSettings
from answer_audit.analysis.markers import SNIPPET_HEAD, SNIPPET_TAIL, snippet
from answer_audit.parsers import Parser
from answer_audit.schemes.apply import Scheme, apply_scheme, mask_error_rows
from answer_audit.table.lazy import Rows


def sample_flips(
    flipped: Mapping[str, RowIndices], schemes: Sequence[Scheme], settings: AuditSettings
) -> list[tuple[str, int]]:
    """Up to ``max_examples`` (scheme name, index among the scored rows) pairs drawn with the
    seed from every scheme's flips, in scheme order, then row order."""
    pool = [(s.name, int(i)) for s in schemes for i in flipped[s.name]]
    if not pool or settings.max_examples <= 0:
        return []
    chosen = random.Random(settings.seed).sample(pool, min(settings.max_examples, len(pool)))
    order = {s.name: k for k, s in enumerate(schemes)}
    chosen.sort(key=lambda p: (order[p[0]], p[1]))
    return chosen


def collect_examples(
    rows: Rows,
    stored: pl.Series,
    labelled: Mapping[str, pl.DataFrame],
    scored: pl.Series,
    flipped: Mapping[str, RowIndices],
    schemes: Sequence[Scheme],
    settings: AuditSettings,
    presets: Mapping[str, Parser] | None,
) -> tuple[FlipExample, ...]:
    """The sampled flips (`sample_flips`) with their texts; ``labelled`` holds each scheme's
    rule, span and label for every row of the table."""
    chosen = sample_flips(flipped, schemes, settings)
    if not chosen:
        return ()
    at = scored.arg_true()  # index among scored rows -> row of the table
    wanted = sorted({int(at[i]) for _, i in chosen})
    fetched = rows.take(wanted)  # one read of the chosen rows (a streamed table reads its files)
    position = {k: j for j, k in enumerate(wanted)}
    by_name = {s.name: s for s in schemes}
    examples = []
    for name, i in chosen:
        k = int(at[i])
        one = fetched.slice(position[k], 1)
        # the audit kept no values: the chosen row is extracted again (same rules, same value)
        again = apply_scheme(one, by_name[name], settings.kind, presets)
        value = mask_error_rows(one, again)["value"][0]
        label = labelled[name].row(k, named=True)
        examples.append(flip_example(name, one, label, value, bool(stored[k]), settings))
    return tuple(examples)


def flip_example(
    scheme: str,
    one: pl.DataFrame,
    label: Mapping[str, Any],
    value: str | None,
    stored_label: bool,
    settings: AuditSettings,
) -> FlipExample:
    """The example of a one-row table ``one`` whose ``label`` (rule, span, correct) and
    ``value`` (the scheme's parse) differ from the stored label."""
    row = one.row(0, named=True)
    raw = row["raw"] or ""
    span = None if label["span_start"] is None else (label["span_start"], label["span_end"])
    return FlipExample(
        scheme=scheme,
        id=row["id"],
        group={g: row[g] for g in settings.group_by},
        truth=row["truth"],
        stored_label=stored_label,
        scheme_label=bool(label["correct"]),
        rule=label["rule"],
        span=span,
        raw=raw,
        # A text that fits in head + tail is shown whole: cutting it at the head lost its end
        raw_head=raw if len(raw) <= SNIPPET_HEAD + SNIPPET_TAIL else raw[:SNIPPET_HEAD],
        raw_tail=raw[-SNIPPET_TAIL:] if len(raw) > SNIPPET_HEAD + SNIPPET_TAIL else "",
        raw_chars=len(raw),
        stored_parse=snippet(row.get("parsed")),
        scheme_parse=snippet(value),
    )
