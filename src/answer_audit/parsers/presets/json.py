"""The built-in JSON-field presets, as data for the JSON-field engine (`parsers.jsonfield`).

Frozen once released (tests/parsers/test_golden.py pins what each extracts).
"""

from __future__ import annotations

from answer_audit.parsers.jsonfield import JsonFieldPreset

# The integer field `isup_grade` (0 to 5) of a JSON answer; null reads as 0.
JSON_ISUP_GRADE = JsonFieldPreset("json/isup_grade", "isup_grade", null_as=0, allowed=(0, 5))
# The same field, read with the tolerant reader (`parsers.json_tolerant`): trailing commas,
# single quotes, unquoted keys, comments and Python's None/True/False are JSON here too.
JSON_ISUP_GRADE_V2 = JsonFieldPreset(
    "json/isup_grade/v2", "isup_grade", null_as=0, allowed=(0, 5), tolerant=True
)
