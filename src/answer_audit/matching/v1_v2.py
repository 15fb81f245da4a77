"""The ``v1`` and ``v2`` normalizers and their matcher: boundary-safe containment.

``v1`` lowercases, strips, turns ``.,;:!?'"()[]{}`` into spaces and collapses whitespace; ``v2``
adds sub/superscript digits, dotted abbreviations (``u.s.`` -> ``us``) and ``*_`~``. The matcher
asks whether the normalized truth occurs in the normalized prediction; short truths (at most
`SHORT_TRUTH_MAX_LEN` characters) and all-digit truths must stand as whole words, so "8" never
matches inside "18". Their vectorized twins are in `answer_audit.matching.polars`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# Each punctuation character becomes one space (a table: one C pass, however much punctuation);
# `" ".join(text.split())` collapses whitespace as `re`'s `\s+` -> " " and strip do (both use
# `str.isspace`).
V1_PUNCTUATION = ".,;:!?'\"()[]{}"
V2_PUNCTUATION = V1_PUNCTUATION + "*_`~"
_V1_PUNCT = str.maketrans(dict.fromkeys(V1_PUNCTUATION, " "))
_V2_PUNCT = str.maketrans(dict.fromkeys(V2_PUNCTUATION, " "))
# Up to the last letter ("u.s." -> "us.", its final dot left to the punctuation table); v3 has
# its own rule, which takes the final dot too: merging them would change v2 or v3 results.
_DOTTED_ABBREVIATION_TO_LAST_LETTER = re.compile(r"\b(?:[a-z]\.)+[a-z]\b")
SUB_SUPER_FROM, SUB_SUPER_TO = "₀₁₂₃₄₅₆₇₈₉⁰¹²³⁴⁵⁶⁷⁸⁹", "01234567890123456789"
_SUB_SUPER_DIGITS = str.maketrans(SUB_SUPER_FROM, SUB_SUPER_TO)
_ANY_SUB_SUPER = re.compile(f"[{SUB_SUPER_FROM}]")

SHORT_TRUTH_MAX_LEN = 4


def normalize_v1(text: str) -> str:
    """Lowercase, strip, punctuation ``.,;:!?'"()[]{}`` to spaces, collapse whitespace."""
    return " ".join(text.lower().strip().translate(_V1_PUNCT).split())


def normalize_v2(text: str) -> str:
    """v1 plus sub/superscript digits, dotted abbreviations (u.s. -> us) and ``*_`~``."""
    text = text.lower().strip()
    if _ANY_SUB_SUPER.search(text):  # a table pass costs a lookup per character: only if needed
        text = text.translate(_SUB_SUPER_DIGITS)
    text = _DOTTED_ABBREVIATION_TO_LAST_LETTER.sub(lambda m: m.group(0).replace(".", ""), text)
    return " ".join(text.translate(_V2_PUNCT).split())


def containment(
    normalize: Callable[[str], str], normalized_truth: Callable[[str], str]
) -> Callable[[str, str, float], bool]:
    """The containment matcher over one normalizer (``normalized_truth`` caches the truth's)."""

    def match(prediction: str, truth: str, rel_tol: float) -> bool:
        g = normalized_truth(truth)
        p = normalize(prediction)
        if not p:
            return False
        if g not in p:  # every match holds the truth: a substring search rules most out
            return False
        if len(g) <= SHORT_TRUTH_MAX_LEN or g.isdigit():
            return boundary_pattern(g).search(p) is not None
        return True

    return match


def boundary_pattern(g: str) -> re.Pattern[str]:
    """The whole-word pattern used for short truths."""
    e = re.escape(g)
    return re.compile(rf"^{e}(?:\b|$)|\b{e}\b|(?:^|\b){e}$")
