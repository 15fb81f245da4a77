"""Correctness matchers: is a normalized truth stated in a normalized prediction?"""

from __future__ import annotations

import re

from answer_audit.text import normalize

SHORT_TRUTH_MAX_LEN = 4


def is_correct(prediction: str | None, truth: str | None, normalizer: str = "v1") -> bool | None:
    """Boundary-safe containment of the truth in the prediction, after normalizing both.

    None when there is no truth (or it normalizes to ""); False for an empty prediction.
    Short truths (<= 4 characters) and all-digit truths must stand as whole words, so
    "8" never matches inside "18"; longer truths match as substrings.

    >>> is_correct("It is 18.", "8"), is_correct("Washington, D.C.", "washington")
    (False, True)
    """
    if truth is None:
        return None
    g = normalize(truth, normalizer)
    if not g:
        return None
    if not prediction:
        return False
    p = normalize(prediction, normalizer)
    if not p:
        return False
    if len(g) <= SHORT_TRUTH_MAX_LEN or g.isdigit():
        return boundary_pattern(g).search(p) is not None
    return g in p


def boundary_pattern(g: str) -> re.Pattern[str]:
    """The whole-word pattern used for short truths."""
    e = re.escape(g)
    return re.compile(rf"^{e}(?:\b|$)|\b{e}\b|(?:^|\b){e}$")
