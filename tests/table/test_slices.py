"""The audit's numbers do not depend on how its rows are read: any slice size, any streamed
format, any split of the table into files, any number of worker processes: the same report as
the table audited in memory at once."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import answer_audit.analysis.audit as audit_module
from answer_audit.analysis.audit import AuditSettings, audit
from answer_audit.sources import ColumnMap, load_files
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


# ids of their own: the generated ones would name the file each row came from
ID_CMAP = ColumnMap(id="rid", raw="out", parsed="parse", label="ok", truth="gold",
                    group_by=("temp",))  # fmt: skip
SPLIT_ROWS = 60
# formats whose cells read as the same values (a CSV cell is text, a Parquet or JSON number not)
FAMILIES = {"text": (".csv", ".tsv", ".csv.gz", ".tsv.gz"),
            "typed": (".parquet", ".jsonl", ".jsonl.gz", ".parquet")}  # fmt: skip
_REFERENCE: dict[str, dict[str, Any]] = {}


def _split_table() -> pl.DataFrame:
    rows = pathology_rows(SPLIT_ROWS)
    return rows.with_columns(rid=pl.format("r{}", pl.int_range(pl.len())))


def _reference(family: str, folder: Path) -> dict[str, Any]:
    """The audit of the whole table read from one file, in one slice, in one process."""
    if family not in _REFERENCE:
        path = write_rows(_split_table(), folder / f"whole{FAMILIES[family][0]}")
        chunk = audit_module.CHUNK_ROWS
        audit_module.CHUNK_ROWS = 1_000_000
        try:
            _REFERENCE[family] = audit(load_files([path], ID_CMAP).frame,
                                       settings=SETTINGS).to_dict()  # fmt: skip
        finally:
            audit_module.CHUNK_ROWS = chunk
    return _REFERENCE[family]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cuts=st.lists(st.integers(1, SPLIT_ROWS - 1), max_size=3, unique=True),
       family=st.sampled_from(sorted(FAMILIES)),
       formats=st.lists(st.integers(0, 3), min_size=4, max_size=4),
       slice_rows=st.integers(3, 70), workers=st.sampled_from([1, 2, 3]))  # fmt: skip
def test_any_split_slice_size_and_workers_give_the_same_audit(
    tmp_path_factory: pytest.TempPathFactory,
    cuts: list[int],
    family: str,
    formats: list[int],
    slice_rows: int,
    workers: int,
) -> None:
    table = _split_table()
    folder = tmp_path_factory.mktemp("split")
    bounds = [0, *sorted(cuts), SPLIT_ROWS]
    suffixes = [FAMILIES[family][f] for f in formats[: len(bounds) - 1]]
    paths = [write_rows(table.slice(a, b - a), folder / f"p{i}{suffix}")
             for i, ((a, b), suffix) in enumerate(zip(pairwise(bounds), suffixes, strict=True))]  # fmt: skip
    streamed = stream_files(paths, ID_CMAP)
    assert streamed is not None
    chunk = audit_module.CHUNK_ROWS
    audit_module.CHUNK_ROWS = slice_rows  # several slices: handed to the workers
    said: list[str] = []
    try:
        found = audit(streamed.rows, settings=SETTINGS, workers=workers, progress=said.append)
    finally:
        audit_module.CHUNK_ROWS = chunk
        streamed.rows.close()
    assert found.to_dict() == _reference(family, folder)
    in_workers = any(message.startswith("scored ") for message in said)  # `audit_workers`' word
    assert in_workers == (workers > 1 and slice_rows < SPLIT_ROWS)
