"""Which schemes an audit runs on a table without a stored parse: one rule for the library and
the command line (default schemes left out with a note, a user's own refused up front)."""

from __future__ import annotations

import polars as pl
import pytest

from answer_audit.analysis.audit import AuditSettings, audit, runnable_schemes
from answer_audit.schemes.apply import Scheme, default_schemes

LABELS_ONLY = pl.DataFrame({
    "id": ["1", "2", "3", "4"],
    "raw": ["Paris.\nUSER: Rome?", "It is 18.", "The U.S.", "Berlin"],
    "label": [True, False, False, False],
    "truth": ["Paris", "8", "US", "Paris"],
})  # fmt: skip
SKIPPED = "scheme norm_only skipped: it rescores the stored parse, and no --parsed column was given"


def test_default_schemes_on_the_stored_parse_are_left_out_with_a_note() -> None:
    result = audit(LABELS_ONLY)
    assert [s.name for s in result.schemes] == ["parse_only", "parse_norm", "parse_v4"]
    assert result.notes[0] == SKIPPED
    number = audit(LABELS_ONLY, settings=AuditSettings(kind="number"))
    assert "stored_numeric" not in [s.name for s in number.schemes]
    assert any(n.startswith("scheme stored_numeric skipped") for n in number.notes)


def test_a_users_own_scheme_on_the_stored_parse_is_refused_before_any_row_is_read() -> None:
    mine = [Scheme("mine", "stored", "v2"), Scheme("v3", "freeform/v3", "v3")]
    with pytest.raises(ValueError, match=r"^scheme\(s\) mine rescore the stored parse, but no "
                       r"parsed column was given \(--parsed\)"):  # fmt: skip
        audit(LABELS_ONLY, mine)
    # the defaults handed over as the caller's own are the caller's: refused too
    with pytest.raises(ValueError, match="norm_only rescore the stored parse"):
        audit(LABELS_ONLY, default_schemes("freeform"))


def test_with_a_stored_parse_every_default_runs_and_nothing_is_noted() -> None:
    table = LABELS_ONLY.with_columns(parsed=pl.col("raw"))
    result = audit(table)
    assert [s.name for s in result.schemes] == ["parse_only", "parse_norm", "norm_only", "parse_v4"]
    assert result.notes == ()


def test_the_rule_keeps_the_schemes_a_user_asked_for() -> None:
    schemes = [*default_schemes("freeform"), Scheme("mine", "stored", "v3")]
    kept, notes = runnable_schemes(schemes, ["raw", "truth", "label"], asked={"mine"})
    assert [s.name for s in kept] == ["parse_only", "parse_norm", "parse_v4", "mine"]
    assert notes == [SKIPPED]
    assert runnable_schemes(schemes, ["raw", "parsed"]) == (schemes, [])
