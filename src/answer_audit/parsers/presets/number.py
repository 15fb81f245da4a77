"""The built-in numeric presets, as data for the number engines (`parsers.number`,
`parsers.number_statement`).

Frozen once released (tests/parsers/test_golden.py pins what each extracts).
"""

from __future__ import annotations

from answer_audit.parsers.number import NumberPreset
from answer_audit.parsers.number_statement import StatementNumberPreset
from answer_audit.parsers.presets.freeform import FREEFORM_V3, FREEFORM_V4

# The final number of the answer region freeform/v3 finds.
NUMBER_V1 = NumberPreset("number/v1", FREEFORM_V3)
# The value of the last answer statement of the answer region freeform/v4 finds (a reasoning
# block never closed has no answer): equations give their result, ambiguous forms no answer.
NUMBER_V2 = StatementNumberPreset("number/v2", FREEFORM_V4)
