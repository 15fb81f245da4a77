"""What an audit can run on its table, and what its inputs suggest went wrong.

The library (`answer_audit.analysis.audit.audit`) and the command line apply the same rules
here: default schemes that rescore the stored parse are left out, with a note, when the table
has no ``parsed`` column (a user's own such scheme is refused instead), and the finished audit
gets the notes of `answer_audit.analysis.input_notes`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import polars as pl

from answer_audit.analysis.audit_result import AuditResult
from answer_audit.analysis.input_notes import TruthTally, input_notes
from answer_audit.schemes.scheme import Scheme


def runnable_schemes(
    schemes: Sequence[Scheme], columns: Collection[str], asked: Collection[str] = ()
) -> tuple[list[Scheme], list[str]]:
    """The schemes a table can run, and a note for each one left out: without a ``parsed``
    column, a scheme that rescores the stored parse cannot run. Schemes named in ``asked``
    (the user's own) are kept, for `check_stored_schemes` to refuse.

    `audit` applies this to the kind's default schemes; the command line to the defaults it
    runs beside ``--scheme`` (``asked``: the names given there).

    >>> from answer_audit.schemes.apply import default_schemes
    >>> kept, notes = runnable_schemes(default_schemes("freeform"), ["raw", "truth", "label"])
    >>> [s.name for s in kept]
    ['parse_only', 'parse_norm', 'parse_v4']
    >>> notes
    ['scheme norm_only skipped: it rescores the stored parse, and no --parsed column was given']
    """
    if "parsed" in columns:
        return list(schemes), []
    dropped = [s for s in schemes if s.uses_stored_parse and s.name not in asked]
    notes = [f"scheme {s.name} skipped: it rescores the stored parse, and no --parsed column "
             "was given" for s in dropped]  # fmt: skip
    return [s for s in schemes if s not in dropped], notes


def check_stored_schemes(schemes: Sequence[Scheme], columns: Collection[str]) -> None:
    """ValueError, before any row is read, when a scheme rescores the stored parse and the
    table has no ``parsed`` column."""
    on_stored = [s.name for s in schemes if s.uses_stored_parse]
    if on_stored and "parsed" not in columns:
        raise ValueError(
            f"scheme(s) {', '.join(on_stored)} rescore the stored parse, but no parsed column "
            "was given (--parsed); name one, or leave those schemes out"
        )


def audit_input_notes(result: AuditResult, truth: pl.Series | TruthTally | None) -> list[str]:
    """`input_notes` for a finished audit: the truths against its kind, and whether every
    scheme gets every scored row wrong (with the stored labels' accuracy beside)."""
    summaries = result.schemes
    accuracies = {s.name: (1 - s.overall.error_pct / 100, s.overall.n) for s in summaries}
    stored = 1 - summaries[0].overall.stored_error_pct / 100 if summaries else None
    return input_notes(truth, result.settings.kind, accuracies, stored_accuracy=stored,
                       what="schemes")  # fmt: skip
