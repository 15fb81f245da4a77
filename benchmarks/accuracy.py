"""Agreement of every parser preset with the human labels in tests/labels/, per split.

    python benchmarks/accuracy.py [--split dev|test|all] [--json FILE] [--real DIR]
                                  [--held-out] [--by source|shape] [--misses READER]
                                  [--corpus-only] [--errors]

Two parts. First the sets the released presets were built on (both splits, as before); then the
broad corpus (tests/labels/corpus_*.jsonl, `corpus_accuracy`), whose held-out split is printed
only with ``--held-out``: one table per corpus (choice, number, freeform), a row per source
(``--by shape``: per answer shape) and a column per preset.

Datasets of the first part (see tests/labels/README.md):
- ``statutes``: 108 real Japanese multiple-choice outputs (all long), label = the choice the
  model gave (or none); a preset agrees when it extracts that choice, or nothing for none;
- ``short`` and ``cot``: tests/labels/synthetic_choice.jsonl, written by hand;
- ``conformity``: 1080 real free-form answers, label = the answer states the truth; a
  preset + matcher agrees when `is_correct` equals the label;
- ``consensus``: the conformity rows on which a second, independent labeller
  (tests/labels/conformity_second.jsonl) gave the same label; the row ``(second labeller)``
  is that labeller's agreement with the first, the ceiling any preset can be measured against;
- ``adjudicated``: every conformity row, labelled by the majority of three readers: the first
  and second labels where they agree, a third, blind reading
  (tests/labels/conformity_third.jsonl) where they do not.

Every row belongs to the dev or the test split by a hash of its id (`split_of`); presets were
tuned on dev only. Rows of the real data are skipped (and said so) when ``--real`` is absent.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from answer_audit import extract, get_parser, is_correct, list_parsers
from answer_audit.parsers.options import parse_options

# benchmarks/ is not a package: the corpus module beside this script is found by path, both when
# this runs as a script and when a test loads it by file location
sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_accuracy

ROOT = Path(__file__).resolve().parents[1]
LABELS = ROOT / "tests" / "labels"
REAL = ROOT.parent / "shared" / "data" / "real"
SPLITS = ("dev", "test")
FREEFORM_PRESETS = ("freeform/v1", "freeform/v2", "freeform/v3", "freeform/v4")
MATCHERS = ("v1", "v2", "v3", "v4", "v5")


def split_of(key: str) -> str:
    """``test`` for about a third of the ids, ``dev`` for the rest, by SHA-256 of ``key``.

    Keys: ``<file>#<index>`` (statutes), ``<file>#<trial_id>`` (conformity),
    ``synthetic_choice#<id>`` (synthetic choice set).
    """
    return "test" if int(hashlib.sha256(key.encode()).hexdigest(), 16) % 3 == 0 else "dev"


@dataclass(frozen=True)
class Item:
    """One labelled output."""

    key: str
    dataset: str  # statutes | short | cot | conformity
    text: str
    label: str | bool | None
    truth: str | None = None
    options: tuple[str, ...] | dict[str, str] | None = None
    second: bool | None = None  # the second labeller's label (conformity only)
    third: bool | None = None  # the third reading, only where the first two disagree

    @property
    def adjudicated(self) -> str | bool | None:
        """The majority of the three readings (the third is read only on a disagreement)."""
        return self.label if self.second is None or self.second == self.label else self.third

    @property
    def split(self) -> str:
        return split_of(self.key)


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def statutes_items(real: Path) -> Iterator[Item]:
    results: dict[str, list[dict[str, Any]]] = {}
    for row in _jsonl(LABELS / "statutes.jsonl"):
        name = row["file"]
        if name not in results:
            data = json.loads((real / "statutes" / f"{name}.json").read_text(encoding="utf-8"))
            results[name] = data["results"]
        result = results[name][row["index"]]
        yield Item(
            f"{name}#{row['index']}",
            "statutes",
            result["response"],
            row["label"],
            options=parse_options(result["choices"]),
        )


def synthetic_items() -> Iterator[Item]:
    for row in _jsonl(LABELS / "synthetic_choice.jsonl"):
        options = tuple(row["choices"]) if row.get("choices") else None
        yield Item(
            f"synthetic_choice#{row['id']}", row["kind"], row["text"], row["label"], None, options
        )


SECOND_LABELLER = "(second labeller)"
FIRST_LABELLER = "(first labeller)"


def conformity_items(real: Path) -> Iterator[Item]:
    rows: dict[str, dict[str, dict[str, str]]] = {}
    second = {
        (r["file"], r["trial_id"]): r["label"] for r in _jsonl(LABELS / "conformity_second.jsonl")
    }
    third = {
        (r["file"], r["trial_id"]): r["label"] for r in _jsonl(LABELS / "conformity_third.jsonl")
    }
    for row in _jsonl(LABELS / "conformity.jsonl"):
        name = row["file"]
        if name not in rows:
            with (real / "conformity" / f"{name}.csv").open(newline="", encoding="utf-8") as fh:
                rows[name] = {r["trial_id"]: r for r in csv.DictReader(fh)}
        source = rows[name][row["trial_id"]]
        yield Item(
            f"{name}#{row['trial_id']}",
            "conformity",
            source["raw_text"],
            row["label"],
            source["ground_truth_text"],
            second=second[(name, row["trial_id"])],
            third=third.get((name, row["trial_id"])),
        )


def load_items(real: Path | None = REAL) -> list[Item]:
    """Every labelled item; the real-data ones only when ``real`` holds the data."""
    items = list(synthetic_items())
    if real is not None and (real / "statutes").is_dir() and (real / "conformity").is_dir():
        items += [*statutes_items(real), *conformity_items(real)]
    return items


# ------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class Cell:
    """Agreement of one preset (+ matcher) with one dataset's labels on one split."""

    preset: str
    dataset: str
    split: str
    agree: int
    n: int

    @property
    def rate(self) -> float:
        return self.agree / self.n if self.n else float("nan")


def choice_agrees(preset: str, item: Item) -> bool:
    found = extract(item.text, preset, choices_text=item.options)
    return found.value == item.label


def freeform_says(preset: str, matcher: str, item: Item) -> bool:
    """Whether ``preset``'s answer region states the truth by ``matcher``."""
    value = extract(item.text, preset).value
    return is_correct(None if value is None else str(value), item.truth, matcher)


def freeform_agrees(preset: str, matcher: str, item: Item) -> bool:
    return freeform_says(preset, matcher, item) == item.label


def score(items: list[Item], splits: tuple[str, ...] = SPLITS) -> list[Cell]:
    """One cell per (preset, dataset, split) present in ``items``."""
    cells = []
    choice_presets = [p for p in list_parsers() if get_parser(p).family == "choice"]
    for dataset in ("statutes", "short", "cot", "conformity"):
        for split in splits:
            chosen = [i for i in items if i.dataset == dataset and i.split == split]
            if not chosen:
                continue
            if dataset == "conformity":
                consensus = [i for i in chosen if i.second == i.label]
                for preset in FREEFORM_PRESETS:
                    for matcher in MATCHERS:
                        says = [freeform_says(preset, matcher, i) for i in chosen]
                        agrees = [s == i.label for s, i in zip(says, chosen, strict=True)]
                        name = f"{preset}:{matcher}"
                        cells.append(Cell(name, dataset, split, sum(agrees), len(chosen)))
                        on_consensus = sum(
                            a for a, i in zip(agrees, chosen, strict=True) if i.second == i.label
                        )
                        cells.append(Cell(name, "consensus", split, on_consensus, len(consensus)))
                        on_majority = sum(
                            s == i.adjudicated for s, i in zip(says, chosen, strict=True)
                        )
                        cells.append(Cell(name, "adjudicated", split, on_majority, len(chosen)))
                cells.append(Cell(SECOND_LABELLER, dataset, split, len(consensus), len(chosen)))
                for name, reading in ((FIRST_LABELLER, "label"), (SECOND_LABELLER, "second")):
                    same = sum(getattr(i, reading) == i.adjudicated for i in chosen)
                    cells.append(Cell(name, "adjudicated", split, same, len(chosen)))
            else:
                for preset in choice_presets:
                    agree = sum(choice_agrees(preset, i) for i in chosen)
                    cells.append(Cell(preset, dataset, split, agree, len(chosen)))
    return cells


def markdown_table(cells: list[Cell]) -> str:
    """Rows: presets; columns: dataset x split, as agree/n (percent)."""
    datasets = list(dict.fromkeys(c.dataset for c in cells))
    columns = sorted(
        dict.fromkeys((c.dataset, c.split) for c in cells),
        key=lambda col: (datasets.index(col[0]), SPLITS.index(col[1])),
    )
    presets = list(dict.fromkeys(c.preset for c in cells))
    by = {(c.preset, c.dataset, c.split): c for c in cells}
    head = "| preset | " + " | ".join(f"{d} {s}" for d, s in columns) + " |"
    lines = [head, "|---" * (len(columns) + 1) + "|"]
    for preset in presets:
        row = []
        for d, s in columns:
            c = by.get((preset, d, s))
            row.append("" if c is None else f"{c.agree}/{c.n} ({100 * c.rate:.1f}%)")
        lines.append(f"| `{preset}` | " + " | ".join(row) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--split", choices=("dev", "test", "all"), default="all")
    parser.add_argument("--json", type=Path, help="also write the cells as JSON")
    parser.add_argument("--real", type=Path, default=REAL, help="the real data folder")
    parser.add_argument(
        "--held-out",
        action="store_true",
        help="also score the corpus's held-out splits (test, and the blind fresh files)",
    )
    parser.add_argument("--by", choices=("source", "shape"), default="source")
    parser.add_argument("--misses", metavar="READER", help="list the corpus cases READER misses")
    parser.add_argument("--corpus-only", action="store_true", help="skip the first part")
    parser.add_argument(
        "--errors",
        action="store_true",
        help="after each corpus table, each reader's disagreements by kind (silent or not)",
    )
    args = parser.parse_args(argv)
    splits = SPLITS if args.split == "all" else (args.split,)
    cells: list[Cell] = []
    if not args.corpus_only:
        items = load_items(args.real)
        if not any(i.dataset == "statutes" for i in items):
            print(
                f"note: real data not found at {args.real}; synthetic labels only", file=sys.stderr
            )
        cells = score(items, splits)
        print(markdown_table(cells))
    corpus_splits = tuple(s for s in splits if s == "dev" or args.held_out)
    if args.held_out and args.split != "dev":
        corpus_splits += corpus_accuracy.FRESH_SPLITS  # the blind files, where a corpus has them
    if "test" in splits and not args.held_out:
        print("note: the corpus's held-out split is shown only with --held-out", file=sys.stderr)
    tallies = print_corpus(corpus_splits, args.by, args.misses, errors=args.errors)
    if args.json:
        # a corpus tally as a cell of the same keys: dataset "corpus-<corpus>:<source or shape>"
        rows = [asdict(c) for c in cells] + [
            asdict(Cell(t.reader, f"corpus-{t.corpus}:{t.group}", t.split, t.agree, t.n))
            for t in tallies
        ]
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


def print_corpus(
    splits: tuple[str, ...], by: str, missed_by: str | None, *, errors: bool = False
) -> list[corpus_accuracy.Tally]:
    """Print the corpus tables (with ``errors``, each followed by its readers' disagreements
    by kind; and the misses of one reader); return every tally."""
    tallies = []
    for corpus in corpus_accuracy.CORPORA:
        cases = corpus_accuracy.load_cases(corpus)
        found = corpus_accuracy.score_corpus(corpus, cases, splits, by)
        tallies += found
        for split in splits:
            n = sum(c.split == split for c in cases)
            if not n and split in corpus_accuracy.FRESH_SPLITS:
                continue  # this corpus has no such held-out file
            print(f"\n### {corpus} corpus, {split} split ({n} cases)\n")
            print(corpus_accuracy.corpus_table(found, split, by))
            if errors:
                print(f"\n{corpus}, {split}: disagreements by kind\n")
                print(corpus_accuracy.error_table(found, split))
        if missed_by in corpus_accuracy.readers(corpus):
            shown = [c for c in cases if c.split in splits]
            print(f"\n#### {missed_by} misses ({', '.join(splits)})\n")
            print("\n".join(corpus_accuracy.misses(corpus, missed_by, shown)) or "(none)")
    return tallies


if __name__ == "__main__":
    sys.exit(main())
