"""Speed ratios: a preset's throughput against the one compiled regex a framework would run,
on the same texts, in one run (so a busy machine slows both alike).

    python benchmarks/choice_ratios.py [--rows 20000] [--hard 0.10]

Texts: `cot.cot_outputs` (seeded multiple-choice chains of thought, about 1.6 KB each, ending in
framework answer conventions; ``--hard`` of them harder to read). Each reader runs row by row, as
an audit runs a preset (``preset.extract(text)``, no caching), best of 3, in CPU seconds. The
ratio is the preset's rows per second over the baseline's; ``choice/v5`` targets >= 1/3 of
``Answer\\s*:\\s*([A-D])``. The older presets are shown for comparison (on a sample of the rows:
they are slow). A last table splits each targeted preset's time between the rows its
terminal-answer rule decides and the rest. Exit code 1 when a target is missed and ``--strict``
is given.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cot import cot_outputs

from answer_audit import get_parser

ANSWER_COLON = re.compile(r"Answer\s*:\s*([A-D])")


@dataclass(frozen=True)
class Ratio:
    """One preset against one baseline regex."""

    preset: str
    baseline: str
    search: Callable[[str], object]
    target: float | None  # the least ratio asked for; None: shown for comparison
    sample: int | None = None  # rows to time (the rate is per row; slow presets take fewer)


RATIOS = (
    Ratio("choice/v10", "Answer\\s*:\\s*([A-D])", ANSWER_COLON.search, 1 / 3),
    Ratio("choice/v11", "Answer\\s*:\\s*([A-D])", ANSWER_COLON.search, 1 / 3),
    Ratio("choice/v12", "Answer\\s*:\\s*([A-D])", ANSWER_COLON.search, 1 / 3),
    Ratio("choice/v9", "Answer\\s*:\\s*([A-D])", ANSWER_COLON.search, 1 / 3),
    Ratio("choice/v8", "Answer\\s*:\\s*([A-D])", ANSWER_COLON.search, 1 / 3),
    Ratio("choice/v7", "Answer\\s*:\\s*([A-D])", ANSWER_COLON.search, 1 / 3),
    Ratio("choice/v6", "Answer\\s*:\\s*([A-D])", ANSWER_COLON.search, 1 / 3),
    Ratio("choice/v5", "Answer\\s*:\\s*([A-D])", ANSWER_COLON.search, 1 / 3),
    Ratio("choice/v4", "Answer\\s*:\\s*([A-D])", ANSWER_COLON.search, None, 2000),
    Ratio("choice/v3", "Answer\\s*:\\s*([A-D])", ANSWER_COLON.search, None, 5000),
)


def cpu_seconds(work: Callable[[str], object], texts: Sequence[str], repeats: int = 3) -> float:
    """Best CPU time of ``repeats`` passes of ``work`` over ``texts``."""
    best = float("inf")
    for _ in range(repeats):
        started = time.process_time()
        for text in texts:
            work(text)
        best = min(best, time.process_time() - started)
    return best


def measure(ratio: Ratio, texts: Sequence[str]) -> dict[str, float]:
    """Rows per second of the baseline and of the preset, and their ratio."""
    base = len(texts) / cpu_seconds(ratio.search, texts)
    preset = get_parser(ratio.preset)
    sample = texts[: ratio.sample] if ratio.sample else texts
    rate = len(sample) / cpu_seconds(preset.extract, sample)
    return {"baseline": base, "preset": rate, "ratio": rate / base}


def where_time_goes(name: str, texts: Sequence[str]) -> str | None:
    """For a preset with the terminal-answer rule: the share of rows that rule decides and the
    CPU time per row of those and of the rest (the full reading), in microseconds."""
    preset = get_parser(name)
    if not getattr(preset, "terminal", False):
        return None
    quick = [t for t in texts if preset.extract(t).rule == "final-answer-line"]
    rest = [t for t in texts if preset.extract(t).rule != "final-answer-line"]
    parts = [f"{name}: {len(quick) / len(texts):.1%} of rows by final-answer-line"]
    for label, subset in (("those", quick), ("the rest", rest)):
        if subset:
            micro = cpu_seconds(preset.extract, subset) / len(subset) * 1e6
            parts.append(f"{label} {micro:,.1f} us/row")
    return ", ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--hard", type=float, default=0.10, help="share of harder outputs")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    texts = cot_outputs(args.rows, hard=args.hard)
    size = sum(len(t.encode()) for t in texts) / len(texts)
    print(f"speed ratios on {len(texts):,} chain-of-thought outputs ({size:,.0f} bytes on average, "
          f"{args.hard:.0%} harder ones), CPU seconds, best of 3")  # fmt: skip
    print(f"{'preset':<12} {'baseline':<24} {'baseline rows/s':>16} {'preset rows/s':>14} "
          f"{'ratio':>7}  target")  # fmt: skip
    missed = []
    for ratio in RATIOS:
        row = measure(ratio, texts)
        target = "-" if ratio.target is None else f">= {ratio.target:.2f}"
        ok = ratio.target is None or row["ratio"] >= ratio.target
        if not ok:
            missed.append(ratio.preset)
        print(f"{ratio.preset:<12} {ratio.baseline:<24} {row['baseline']:>16,.0f} "
              f"{row['preset']:>14,.0f} {row['ratio']:>7.3f}  {target}"
              f"{'' if ok else '  MISSED'}")  # fmt: skip
    base = len(texts) / cpu_seconds(ANSWER_COLON.search, texts)
    print(f"\nwhere the time goes (the baseline: {1e6 / base:.2f} us/row)")
    for ratio in RATIOS:
        if ratio.target is not None and (line := where_time_goes(ratio.preset, texts)):
            print(line)
    return 1 if missed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
