"""Look for catastrophic backtracking: short runs of two pieces after a trigger, every preset.

    python benchmarks/scan.py [--limit 0.5] [--report 0.2]

Each text is a trigger ("", "answer", "answer: ", "回答", "\\boxed{", "Antwort: ", ...) followed
by 40 repeats of a one- or two-piece unit built from markdown, LaTeX, brackets, quotes, spaces,
option words, digits and fractions, then an "x" (so no answer follows and a regex must give
up). Every built-in preset and matcher runs on each text with a time limit of ``--limit``
seconds; calls slower than ``--report`` seconds are printed. Then `choice_ratios.py` prints
choice/v5's throughput against one compiled ``Answer:`` regex (``--no-ratios`` skips it). A short text that takes long means
a pattern backtracks exponentially; `hostile.py` then measures the shape at full size. Exit
code 1 when any call was that slow and ``--strict`` is given.
"""

from __future__ import annotations

import argparse
import itertools
import signal
import sys
import time
from collections.abc import Callable

import choice_ratios  # beside this script (benchmarks/ is not a package)

from answer_audit import extract, is_correct, list_parsers

PIECES = ("$", "*", "_", '"', "“", "(", ")", "[", "\\boxed{", "{", "}", "\n", " ", "\t", "is ",
          "option ", "**", "1", ",", ".", "-", "#", ">", ":", "：", "）", "（", "</think>",
          "q:", "user:", "a", "b ", "x", "は", "、", "e", "%", "/", "^", "=", "\\", "&", "½",
          "\\frac{", "×")  # fmt: skip
TRIGGERS = ("", "answer", "answer: ", "Answer:", "回答", "the answer is ", "#### ", "\\boxed{",
            "final answer: ", "Final Answer: The final answer is $", "Antwort: ")  # fmt: skip
REPEATS = 40


class _Slow(Exception):
    pass


def _alarm(*_: object) -> None:
    raise _Slow


def jobs() -> list[tuple[str, Callable[[str], object]]]:
    found: list[tuple[str, Callable[[str], object]]] = [
        (name, lambda text, name=name: extract(text, name)) for name in list_parsers()
    ]
    found += [(f"is_correct/{n}", lambda text, n=n: is_correct(text, "8", n))
              for n in ("v1", "v2", "v3", "v4", "v5", "numeric")]  # fmt: skip
    found.append(("is_correct/v3 (word)", lambda text: is_correct(text, "Paris", "v3")))
    found.append(("is_correct/v4 (word)", lambda text: is_correct(text, "Paris", "v4")))
    found.append(("is_correct/v5 (word)", lambda text: is_correct(text, "Paris", "v5")))
    found.append(("is_correct/v5 (date)", lambda text: is_correct(text, "4 May 2001", "v5")))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=0.5, help="seconds before a call is cut")
    parser.add_argument("--report", type=float, default=0.2, help="print calls slower than this")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a call was slow")
    parser.add_argument(
        "--no-ratios", action="store_true", help="skip choice_ratios.py (choice/v5's speed ratio)"
    )
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _alarm)
    slow, calls, started = 0, 0, time.monotonic()
    work = jobs()
    for trigger in TRIGGERS:
        for a, b in itertools.product(PIECES, PIECES):
            text = trigger + (a if a == b else a + b) * REPEATS + "x"
            for name, run in work:
                calls += 1
                signal.setitimer(signal.ITIMER_REAL, args.limit)
                t0 = time.perf_counter()
                try:
                    run(text)
                    seconds = time.perf_counter() - t0
                except _Slow:
                    seconds = float("inf")
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
                if seconds > args.report:
                    slow += 1
                    shown = "cut" if seconds == float("inf") else f"{seconds:.2f}s"
                    print(f"SLOW {shown:>6} {name:<24} {text[:60]!r}", flush=True)
    took = time.monotonic() - started
    print(f"{calls:,} calls on {len(TRIGGERS) * len(PIECES) ** 2:,} texts in {took:.0f} s: "
          f"{slow} slower than {args.report} s")  # fmt: skip
    missed = 0 if args.no_ratios else choice_ratios.main(["--strict"] if args.strict else [])
    return 1 if (slow or missed) and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
