"""Vectorized twins of the free-form rules, used only where they are provably identical.

`freeform_extract` runs a `FreeformPreset` (``freeform/v1``, ``v2``) over a Polars column;
`answer_region_simple` and `answer_region_whole` decide the ``freeform/v3`` and ``v4`` rows
whose answer region is the whole text (`whole_text_gate` says which presets they are proved for). Rows these cannot decide exactly go through the row rules, so the
results are identical by construction; `tests/schemes/test_vectorized.py` checks it.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from answer_audit.parsers.base import Parser
from answer_audit.parsers.freeform import AnswerRegionPreset, FreeformPreset
from answer_audit.text.regions import WHITESPACE
from answer_audit.text.vectorized import _ascii_ci, _lstripped_len, rust_escape, scatter
from answer_audit.text.vocabulary import (
    OPENING_TURN_PATTERNS_V4,
    QUESTION_PATTERNS,
    QUESTION_PATTERNS_V4,
    QUESTION_WORDS_V4,
    TURN_PATTERN_KEYWORDS,
    TURN_PATTERN_KEYWORDS_V4,
    TURN_PATTERNS,
    TURN_PATTERNS_V4,
)


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


# freeform/v3 and v4: rows whose region is the text

# A line start in the raw text, with what the answer-region presets let precede a role or
# question marker (and any whitespace they strip off the region's first line).
_LINE_START = r"(?m)^[\s\x1c-\x1f>*_#]*"
# What may open a line that starts a role or a question the keywords miss: freeform/v3's `AI`
# role and `Q:`; freeform/v4 adds the `H:` role (a capital H, then a colon, as its patterns).
_V3_LINE_STARTS = r"(?:[aA][iI]|[qQ])"
_V4_LINE_STARTS = r"(?:[aA][iI]|[qQ]|H[ \t*_]*:)"


@dataclass(frozen=True)
class WholeTextGate:
    """What `answer_region_simple` needs to know of a preset's rules."""

    keywords: tuple[str, ...]
    """Every match of a rule that could cut the region holds one of these (any case)."""
    line_starts: str
    """A regex of what opens a line that holds such a match and none of the keywords."""


def whole_text_gate(preset: Parser) -> WholeTextGate | None:
    """The gate of ``preset``'s rules when it has exactly `freeform/v3`'s or `freeform/v4`'s
    (built in, or a preset file repeating them), else None: `answer_region_simple` is proved
    for those rules only (`tests/schemes/test_vectorized.py`, tests/parsers/test_freeform.py).
    """
    if not isinstance(preset, AnswerRegionPreset) or preset.user_patterns or not preset.unwrap:
        return None
    rules = (preset.cut_patterns, preset.question_patterns, preset.opening_turns)
    if rules == (TURN_PATTERNS, QUESTION_PATTERNS, ()):
        return WholeTextGate(TURN_PATTERN_KEYWORDS, _V3_LINE_STARTS)
    if rules == (TURN_PATTERNS_V4, QUESTION_PATTERNS_V4, OPENING_TURN_PATTERNS_V4):
        words = tuple(w for w in QUESTION_WORDS_V4 if w.isascii())  # other rows are not ASCII
        return WholeTextGate((*TURN_PATTERN_KEYWORDS_V4, *words), _V4_LINE_STARTS)
    return None


def answer_region_simple(
    raw: pl.Series, cut_keywords: tuple[str, ...], line_starts: str = _V3_LINE_STARTS
) -> pl.Series:
    """Rows whose answer region (`freeform/v3`, `v4`) is the whole stripped text (rule
    ``whole-text``, or ``empty``): ASCII (lowercasing and stripping then agree with Python's),
    no ``<`` (every reasoning delimiter has one), none of the cut keywords in any case, no
    line opening with ``line_starts`` (a role or question too short for a keyword), and no
    wrapper opening the stripped text. Each is a necessary condition of another rule firing;
    `tests/schemes/test_vectorized.py` checks the row rules agree.
    """
    stripped = raw.str.strip_chars(WHITESPACE)
    return (
        raw.str.contains(r"^[\x00-\x7f]*$")
        & ~raw.str.contains("<", literal=True)
        & ~raw.str.contains_any(list(cut_keywords), ascii_case_insensitive=True)
        & ~raw.str.contains(_LINE_START + line_starts)
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
