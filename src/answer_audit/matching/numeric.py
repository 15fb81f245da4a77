"""The ``numeric`` matcher: the prediction's answer number equals the truth's, by value.

Its normalizer is `answer_audit.text.numerals.normalize_number` (the final number, written
exactly); ``rel_tol`` 0 means exact, so ``29.00`` is ``29``.
"""

from __future__ import annotations

from answer_audit.text.numerals import close_enough, final_number, prepare


def match_numeric(prediction: str, truth: str, rel_tol: float) -> bool | None:
    """The prediction's answer number (`final_number`) equals the truth's, within ``rel_tol``."""
    expected, _ = final_number(prepare(truth).text)
    if expected is None:
        return None
    found, _ = final_number(prepare(prediction).text)
    return found is not None and close_enough(found.value, expected.value, rel_tol)
