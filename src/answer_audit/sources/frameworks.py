"""Evaluation-framework logs (lm-eval samples, inspect_ai logs): fixed columns, default groups,
and the comparison that fits each source.

Their readers already name the canonical columns, so the user maps nothing; what a user may
still choose is the grouping (default: the framework's own) and the missing-value strings.
Without ``--compare`` the reports suggest the comparison these sources are usually run for
(`suggested_comparison`): run folders compare conditions with ``control``, lm-eval logs their
filters, inspect logs their models.
"""

from __future__ import annotations

from collections.abc import Iterable

import polars as pl

from answer_audit.sources import inspect_log, lm_eval
from answer_audit.table.canonical import ColumnMap
from answer_audit.table.errors import SourceError

DEFAULT_GROUPS = {"lm-eval": lm_eval.GROUPS, "inspect": inspect_log.GROUPS}
RUNS = "runs"
"""The source name of experiment run folders (they have no file format)."""
DEFAULT_COMPARE: dict[str, tuple[str, str | None]] = {
    RUNS: ("condition", "control"),
    "lm-eval": ("filter", None),
    "inspect": ("model", None),
}
"""Per source: the column whose levels are usually compared, and its baseline level (used when
the table has it)."""
_ROLES = ("id", "raw", "parsed", "label", "truth", "error")


def is_framework(fmt: str) -> bool:
    """Whether a format's columns come from the framework rather than from the user."""
    return fmt in DEFAULT_GROUPS


def framework_map(fmt: str, cmap: ColumnMap, frame: pl.DataFrame, where: str) -> ColumnMap:
    """The column map for a framework log: every canonical column under its own name.

    A role the user mapped to another column is an error (the framework decides it); the
    user's groups replace the framework's defaults.
    """
    for role in _ROLES:
        given = getattr(cmap, role)
        if given is not None and given != role:
            raise SourceError(
                f"{where}: {fmt} logs have fixed columns, so the {role} column cannot be mapped "
                f"to '{given}'; leave the {role} column option out"
            )

    def column(role: str) -> str | None:
        return role if role in frame.columns else None

    return ColumnMap(
        id=column("id"), raw=column("raw"), parsed=column("parsed"), label=column("label"),
        truth=column("truth"), error=column("error"),
        group_by=cmap.group_by or DEFAULT_GROUPS[fmt], null_values=cmap.null_values,
    )  # fmt: skip


def default_groups(formats: Iterable[str]) -> tuple[str, ...]:
    """The framework groups of the formats read, in order (none for generic formats)."""
    groups: dict[str, None] = {}
    for fmt in formats:
        groups.update(dict.fromkeys(DEFAULT_GROUPS.get(fmt, ())))
    return tuple(groups)


def suggested_comparison(
    sources: Iterable[str], table: pl.DataFrame
) -> tuple[str, str | None] | None:
    """The first default comparison (`DEFAULT_COMPARE`) of the sources read (formats, or
    `RUNS`) whose column the table has with at least two levels: (column, baseline), the
    baseline only when it is one of the levels; None when none fits.

    >>> suggested_comparison(["runs"], pl.DataFrame({"condition": ["control", "asch"]}))
    ('condition', 'control')
    """
    for source in dict.fromkeys(sources):
        if source not in DEFAULT_COMPARE:
            continue
        column, baseline = DEFAULT_COMPARE[source]
        if column not in table.columns:
            continue
        levels = set(table.get_column(column).drop_nulls().cast(pl.String).unique().to_list())
        if len(levels) >= 2:
            return column, baseline if baseline in levels else None
    return None
