"""The conclusions section of every Markdown report (first after the title)."""

from __future__ import annotations

from answer_audit.analysis.conclusions_section import ConclusionsSection
from answer_audit.report.conclusions import (
    CONTRAST_HEADER,
    RANKING_HEADER,
    changed_contrasts,
    contrast_row,
    moved_rankings,
    ranking_row,
    scope_text,
)
from answer_audit.report.markdown.safe import cell, table


def conclusions_markdown(section: ConclusionsSection | None, hint: str) -> list[str]:
    """The section's lines: without conclusions, the one hint line; with them, the verdict,
    what was compared, the sentences of what changed, then every contrast and ranking (changed
    first). Level and column names come from the data, so they are escaped."""
    if section is None:
        return [cell(hint), ""]
    out = [
        "## Conclusions",
        "",
        f"**{cell(section.verdict())}**",
        "",
        cell(scope_text(section)),
        "",
    ]
    changed, moved = changed_contrasts(section), moved_rankings(section)
    if changed:
        out += ["### Contrasts that changed", ""]
        out += [f"- {cell(section.sentence(c))}" for c in changed] + [""]
    if moved:
        out += ["### Rankings that changed", ""]
        out += [f"- {cell(section.sentence(r))}" for r in moved] + [""]
    contrasts: list[list[object]] = [contrast_row(section, c) for c in section.contrasts()]
    if contrasts:
        out += ["### Every contrast", "", table(CONTRAST_HEADER, contrasts), ""]
    rankings: list[list[object]] = [ranking_row(section, r) for r in section.rankings()]
    if rankings:
        out += ["### Every ranking", "", table(RANKING_HEADER, rankings), ""]
    return out
