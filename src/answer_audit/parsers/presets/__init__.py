"""Every built-in preset, as data: one module per parser family, and `BUILTIN`, all of them.

- `presets.choice`: ``choice/v1`` .. ``choice/v11``, and two framework conventions (`COMPARISON`)
- `presets.freeform`: ``freeform/v1`` .. ``freeform/v4``
- `presets.number`: ``number/v1`` .. ``number/v4``
- `presets.json`: ``json/isup_grade`` and ``json/isup_grade/v2`` (the tolerant reader)

A built-in preset is frozen once released: tests/parsers/test_golden.py pins what each extracts.
A new version is a new preset object here, never a change to an old one.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from answer_audit.parsers.base import Parser
from answer_audit.parsers.presets.choice import (
    CHOICE_ANSWER_COLON_FIRST,
    CHOICE_LETTER_BOUNDARY,
    CHOICE_V1,
    CHOICE_V2,
    CHOICE_V3,
    CHOICE_V4,
    CHOICE_V5,
    CHOICE_V6,
    CHOICE_V7,
    CHOICE_V8,
    CHOICE_V9,
    CHOICE_V10,
    CHOICE_V11,
    CHOICE_V12,
)
from answer_audit.parsers.presets.freeform import (
    FREEFORM_V1,
    FREEFORM_V2,
    FREEFORM_V3,
    FREEFORM_V4,
)
from answer_audit.parsers.presets.json import JSON_ISUP_GRADE, JSON_ISUP_GRADE_V2
from answer_audit.parsers.presets.number import NUMBER_V1, NUMBER_V2, NUMBER_V3, NUMBER_V4

# By name, in a stable order: family by family, versions in release order.
BUILTIN: Mapping[str, Parser] = MappingProxyType(
    {
        p.name: p
        for p in (
            FREEFORM_V1,
            FREEFORM_V2,
            FREEFORM_V3,
            FREEFORM_V4,
            CHOICE_V1,
            CHOICE_V2,
            CHOICE_V3,
            CHOICE_V4,
            CHOICE_V5,
            CHOICE_V6,
            CHOICE_V7,
            CHOICE_V8,
            CHOICE_V9,
            CHOICE_V10,
            CHOICE_V11,
            CHOICE_V12,
            CHOICE_ANSWER_COLON_FIRST,
            CHOICE_LETTER_BOUNDARY,
            JSON_ISUP_GRADE,
            JSON_ISUP_GRADE_V2,
            NUMBER_V1,
            NUMBER_V2,
            NUMBER_V3,
            NUMBER_V4,
        )
    }
)
# Presets that mimic other frameworks' conventions: for comparison, not recommended for use.
COMPARISON = frozenset({CHOICE_ANSWER_COLON_FIRST.name, CHOICE_LETTER_BOUNDARY.name})
