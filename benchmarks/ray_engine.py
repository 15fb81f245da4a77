"""The audit and the rescore on one machine vs on Ray (local mode): rows/s and peak RSS of the
driver and of the Ray workers, on a partitioned Parquet dataset of demo rows.

    python benchmarks/ray_engine.py [--rows 1000000] [--files 20] [--commands audit rescore]

Each run is its own process (peak RSS is per process). On Ray the driver's figure is its own;
the workers are other processes, sampled every 0.2 s while the run lasts: the largest worker,
and the largest sum over the workers at one time. `make bench-full` runs it at 10M rows.
"""

from __future__ import annotations

import argparse
import json
import logging
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import polars as pl

GROUPS = ("variant", "condition")
PRESET = "freeform/v4"


def write_dataset(folder: Path, rows: int, files: int) -> list[Path]:
    """``rows`` demo rows (repeated, with unique ids) in ``files`` Parquet files."""
    from answer_audit.sources.demo import demo_rows

    base = demo_rows()
    per_file = -(-rows // files)
    paths = []
    for i in range(files):
        start = i * per_file
        n = min(per_file, rows - start)
        if n <= 0:
            break
        take = pl.int_range(start, start + n, eager=True) % base.height
        part = base[take].with_columns(
            pl.int_range(start, start + n, eager=True).cast(pl.String).alias("trial_id")
        )
        path = folder / f"part-{i:04d}.parquet"
        part.write_parquet(path)
        paths.append(path)
    return paths


class WorkerMemory:
    """Peak RSS of the Ray worker processes (named ``ray::...``), sampled in a thread."""

    def __init__(self, every: float = 0.2) -> None:
        self.every, self.largest, self.total = every, 0, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> WorkerMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _sample(self) -> None:
        while not self._stop.is_set():
            sizes = _ray_worker_rss()
            self.largest = max(self.largest, *sizes, 0)
            self.total = max(self.total, sum(sizes))
            self._stop.wait(self.every)


def _ray_worker_rss() -> list[int]:
    """The resident bytes of each Ray worker process on this machine (Linux: /proc)."""
    sizes = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(
                line.split(":", 1) for line in status.read_text().splitlines() if ":" in line
            )
        except OSError:  # the process ended
            continue
        if fields.get("Name", "").strip().startswith("ray::") and "VmRSS" in fields:
            sizes.append(int(fields["VmRSS"].split()[0]) * 1024)
    return sizes


def run_one(command: str, engine: str, folder: Path) -> dict[str, float]:
    """One audit or rescore in this process: rows, seconds and peak RSS (MB)."""
    from answer_audit.analysis.audit import AuditResult, AuditSettings, audit
    from answer_audit.analysis.rescore import RescoreResult, rescore
    from answer_audit.sources import ColumnMap
    from answer_audit.sources.spec import SourceSpec, load_streamed

    cmap = ColumnMap(id="trial_id", raw="raw", parsed="parsed", label="label", truth="truth",
                     group_by=GROUPS)  # fmt: skip
    spec = SourceSpec(paths=tuple(sorted(folder.glob("*.parquet"))))
    started = time.perf_counter()
    workers: dict[str, Any] = {}
    result: AuditResult | RescoreResult
    if engine == "ray":
        import ray

        from answer_audit.engines.ray import audit_parquet, rescore_parquet
        from answer_audit.engines.ray_data import quiet_ray_data

        ray.init(include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
        with WorkerMemory() as memory, quiet_ray_data():
            if command == "audit":
                result = audit_parquet(folder, cmap, settings=AuditSettings(group_by=GROUPS,
                                                                            n_boot=200))  # fmt: skip
            else:
                result = rescore_parquet(folder, cmap, PRESET, n_boot=200)
        ray.shutdown()
        workers = {"worker_peak_mb": memory.largest / 2**20, "workers_mb": memory.total / 2**20}
    elif command == "audit":
        loaded, _ = load_streamed(spec, cmap)
        rows = loaded.rows if hasattr(loaded, "rows") else loaded.frame
        result = audit(rows, settings=AuditSettings(group_by=GROUPS, n_boot=200))
    else:
        table, groups = load_streamed(spec, cmap)  # as `answer-audit rescore` reads
        result = rescore(table, PRESET, group_by=groups, n_boot=200, keep_rows=False)
    seconds = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"rows": result.coverage.rows, "seconds": seconds, "peak_mb": peak_mb, **workers}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--files", type=int, default=20)
    parser.add_argument("--commands", nargs="+", choices=("audit", "rescore"),
                        default=["audit", "rescore"])  # fmt: skip
    parser.add_argument("--one", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        command, engine = args.one
        print(json.dumps(run_one(command, engine, args.folder)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_dataset(folder, args.rows, args.files)
        print(f"{args.rows:,} rows in {args.files} Parquet files; rescore with {PRESET}")
        print(f"{'command':<9}{'engine':<8}{'rows/s':>10}{'driver peak':>14}"
              f"{'worker peak':>14}{'workers':>10}")  # fmt: skip
        for command in args.commands:
            for engine in ("local", "ray"):
                out = subprocess.run(
                    [sys.executable, __file__, "--one", command, engine, "--folder", str(folder)],
                    check=True, capture_output=True, text=True,
                ).stdout.strip().splitlines()[-1]  # fmt: skip
                figures = json.loads(out)
                rate = figures["rows"] / figures["seconds"]
                worker = figures.get("worker_peak_mb")
                workers = figures.get("workers_mb")
                print(f"{command:<9}{engine:<8}{rate:>10,.0f}{figures['peak_mb']:>11,.0f} MB"
                      + (f"{worker:>11,.0f} MB{workers:>7,.0f} MB" if worker else
                         f"{'-':>14}{'-':>10}"))  # fmt: skip


if __name__ == "__main__":
    main()
