"""The conclusions section of every Markdown report (first after the title)."""

from __future__ import annotations

from answer_audit.analysis.conclusions_section import CHANGED, ConclusionsSection
from answer_audit.report.conclusions import (
    CONTRAST_HEADER,
    RANKING_HEADER,
    change_groups,
    contrast_row,
    ranking_row,
    scope_text,
)
from answer_audit.report.markdown.safe import cell, table


def conclusions_markdown(section: ConclusionsSection | None, hint: str) -> list[str]:
    """The section's lines: without conclusions, the one hint line; with them, the verdict,
    what was compared, the sentences of what changed (beyond resampling noise, within it, and
    under comparison-only schemes, each under its heading), then every contrast and ranking
    (changed first). Level and column names come from the data, so they are escaped."""
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
    for group in change_groups(section):
        # the first group keeps the headings it always had; the others name their weight
        own = group.weight == CHANGED
        if group.contrasts:
            out += ["### Contrasts that changed" if own else f"### {cell(group.title)}", ""]
            out += [f"- {cell(section.sentence(c))}" for c in group.contrasts] + [""]
        if group.rankings:
            head = "### Rankings that changed" if own else f"### {cell(group.title)}: rankings"
            out += [head, ""]
            out += [f"- {cell(section.sentence(r))}" for r in group.rankings] + [""]
    contrasts: list[list[object]] = [contrast_row(section, c) for c in section.contrasts()]
    if contrasts:
        out += ["### Every contrast", "", table(CONTRAST_HEADER, contrasts), ""]
    rankings: list[list[object]] = [ranking_row(section, r) for r in section.rankings()]
    if rankings:
        out += ["### Every ranking", "", table(RANKING_HEADER, rankings), ""]
    return out
