"""Columns built from Python values: nested and bytes cells encoded as text, the rest kept."""

from __future__ import annotations

from collections import OrderedDict

import polars as pl

from answer_audit.sources.columns import column_from_values


def test_column_from_values_encodes_nested_and_bytes_cells_only() -> None:
    assert column_from_values("x", [OrderedDict(a=1), None]).to_list() == ['{"a": 1}', None]
    assert column_from_values("x", [b"caf\xc3\xa9", "x"]).to_list() == ["café", "x"]
    assert column_from_values("x", [1, 2, None]).dtype == pl.Int64
    assert column_from_values("x", [1, "a"]).to_list() == ["1", "a"]
