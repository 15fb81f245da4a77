"""The conclusions as an audit, rescore or diff result carries them: `ConclusionsSection`.

`analysis.conclusions` computes the numbers; a report also needs the name of the labelling the
schemes are held against, and one JSON object. "Stored" means the correctness the harness
recorded (a label column, lm-eval's metric, the inspect scorer's value); where the source
recorded none, the stored parse is re-matched, and every report says so (`rematched_name`).

Also here, shared by the three commands: `conclusion_settings` (what is compared, from the
command's group-by columns) and `conclusions_from_labels` (the conclusions of per-row labels).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from answer_audit.analysis.conclusions import conclusions
from answer_audit.analysis.conclusions_results import (
    NOT_ESTIMABLE,
    SAME,
    STORED,
    Conclusions,
    ConclusionSettings,
    Contrast,
    Ranking,
)
from answer_audit.analysis.records import INTERNAL, JsonRecord
from answer_audit.parsers import COMPARISON

__all__ = [
    "ASK_FOR_CONCLUSIONS",
    "CHANGED",
    "COMPARISON_ONLY",
    "NOISE",
    "UNCHANGED",
    "ConclusionsSection",
    "compare_hint",
    "conclusion_settings",
    "conclusions_from_labels",
    "rematched_name",
]

ASK_FOR_CONCLUSIONS = (
    "Conclusions not checked: pass --compare FACTOR (the column whose levels you compare, e.g. "
    "model or condition; with --baseline LEVEL and --item COLUMN) to see whether each effect "
    "and ranking survives re-labelling."
)


CHANGED, NOISE, COMPARISON_ONLY, UNCHANGED = "changed", "within noise", "comparison only", "same"
"""Where a contrast or ranking counts (`ConclusionsSection.weight`)."""


def compare_hint(compare: str, baseline: str | None = None) -> str:
    """The line a report shows without a comparison, suggesting one that fits the source.

    >>> compare_hint("condition", "control")[:70]
    'Conclusions not checked: pass --compare condition --baseline control t'
    """
    flags = f"--compare {compare}" + (f" --baseline {baseline}" if baseline is not None else "")
    return (
        f"Conclusions not checked: pass {flags} to see whether each effect and ranking "
        "survives re-labelling (add --item COLUMN when every level answers the same questions)."
    )


def rematched_name(matcher: str) -> str:
    """The stored labelling's name where no correctness was recorded.

    >>> rematched_name("v1")
    'stored parse, re-matched by v1'
    """
    return f"stored parse, re-matched by {matcher}"


@dataclass(frozen=True)
class ConclusionsSection(JsonRecord):
    """The conclusions of one report, with the name of the labelling they start from."""

    conclusions: Conclusions
    """Effects, rankings and their stability, per scheme."""
    stored_name: str = STORED
    """``stored`` for recorded correctness; `rematched_name` where none was recorded."""
    scheme_names: Mapping[str, str] | None = None
    """Display name per scheme, where it differs from the scheme's own (diff: ``B (choice/v4)``)."""
    comparison_only: tuple[str, ...] | None = field(default=None, metadata=INTERNAL)
    """Schemes shown for comparison only, counted after the verdict's headline; None: those
    named after a comparison preset (`answer_audit.parsers.COMPARISON`, another framework's
    convention). Ignored when every scheme is one (then they are what was asked for)."""

    @property
    def settings(self) -> ConclusionSettings:
        """What was compared."""
        return self.conclusions.settings

    def contrasts(self) -> list[Contrast]:
        """Every contrast, statuses other than ``same`` first (most consequential first), then
        in scheme, stratum and contrast order."""
        changed = self.conclusions.changed_contrasts()
        return changed + [c for c in self.conclusions.contrasts if c not in changed]

    def rankings(self) -> list[Ranking]:
        """Every ranking, those whose best level changed first, then those whose order did."""
        return sorted(self.conclusions.rankings, key=lambda r: (not r.best_changed,
                                                                 not r.order_changed))  # fmt: skip

    def aside(self) -> frozenset[str]:
        """The schemes the verdict counts after its headline (`comparison_only`)."""
        schemes = self.conclusions.schemes
        named = self.comparison_only
        aside = (
            frozenset(s for s in schemes if s in COMPARISON) if named is None else frozenset(named)
        )
        return aside if set(schemes) - aside else frozenset()

    def weight(self, item: Contrast | Ranking) -> str:
        """Where a contrast or ranking counts: `CHANGED` (a scheme compared, changed beyond
        resampling noise, or not estimable), `NOISE` (changed within noise), `COMPARISON_ONLY` (a
        comparison-only scheme's change) or `UNCHANGED`."""
        if isinstance(item, Contrast):
            moved, strong = item.status != SAME, item.beyond_noise or item.status == NOT_ESTIMABLE
        else:
            moved, strong = item.order_changed, item.clearly_changed(self.settings.alpha)
        if not moved:
            return UNCHANGED
        if item.scheme in self.aside():
            return COMPARISON_ONLY
        return CHANGED if strong else NOISE

    def changed(self) -> bool:
        """Whether the verdict's headline reads as anything but holding: a scheme compared
        changed a contrast or ranking beyond resampling noise, or a contrast is not estimable
        (changes within noise, or under comparison-only schemes, do not count)."""
        items: list[Contrast | Ranking] = [*self.conclusions.contrasts, *self.conclusions.rankings]
        return any(self.weight(item) == CHANGED for item in items)

    def verdict(self) -> str:
        """One line: its headline weighs the schemes compared and changes beyond resampling
        noise, and it still names every change within noise and under comparison-only schemes
        (`Conclusions.verdict`)."""
        return self.conclusions.verdict(self.aside())

    def name(self, scheme: str) -> str:
        """A scheme's display name."""
        return (self.scheme_names or {}).get(scheme, scheme)

    def sentence(self, item: Contrast | Ranking) -> str:
        """One plain sentence for a contrast or a ranking, with the display names."""
        if isinstance(item, Contrast):
            return item.sentence(
                self.name(item.scheme), self.stored_name,
                confidence_pct=self.settings.confidence_pct,
            )  # fmt: skip
        return item.sentence(self.name(item.scheme), self.stored_name, self.settings.compare)

    def to_dict(self) -> dict[str, Any]:
        """The JSON ``conclusions`` object: ``settings``, ``stored`` (the labelling's name),
        ``verdict``, ``contrasts`` (the issue's keys plus ``stored_holm_p``, changed first),
        ``rankings`` (changed first) and ``levels`` (each level's accuracy per labelling)."""
        return {
            "settings": self.settings.to_dict(),
            "stored": self.stored_name,
            "verdict": self.verdict(),
            "contrasts": [contrast_dict(c) for c in self.contrasts()],
            "rankings": [r.to_dict() for r in self.rankings()],
            "levels": [level.to_dict() for level in self.conclusions.levels],
        }


def contrast_dict(contrast: Contrast) -> dict[str, Any]:
    """A contrast's JSON object with ``stored_holm_p`` after ``stored_p``: it shows why a
    contrast is lost or gained (significance is decided on Holm-adjusted p)."""
    out: dict[str, Any] = {}
    for key, value in contrast.to_dict().items():
        out[key] = value
        if key == "stored_p":
            out["stored_holm_p"] = contrast.stored_holm_p
    return out


def conclusion_settings(
    compare: str | None,
    baseline: str | None,
    item: str | None,
    group_by: Sequence[str],
    *,
    seed: int,
    n_boot: int,
    alpha: float,
) -> ConclusionSettings | None:
    """`ConclusionSettings` for ``compare`` within the strata ``group_by`` (minus ``compare``),
    or None without ``compare``; a baseline or item without it, or an item that is also a
    group-by column, is refused with a message that names the flags.

    >>> conclusion_settings("model", None, None, ("model", "task"), seed=0, n_boot=100,
    ...                     alpha=0.05).strata
    ('task',)
    """
    if compare is None:
        given = [name for name, v in (("baseline", baseline), ("item", item)) if v is not None]
        if given:
            raise ValueError(
                f"{' and '.join(given)} (--{' and --'.join(given)}) "
                f"{'needs' if len(given) == 1 else 'need'} compare: the column whose "
                "levels are compared (--compare FACTOR)"
            )
        return None
    if item is not None and item in group_by:
        raise ValueError(
            f"item {item!r} is also a group-by column: each stratum would hold one item; drop "
            "it from the group-by columns (--group-by)"
        )
    strata = tuple(g for g in group_by if g != compare)
    return ConclusionSettings(compare, baseline, strata, item, seed=seed, n_boot=n_boot,
                              alpha=alpha)  # fmt: skip


def check_conclusion_columns(columns: Sequence[str], settings: ConclusionSettings) -> None:
    """A compare or item column missing from the table is refused, naming what is there."""
    wanted = [("compare", settings.compare), ("item", settings.item)]
    missing = [f"{what} column {name!r}" for what, name in wanted if name and name not in columns]
    if missing:
        raise ValueError(
            f"the table lacks the {' and the '.join(missing)}; available: {', '.join(columns)}"
        )


def conclusions_from_labels(
    frame: pl.DataFrame,
    settings: ConclusionSettings,
    stored: Sequence[bool | None],
    labelled: Mapping[str, Sequence[bool | None]],
) -> Conclusions:
    """The conclusions of per-row labels in ``frame``'s row order: ``stored`` and one list per
    scheme (None: the row is not scored under that labelling)."""
    check_conclusion_columns(frame.columns, settings)
    keep = [*settings.strata, settings.compare, *([settings.item] if settings.item else [])]
    table = frame.select(list(dict.fromkeys(keep)))
    names = {scheme: f"__scheme{i}" for i, scheme in enumerate(labelled)}
    table = table.with_columns(
        pl.Series("__stored", list(stored), dtype=pl.Boolean),
        *(pl.Series(names[s], list(v), dtype=pl.Boolean) for s, v in labelled.items()),
    )
    return conclusions(table, settings, stored="__stored", schemes=names)
