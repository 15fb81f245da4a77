"""rescore() of a streamed table (`sources.spec.load_streamed`): the same report, conclusions
and rows, written slice by slice, as the rescore of the whole read, for any slice sizes."""

from __future__ import annotations

import hashlib
import json
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from answer_audit.analysis import incidence as incidence_module
from answer_audit.analysis import rescore as rescore_module
from answer_audit.analysis import rescore_result as rescore_result_module
from answer_audit.analysis.rescore import RescoreResult, rescore
from answer_audit.parsers import JsonFieldPreset
from answer_audit.report.outputs import write_rows, writing_rows
from answer_audit.sources import ColumnMap, LoadedTable, SourceError
from answer_audit.sources.demo import demo_rows
from answer_audit.sources.spec import SourceSpec, load, load_streamed
from answer_audit.table.lazy import StreamedTable
from stream_fixtures import CMAP, pathology_rows
from stream_fixtures import write_rows as write_input

FORMATS = ["a.csv", "a.jsonl", "a.jsonl.gz", "a.csv.gz", "a.parquet"]
OUTPUTS = [".csv", ".jsonl", ".json", ".parquet"]

# demo rows with a comparison: conclusions, groups, stored-label disagreements
DEMO_MAP = ColumnMap(raw="raw", parsed="parsed", label="label", truth="truth",
                     group_by=("variant", "condition", "question"))  # fmt: skip
DEMO_SETTINGS: dict[str, Any] = {"group_by": ("variant",), "compare": "condition",
                                 "baseline": "control", "item": "question", "n_boot": 50,
                                 "seed": 3}  # fmt: skip


def _demo(n: int = 150, start: int = 0) -> pl.DataFrame:
    rows = demo_rows().slice(start, n)
    # every 5th recorded label flipped: disagreements with the stored parse in every group
    flipped = pl.when(pl.int_range(pl.len()) % 5 == 0).then(1 - pl.col("label"))
    return rows.with_columns(flipped.otherwise(pl.col("label")).alias("label"))


def _both(
    paths: tuple[Path, ...], cmap: ColumnMap, keep_rows: bool = True, **options: Any
) -> tuple[RescoreResult, RescoreResult, StreamedTable]:
    """The rescore of the whole read and of the streamed read (left open: the caller closes)."""
    spec = SourceSpec(paths=paths)
    loaded, _ = load(spec, cmap)
    streamed, _ = load_streamed(spec, cmap)
    assert isinstance(loaded, LoadedTable) and isinstance(streamed, StreamedTable)
    whole = rescore(loaded, "freeform/v4", **options)
    return whole, rescore(streamed, "freeform/v4", keep_rows=keep_rows, **options), streamed


def _written(result: RescoreResult, path: Path, whole: bool) -> Path:
    if whole:
        return write_rows(result.annotate(), path)
    with writing_rows(path) as add:
        for rows in result.annotated():
            add(rows)
    return path


def _same_file(a: Path, b: Path) -> None:
    if a.suffix == ".parquet":
        left, right = pl.read_parquet(a), pl.read_parquet(b)
        assert left.schema == right.schema and left.equals(right)
    else:
        assert a.read_bytes() == b.read_bytes()


@pytest.mark.parametrize("name", FORMATS)
@pytest.mark.parametrize(("chunk", "written"), [(7, 5), (60, 1000), (1000, 150)])
def test_a_streamed_rescore_equals_the_whole_one(
    tmp_path: Path, name: str, chunk: int, written: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rescore_module, "CHUNK_ROWS", chunk)
    monkeypatch.setattr(rescore_result_module, "ANNOTATE_ROWS", written)
    paths = (write_input(_demo(), tmp_path / name),
             write_input(_demo(90, start=400), tmp_path / f"b-{name}"))  # fmt: skip
    whole, streamed, table = _both(paths, DEMO_MAP, **DEMO_SETTINGS)
    try:
        report = whole.to_dict()
        assert report["conclusions"] and report["overall"]["stored_label"]["disagreement_ids"]
        assert streamed.to_dict() == report
        assert streamed.notes == whole.notes
        assert streamed.conclusions == whole.conclusions
        assert isinstance(streamed.original, type(table.original))
        for suffix in OUTPUTS:
            out = tmp_path / "out"
            _same_file(_written(whole, out / f"whole{suffix}", True),
                       _written(streamed, out / f"sliced{suffix}", False))  # fmt: skip
        assert streamed.annotate().equals(whole.annotate())
    finally:
        table.rows.close()


def _handed_over(table: LoadedTable | StreamedTable, folder: Path, **options: Any) -> RescoreResult:
    """The rescore with its rows handed to a writer of each format as they are labelled."""
    with ExitStack() as stack:
        adds = [stack.enter_context(writing_rows(folder / f"rows{s}")) for s in OUTPUTS]
        return rescore(table, "freeform/v4", keep_rows=False,
                       rows_to=lambda rows: [add(rows) for add in adds], **options)  # fmt: skip


@pytest.mark.parametrize("name", ["a.csv", "a.jsonl.gz", "a.parquet"])
@pytest.mark.parametrize("chunk", [9, 1000])
def test_rows_handed_over_as_they_are_labelled_make_the_whole_reads_files(
    tmp_path: Path, name: str, chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rescore_module, "CHUNK_ROWS", chunk)
    paths = (write_input(_demo(), tmp_path / name),
             write_input(_demo(40, start=700), tmp_path / f"b-{name}"))  # fmt: skip
    spec = SourceSpec(paths=paths)
    loaded, _ = load(spec, DEMO_MAP)
    whole = rescore(loaded, "freeform/v4", **DEMO_SETTINGS)
    streamed, _ = load_streamed(spec, DEMO_MAP)
    assert isinstance(streamed, StreamedTable)
    try:
        for table, folder in ((streamed, tmp_path / "streamed"), (loaded, tmp_path / "loaded")):
            result = _handed_over(table, folder, **DEMO_SETTINGS)
            assert result.to_dict() == whole.to_dict() and result.rows.is_empty()
            for suffix in OUTPUTS:
                _same_file(write_rows(whole.annotate(), tmp_path / f"whole{suffix}"),
                           folder / f"rows{suffix}")  # fmt: skip
    finally:
        streamed.rows.close()
    assert not [p for p in tmp_path.rglob(".*")]  # no temporary file or folder left
    with pytest.raises(ValueError, match="rows_to needs the input rows"):
        rescore(loaded.frame, "freeform/v4", rows_to=print)


def test_without_the_rows_the_report_is_the_same_and_annotate_says_why(tmp_path: Path) -> None:
    paths = (write_input(pathology_rows(40), tmp_path / "a.csv"),)
    whole, streamed, table = _both(paths, CMAP, keep_rows=False, group_by=("temp",), n_boot=20)
    table.rows.close()
    assert streamed.to_dict() == whole.to_dict()
    assert streamed.rows.is_empty()
    with pytest.raises(ValueError, match="keep_rows=True"):
        streamed.annotated()


def test_files_with_other_columns_are_stacked_as_the_whole_read_stacks_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rescore_module, "CHUNK_ROWS", 4)
    monkeypatch.setattr(rescore_result_module, "ANNOTATE_ROWS", 3)
    rows = pathology_rows(9)
    paths = (
        write_input(rows.with_columns(extra=pl.lit(1)), tmp_path / "a.parquet"),  # int extra
        write_input(rows.with_columns(is_correct=pl.lit("x")), tmp_path / "b.csv"),  # a clash
        write_input(rows.with_columns(extra=pl.lit(2.5), source=pl.lit("own")), tmp_path / "c.jsonl"),
    )  # fmt: skip
    whole, streamed, table = _both(paths, CMAP, group_by=("temp",), n_boot=20)
    try:
        assert streamed.to_dict() == whole.to_dict()
        assert any("'is_correct_rescored'" in note for note in streamed.notes)
        assert streamed.annotate().equals(whole.annotate())
        extra = streamed.annotate()["extra"]  # an int, none, a float: floats, null between
        assert extra.dtype == pl.Float64 and extra.null_count() == 9
        for suffix in OUTPUTS:
            _same_file(_written(whole, tmp_path / f"w{suffix}", True),
                       _written(streamed, tmp_path / f"s{suffix}", False))  # fmt: skip
    finally:
        table.rows.close()


def test_json_integers_beyond_64_bits_in_a_late_slice_make_every_slice_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rescore_module, "CHUNK_ROWS", 2)
    monkeypatch.setattr(rescore_result_module, "ANNOTATE_ROWS", 2)
    values = [1, 2, 3, 4, 99999999999999999999999]
    path = tmp_path / "big.jsonl"
    path.write_text("".join(json.dumps({"raw": json.dumps({"x": v}), "truth": "3"}) + "\n"
                            for v in values), encoding="utf-8")  # fmt: skip
    spec = SourceSpec(paths=(path,))
    cmap = ColumnMap(raw="raw", truth="truth")
    preset = JsonFieldPreset(name="json", field="x")
    loaded, _ = load(spec, cmap)
    streamed, _ = load_streamed(spec, cmap)
    assert isinstance(streamed, StreamedTable)
    try:
        whole = rescore(loaded, preset, n_boot=10)
        sliced = rescore(streamed, preset, n_boot=10)
        assert whole.rows["extracted"].to_list() == [str(v) for v in values]
        assert sliced.annotate().equals(whole.annotate())
        for suffix in OUTPUTS:  # the first slices' integers are written as text too
            with writing_rows(tmp_path / f"h{suffix}") as add:
                rescore(streamed, preset, n_boot=10, keep_rows=False, rows_to=add)
            _same_file(_written(whole, tmp_path / f"w{suffix}", True), tmp_path / f"h{suffix}")
            _same_file(_written(sliced, tmp_path / f"s{suffix}", False), tmp_path / f"h{suffix}")
    finally:
        streamed.rows.close()


@pytest.mark.parametrize("name", ["a.csv", "a.jsonl.gz", "a.parquet"])
def test_the_inputs_are_never_modified(tmp_path: Path, name: str) -> None:
    path = write_input(pathology_rows(30), tmp_path / name)
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    _, streamed, table = _both((path,), CMAP, group_by=("temp",), n_boot=20)
    with writing_rows(tmp_path / "rows.jsonl", inputs=[path]) as add:
        for rows in streamed.annotated(slice_rows=7):
            add(rows)
    table.rows.close()
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([name, "rows.jsonl"])


def test_inputs_that_cannot_be_stacked_fail_as_the_whole_read_fails(tmp_path: Path) -> None:
    rows = pathology_rows(6)
    paths = (write_input(rows.with_columns(extra=pl.lit([1, 2])), tmp_path / "a.parquet"),
             write_input(rows.with_columns(extra=pl.lit({"a": 1})), tmp_path / "b.parquet"))  # fmt: skip
    with pytest.raises(SourceError, match="cannot be combined") as whole:
        load(SourceSpec(paths=paths), CMAP)
    streamed, _ = load_streamed(SourceSpec(paths=paths), CMAP)
    assert isinstance(streamed, StreamedTable)  # the audit reads no column but the mapped ones
    with pytest.raises(SourceError, match="cannot be combined") as sliced:
        rescore(streamed, "freeform/v4", n_boot=10)
    streamed.rows.close()
    assert str(sliced.value) == str(whole.value)


# one table, written once, rescored whole once: the property below splits it at random
PROPERTY_ROWS = 120


@pytest.fixture(scope="module")
def one_table(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Any, Any]]:
    """Per format: the file, its whole read's report and rows."""
    folder = tmp_path_factory.mktemp("split")
    found = {}
    for name in ("a.csv", "a.jsonl.gz", "a.parquet"):
        path = write_input(_demo(PROPERTY_ROWS, start=200), folder / name)
        loaded, _ = load(SourceSpec(paths=(path,)), DEMO_MAP)
        whole = rescore(loaded, "freeform/v4", **DEMO_SETTINGS)
        found[name] = (path, whole.to_dict(), whole.annotate())
    return found


@given(
    chunk=st.integers(min_value=1, max_value=PROPERTY_ROWS + 5),
    written=st.integers(min_value=1, max_value=PROPERTY_ROWS + 5),
    name=st.sampled_from(["a.csv", "a.jsonl.gz", "a.parquet"]),
)
@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
def test_any_slice_sizes_give_the_whole_tables_report_and_rows(
    one_table: dict[str, tuple[Path, Any, Any]], chunk: int, written: int, name: str
) -> None:
    path, report, rows = one_table[name]
    streamed, _ = load_streamed(SourceSpec(paths=(path,)), DEMO_MAP)
    assert isinstance(streamed, StreamedTable)
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(rescore_module, "CHUNK_ROWS", chunk)
            result = rescore(streamed, "freeform/v4", **DEMO_SETTINGS)
        assert result.to_dict() == report
        sliced = list(result.annotated(slice_rows=written))
        assert len(sliced) == -(-PROPERTY_ROWS // written)
        assert pl.concat(sliced).equals(rows)
    finally:
        streamed.rows.close()


@pytest.mark.parametrize("chunk", [2, 3, 100])
def test_more_distinct_values_than_listed_are_not_listed_whatever_the_split(
    chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(incidence_module, "MAX_LISTED_VALUES", 5)
    whole_text = [f"Answer {i}" for i in range(6)]  # six distinct free-form answers
    raws = [*whole_text, "<think>hm</think>Paris", "<think>no</think>Paris"]
    frame = pl.DataFrame({"id": [str(i) for i in range(8)], "raw": raws, "truth": ["Paris"] * 8})
    monkeypatch.setattr(rescore_module, "CHUNK_ROWS", chunk)
    found = {
        c.category: c.values for c in rescore(frame, "freeform/v4", n_boot=10).incidence.categories
    }
    monkeypatch.setattr(rescore_module, "CHUNK_ROWS", 1000)
    whole = rescore(frame, "freeform/v4", n_boot=10)
    assert found == {c.category: c.values for c in whole.incidence.categories}
    assert found == {"whole-text": None, "after-think": {"Paris": 2}}
    assert whole.to_dict()["incidence"]["categories"][0]["values"] is None
