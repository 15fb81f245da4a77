"""The audit's numbers do not depend on how its rows are read: any slice size, any streamed
format, the same report as the table audited in memory at once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import answer_audit.analysis.audit as audit_module
from answer_audit.analysis.audit import AuditSettings, audit
from answer_audit.sources import load_files
from answer_audit.sources.load import stream_files
from stream_fixtures import CMAP, pathology_rows, write_rows

SETTINGS = AuditSettings(group_by=("temp",), max_examples=8, n_boot=20)
_WHOLE: dict[tuple[str, int, int], dict[str, Any]] = {}


def _whole_audit(path: Path, n: int, start: int) -> dict[str, Any]:
    """The audit of the file read whole, in one slice (cached: it is the reference)."""
    key = (path.name, n, start)
    if key not in _WHOLE:
        chunk = audit_module.CHUNK_ROWS
        audit_module.CHUNK_ROWS = 1_000_000
        try:
            _WHOLE[key] = audit(load_files([path], CMAP).frame, settings=SETTINGS).to_dict()
        finally:
            audit_module.CHUNK_ROWS = chunk
    return _WHOLE[key]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(8, 40), start=st.integers(0, 11), slice_rows=st.integers(1, 45),
       name=st.sampled_from(["t.parquet", "t.csv", "t.jsonl", "t.csv.gz", "t.jsonl.gz"]))  # fmt: skip
def test_any_slice_size_gives_the_same_audit(
    tmp_path_factory: pytest.TempPathFactory, n: int, start: int, slice_rows: int, name: str
) -> None:
    path = write_rows(pathology_rows(n, start), tmp_path_factory.mktemp("slices") / name)
    whole = _whole_audit(path, n, start)
    streamed = stream_files([path], CMAP)
    assert streamed is not None
    chunk = audit_module.CHUNK_ROWS
    audit_module.CHUNK_ROWS = slice_rows
    try:
        assert audit(streamed.rows, settings=SETTINGS).to_dict() == whole
    finally:
        audit_module.CHUNK_ROWS = chunk
        streamed.rows.close()
