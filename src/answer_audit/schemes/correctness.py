"""A scheme's ``correct`` column: each extracted value against its truth, with the kind's matcher.

The row-wise rule is `Kind.correct` (`answer_audit.schemes.kinds`). Text matchers with a
vectorized twin (`answer_audit.matching.polars`) run in Polars where that is provably identical,
and row by row elsewhere; every row-wise judgement is made once per distinct (value, truth).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import polars as pl

from answer_audit.matching import is_correct
from answer_audit.matching import polars as fast
from answer_audit.matching.v3 import required_word
from answer_audit.schemes.kinds import Kind, get_kind
from answer_audit.schemes.parallel import map_chunks
from answer_audit.text import vectorized


def label_column(
    values: pl.Series, truths: pl.Series, kind: Kind | str, normalizer: str, workers: int = 1
) -> pl.Series:
    """Correctness of each value against its truth with the kind's matcher (None: no truth)."""
    kind = get_kind(kind)
    if vectorized_matcher(kind, normalizer):
        return _freeform_labels(values, truths, normalizer)
    absent = _v3_word_absent(values, truths) if normalizer == "v3" and kind.compares_text else None
    if absent is None or not absent.any():
        return _label_rows(values, truths, kind, normalizer, workers)
    rows = (~absent).arg_true()
    judged = _label_rows(values.gather(rows), truths.gather(rows), kind, normalizer, workers)
    return pl.Series("correct", [False] * values.len(), dtype=pl.Boolean).scatter(rows, judged)


def vectorized_matcher(kind: Kind | str, normalizer: str) -> bool:
    """Whether `label_column` judges the kind's values with ``normalizer`` in Polars."""
    return get_kind(kind).compares_text and normalizer in fast.VECTOR_NORMALIZERS


def _label_rows(
    values: pl.Series, truths: pl.Series, kind: Kind, normalizer: str, workers: int
) -> pl.Series:
    """The matcher row by row, once per distinct (value, truth), in ``workers`` processes."""
    pairs = list(zip(values.to_list(), truths.to_list(), strict=True))
    distinct = list(dict.fromkeys(pairs))
    judged = map_chunks(partial(_label_many, kind, normalizer), distinct, workers)
    found = dict(zip(distinct, judged, strict=True))
    return pl.Series("correct", [found[pair] for pair in pairs], dtype=pl.Boolean)


def _label_many(
    kind: Kind, normalizer: str, pairs: Sequence[tuple[str | None, str | None]]
) -> list[bool | None]:
    return [kind.correct(value, truth, normalizer) for value, truth in pairs]


def _v3_word_absent(values: pl.Series, truths: pl.Series) -> pl.Series | None:
    """Rows the v3 matcher labels False without reading them: an ASCII prediction with no
    dotted chain that lacks the truth's `matching_v3.required_word` (see its proof); None
    when no truth has such a word."""
    words = {t: required_word(t) for t in truths.unique().drop_nulls().to_list()}
    if not any(words.values()):
        return None
    lowered = pl.col("value").str.to_lowercase()
    return (
        pl.DataFrame({"value": values, "truth": truths})
        .select(
            pl.col("truth").replace_strict(words, default=None, return_dtype=pl.String)
            .alias("word"),
            lowered.alias("lowered"),
            pl.col("value").str.contains(r"[^\x00-\x7F]").alias("wide"),
        )
        .select(
            (
                pl.col("word").is_not_null() & pl.col("lowered").is_not_null()
                & ~pl.col("wide")
                & ~pl.col("lowered").str.contains(r"[a-z]\.[a-z]")
                & ~pl.col("lowered").str.contains(pl.col("word"), literal=True)
            ).fill_null(False)
        )
        .to_series()
    )  # fmt: skip


def _freeform_labels(values: pl.Series, truths: pl.Series, normalizer: str) -> pl.Series:
    """`is_correct` vectorized where exact (see `fast.truth_pattern`), row by row elsewhere."""
    patterns = {
        t: fast.truth_pattern(t, normalizer) for t in truths.unique().drop_nulls().to_list()
    }
    value, lowered = pl.col("value"), pl.col("_lowered")
    work = pl.DataFrame({"value": values, "truth": truths}).with_columns(
        pl.col("truth")
        .replace_strict(patterns, default=None, return_dtype=pl.String)
        .alias("pattern"),
        fast.lowered_expr(value, normalizer).alias("_lowered"),
    )
    work = work.with_columns(
        (fast.needs_rows(value, lowered, normalizer) | ~vectorized.safe(pl.col("truth"))).alias("_slow")
    ).with_columns(
        pl.when(~pl.col("_slow")).then(fast.correct_expr(value, lowered, pl.col("pattern"), normalizer))
        .alias("correct")
    )  # fmt: skip
    slow = work.filter(pl.col("_slow"))
    if slow.height:
        memo: dict[tuple[str | None, str | None], bool | None] = {}
        labels = [
            memo[key]
            if key in memo
            else memo.setdefault(key, is_correct(key[0], key[1], normalizer))
            for key in zip(slow["value"].to_list(), slow["truth"].to_list(), strict=True)
        ]
        work = vectorized.scatter(
            work, work["_slow"], pl.DataFrame({"correct": pl.Series(labels, dtype=pl.Boolean)})
        )
    return work["correct"].cast(pl.Boolean)
