"""The one result type every extractor returns."""

from __future__ import annotations

from dataclasses import dataclass

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Extraction:
    """What an extractor found, which rule decided it, and where.

    `span` indexes the ORIGINAL raw text (before any normalization), so
    ``raw[span[0]:span[1]]`` is the text the value came from.

    >>> Extraction("c", "answer-line", (10, 11)).found
    True
    """

    value: str | int | None
    rule: str
    span: Span | None = None

    @property
    def found(self) -> bool:
        """True when a value was extracted (an empty free-form answer counts as not found)."""
        return self.value is not None and self.value != ""


NOT_FOUND = Extraction(None, "not-found", None)
