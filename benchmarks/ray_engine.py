"""The audit on one machine vs on Ray (local mode): rows/s and the driver's peak RSS, on a
partitioned Parquet dataset of demo rows.

    python benchmarks/ray_engine.py [--rows 1000000] [--files 20]

Each side runs in its own process (peak RSS is per process); the Ray side's workers are other
processes, so its figure is the driver's alone. `make bench-full` runs it at 10M rows.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import polars as pl

GROUPS = ("variant", "condition")


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


def run_one(engine: str, folder: Path) -> dict[str, float]:
    """One audit in this process: seconds and peak RSS (MB)."""
    from answer_audit.analysis.audit import AuditSettings, audit
    from answer_audit.sources import ColumnMap
    from answer_audit.sources.spec import SourceSpec, load_streamed

    cmap = ColumnMap(id="trial_id", raw="raw", parsed="parsed", label="label", truth="truth",
                     group_by=GROUPS)  # fmt: skip
    settings = AuditSettings(group_by=GROUPS, n_boot=200)
    files = sorted(folder.glob("*.parquet"))
    started = time.perf_counter()
    if engine == "ray":
        from answer_audit.engines.ray import audit_parquet

        result = audit_parquet(folder, cmap, settings=settings)
    else:
        loaded, _ = load_streamed(SourceSpec(paths=tuple(files)), cmap)
        result = audit(loaded.rows if hasattr(loaded, "rows") else loaded.frame, settings=settings)
    seconds = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"rows": result.coverage.rows, "seconds": seconds, "peak_mb": peak_mb}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--files", type=int, default=20)
    parser.add_argument("--one", choices=("local", "ray"), help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one, args.folder)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_dataset(folder, args.rows, args.files)
        print(f"{args.rows:,} rows in {args.files} Parquet files")
        print(f"{'engine':<8}{'rows/s':>10}{'driver peak RSS':>18}")
        for engine in ("local", "ray"):
            out = subprocess.run(
                [sys.executable, __file__, "--one", engine, "--folder", str(folder)],
                check=True, capture_output=True, text=True,
            ).stdout.strip().splitlines()[-1]  # fmt: skip
            figures = json.loads(out)
            rate = figures["rows"] / figures["seconds"]
            print(f"{engine:<8}{rate:>10,.0f}{figures['peak_mb']:>15,.0f} MB")


if __name__ == "__main__":
    main()
