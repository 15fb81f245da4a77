"""Normalizers and correctness matchers, one registry: is the truth stated in the prediction?

A scheme's ``:NAME`` picks both a normalizer (`NORMALIZERS`) and the matcher of the same name
(`MATCHERS`): ``v1`` and ``v2`` are boundary-safe containment after that normalizer
(`answer_audit.matching.v1_v2`), ``v3`` is `match_v3` (equivalent spellings, numbers by value,
mentions that are only asked or negated do not count; `answer_audit.matching.v3`), ``v4`` is
`match_v4` (v3 as a careful reader: accents, units, initialisms and surnames, no pick,
self-correction; `answer_audit.matching.v4`), ``v5`` is `match_v5` (v4, and dates in any
format, years in words, negation, corrections and hedges in more languages, sources that are no
answer; `answer_audit.matching.v5`), and ``numeric`` compares the final number of the prediction with the truth's number by value
(`answer_audit.matching.numeric`). Vectorized twins live in `answer_audit.matching.polars`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache, partial
from types import MappingProxyType

from answer_audit import arguments
from answer_audit.matching.numeric import match_numeric
from answer_audit.matching.v1_v2 import SHORT_TRUTH_MAX_LEN, containment, normalize_v1, normalize_v2
from answer_audit.matching.v3 import match_v3
from answer_audit.matching.v3_normalizer import normalize_v3
from answer_audit.matching.v4 import match_v4
from answer_audit.matching.v4_normalizer import normalize_v4
from answer_audit.matching.v5 import match_v5, normalize_v5
from answer_audit.text.numerals import normalize_number

__all__ = ["MATCHERS", "NORMALIZERS", "SHORT_TRUTH_MAX_LEN", "Matcher", "is_correct", "normalize"]

# (prediction, truth, rel_tol) -> correct, or None when the truth cannot be judged
Matcher = Callable[[str, str, float], "bool | None"]

# A name here is also the name of a matcher in `MATCHERS`: ``v1`` to ``v4`` compare by
# containment, ``numeric`` by value (this normalizer gives the final number). ``v4`` and
# ``v5`` come last: the names keep the order they were released in.
NORMALIZERS: Mapping[str, Callable[[str], str]] = MappingProxyType(
    {
        "v1": normalize_v1,
        "v2": normalize_v2,
        "v3": normalize_v3,
        "numeric": normalize_number,
        "v4": normalize_v4,
        "v5": normalize_v5,
    }
)


def normalize(text: str, normalizer: str = "v1") -> str:
    """Apply a named normalizer (``"v1"`` to ``"v5"``, or ``"numeric"``).

    >>> normalize("The U.S. (mainland)!", "v2")
    'the us mainland'
    """
    arguments.text(text, "normalize")
    try:
        fn = NORMALIZERS[normalizer]
    except (KeyError, TypeError):  # TypeError: an unhashable name
        raise ValueError(
            f"unknown normalizer {normalizer!r}; known: {', '.join(sorted(NORMALIZERS))}"
        ) from None
    return fn(text)


# A run has few distinct truths: each is normalized once per normalizer.
_normalized_truth = lru_cache(maxsize=4096)(normalize)


MATCHERS: Mapping[str, Matcher] = MappingProxyType(
    {
        "v1": containment(normalize_v1, partial(_normalized_truth, normalizer="v1")),
        "v2": containment(normalize_v2, partial(_normalized_truth, normalizer="v2")),
        "v3": lambda prediction, truth, rel_tol: match_v3(prediction, truth),
        "numeric": match_numeric,
        "v4": lambda prediction, truth, rel_tol: match_v4(prediction, truth),
        "v5": lambda prediction, truth, rel_tol: match_v5(prediction, truth),
    }
)
assert set(MATCHERS) == set(NORMALIZERS), "every normalizer name needs a matcher"


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
