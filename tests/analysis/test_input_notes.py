"""Notes on inputs that cannot be what they claim: truth shapes a kind cannot match, and
labellings wrong on every row; the same notes from audit, rescore and diff."""

from __future__ import annotations

import doctest

import polars as pl
import pytest

from answer_audit.analysis.audit import AuditSettings, audit
from answer_audit.analysis.diff import diff_labelings
from answer_audit.analysis.input_notes import (
    LONG_TRUTH,
    MIN_ALL_WRONG_ROWS,
    TruthShape,
    TruthTally,
    all_wrong_note,
    input_notes,
)
from answer_audit.analysis.rescore import rescore
from answer_audit.schemes.apply import default_schemes

URLS = '["https://laws.example/law/340CO0000000321", "https://fsa.example/koukai.pdf"]'
N = 27


def url_table(n: int = N) -> pl.DataFrame:
    """A choice run whose truth column holds lists of reference URLs (the letters are
    elsewhere): every preset is wrong on every row."""
    return pl.DataFrame({
        "id": [str(i) for i in range(n)],
        "raw": [f"Answer: {'abcd'[i % 4]}" for i in range(n)],
        "parsed": ["abcd"[i % 4] for i in range(n)],
        "label": [i % 3 != 0 for i in range(n)],
        "truth": [URLS.replace("321", str(i)) for i in range(n)],
    })  # fmt: skip


def test_lists_are_seen_for_choice_json_and_number_never_for_free_text() -> None:
    truths = pl.Series([URLS, "['a', 'b']", "(1, 2)", "b", "[b]", None, " "])
    for kind in ("choice", "json", "number"):
        tally = TruthTally.of(truths, kind)
        assert (tally.rows, tally.lists.rows) == (5, 2), kind
    free = TruthTally.of(truths, "freeform")
    assert (free.lists, free.long, free.outside) == (TruthShape(),) * 3
    assert input_notes(truths, "freeform") == []


def test_long_truths_and_truths_outside_the_kinds_values() -> None:
    truths = pl.Series(["x" * (LONG_TRUTH + 1), "x" * LONG_TRUTH, "b", "7", "Paris", "3.5"])
    choice = TruthTally.of(truths, "choice")
    assert choice.long.rows == 1
    # "7" is option 7, a letter; "x" * 200, "Paris" and "3.5" are none
    assert choice.outside.rows == 3
    assert TruthTally.of(truths, "json").outside.rows == 4  # all but "7"
    assert TruthTally.of(truths, "number").outside.rows == 0  # any text may hold a number


def test_a_tally_merges_to_the_tally_of_the_whole_table() -> None:
    truths = pl.Series([URLS, "b", "Paris", "x" * 300, "[1]", "Rome", "c", "Oslo", "[2]"] * 3)
    whole = TruthTally.of(truths, "choice")
    for cut in (1, 4, 13):
        parts = TruthTally.of(truths[:cut], "choice").merge(TruthTally.of(truths[cut:], "choice"))
        assert parts == whole
    assert whole.lists.examples == (URLS[:39] + "…", "[1]", "[2]")  # in text order, cut


def test_the_list_note_says_what_how_many_and_what_to_check() -> None:
    notes = input_notes(url_table()["truth"], "choice")
    assert len(notes) == 1  # lists, not also "no choice letter" for the same rows
    assert notes[0].startswith(f"the --truth column holds lists in {N} of {N} rows with a truth")
    # 27 URL lists that differ after the cut: one example
    assert "(e.g. '[\"https://laws.example/law/340CO0000000…');" in notes[0]
    assert "does --truth name the column of correct answers" in notes[0]
    assert "choice answers (--kind)?" in notes[0]


def test_values_outside_the_kind_are_noted_only_when_most_truths_are() -> None:
    few = pl.Series(["a", "b", "c", "d", "Paris", "Rome"])
    assert input_notes(few, "choice") == []
    most = pl.Series(["a", "b", "Paris", "Rome", "Oslo"])
    (note,) = input_notes(most, "choice")
    assert note.startswith("the --truth column holds no choice letter in 3 of 5 rows")
    assert "(e.g. 'Oslo', 'Paris', 'Rome')" in note
    (grade,) = input_notes(pl.Series(["ISUP 2", "grade 3", "4"]), "json")
    assert grade.startswith("the --truth column holds no integer in 2 of 3 rows")


def test_every_labelling_wrong_needs_enough_rows_and_zero_everywhere() -> None:
    enough = MIN_ALL_WRONG_ROWS
    assert all_wrong_note({"a": (0.0, enough - 1)}, "choice") is None
    assert all_wrong_note({"a": (0.0, enough), "b": (0.05, enough)}, "choice") is None
    assert all_wrong_note({"a": (None, 0)}, "choice") is None
    assert all_wrong_note({}, "choice") is None
    one = all_wrong_note({"choice/v4": (0.0, 30)}, "choice", stored_accuracy=0.8)
    assert one == (
        "choice/v4 labels none of the 30 scored rows correct (the stored labels: 80.0% correct): "
        "does --truth name the column of correct answers, and are they choice answers (--kind)?"
    )
    several = all_wrong_note({"v1": (0.0, 30), "v2": (0.0, 25)}, "freeform", what="schemes")
    assert several is not None
    assert several.startswith("none of the 2 schemes labels any of at least 25 scored rows")


def test_audit_rescore_and_diff_say_the_same_of_a_column_of_lists() -> None:
    table = url_table()
    settings = AuditSettings(kind="choice", n_boot=10)
    audited = audit(table, settings=settings).notes
    rescored = rescore(table, "choice/v4", n_boot=10).notes
    diffed = diff_labelings(table, "stored", "choice/v4").notes
    lists = f"the --truth column holds lists in {N} of {N} rows"
    for notes in (audited, rescored, diffed):
        assert sum(n.startswith(lists) for n in notes) == 1
    schemes = len(default_schemes("choice"))
    assert any(n.startswith(f"none of the {schemes} schemes labels any of the {N} scored rows") and
               "(the stored labels: 66.7% correct)" in n for n in audited)  # fmt: skip
    assert any(n.startswith(f"choice/v4 labels none of the {N} scored rows") for n in rescored)
    assert any(n.startswith(f"none of the 2 sides labels any of the {N}") for n in diffed)


def test_sound_inputs_get_no_note() -> None:
    table = url_table().with_columns(truth=pl.col("parsed"))
    assert rescore(table, "choice/v4", n_boot=10).notes == ()
    assert audit(table, settings=AuditSettings(kind="choice", n_boot=10)).notes == ()
    assert diff_labelings(table, "stored", "choice/v4").notes == ()


@pytest.mark.parametrize("kind", ["choice", "json", "number", "freeform"])
def test_a_table_without_truths_gets_no_truth_note(kind: str) -> None:
    assert input_notes(pl.Series([None, " "], dtype=pl.String), kind) == []


def test_the_docstring_examples_hold() -> None:
    from answer_audit.analysis import audit_inputs, incidence, input_notes

    for module in (input_notes, audit_inputs, incidence):
        assert doctest.testmod(module).failed == 0, module.__name__


# ---------------------------------------------------------------- option letters read as text


def letter_table(n: int = N) -> pl.DataFrame:
    """A multiple-choice run (truths A-D) as a free-form audit would read it."""
    return pl.DataFrame({
        "id": [str(i) for i in range(n)],
        "raw": [f"Option A is a trap; the answer is {'ABCD'[(i + 1) % 4]}" for i in range(n)],
        "parsed": ["ABCD"[(i + 1) % 4] for i in range(n)],
        "label": [i % 2 == 0 for i in range(n)],
        "truth": ["ABCD"[i % 4] for i in range(n)],
    })  # fmt: skip


LETTERS = f"the --truth column holds single letters in {N} of {N} rows with a truth"


def test_letter_truths_read_as_free_text_say_to_read_them_as_choices() -> None:
    (note,) = input_notes(letter_table()["truth"], "freeform")
    assert note.startswith(LETTERS + " (e.g. 'A', 'B', 'C');")
    assert "free-form matching finds a letter wherever it stands alone" in note
    assert "audit --kind choice; rescore and diff: a choice preset such as choice/" in note
    (number,) = input_notes(letter_table()["truth"], "number")
    assert number.startswith(LETTERS) and "numeric matching reads a number" in number
    for kind in ("choice", "json"):  # letters are what choice answers are; json says "no integer"
        assert not any(n.startswith(LETTERS) for n in input_notes(letter_table()["truth"], kind))


def test_a_few_letter_truths_among_free_text_are_data() -> None:
    assert input_notes(pl.Series(["A", "B", "Paris", "Rome", "Oslo"]), "freeform") == []
    assert input_notes(pl.Series([" a ", "b", "Paris"]), "freeform") != []  # a majority
    assert input_notes(pl.Series(["é", "1", "ab", "?"]), "freeform") == []  # none is a letter


def test_the_letter_tally_merges_across_slices() -> None:
    truths = letter_table()["truth"]
    whole = TruthTally.of(truths, "freeform")
    parts = TruthTally.of(truths[:5], "freeform").merge(TruthTally.of(truths[5:], "freeform"))
    assert parts == whole and whole.letters.rows == N


def test_audit_rescore_and_diff_of_letters_as_free_text_say_the_same() -> None:
    table = letter_table()
    audited = audit(table, settings=AuditSettings(n_boot=10)).notes
    rescored = rescore(table, "freeform/v3", n_boot=10).notes
    diffed = diff_labelings(table, "stored", "freeform/v3").notes
    for notes in (audited, rescored, diffed):
        assert sum(n.startswith(LETTERS) for n in notes) == 1, notes
    assert not any(n.startswith(LETTERS) for n in
                   audit(table, settings=AuditSettings(kind="choice", n_boot=10)).notes)  # fmt: skip


def test_free_text_truths_audited_as_choices_never_ask_for_more_choices() -> None:
    # Numbers among the truths read as option numbers (14 -> n): the old first note asked for
    # --choices abcdefghijklmn, which only hid the real problem.
    truths = ["Paris", "14", "H2O", "9.8 m/s²", "5", "Tokyo", "Berlin", "London"] * 4
    table = url_table(len(truths)).with_columns(truth=pl.Series(truths))
    notes = audit(table, settings=AuditSettings(kind="choice", n_boot=10)).notes
    assert not any("--choices" in n for n in notes), notes
    (note,) = [n for n in notes if n.startswith("the --truth column holds no choice letter")]
    assert "in 24 of 32 rows" in note
    assert "read them as free text (audit --kind freeform, or --kind number" in note
    assert "else name the column of option letters with --truth" in note
