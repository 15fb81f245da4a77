"""The conclusions section of every HTML report: what the template lays out, computed here.

Beside the verdict and the sentences, it draws each contrast as a forest plot under the stored
labels and under every scheme side by side, on one scale, so a reader sees at a glance which
effect moved, shrank, grew or changed sign. Rows with a changed status come first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from answer_audit.analysis.conclusions_results import (
    SAME,
    STATUS_ORDER,
    Contrast,
    Interval,
    stratum_text,
)
from answer_audit.analysis.conclusions_section import CHANGED, ConclusionsSection
from answer_audit.report.conclusions import (
    RANKING_HEADER,
    STATUS_CLASS,
    change_groups,
    p_text,
    ranking_row,
    scope_text,
)
from answer_audit.report.html import charts

# One forest plot per labelling, side by side: as wide as the page allows (about 780 px for the
# charts beside the labels), within readable bounds.
CHARTS_WIDTH, MIN_WIDTH, MAX_WIDTH = 780, 96, 160


def effect_width(labellings: int) -> int:
    """The width of one forest plot when ``labellings`` stand side by side.

    >>> effect_width(2), effect_width(5), effect_width(8)
    (160, 156, 97)
    """
    return max(MIN_WIDTH, min(MAX_WIDTH, CHARTS_WIDTH // max(labellings, 1)))


@dataclass(frozen=True)
class EffectCell:
    """One labelling's estimate of one contrast, drawn."""

    chart: Markup | None
    """The forest row; None when the effect cannot be estimated."""
    status: str
    """The contrast's status under this scheme (``""`` for the stored column)."""
    css: str
    """The status's CSS class."""


@dataclass(frozen=True)
class ContrastRow:
    """One contrast (a stratum's level against its baseline) under every labelling."""

    stratum: str
    contrast: str
    stored: EffectCell
    schemes: list[EffectCell]
    changed: bool


def conclusions_context(section: ConclusionsSection | None, hint: str) -> dict[str, Any]:
    """The template's ``conclusions`` (None without a comparison) and ``conclusions_hint``."""
    if section is None:
        return {"conclusions": None, "conclusions_hint": hint}
    rows = _contrast_rows(section)
    return {"conclusions": {
        "verdict": section.verdict(),
        "changed": section.changed(),
        "scope": scope_text(section),
        "counts": [(status, n, STATUS_CLASS[status])
                   for status, n in section.conclusions.status_counts().items()],
        "groups": [{
            "title": group.title,
            "own": group.weight == CHANGED,
            "contrasts": [(c.status, STATUS_CLASS[c.status], section.sentence(c))
                          for c in group.contrasts],
            "rankings": [section.sentence(r) for r in group.rankings],
        } for group in change_groups(section)],
        "stored_name": section.stored_name,
        "schemes": [section.name(s) for s in section.conclusions.schemes],
        "rows": rows,
        "has_strata": bool(section.settings.strata),
        "axis": charts.axis(_scale(section), "pp"),
        "ranking_header": RANKING_HEADER,
        "ranking_rows": [(ranking_row(section, r), r.order_changed) for r in section.rankings()],
        "alpha": section.settings.alpha,
        "confidence": f"{section.settings.confidence_pct:g}%",
    }, "conclusions_hint": hint}  # fmt: skip


def _scale(section: ConclusionsSection) -> charts.Scale:
    intervals = [c.ci for c in section.conclusions.contrasts if c.ci is not None]
    intervals += [c.stored_ci for c in section.conclusions.contrasts if c.stored_ci is not None]
    width = effect_width(1 + len(section.conclusions.schemes))
    return charts.delta_scale(intervals, width=width)


def _contrast_rows(section: ConclusionsSection) -> list[ContrastRow]:
    """One row per (stratum, level, baseline), in the contrasts' order, rows where a scheme's
    status is not ``same`` first (the most consequential status first)."""
    scale, alpha = _scale(section), section.settings.alpha
    by_key: dict[tuple[str, str, str], list[Contrast]] = {}
    for c in section.conclusions.contrasts:
        by_key.setdefault((stratum_text(c.stratum), c.level, c.baseline), []).append(c)
    rank = {status: i for i, status in enumerate(STATUS_ORDER)}
    ranked = []
    for (stratum, level, baseline), found in by_key.items():
        first = found[0]  # the stored estimate is the same beside every scheme
        stored = _cell(first.stored_effect_pp, first.stored_ci, first.stored_holm_p, "", scale,
                       alpha, section.stored_name)  # fmt: skip
        cells = [_cell(c.effect_pp, c.ci, c.holm_p, c.status, scale, alpha, section.name(c.scheme))
                 for c in found]  # fmt: skip
        changed = any(c.status != SAME for c in found)
        row = ContrastRow(stratum, f"{level} − {baseline}", stored, cells, changed)
        ranked.append((min(rank[c.status] for c in found), row))
    return [row for _, row in sorted(ranked, key=lambda pair: pair[0])]


def _cell(
    effect: float | None,
    ci: Interval | None,
    holm_p: float | None,
    status: str,
    scale: charts.Scale,
    alpha: float,
    name: str,
) -> EffectCell:
    css = STATUS_CLASS.get(status, "")
    if effect is None or ci is None:
        return EffectCell(None, status, css)
    significant = holm_p is not None and holm_p < alpha
    title = (
        f"{name}: {effect:+.1f} pp (CI {ci[0]:+.1f} to {ci[1]:+.1f}), Holm p {p_text(holm_p)}"
        + (f", {status}" if status else "")
    )
    chart = charts.forest_row(ci[0], effect, ci[1], scale, significant, title=title)
    return EffectCell(chart, status, css)
