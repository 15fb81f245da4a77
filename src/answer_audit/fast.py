"""Vectorized twins of the row rules, used only where they are provably identical.

The row functions (parsers, normalizers, `is_correct`) are the reference. Their Polars twins
run on rows free of the characters where Python and Polars (Rust) disagree about whitespace,
word characters or lowercasing (`_unicode_tables.DISAGREEING_CLASS`, generated and checked by a
test); every other row goes through the row functions, so labels are identical by
construction, and `tests/test_fast.py` checks it on random text.

The matcher never normalizes the prediction. It normalizes each distinct truth once (with the
row normalizer) and searches the lowercased prediction with a pattern in which every space of
the normalized truth matches a run of punctuation or whitespace, and the start, end and word
boundaries are translated the same way; see `truth_pattern`.
"""

from __future__ import annotations

import polars as pl

from answer_audit._unicode_tables import DISAGREEING_CLASS
from answer_audit.matching import SHORT_TRUTH_MAX_LEN
from answer_audit.parsers.freeform import FreeformPreset
from answer_audit.text import SUB_SUPER_FROM, SUB_SUPER_TO, WHITESPACE, normalize

# What each normalizer turns into a space (besides whitespace), as a Rust class body.
_PUNCT = {"v1": r".,;:!?'\"()\[\]{}", "v2": r".,;:!?'\"()\[\]{}*_`~"}
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
_META = set("\\.+*?()|[]{}^$#&-~")


def rust_escape(text: str) -> str:
    """Escape regex metacharacters for Polars' (Rust) regex syntax."""
    return "".join("\\" + c if c in _META else c for c in text)


def safe(expr: pl.Expr) -> pl.Expr:
    """True where the text has no character on which Python and Polars disagree (null: True)."""
    return ~expr.str.contains(DISAGREEING_CLASS).fill_null(False)


def _ascii_ci(text: str) -> str:
    """A Rust pattern matching ``text`` where only ASCII letters may differ in case."""
    return "".join(
        f"[{c.lower()}{c.upper()}]" if c.isascii() and c.isalpha() else rust_escape(c) for c in text
    )


def _lstripped_len(expr: pl.Expr) -> pl.Expr:
    return expr.str.len_chars() - expr.str.strip_chars_start().str.len_chars()


def freeform_extract(raw: pl.Series, preset: FreeformPreset) -> pl.DataFrame:
    """``value``, ``rule``, ``span_start``, ``span_end`` and ``needs_rows`` for `safe` rows.

    ``needs_rows`` marks the rows these rules cannot decide exactly (the first-line fallback).
    Each step is materialized once, and the costly steps run only on the rows that need them
    (think splits on rows with ``</think>``, character offsets on non-ASCII rows with a marker).
    Markers are searched in the lowercased text: on safe rows lowercasing keeps every
    character count and only ASCII letters lowercase to ASCII letters.
    """
    w = pl.DataFrame({"raw": raw}).with_columns(
        pl.col("raw").str.strip_chars().alias("region"),
        _lstripped_len(pl.col("raw")).alias("start"),
        pl.lit(0, dtype=pl.UInt32).alias("cut"),
    )
    if preset.strip_think:
        close = _ascii_ci("</think>")
        has = w["region"].str.contains(close).fill_null(False)
        if has.any():
            sub = w.filter(has).select(
                pl.col("region").str.replace(f"(?s)^.*{close}", "").alias("after"),
                "region",
                "start",
            )
            sub = sub.select(
                pl.col("after").str.strip_chars().alias("region"),
                (pl.col("start") + pl.col("region").str.len_chars() - pl.col("after").str.len_chars()
                 + _lstripped_len(pl.col("after"))).alias("start"),
                (pl.col("region").str.len_chars() - pl.col("after").str.len_chars()).alias("cut"),
            )  # fmt: skip
            w = scatter(w, has, sub)
    found = _marker_offsets(w["region"], preset)
    w = w.with_columns(found.alias("found"))
    cut_at = pl.col("region").str.slice(0, pl.col("found")).str.strip_chars_end()
    w = w.with_columns(
        pl.when(pl.col("found").is_not_null())
        .then(cut_at)
        .otherwise(pl.col("region"))
        .alias("value"),
        (pl.col("region").str.len_chars() == 0).alias("empty"),
    )
    return w.select(
        pl.when(pl.col("empty")).then(pl.lit("")).otherwise(pl.col("value")).alias("value"),
        pl.when(pl.col("empty")).then(pl.lit("empty"))
        .when(pl.col("found").is_not_null()).then(pl.lit("truncated-at-marker"))
        .when(pl.col("cut") > 0).then(pl.lit("after-think"))
        .otherwise(pl.lit("whole-text")).alias("rule"),
        pl.when(pl.col("empty")).then(None).otherwise(pl.col("start")).cast(pl.Int64).alias("span_start"),
        pl.when(pl.col("empty")).then(None)
        .otherwise(pl.col("start") + pl.col("value").str.len_chars()).cast(pl.Int64).alias("span_end"),
        (pl.col("found").is_not_null() & (pl.col("value").str.len_chars() == 0)).alias("needs_rows"),
    )  # fmt: skip


def _marker_offsets(region: pl.Series, preset: FreeformPreset) -> pl.Series:
    """Character offset of the earliest marker at a position > 0 in each region (None: none)."""
    markers = [m if preset.case_sensitive else m.lower() for m in preset.markers if m]
    if not markers:
        return pl.Series([None] * len(region), dtype=pl.UInt32)
    pattern = "|".join(rust_escape(m) for m in markers)
    haystack = region if preset.case_sensitive else region.str.to_lowercase()
    found = haystack.str.slice(1).str.find(pattern) + 1  # bytes: exact only for ASCII text
    wide = found.is_not_null() & (region.str.len_bytes() != region.str.len_chars())
    if wide.any():
        before = haystack.filter(wide).str.extract(f"(?s)^(.+?)(?:{pattern})", 1)
        found = found.cast(pl.UInt32).scatter(wide.arg_true(), before.str.len_chars())
    return found.cast(pl.UInt32)


def scatter(frame: pl.DataFrame, mask: pl.Series, values: pl.DataFrame) -> pl.DataFrame:
    """Put the rows of ``values`` into the rows of ``frame`` where ``mask`` is true, in order."""
    idx = mask.arg_true()
    out = frame
    for name in values.columns:
        column = out[name].cast(values[name].dtype).clone()
        column.scatter(idx, values[name])
        out = out.with_columns(column.alias(name))
    return out


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


# ------------------------------------------------- freeform/v3: rows whose region is the text

# A line start in the raw text, with what `freeform/v3` lets precede a role or question marker
# (and any whitespace it strips off the region's first line).
_LINE_START = r"(?m)^[\s\x1c-\x1f>*_#]*"


def answer_region_simple(raw: pl.Series, cut_keywords: tuple[str, ...]) -> pl.Series:
    """Rows whose `freeform/v3` answer region is the whole stripped text (rule ``whole-text``,
    or ``empty``): ASCII (lowercasing and stripping then agree with Python's), no ``<`` (every
    reasoning delimiter has one), none of the cut keywords in any case, no line opening like
    an ``AI`` role or a question (``q``), and no wrapper opening the stripped text. Each is a
    necessary condition of another rule firing; `tests/test_fast.py` checks the row rules agree.
    """
    stripped = raw.str.strip_chars(WHITESPACE)
    return (
        raw.str.contains(r"^[\x00-\x7f]*$")
        & ~raw.str.contains("<", literal=True)
        & ~raw.str.contains_any(list(cut_keywords), ascii_case_insensitive=True)
        & ~raw.str.contains(_LINE_START + r"(?:[aA][iI]|[qQ])")
        & ~stripped.str.contains(r"^[*_`$\\]")
    ).fill_null(False)


def answer_region_whole(raw: pl.Series) -> pl.DataFrame:
    """``value``, ``rule``, ``span_start``, ``span_end`` of rows `answer_region_simple` chose:
    the stripped text and its offsets, or ``empty``."""
    stripped = raw.str.strip_chars(WHITESPACE)
    start = (raw.str.len_chars() - raw.str.strip_chars_start(WHITESPACE).str.len_chars()).cast(
        pl.Int64
    )
    empty = stripped.str.len_chars() == 0
    return pl.DataFrame({"value": stripped, "empty": empty, "start": start}).select(
        "value",
        pl.when("empty").then(pl.lit("empty")).otherwise(pl.lit("whole-text")).alias("rule"),
        pl.when("empty").then(None).otherwise("start").alias("span_start"),
        pl.when("empty").then(None)
        .otherwise(pl.col("start") + pl.col("value").str.len_chars().cast(pl.Int64))
        .alias("span_end"),
    )  # fmt: skip
