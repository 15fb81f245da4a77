"""The built-in numeric presets, as data for the number engines (`parsers.number`,
`parsers.number_statement`).

Frozen once released (tests/parsers/test_golden.py pins what each extracts).
"""

from __future__ import annotations

from dataclasses import replace

from answer_audit.parsers.freeform import AnswerRegionPreset
from answer_audit.parsers.number import NumberPreset
from answer_audit.parsers.number_statement import StatementNumberPreset
from answer_audit.parsers.presets.freeform import FREEFORM_V3
from answer_audit.text.answer_statements import ReadingRules
from answer_audit.text.vocabulary import (
    FOLLOW_UP_PATTERNS,
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

# number/v3 (built with the second blind split, fresh2, as development data) is number/v2 on
# the same region plus: harmony's analysis channel is reasoning (only the final channel
# answers); scale words multiply (`$3.2 million`, `3.5万`, `2万5千`) and `四分之三` is 3/4;
# `Answer: 7 / 8` is a fraction; a JSON string value keeps its grouping (`"12,600"`); a sum
# whose point operands are padded (`12.500 + 7.500 = 20.000`) groups with points; no answer
# for `12個または15個`, a final "cannot be calculated", or a program never run.
NUMBER_V3 = StatementNumberPreset(
    "number/v3",
    NUMBER_V2_REGION,
    rules=ReadingRules(
        scales=True,
        spaced_fraction=True,
        cjk_alternatives=True,
        quoted_json=True,
        padded_sums=True,
        no_answer_forms=True,
        harmony=True,
    ),
)

# number/v4 (built with the third blind split, fresh3, as development data) is number/v3 plus:
# number words in the answer word's language (de, es, fr, it, pt, ru, tr, nl, pl: `Die Antwort
# lautet dreiundzwanzig`, `quatre-vingt-dix-sept`, `yirmi beş`); `the answer (arabic numerals)
# is`; a ConvFinQA program's result (`subtract(a, b), divide(#0, b) = v`) and an equation in
# parentheses after a number (`is (612 − 540) / 540 = 13.3%`); no answer for an answer in parts
# (`a) 36  b) 54`) or a text cut off after `is`; `ans = ...` in code that was run is code;
# a follow-up question the model invents (`## Follow-up question`) ends the answer.
NUMBER_V4_REGION = AnswerRegionPreset(
    "freeform/v4 markers, `Problem:`, and an invented follow-up question",
    TURN_PATTERNS_V4,
    (*QUESTION_PATTERNS_V4, *NEXT_PROBLEM_PATTERNS, *FOLLOW_UP_PATTERNS),
    unwrap=False,
    opening_turns=OPENING_TURN_PATTERNS_V4,
)
NUMBER_V4 = StatementNumberPreset(
    "number/v4",
    NUMBER_V4_REGION,
    rules=replace(
        NUMBER_V3.rules,
        word_languages=True,
        answer_parenthesis=True,
        programs=True,
        part_answers=True,
        copula_cut_off=True,
        code_prefixes=True,
    ),
)
