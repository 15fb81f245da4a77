"""The audit's conclusions step: outcome counts per slice of rows, merged, then the conclusions.

Each labelled slice is handed to `SliceOutcomes.add` (`audit_partials`), which keeps only
mergeable counts (`analysis.conclusions_counts`), so the conclusions cost no per-row memory beyond
a slice; `audit_totals.conclusions_of` draws them from the merged counts.
The counts add up and are sorted before any random draw: the numbers are the same whatever the
slicing, the row order or ``--workers``.

The rows counted are the audit's scored rows (a truth and a stored label): a row without a
truth is unscored under every labelling, even where the source stored a label for it (the
conformity runs store ``is_correct = 0`` on opinion items, which have no right answer). A row a
scheme's matcher cannot judge is unscored under that scheme only, as in the audit's comparison.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import polars as pl

from answer_audit.analysis.conclusions import (
    ConclusionSettings,
    OutcomeCounts,
    merge_outcome_counts,
    outcome_counts,
)

_STORED = "__stored"


class SliceOutcomes:
    """Outcome counts of the slices seen so far, merged as they come."""

    def __init__(self, settings: ConclusionSettings, schemes: Sequence[str]) -> None:
        self.settings = settings
        self.columns = {name: f"__scheme{i}" for i, name in enumerate(schemes)}
        self.total: OutcomeCounts | None = None

    def add(
        self,
        chunk: pl.DataFrame,
        has_truth: pl.Series,
        stored: pl.Series,
        correct: Mapping[str, pl.Series],
    ) -> None:
        """Count one slice: its rows (``chunk``), which have a truth, the stored labels, and
        each scheme's labels (by scheme name), all in the slice's row order."""
        scored = has_truth & stored.is_not_null()
        s = self.settings
        keep = list(dict.fromkeys([*s.strata, s.compare, *([s.item] if s.item else [])]))

        unscored = pl.Series([None] * chunk.height, dtype=pl.Boolean)

        def masked(values: pl.Series, name: str) -> pl.Series:
            return values.cast(pl.Boolean).zip_with(scored, unscored).alias(name)

        table = chunk.select(keep).with_columns(
            masked(stored, _STORED),
            *(masked(correct[name], column) for name, column in self.columns.items()),
        )
        part = outcome_counts(table, s, stored=_STORED, schemes=self.columns)
        self.total = part if self.total is None else merge_outcome_counts([self.total, part])
