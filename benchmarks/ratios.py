"""Throughput of a preset against the framework regex it replaces, in one run on the same texts.

    python benchmarks/ratios.py [--rows 4000] [--repeats 5] [--seed 0] [--json FILE]

Each pair runs a preset and a baseline (a framework's own extraction regex) over the same seeded
chain-of-thought texts, interleaved, best of ``--repeats`` passes each, and reports rows per
second and the ratio preset / baseline with its target:

- ``number/v2``, ``number/v3`` and ``number/v4`` against lm-eval's GSM8K ``flexible-extract``
  filter, the regex ``(-?[$0-9.,]{2,})|(-?[0-9]+)`` with its last match: target ratio >= 1/2.

The texts imitate GSM8K-style chain-of-thought outputs (lognormal length, median about 600
characters): a few worked steps with their arithmetic, then the final answer in one of the
conventions models use (``The answer is N.``, ``#### N``, ``\\boxed{N}``, Minerva's "Final
Answer: The final answer is $N$", ``**Answer:** N``, a localized prefix, or no prefix at all).
A second table repeats the measurement on the dev split of the number corpus (short texts,
where a Python call's fixed cost weighs most). Exit code 1 when a target is missed and
``--strict`` is given.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from answer_audit import get_parser

LABELS = Path(__file__).resolve().parents[1] / "tests" / "labels"
# lm-eval's gsm8k.yaml `flexible-extract` filter: the last match of this regex
_FLEXIBLE = re.compile(r"(-?[$0-9.,]{2,})|(-?[0-9]+)")


def flexible_extract(text: str) -> str | None:
    """lm-eval's ``flexible-extract`` regex, its last match (as the filter takes it)."""
    found = _FLEXIBLE.findall(text)
    return next(g for g in found[-1] if g) if found else None


@dataclass(frozen=True)
class Pair:
    """A preset, the baseline it is measured against, and the least ratio it must reach."""

    preset: str
    baseline: str
    run_baseline: Callable[[str], object]
    target: float


PAIRS = (
    Pair("number/v2", "lm-eval flexible-extract", flexible_extract, 0.5),
    Pair("number/v3", "lm-eval flexible-extract", flexible_extract, 0.5),
    Pair("number/v4", "lm-eval flexible-extract", flexible_extract, 0.5),
)

_NAMES = ("Maya", "Tom", "Ana", "Li", "Omar", "Sara", "Ken", "Priya")
_ITEMS = ("apples", "marbles", "cookies", "stickers", "pencils", "eggs", "books", "cards")
_STEPS = (
    "{name} has {a} {item}. {pronoun} buys {b} more, so {pronoun_l} has {a} + {b} = {s} {item}.",
    "Each box holds {a} {item}, and there are {b} boxes: {a} × {b} = {p} {item} in all.",
    "{name} gives away {b} of the {s} {item}, so {s} - {b} = {a} {item} are left.",
    "Half of the {e} {item} is {e} / 2 = {h}, so {h} {item} go to the class.",
    "The {item} cost ${a}.50 each, so {b} of them cost ${a}.50 × {b} = ${c:,}.",
    "Let's check the units: {a} groups of {b} make {p}, which matches the total above.",
    "We know the store sold {b}% of its {e} {item} on Monday.",
)
_FINALS = (
    "The answer is {n}.",
    "#### {n}",
    "So the total is $\\boxed{{{n}}}$.",
    "Final Answer: The final answer is ${n}$. I hope it is correct.",
    "**Answer:** {n}",
    "So {name} has {n} {item} left.",
    "Die Antwort lautet {n}.",
    "Therefore, the answer is {n} {item}.",
)


def chain_of_thought_texts(rows: int, seed: int = 0) -> list[str]:
    """``rows`` seeded GSM8K-style chain-of-thought outputs (see the module docstring)."""
    rng = random.Random(seed)
    texts = []
    for _ in range(rows):
        target = min(6000, max(120, int(rng.lognormvariate(6.4, 0.6))))
        name, item = rng.choice(_NAMES), rng.choice(_ITEMS)
        parts = ["Let's solve this step by step."]
        while sum(len(p) for p in parts) < target:
            a, b = rng.randint(2, 99), rng.randint(2, 40)
            e = 2 * rng.randint(2, 500)
            step = rng.choice(_STEPS).format(
                name=name, item=item, a=a, b=b, s=a + b, p=a * b, e=e, h=e // 2,
                c=(2 * a + 1) * b // 2, pronoun="She", pronoun_l="she",
            )  # fmt: skip
            parts.append(step)
        final = rng.choice(_FINALS).format(n=rng.randint(1, 5000), name=name, item=item)
        texts.append("\n".join(parts) + "\n\n" + final)
    return texts


def corpus_texts() -> list[str]:
    """The texts of the number corpus's dev split (tests/labels/corpus_number.jsonl)."""
    rows = [json.loads(line) for line in (LABELS / "corpus_number.jsonl").open(encoding="utf-8")]
    return [row["text"] for row in rows if row.get("split") == "dev"]


def one_pass(fn: Callable[[str], object], texts: list[str]) -> float:
    """CPU seconds of one pass (CPU time: other processes on a shared machine do not count)."""
    started = time.process_time()
    for text in texts:
        fn(text)
    return time.process_time() - started


def measure(pair: Pair, texts: list[str], repeats: int) -> dict[str, float]:
    """Best-of-``repeats`` seconds for the preset and the baseline, passes interleaved."""
    preset = get_parser(pair.preset).extract
    seconds = {"preset": float("inf"), "baseline": float("inf")}
    for _ in range(repeats):
        seconds["baseline"] = min(seconds["baseline"], one_pass(pair.run_baseline, texts))
        seconds["preset"] = min(seconds["preset"], one_pass(preset, texts))
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=4000, help="chain-of-thought texts")
    parser.add_argument("--repeats", type=int, default=5, help="passes; the best one counts")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="also write the results as JSON here")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    sets = {
        "chain-of-thought": chain_of_thought_texts(args.rows, args.seed),
        "number corpus (dev)": corpus_texts(),
    }
    results, missed = [], []
    print("| texts | preset | baseline | preset rows/s | baseline rows/s | ratio | target |")
    print("|---|---|---|---:|---:|---:|---:|")
    for label, texts in sets.items():
        mb = sum(len(t.encode()) for t in texts) / 2**20
        for pair in PAIRS:
            seconds = measure(pair, texts, args.repeats)
            ratio = seconds["baseline"] / seconds["preset"]
            ok = ratio >= pair.target
            if label == "chain-of-thought" and not ok:
                missed.append(pair.preset)
            print(
                f"| {label} ({len(texts):,}, {mb:.1f} MB) | `{pair.preset}` | {pair.baseline} "
                f"| {len(texts) / seconds['preset']:,.0f} | {len(texts) / seconds['baseline']:,.0f} "
                f"| {ratio:.2f} | >= {pair.target:g}{'' if ok else ' MISSED'} |"
            )
            results.append({"texts": label, "preset": pair.preset, **seconds, "ratio": ratio})
    verdict = "PASS" if not missed else "FAIL: " + ", ".join(missed)
    print(f"\ntargets on the chain-of-thought texts: {verdict}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2), encoding="utf-8")
    return 1 if missed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
