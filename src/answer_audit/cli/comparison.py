"""What `--compare` and `--item` need from the loaders, and the hint shown without them.

The loaders keep only the columns a command maps (the roles and the group columns), so a
compared or item column that is not a group column is loaded as one more group column, while the
command's own group columns (the user's, or the source's defaults) stay what they were.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import polars as pl

from answer_audit.analysis.conclusions_section import ASK_FOR_CONCLUSIONS, compare_hint
from answer_audit.sources import ColumnMap, SourceError
from answer_audit.sources.files import detect_format
from answer_audit.sources.frameworks import RUNS, default_groups, suggested_comparison
from answer_audit.sources.spec import RUN_GROUPS, SourceSpec


def with_compared_columns(
    spec: SourceSpec, cmap: ColumnMap, compare: str | None, item: str | None
) -> tuple[ColumnMap, tuple[str, ...] | None]:
    """The column map to load with (the group columns plus the compare and item columns), and
    the group columns to use instead of the loader's (None: the loader's are right)."""
    extra = [c for c in (compare, item) if c and c != "source" and c not in cmap.group_by]
    if not extra:
        return cmap, None
    groups = cmap.group_by or _default_groups(spec)
    loading = dataclasses.replace(cmap, group_by=(*groups, *dict.fromkeys(extra)))
    return loading, groups


def _default_groups(spec: SourceSpec) -> tuple[str, ...]:
    """The group columns the loader would pick without --group-by (run folders' or the
    frameworks'), found from the files' formats before they are read."""
    if spec.runs_dir is not None or spec.metadata is not None:
        return RUN_GROUPS
    formats = []
    for path in spec.paths:
        if spec.fmt != "auto":
            formats.append(spec.fmt)
        elif Path(path).is_file():  # a pipe is read once: never peeked at here
            try:
                formats.append(detect_format(Path(path)))
            except SourceError:
                continue  # the loader says what is wrong with it
    return default_groups(formats)


def comparison_hint(spec: SourceSpec, coverage: dict[str, Any], table: pl.DataFrame) -> str:
    """The line the reports show without --compare: the comparison that fits the source read
    (`suggested_comparison`), else how to ask for one."""
    if spec.runs_dir is not None:
        sources = [RUNS]
    else:
        sources = [
            str(f.get("format", "")) for f in coverage.get("files", ()) if isinstance(f, dict)
        ]
    found = suggested_comparison(sources, table)
    return ASK_FOR_CONCLUSIONS if found is None else compare_hint(*found)
