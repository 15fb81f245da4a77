"""Text artifacts the audit counts on the scored rows: role and block markers (a parse that ran
on into the next turn or into the prompt) and reasoning left before ``</think>``.

Both are counted slice by slice (`count_markers`, `count_think`) and added up with the rest of
the audit's partial results (`audit_partials`), so the whole table is never held at once.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from answer_audit.analysis.audit_result import MarkerCounts, PostThinkLoss
from answer_audit.parsers import FreeformPreset
from answer_audit.schemes.apply import extract_column, label_column
from answer_audit.schemes.kinds import KINDS, KindName
from answer_audit.text.vocabulary import BLOCK_MARKERS, ROLE_MARKERS

SNIPPET_HEAD = 300
SNIPPET_TAIL = 200


def snippet(text: str | None, limit: int = SNIPPET_HEAD) -> str | None:
    """The text cut to ``limit`` characters with an ellipsis marking the cut.

    >>> snippet("abcdef", 3)
    'abc…'
    """
    if text is None:
        return None
    return text if len(text) <= limit else text[:limit] + "…"


def contains_any_lowercased(column: pl.Series, markers: Sequence[str]) -> pl.Series:
    """``column.str.to_lowercase()`` contains one of the lowercase ``markers`` (null: False),
    without the lowercased copy: an ASCII-case-insensitive search, plus the spelling with the
    Kelvin sign, the one non-ASCII character whose lowercase is a single ASCII letter ("k").
    U+0130 lowercases to "i" + a combining dot, which only a marker ending in "i" could match:
    none may."""
    assert all(m.isascii() and m == m.lower() and not m.endswith("i") for m in markers)
    variants = [*markers, *(m.replace("k", "\u212a") for m in markers if "k" in m)]
    return column.str.contains_any(variants, ascii_case_insensitive=True).fill_null(False)


def count_markers(chunk: pl.DataFrame, scored: pl.Series) -> MarkerCounts:
    """Scored rows whose raw text / stored parse holds a role or block marker."""
    parsed = (
        chunk["parsed"]
        if "parsed" in chunk.columns
        else pl.Series([None] * chunk.height, dtype=pl.String)
    )

    def count(column: pl.Series, markers: Sequence[str]) -> int:
        return int((contains_any_lowercased(column, markers) & scored).sum())

    return MarkerCounts(
        raw_role=count(chunk["raw"], ROLE_MARKERS),
        raw_block=count(chunk["raw"], BLOCK_MARKERS),
        parsed_role=count(parsed, ROLE_MARKERS),
        parsed_block=count(parsed, BLOCK_MARKERS),
    )


_AFTER_THINK = FreeformPreset("after-think", (), case_sensitive=False, strip_think=True)
"""The text after the last ``</think>``: what the post-think check scores."""


def count_think(
    chunk: pl.DataFrame, scored: pl.Series, stored: pl.Series, kind: KindName
) -> tuple[int, int, list[PostThinkLoss]]:
    """Of the scored rows of ``chunk`` (``stored``: their stored labels): how many hold
    ``</think>``, how many of those flip when only the text after it is scored (free-text
    kinds only, else 0), and those stored right whose post-think text is wrong, in row order."""
    has = contains_any_lowercased(chunk["raw"], ["</think>"]) & scored
    n = int(has.sum())
    if not KINDS[kind].compares_text or not n:
        return n, 0, []
    sub = chunk.filter(has)
    post = extract_column(sub, _AFTER_THINK.name, "freeform", {_AFTER_THINK.name: _AFTER_THINK})
    ok = label_column(post["value"], sub["truth"], "freeform", "v2").fill_null(False)
    before = stored.filter(has).cast(pl.Boolean).fill_null(False)
    flips = int((ok != before).sum())
    lost = sub.select("id", "truth").with_columns(post["value"].alias("_post")).filter(before & ~ok)
    losses = [
        PostThinkLoss(id=r["id"], truth=r["truth"], post_think=snippet(r["_post"]))
        for r in lost.iter_rows(named=True)
    ]
    return n, flips, losses
