"""What a rescore finds (`RescoreResult` and its parts), as frozen dataclasses.

Each part's ``to_dict()`` is its piece of the JSON report of `answer-audit rescore`; the keys and
their order are the report's documented shape (docs/reports.md). A new section is one more
field, declared last, with a default (as ``conclusions`` is).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from answer_audit.analysis.conclusions_results import STORED
from answer_audit.analysis.conclusions_section import (
    ASK_FOR_CONCLUSIONS,
    ConclusionsSection,
    rematched_name,
)
from answer_audit.analysis.incidence import Confusion, Incidence, ValueChanges
from answer_audit.analysis.metrics import BootSettings, Metrics
from answer_audit.analysis.records import INTERNAL, JsonRecord
from answer_audit.schemes.kinds import KINDS, KindName
from answer_audit.table.lazy import InputRows

RENAME_SUFFIX = "_rescored"
ANNOTATE_ROWS = 100_000
"""Input rows read and written at a time by `RescoreResult.annotated` from a streamed table
(read at each call, so a test can make many slices of a small table)."""


@dataclass(frozen=True)
class RescoreSettings(JsonRecord):
    """Everything besides the table and the preset that decides a rescore's numbers."""

    group_by: tuple[str, ...]
    """Columns whose values split the rows into groups."""
    bootstrap: int
    """Bootstrap resamples per interval."""
    seed: int
    """Seed of the bootstrap intervals."""
    ci: float
    """Level of the bootstrap intervals, e.g. 0.95."""
    choices: str | None
    """The choice letters given to override the preset's (None: the preset's own)."""

    @property
    def boot(self) -> BootSettings:
        """The bootstrap settings as the metric functions take them."""
        return BootSettings(resamples=self.bootstrap, seed=self.seed, ci=self.ci)


@dataclass(frozen=True)
class RescoreCoverage(JsonRecord):
    """How many rows were read and scored. In the JSON, the loader's own coverage (files,
    skipped lines ...) comes first, then these counts."""

    rows: int
    """Rows in the table."""
    scored: int
    """Rows with a truth: the rows every metric covers."""
    no_truth: int
    """Rows left out of the metrics for want of a truth."""
    groups: int
    """Groups found (0 without group-by columns)."""
    source: Mapping[str, Any] = field(
        default_factory=dict, repr=False, compare=False, metadata=INTERNAL
    )
    """The loader's coverage of the input files (`LoadedTable.coverage`; empty for a frame)."""

    def to_dict(self) -> dict[str, Any]:
        """The loader's coverage, then the counts (``rows`` keeps the loader's position)."""
        return {**self.source, **super().to_dict()}

    @property
    def files(self) -> tuple[str, ...]:
        """The names of the input files, in reading order (none for a frame)."""
        return tuple(str(f["source"]) for f in self.source.get("files", ()))


@dataclass(frozen=True)
class StoredLabelCheck(JsonRecord):
    """The stored correctness column, and whether the stored parse scored here reproduces it."""

    n: int
    """Scored rows with a stored label."""
    accuracy: float | None
    """Fraction of them the stored label calls correct; None without such rows."""
    disagreements: int | None
    """Rows where the stored parse scored by this matcher disagrees with the stored label;
    None without a stored parse."""
    disagreement_ids: tuple[str | None, ...]
    """Ids of ten disagreeing rows, in id order: those whose seeded key (`example_key` of the
    seed and the id) is smallest, so the same whatever the row order or partitioning."""


@dataclass(frozen=True)
class PairedChange(JsonRecord):
    """Stored vs rescored correctness on the same rows: the change and its exact McNemar test."""

    accuracy_delta: float
    """Rescored accuracy minus stored accuracy (a fraction, not points)."""
    flips: int
    """Rows whose correctness differs between the two labellings."""
    stored_only_correct: int
    """Rows correct under the stored parse only."""
    rescored_only_correct: int
    """Rows correct under the rescore only."""
    mcnemar_p: float
    """Exact two-sided McNemar p-value of the discordant counts."""


PAIRED_KEYS = tuple(f.name for f in dataclasses.fields(PairedChange))


@dataclass(frozen=True)
class Comparison(JsonRecord):
    """Stored vs rescored labels on a set of rows (all rows, or one group)."""

    stored: Metrics | None
    """The stored parse's metrics; None without a stored parse."""
    rescored: Metrics
    """The rescored labels' metrics."""
    change: PairedChange | None
    """The paired change; None without a stored parse or without scored rows. In the JSON its
    fields stand at this level (each null when there is no change)."""
    stored_label: StoredLabelCheck | None
    """The stored correctness column; None when none was given."""

    def to_dict(self) -> dict[str, Any]:
        """``stored``, ``rescored``, the change's fields, then ``stored_label``."""
        data = super().to_dict()
        change = data.pop("change") or dict.fromkeys(PAIRED_KEYS)
        return {"stored": data["stored"], "rescored": data["rescored"], **change,
                "stored_label": data["stored_label"]}  # fmt: skip


@dataclass(frozen=True)
class RescoreGroup(JsonRecord):
    """One group's comparison, and how its rescored values were found."""

    group: Mapping[str, object]
    """Each group-by column and its value in this group."""
    comparison: Comparison
    """Stored vs rescored on the group's rows. In the JSON its keys stand at this level."""
    incidence: Mapping[str, int]
    """Rows of the group per incidence category (the result's `Incidence` order)."""

    def to_dict(self) -> dict[str, Any]:
        """``group``, the comparison's keys, then ``incidence``."""
        return {"group": dict(self.group), **self.comparison.to_dict(),
                "incidence": dict(self.incidence)}  # fmt: skip


@dataclass(frozen=True)
class RescoreResult(JsonRecord):
    """Before/after metrics; ``rows`` holds the per-row labels in the table's row order."""

    parser: str
    """The preset the rows were rescored with."""
    family: KindName
    """Its kind (freeform, choice, json, number): decides the matcher."""
    normalizer: str
    """The matcher's normalizer (free-form presets; others carry the default)."""
    settings: RescoreSettings
    """Group-by columns and bootstrap settings."""
    coverage: RescoreCoverage
    """Rows read, scored and grouped."""
    overall: Comparison
    """Stored vs rescored on every row."""
    groups: tuple[RescoreGroup, ...]
    """One comparison per group, in a stable order (by the values' text)."""
    incidence: Incidence
    """How the rescored values were found."""
    confusion: Confusion | None
    """Stored values (rows) vs rescored values (columns); None without a stored parse, for
    free-form presets, and for more than `MAX_CONFUSION_LABELS` values (see
    ``value_changes``)."""
    notes: tuple[str, ...]
    """Notes for the reader: what the loader did, renamed output columns, and inputs that
    cannot be what they claim (`answer_audit.analysis.input_notes`)."""
    rows: pl.DataFrame = field(repr=False, compare=False, metadata=INTERNAL)
    """Per row, in the table's order: the new labels (and the stored ones), for ``--out``;
    empty when rescore was asked to keep none (``keep_rows=False``)."""
    original: pl.DataFrame | InputRows | None = field(
        default=None, repr=False, compare=False, metadata=INTERNAL
    )
    """The input as read (every column), when rescore was given a LoadedTable; the files to
    read it from, a slice at a time, when it was given a StreamedTable."""
    conclusions: ConclusionsSection | None = None
    """Whether each effect and ranking of the compared column survives the rescore; None when
    no comparison was asked for."""
    conclusions_hint: str = field(
        default=ASK_FOR_CONCLUSIONS, repr=False, compare=False, metadata=INTERNAL
    )
    """Without conclusions, the line the reports show on how to ask for them (not in the JSON)."""
    value_changes: ValueChanges | None = None
    """The most frequent changes from the stored value to the rescored one (whole values);
    None without a stored parse. The reports show them where there is no ``confusion``."""

    @property
    def stored_name(self) -> str:
        """What "stored" is here: ``stored`` (recorded correctness) or, without a label column,
        ``stored parse, re-matched by MATCHER``."""
        recorded = self.overall.stored_label is not None
        return stored_labelling_name(recorded, self.family, self.normalizer)

    def with_conclusions_hint(self, hint: str) -> RescoreResult:
        """This result with another line on how to ask for conclusions."""
        return dataclasses.replace(self, conclusions_hint=hint)

    def annotate(self, original: pl.DataFrame | InputRows | None = None) -> pl.DataFrame:
        """Every input row and column, then the new columns (renamed ``*_rescored`` on a clash).
        ``original``: the input table (default: the one rescore was given, if any)."""
        return pl.concat(self.annotated(original), how="vertical")

    def annotated(
        self, original: pl.DataFrame | InputRows | None = None, slice_rows: int | None = None
    ) -> Iterator[pl.DataFrame]:
        """`annotate()` a slice at a time, so a writer holds one slice
        (`answer_audit.report.outputs.writing_rows`): a table in memory comes as one
        slice, the input rows of a streamed table (`InputRows`) are read ``slice_rows``
        (default `ANNOTATE_ROWS`) at a time. The same rows, columns and types either way."""
        base = original if original is not None else self.original
        if base is None:
            raise ValueError("annotate() needs the original table (rescore was given a frame)")
        if not self.rows.width:
            raise ValueError("annotate() needs the per-row labels: rescore(..., keep_rows=True)")
        if base.height != self.rows.height:
            raise ValueError(f"original has {base.height} rows, the rescore {self.rows.height}")
        step = base.height if isinstance(base, pl.DataFrame) else slice_rows or ANNOTATE_ROWS
        return _annotated(base, self.rows, max(step, 1))


def _annotated(
    base: pl.DataFrame | InputRows, rows: pl.DataFrame, step: int
) -> Iterator[pl.DataFrame]:
    """The input rows beside their labels, ``step`` rows at a time."""
    names = output_names(base.columns, rows.columns)
    for start in range(0, max(base.height, 1), step):
        yield with_labels(base.slice(start, step), rows.slice(start, step), names)


def with_labels(rows: pl.DataFrame, labels: pl.DataFrame, names: Mapping[str, str]) -> pl.DataFrame:
    """Input rows and their new labels side by side, the labels renamed by ``names``
    (`output_names`)."""
    return pl.concat([rows, labels.rename(dict(names))], how="horizontal")


def stored_labelling_name(recorded: bool, family: KindName, normalizer: str) -> str:
    """``stored`` when the source recorded correctness (a label column), else the stored parse
    and the matcher that re-matches it: the normalizer for text, the kind's matcher otherwise.

    >>> stored_labelling_name(False, "choice", "v1")
    'stored parse, re-matched by the choice matcher'
    """
    if recorded:
        return STORED
    return rematched_name(normalizer if KINDS[family].compares_text else f"the {family} matcher")


def output_names(existing: Sequence[str], new: Sequence[str]) -> dict[str, str]:
    """New column names that do not clash with the input's: ``is_correct`` -> ``is_correct_rescored``."""
    taken = set(existing)
    names = {}
    for name in new:
        chosen = name
        while chosen in taken:
            chosen += RENAME_SUFFIX
        taken.add(chosen)
        names[name] = chosen
    return names
