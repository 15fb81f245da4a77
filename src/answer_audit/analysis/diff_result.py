"""What a diff of two labellings finds (`DiffResult` and its parts), as frozen dataclasses.

Each part's ``to_dict()`` is its piece of the JSON report of `answer-audit diff`; the keys and
their order are the report's documented shape (docs/reports.md). A new section is one more
field, declared last, with a default (as ``conclusions`` is).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from answer_audit.analysis.conclusions_section import ASK_FOR_CONCLUSIONS, ConclusionsSection
from answer_audit.analysis.incidence import Confusion, ValueChanges
from answer_audit.analysis.records import INTERNAL, JsonRecord
from answer_audit.extraction import Span
from answer_audit.schemes.kinds import KindName, Value


@dataclass(frozen=True)
class Agreement(JsonRecord):
    """How often the two sides extract the same value (after the matcher's normalization)."""

    n: int
    """Rows compared."""
    agree: int
    """Rows where both sides extract the same value (nothing on both sides counts as same)."""
    rate: float | None
    """``agree / n``; None without rows."""
    both_none: int
    """Rows where neither side extracts anything."""


@dataclass(frozen=True)
class PairedAccuracy(JsonRecord):
    """Accuracy under each side on the rows both sides score (rows with a truth)."""

    n: int
    """Rows scored under both sides."""
    a: float
    """Accuracy under side A."""
    b: float
    """Accuracy under side B."""
    delta: float
    """``b - a`` (a fraction, not points)."""
    a_only_correct: int
    """Rows correct under A only."""
    b_only_correct: int
    """Rows correct under B only."""
    mcnemar_p: float
    """Exact two-sided McNemar p-value of the discordant counts."""


@dataclass(frozen=True)
class DiffGroup(JsonRecord):
    """Agreement and accuracy within one group."""

    group: Mapping[str, object]
    """Each group-by column and its value in this group."""
    agreement: Agreement
    """Agreement on the group's rows. In the JSON its keys stand at this level."""
    accuracy: PairedAccuracy | None
    """Accuracy under each side; None when no row of the group is scored under both."""

    def to_dict(self) -> dict[str, Any]:
        """``group``, the agreement's keys, then ``accuracy``."""
        return {"group": dict(self.group), **self.agreement.to_dict(),
                "accuracy": None if self.accuracy is None else self.accuracy.to_dict()}  # fmt: skip


@dataclass(frozen=True)
class RulePair(JsonRecord):
    """A pair of rules that fired on the rows where the values differ."""

    a: str
    """The rule of side A."""
    b: str
    """The rule of side B."""
    n: int
    """Disagreeing rows with this pair of rules."""


@dataclass(frozen=True)
class DisagreementSide(JsonRecord):
    """One side's reading of a disagreeing row."""

    id: str | None
    """The row's id in this side's table (differs from A's only for two tables by order)."""
    value: Value
    """The value as the matcher compares it (None: nothing extracted)."""
    label: str
    """The value as the reports show it (`value_label`: ``none`` when nothing was found)."""
    rule: str
    """The rule that found the value (``stored`` for a stored parse)."""
    span: Span | None
    """Start and end offsets of the value in the raw text; None for a stored parse or none."""
    correct: bool | None
    """Whether the value matches the truth; None without a truth."""
    snippet: str
    """The raw text around the span, the span marked ⟦so⟧ (the tail when there is no span)."""


@dataclass(frozen=True)
class Disagreement(JsonRecord):
    """A row where the two sides extract different values."""

    id: str | None
    """The row's id (A's)."""
    truth: str | None
    """The truth of the row (A's table); None without one."""
    a: DisagreementSide
    """Side A's reading."""
    b: DisagreementSide
    """Side B's reading."""


@dataclass(frozen=True)
class DiffResult(JsonRecord):
    """Two labellings compared row by row; ``to_dict()`` is the JSON report of `answer-audit diff`."""

    a: str
    """Side A's name (a preset, ``stored`` or ``stored:COLUMN``)."""
    b: str
    """Side B's name."""
    family: KindName
    """The kind both sides share: decides the matcher."""
    align: str
    """``rows`` (one table), or how two tables were aligned: ``id`` or ``order``."""
    n: int
    """Rows compared."""
    agreement: Agreement
    """How often the two sides extract the same value."""
    confusion: Confusion | None
    """A's values (rows) vs B's values (columns); None for free-form sides and for more than
    `MAX_CONFUSION_LABELS` values (see ``value_changes``)."""
    accuracy: PairedAccuracy | None
    """Accuracy under each side; None when no row is scored under both."""
    groups: tuple[DiffGroup, ...]
    """Agreement and accuracy per group, in a stable order (by the values' text)."""
    rule_pairs: tuple[RulePair, ...]
    """Rule pairs of the disagreeing rows, most frequent first."""
    disagreements: tuple[Disagreement, ...]
    """Every disagreeing row, in table order."""
    notes: tuple[str, ...] = ()
    """Notes for the reader (what loading and aligning left out, differing truths, and inputs
    that cannot be what they claim: `answer_audit.analysis.input_notes`)."""
    raw_texts: tuple[tuple[str | None, str | None], ...] = field(
        default=(), repr=False, compare=False, metadata=INTERNAL
    )
    """A's and B's raw output per disagreement (same order), for the HTML's highlighted spans;
    the JSON carries the snippets instead."""
    conclusions: ConclusionsSection | None = None
    """Whether each effect and ranking of the compared column under A survives under B; None
    when no comparison was asked for."""
    conclusions_hint: str = field(
        default=ASK_FOR_CONCLUSIONS, repr=False, compare=False, metadata=INTERNAL
    )
    """Without conclusions, the line the reports show on how to ask for them (not in the JSON)."""
    value_changes: ValueChanges | None = None
    """The most frequent changes from A's value to B's (whole values). The reports show them
    where there is no ``confusion``."""

    def with_conclusions_hint(self, hint: str) -> DiffResult:
        """This result with another line on how to ask for conclusions."""
        return dataclasses.replace(self, conclusions_hint=hint)
