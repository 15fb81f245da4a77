"""One labelling's metrics on a set of rows, typed: accuracy, balanced accuracy, per-class
recall, failures and errors, each rate with its seeded bootstrap summary."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from answer_audit.analysis.records import JsonRecord
from answer_audit.analysis.stats import (
    BootstrapSummary,
    bootstrap_accuracy_counts,
    bootstrap_balanced_accuracy_counts,
    natural_sort_key,
    per_class_recall,
)

Mask = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class BootSettings:
    """How the bootstrap intervals are drawn (not part of any JSON object by itself)."""

    resamples: int
    """B, the number of resamples."""
    seed: int
    """Seed of the resampling stream: the same seed gives the same intervals."""
    ci: float
    """Level of the percentile intervals, e.g. 0.95."""


@dataclass(frozen=True)
class Bootstrap(JsonRecord):
    """A metric's bootstrap distribution (`answer_audit.analysis.stats.bootstrap`)."""

    mean: float
    """Mean of the resampled values (not the point estimate)."""
    std: float
    """Standard deviation of the resampled values (ddof=1): the ± in the reports."""
    ci: tuple[float, float]
    """Percentile interval (low, high) at the settings' level."""

    @classmethod
    def of(cls, summary: BootstrapSummary) -> Bootstrap:
        """The typed form of a `BootstrapSummary` from `answer_audit.analysis.stats`."""
        low, high = summary["ci"]
        return cls(mean=summary["mean"], std=summary["std"], ci=(low, high))


@dataclass(frozen=True)
class MetricBootstraps(JsonRecord):
    """The bootstrap summaries of the rates; None where the rate is (no scored rows)."""

    accuracy: Bootstrap | None
    """Bootstrap of the accuracy."""
    balanced_accuracy: Bootstrap | None
    """Bootstrap of the balanced accuracy."""


@dataclass(frozen=True)
class ClassRecall(JsonRecord):
    """Rows of one truth class, and how many of them are labelled correct."""

    correct: int
    """Rows of the class labelled correct."""
    total: int
    """Rows of the class."""


@dataclass(frozen=True)
class Metrics(JsonRecord):
    """One labelling scored on a set of rows (the rows with a truth among them)."""

    n: int
    """Scored rows: rows with a truth."""
    accuracy: float | None
    """Fraction of scored rows labelled correct; None without scored rows."""
    balanced_accuracy: float | None
    """Mean over truth classes of each class's recall; None without scored rows."""
    per_class_recall: Mapping[str, ClassRecall]
    """Truth class -> its recall counts, classes in natural order (numbers numerically)."""
    failures: int
    """Scored rows where nothing was extracted (an error row is not a failure)."""
    errors: int
    """Scored error rows: an error message, or an empty output."""
    bootstrap: MetricBootstraps
    """Bootstrap summaries of ``accuracy`` and ``balanced_accuracy``."""

    @classmethod
    def of(
        cls,
        correct: Mask,
        failed: Mask,
        errored: Mask,
        classes: npt.NDArray[Any],
        boot: BootSettings,
    ) -> Metrics:
        """Metrics of the given rows: per row correct / failed / errored and its truth class.

        >>> yes, no = np.array([True, False]), np.array([False, False])
        >>> m = Metrics.of(yes, no, no, np.array(["a", "b"]), BootSettings(10, 0, 0.95))
        >>> m.accuracy, m.balanced_accuracy, m.per_class_recall["a"]
        (0.5, 0.5, ClassRecall(correct=1, total=1))
        """
        if correct.size == 0:
            return cls.of_counts({}, 0, 0, boot)
        recall = per_class_recall(classes, correct)
        return cls.of_counts(
            {k: (v["correct"], v["total"]) for k, v in recall.items()},
            int(failed.sum()),
            int(errored.sum()),
            boot,
        )

    @classmethod
    def of_counts(
        cls,
        recall: Mapping[str, tuple[int, int]],
        failures: int,
        errors: int,
        boot: BootSettings,
    ) -> Metrics:
        """Metrics from counts alone: per truth class (rows correct, rows), failures and
        errors. The same numbers and intervals as `of` on the rows the counts describe, so
        counts summed over partitions give the whole table's metrics.

        >>> m = Metrics.of_counts({"a": (1, 1), "b": (0, 1)}, 0, 0, BootSettings(10, 0, 0.95))
        >>> m.accuracy, m.balanced_accuracy
        (0.5, 0.5)
        """
        classes = sorted((k for k, (_, total) in recall.items() if total), key=natural_sort_key)
        hits = np.array([recall[k][0] for k in classes], dtype=np.int64)
        totals = np.array([recall[k][1] for k in classes], dtype=np.int64)
        n = int(totals.sum())
        if n == 0:
            empty = MetricBootstraps(accuracy=None, balanced_accuracy=None)
            return cls(0, None, None, {}, 0, 0, empty)
        b, seed, ci = boot.resamples, boot.seed, boot.ci
        right = int(hits.sum())
        return cls(
            n=n,
            accuracy=right / n,
            balanced_accuracy=float(np.mean(hits / totals)),
            per_class_recall={
                k: ClassRecall(int(h), int(t))
                for k, h, t in zip(classes, hits, totals, strict=True)
            },
            failures=failures,
            errors=errors,
            bootstrap=MetricBootstraps(
                accuracy=Bootstrap.of(bootstrap_accuracy_counts(right, n, B=b, seed=seed, ci=ci)),
                balanced_accuracy=Bootstrap.of(
                    bootstrap_balanced_accuracy_counts(hits, totals, B=b, seed=seed, ci=ci)
                ),
            ),
        )
