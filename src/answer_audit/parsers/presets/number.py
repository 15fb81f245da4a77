"""The built-in numeric presets, as data for the number engines (`parsers.number`,
`parsers.number_statement`).

Frozen once released (tests/parsers/test_golden.py pins what each extracts).
"""

from __future__ import annotations

from answer_audit.parsers.freeform import AnswerRegionPreset
from answer_audit.parsers.number import NumberPreset
from answer_audit.parsers.number_statement import StatementNumberPreset
from answer_audit.parsers.presets.freeform import FREEFORM_V3
from answer_audit.text.vocabulary import (
    NEXT_PROBLEM_PATTERNS,
    OPENING_TURN_PATTERNS_V4,
    QUESTION_PATTERNS_V4,
    TURN_PATTERNS_V4,
)

# The final number of the answer region freeform/v3 finds.
NUMBER_V1 = NumberPreset("number/v1", FREEFORM_V3)

# number/v2 reads the answer region freeform/v4's markers end, and a next problem
# (`Problem:`) too; a reasoning block never closed has no answer; wrappers are kept.
NUMBER_V2_REGION = AnswerRegionPreset(
    "freeform/v4 markers, and `Problem:`",
    TURN_PATTERNS_V4,
    (*QUESTION_PATTERNS_V4, *NEXT_PROBLEM_PATTERNS),
    unwrap=False,
    opening_turns=OPENING_TURN_PATTERNS_V4,
)
# The value of the last answer statement of that region: equations give their result,
# ambiguous forms no answer.
NUMBER_V2 = StatementNumberPreset("number/v2", NUMBER_V2_REGION)
