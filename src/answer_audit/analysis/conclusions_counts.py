"""Mergeable outcome counts for `analysis.conclusions`, and resampling from them.

The conclusions never need the rows themselves, only counts that add up across partitions:

- with an item column, per (stratum, level, item) and labelling: rows labelled correct and rows
  scored. The cluster bootstrap resamples items, each with all of its rows at every level.
- without one, per (stratum, level, joint label pattern): how many rows carry that pattern
  (each labelling's label: correct, wrong or unscored). Resampling rows within a level is a
  multinomial draw over the level's patterns, weighted by their row counts.

`merge_outcome_counts` sums the counts of partitions of one table; conclusions computed from the
merged counts equal those from the whole table, whatever the split or the row order, because the
counts are sorted by their keys before any random draw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import polars as pl

from answer_audit.analysis.conclusions_results import STORED, ConclusionSettings, Scalar
from answer_audit.analysis.stats import natural_sort_key

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
LEVEL, ITEM, ROWS = "__level", "__item", "__rows"
_CELLS_PER_CHUNK = 4_000_000  # bounds the memory of a (resamples x units) weight matrix
UNSCORED, WRONG, RIGHT = -1, 0, 1


def correct_column(name: str) -> str:
    """Count column of rows labelled correct under labelling ``name`` (item mode)."""
    return f"__correct:{name}"


def scored_column(name: str) -> str:
    """Count column of rows with a label under ``name`` (item mode)."""
    return f"__scored:{name}"


def label_column(name: str) -> str:
    """Pattern column of the label under ``name``: 1 right, 0 wrong, -1 unscored (row mode)."""
    return f"__label:{name}"


@dataclass(frozen=True)
class OutcomeCounts:
    """Counts of outcomes that merge by addition (see the module docstring)."""

    compare: str
    """The compared column; its values are the levels (as text)."""
    strata: tuple[str, ...]
    """Stratum columns, kept under their own names and types."""
    item: str | None
    """The item column, or None (then the counts are per label pattern)."""
    labellings: tuple[str, ...]
    """``stored`` then the scheme names."""
    frame: pl.DataFrame
    """Strata, LEVEL, then ITEM and the correct/scored counts, or the label pattern and ROWS."""

    @property
    def keys(self) -> list[str]:
        """The columns that identify a count cell."""
        if self.item is not None:
            return [*self.strata, LEVEL, ITEM]
        return [*self.strata, LEVEL, *(label_column(n) for n in self.labellings)]

    def merge(self, other: OutcomeCounts) -> OutcomeCounts:
        """The counts of both partitions together (associative and commutative)."""
        return merge_outcome_counts([self, other])


def outcome_counts(
    table: pl.DataFrame,
    settings: ConclusionSettings,
    *,
    stored: str,
    schemes: Mapping[str, str] | Sequence[str] = (),
) -> OutcomeCounts:
    """Count the outcomes of ``table``: the stored-correct column ``stored`` and one correct
    column per scheme (``schemes`` maps a scheme name to its column; a plain list uses each
    column name as the scheme name). Correct columns are booleans (or 0/1), null = unscored.
    Rows whose compare value is null are left out; an item value must never be null."""
    columns = dict(schemes) if isinstance(schemes, Mapping) else {s: s for s in schemes}
    if STORED in columns:
        raise ValueError(f"{STORED!r} names the stored labels; give the scheme another name")
    sources = {STORED: stored, **columns}
    _check_columns(table, settings, sources)
    picked = table.select(
        *settings.strata,
        pl.col(settings.compare).cast(pl.String).alias(LEVEL),
        *([pl.col(settings.item).cast(pl.String).alias(ITEM)] if settings.item else []),
        *(_as_bool(table, col, name) for name, col in sources.items()),
    ).filter(pl.col(LEVEL).is_not_null())
    if settings.item is not None and picked.get_column(ITEM).null_count():
        raise ValueError(f"item column {settings.item!r} has null values; every row needs one")
    names = tuple(sources)
    if settings.item is not None:
        cells = [*settings.strata, LEVEL, ITEM]
        sums = [pl.col(n).sum().cast(pl.Int64).alias(correct_column(n)) for n in names]
        counts = [pl.col(n).count().cast(pl.Int64).alias(scored_column(n)) for n in names]
        frame = picked.group_by(cells).agg(*sums, *counts)
    else:
        codes = [_label_code(n) for n in names]
        cells = [*settings.strata, LEVEL, *(label_column(n) for n in names)]
        frame = picked.select(*settings.strata, LEVEL, *codes).group_by(cells).len(ROWS)
        frame = frame.with_columns(pl.col(ROWS).cast(pl.Int64))
    result = OutcomeCounts(settings.compare, settings.strata, settings.item, names, frame)
    return _sorted(result)


def merge_outcome_counts(parts: Sequence[OutcomeCounts]) -> OutcomeCounts:
    """Sum the counts of partitions of one table (same compare, strata, item and labellings)."""
    if not parts:
        raise ValueError("merge_outcome_counts needs at least one part")
    first = parts[0]
    shape = (first.compare, first.strata, first.item, first.labellings)
    for part in parts[1:]:
        if (part.compare, part.strata, part.item, part.labellings) != shape:
            raise ValueError("outcome counts to merge must share compare, strata, item, schemes")
    frame = pl.concat([p.frame for p in parts], how="vertical_relaxed")
    values = [c for c in frame.columns if c not in first.keys]
    summed = frame.group_by(first.keys).agg(pl.col(values).sum())
    return _sorted(OutcomeCounts(*shape, summed.select(first.frame.columns)))


def _sorted(counts: OutcomeCounts) -> OutcomeCounts:
    frame = counts.frame.sort(counts.keys, nulls_last=True, maintain_order=True)
    return OutcomeCounts(counts.compare, counts.strata, counts.item, counts.labellings, frame)


def _check_columns(
    table: pl.DataFrame, settings: ConclusionSettings, sources: dict[str, str]
) -> None:
    wanted = [settings.compare, *settings.strata, *sources.values()]
    wanted += [settings.item] if settings.item else []
    missing = [c for c in wanted if c not in table.columns]
    if missing:
        raise ValueError(f"column(s) {', '.join(map(repr, missing))} not in the table")
    clash = [c for c in settings.strata if c.startswith("__")]
    if clash:
        raise ValueError(f"stratum columns must not start with '__': {clash}")


def _as_bool(table: pl.DataFrame, column: str, name: str) -> pl.Expr:
    dtype = table.schema[column]
    if dtype == pl.Boolean:
        return pl.col(column).alias(name)
    if dtype.is_integer() or dtype == pl.Null:
        values = set(table.get_column(column).drop_nulls().unique().to_list())
        if values <= {0, 1}:
            return pl.col(column).cast(pl.Boolean).alias(name)
    raise ValueError(f"correct column {column!r} must hold booleans or 0/1; got {dtype}")


def _label_code(name: str) -> pl.Expr:
    column = pl.col(name)
    code = pl.when(column.is_null()).then(UNSCORED).when(column).then(RIGHT).otherwise(WRONG)
    return code.cast(pl.Int8).alias(label_column(name))


@dataclass(frozen=True)
class Units:
    """One stratum's resampling units as matrices (units x levels) per labelling.

    Item mode: a unit is an item, ``correct``/``scored`` hold its counts at each level, and the
    bootstrap draws units with equal probability across the whole stratum. Row mode: a unit is a
    label pattern at one level (``unit_level``), ``multiplicity`` rows carry it, and rows are
    drawn within their level, so each level keeps its size.
    """

    levels: tuple[str, ...]
    correct: Mapping[str, Ints]
    scored: Mapping[str, Ints]
    multiplicity: Ints
    unit_level: Ints | None

    def totals(self, name: str) -> tuple[Ints, Ints]:
        """Correct and scored rows per level under ``name``."""
        return self.multiplicity @ self.correct[name], self.multiplicity @ self.scored[name]

    def replicate_accuracies(
        self, names: Sequence[str], rng: np.random.Generator, n_boot: int
    ) -> dict[str, Floats]:
        """Per labelling, a (n_boot x levels) array of resampled accuracies (NaN: none scored).

        Every labelling sees the same resampled units, so their differences are paired.
        """
        per_chunk = max(1, _CELLS_PER_CHUNK // max(1, self.multiplicity.shape[0]))
        parts: dict[str, list[Floats]] = {name: [] for name in names}
        for start in range(0, n_boot, per_chunk):
            # Float products of integer counts stay exact below 2**53 and use BLAS.
            weights = self._weights(rng, min(per_chunk, n_boot - start)).astype(np.float64)
            for name in names:
                hits = weights @ self.correct[name].astype(np.float64)
                size = weights @ self.scored[name].astype(np.float64)
                ratio = np.divide(hits, size, out=np.full_like(hits, np.nan), where=size > 0)
                parts[name].append(ratio)
        return {name: np.concatenate(chunks) for name, chunks in parts.items()}

    def _weights(self, rng: np.random.Generator, size: int) -> Ints:
        """How often each unit is drawn in each of ``size`` resamples."""
        mult = self.multiplicity
        if self.unit_level is None:  # items, each drawn with equal probability
            units = mult.shape[0]
            picks = rng.integers(0, units, size=(size, units))
            flat = picks + units * np.arange(size, dtype=np.int64)[:, None]
            return np.bincount(flat.ravel(), minlength=size * units).reshape(size, units)
        weights = np.zeros((size, mult.shape[0]), dtype=np.int64)
        for level in range(len(self.levels)):
            members = np.flatnonzero(self.unit_level == level)
            total = int(mult[members].sum())
            if total:
                weights[:, members] = rng.multinomial(total, mult[members] / total, size=size)
        return weights


def level_order(levels: Sequence[str], baseline: str | None) -> tuple[str, ...]:
    """Levels in natural order (numbers by value, then text), the baseline first when given."""
    ordered = sorted(set(levels), key=natural_sort_key)
    if baseline is not None and baseline in ordered:
        ordered.remove(baseline)
        ordered.insert(0, baseline)
    return tuple(ordered)


def stratum_frames(counts: OutcomeCounts) -> list[tuple[dict[str, Scalar], pl.DataFrame]]:
    """Each stratum's value mapping and its count rows, in sorted stratum order."""
    if not counts.strata:
        return [({}, counts.frame)]
    parts = counts.frame.partition_by(list(counts.strata), maintain_order=True, as_dict=True)
    return [(dict(zip(counts.strata, key, strict=True)), part) for key, part in parts.items()]


def item_units(counts: OutcomeCounts, part: pl.DataFrame, levels: tuple[str, ...]) -> Units:
    """Units of a stratum in item mode: items (sorted) x levels, summed counts."""
    names = part.get_column(ITEM).to_list()
    position = {item: i for i, item in enumerate(sorted(set(names)))}
    row = np.asarray([position[item] for item in names], dtype=np.int64)
    column = _level_index(part, levels)
    correct: dict[str, Ints] = {}
    scored: dict[str, Ints] = {}
    for name in counts.labellings:
        for out, source in ((correct, correct_column(name)), (scored, scored_column(name))):
            grid = np.zeros((len(position), len(levels)), dtype=np.int64)
            np.add.at(grid, (row, column), part.get_column(source).to_numpy())
            out[name] = grid
    return Units(levels, correct, scored, np.ones(len(position), dtype=np.int64), None)


def pattern_units(
    counts: OutcomeCounts, part: pl.DataFrame, levels: tuple[str, ...], names: Sequence[str]
) -> Units:
    """Units of a stratum in row mode over the joint label patterns of ``names`` only."""
    keys = [LEVEL, *(label_column(n) for n in names)]
    grouped = part.group_by(keys).agg(pl.col(ROWS).sum()).sort(keys)
    unit_level = _level_index(grouped, levels)
    onehot = np.zeros((grouped.height, len(levels)), dtype=np.int64)
    onehot[np.arange(grouped.height), unit_level] = 1
    correct: dict[str, Ints] = {}
    scored: dict[str, Ints] = {}
    for name in names:
        code = grouped.get_column(label_column(name)).to_numpy().astype(np.int64)
        correct[name] = onehot * (code == RIGHT)[:, None]
        scored[name] = onehot * (code != UNSCORED)[:, None]
    multiplicity = grouped.get_column(ROWS).to_numpy().astype(np.int64)
    return Units(levels, correct, scored, multiplicity, unit_level)


def _level_index(part: pl.DataFrame, levels: tuple[str, ...]) -> Ints:
    position = {level: i for i, level in enumerate(levels)}
    return np.asarray([position[v] for v in part.get_column(LEVEL).to_list()], dtype=np.int64)
