"""The audit on Ray Data gives the one-machine audit's report: same JSON apart from the time
stamp and the engine, whatever the partitioning (`answer_audit.engines.ray`)."""

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
from answer_audit.cli import app  # noqa: E402
from answer_audit.engines.ray import audit_parquet  # noqa: E402
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


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    """One local Ray cluster for the module (the engine uses the running one)."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


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


def _report(args: list[str], out: Path) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["audit", *args, "-q", "--out-json", str(out)])
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


def _same_reports(local: dict[str, Any], on_ray: dict[str, Any]) -> None:
    assert (local["engine"], on_ray["engine"]) == ("local", "ray")
    assert list(COMPARE.differences(COMPARE.comparable(local), COMPARE.comparable(on_ray))) == []


def test_ray_audit_of_demo_parquet_matches_the_local_audit(tmp_path: Path) -> None:
    files = [str(f) for f in _demo_files(tmp_path / "demo")]
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


def test_ray_engine_refuses_what_it_cannot_read(tmp_path: Path) -> None:
    csv = tmp_path / "rows.csv"
    demo_rows().head(5).write_csv(csv)
    refused = CliRunner().invoke(app, ["audit", str(csv), "--label", "label", "--id", "raw",
                                       "--engine", "ray", "-q"])  # fmt: skip
    assert refused.exit_code == 2
    assert "Parquet" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
    files = [str(f) for f in _demo_files(tmp_path / "demo")]
    no_id = CliRunner().invoke(app, ["audit", *files, "--label", "label", "--engine", "ray", "-q"])
    assert no_id.exit_code == 2
    assert "--id" in no_id.stderr and len(no_id.stderr.strip().splitlines()) == 1
    unknown = CliRunner().invoke(app, ["audit", *files, "--label", "label", "--engine", "spark"])
    assert unknown.exit_code == 2


@pytest.mark.real
def test_ray_audit_of_conformity_parquet_matches_the_local_audit(tmp_path: Path) -> None:
    real = REAL / "conformity"
    if not real.is_dir():
        pytest.skip(f"real data not present at {real}")
    files: list[str] = []
    for csv in sorted(real.glob("*.csv")):
        frame = pl.read_csv(csv, infer_schema=False)
        files += map(str, _partitioned(frame, tmp_path / csv.stem, rows_per_file=250))
    flags = ["--id", "trial_id", "--raw", "raw_text", "--parsed", "parsed_answer_text",
             "--label", "is_correct", "--truth", "ground_truth_text", "--compare",
             "condition_name", "--baseline", "control", "--item", "question", "--group-by",
             "variant,condition_name", "--bootstrap", "200"]  # fmt: skip
    local = _report([*files, *flags], tmp_path / "local.json")
    on_ray = _report([*files, *flags, "--engine", "ray"], tmp_path / "ray.json")
    _same_reports(local, on_ray)
    assert on_ray["coverage"]["rows"] == 2160
