"""The built-in numeric presets, as data for the number engine (`parsers.number`).

Frozen once released (tests/parsers/test_golden.py pins what each extracts).
"""

from __future__ import annotations

from answer_audit.parsers.number import NumberPreset
from answer_audit.parsers.presets.freeform import FREEFORM_V3

# The final number of the answer region freeform/v3 finds.
NUMBER_V1 = NumberPreset("number/v1", FREEFORM_V3)
