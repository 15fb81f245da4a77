"""Agreement of every preset with the broad corpus in tests/labels/corpus_*.jsonl, per source.

    python benchmarks/accuracy.py                # the dev split of the corpus (and the old sets)
    python benchmarks/accuracy.py --held-out     # also the held-out (test) split
    python benchmarks/accuracy.py --by shape     # rows per answer shape instead of per source
    python benchmarks/accuracy.py --misses choice/v4   # the dev cases a reader gets wrong

The corpus (tests/labels/README.md, "Broad corpus") holds outputs written in the answer formats
of many evaluation frameworks and languages, and short outputs quoted from issue reports. Three
files, one case per line:

- ``choice``: the option the output answered (``a`` = the first option, whatever script the
  options are labelled in) or none; a preset agrees when it extracts that option, or nothing;
- ``number``: the value of the number the output answered, or none; a reader agrees when its
  value equals the label (exactly, as fractions), or when both give nothing;
- ``freeform``: whether the output's answer states ``truth``; a preset + matcher agrees when
  `is_correct` says the same.

Presets are found by family, so new versions join the table without an edit here. The number
table adds two framework conventions as plain regexes (lm-eval's GSM8K ``strict-match`` and
``flexible-extract`` filters with its ``exact_match`` ignore list), since no preset spells them.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from answer_audit import extract, get_parser, is_correct, list_parsers

LABELS = Path(__file__).resolve().parents[1] / "tests" / "labels"
CORPORA = ("choice", "number", "freeform")
LATIN = "abcdefghij"
MATCHERS = ("v1", "v2", "v3", "v4", "v5")
ALL = "all"


@dataclass(frozen=True)
class Case:
    """One labelled output of the corpus (the fields of a corpus line)."""

    corpus: str
    id: str
    source: str
    shape: str
    text: str
    label: str | bool | None
    split: str
    letters: str = "ABCD"  # the option labels as the prompt wrote them, in order
    choices: tuple[str, ...] | None = None  # the options' texts, when the case gives them
    truth: str | None = None  # free-form only

    def group(self, by: str) -> str:
        """The row this case counts in: its ``source`` or its ``shape``."""
        return self.source if by == "source" else self.shape


def corpus_path(corpus: str, labels: Path = LABELS) -> Path:
    """The file of one corpus: ``tests/labels/corpus_<corpus>.jsonl``."""
    return labels / f"corpus_{corpus}.jsonl"


FRESH_SPLITS = ("fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6")
"""The blind held-out files, oldest first: each written and labelled without sight of any
parser and scored once, after the versions it tests were finished (tests/labels/README.md)."""


def fresh_path(corpus: str, labels: Path = LABELS, split: str = "fresh") -> Path:
    """The held-out file of one corpus for a fresh split, where there is one."""
    return labels / f"corpus_{corpus}_{split}.jsonl"


def load_cases(corpus: str, labels: Path = LABELS) -> list[Case]:
    """Every case of one corpus, in file order, then its fresh held-out cases, oldest first."""
    paths = [corpus_path(corpus, labels), *(fresh_path(corpus, labels, s) for s in FRESH_SPLITS)]
    lines = [line for p in paths if p.exists() for line in p.read_text("utf-8").splitlines()]
    return [_case(corpus, json.loads(line)) for line in lines if line.strip()]


def _case(corpus: str, row: dict[str, Any]) -> Case:
    choices = tuple(row["choices"]) if row.get("choices") else None
    return Case(
        corpus,
        row["id"],
        row["source"],
        row["shape"],
        row["text"],
        row["label"],
        row["split"],
        row.get("letters", "ABCD"),
        choices,
        row.get("truth"),
    )


# ------------------------------------------------------------------- reading one case


def choice_value(preset: str, case: Case) -> str | None:
    """The option ``preset`` reads in ``case``, as a Latin letter (``a`` = the first option).

    Options labelled in another script are offered to the preset as they are; a preset that
    takes Latin letters only (every one up to ``choice/v4``) gets the Latin letters instead.
    """
    latin = LATIN[: len(case.letters)]
    native = case.letters.lower()
    try:
        found = extract(case.text, preset, choices=native, choices_text=case.choices)
    except ValueError:  # the preset refuses letters outside a-z
        found = extract(case.text, preset, choices=latin, choices_text=case.choices)
    value = found.value
    if isinstance(value, str) and value not in latin and value in native:
        return latin[native.index(value)]
    return value if isinstance(value, str) else None


def as_fraction(value: object) -> Fraction | None:
    """``value`` as an exact number (``"2/3"``, ``"-1234.5"``, ``"3e8"``), else None."""
    if value is None:
        return None
    try:
        return Fraction(str(value).strip())
    except (ValueError, ZeroDivisionError):
        return None


def same_number(found: object, label: str | None) -> bool:
    """A reader's value agrees with a numeric label: equal as fractions, or both absent."""
    if label is None:
        return found is None or not str(found).strip()
    expected = as_fraction(label)
    return expected is not None and as_fraction(found) == expected


# lm-eval's GSM8K filters (tasks/gsm8k/gsm8k.yaml) and the ignore list of its exact_match metric
_STRICT = re.compile(r"#### (\-?[0-9\.\,]+)")
_FLEXIBLE = re.compile(r"(-?[$0-9.,]{2,})|(-?[0-9]+)")
_IGNORED = (re.compile(","), re.compile(r"\$"), re.compile(r"(?s).*#### "), re.compile(r"\.$"))


def _lm_eval_normalized(found: str) -> str:
    for pattern in _IGNORED:
        found = pattern.sub("", found)
    return found.strip()


def lm_eval_strict_match(text: str) -> str | None:
    """lm-eval's ``strict-match``: the number after the first ``#### ``, normalized."""
    match = _STRICT.search(text)
    return _lm_eval_normalized(match.group(1)) if match else None


def lm_eval_flexible_extract(text: str) -> str | None:
    """lm-eval's ``flexible-extract``: the last number-like run of the text, normalized."""
    matches = _FLEXIBLE.findall(text)
    if not matches:
        return None
    last = next(group for group in matches[-1] if group)
    return _lm_eval_normalized(last)


# ------------------------------------------------------------------- the readers of each corpus

# What a reader found in a case: an option letter or a value (None: no answer), or for the
# free-form corpus whether it credits the output with stating the truth.
Read = Callable[[Case], object]
STRICT_MATCH = "(lm-eval strict-match)"
FLEXIBLE_EXTRACT = "(lm-eval flexible-extract)"


def _presets(prefix: str, family: str | None = None) -> list[str]:
    names = [n for n in list_parsers() if n.startswith(prefix)]
    return [n for n in names if family is None or get_parser(n).family == family]


def _choice_reader(preset: str) -> Read:
    return lambda case: choice_value(preset, case)


def _number_reader(preset: str) -> Read:
    return lambda case: _blank_is_none(extract(case.text, preset).value)


def _baseline_reader(read: Callable[[str], str | None]) -> Read:
    return lambda case: _blank_is_none(read(case.text))


def _blank_is_none(value: object) -> object:
    return None if value is None or not str(value).strip() else value


def _freeform_reader(preset: str, matcher: str) -> Read:
    def credits(case: Case) -> bool:
        value = extract(case.text, preset).value
        return bool(is_correct(None if value is None else str(value), case.truth, matcher))

    return credits


def readers(corpus: str) -> dict[str, Read]:
    """Every reader of a corpus, by the name its table column shows, in column order."""
    if corpus == "choice":
        return {p: _choice_reader(p) for p in _presets("choice/", "choice")}
    if corpus == "number":
        found = {p: _number_reader(p) for p in _presets("number/")}
        found[STRICT_MATCH] = _baseline_reader(lm_eval_strict_match)
        found[FLEXIBLE_EXTRACT] = _baseline_reader(lm_eval_flexible_extract)
        return found
    if corpus == "freeform":
        return {f"{p}:{m}": _freeform_reader(p, m) for p in _presets("freeform/") for m in MATCHERS}
    raise ValueError(f"unknown corpus {corpus!r}; known: {', '.join(CORPORA)}")


# How a reader's finding compares with the label. Apart from agreeing, a reader can give a
# different answer (`WRONG`), an answer where the label has none (`EXTRA`: for the free-form
# corpus, it credits an output that does not state the truth), or none where the label has
# one (`MISSED`: for the free-form corpus, it does not credit one that does). An answer the
# reader gets wrong is a silent error (`WRONG`, `EXTRA`); no answer shows in an audit as an
# unparsed row.
AGREE, WRONG, EXTRA, MISSED = "agree", "wrong", "extra", "missed"


def outcome(corpus: str, case: Case, found: object) -> str:
    """`AGREE`, `WRONG`, `EXTRA` or `MISSED`: what ``found`` is against ``case``'s label."""
    if corpus == "freeform":
        if bool(found) == case.label:
            return AGREE
        return EXTRA if found else MISSED
    label = case.label if isinstance(case.label, str) else None
    if label is None:
        return AGREE if found is None else EXTRA
    if found is None:
        return MISSED
    if corpus == "number":
        return AGREE if same_number(found, label) else WRONG
    return AGREE if found == label else WRONG


# ------------------------------------------------------------------- tallies and tables


@dataclass(frozen=True)
class Tally:
    """Agreement of one reader with the cases of one group (a source, a shape, or all), and
    how it disagrees (`outcome`)."""

    reader: str
    corpus: str
    group: str
    split: str
    agree: int
    n: int
    wrong: int = 0
    extra: int = 0
    missed: int = 0
    answered: int = 0  # cases it answers (free-form: credits)

    @property
    def rate(self) -> float:
        return self.agree / self.n if self.n else float("nan")


def score_corpus(
    corpus: str, cases: Iterable[Case], splits: tuple[str, ...], by: str = "source"
) -> list[Tally]:
    """One tally per (reader, group, split), and one per (reader, ``all``, split)."""
    tallies = []
    cases = list(cases)
    for split in splits:
        chosen = [c for c in cases if c.split == split]
        groups = sorted({c.group(by) for c in chosen})
        for name, read in readers(corpus).items():
            found = [(c.group(by), c, read(c)) for c in chosen]
            outcomes = [(g, outcome(corpus, c, f), _answers(corpus, f)) for g, c, f in found]
            for group in [*groups, ALL]:
                kinds = Counter(o for g, o, _ in outcomes if group in (g, ALL))
                answered = sum(a for g, _, a in outcomes if group in (g, ALL))
                tallies.append(
                    Tally(name, corpus, group, split, kinds[AGREE], kinds.total(),
                          kinds[WRONG], kinds[EXTRA], kinds[MISSED], answered)
                )  # fmt: skip
    return tallies


def _answers(corpus: str, found: object) -> bool:
    """Whether a finding is an answer (free-form: a credit)."""
    return bool(found) if corpus == "freeform" else found is not None


def corpus_table(tallies: list[Tally], split: str, by: str = "source") -> str:
    """A Markdown table for one corpus and split: rows are groups, columns are readers."""
    mine = [t for t in tallies if t.split == split]
    names = list(dict.fromkeys(t.reader for t in mine))
    groups = [*dict.fromkeys(t.group for t in mine if t.group != ALL), ALL]
    cell = {(t.reader, t.group): t for t in mine}
    lines = [
        f"| {by} | n | " + " | ".join(f"`{n}`" for n in names) + " |",
        "|---" * (len(names) + 2) + "|",
    ]
    for group in groups:
        n = cell[(names[0], group)].n
        shown = [f"{cell[(r, group)].agree} ({100 * cell[(r, group)].rate:.1f}%)" for r in names]
        label = f"**{group}**" if group == ALL else group
        lines.append(f"| {label} | {n} | " + " | ".join(shown) + " |")
    return "\n".join(lines)


# The columns of `error_table` per corpus: what a wrong, an extra and a missed finding mean.
_ERROR_COLUMNS = {
    "choice": ("another option", "an option where none", "none where one"),
    "number": ("another value", "a value where none", "none where one"),
    "freeform": ("", "credits a wrong answer", "misses a right one"),
}


def error_table(tallies: list[Tally], split: str) -> str:
    """A Markdown table for one corpus and split: each reader's disagreements by kind, and how
    many of them are silent (an answer that is wrong, rather than no answer)."""
    mine = [t for t in tallies if t.split == split and t.group == ALL]
    corpus = mine[0].corpus
    wrong, extra, missed = _ERROR_COLUMNS[corpus]
    silent = corpus == "freeform"  # a free-form reader's every disagreement is a wrong verdict
    lines = [
        "| reader | n | agree | "
        + (f"{wrong} | " if wrong else "")
        + f"{extra} | {missed} | silent errors | right when it answers |",
        "|---" * (8 if wrong else 7) + "|",
    ]
    for t in mine:
        errors = t.wrong + t.extra + (t.missed if silent else 0)
        cells = [f"`{t.reader}`", str(t.n), str(t.agree)]
        cells += [str(t.wrong)] if wrong else []
        cells += [str(t.extra), str(t.missed), f"{errors} ({100 * errors / t.n:.1f}%)"]
        right = t.answered - t.wrong - t.extra
        cells.append(
            f"{right}/{t.answered} ({100 * right / t.answered:.1f}%)" if t.answered else "-"
        )
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def misses(corpus: str, reader: str, cases: Iterable[Case]) -> list[str]:
    """One line per case ``reader`` disagrees with: id, label and what the reader found."""
    read = readers(corpus)[reader]
    lines = []
    for case in cases:
        found = read(case)
        if outcome(corpus, case, found) == AGREE:
            continue
        if corpus == "freeform":  # what the preset extracted, beside whether it credits it
            found = f"{found} ({extract(case.text, reader.split(':')[0]).value!r})"
        text = case.text.replace("\n", "\\n")
        shown = text if len(text) <= 140 else text[:70] + " … " + text[-65:]
        lines.append(f"{case.id}  label={case.label!r}  found={found!r}  {shown}")
    return lines
