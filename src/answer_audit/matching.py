"""Correctness matchers: is a normalized truth stated in a normalized prediction?

Matchers are looked up by the same names as the normalizers (`answer_audit.text.NORMALIZERS`),
so a scheme's ``:NAME`` picks both: ``v1`` and ``v2`` are boundary-safe containment after that
normalizer, ``v3`` is `match_v3` (equivalent spellings, numbers by value, mentions that are
only asked or negated do not count), and ``numeric`` compares the final number of the
prediction with the truth's number by value (``rel_tol`` 0: exact, so ``29.00`` is ``29``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from types import MappingProxyType

from answer_audit import arguments
from answer_audit.matching_v3 import match_v3
from answer_audit.numbers import close_enough, final_number, prepare
from answer_audit.text import NORMALIZERS, normalize

SHORT_TRUTH_MAX_LEN = 4

# (prediction, truth, rel_tol) -> correct, or None when the truth cannot be judged
Matcher = Callable[[str, str, float], "bool | None"]


def is_correct(
    prediction: str | None,
    truth: str | None,
    normalizer: str = "v1",
    *,
    rel_tol: float = 0.0,
) -> bool | None:
    """Is the truth stated in the prediction, by the matcher named ``normalizer``?

    None when there is no truth (or it normalizes to ""); False for an empty prediction.
    With ``v1``/``v2``: short truths (<= 4 characters) and all-digit truths must stand as
    whole words, so "8" never matches inside "18"; longer truths match as substrings.
    ``rel_tol`` is the relative tolerance of the ``numeric`` matcher.

    >>> is_correct("It is 18.", "8"), is_correct("Washington, D.C.", "washington")
    (False, True)
    >>> is_correct("The total is $1,234.50", "1234.5", "numeric")
    True
    """
    arguments.text(prediction, "is_correct", "prediction", optional=True)
    arguments.text(truth, "is_correct", "truth", optional=True)
    arguments.tolerance(rel_tol, "is_correct")
    if truth is None:
        return None
    try:
        matcher = MATCHERS[normalizer]
    except KeyError:
        normalize("", normalizer)  # raises the same error as an unknown normalizer
        raise
    if not _normalized_truth(truth, normalizer):
        return None
    if not prediction:
        return False
    return matcher(prediction, truth, rel_tol)


# A run has few distinct truths: each is normalized once per normalizer.
_normalized_truth = lru_cache(maxsize=4096)(normalize)


def _containment(normalizer: str) -> Matcher:
    def match(prediction: str, truth: str, rel_tol: float) -> bool:
        g = _normalized_truth(truth, normalizer)
        p = normalize(prediction, normalizer)
        if not p:
            return False
        if g not in p:  # every match holds the truth: a substring search rules most out
            return False
        if len(g) <= SHORT_TRUTH_MAX_LEN or g.isdigit():
            return boundary_pattern(g).search(p) is not None
        return True

    return match


def _numeric(prediction: str, truth: str, rel_tol: float) -> bool | None:
    """The prediction's answer number (`final_number`) equals the truth's, within ``rel_tol``."""
    expected, _ = final_number(prepare(truth).text)
    if expected is None:
        return None
    found, _ = final_number(prepare(prediction).text)
    return found is not None and close_enough(found.value, expected.value, rel_tol)


MATCHERS: Mapping[str, Matcher] = MappingProxyType(
    {
        "v1": _containment("v1"),
        "v2": _containment("v2"),
        "v3": lambda prediction, truth, rel_tol: match_v3(prediction, truth),
        "numeric": _numeric,
    }
)
assert set(MATCHERS) == set(NORMALIZERS), "every normalizer name needs a matcher"


def boundary_pattern(g: str) -> re.Pattern[str]:
    """The whole-word pattern used for short truths."""
    e = re.escape(g)
    return re.compile(rf"^{e}(?:\b|$)|\b{e}\b|(?:^|\b){e}$")
