"""Seeded synthetic evaluation rows at benchmark scale, cached as Parquet and SQLite run folders.

    python benchmarks/generate.py [--rows 100000 1000000] [--seed 0]

Rows imitate free-form outputs of real models: raw lengths lognormal (median ~500 characters,
tail clipped at 8 KB) plus a share of one-line answers; ~10% with ``</think>``, ~10% with role
or block tails (``USER:``, ``\\nuser:``, ``ASSISTANT:``, ``Question:`` ...), ~5% with dotted
abbreviations or sub/superscripts; short and long truths, ~15% rows without truth (opinion
items); groups temperature (4) x variant (6) x condition (3). The stored parse is what
``freeform/v1`` extracts and the stored label ``is_correct(parse, truth, "v1")``, as in the
pipelines the audit checks. Both cost a Python call per row, so files are made once and reused:
``benchmarks/data/rows_v{VERSION}_n{N}_s{SEED}.parquet`` and ``.../runs_v{VERSION}_n{N}_s{SEED}/``.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl

from answer_audit.matching import is_correct
from answer_audit.parsers.presets.freeform import FREEFORM_V1
from answer_audit.sources import write_runs
from answer_audit.sources.demo import OPINIONS, WRONG

VERSION = 1  # bump when the rows change, so cached files are not reused
DATA_DIR = Path(__file__).resolve().parent / "data"
METADATA_NAME = "runs_metadata.json"

TEMPERATURES = (0.0, 0.3, 0.7, 1.0)
VARIANTS = ("base", "instruct", "think", "rl-zero", "sft-small", "dpo")
CONDITIONS = ("control", "asch_history_5", "authoritative_bias")
MODEL = "bench-lab/synthetic-8b"
N_ITEMS = 3000
MEDIAN_CHARS = 500
SIGMA = 0.8  # lognormal shape: ~1% of outputs above 3 KB
MAX_CHARS = 8192

# (question, truth, other ways a model writes it: abbreviations, sub/superscripts, prose)
FACTS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("What is the capital of France?", "Paris", ("Paris", "the city of Paris")),
    ("How many legs does a spider have?", "8", ("8", "eight (8)")),
    ("What is 7 + 5?", "12", ("12", "twelve (12)")),
    ("In which year did World War II end?", "1945", ("1945", "in 1945")),
    ("What is the smallest prime number?", "2", ("2", "two")),
    ("What is the largest planet?", "Jupiter", ("**Jupiter**", "the planet Jupiter")),
    ("Which metal has the symbol Au?", "Gold", ("gold (Au)", "Gold")),
    ("What is the capital of Japan?", "Tokyo", ("Tokyo", "東京 (Tokyo)")),
    ("Which organ pumps blood?", "Heart", ("the heart", "Heart")),
    ("Which planet is called the Red Planet?", "Mars", ("Mars", "planet Mars")),
    ("Who wrote Hamlet?", "William Shakespeare", ("Shakespeare", "William Shakespeare")),
    ("Who painted the Mona Lisa?", "Leonardo da Vinci", ("da Vinci", "Leonardo da Vinci")),
    ("What is the currency of the United Kingdom?", "Pound sterling", ("the pound",)),
    ("Who developed the theory of relativity?", "Albert Einstein", ("Einstein",)),
    ("What is the longest river in Africa?", "The Nile River", ("the Nile", "The Nile River")),
    (
        "What did the Treaty of Versailles end?",
        "the state of war between Germany and the Allied Powers",
        ("the war between Germany and the Allies", "the First World War"),
    ),
    (
        "What is the function of mitochondria?",
        "producing energy for the cell",
        ("they produce energy for the cell", "the powerhouse of the cell"),
    ),
    ("Which language has the most native speakers?", "Mandarin Chinese", ("Mandarin",)),
    # Dotted abbreviations and sub/superscripts: the v1 and v2 normalizers disagree on these.
    ("Which country is Washington in?", "U.S.", ("the United States (U.S.)", "the U.S.A.")),
    ("Where is the White House?", "Washington, D.C.", ("Washington DC", "Washington, D.C.")),
    ("What is the chemical formula of water?", "H2O", ("H₂O", "H2O")),
    ("What gas do plants absorb?", "CO2", ("CO₂", "carbon dioxide (CO₂)")),
    ("What is the square of 3?", "9", ("3² = 9", "9")),
    ("Where was the U.N. founded?", "San Francisco", ("San Francisco, U.S.A.",)),
)
SPECIAL = frozenset(range(18, len(FACTS)))  # the abbreviation / sub-superscript facts
SPECIAL_FACTS = tuple(sorted(SPECIAL))
PLAIN_FACTS = tuple(i for i in range(len(FACTS)) if i not in SPECIAL)
ANSWER_FORMS = (
    "{a}.",
    "The answer is {a}.",
    "{a}",
    "**{a}**",
    "Answer: {a}",
    "It is {a}.",
    "Final answer: {a}.",
)
TAILS = (
    "\nUSER: Thanks! And what about {w}?\nASSISTANT: That would be {w}.",
    "\nuser: ok next one\nassistant: {w}",
    "\n\nUSER: {w}?\n\nASSISTANT: {w}.",
    " User: really? Assistant: yes, {w}.",
    "\nASSISTANT: Let me add that {w} is also relevant.",
    "\n\nQuestion: What about {w}?\nAnswer: {w}",
    "\n\nPassage: The history of {w} begins long ago. {f}",
    "\nSYSTEM: You are a helpful assistant.\nUSER: {w}",
)
OPINION_ANSWERS = (
    "It depends on personal taste.",
    "Many people would say the first option.",
    "There is no single answer; it is subjective.",
)
_WORD_TEXT = (
    "the of and to in is that it was for on are as with his they at be this from have or by "
    "one had not but what all were when we there can an your which their said if do will each "
    "about how up out them then she many some so these would other into has more her two like "
    "him see time could no make than first been its who now people my made over did down only "
    "way find use may water long little very after words called just where most know get "
    "through back much before go good new write our used me man too any day same right look "
    "think also around another came come work three word must because does part even place "
    "well such here take why things help put years different away again off went old number "
    "great tell men say small every found still between name should home big give air line set "
    "own under read last never us left end along while might next sound below saw something "
    "thought both few those always looked show large often together asked house world going "
    "want school important until form food keep children feet land side without boy once "
    "animals life enough took sometimes four head above kind began almost live page got earth "
    "need far hand high year mother light parts country father let night following picture "
    "being study second eyes soon times story boys since white days ever paper hard near "
    "sentence better best across during today others however sure means knew try told young "
    "miles sun ways thing whole hear example heard several change answer room sea against top "
    "turned learn point city play toward five using himself usually"
)
WORDS = tuple(_WORD_TEXT.split())


def filler_corpus(rng: random.Random, chars: int = 1 << 21) -> str:
    """Prose-like text to cut explanations and reasoning from (no markers, no </think>)."""
    parts: list[str] = []
    size = 0
    while size < chars:
        words = rng.choices(WORDS, k=rng.randint(6, 22))
        sentence = " ".join(words).capitalize() + rng.choice(
            (". ", ". ", ", ", "; ", ".\n", ".\n\n")
        )
        if rng.random() < 0.03:
            sentence += f"{rng.choice(FACTS)[1]} {rng.choice(WRONG)}. "
        parts.append(sentence)
        size += len(sentence)
    return "".join(parts)


def _items(rng: random.Random) -> list[tuple[str, str | None, int]]:
    """(question, truth, fact index or -1): ~15% opinion items without truth."""
    items: list[tuple[str, str | None, int]] = []
    for k in range(N_ITEMS):
        if rng.random() < 0.15:
            items.append((f"{rng.choice(OPINIONS)} (#{k})", None, -1))
        else:
            # Abbreviation / sub-superscript facts are rarer, so ~5% of raws carry one.
            pool = SPECIAL_FACTS if rng.random() < 0.1 else PLAIN_FACTS
            f = rng.choice(pool)
            items.append((f"{FACTS[f][0]} (#{k})", FACTS[f][1], f))
    return items


def _raw(rng: random.Random, corpus: str, length: int, fact: int, correct: bool,
         kind: float, tail: bool) -> str:  # fmt: skip
    if fact < 0:
        answer = rng.choice(OPINION_ANSWERS)
    elif not correct:
        answer = rng.choice(WRONG)
    else:
        truth, forms = FACTS[fact][1], FACTS[fact][2]
        answer = rng.choice(forms) if fact in SPECIAL or rng.random() < 0.4 else truth
    sentence = rng.choice(ANSWER_FORMS).format(a=answer)
    budget = max(length - len(sentence), 0)
    start = corpus.find(" ", rng.randrange(len(corpus) - 2 * MAX_CHARS)) + 1
    body = corpus[start : start + budget].strip()
    if kind < 0.10:  # reasoning model: thoughts, a closing tag (sometimes an opening one too)
        draft = rng.choice(WRONG) if rng.random() < 0.5 else answer
        head = "<think>" if rng.random() < 0.3 else ""
        text = f"{head}{body}\nMaybe {draft}?\n</think>\n\n{sentence}"
    elif kind < 0.12:  # one-line answers
        text = sentence
    elif kind < 0.55:  # answer first, explanation after
        text = f"{sentence} {body}"
    else:  # work it out, answer at the end
        text = f"{body}\n\nSo, {sentence[0].lower()}{sentence[1:]}"
    if tail:
        extra = corpus[start : start + rng.randint(0, 200)]
        text += rng.choice(TAILS).format(w=rng.choice(WRONG), f=extra)
    return text


def generate_rows(n: int, seed: int = 0) -> pl.DataFrame:
    """``n`` rows in the layout `answer_audit.sources.write_runs` takes; same seed, same rows.

    Computes the stored parse and label per row (a few seconds per 100k rows).
    """
    rng = random.Random(seed)
    nprng = np.random.default_rng(seed)
    corpus = filler_corpus(rng)
    items = _items(rng)
    lengths = np.clip(nprng.lognormal(np.log(MEDIAN_CHARS), SIGMA, n), 1, MAX_CHARS).astype(int)
    kinds = nprng.random(n)
    tails = nprng.random(n) < 0.12
    skill = dict(zip(VARIANTS, (0.55, 0.8, 0.85, 0.7, 0.6, 0.75), strict=True))
    pressure = dict(zip(CONDITIONS, (0.0, 0.15, 0.25), strict=True))
    columns: dict[str, list[object]] = {c: [] for c in (
        "temperature", "model_id", "variant", "condition", "question", "truth", "domain", "raw",
        "parsed", "label",
    )}  # fmt: skip
    for i in range(n):
        temp = TEMPERATURES[i % 4]
        variant = VARIANTS[(i // 4) % 6]
        condition = CONDITIONS[(i // 24) % 3]
        question, truth, fact = items[rng.randrange(N_ITEMS)]
        p = skill[variant] - pressure[condition] - temp * 0.08
        raw = _raw(rng, corpus, int(lengths[i]), fact, rng.random() < p, kinds[i], tails[i])
        parsed = FREEFORM_V1.extract(raw).value
        label = None if truth is None else is_correct(str(parsed), truth, "v1")
        for key, value in (
            ("temperature", temp), ("model_id", MODEL), ("variant", variant),
            ("condition", condition), ("question", question), ("truth", truth),
            ("domain", "opinion" if truth is None else "fact"), ("raw", raw),
            ("parsed", parsed), ("label", label),
        ):  # fmt: skip
            columns[key].append(value)
    schema = {"temperature": pl.Float64, "label": pl.Boolean}
    return pl.DataFrame(
        {k: pl.Series(k, v, dtype=schema.get(k, pl.String)) for k, v in columns.items()}
    )


def parquet_path(n: int, seed: int = 0) -> Path:
    return DATA_DIR / f"rows_v{VERSION}_n{n}_s{seed}.parquet"


def runs_dir(n: int, seed: int = 0) -> Path:
    return DATA_DIR / f"runs_v{VERSION}_n{n}_s{seed}"


def ensure_parquet(n: int, seed: int = 0, log: bool = True) -> Path:
    """The cached Parquet file of ``n`` rows, generated first when absent."""
    path = parquet_path(n, seed)
    if path.exists():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    rows = generate_rows(n, seed)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    rows.write_parquet(tmp)
    os.replace(tmp, path)
    if log:
        print(f"generated {path.name} in {time.perf_counter() - started:.1f}s", file=sys.stderr)
    return path


def ensure_runs(n: int, seed: int = 0, log: bool = True) -> tuple[Path, Path]:
    """The cached SQLite run folders of ``n`` rows and their metadata file."""
    out = runs_dir(n, seed)
    metadata = out / METADATA_NAME
    if metadata.exists():
        return out, metadata
    rows = pl.read_parquet(ensure_parquet(n, seed, log))
    started = time.perf_counter()
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    write_runs(rows, tmp)
    os.replace(tmp, out)
    if log:
        print(f"wrote {out.name}/ in {time.perf_counter() - started:.1f}s", file=sys.stderr)
    return out, metadata


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for n in args.rows:
        print(ensure_parquet(n, args.seed))
        print(ensure_runs(n, args.seed)[1])


if __name__ == "__main__":
    main()
