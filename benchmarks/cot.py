"""Seeded multiple-choice chain-of-thought outputs for the speed ratios in `scan.py`.

Each output reasons for two to six paragraphs (option mentions such as "Option B confuses ...",
"(C) is incorrect because ...", arithmetic, and in about a third of the rows typographic quotes,
dashes and symbols), then ends in one of the answer conventions of evaluation frameworks
("The answer is (X).", "Answer: X", "**Answer:** X", "$\\boxed{X}$", ...). A share of the rows
(``hard``, 10% by default) is harder to read: an earlier answer the output revises, an invented
next turn after the answer, a LaTeX-wrapped letter, an adverb before it, or a Chinese answer line.
"""

from __future__ import annotations

import random

WORDS = (
    "the",
    "of",
    "and",
    "to",
    "in",
    "is",
    "that",
    "for",
    "it",
    "as",
    "was",
    "with",
    "be",
    "by",
    "on",
    "not",
    "this",
    "are",
    "or",
    "from",
    "at",
    "which",
    "but",
    "have",
    "an",
    "they",
    "were",
    "been",
    "one",
    "all",
    "their",
    "has",
    "would",
    "when",
    "if",
    "so",
    "what",
    "no",
    "out",
    "up",
    "into",
    "do",
    "can",
    "more",
    "about",
    "other",
    "some",
    "time",
    "could",
    "them",
    "only",
    "then",
    "its",
    "two",
    "like",
    "these",
    "than",
    "first",
    "energy",
    "force",
    "price",
    "market",
    "cell",
    "protein",
    "reaction",
    "equation",
    "value",
    "rate",
    "temperature",
    "pressure",
    "law",
    "theory",
    "policy",
    "court",
    "state",
    "treaty",
    "period",
    "region",
    "sample",
    "model",
    "function",
    "interval",
    "increase",
    "decrease",
)
UNICODE = ("’", "“", "”", "—", "×", "°", "≈", "μ", "–")
ENDINGS = (
    "The answer is ({X}).",
    "Answer: {X}",
    "**Answer:** {X}",
    "Therefore, the correct option is {X}.",
    "Final Answer: $\\boxed{{{X}}}$",
    "ANSWER: {X}",
    "So the answer is {X}.",
    "The correct answer is {X}.",
)
HARD = (
    "Answer: {Y}\n\nWait, let me reconsider the second step. Answer: {X}",
    "The answer is ({X}).\n\nUSER: Thanks! Next question: which option is right?\nASSISTANT: {Y}",
    "The answer is $\\mathbf{{{X}}}$.",
    "The answer is clearly ({X}).",
    "答案：{X}",
)


def _sentence(rng: random.Random, fancy: bool) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(8, 22))]
    if fancy and rng.random() < 0.4:
        words.insert(rng.randrange(len(words)), rng.choice(UNICODE))
    if rng.random() < 0.35:
        letter = rng.choice("ABCD")
        mention = rng.choice(
            (f"Option {letter} says", f"({letter}) is incorrect because", f"{letter})")
        )
        words.insert(0, mention)
    if rng.random() < 0.2:
        words.append(f"{rng.randint(2, 90)} = {rng.randint(2, 9)} x {rng.randint(2, 9)}")
    return " ".join(words).capitalize() + "."


def cot_outputs(n: int, seed: int = 7, hard: float = 0.10) -> list[str]:
    """``n`` outputs (about 1 KB each, lognormal lengths), the same for the same seed."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        fancy = rng.random() < 0.33
        paragraphs = [
            " ".join(_sentence(rng, fancy) for _ in range(rng.randint(2, 7)))
            for _ in range(rng.randint(2, 6))
        ]
        head = "Let's think step by step. " if rng.random() < 0.5 else ""
        answer, other = rng.sample("ABCD", 2)
        ending = rng.choice(HARD if rng.random() < hard else ENDINGS)
        out.append(head + "\n\n".join(paragraphs) + "\n\n" + ending.format(X=answer, Y=other))
    return out
