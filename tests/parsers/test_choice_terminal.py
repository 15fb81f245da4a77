"""The terminal-answer rule of choice/v5: an output that ends with its answer line is decided at
once, and wherever the rule decides, it agrees with the full reading."""

from __future__ import annotations

import dataclasses
import sys

import pytest
from hypothesis import given, settings

from answer_audit import extract
from answer_audit.parsers.choice_terminal import RULE as TERMINAL
from answer_audit.parsers.choice_terminal import terminal_rule
from answer_audit.parsers.presets.choice import CHOICE_V5, CHOICE_V7
from paths import REPO
from strategies import CHOICE_OUTPUTS

FULL_READING = dataclasses.replace(CHOICE_V5, terminal=False)
# choice/v7 reads more than v5 (verdict lists, alternatives in wrappers): the rule must still
# agree with its full reading wherever it decides
FULL_READINGS = (FULL_READING, dataclasses.replace(CHOICE_V7, terminal=False))


ENDINGS = ["The answer is ({X}).", "Answer: {X}", "**Answer:** {X}", "ANSWER: {X}",
           "Final Answer: $\\boxed{{{X}}}$", "So the correct option is {X}.", "答案: {X}"]  # fmt: skip


@pytest.mark.parametrize("ending", ENDINGS)
def test_an_output_that_ends_with_its_answer_line_decides_at_once(ending: str) -> None:
    text = "Let's think step by step. Option A confuses mass and weight.\n\n" + ending.format(X="C")
    found = extract(text, "choice/v5")
    assert (found.value, found.rule) == ("c", TERMINAL)
    assert found.span is not None and text[found.span[0] : found.span[1]] == "C"


@pytest.mark.parametrize(
    "text",
    [
        "Answer: A\n\nWait, the second step was wrong.\n\nAnswer: C",  # another answer line
        "A\nB\nC\nAnswer: D",  # letters alone
        "<think>x</think>\nAnswer: C",  # a reasoning tag
        "ANSWER: A\n\nUSER: next?\nAnswer: C",  # a turn
        "The answer is (A).\nThe answer is (B).\nThe answer is (C).",
    ],
)
def test_the_terminal_rule_leaves_other_outputs_to_the_full_reading(text: str) -> None:
    assert terminal_rule("abcd") is not None
    assert terminal_rule("abcd").answer(text) is None  # type: ignore[union-attr]


def _cot_outputs() -> list[str]:
    sys.path.insert(0, str(REPO / "benchmarks"))
    from cot import cot_outputs  # benchmarks/ is not a package: imported by path

    return cot_outputs(400, seed=11, hard=0.3)


def test_the_terminal_rule_agrees_with_the_full_reading_where_it_decides() -> None:
    rule = terminal_rule("abcd")
    assert rule is not None
    decided = 0
    for text in _cot_outputs():
        found = rule.answer(text)
        if found is None:
            continue
        decided += 1
        for reading in FULL_READINGS:
            full = reading.extract(text)
            assert (full.value, full.span) == (found[2], (found[0], found[1])), text
    assert decided > 200


@settings(max_examples=300, deadline=None)
@given(CHOICE_OUTPUTS)
def test_the_terminal_rule_and_the_full_reading_agree(text: str) -> None:
    rule = terminal_rule("abcd")
    assert rule is not None
    found = rule.answer(text)
    if found is not None:
        for reading in FULL_READINGS:
            full = reading.extract(text)
            assert (full.value, full.span) == (found[2], (found[0], found[1]))
