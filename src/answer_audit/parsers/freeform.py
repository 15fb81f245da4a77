"""Free-form answers: pick the answer region (think split, garbage-tail truncation)."""

from __future__ import annotations

from dataclasses import dataclass

from answer_audit.extraction import Extraction
from answer_audit.text import stripped_bounds, think_region_start, truncation_bounds

V1_MARKERS = (
    "Passage:",
    "Question:",
    "USER:",
    "ASSISTANT:",
    "SYSTEM:",
    "\nUSER",
    "\nASSISTANT",
    "\n\nUSER",
    "\n\nQuestion",
    "Article:",
    "Movie title:",
    "Movie plot:",
)
V2_MARKERS = tuple(m.lower() for m in V1_MARKERS)


@dataclass(frozen=True)
class FreeformPreset:
    """strip -> [text after the last </think>] -> strip -> cut at the earliest marker.

    Rules reported: ``empty``, ``whole-text``, ``after-think``, ``truncated-at-marker``,
    ``first-line-fallback`` (the cut left nothing, so the first non-empty line is used).
    """

    name: str
    markers: tuple[str, ...]
    case_sensitive: bool = True
    strip_think: bool = False
    family: str = "freeform"

    def extract(self, text: str) -> Extraction:
        start, end = stripped_bounds(text, 0, len(text))
        rule = "whole-text"
        if self.strip_think:
            cut = think_region_start(text[start:end])
            if cut:
                start, end = stripped_bounds(text, start + cut, end)
                rule = "after-think"
        if start >= end:
            return Extraction("", "empty", None)
        start, end, cut_rule = truncation_bounds(
            text, start, end, self.markers, self.case_sensitive
        )
        return Extraction(text[start:end], cut_rule or rule, (start, end))

    def describe(self) -> list[str]:
        steps = ["strip surrounding whitespace"]
        if self.strip_think:
            steps.append("`after-think`: keep the text after the last `</think>` (any case), strip")
        case = "case-sensitive" if self.case_sensitive else "searched in the lowercased text"
        shown = ", ".join(repr(m) for m in self.markers)
        steps.append(
            f"`truncated-at-marker`: cut at the earliest marker (position > 0, {case}): {shown}"
        )
        steps.append("`first-line-fallback`: if the cut leaves nothing, the first non-empty line")
        return steps


FREEFORM_V1 = FreeformPreset("freeform/v1", V1_MARKERS, case_sensitive=True, strip_think=False)
FREEFORM_V2 = FreeformPreset("freeform/v2", V2_MARKERS, case_sensitive=False, strip_think=True)
