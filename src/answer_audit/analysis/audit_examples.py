"""The audit's collect-examples step: flipped rows picked by a seeded key, each shown with its
texts.

A row's key (`example_key`) is a function of the seed, the scheme and the row's id alone, and
the ``max_examples`` smallest keys are kept: each slice keeps its smallest (`flip_examples`),
merging keeps the smallest of those (`smallest`), so the examples are the same whatever the
split of the rows.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

import polars as pl

from answer_audit.analysis.audit_result import FlipExample
from answer_audit.analysis.audit_settings import AuditSettings
from answer_audit.analysis.markers import SNIPPET_HEAD, SNIPPET_TAIL, snippet
from answer_audit.parsers import Parser
from answer_audit.schemes.apply import Scheme, apply_scheme, mask_error_rows

_T = TypeVar("_T")

Keyed = tuple[tuple[str, int, str], FlipExample]
"""A flip example with its order key: (seeded hash, scheme index, id)."""


def example_key(seed: int, scheme: str, row_id: object) -> str:
    """The seeded key that picks examples: the ``max_examples`` smallest keys are shown. A
    function of the row's id alone, so the choice does not depend on how rows were split.

    >>> example_key(0, "v3", "q1") == example_key(0, "v3", "q1")
    True
    """
    text = f"{seed}\x00{scheme}\x00{row_id}".encode()
    return hashlib.blake2b(text, digest_size=12).hexdigest()


def smallest(keyed: Sequence[tuple[str, _T]], k: int) -> tuple[tuple[str, _T], ...]:
    """The ``k`` items with the smallest keys, in key order."""
    return tuple(sorted(keyed, key=lambda kv: kv[0])[: max(k, 0)])


def flip_examples(
    chunk: pl.DataFrame,
    table: pl.DataFrame,
    schemes: Sequence[Scheme],
    labelled: Mapping[str, pl.DataFrame],
    settings: AuditSettings,
    presets: Mapping[str, Parser] | None,
) -> tuple[Keyed, ...]:
    """The flipped (scheme, row) pairs of one slice with the smallest keys, as examples with
    their texts. ``table`` is the slice's scored table (``_id``, ``_row``, ``_stored`` and
    ``_ok<i>`` per scheme), ``labelled`` each scheme's rule, span and label by name."""
    if settings.max_examples <= 0:
        return ()
    candidates: list[tuple[tuple[str, int, str], int]] = []
    for i, scheme in enumerate(schemes):
        ok = pl.col(f"_ok{i}")
        flipped = table.filter(ok.is_not_null() & (ok != pl.col("_stored")))
        for row_id, row in flipped.select("_id", "_row").iter_rows():
            key = (example_key(settings.seed, scheme.name, row_id), i, str(row_id))
            candidates.append((key, row))
    chosen = sorted(candidates, key=lambda c: (c[0], c[1]))[: settings.max_examples]
    examples = []
    for key, row in chosen:
        scheme = schemes[key[1]]
        one = chunk.slice(row, 1)
        # the labels kept no values: the chosen row is extracted again (same rules, same value)
        value = mask_error_rows(one, apply_scheme(one, scheme, settings.kind, presets))["value"][0]
        label = labelled[scheme.name].row(row, named=True)
        stored = bool(table.filter(pl.col("_row") == row)["_stored"][0])
        examples.append((key, flip_example(scheme.name, one, label, value, stored, settings)))
    return tuple(examples)


def examples_in_order(keyed: Sequence[Keyed]) -> tuple[FlipExample, ...]:
    """The chosen flips as the report shows them: in scheme order, then key order."""
    ordered = sorted(keyed, key=lambda e: (e[0][1], e[0][0]))
    return tuple(example for _, example in ordered)


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
