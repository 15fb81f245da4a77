"""A small choice table whose group column holds NaN: NaN must stay one group everywhere
(audit, rescore, diff, the reports), though NaN != NaN."""

from __future__ import annotations

import math

import polars as pl


def nan_group_rows() -> pl.DataFrame:
    """Four choice rows with a stored parse and label; ``temp`` is NaN in three of them."""
    return pl.DataFrame(
        {
            "id": ["1", "2", "3", "4"],
            "raw": ["Answer: a", "Answer: b", "Answer: c", "Answer: d"],
            "parsed": ["a", "b", "c", "d"],
            "label": [True, True, False, True],
            "truth": ["a", "b", "a", "d"],
            "temp": [math.nan, math.nan, math.nan, 0.5],
        }
    )
