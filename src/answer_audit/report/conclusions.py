"""The conclusions section's words and table rows, shared by the terminal, Markdown and HTML.

Every report puts the section first: the verdict line, what was compared, the sentences of the
contrasts and rankings that changed (`change_groups`: beyond resampling noise, within it, and
under comparison-only schemes, each under its own heading), then every contrast and ranking.
Without a comparison it shows one line on how to ask for one (the result's
``conclusions_hint``).
"""

from __future__ import annotations

from dataclasses import dataclass

from answer_audit.analysis.conclusions_results import (
    GAINED,
    LOST,
    NOT_ESTIMABLE,
    REVERSED,
    SAME,
    SHIFTED,
    SIGNIFICANT_REVERSAL,
    STORED,
    Contrast,
    Interval,
    Ranking,
    stratum_text,
)
from answer_audit.analysis.conclusions_section import (
    CHANGED,
    COMPARISON_ONLY,
    NOISE,
    ConclusionsSection,
)

STATUS_CLASS = {
    SIGNIFICANT_REVERSAL: "reversal",
    GAINED: "gained",
    LOST: "lost",
    REVERSED: "reversed",
    SHIFTED: "shifted",
    NOT_ESTIMABLE: "missing",
    SAME: "same",
}
"""A CSS class (and terminal style key) per status, most consequential first."""

CONTRAST_HEADER = ["scheme", "stratum", "contrast", "stored pp (95% CI)", "stored Holm p",
                   "scheme pp (95% CI)", "Holm p", "change pp (95% CI)", "status"]  # fmt: skip
RANKING_HEADER = ["scheme", "stratum", "stored order", "scheme order", "Kendall τ",
                  "best changed", "best in (scheme)"]  # fmt: skip


def scope_text(section: ConclusionsSection) -> str:
    """What was compared and how, in two sentences (plain text)."""
    s = section.settings
    against = (
        f"each level of {s.compare} against {s.baseline}"
        if s.baseline is not None
        else f"every pair of levels of {s.compare} (later minus earlier)"
    )
    within = f", within each {' × '.join(s.strata)}" if s.strata else ""
    how = (
        f"the rows of one {s.item} resampled together (cluster bootstrap) and p-values from "
        f"permutations within each {s.item}"
        if s.item is not None
        else "rows taken as independent (Newcombe intervals, z test)"
    )
    return (
        f"Accuracy of {against}{within}: level minus baseline in percentage points, "
        f"{s.confidence_pct:g}% intervals, {how}. Significant means Holm-adjusted p < "
        f"{s.alpha:g} within one labelling; {held_against(section)}."
    )


def held_against(section: ConclusionsSection) -> str:
    """Which labelling the schemes are held against, said plainly."""
    if section.stored_name == STORED:
        return "stored = the correctness the source recorded"
    return f"every scheme is held against the {section.stored_name}"


@dataclass(frozen=True)
class ChangeGroup:
    """Changed contrasts and rankings that count alike (`ConclusionsSection.weight`), under
    one heading."""

    weight: str
    """`CHANGED`, `NOISE` or `COMPARISON_ONLY`."""
    title: str
    """The heading, e.g. "Changed beyond resampling noise"."""
    contrasts: list[Contrast]
    """Its contrasts, most consequential status first."""
    rankings: list[Ranking]
    """Its rankings, those whose best level changed first."""


def change_groups(section: ConclusionsSection) -> list[ChangeGroup]:
    """The changes as the verdict weighs them, each group with its heading: the schemes
    compared beyond resampling noise first, then within noise, then the comparison-only
    schemes; groups without a change are left out."""
    aside = ", ".join(section.name(s) for s in section.conclusions.schemes if s in section.aside())
    titles = {
        CHANGED: "Changed beyond resampling noise",
        NOISE: "Changed within resampling noise",
        COMPARISON_ONLY: f"Shown for comparison only ({aside}), not counted in the verdict",
    }
    groups = []
    for weight, title in titles.items():
        contrasts = [c for c in section.contrasts() if section.weight(c) == weight]
        rankings = [r for r in section.rankings() if section.weight(r) == weight]
        if contrasts or rankings:
            groups.append(ChangeGroup(weight, title, contrasts, rankings))
    return groups


def pp(value: float | None) -> str:
    """``+5.0``; ``—`` when not estimable."""
    return "—" if value is None else f"{value:+.1f}"


def pp_ci(value: float | None, ci: Interval | None) -> str:
    """``-20.0 (-35.2 to -6.3)``."""
    if value is None:
        return "—"
    return pp(value) + ("" if ci is None else f" ({ci[0]:+.1f} to {ci[1]:+.1f})")


def p_text(p: float | None) -> str:
    """A p-value in three significant digits (``<0.001`` below that); ``—`` for none."""
    if p is None:
        return "—"
    return "<0.001" if p < 1e-3 else f"{p:.3f}"


def contrast_row(section: ConclusionsSection, c: Contrast) -> list[object]:
    """One row of `CONTRAST_HEADER`."""
    return [section.name(c.scheme), stratum_text(c.stratum), f"{c.level} − {c.baseline}",
            pp_ci(c.stored_effect_pp, c.stored_ci), p_text(c.stored_holm_p),
            pp_ci(c.effect_pp, c.ci), p_text(c.holm_p), pp_ci(c.change_pp, c.change_ci),
            c.status]  # fmt: skip


def ranking_row(section: ConclusionsSection, r: Ranking) -> list[object]:
    """One row of `RANKING_HEADER`."""
    tau = "—" if r.kendall_tau is None else f"{r.kendall_tau:.2f}"
    best = r.order[0]
    return [section.name(r.scheme), stratum_text(r.stratum), " > ".join(r.stored_order),
            " > ".join(r.order), tau, "yes" if r.best_changed else "no",
            f"{best} {100 * r.p_best.get(best, 0.0):.0f}%"]  # fmt: skip
