"""The library's table functions read a caller's DataFrame as the file readers read a file,
and refuse what they cannot use with a message that names the argument or column."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest

import answer_audit as aa
from answer_audit import AuditSettings, Scheme
from answer_audit.sources import SourceError

CHOICE = pl.DataFrame({
    "id": ["1", "2", "3"], "raw": ["Answer: b", "Answer: c", "Answer: a"],
    "parsed": ["b", "a", "a"], "truth": ["b", "c", "a"], "label": ["True", "False", "True"],
})  # fmt: skip
FREE = pl.DataFrame({
    "id": ["1", "2", "3", "4"], "raw": ["Paris"] * 4, "parsed": ["Paris"] * 4,
    "label": [1.0, 0.0, math.nan, 0.0], "truth": ["Paris"] * 4,
})  # fmt: skip
CHOICE_SETTINGS = AuditSettings(kind="choice", n_boot=10)


def test_string_labels_are_read_not_taken_as_truthy() -> None:
    # "False" is a non-empty string: it counted as a correct stored label
    stored = aa.rescore(CHOICE, "choice/v3", n_boot=10).overall.stored_label
    assert stored is not None and stored.accuracy == pytest.approx(2 / 3)
    consistency = aa.audit(CHOICE, settings=CHOICE_SETTINGS).consistency
    assert consistency is not None and consistency.n == 3


def test_a_nan_label_is_missing() -> None:
    result = aa.audit(FREE)
    assert result.coverage.scored == 3
    assert result.coverage.skipped.no_stored_label == 1


@pytest.mark.parametrize(
    "change",
    [
        pl.col("truth").cast(pl.Categorical),
        pl.col("parsed").cast(pl.Categorical),
        pl.col("raw").cast(pl.Categorical),
        pl.Series("truth", [2, 3, 1]),  # option numbers: 2 is b
        pl.Series("truth", [2.0, 3.0, 1.0]),
    ],
)
def test_other_column_types_read_as_the_file_readers_read_them(change: pl.Expr) -> None:
    table = CHOICE.with_columns(change)
    assert aa.rescore(table, "choice/v3", n_boot=10).overall.rescored.accuracy == 1.0
    assert aa.audit(table, settings=CHOICE_SETTINGS).coverage.scored == 3


def test_no_id_column_and_lazy_frames() -> None:
    # a LazyFrame is read (collected) though the signatures name only DataFrame
    assert aa.audit(FREE.drop("id")).coverage.rows == 4
    assert aa.audit(FREE.lazy()).coverage.rows == 4  # type: ignore[arg-type]  # LazyFrame on purpose
    lazy = CHOICE.drop("id").lazy()
    assert aa.rescore(lazy, "choice/v3", n_boot=10).coverage.rows == 3  # type: ignore[arg-type]  # LazyFrame on purpose


@pytest.mark.parametrize(
    ("call", "error", "fragment"),
    [
        (lambda: aa.audit(None), TypeError, "expected a Polars DataFrame"),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: aa.rescore([1, 2], "choice/v3"), TypeError, "polars.from_pandas"),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: aa.audit(FREE.drop("raw")), ValueError, "lacks column(s) raw"),
        (lambda: aa.audit(FREE.with_columns(pl.Series("raw", [[1]] * 4))), SourceError,
         "column 'raw'"),
        (lambda: aa.audit(CHOICE.with_columns(label=pl.lit("maybe")), settings=CHOICE_SETTINGS),
         SourceError, "cannot read 'maybe' as a label"),
        (lambda: aa.rescore(CHOICE, None), TypeError, "parser must be a preset name"),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: aa.diff_labelings(CHOICE, None, "choice/v3"), TypeError, "side a must be"),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: aa.audit(FREE, settings={"seed": 1}), TypeError, "AuditSettings"),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: aa.audit(FREE, schemes="parse_only"), TypeError, "list of Scheme"),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: aa.audit(FREE, schemes=[Scheme("x", "freeform/v3"), Scheme("x", "freeform/v2")]),
         ValueError, "x appear more than once"),
        (lambda: aa.rescore(CHOICE, "choice/v3", n_boot=10.5), ValueError, "n_boot"),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: aa.rescore(CHOICE, "choice/v3", n_boot=10**9), ValueError, "100,000"),
        (lambda: aa.rescore(CHOICE, "choice/v3", seed=-1), ValueError, "seed"),
        (lambda: AuditSettings(n_boot=1), ValueError, "n_boot"),
        (lambda: AuditSettings(group_by="model"), TypeError, "('model',)"),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: AuditSettings(kind="mcq"), ValueError, "kind must be one of"),  # type: ignore[arg-type]  # wrong on purpose
        (lambda: AuditSettings(kind="choice", choices="a-e"), ValueError, "ranges"),
        (lambda: aa.rescore(CHOICE, "choice/v3", choices="a-e"), ValueError, "ranges"),
        (lambda: aa.extract("Answer: c", "choice/v3", choices="a-e"), ValueError, "ranges"),
    ],
)  # fmt: skip
def test_unusable_arguments_are_clear_errors(
    call: Callable[[], object], error: type[Exception], fragment: str
) -> None:
    with pytest.raises(error, match=None) as info:
        call()
    assert fragment in str(info.value)


def test_group_by_as_a_list_is_kept_as_a_tuple() -> None:
    settings = AuditSettings(group_by=["g"])  # type: ignore[arg-type]  # a list on purpose
    assert settings.group_by == ("g",)
    assert aa.audit(FREE.with_columns(g=pl.lit("x")), settings=settings).coverage.groups == 1


def test_a_boolean_error_column_marks_the_true_rows() -> None:
    # every non-empty cell is an error; a boolean False was written "false" and counted
    table = CHOICE.with_columns(error=pl.Series([False, True, None]))
    result = aa.rescore(table, "choice/v3", n_boot=10)
    assert result.overall.rescored.errors == 1
    assert result.rows["rule"].to_list()[1] == "error"


def test_diff_reads_a_callers_table_too() -> None:
    table = CHOICE.with_columns(truth=pl.Series([2.0, 3.0, 1.0]))
    lazy = table.lazy()  # read (collected) though the signature names only DataFrame
    assert aa.diff_labelings(lazy, "choice/v1", "choice/v3").to_dict()["n"] == 3  # type: ignore[arg-type]  # LazyFrame on purpose


def test_numpy_integers_are_integers() -> None:
    import numpy as np

    n_boot, seed = np.int64(20), np.int32(1)
    assert aa.rescore(CHOICE, "choice/v3", n_boot=n_boot, seed=seed).coverage.rows == 3  # type: ignore[arg-type]  # numpy integers on purpose
    settings = AuditSettings(n_boot=np.int64(20), seed=np.int64(3), max_examples=np.int64(2))  # type: ignore[arg-type]  # numpy integers on purpose
    assert settings.n_boot == 20


def test_empty_choices_mean_the_presets_own() -> None:
    assert aa.extract("Answer: c", "choice/v3", choices="").value == "c"


def test_a_streamed_table_without_a_stored_parse_audits_as_on_the_command_line(
    tmp_path: Path,
) -> None:
    # the newcomer's example: raw, truth and label mapped, no parsed column, default schemes
    FREE.drop("parsed").write_parquet(tmp_path / "runs.parquet")
    streamed = aa.stream_files([tmp_path / "runs.parquet"],
                               aa.ColumnMap(raw="raw", truth="truth", label="label"))  # fmt: skip
    assert streamed is not None
    try:
        result = aa.audit(streamed.rows)
    finally:
        streamed.rows.close()
    assert [s.name for s in result.schemes] == ["parse_only", "parse_norm", "parse_v4"]
    assert result.notes == (
        "scheme norm_only skipped: it rescores the stored parse, and no --parsed column was given",
    )
