"""Vectorized twins of the v1/v2 matchers, used only where they are provably identical.

The row functions (parsers, normalizers, `is_correct`) are the reference. Their Polars twins
run on rows free of the characters where Python and Polars (Rust) disagree about whitespace,
word characters or lowercasing (`answer_audit.text.vectorized.safe`); every other row goes through the row functions, so labels are identical by
construction, and `tests/test_fast.py` checks it on random text.

The matcher never normalizes the prediction. It normalizes each distinct truth once (with the
row normalizer) and searches the lowercased prediction with a pattern in which every space of
the normalized truth matches a run of punctuation or whitespace, and the start, end and word
boundaries are translated the same way; see `truth_pattern`.
"""

from __future__ import annotations

import polars as pl

from answer_audit.matching import SHORT_TRUTH_MAX_LEN, normalize
from answer_audit.matching.v1_v2 import (
    SUB_SUPER_FROM,
    SUB_SUPER_TO,
    V1_PUNCTUATION,
    V2_PUNCTUATION,
)
from answer_audit.text._unicode_tables import DISAGREEING_CLASS
from answer_audit.text.vectorized import rust_escape, safe

# What each normalizer turns into a space (besides whitespace), as a Rust class body.
_PUNCT = {"v1": rust_escape(V1_PUNCTUATION), "v2": rust_escape(V2_PUNCTUATION)}
VECTOR_NORMALIZERS = tuple(_PUNCT)
# v2 also maps sub/superscript digits and collapses dotted abbreviations (u.s. -> us) before
# replacing punctuation. The twin does both: the digits by literal replacement, abbreviations of
# up to _MAX_LETTERS letters by one alternation tried longest first (the row regex's greedy
# order); rows with a longer chain use the row rules.
_MAX_LETTERS = 6
_ABBREVIATIONS = "|".join(
    r"\b" + r"\.".join(["([a-z])"] * k) + r"\b" for k in range(_MAX_LETTERS, 1, -1)
)
_ABBREVIATION_LETTERS = "".join(f"${{{i}}}" for i in range(1, sum(range(2, _MAX_LETTERS + 1)) + 1))
_LONG_ABBREVIATION = rf"(?:[a-z]\.){{{_MAX_LETTERS}}}[a-z]"
# Sub/superscript digits disagree between Python and Rust only as word characters; once v2 has
# mapped them to ASCII digits they are safe.
_UNSAFE_BEFORE_V2 = DISAGREEING_CLASS[:-1] + f"--[{SUB_SUPER_FROM}]]"


def truth_pattern(truth: str, normalizer: str) -> str | None:
    """The pattern that finds ``normalize(truth)`` the way `is_correct` does, but in the merely
    lowercased prediction; None when the truth normalizes to "" (no label)."""
    g = normalize(truth, normalizer)
    if not g:
        return None
    gap = f"[{_PUNCT[normalizer]}\\s]"
    body = f"{gap}+".join(rust_escape(token) for token in g.split(" "))
    if len(g) <= SHORT_TRUTH_MAX_LEN or g.isdigit():
        return rf"^{gap}*{body}(?:\b|{gap}*$)|\b{body}\b|(?:^{gap}*|\b){body}{gap}*$"
    return body


def needs_rows(prediction: pl.Expr, lowered: pl.Expr, normalizer: str) -> pl.Expr:
    """Predictions the vectorized matcher must leave to `is_correct` (``lowered``: the
    prediction's ``str.to_lowercase()``, computed once by the caller)."""
    if normalizer == "v2":
        unsafe = prediction.str.contains(_UNSAFE_BEFORE_V2).fill_null(False)
        return unsafe | lowered.str.contains(_LONG_ABBREVIATION).fill_null(False)
    return ~safe(prediction)


def lowered_expr(prediction: pl.Expr, normalizer: str) -> pl.Expr:
    """The text the matcher searches: lowercased, and for v2 with its rewrites applied."""
    lowered = prediction.str.to_lowercase()
    if normalizer != "v2":
        return lowered
    digits = lowered.str.replace_many(list(SUB_SUPER_FROM), list(SUB_SUPER_TO))
    collapsed = digits.str.replace_all(_ABBREVIATIONS, _ABBREVIATION_LETTERS)
    # v2 turns "_" into a space; "_" is a word character, so unlike the other gap characters it
    # would hide the `\b` that the space gives the row rules ("8_x" states 8).
    return collapsed.str.replace_all("_", " ", literal=True)


def correct_expr(
    prediction: pl.Expr, lowered: pl.Expr, pattern: pl.Expr, normalizer: str
) -> pl.Expr:
    """`is_correct` for rows where `needs_rows` is False; ``pattern`` from `truth_pattern`."""
    blank = lowered.str.contains(f"^[{_PUNCT[normalizer]}\\s]*$")
    return (
        pl.when(pattern.is_null()).then(None)
        .when(prediction.is_null() | blank).then(pl.lit(False))
        .otherwise(lowered.str.contains(pattern))
    )  # fmt: skip
