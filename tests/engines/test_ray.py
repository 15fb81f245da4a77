"""The audit and the rescore on Ray Data give the one-machine reports: same JSON apart from the
time stamp and the engine, whatever the partitioning (`answer_audit.engines.ray`)."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import polars as pl
import pytest
from typer.testing import CliRunner

from paths import REAL, REPO

ray = pytest.importorskip("ray", reason="the Ray engine needs the extra: pip install '.[ray]'")

from answer_audit.analysis.audit import AuditSettings, audit  # noqa: E402
from answer_audit.analysis.rescore import rescore  # noqa: E402
from answer_audit.cli import app  # noqa: E402
from answer_audit.engines.ray import audit_parquet, rescore_parquet  # noqa: E402
from answer_audit.sources import ColumnMap  # noqa: E402
from answer_audit.sources.demo import demo_rows  # noqa: E402


def _compare_reports() -> ModuleType:
    """scripts/compare_reports.py, the check the acceptance names (a script, not a module)."""
    spec = importlib.util.spec_from_file_location(
        "compare_reports", REPO / "scripts" / "compare_reports.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


COMPARE = _compare_reports()

pytestmark = pytest.mark.xdist_group("ray")

DEMO_FLAGS = ["--id", "trial_id", "--raw", "raw", "--parsed", "parsed", "--label", "label",
              "--group-by", "variant,condition", "--compare", "condition", "--baseline",
              "control", "--item", "question", "--bootstrap", "200"]  # fmt: skip


RESCORE_FLAGS = ["--id", "trial_id", "--raw", "raw", "--parsed", "parsed", "--label", "label",
                 "--group-by", "variant,condition", "--compare", "condition", "--baseline",
                 "control", "--item", "question", "--bootstrap", "200", "-p", "freeform/v4"]  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    """One local Ray cluster for the module (the engine uses the running one)."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def demo_files(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The demo rows, shuffled, in five Parquet files (shared by the module's tests)."""
    return [str(f) for f in _demo_files(tmp_path_factory.mktemp("demo"))]


def _partitioned(frame: pl.DataFrame, folder: Path, rows_per_file: int) -> list[Path]:
    """``frame`` shuffled and written as several Parquet files in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    shuffled = frame.sample(fraction=1.0, shuffle=True, seed=7)
    for i, part in enumerate(shuffled.iter_slices(rows_per_file)):
        path = folder / f"part-{i:03d}.parquet"
        part.write_parquet(path)
        files.append(path)
    return files


def _demo_files(folder: Path) -> list[Path]:
    rows = demo_rows().with_columns(pl.int_range(pl.len()).cast(pl.String).alias("trial_id"))
    return _partitioned(rows, folder, rows_per_file=450)


def _report(args: list[str], out: Path, command: str = "audit") -> dict[str, Any]:
    result = CliRunner().invoke(app, [command, *args, "-q", "--out-json", str(out)])
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


def _same_reports(local: dict[str, Any], on_ray: dict[str, Any]) -> None:
    assert (local["engine"], on_ray["engine"]) == ("local", "ray")
    assert list(COMPARE.differences(COMPARE.comparable(local), COMPARE.comparable(on_ray))) == []


def test_ray_audit_of_demo_parquet_matches_the_local_audit(
    tmp_path: Path, demo_files: list[str]
) -> None:
    files = demo_files
    local = _report([*files, *DEMO_FLAGS], tmp_path / "local.json")
    on_ray = _report([*files, *DEMO_FLAGS, "--engine", "ray"], tmp_path / "ray.json")
    _same_reports(local, on_ray)
    assert on_ray["coverage"]["rows"] == 2016 and len(on_ray["coverage"]["files"]) == 5


def test_any_batch_size_gives_the_same_result(tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    _demo_files(folder)
    cmap = ColumnMap(id="trial_id", raw="raw", parsed="parsed", label="label", truth="truth",
                     group_by=("variant", "condition"))  # fmt: skip
    settings = AuditSettings(group_by=("variant", "condition"), n_boot=100)
    small = audit_parquet(folder, cmap, settings=settings, batch_rows=97)
    large = audit_parquet(str(folder / "*.parquet"), cmap, settings=settings)
    assert small.to_dict() == large.to_dict()
    whole = demo_rows().with_columns(pl.int_range(pl.len()).cast(pl.String).alias("id"))
    in_memory = audit(whole, settings=settings).to_dict()
    on_ray = large.to_dict()
    # the same rows and counts; only the files read differ (none in memory)
    assert {k: on_ray["coverage"][k] for k in in_memory["coverage"]} == in_memory["coverage"]
    del in_memory["coverage"], on_ray["coverage"]
    assert in_memory == on_ray


def test_ray_engine_refuses_what_it_cannot_read(tmp_path: Path, demo_files: list[str]) -> None:
    csv = tmp_path / "rows.csv"
    demo_rows().head(5).write_csv(csv)
    refused = CliRunner().invoke(app, ["audit", str(csv), "--label", "label", "--id", "raw",
                                       "--engine", "ray", "-q"])  # fmt: skip
    assert refused.exit_code == 2
    assert "Parquet" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
    files = demo_files
    no_id = CliRunner().invoke(app, ["audit", *files, "--label", "label", "--engine", "ray", "-q"])
    assert no_id.exit_code == 2
    assert "--id" in no_id.stderr and len(no_id.stderr.strip().splitlines()) == 1
    unknown = CliRunner().invoke(app, ["audit", *files, "--label", "label", "--engine", "spark"])
    assert unknown.exit_code == 2


def test_ray_rescore_of_demo_parquet_matches_the_local_rescore(
    tmp_path: Path, demo_files: list[str]
) -> None:
    local_rows, ray_rows = tmp_path / "rows.parquet", tmp_path / "rows"
    local = _report([*demo_files, *RESCORE_FLAGS, "--out", str(local_rows)],
                    tmp_path / "local.json", "rescore")  # fmt: skip
    on_ray = _report([*demo_files, *RESCORE_FLAGS, "--out", str(ray_rows), "--engine", "ray"],
                     tmp_path / "ray.json", "rescore")  # fmt: skip
    _same_reports(local, on_ray)
    assert on_ray["conclusions"] is not None and on_ray["coverage"]["rows"] == 2016
    # the workers wrote the same rows, one file per batch, in another order
    written = pl.read_parquet(ray_rows).sort("trial_id")
    assert written.equals(pl.read_parquet(local_rows).sort("trial_id"))
    assert not list(ray_rows.glob("*.tmp"))


def test_rescore_parquet_gives_the_in_memory_rescore_for_any_batch_size(tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    _demo_files(folder)
    cmap = ColumnMap(id="trial_id", raw="raw", parsed="parsed", label="label", truth="truth",
                     group_by=("variant", "condition"))  # fmt: skip
    small = rescore_parquet(folder, cmap, "choice/v4", n_boot=100, batch_rows=97)
    large = rescore_parquet(str(folder / "*.parquet"), cmap, "choice/v4", n_boot=100)
    assert small.to_dict() == large.to_dict()
    whole = demo_rows().with_columns(pl.int_range(pl.len()).cast(pl.String).alias("id"))
    in_memory = rescore(whole, "choice/v4", group_by=("variant", "condition"), n_boot=100)
    # the same rows and counts; only the files read differ (none in memory)
    on_ray, here = large.to_dict(), in_memory.to_dict()
    assert on_ray.pop("coverage")["scored"] == here.pop("coverage")["scored"]
    assert on_ray == here


def test_duplicate_ids_across_files_give_the_local_note(tmp_path: Path) -> None:
    rows = demo_rows().head(40).with_columns(
        (pl.int_range(pl.len()) % 30).cast(pl.String).alias("trial_id")  # 10 ids twice
    )  # fmt: skip
    files = [str(f) for f in _partitioned(rows, tmp_path / "dups", rows_per_file=15)]
    flags = ["--id", "trial_id", "--parsed", "parsed", "--label", "label", "--bootstrap", "50"]
    local = _report([*files, *flags], tmp_path / "local.json")
    on_ray = _report([*files, *flags, "--engine", "ray"], tmp_path / "ray.json")
    _same_reports(local, on_ray)
    assert (
        "20 rows share an id with another row (e.g. 0, 1, 2); ids are not unique"
        in (on_ray["notes"])
    )


def test_ray_rescore_writes_rows_to_a_new_folder_only(
    tmp_path: Path, demo_files: list[str]
) -> None:
    flags = [*demo_files, *RESCORE_FLAGS, "--engine", "ray", "-q"]
    as_file = CliRunner().invoke(app, ["rescore", *flags, "--out", str(tmp_path / "r.csv")])
    assert as_file.exit_code == 2 and "folder" in as_file.stderr
    assert len(as_file.stderr.strip().splitlines()) == 1
    full = tmp_path / "full"
    full.mkdir()
    (full / "old.parquet").write_bytes(b"")
    not_empty = CliRunner().invoke(app, ["rescore", *flags, "--out", str(full)])
    assert not_empty.exit_code == 2 and "not empty" in not_empty.stderr
    assert sorted(p.name for p in full.iterdir()) == ["old.parquet"]


def test_an_input_error_on_a_worker_is_the_local_one_line_error(tmp_path: Path) -> None:
    rows = demo_rows().head(60).with_columns(
        pl.int_range(pl.len()).cast(pl.String).alias("id"), pl.col("label").cast(pl.String)
    )  # fmt: skip
    rows.head(30).write_parquet(tmp_path / "a.parquet")
    rows.tail(30).with_columns(pl.lit("maybe").alias("label")).write_parquet(tmp_path / "b.parquet")
    args = ["rescore", str(tmp_path), "-p", "choice/v4", "--id", "id", "--parsed", "parsed",
            "--label", "label", "-q", "--engine", "ray"]  # fmt: skip
    on_ray = CliRunner().invoke(app, args)
    assert on_ray.exit_code == 2, on_ray.output
    # the local line, but the row counts from the batch's first row of the file
    assert on_ray.stderr.strip().splitlines() == [
        f"error: label column 'label' in {tmp_path / 'b.parquet'}, in a Ray batch, row 1: "
        "cannot read 'maybe' as a label; accepted: true/false, 1/0 (also 1.0/0.0), yes/no (any "
        "letter case); empty cells and NaN are missing. Mark missing values with --null-values"
    ]
    # files whose column types differ: Ray Data cannot read them together
    rows.head(30).with_columns(pl.lit(1).alias("label")).write_parquet(tmp_path / "a.parquet")
    mixed = CliRunner().invoke(app, args)
    assert mixed.exit_code == 2 and len(mixed.stderr.strip().splitlines()) == 1
    assert "one type in every file" in mixed.stderr


def _conformity_files(tmp_path: Path) -> list[str]:
    real = REAL / "conformity"
    if not real.is_dir():
        pytest.skip(f"real data not present at {real}")
    files: list[str] = []
    for csv in sorted(real.glob("*.csv")):
        frame = pl.read_csv(csv, infer_schema=False)
        files += map(str, _partitioned(frame, tmp_path / csv.stem, rows_per_file=250))
    return files


CONFORMITY_FLAGS = ["--id", "trial_id", "--raw", "raw_text", "--parsed", "parsed_answer_text",
                    "--label", "is_correct", "--truth", "ground_truth_text", "--compare",
                    "condition_name", "--baseline", "control", "--item", "question",
                    "--group-by", "variant,condition_name", "--bootstrap", "200"]  # fmt: skip


@pytest.mark.real
def test_ray_audit_of_conformity_parquet_matches_the_local_audit(tmp_path: Path) -> None:
    files = _conformity_files(tmp_path)
    local = _report([*files, *CONFORMITY_FLAGS], tmp_path / "local.json")
    on_ray = _report([*files, *CONFORMITY_FLAGS, "--engine", "ray"], tmp_path / "ray.json")
    _same_reports(local, on_ray)
    assert on_ray["coverage"]["rows"] == 2160


@pytest.mark.real
def test_ray_rescore_of_conformity_parquet_matches_the_local_rescore(tmp_path: Path) -> None:
    files = _conformity_files(tmp_path)
    flags = [*files, *CONFORMITY_FLAGS, "-p", "freeform/v4"]
    local = _report(flags, tmp_path / "local.json", "rescore")
    on_ray = _report([*flags, "--engine", "ray"], tmp_path / "ray.json", "rescore")
    _same_reports(local, on_ray)
    assert on_ray["coverage"]["rows"] == 2160 and on_ray["conclusions"] is not None
