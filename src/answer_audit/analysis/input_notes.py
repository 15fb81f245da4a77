"""Notes on inputs that cannot be what they claim: answers that are scored, wrong, and silent.

A truth column of URL lists audited as ``--kind choice`` runs, exits 0 and reports 100% error
under every preset: nothing fails, so nothing says why. These checks say it, in one line each
(what was seen, in how many rows, what to check). `audit`, `rescore` and `diff_labelings` all
call `input_notes` on their canonical table and kind, with the accuracy of each labelling they
computed, so the three commands warn alike.

- **List-valued truths** (a JSON list, a Python list repr) for choice, json and number answers:
  one answer is one letter or number, never a list.
- **Long truths** (over `LONG_TRUTH` characters) for the same kinds.
- **Truths outside the kind's values** (no choice letter, no integer) in most rows.
- **Every labelling wrong**: no scheme labels any of at least `MIN_ALL_WRONG_ROWS` scored rows
  correct.
- **Option letters read as text**: most truths are one letter (``A``..``D``) while the answers
  are free-form (or numbers), as when ``--kind choice`` was forgotten. The run looks fine, but a
  free-form matcher finds the letter wherever it stands alone ("it is **a** good answer: B" is
  right for ``a``), so the accuracy means nothing.

Free-form truths are text of any length and shape, so of the first three checks none applies to
them.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping
from dataclasses import dataclass

import polars as pl

from answer_audit.parsers.presets.recommended import RECOMMENDED
from answer_audit.schemes.kinds import Kind, get_kind

LONG_TRUTH = 200
"""Characters beyond which a choice, JSON or number truth is taken for something else."""
MIN_ALL_WRONG_ROWS = 20
"""Scored rows from which "every labelling is wrong on every row" is a finding, not chance."""
EXAMPLES = 3
"""Distinct example values quoted in a note."""
EXAMPLE_CHARS = 40
"""Characters of each quoted example."""


@dataclass(frozen=True)
class _KindWords:
    """How the notes speak of one answer of a kind."""

    one_answer: str
    """What one truth is."""
    outside: str
    """What a truth outside the kind's values (`Kind.in_value_set`) holds."""
    plural: str
    """Answers of the kind, in the plural."""


_WORDS: Mapping[str, _KindWords] = {
    "choice": _KindWords("one letter (or option number)", "no choice letter", "option letters"),
    "json": _KindWords("one integer", "no integer", "integers"),
    "number": _KindWords("one number", "no number", "numbers"),
}
"""The kinds whose truths are short single values (free-form truths are any text)."""


@dataclass(frozen=True)
class TruthShape:
    """The rows whose truth has one shape (a list, a long text, a value outside the kind's)."""

    rows: int = 0
    """Rows with such a truth."""
    examples: tuple[str, ...] = ()
    """The first `EXAMPLES` distinct such truths in text order, each cut to `EXAMPLE_CHARS`."""

    def merge(self, other: TruthShape) -> TruthShape:
        """Both shapes' rows (a sum) and examples (the first of the union): the same whatever
        the split of the rows."""
        examples = tuple(sorted({*self.examples, *other.examples})[:EXAMPLES])
        return TruthShape(self.rows + other.rows, examples)


@dataclass(frozen=True)
class TruthTally:
    """A truth column as a kind sees it: the rows with a truth, and those whose truth the
    kind's answers can never equal, by shape. Mergeable (`merge`): slices and partitions of a
    table can each count their own rows, with the same notes in the end.

    >>> TruthTally.of(pl.Series(["a", "[1, 2]", "x" * 300]), "choice").lists.rows
    1
    """

    rows: int = 0
    """Rows with a non-blank truth."""
    lists: TruthShape = TruthShape()
    """Truths that spell a list (a JSON array, a Python list or tuple repr)."""
    long: TruthShape = TruthShape()
    """Other truths over `LONG_TRUTH` characters."""
    outside: TruthShape = TruthShape()
    """Other truths that are none of the kind's values (no choice letter, no integer)."""
    letters: TruthShape = TruthShape()
    """Truths that are one letter, for kinds whose answers are text (free-form, number)."""

    @classmethod
    def of(cls, truth: pl.Series, kind: Kind | str) -> TruthTally:
        """The tally of a truth column (a cell per row). Kinds whose truths may be any text
        (free-form) count only the single letters; kinds whose answers are text (free-form,
        number) count those, the others none."""
        kind = get_kind(kind)
        counts = _truth_counts(truth)
        letters = {v: n for v, n in counts if kind.compares_text and _is_letter(v)}
        if kind.name not in _WORDS:
            return cls(sum(n for _, n in counts), letters=_shape(letters))
        found: dict[str, dict[str, int]] = {"lists": {}, "long": {}, "outside": {}}
        rows = 0
        for value, n in counts:
            rows += n
            if _is_list(value):
                found["lists"][value] = n
            elif len(value.strip()) > LONG_TRUTH:
                found["long"][value] = n
            elif not kind.in_value_set(kind.truth_key(value)):
                found["outside"][value] = n
        shapes = {shape: _shape(cells) for shape, cells in found.items()}
        return cls(rows, **shapes, letters=_shape(letters))

    def merge(self, other: TruthTally) -> TruthTally:
        """The tally of both tallies' rows."""
        return TruthTally(
            self.rows + other.rows,
            self.lists.merge(other.lists),
            self.long.merge(other.long),
            self.outside.merge(other.outside),
            self.letters.merge(other.letters),
        )

    def notes(self, kind: Kind | str) -> list[str]:
        """A note for lists and for long texts in any row, and for values outside the kind's
        when most truths are odd (a few are data; most, the wrong column or kind)."""
        kind = get_kind(kind)
        words = _WORDS.get(kind.name)
        if words is None:
            return self._letter_notes(kind)
        if kind.compares_text:  # number answers: text that holds a number
            return [*self._shape_notes(kind, words), *self._letter_notes(kind)]
        return self._shape_notes(kind, words)

    def _shape_notes(self, kind: Kind, words: _KindWords) -> list[str]:
        """Notes on lists and long texts in any row, and on truths outside the kind's values
        in most rows."""
        advice = (
            f"{kind.name} answers are {words.one_answer}, so every such row is scored wrong: "
            f"does --truth name the column of correct answers, and are they {kind.name} "
            "answers (--kind)?"
        )
        notes = [self._seen(what, shape, advice) for what, shape in
                 [("lists", self.lists), (f"text over {LONG_TRUTH} characters", self.long)]
                 if shape.rows]  # fmt: skip
        if (
            self.outside.rows
            and 2 * (self.lists.rows + self.long.rows + self.outside.rows) > self.rows
        ):
            notes.append(self._seen(words.outside, self.outside, _outside_advice(kind, words)))
        return notes

    def _seen(self, what: str, shape: TruthShape, advice: str) -> str:
        return (
            f"the --truth column holds {what} in {shape.rows} of {self.rows} rows with a truth "
            f"(e.g. {', '.join(map(repr, shape.examples))}); {advice}"
        )

    def _letter_notes(self, kind: Kind) -> list[str]:
        """A note when most truths are single letters but the answers are read as text."""
        if not self.letters.rows or 2 * self.letters.rows <= self.rows:
            return []
        reading = (
            "numeric matching reads a number, never a letter"
            if kind.default_normalizer == "numeric"
            else "free-form matching finds a letter wherever it stands alone in the output ('a' "
            "in 'it is a good answer: B'), so these labels mean nothing"
        )
        advice = (
            f"{reading}: if they are option letters, read the answers as choices (audit "
            f"--kind choice; rescore and diff: a choice preset such as "
            f"{RECOMMENDED['choice'].preset})"
        )
        return [self._seen("single letters", self.letters, advice)]


def input_notes(
    truth: pl.Series | TruthTally | None,
    kind: Kind | str,
    accuracies: Mapping[str, tuple[float | None, int]] | None = None,
    *,
    stored_accuracy: float | None = None,
    what: str = "labellings",
) -> list[str]:
    """Notes on a truth column the kind cannot match (`TruthTally.notes`) and on labellings
    that get every scored row wrong (`all_wrong_note`): empty when nothing looks wrong.

    ``truth`` is the truth column (or its tally; None: no truths to check). ``accuracies``
    maps each labelling computed (a scheme, the rescore, a diff side) to its accuracy (a
    fraction; None without rows) and the rows it scored; ``what`` names them in the note.

    >>> truths = pl.Series(['["https://a.example", "https://b.example"]'] * 3)
    >>> input_notes(truths, "choice")[0][:60]
    'the --truth column holds lists in 3 of 3 rows with a truth ('
    """
    tally = TruthTally.of(truth, kind) if isinstance(truth, pl.Series) else truth
    notes = [] if tally is None else tally.notes(kind)
    wrong = all_wrong_note(accuracies or {}, kind, stored_accuracy, what)
    return notes + ([wrong] if wrong else [])


def all_wrong_note(
    accuracies: Mapping[str, tuple[float | None, int]],
    kind: Kind | str,
    stored_accuracy: float | None = None,
    what: str = "labellings",
) -> str | None:
    """A note when every labelling scores 0% on at least `MIN_ALL_WRONG_ROWS` rows each (a
    truth column or a kind that cannot match, rather than a bad model); None otherwise.
    ``what`` names the labellings in the note (``schemes``, ``sides``).

    >>> all_wrong_note({"choice/v4": (0.0, 27)}, "choice")[:51]
    'choice/v4 labels none of the 27 scored rows correct'
    """
    if not accuracies or any(
        acc != 0.0 or n < MIN_ALL_WRONG_ROWS for acc, n in accuracies.values()
    ):
        return None
    counts = sorted({n for _, n in accuracies.values()})
    rows = f"the {counts[0]}" if len(counts) == 1 else f"at least {counts[0]}"
    if len(accuracies) == 1:
        head = f"{next(iter(accuracies))} labels none of {rows} scored rows correct"
    else:
        head = f"none of the {len(accuracies)} {what} labels any of {rows} scored rows correct"
    if stored_accuracy is not None:
        head += f" (the stored labels: {100 * stored_accuracy:.1f}% correct)"
    return (
        f"{head}: does --truth name the column of correct answers, and are they "
        f"{get_kind(kind).name} answers (--kind)?"
    )


def _outside_advice(kind: Kind, words: _KindWords) -> str:
    """What to check when most truths are none of the kind's values: the wrong column, or
    answers of another kind (choice truths that are free text: --kind freeform)."""
    freeform, number = RECOMMENDED["freeform"].preset, RECOMMENDED["number"].preset
    return (
        f"{kind.name} answers are {words.one_answer}, so every such row is scored wrong. If "
        "these are the correct answers, read them as free text (audit --kind freeform, or "
        f"--kind number; rescore and diff: a preset such as {freeform} or {number}); else name "
        f"the column of {words.plural} with --truth"
    )


def _shape(counts: Mapping[str, int]) -> TruthShape:
    """The shape of the truths counted in ``counts`` (truth -> rows)."""
    return TruthShape(sum(counts.values()), tuple(sorted({_cut(v) for v in counts}))[:EXAMPLES])


def _is_letter(text: str) -> bool:
    """Whether a truth is one ASCII letter (an option letter), spaces around it aside."""
    t = text.strip()
    return len(t) == 1 and t.isascii() and t.isalpha()


def _truth_counts(truth: pl.Series) -> list[tuple[str, int]]:
    """Each distinct non-blank truth and its rows."""
    texts = truth.cast(pl.String, strict=False).drop_nulls()
    counts = texts.filter(texts.str.strip_chars() != "").value_counts()
    return [(str(value), int(n)) for value, n in counts.iter_rows()]


def _is_list(text: str) -> bool:
    """Whether a truth spells a list: a JSON array or a Python list or tuple repr."""
    t = text.strip()
    if not (t.startswith("[") and t.endswith("]")):
        return False
    try:
        return isinstance(json.loads(t), list)
    except ValueError:
        pass
    try:
        return isinstance(ast.literal_eval(t), list | tuple)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False


def _cut(text: str) -> str:
    text = " ".join(text.split())  # one line in a note
    return text if len(text) <= EXAMPLE_CHARS else text[: EXAMPLE_CHARS - 1] + "…"
