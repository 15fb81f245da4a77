"""An lm-evaluation-harness filter that replaces each response with a preset's answer.

lm-eval builds a filter as ``partial(FilterClass, **yaml_kwargs)()`` and calls
``.apply(resps, docs)``: ``resps`` holds, per document, the list of its responses; the result
must keep that shape and order. `PresetFilter` needs nothing from lm-eval, so it is importable
(and tested) without it. Task YAML, with ``audit_filters.py`` next to it holding
``from answer_audit.integrations.lm_eval import PresetFilter``::

    filter_list:
      - name: choice-v3
        filter:
          - function: !function audit_filters.PresetFilter
            preset: choice/v3
            case: upper
          - function: take_first
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import repeat
from pathlib import Path
from typing import Any, Literal

from answer_audit.integrations._common import PresetMatcher, option_texts

__all__ = ["PresetFilter"]

Case = Literal["keep", "upper", "lower"]
FALLBACK = "[invalid]"  # what lm-eval's own regex filters return when nothing matches


class PresetFilter:
    """Each response -> the preset's extracted value as text (``fallback`` when none is found).

    ``choices`` fixes a choice preset's set (``"abcde"``); ``choices_field`` names the doc field
    with the options (a list, or ARC's ``{"text": [...]}``) for the set and option texts;
    ``case`` upper- or lowercases the value (choice presets return lowercase letters).

    >>> PresetFilter("choice/v3", case="upper").apply([["Reasoning...\\nAnswer: C"]], [{}])
    [['C']]
    """

    def __init__(
        self,
        preset: str = "choice/v3",
        *,
        fallback: str = FALLBACK,
        normalizer: str = "v1",
        choices: str | None = None,
        choices_field: str | None = None,
        case: Case = "keep",
        presets: str | Path | None = None,
    ) -> None:
        if case not in ("keep", "upper", "lower"):
            raise ValueError(f"case {case!r}: expected keep, upper or lower")
        self.matcher = PresetMatcher.create(preset, normalizer, presets)
        self.fallback = fallback
        self.choices = choices
        self.choices_field = choices_field
        self.case = case

    def apply(
        self,
        resps: Iterable[Sequence[str]],
        docs: Sequence[Mapping[str, Any]] | None = None,
    ) -> list[list[str]]:
        """Per document, its responses replaced by the extracted answers, in input order."""
        per_doc: Iterable[Mapping[str, Any]] = docs if docs is not None else repeat({})
        return [
            [self.answer(text, doc) for text in responses]
            for responses, doc in zip(resps, per_doc)  # noqa: B905 - docs may be an endless repeat
        ]

    def answer(self, text: str, doc: Mapping[str, Any] | None = None) -> str:
        """One response's answer as the task will compare it."""
        options = option_texts(doc.get(self.choices_field)) if doc and self.choices_field else None
        value = self.matcher.extract(text, options, self.choices).value
        if value is None or value == "":
            return self.fallback
        shown = str(value)
        if self.case == "upper":
            return shown.upper()
        return shown.lower() if self.case == "lower" else shown
