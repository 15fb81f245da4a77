"""Synthetic but realistic evaluation runs behind `answer-audit demo` and `make demo`.

Seeded: the same seed always gives byte-identical rows. Outputs imitate the failure modes of
real base, instruct and reasoning models (dialogue tails, stray ``</think>``, dotted
abbreviations, sub/superscripts, Markdown wrappers) over factual and opinion items.
"""

from __future__ import annotations

import random
import shutil
import tempfile
from pathlib import Path

import polars as pl

from answer_audit.matching import is_correct
from answer_audit.parsers.presets.freeform import FREEFORM_V1
from answer_audit.sources import SourceError, write_runs

DEMO_MARKER = ".answer-audit-demo"

# (question, truth, a variant of the truth a model may write instead)
FACTS: tuple[tuple[str, str, str], ...] = (
    ("What is the capital of France?", "Paris", "Paris"),
    ("Which country is Washington in?", "U.S.", "the United States (U.S.)"),
    ("What is the chemical formula of water?", "H2O", "H₂O"),
    ("What is 7 + 5?", "12", "twelve (12)"),
    ("Who wrote Hamlet?", "William Shakespeare", "Shakespeare"),
    ("What is the largest planet?", "Jupiter", "**Jupiter**"),
    ("Where is the White House?", "Washington, D.C.", "Washington DC"),
    ("What is the square of 3?", "9", "3² = 9"),
    ("What gas do plants absorb?", "CO2", "CO₂"),
    ("How many continents are there?", "7", "seven"),
    ("What is the capital of Japan?", "Tokyo", "Tokyo"),
    ("Which metal has the symbol Au?", "Gold", "gold (Au)"),
    ("What is the boiling point of water in Celsius?", "100", "100 °C"),
    ("Who painted the Mona Lisa?", "Leonardo da Vinci", "da Vinci"),
    ("What is the fastest land animal?", "Cheetah", "the cheetah"),
    ("How many legs does a spider have?", "8", "8"),
    ("What is the smallest prime number?", "2", "2"),
    ("Which organ pumps blood?", "Heart", "the heart"),
    ("What is the capital of Italy?", "Rome", "Rome"),
    ("In which year did World War II end?", "1945", "1945"),
    ("What is the currency of the U.K.?", "Pound sterling", "the pound"),
    ("Which element has atomic number 1?", "Hydrogen", "hydrogen (H)"),
    ("What is the longest river in Africa?", "Nile", "The Nile"),
    ("How many minutes are in an hour?", "60", "60"),
    ("Which planet is called the Red Planet?", "Mars", "Mars"),
    ("Who developed the theory of relativity?", "Albert Einstein", "Einstein"),
    ("What is the hardest natural substance?", "Diamond", "diamond"),
    ("What is the capital of Canada?", "Ottawa", "Ottawa"),
    ("What is the freezing point of water in Fahrenheit?", "32", "32°F"),
    ("Which ocean is the largest?", "Pacific", "the Pacific Ocean"),
    ("Where was the U.N. founded?", "San Francisco", "San Francisco, U.S.A."),
    ("What is the formula of table salt?", "NaCl", "NaCl"),
    ("How many sides does a hexagon have?", "6", "six"),
    ("Which language has the most native speakers?", "Mandarin", "Mandarin Chinese"),
    ("What is the capital of Australia?", "Canberra", "Canberra"),
    ("Who was the first U.S. president?", "George Washington", "George Washington"),
)
OPINIONS = (
    "What is the best cuisine?",
    "Which season is the most pleasant?",
    "Is remote work better than office work?",
    "What is the most beautiful city?",
    "Which programming language is the nicest?",
    "Are cats better than dogs?",
)
WRONG = ("London", "Berlin", "Madrid", "42", "Venus", "Newton", "Saturn", "17", "Oslo", "Copper")
TAILS = (
    "\nUSER: Thanks! And what about {other}?\nASSISTANT: That would be {wrong}.",
    "\n\nQuestion: {other}\nAnswer: {wrong}",
    "\nuser: ok next one\nassistant: {wrong}",
    "\n\nPassage: The history of {wrong} begins long ago.",
    " User: really? Assistant: yes, {wrong}.",
)
VARIANTS = ("base", "instruct", "think", "rl-zero")
CONDITIONS = ("control", "asch_history_5", "authoritative_bias")
TEMPERATURES = (0.0, 0.3, 0.7, 1.0)
MODEL = "demo-lab/tiny-7b"


def _answer(rng: random.Random, truth: str, variant_text: str, correct: bool) -> str:
    if not correct:
        return rng.choice(WRONG)
    return variant_text if rng.random() < 0.45 else truth


def _raw_output(rng: random.Random, variant: str, temp: float, fact: tuple[str, str, str],
                correct: bool, other: str) -> str:  # fmt: skip
    _question, truth, variant_text = fact
    answer = _answer(rng, truth, variant_text, correct)
    text = rng.choice([f"{answer}.", f"The answer is {answer}.", f"{answer}", f"It is {answer}."])
    if variant == "think" or (variant == "rl-zero" and rng.random() < 0.3):
        draft = rng.choice(WRONG) if rng.random() < 0.5 else truth
        text = f"Let me think. Maybe {draft}? Checking the facts again.\n</think>\n{text}"
        if rng.random() < 0.1:
            text = "<think>" + text
    tail_p = {"base": 0.45, "instruct": 0.08, "think": 0.12, "rl-zero": 0.3}[variant] + temp * 0.1
    if rng.random() < tail_p:
        text += rng.choice(TAILS).format(other=other, wrong=rng.choice(WRONG))
    return text


def _opinion_output(rng: random.Random, question: str) -> str:
    text = rng.choice(["It depends on personal taste.", "Many people would say the first option.",
                       "There is no single answer; it is subjective."])  # fmt: skip
    if rng.random() < 0.3:
        text += "\nUSER: Fair enough.\nASSISTANT: Glad to help."
    return text


def demo_rows(seed: int = 0) -> pl.DataFrame:
    """Rows in the layout `sources.write_runs` takes: one per (temperature, variant, condition, item)."""
    rng = random.Random(seed)
    skill = {"base": 0.55, "instruct": 0.8, "think": 0.85, "rl-zero": 0.7}
    pressure = {"control": 0.0, "asch_history_5": 0.15, "authoritative_bias": 0.25}
    rows: list[dict[str, object]] = []
    for temp in TEMPERATURES:
        for variant in VARIANTS:
            for condition in CONDITIONS:
                for k, fact in enumerate(FACTS):
                    p = skill[variant] - pressure[condition] - temp * 0.08
                    other = FACTS[(k + 1) % len(FACTS)][0]
                    raw = _raw_output(rng, variant, temp, fact, rng.random() < p, other)
                    rows.append(_row(temp, variant, condition, fact[0], fact[1], "fact", raw))
                for question in OPINIONS:
                    rows.append(_row(temp, variant, condition, question, None, "opinion",
                                     _opinion_output(rng, question)))  # fmt: skip
    return pl.DataFrame(rows)


def _row(temp: float, variant: str, condition: str, question: str, truth: str | None,
         domain: str, raw: str) -> dict[str, object]:  # fmt: skip
    parsed = FREEFORM_V1.extract(raw).value
    label = is_correct(str(parsed), truth, "v1") if truth is not None else None
    return {
        "temperature": temp, "model_id": MODEL, "variant": variant, "condition": condition,
        "question": question, "truth": truth, "domain": domain, "raw": raw, "parsed": parsed,
        "label": None if label is None else int(label),
    }  # fmt: skip


def check_demo_folder(out_dir: Path, reports: list[Path]) -> None:
    """Refuse an output folder that is a file, or that holds reports no demo wrote there."""
    if out_dir.exists() and not out_dir.is_dir():
        raise SourceError(f"{out_dir} is not a folder; pass --out with a new folder")
    earlier_demo = (out_dir / "runs" / DEMO_MARKER).is_file()
    if not earlier_demo and any(report.exists() for report in reports):
        raise SourceError(
            f"{out_dir} holds reports that `answer-audit demo` did not write there; "
            "pass --out with a new folder"
        )


def write_demo_runs(runs_dir: Path, seed: int = 0) -> Path:
    """Write the demo run folders, replacing an earlier demo there (and only a demo).

    The runs are built in a new folder beside ``runs_dir`` and renamed into place. An earlier
    demo's folder is replaced only when it holds nothing but what a demo writes: a file a user
    put there is never deleted. Returns the path of ``runs_metadata.json``.
    """
    if runs_dir.exists() and not (runs_dir / DEMO_MARKER).is_file():
        raise SourceError(
            f"{runs_dir} exists and was not written by `answer-audit demo`; "
            "pass --out with a new folder"
        )
    runs_dir.parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=f".{runs_dir.name}.", dir=runs_dir.parent))
    try:
        write_runs(demo_rows(seed), fresh)
        (fresh / DEMO_MARKER).write_text(f"seed={seed}\n", encoding="utf-8")
        if runs_dir.exists():
            foreign = sorted(_tree(runs_dir) - _tree(fresh))
            if foreign:
                more = f" (and {len(foreign) - 1} more)" if len(foreign) > 1 else ""
                raise SourceError(
                    f"{runs_dir} holds {runs_dir / foreign[0]}{more}, which `answer-audit demo` "
                    "did not write; move it out of the folder, or pass --out with a new folder"
                )
            shutil.rmtree(runs_dir)
        fresh.rename(runs_dir)
    finally:
        if fresh.exists():
            shutil.rmtree(fresh)
    return runs_dir / "runs_metadata.json"


def _tree(folder: Path) -> set[str]:
    """Every file and folder under ``folder``, as paths relative to it."""
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}
