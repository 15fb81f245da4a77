"""Text artifacts the audit counts on the scored rows: role and block markers (a parse that ran
on into the next turn or into the prompt) and reasoning left before ``</think>``.

Both are added up slice by slice (`TextTally`), so the whole table is never held at once.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from answer_audit.analysis.audit_result import (
    MarkerCounts,
    PostThinkLoss,
    ThinkArtifacts,
)
from answer_audit.analysis.audit_settings import AuditSettings
from answer_audit.parsers import FreeformPreset
from answer_audit.schemes.apply import extract_column, label_column
from answer_audit.schemes.kinds import KINDS
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


class TextTally:
    """Markers and ``</think>`` rows of the scored rows, added up slice by slice (`add`) and
    reported by `markers` and `think`."""

    def __init__(self, settings: AuditSettings) -> None:
        self.settings = settings
        self.markers = MarkerCounts(0, 0, 0, 0)
        self.think_rows = 0
        self.post_think_flips = 0
        self.lost: list[PostThinkLoss] = []

    def add(self, chunk: pl.DataFrame, has_truth: pl.Series, stored: pl.Series) -> None:
        """Count one slice: ``has_truth`` and ``stored`` (the stored labels) are its rows'."""
        scored = has_truth & stored.is_not_null()
        self.markers += count_markers(chunk, scored)
        self._add_think(chunk, scored, stored)

    def _add_think(self, chunk: pl.DataFrame, scored: pl.Series, stored: pl.Series) -> None:
        has = contains_any_lowercased(chunk["raw"], ["</think>"]) & scored
        n = int(has.sum())
        self.think_rows += n
        if not KINDS[self.settings.kind].compares_text or not n:
            return
        sub = chunk.filter(has)
        presets = {_AFTER_THINK.name: _AFTER_THINK}
        post = extract_column(sub, _AFTER_THINK.name, "freeform", presets)
        ok = label_column(post["value"], sub["truth"], "freeform", "v2").fill_null(False).to_numpy()
        before = stored.filter(has).cast(pl.Boolean).to_numpy().astype(bool)
        self.post_think_flips += int((ok != before).sum())
        room = self.settings.max_examples - len(self.lost)
        for i in np.flatnonzero(before & ~ok)[: max(room, 0)]:
            self.lost.append(
                PostThinkLoss(
                    id=sub["id"][int(i)],
                    truth=sub["truth"][int(i)],
                    post_think=snippet(post["value"][int(i)]),
                )
            )

    def think(self) -> ThinkArtifacts:
        """The ``</think>`` counts so far."""
        free_text = KINDS[self.settings.kind].compares_text
        return ThinkArtifacts(
            rows=self.think_rows,
            post_think_flips=self.post_think_flips if free_text else None,
            stored_right_post_think_wrong=tuple(self.lost),
        )
