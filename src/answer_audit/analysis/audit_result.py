"""What an audit finds: `AuditResult` and its parts.

Every part is a frozen dataclass whose ``to_dict()`` is its piece of the JSON report
(`JsonRecord`: field by field, in declaration order); the keys and their order are the
report's documented shape, so renderers and readers of the JSON see the same names. Four parts
write their own: `Coverage` (after the reader's keys), `SchemeSummary` and `GroupCell` (their
comparison flattened in) and `AuditResult` (the scheme list inside the settings). A new section
is one more field and one more line in `AuditResult.to_dict`, as the conclusions are.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from answer_audit.analysis.audit_settings import AuditSettings
from answer_audit.analysis.conclusions_results import STORED
from answer_audit.analysis.conclusions_section import (
    ASK_FOR_CONCLUSIONS,
    ConclusionsSection,
    rematched_name,
)
from answer_audit.analysis.records import JsonRecord
from answer_audit.schemes.apply import CONSISTENCY, Scheme

Group = Mapping[str, object]
"""A group's key: each group-by column and its value in that group (empty: all rows)."""


@dataclass(frozen=True)
class SkippedRows(JsonRecord):
    """Rows left out of every comparison, by reason."""

    no_truth: int
    """Rows without a truth the kind's v1 matcher accepts."""
    no_stored_label: int
    """Rows with a truth but no stored label."""


@dataclass(frozen=True)
class Coverage(JsonRecord):
    """How many rows were read, scored and skipped, beside what the reader reported."""

    rows: int
    """Rows in the table."""
    scored: int
    """Rows with both a truth and a stored label: the rows every comparison counts."""
    skipped: SkippedRows
    """The other rows, by reason."""
    groups: int
    """Groups among the scored rows (1 without group-by columns, 0 without rows)."""
    rows_with_truth: int
    """Rows with a truth the matcher accepts (a blank truth is none); in the JSON only where
    the reader reported its own count, which this replaces."""
    source: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    """What the reader reported (files, runs, skipped lines ...), as it reported it; its
    ``rows``, ``rows_with_truth`` and the audit's own keys are replaced by the fields above."""

    def to_dict(self) -> dict[str, Any]:
        """The reader's keys in its order, then the audit's counts."""
        # The reader's keys first, in its order; a key the audit also counts keeps its place.
        out = dict(self.source)
        out.update(
            rows=self.rows, scored=self.scored, skipped=self.skipped.to_dict(), groups=self.groups
        )
        if "rows_with_truth" in out:
            out["rows_with_truth"] = self.rows_with_truth
        return out


@dataclass(frozen=True)
class Consistency(JsonRecord):
    """Whether the stored parse, re-scored with the v1 matcher, reproduces the stored labels."""

    scheme: str
    """The re-scoring scheme, as ``NAME=PARSER:NORMALIZER``."""
    n: int
    """Scored rows compared."""
    mismatches: int
    """Scored rows whose re-scored label differs from the stored one."""


@dataclass(frozen=True)
class PairedComparison(JsonRecord):
    """A scheme's labels against the stored labels on the same rows (all, or one group's)."""

    n: int
    """Rows compared: scored rows the scheme's matcher can judge."""
    flips: int
    """Rows whose label differs between the two."""
    stored_right_scheme_wrong: int
    """Flips from right (stored) to wrong (scheme)."""
    stored_wrong_scheme_right: int
    """Flips from wrong (stored) to right (scheme)."""
    stored_error_pct: float
    """Error rate under the stored labels, in percent."""
    error_pct: float
    """Error rate under the scheme, in percent."""
    delta_pp: float
    """``error_pct - stored_error_pct`` in percentage points (positive: the scheme finds more
    errors)."""
    delta_ci: tuple[float, float]
    """95% paired-bootstrap percentile interval of ``delta_pp``."""
    mcnemar_p: float
    """Exact two-sided McNemar p-value of the flips."""


@dataclass(frozen=True)
class SchemeSummary(JsonRecord):
    """One scheme over all scored rows, with how many groups it moves significantly."""

    name: str
    """The scheme's name."""
    parser: str
    """Its parser preset, or ``stored`` (the stored parse)."""
    normalizer: str
    """Its normalizer / matcher."""
    overall: PairedComparison
    """The comparison over all rows (flattened into this object in the JSON)."""
    max_abs_delta_pp: float
    """The largest ``|delta_pp|`` of its groups."""
    significant_groups: int
    """Groups whose Holm-adjusted McNemar p is below ``alpha``."""
    groups: int
    """Groups with at least one row compared."""
    verdict: str
    """One line that states the numbers above."""

    @property
    def spec(self) -> str:
        """The scheme as ``NAME=PARSER:NORMALIZER`` (as ``--scheme`` takes it)."""
        return Scheme(self.name, self.parser, self.normalizer).spec()

    def to_dict(self) -> dict[str, Any]:
        """Name, parser and normalizer, the overall comparison flattened in, then the rest."""
        return {
            "name": self.name,
            "parser": self.parser,
            "normalizer": self.normalizer,
            **self.overall.to_dict(),
            "max_abs_delta_pp": self.max_abs_delta_pp,
            "significant_groups": self.significant_groups,
            "groups": self.groups,
            "verdict": self.verdict,
        }


@dataclass(frozen=True)
class GroupCell(JsonRecord):
    """One scheme in one group."""

    scheme: str
    """The scheme's name."""
    group: Group
    """The group."""
    stats: PairedComparison
    """The comparison on the group's rows (flattened into this object in the JSON)."""
    holm_p: float | None
    """``mcnemar_p`` Holm-adjusted over the scheme's groups."""

    def to_dict(self) -> dict[str, Any]:
        """Scheme and group, the comparison flattened in, then Holm p."""
        return {
            "scheme": self.scheme,
            "group": dict(self.group),
            **self.stats.to_dict(),
            "holm_p": self.holm_p,
        }


@dataclass(frozen=True)
class MarkerCounts(JsonRecord):
    """Scored rows whose text holds a role marker (``user:`` ...) or a block marker
    (``passage:`` ...): signs that a parse ran on into the next turn or the prompt."""

    raw_role: int
    """Raw outputs with a role marker."""
    raw_block: int
    """Raw outputs with a block marker."""
    parsed_role: int
    """Stored parses with a role marker."""
    parsed_block: int
    """Stored parses with a block marker."""

    def __add__(self, other: MarkerCounts) -> MarkerCounts:
        return MarkerCounts(
            self.raw_role + other.raw_role,
            self.raw_block + other.raw_block,
            self.parsed_role + other.parsed_role,
            self.parsed_block + other.parsed_block,
        )


@dataclass(frozen=True)
class PostThinkLoss(JsonRecord):
    """A row stored as right whose answer after the last ``</think>`` is wrong."""

    id: str
    """The row's id."""
    truth: str
    """Its truth."""
    post_think: str | None
    """The text after the last ``</think>``, cut to a snippet."""


@dataclass(frozen=True)
class ThinkArtifacts(JsonRecord):
    """Reasoning left in the outputs: rows with ``</think>`` and what scoring only the text
    after it changes."""

    rows: int
    """Scored rows whose raw output contains ``</think>``."""
    post_think_flips: int | None
    """Of those, rows whose label flips when only the text after the last ``</think>`` is
    scored (normalizer v2); None for kinds other than freeform."""
    stored_right_post_think_wrong: tuple[PostThinkLoss, ...]
    """Up to ``max_examples`` flips from right to wrong, in row order."""


@dataclass(frozen=True)
class GroupRuleCounts(JsonRecord):
    """How often each parser rule fired in one group."""

    group: Group
    """The group."""
    counts: Mapping[str, int]
    """Rows per rule, by rule name."""


@dataclass(frozen=True)
class RuleCounts(JsonRecord):
    """Which parser rule produced each scored row's value, for one scheme."""

    overall: Mapping[str, int]
    """Rows per rule over all scored rows, most frequent first."""
    groups: tuple[GroupRuleCounts, ...]
    """Rows per rule in each group (one entry, all rows, without group-by columns)."""


@dataclass(frozen=True)
class FlipExample(JsonRecord):
    """One sampled row whose label a scheme flips, with the texts to judge it by."""

    scheme: str
    """The scheme that flips it."""
    id: str
    """The row's id."""
    group: Group
    """The row's group."""
    truth: str
    """The row's truth."""
    stored_label: bool
    """The stored label (right or wrong)."""
    scheme_label: bool
    """The scheme's label."""
    rule: str
    """The parser rule that produced the scheme's value."""
    span: tuple[int, int] | None
    """Where the scheme's value sits in ``raw`` (start, end), if it was cut from it."""
    raw: str
    """The whole raw output."""
    raw_head: str
    """The whole output when it fits in head and tail, else its first characters."""
    raw_tail: str
    """Its last characters when it is too long to show whole, else empty."""
    raw_chars: int
    """Its length in characters."""
    stored_parse: str | None
    """The stored parse, cut to a snippet."""
    scheme_parse: str | None
    """The scheme's value, cut to a snippet."""


@dataclass(frozen=True)
class AuditResult(JsonRecord):
    """An audit's findings; ``to_dict()`` is the documented JSON report."""

    settings: AuditSettings
    """The settings the audit ran with."""
    coverage: Coverage
    """Rows read, scored and skipped."""
    consistency: Consistency | None
    """The stored-label check; None without both a stored parse and a stored label."""
    schemes: tuple[SchemeSummary, ...]
    """One summary per scheme, in the order the schemes were given."""
    cells: tuple[GroupCell, ...]
    """Every scheme in every group, largest ``|delta_pp|`` first, then most flips."""
    markers: MarkerCounts
    """Role and block markers in the raw outputs and stored parses."""
    think: ThinkArtifacts
    """``</think>`` in the raw outputs."""
    rules: Mapping[str, RuleCounts]
    """Parser-rule counts by scheme name (schemes that parse; not those on the stored parse)."""
    examples: tuple[FlipExample, ...]
    """A seeded sample of flipped rows, in scheme order, then row order."""
    notes: tuple[str, ...] = ()
    """Things the reader of the report should know (e.g. truths a preset can never match)."""
    conclusions: ConclusionsSection | None = None
    """Whether each effect and ranking of ``settings.compare`` survives each scheme; None when
    no comparison was asked for."""
    conclusions_hint: str = dataclasses.field(default=ASK_FOR_CONCLUSIONS, compare=False)
    """Without conclusions, the line the reports show on how to ask for them (not in the JSON)."""
    recorded_labels: bool = True
    """Whether the stored labels are recorded correctness (a label column); False when they are
    the stored parse re-matched by the consistency scheme's matcher (not in the JSON)."""

    @property
    def stored_name(self) -> str:
        """What "stored" is here: ``stored``, or ``stored parse, re-matched by v1``."""
        return STORED if self.recorded_labels else rematched_name(CONSISTENCY.normalizer)

    def cells_of(self, scheme: str) -> list[GroupCell]:
        """The cells of one scheme, in report order."""
        return [c for c in self.cells if c.scheme == scheme]

    def with_notes(self, *notes: str) -> AuditResult:
        """This result with ``notes`` added after its own (e.g. what the reader noticed)."""
        return dataclasses.replace(self, notes=(*self.notes, *notes))

    def with_conclusions_hint(self, hint: str) -> AuditResult:
        """This result with another line on how to ask for conclusions (one fitting the source)."""
        return dataclasses.replace(self, conclusions_hint=hint)

    def to_dict(self) -> dict[str, Any]:
        """The JSON report, section by section (the scheme specs inside the settings; the
        conclusions, null when none were asked for, right after them)."""
        return {
            "settings": {**self.settings.to_dict(), "schemes": [s.spec for s in self.schemes]},
            "conclusions": None if self.conclusions is None else self.conclusions.to_dict(),
            "coverage": self.coverage.to_dict(),
            "consistency": None if self.consistency is None else self.consistency.to_dict(),
            "schemes": [s.to_dict() for s in self.schemes],
            "cells": [c.to_dict() for c in self.cells],
            "markers": self.markers.to_dict(),
            "think": self.think.to_dict(),
            "rules": {name: counts.to_dict() for name, counts in self.rules.items()},
            "examples": [e.to_dict() for e in self.examples],
            "notes": list(self.notes),
        }
