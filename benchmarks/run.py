"""Throughput and memory of extraction and of the full default audit, against a per-row loop.

    python benchmarks/run.py            # 100k rows (quick)
    python benchmarks/run.py --full     # 1M rows
    python benchmarks/run.py --profile  # cProfile of the Parquet audit, top functions

Every measurement runs in a fresh subprocess, so its peak RSS (``ru_maxrss`` from ``wait4``) is
its own. Rows come from ``benchmarks/generate.py`` (made once, then cached in benchmarks/data).

- extraction: one preset's ``extract`` on every row's raw text; seconds exclude loading.
- audit: ``answer-audit audit ... --quiet`` with the default schemes, wall time of the whole
  process (start-up, loading, scoring, report), from Parquet and from SQLite run folders.
- per-row loop: the same rules in a plain loop (each default scheme parsed and matched per row,
  plus the consistency check, marker search and think split); seconds exclude loading.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402

QUICK_ROWS = 100_000
FULL_ROWS = 1_000_000
GROUPS = "temperature,variant,condition"
TARGET_ROWS_PER_S = 100_000
TARGET_SPEEDUP = 20.0
TARGET_RSS_MULTIPLE = 2.5


# ------------------------------------------------------------------ children


def child_extract(preset_name: str, parquet: str) -> dict[str, Any]:
    import polars as pl

    from answer_audit import get_parser

    preset = get_parser(preset_name)
    raws = pl.read_parquet(parquet, columns=["raw"])["raw"].to_list()
    started = time.perf_counter()
    for raw in raws:
        if raw is not None:
            preset.extract(raw)
    return {"seconds": time.perf_counter() - started, "rows": len(raws)}


def child_loop(parquet: str) -> dict[str, Any]:
    """The default freeform audit's rules, one row at a time, with no caching."""
    import polars as pl

    from answer_audit import get_parser, is_correct, strip_think
    from answer_audit.audit import BLOCK_MARKERS, ROLE_MARKERS
    from answer_audit.schemes import default_schemes

    frame = pl.read_parquet(parquet, columns=["raw", "parsed", "truth"])
    raws, stored, truths = (frame[c].to_list() for c in ("raw", "parsed", "truth"))
    del frame
    schemes = [(get_parser(s.parser) if not s.uses_stored_parse else None, s.normalizer)
               for s in default_schemes("freeform")]  # fmt: skip
    started = time.perf_counter()
    hits = 0
    for raw, parsed, truth in zip(raws, stored, truths, strict=True):
        for preset, normalizer in schemes:
            value = (
                parsed if preset is None else (None if raw is None else preset.extract(raw).value)
            )
            hits += bool(is_correct(None if value is None else str(value), truth, normalizer))
        hits += bool(is_correct(parsed, truth, "v1"))  # consistency of the stored labels
        low_raw, low_parsed = (raw or "").lower(), (parsed or "").lower()
        for low in (low_raw, low_parsed):
            hits += any(m in low for m in ROLE_MARKERS) + any(m in low for m in BLOCK_MARKERS)
        if "</think>" in low_raw:
            hits += bool(is_correct(strip_think(raw), truth, "v2"))
    return {"seconds": time.perf_counter() - started, "rows": len(raws), "hits": hits}


CHILDREN = {"extract": child_extract, "loop": child_loop}


# ------------------------------------------------------------------ parent


def cli_path() -> str:
    beside = Path(sys.executable).parent / "answer-audit"
    found = str(beside) if beside.exists() else shutil.which("answer-audit")
    if found is None:
        sys.exit("answer-audit not found; run with the project venv: .venv/bin/python")
    return found


def run_measured(cmd: list[str]) -> tuple[float, float, str]:
    """Run ``cmd``; its wall seconds, its own peak RSS in MB, and its stdout."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}):\n{stderr[-2000:]}")
    return wall, usage.ru_maxrss / 1024, stdout  # Linux reports kilobytes


def measure_child(kind: str, *args: str) -> dict[str, Any]:
    wall, rss, stdout = run_measured([sys.executable, __file__, "--child", kind, *args])
    result: dict[str, Any] = json.loads(stdout.strip().splitlines()[-1])
    return {**result, "wall": wall, "rss_mb": rss}


def measure_audit(args: list[str], rows: int, tmp: Path) -> dict[str, Any]:
    cmd = [cli_path(), "audit", *args, "--quiet", "--out-md", str(tmp / "audit.md")]
    wall, rss, _ = run_measured(cmd)
    return {"seconds": wall, "rows": rows, "wall": wall, "rss_mb": rss}


def raw_megabytes(parquet: Path) -> float:
    import polars as pl

    raw = pl.scan_parquet(parquet).select(pl.col("raw").str.len_bytes().sum()).collect()
    return float(raw.item()) / 1e6


def measure_all(n: int, seed: int, presets: list[str], skip_loop: bool) -> dict[str, Any]:
    parquet = generate.ensure_parquet(n, seed)
    runs, metadata = generate.ensure_runs(n, seed)
    lines: list[dict[str, Any]] = []

    def add(section: str, name: str, result: dict[str, Any]) -> None:
        lines.append({"section": section, "name": name, **result})
        print(f"  {section:<10} {name:<22} {result['seconds']:8.2f}s", file=sys.stderr, flush=True)

    for preset in presets:
        add("extract", preset, measure_child("extract", preset, str(parquet)))
    with tempfile.TemporaryDirectory(prefix="answer-audit-bench-") as tmp:
        file_args = [str(parquet), "--raw", "raw", "--truth", "truth", "--parsed", "parsed",
                     "--label", "label", "--group-by", GROUPS]  # fmt: skip
        add("audit", "from Parquet", measure_audit(file_args, n, Path(tmp)))
        runs_args = ["--runs-dir", str(runs), "--metadata", str(metadata)]
        add("audit", "from SQLite runs", measure_audit(runs_args, n, Path(tmp)))
    if not skip_loop:
        add("loop", "per-row Python loop", measure_child("loop", str(parquet)))
    return {
        "rows": n,
        "seed": seed,
        "raw_mb": raw_megabytes(parquet),
        "package": package_source(),
        "lines": lines,
    }


def package_source() -> str:
    """Which answer_audit was measured: its folder and, inside a git checkout, the commit."""
    import answer_audit

    where = Path(answer_audit.__file__).resolve().parent
    try:
        commit = subprocess.run(
            ["git", "-C", str(where), "describe", "--always", "--dirty"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        commit = "not a git checkout"
    return f"{where} ({commit})"


def render(report: dict[str, Any]) -> str:
    raw_mb = report["raw_mb"]
    out = [
        f"{report['rows']:,} rows, raw text {raw_mb:.0f} MB (UTF-8), seed {report['seed']}",
        f"answer_audit: {report['package']}; {os.cpu_count()} CPUs, Python {sys.version.split()[0]}",
        "",
    ]
    out.append(f"{'section':<9} {'measurement':<22} {'seconds':>9} {'rows/s':>11} "
               f"{'peak RSS MB':>12} {'RSS/raw':>8}")  # fmt: skip
    for line in report["lines"]:
        rate = line["rows"] / line["seconds"] if line["seconds"] else float("inf")
        out.append(
            f"{line['section']:<9} {line['name']:<22} {line['seconds']:9.2f} {rate:11,.0f} "
            f"{line['rss_mb']:12,.0f} {line['rss_mb'] / raw_mb:7.2f}x"
        )
    return "\n".join(out)


def verdicts(report: dict[str, Any]) -> list[str]:
    by = {line["name"]: line for line in report["lines"]}
    raw_mb = report["raw_mb"]
    loop = by.get("per-row Python loop")
    out = []
    if report["rows"] < FULL_ROWS:
        out.append(f"(targets are set for {FULL_ROWS:,} rows; at {report['rows']:,} they are "
                   "indicative: start-up and report time weigh more)")  # fmt: skip
    for name in ("from Parquet", "from SQLite runs"):
        line = by[name]
        rate = line["rows"] / line["seconds"]
        out.append(_check(f"audit {name}: rows/s >= {TARGET_ROWS_PER_S:,}", rate,
                          rate >= TARGET_ROWS_PER_S, f"{rate:,.0f}"))  # fmt: skip
        if loop is not None:
            ratio = rate / (loop["rows"] / loop["seconds"])
            out.append(_check(f"audit {name}: >= {TARGET_SPEEDUP:g}x the per-row loop", ratio,
                              ratio >= TARGET_SPEEDUP, f"{ratio:.2f}x"))  # fmt: skip
        multiple = line["rss_mb"] / raw_mb
        out.append(_check(f"audit {name}: peak RSS < {TARGET_RSS_MULTIPLE}x raw text", multiple,
                          multiple < TARGET_RSS_MULTIPLE, f"{multiple:.2f}x"))  # fmt: skip
    return out


def _check(what: str, value: float, ok: bool, shown: str) -> str:
    return f"{'PASS' if ok else 'FAIL'}  {what}: {shown}"


def profile(n: int, seed: int, top: int) -> None:
    """cProfile of the Parquet audit in this process: the top functions by cumulative time."""
    import cProfile
    import pstats

    import typer

    from answer_audit.cli import app

    parquet = generate.ensure_parquet(n, seed)
    with tempfile.TemporaryDirectory(prefix="answer-audit-bench-") as tmp:
        args = ["audit", str(parquet), "--raw", "raw", "--truth", "truth", "--parsed", "parsed",
                "--label", "label", "--group-by", GROUPS, "--quiet", "--out-md", f"{tmp}/a.md"]  # fmt: skip
        command = typer.main.get_command(app)
        profiler = cProfile.Profile()
        profiler.enable()
        command(args, standalone_mode=False)
        profiler.disable()
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--full", action="store_true", help=f"{FULL_ROWS:,} rows")
    parser.add_argument("--rows", type=int, help="any number of rows (overrides --full)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--presets", nargs="*", help="extraction presets (default: all)")
    parser.add_argument("--skip-loop", action="store_true", help="no per-row loop line")
    parser.add_argument("--json", help="also write the measurements as JSON here")
    parser.add_argument("--profile", action="store_true", help="cProfile the Parquet audit")
    parser.add_argument("--top", type=int, default=15, help="functions shown by --profile")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        kind, *rest = args.child
        print(json.dumps(CHILDREN[kind](*rest)))
        return 0
    n = args.rows or (FULL_ROWS if args.full else QUICK_ROWS)
    if args.profile:
        profile(n, args.seed, args.top)
        return 0
    from answer_audit import list_parsers

    presets = list_parsers() if args.presets is None else args.presets
    report = measure_all(n, args.seed, presets, args.skip_loop)
    print(render(report))
    checks = verdicts(report)
    print("\n" + "\n".join(checks))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0 if all(c.startswith(("PASS", "(")) for c in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
