"""The built-in free-form presets, as data for the free-form engines (`parsers.freeform`).

Frozen once released (tests/parsers/test_golden.py pins what each extracts). Their marker
lists are shared with the audit and the vectorized rules, so they live in
`answer_audit.text.vocabulary`.
"""

from __future__ import annotations

from answer_audit.parsers.freeform import AnswerRegionPreset, FreeformPreset
from answer_audit.text.vocabulary import QUESTION_PATTERNS, TURN_MARKERS, TURN_PATTERNS

# freeform/v2 searches the lowercased text, so it cuts at the markers lowercased.
V2_MARKERS = tuple(m.lower() for m in TURN_MARKERS)

FREEFORM_V1 = FreeformPreset("freeform/v1", TURN_MARKERS, case_sensitive=True, strip_think=False)
FREEFORM_V2 = FreeformPreset("freeform/v2", V2_MARKERS, case_sensitive=False, strip_think=True)
FREEFORM_V3 = AnswerRegionPreset("freeform/v3", TURN_PATTERNS, QUESTION_PATTERNS, unwrap=True)
