"""The built-in free-form presets, as data for the free-form engines (`parsers.freeform`).

Frozen once released (tests/parsers/test_golden.py pins what each extracts). Their marker
lists are shared with the audit and the vectorized rules, so they live in
`answer_audit.text.vocabulary`.
"""

from __future__ import annotations

from answer_audit.parsers.freeform import AnswerRegionPreset, FreeformPreset
from answer_audit.text.vocabulary import (
    OPENING_TURN_PATTERNS_V4,
    QUESTION_PATTERNS,
    QUESTION_PATTERNS_V4,
    TURN_MARKERS,
    TURN_PATTERNS,
    TURN_PATTERNS_V4,
)

# freeform/v2 searches the lowercased text, so it cuts at the markers lowercased.
V2_MARKERS = tuple(m.lower() for m in TURN_MARKERS)

FREEFORM_V1 = FreeformPreset("freeform/v1", TURN_MARKERS, case_sensitive=True, strip_think=False)
FREEFORM_V2 = FreeformPreset("freeform/v2", V2_MARKERS, case_sensitive=False, strip_think=True)
FREEFORM_V3 = AnswerRegionPreset("freeform/v3", TURN_PATTERNS, QUESTION_PATTERNS, unwrap=True)
# freeform/v4: v3's region, read as the broad corpus's rules say (tests/labels/README.md): more
# chat formats and question words end the answer, an output that opens with the asker's turn
# has no answer, and a reasoning trace never closed is read (a free-form reader judges it).
FREEFORM_V4 = AnswerRegionPreset(
    "freeform/v4",
    TURN_PATTERNS_V4,
    QUESTION_PATTERNS_V4,
    unwrap=True,
    read_open_reasoning=True,
    opening_turns=OPENING_TURN_PATTERNS_V4,
)
