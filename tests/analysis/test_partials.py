"""The audit from mergeable partials: the same report for any split of the rows, in any merge
order, and the same numbers as the audit of the whole table."""

from __future__ import annotations

import itertools
from functools import cache
from typing import Any

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from answer_audit.analysis.audit import AuditSettings, audit
from answer_audit.analysis.audit_examples import example_key
from answer_audit.analysis.audit_labels import plan_audit
from answer_audit.analysis.audit_partials import AuditPartial, label_partial, merge_partials
from answer_audit.analysis.audit_totals import result_of
from answer_audit.schemes.apply import default_schemes
from answer_audit.sources.demo import demo_rows
from answer_audit.table.canonical import in_memory_table

SETTINGS = AuditSettings(
    group_by=("variant", "condition"), compare="condition", baseline="control", item="question"
)


@cache
def _table() -> pl.DataFrame:
    rows = demo_rows().head(400).with_columns(pl.int_range(pl.len()).cast(pl.String).alias("id"))
    return in_memory_table(rows, SETTINGS.group_by)


def _partial(start: int, stop: int) -> AuditPartial:
    table = _table()
    plan = plan_audit(table.columns, default_schemes(SETTINGS.kind), SETTINGS, None, 1)
    return label_partial(table.slice(start, stop - start), plan, SETTINGS, None)


@cache
def _whole() -> dict[str, Any]:
    merged = merge_partials([_partial(0, _table().height)], SETTINGS.max_examples)
    return result_of(merged, default_schemes("freeform"), SETTINGS, recorded_labels=True).to_dict()


@settings(max_examples=8)
@given(
    cuts=st.lists(st.integers(min_value=1, max_value=399), max_size=6, unique=True),
    reverse=st.booleans(),
)
def test_any_split_gives_the_same_report(cuts: list[int], reverse: bool) -> None:
    bounds = [0, *sorted(cuts), _table().height]
    parts = [_partial(a, b) for a, b in itertools.pairwise(bounds)]
    if reverse:
        parts.reverse()
    # merged pairwise from the left: associativity, not one big merge
    merged = parts[0]
    for part in parts[1:]:
        merged = merge_partials([merged, part], SETTINGS.max_examples)
    result = result_of(merged, default_schemes("freeform"), SETTINGS, recorded_labels=True)
    assert result.to_dict() == _whole()


def test_numbers_match_the_audit_of_the_whole_table() -> None:
    reference = audit(_table(), None, SETTINGS).to_dict()
    mine = _whole()
    for key in ("coverage", "consistency", "schemes", "cells", "markers", "rules", "conclusions"):
        assert mine[key] == reference[key], key
    assert mine["think"]["rows"] == reference["think"]["rows"]
    assert mine["think"]["post_think_flips"] == reference["think"]["post_think_flips"]
    assert len(mine["examples"]) == len(reference["examples"])


def test_example_key_is_seeded_and_stable() -> None:
    assert example_key(0, "v3", "1") == example_key(0, "v3", "1")
    assert example_key(0, "v3", "1") != example_key(1, "v3", "1")
    assert len(example_key(0, "v3", "1")) == 24
