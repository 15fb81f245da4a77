"""An inspect_ai scorer that extracts with an answer-audit preset and matches the target.

Needs ``answer-audit[inspect]``. Example::

    from answer_audit.integrations.inspect import preset_scorer

    Task(dataset=..., solver=multiple_choice(), scorer=preset_scorer("choice/v3"))

The score's value is ``C``/``I``, its answer the extracted value, and its metadata the preset,
the rule that fired and the span in the completion: `answer-audit audit --format inspect` reads
them back as the stored parse and label.
"""

from __future__ import annotations

from pathlib import Path

from inspect_ai.scorer import CORRECT, INCORRECT, Score, Scorer, Target, accuracy, scorer, stderr
from inspect_ai.solver import TaskState

from answer_audit.extraction import Extraction
from answer_audit.integrations._common import PresetMatcher

__all__ = ["preset_scorer"]


@scorer(metrics=[accuracy(), stderr()])
def preset_scorer(
    preset: str = "choice/v3",
    *,
    normalizer: str = "v1",
    choices: str | None = None,
    presets: str | Path | None = None,
) -> Scorer:
    """Score the completion with ``preset`` and its family's matcher against every target.

    Choice presets take the choice set from ``choices`` (e.g. ``"abcde"``), else from the
    sample's choices (the ``multiple_choice`` solver's), else the preset's own; free-form presets
    match with ``normalizer``; ``presets`` is a TOML file of user presets.
    Example: `Task(..., scorer=preset_scorer("number/v1", normalizer="numeric"))`.
    """
    matcher = PresetMatcher.create(preset, normalizer, presets)

    async def score(state: TaskState, target: Target) -> Score:
        raw = state.output.completion
        options = [choice.value for choice in state.choices] if len(state.choices) else None
        found = matcher.extract(raw, options, choices)
        return Score(
            value=CORRECT if matcher.correct(found.value, target.target) else INCORRECT,
            answer=None if found.value is None else str(found.value),
            explanation=_explain(preset, found, raw),
            metadata={"preset": preset, "rule": found.rule, "normalizer": normalizer,
                      "span": None if found.span is None else list(found.span)},
        )  # fmt: skip

    return score


def _explain(preset: str, found: Extraction, raw: str) -> str:
    if found.span is None:
        return f"{preset}: rule {found.rule}"
    start, end = found.span
    return f"{preset}: rule {found.rule}, text {raw[start:end]!r} at {start}-{end}"
