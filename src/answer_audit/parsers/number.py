"""Numeric answers: the final number of the answer region, written exactly.

The answer region is a free-form preset's (``freeform/v3`` for ``number/v1``): the text after
the last closing reasoning delimiter, cut where an invented new turn starts; a reasoning block
left open has no answer. In it, ``\\boxed{}`` wins over ``####``, which wins over an
``Answer:`` line, which wins over the last number (see `answer_audit.text.numerals.final_number`).
The value is the number as a short exact string (``1234.5`` for ``$1,234.50``, ``-3``,
``0.75`` for ``3/4``, ``29`` for ``29.00``); compare values with the ``numeric`` matcher. The
built-in presets are data in `answer_audit.parsers.presets.number`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from answer_audit.extraction import Extraction
from answer_audit.parsers.freeform import AnswerRegionPreset, FreeformPreset
from answer_audit.text.numerals import final_number, prepare

_NO_REGION = frozenset({"empty", "unclosed-think"})


@dataclass(frozen=True)
class NumberPreset:
    """A frozen numeric preset: which free-form preset picks the answer region.

    Its ``family`` is ``freeform``, the kind of data it reads: a number preset labels free-form
    outputs like any free-form preset, usually with the ``numeric`` matcher
    (``--scheme num=number/v1:numeric``). In a preset file it is written ``family = "number"``.
    """

    name: str
    region: AnswerRegionPreset | FreeformPreset
    family: str = "freeform"

    def extract(self, text: str) -> Extraction:
        region = _keep_wrappers(self.region).extract(text)
        if region.rule in _NO_REGION or region.span is None:
            return Extraction(None, region.rule, None)
        offset = region.span[0]
        prepared = prepare(text[offset : region.span[1]])
        number, rule = final_number(prepared.text)
        if number is None:
            return Extraction(None, rule, None)
        span = prepared.span(number.start, number.end)
        shifted = (span[0] + offset, span[1] + offset) if span is not None else None
        return Extraction(number.canonical, rule, shifted)

    def describe(self) -> list[str]:
        return [
            f"answer region as `{self.region.name}` finds it, wrappers kept (`unclosed-think`: none)",
            "numbers: thousands separators, currency, sign, decimals, `a/b` and `\\frac{a}{b}`, "
            "`3 × 10^8` and `3e8`, `%` dropped; never inside another number (711 holds no 11)",
            "`boxed`: the first number in the last `\\boxed{}` (`boxed-no-number` if none)",
            "`hash-answer`: the first number after the last `####` on its line",
            "`answer-line`: the first number after the last `Answer:` (or its translations)",
            "`last-number`: the last number in the region",
            "value: the number as a short exact string (`29.00` -> `29`, `3/4` -> `0.75`)",
            "`not-found`: no number",
        ]


@lru_cache(maxsize=32)
def _keep_wrappers(
    region: AnswerRegionPreset | FreeformPreset,
) -> AnswerRegionPreset | FreeformPreset:
    """The region preset without unwrapping: ``\\boxed{}`` must still be seen as a box."""
    return replace(region, unwrap=False) if isinstance(region, AnswerRegionPreset) else region
