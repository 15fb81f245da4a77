"""Throughput and memory of extraction and of the full default audit, against a per-row loop.

    python benchmarks/run.py            # 100k rows (quick)
    python benchmarks/run.py --full     # 1M rows
    python benchmarks/run.py --profile  # cProfile of the Parquet audit: top functions

Every measurement runs in a fresh subprocess that reports its own peak RSS: ``VmHWM`` from
/proc/self/status, because on Linux ``getrusage``'s ``ru_maxrss`` carries the parent's peak
across fork and exec (a 500 MB parent makes every child report >= 500 MB). Rows come from
``benchmarks/generate.py`` (made once, then cached in benchmarks/data).

- extract: one preset's ``extract`` on every row's raw text; seconds exclude loading.
- audit: the ``answer-audit audit ... --quiet`` command with the default schemes (the CLI's
  command run in a fresh interpreter): wall time of the whole process (start-up, loading,
  scoring, report), from Parquet and from SQLite run folders.
- loop: the same rules in a plain per-row loop (each default scheme parsed and matched per row,
  the consistency check, marker search and think split); seconds exclude loading.

Per-row work (extract, loop) stops after ``--cap`` seconds and reports the rate over the rows
it did (rows are i.i.d., so the rate is that of the whole file); the audits always run in full.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402

QUICK_ROWS = 100_000
FULL_ROWS = 1_000_000
DEFAULT_CAP_S = 60.0
GROUPS = "temperature,variant,condition"
FILE_ARGS = ("--raw", "raw", "--truth", "truth", "--parsed", "parsed", "--label", "label")
TARGET_ROWS_PER_S = 100_000
TARGET_SPEEDUP = 20.0
TARGET_RSS_MULTIPLE = 2.5


# ------------------------------------------------------------------ children


def timed_rows(rows: Iterable[Any], work: Callable[[Any], object], cap: float) -> dict[str, Any]:
    """Run ``work`` on each row until done or ``cap`` seconds passed; rows done and seconds."""
    started, cpu = time.perf_counter(), time.process_time()
    done = 0
    for done, row in enumerate(rows, start=1):
        work(row)
        if done % 1000 == 0 and time.perf_counter() - started > cap:
            break
    return {
        "seconds": time.perf_counter() - started,
        "cpu": time.process_time() - cpu,
        "rows": done,
    }


def peak_rss_mb() -> float:
    """This process's peak resident set size in MB (since its exec)."""
    if mb := vm_hwm_mb("/proc/self/status"):
        return mb
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # may include the parent's


def peak_rss_with_workers() -> dict[str, Any]:
    """Peak RSS of this process plus that of each worker process it kept (`--workers`): an
    upper bound of what was resident at once. Workers are read from /proc while alive:
    ``RUSAGE_CHILDREN`` would report at least this process's own peak for each of them."""
    from answer_audit.schemes import parallel

    workers = [vm_hwm_mb(f"/proc/{pid}/status") for pid in parallel.worker_pids()]
    parallel.shutdown()
    own = peak_rss_mb()
    return {"rss_mb": own + sum(workers), "own_rss_mb": own, "worker_rss_mb": workers}


def vm_hwm_mb(status_path: str) -> float:
    try:
        with open(status_path, encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def child_cli(*args: str) -> dict[str, Any]:
    import typer

    from answer_audit.cli import app

    typer.main.get_command(app)(list(args), standalone_mode=False)
    return {}


def child_extract(preset_name: str, parquet: str, cap: str) -> dict[str, Any]:
    import polars as pl

    from answer_audit import get_parser

    preset = get_parser(preset_name)
    raws = pl.read_parquet(parquet, columns=["raw"])["raw"].to_list()
    result = timed_rows(raws, lambda raw: raw is None or preset.extract(raw), float(cap))
    return {**result, "of": len(raws)}


def child_loop(parquet: str, cap: str) -> dict[str, Any]:
    """The default free-form audit's rules, one row at a time, with no caching."""
    import polars as pl

    from answer_audit import get_parser, is_correct, strip_think
    from answer_audit.analysis.audit import BLOCK_MARKERS, ROLE_MARKERS
    from answer_audit.schemes.apply import default_schemes

    frame = pl.read_parquet(parquet, columns=["raw", "parsed", "truth"])
    rows = list(zip(*(frame[c].to_list() for c in ("raw", "parsed", "truth")), strict=True))
    del frame
    schemes = [
        (None if s.uses_stored_parse else get_parser(s.parser), s.normalizer)
        for s in default_schemes("freeform")
    ]

    def one_row(row: tuple[str | None, str | None, str | None]) -> int:
        raw, parsed, truth = row
        hits = 0
        for preset, normalizer in schemes:
            value = parsed if preset is None else None if raw is None else preset.extract(raw).value
            hits += bool(is_correct(None if value is None else str(value), truth, normalizer))
        hits += bool(is_correct(parsed, truth, "v1"))  # consistency of the stored labels
        low_raw, low_parsed = (raw or "").lower(), (parsed or "").lower()
        for low in (low_raw, low_parsed):
            hits += any(m in low for m in ROLE_MARKERS) + any(m in low for m in BLOCK_MARKERS)
        if raw is not None and "</think>" in low_raw:
            hits += bool(is_correct(strip_think(raw), truth, "v2"))
        return hits

    return {**timed_rows(rows, one_row, float(cap)), "of": len(rows)}


CHILDREN: dict[str, Callable[..., dict[str, Any]]] = {
    "cli": child_cli,
    "extract": child_extract,
    "loop": child_loop,
}


# ------------------------------------------------------------------ parent


def run_measured(cmd: list[str]) -> dict[str, Any]:
    """Run ``cmd``: its wall and CPU seconds, and its stdout."""
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
    return {
        "wall": wall,
        "cpu_total": usage.ru_utime + usage.ru_stime,
        "stdout": stdout,
    }


def measure_child(kind: str, *args: str) -> dict[str, Any]:
    run = run_measured([sys.executable, __file__, "--child", kind, *args])
    result: dict[str, Any] = json.loads(run.pop("stdout").strip().splitlines()[-1])
    return {**run, **result}


def measure_audit(args: list[str], rows: int, tmp: Path) -> dict[str, Any]:
    run = measure_child("cli", "audit", *args, "--quiet", "--out-md", str(tmp / "audit.md"))
    return {**run, "seconds": run["wall"], "cpu": run["cpu_total"], "rows": rows, "of": rows}


def raw_megabytes(parquet: Path) -> float:
    import polars as pl

    raw = pl.scan_parquet(parquet).select(pl.col("raw").str.len_bytes().sum()).collect()
    return float(raw.item()) / 1e6


def package_source() -> str:
    """Which answer_audit is measured: its folder and, inside a git checkout, the commit."""
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


def measure_all(
    n: int, seed: int, presets: list[str], skip_loop: bool, cap: float
) -> dict[str, Any]:
    parquet = generate.ensure_parquet(n, seed)
    runs, metadata = generate.ensure_runs(n, seed)
    report: dict[str, Any] = {"rows": n, "seed": seed, "raw_mb": raw_megabytes(parquet)}
    report.update(package=package_source(), load_before=os.getloadavg(), lines=[])

    def add(section: str, name: str, result: dict[str, Any]) -> None:
        report["lines"].append({"section": section, "name": name, **result})
        print(f"  {section:<8} {name:<20} {result['seconds']:8.2f}s", file=sys.stderr, flush=True)

    for preset in presets:
        add("extract", preset, measure_child("extract", preset, str(parquet), str(cap)))
    with tempfile.TemporaryDirectory(prefix="answer-audit-bench-") as tmp:
        file_args = [str(parquet), *FILE_ARGS, "--group-by", GROUPS]
        add("audit", "from Parquet", measure_audit(file_args, n, Path(tmp)))
        runs_args = ["--runs-dir", str(runs), "--metadata", str(metadata)]
        add("audit", "from SQLite runs", measure_audit(runs_args, n, Path(tmp)))
    if not skip_loop:
        add("loop", "per-row Python loop", measure_child("loop", str(parquet), str(cap)))
    report["load_after"] = os.getloadavg()
    return report


def render(report: dict[str, Any]) -> str:
    raw_mb = report["raw_mb"]
    w = max(20, *(len(line["name"]) for line in report["lines"]))
    load = "/".join(f"{x:.1f}" for x in report["load_before"][:1] + report["load_after"][:1])
    out = [
        f"{report['rows']:,} rows, raw text {raw_mb:.0f} MB (UTF-8), seed {report['seed']}",
        f"answer_audit: {report['package']}",
        f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}, load average before/after {load}",
        "",
        f"{'section':<8} {'measurement':<{w}} {'rows':>10} {'seconds':>8} {'cpu s':>7} "
        f"{'rows/s':>9} {'peak RSS MB':>11} {'RSS/raw':>8}",
    ]
    for line in report["lines"]:
        rate = line["rows"] / line["seconds"] if line["seconds"] else float("inf")
        rows = f"{line['rows']:,}" + ("*" if line["rows"] < line["of"] else "")
        out.append(
            f"{line['section']:<8} {line['name']:<{w}} {rows:>10} {line['seconds']:8.2f} "
            f"{line['cpu']:7.1f} {rate:9,.0f} {line['rss_mb']:11,.0f} "
            f"{line['rss_mb'] / raw_mb:7.2f}x"
        )
    if any(line["rows"] < line["of"] for line in report["lines"]):
        out.append("* stopped at the time cap; rows/s is over the rows done")
    return "\n".join(out)


def verdicts(report: dict[str, Any]) -> list[str]:
    by = {line["name"]: line for line in report["lines"]}
    raw_mb = report["raw_mb"]
    loop = by.get("per-row Python loop")
    out = []
    if report["rows"] < FULL_ROWS:
        out.append(
            f"(targets are set for {FULL_ROWS:,} rows; at {report['rows']:,} they are "
            "indicative: start-up and report time weigh more)"
        )
    for name in ("from Parquet", "from SQLite runs"):
        line = by[name]
        rate = line["rows"] / line["seconds"]
        ok = rate >= TARGET_ROWS_PER_S
        out.append(_check(f"audit {name}: rows/s >= {TARGET_ROWS_PER_S:,}", ok, f"{rate:,.0f}"))
        if loop is not None:
            ratio = rate / (loop["rows"] / loop["seconds"])
            what = f"audit {name}: >= {TARGET_SPEEDUP:g}x the per-row loop"
            out.append(_check(what, ratio >= TARGET_SPEEDUP, f"{ratio:.2f}x"))
        multiple = line["rss_mb"] / raw_mb
        what = f"audit {name}: peak RSS < {TARGET_RSS_MULTIPLE}x raw text"
        out.append(_check(what, multiple < TARGET_RSS_MULTIPLE, f"{multiple:.2f}x"))
    return out


def _check(what: str, ok: bool, shown: str) -> str:
    return f"{'PASS' if ok else 'FAIL'}  {what}: {shown}"


def profile(n: int, seed: int, top: int) -> None:
    """cProfile of the Parquet audit in this process: top functions by cumulative, own time."""
    import cProfile
    import pstats

    import typer

    from answer_audit.cli import app

    parquet = generate.ensure_parquet(n, seed)
    with tempfile.TemporaryDirectory(prefix="answer-audit-bench-") as tmp:
        args = ["audit", str(parquet), *FILE_ARGS, "--group-by", GROUPS, "--quiet"]
        command = typer.main.get_command(app)
        profiler = cProfile.Profile()
        profiler.enable()
        command([*args, "--out-md", f"{tmp}/audit.md"], standalone_mode=False)
        profiler.disable()
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.sort_stats("cumulative").print_stats("answer_audit", top)
    stats.sort_stats("tottime").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:  # one measurement, in this fresh process
        kind, *rest = argv[1:]
        result = CHILDREN[kind](*rest)
        print(json.dumps({**result, **peak_rss_with_workers()}))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--full", action="store_true", help=f"{FULL_ROWS:,} rows")
    parser.add_argument("--rows", type=int, help="any number of rows (overrides --full)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--presets", nargs="*", help="extraction presets (default: all)")
    parser.add_argument("--skip-loop", action="store_true", help="no per-row loop line")
    parser.add_argument("--cap", type=float, default=DEFAULT_CAP_S, help="seconds per row loop")
    parser.add_argument("--json", help="also write the measurements as JSON here")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--profile", action="store_true", help="cProfile the Parquet audit")
    parser.add_argument("--top", type=int, default=15, help="functions shown by --profile")
    args = parser.parse_args(argv)
    n = args.rows or (FULL_ROWS if args.full else QUICK_ROWS)
    if args.profile:
        profile(n, args.seed, args.top)
        return 0
    from answer_audit import list_parsers

    presets = list_parsers() if args.presets is None else args.presets
    report = measure_all(n, args.seed, presets, args.skip_loop, args.cap)
    print(render(report))
    checks = verdicts(report)
    print("\n" + "\n".join(checks))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    missed = any(c.startswith("FAIL") for c in checks)
    return 1 if missed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
