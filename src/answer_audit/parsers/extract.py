"""`extract`: one call from a raw output and a preset name to an Extraction."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from answer_audit import arguments
from answer_audit.extraction import Extraction
from answer_audit.parsers import ChoicePreset, Parser, get_parser


def extract(
    text: str,
    parser: str | Parser = "choice/v3",
    *,
    choices: str | None = None,
    choices_text: Sequence[str] | Mapping[str, str] | None = None,
    presets: Mapping[str, Parser] | None = None,
) -> Extraction:
    """Extract the answer from ``text`` with a preset (by name, or a preset object).

    ``choices`` overrides the choice set of a multiple-choice preset (e.g. ``"abcde"``);
    ``choices_text`` gives the options' texts (in order, or keyed by letter), which presets
    with an ``option-text`` step (``choice/v4``) match when no letter is given.

    >>> extract("Reasoning...\\n\\nAnswer: C", "choice/v3")
    Extraction(value='c', rule='answer-line', span=(22, 23))
    """
    arguments.text(text, "extract")
    arguments.text(choices, "extract", "choices", optional=True)
    arguments.options(choices_text, "extract")
    if presets is not None and not isinstance(presets, Mapping):
        raise TypeError(
            f"extract(): presets must be a PresetSet or dict, not {type(presets).__name__}"
        )
    if not isinstance(parser, str) and not callable(getattr(parser, "extract", None)):
        raise TypeError(
            f"extract(): parser must be a preset name or a preset, not {type(parser).__name__}"
        )
    preset = get_parser(parser, presets) if isinstance(parser, str) else parser
    if isinstance(preset, ChoicePreset):
        return preset.extract(text, choices, choices_text)
    return preset.extract(text)
