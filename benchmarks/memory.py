"""Peak memory of `audit` and `rescore` per input format, and the audit's speed-up on workers.

    python benchmarks/memory.py                   # 1M rows: CSV, JSON Lines, Parquet, run folders
    python benchmarks/memory.py --rows 200000     # any size
    python benchmarks/memory.py --compressed      # also .csv.gz and .jsonl.gz
    python benchmarks/memory.py --skip-rescore --skip-speedup   # or --skip-audit
    python benchmarks/memory.py --skip-memory --repeat 3   # the speed-up alone

The rows are `generate.py`'s, written once per format beside the Parquet file (benchmarks/data).
Each command runs in a fresh interpreter (`run.py --child cli`), which reports its own peak RSS
(``VmHWM``) plus each worker process's: an upper bound of what was resident at once, set
against the raw text's UTF-8 size. The speed-up is the default audit of the Parquet file at
``--workers 2`` against ``--workers 1``: the fastest of ``--repeat`` runs each (the machine may be
shared: the fastest run is the one least slowed by others), with the CPU seconds beside it.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402
import run  # noqa: E402

FULL_ROWS = 1_000_000
TARGET_RSS_MULTIPLE = 2.5
TARGET_SPEEDUP = 1.7
COMPRESSED = ("csv.gz", "jsonl.gz")


def data_file(n: int, seed: int, suffix: str) -> Path:
    """The generated rows as ``suffix`` (csv, jsonl, csv.gz, jsonl.gz), written once."""
    path = generate.parquet_path(n, seed).with_suffix(f".{suffix}")
    if path.exists():
        return path
    import polars as pl

    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    if suffix.endswith(".gz"):
        with (
            data_file(n, seed, suffix[:-3]).open("rb") as src,
            gzip.open(tmp, "wb", compresslevel=6) as dst,
        ):
            shutil.copyfileobj(src, dst, 1 << 20)
    else:
        frame = pl.read_parquet(generate.ensure_parquet(n, seed))
        if suffix == "csv":
            frame.write_csv(tmp)
        else:
            frame.write_ndjson(tmp)
    os.replace(tmp, path)
    return path


def inputs(n: int, seed: int, compressed: bool) -> dict[str, list[str]]:
    """What each measured line reads: files with their column flags, or run folders."""
    files = ["csv", "jsonl", *(COMPRESSED if compressed else ())]
    found = {name: [str(data_file(n, seed, name))] for name in files}
    found["parquet"] = [str(generate.ensure_parquet(n, seed))]
    runs, metadata = generate.ensure_runs(n, seed)
    return {**{k: [*v, *run.FILE_ARGS] for k, v in found.items()},
            "run folders": ["--runs-dir", str(runs), "--metadata", str(metadata)]}  # fmt: skip


def input_bytes(path: Path) -> int:
    """The bytes of an input file, or of the run databases in a folder (0 for a flag)."""
    if path.is_dir():
        return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    return path.stat().st_size if path.is_file() else 0


def measure(command: str, args: list[str], tmp: Path, workers: int | None = None) -> dict[str, Any]:
    """One command in a fresh interpreter: seconds, CPU seconds and peak RSS (MB)."""
    extra = [] if workers is None else ["--workers", str(workers)]
    out = ["--out-json", str(tmp / f"{command}.json")]
    group = ["--group-by", run.GROUPS] if "--runs-dir" not in args else []
    found = run.measure_child("cli", command, *args, *group, *extra, "--quiet", *out)
    return {"seconds": found["wall"], "cpu": found["cpu_total"], "rss_mb": found["rss_mb"],
            "worker_rss_mb": found["worker_rss_mb"]}  # fmt: skip


def measure_all(args: argparse.Namespace) -> dict[str, Any]:
    n, seed = args.rows, args.seed
    sources = inputs(n, seed, args.compressed)
    raw_mb = run.raw_megabytes(generate.ensure_parquet(n, seed))
    report: dict[str, Any] = {"rows": n, "raw_mb": raw_mb, "load_before": os.getloadavg()}
    report.update(package=run.package_source(), lines=[], speedup=None)
    with tempfile.TemporaryDirectory(prefix="answer-audit-bench-") as folder:
        tmp = Path(folder)
        asked = [("audit", args.skip_audit), ("rescore", args.skip_rescore)]
        commands = [] if args.skip_memory else [name for name, skip in asked if not skip]
        for command in commands:
            for name, source in sources.items():
                if command == "rescore" and name == "run folders":
                    continue  # rescore reads files
                rescore = ["-p", "freeform/v3"] if command == "rescore" else []
                found = measure(command, [*source, *rescore], tmp)
                size = sum(input_bytes(Path(p)) for p in source)
                report["lines"].append(
                    {"command": command, "input": name, "mb": size / 1e6, **found}
                )
                print(f"  {command} {name}: {found['rss_mb']:,.0f} MB", file=sys.stderr, flush=True)
        if not args.skip_speedup:
            report["speedup"] = speedup(sources["parquet"], tmp, args.repeat)
    report["load_after"] = os.getloadavg()
    return report


def speedup(source: list[str], tmp: Path, repeat: int) -> dict[str, Any]:
    """The fastest of ``repeat`` default audits at 1 and at 2 workers, runs interleaved."""
    runs: dict[int, list[dict[str, Any]]] = {1: [], 2: []}
    for _ in range(repeat):
        for workers in runs:
            runs[workers].append(measure("audit", source, tmp, workers))
            print(f"  audit --workers {workers}: {runs[workers][-1]['seconds']:.1f}s",
                  file=sys.stderr, flush=True)  # fmt: skip
    best = {w: min(found, key=lambda r: r["seconds"]) for w, found in runs.items()}
    return {"runs": runs, "best": best, "speedup": best[1]["seconds"] / best[2]["seconds"]}


def render(report: dict[str, Any]) -> str:
    raw = report["raw_mb"]
    load = "/".join(f"{x:.1f}" for x in (report["load_before"][0], report["load_after"][0]))
    out = [
        f"{report['rows']:,} rows, raw text {raw:,.0f} MB (UTF-8); load average before/after {load}",
        f"answer_audit: {report['package']}",
        "",
        f"{'command':<8} {'input':<12} {'input MB':>9} {'seconds':>8} {'cpu s':>7} "
        f"{'peak RSS MB':>11} {'RSS/raw':>8}",
    ]
    for line in report["lines"]:
        multiple = line["rss_mb"] / raw
        mark = "" if multiple <= TARGET_RSS_MULTIPLE else "  over"
        out.append(
            f"{line['command']:<8} {line['input']:<12} {line['mb']:9,.0f} {line['seconds']:8.1f} "
            f"{line['cpu']:7.1f} {line['rss_mb']:11,.0f} {multiple:7.2f}x{mark}"
        )
    found = report["speedup"]
    if found is not None:
        one, two = found["best"][1], found["best"][2]
        out += [
            "",
            f"default audit of the Parquet file, fastest of {len(found['runs'][1])} runs each:",
            f"  --workers 1: {one['seconds']:.1f} s wall, {one['cpu']:.1f} CPU s, "
            f"{one['rss_mb']:,.0f} MB",
            f"  --workers 2: {two['seconds']:.1f} s wall, {two['cpu']:.1f} CPU s, "
            f"{two['rss_mb']:,.0f} MB",
            f"  speed-up {found['speedup']:.2f}x (target {TARGET_SPEEDUP}x)",
        ]
    return "\n".join(out)


def verdicts(report: dict[str, Any]) -> list[str]:
    out = []
    for line in report["lines"]:
        multiple = line["rss_mb"] / report["raw_mb"]
        ok = multiple <= TARGET_RSS_MULTIPLE
        what = f"{line['command']} {line['input']}: peak RSS <= {TARGET_RSS_MULTIPLE}x raw text"
        out.append(run._check(what, ok, f"{multiple:.2f}x"))
    if report["speedup"] is not None:
        ratio = report["speedup"]["speedup"]
        what = f"default audit: 2 workers >= {TARGET_SPEEDUP}x 1 worker"
        out.append(run._check(what, ratio >= TARGET_SPEEDUP, f"{ratio:.2f}x"))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=FULL_ROWS, help="rows (default 1M)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the generated rows")
    parser.add_argument("--compressed", action="store_true", help="also .csv.gz and .jsonl.gz")
    parser.add_argument("--skip-audit", action="store_true", help="rescore lines only")
    parser.add_argument("--skip-rescore", action="store_true", help="audit lines only")
    parser.add_argument("--skip-memory", action="store_true", help="the speed-up alone")
    parser.add_argument("--skip-speedup", action="store_true", help="no 1-vs-2-worker runs")
    parser.add_argument("--repeat", type=int, default=2, help="runs per worker count")
    parser.add_argument("--json", help="also write the measurements as JSON here")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    report = measure_all(args)
    print(render(report))
    checks = verdicts(report)
    print("\n" + "\n".join(checks))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 1 if args.strict and any(c.startswith("FAIL") for c in checks) else 0


if __name__ == "__main__":
    sys.exit(main())
