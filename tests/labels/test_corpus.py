"""The broad corpus in tests/labels/corpus_*.jsonl is well formed, split as documented, and read
by benchmarks/corpus_accuracy.py as its README says (dev split and hand-made cases only: the
held-out split is scored by `make accuracy --held-out`, never here)."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from fractions import Fraction
from types import ModuleType
from typing import Any

import pytest

from paths import REPO

LABELS = REPO / "tests" / "labels"
REQUIRED = {"id", "source", "shape", "provenance", "text", "label", "split"}
MINIMUM_SIZE = {"choice": 400, "number": 350, "freeform": 120}


def _load() -> ModuleType:
    # benchmarks/ is not a package: load the module by path, as test_accuracy loads its script
    path = REPO / "benchmarks" / "corpus_accuracy.py"
    spec = importlib.util.spec_from_file_location("corpus_accuracy", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


corpus_accuracy = _load()


def _rows(corpus: str) -> list[dict[str, Any]]:
    """A corpus's rows, then those of its fresh held-out files where it has them."""
    fresh = [corpus_accuracy.fresh_path(corpus, LABELS, s) for s in corpus_accuracy.FRESH_SPLITS]
    paths = [LABELS / f"corpus_{corpus}.jsonl", *fresh]
    text = "\n".join(p.read_text(encoding="utf-8") for p in paths if p.exists())
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize("corpus", ["choice", "number", "freeform"])
def test_every_row_has_the_documented_fields(corpus: str) -> None:
    rows = _rows(corpus)
    assert len(rows) >= MINIMUM_SIZE[corpus]
    assert len({r["id"] for r in rows}) == len(rows), "ids must be unique"
    for row in rows:
        assert row.keys() >= REQUIRED, row["id"]
        assert row["split"] in ("dev", "test", *corpus_accuracy.FRESH_SPLITS), row["id"]
        assert row["provenance"].strip() and row["source"].strip(), row["id"]
        github = "https://github.com/" in row["provenance"]
        if row["source"] == "issue-report":
            assert github, f"{row['id']}: an issue report names its URL"


def test_choice_labels_name_one_of_the_options() -> None:
    for row in _rows("choice"):
        letters = row["letters"]
        assert len(set(letters)) == len(letters) >= 2, row["id"]
        assert row["label"] is None or row["label"] in "abcdefghij"[: len(letters)], row["id"]
        if "choices" in row:
            assert len(row["choices"]) == len(letters), row["id"]


def test_number_labels_are_exact_numbers() -> None:
    for row in _rows("number"):
        if row["label"] is not None:
            assert isinstance(row["label"], str), row["id"]
            Fraction(row["label"])  # raises on anything but an exact number


def test_freeform_rows_have_a_truth_and_a_boolean_label() -> None:
    for row in _rows("freeform"):
        assert isinstance(row["label"], bool) and row["truth"].strip(), row["id"]


@pytest.mark.parametrize("corpus", ["choice", "number", "freeform"])
def test_a_quarter_or_more_of_every_source_is_held_out(corpus: str) -> None:
    # held out: the test split (about a third of the first rows), and the fresh files, each
    # written after the presets it scores; dev rows added later make a source's share smaller.
    # A source only a fresh file has (no dev row: nothing was tuned on it) is held out whole.
    every = _rows(corpus)
    developed = {r["source"] for r in every if r["split"] == "dev"}
    rows = [r for r in every if r["source"] in developed]
    sizes = Counter(r["source"] for r in rows)
    held = Counter(r["source"] for r in rows if r["split"] != "dev")
    assert 0.25 <= sum(held.values()) / len(rows) <= 0.6
    for source, n in sizes.items():
        if n >= 10:
            # a fifth or more held out, and (four fresh files on) a fifth or more to develop on
            assert 0.2 <= held[source] / n <= 0.8, f"{corpus} {source}: {held[source]}/{n}"
    fresh_only = [r for r in every if r["source"] not in developed]
    assert all(r["split"] in corpus_accuracy.FRESH_SPLITS for r in fresh_only)


@pytest.mark.parametrize("split", corpus_accuracy.FRESH_SPLITS)
def test_fresh_rows_are_only_in_their_own_files(split: str) -> None:
    for corpus in ("choice", "number", "freeform"):
        text = (LABELS / f"corpus_{corpus}.jsonl").read_text(encoding="utf-8")
        assert f'"split": "{split}"' not in text, f"corpus_{corpus}.jsonl holds a {split} row"
        fresh = corpus_accuracy.fresh_path(corpus, LABELS, split)
        if fresh.exists():
            rows = [json.loads(line) for line in fresh.read_text("utf-8").splitlines() if line]
            assert all(r["split"] == split and r["id"].startswith(f"{split}-") for r in rows)


def test_readme_documents_the_corpus() -> None:
    readme = (LABELS / "README.md").read_text(encoding="utf-8")
    for name in ("corpus_choice.jsonl", "corpus_number.jsonl", "corpus_freeform.jsonl"):
        assert name in readme
    assert "--held-out" in readme


def test_numbers_agree_by_value_and_absence_agrees_with_none() -> None:
    same = corpus_accuracy.same_number
    assert same("0.75", "3/4") and same("29", "29.00") and same("3e8", "300000000")
    assert not same("3", "3/4") and not same(None, "3") and not same("abc", "3")
    assert same(None, None) and same("", None) and not same("0", None)


def test_lm_eval_baselines_follow_its_filters() -> None:
    flexible = corpus_accuracy.lm_eval_flexible_extract
    strict = corpus_accuracy.lm_eval_strict_match
    assert flexible("the total cost is $29.00.") == "29.00"
    assert flexible("3 * $68 = $204, then 204 + 10 = 214") == "214"
    assert flexible("no digits") is None
    assert strict("so 5*6 = 30\n#### 1,234") == "1234" and strict("The answer is 5") is None


def _case(**fields: Any) -> Any:
    base = {"id": "x", "source": "s", "shape": "k", "split": "dev", "label": None}
    return corpus_accuracy._case("choice", {**base, **fields})


def test_native_option_letters_are_read_as_positions() -> None:
    value = corpus_accuracy.choice_value
    # a preset that takes Latin letters only is given the Latin letters of the same options
    assert value("choice/v3", _case(text="Answer: B", letters="أبجد")) == "b"
    assert value("choice/v3", _case(text="Answer: C", letters="ABCDE")) == "c"


def test_the_dev_tables_cover_every_dev_case_once() -> None:
    for corpus in corpus_accuracy.CORPORA:
        cases = corpus_accuracy.load_cases(corpus)
        dev = [c for c in cases if c.split == "dev"]
        tallies = corpus_accuracy.score_corpus(corpus, dev, ("dev",))
        readers = {t.reader for t in tallies}
        assert readers == set(corpus_accuracy.readers(corpus))
        for reader in readers:
            groups = [t for t in tallies if t.reader == reader and t.group != "all"]
            total = next(t for t in tallies if t.reader == reader and t.group == "all")
            assert sum(t.n for t in groups) == total.n == len(dev)
        table = corpus_accuracy.corpus_table(tallies, "dev")
        assert table.count("\n") == len({c.source for c in dev}) + 2  # head, rule, groups, all


@pytest.mark.parametrize(
    ("corpus", "label", "found", "kind"),
    [
        ("choice", "b", "b", "agree"),
        ("choice", None, None, "agree"),
        ("choice", "b", "c", "wrong"),
        ("choice", None, "c", "extra"),
        ("choice", "b", None, "missed"),
        ("number", "3/4", "0.75", "agree"),
        ("number", "3/4", "0.7", "wrong"),
        ("number", None, "12", "extra"),
        ("number", "12", None, "missed"),
        ("freeform", True, True, "agree"),
        ("freeform", False, False, "agree"),
        ("freeform", False, True, "extra"),
        ("freeform", True, False, "missed"),
    ],
)
def test_a_disagreement_is_told_apart_by_kind(
    corpus: str, label: Any, found: object, kind: str
) -> None:
    case = corpus_accuracy._case(
        corpus, {"id": "x", "source": "s", "shape": "k", "split": "dev", "text": "", "label": label}
    )
    assert corpus_accuracy.outcome(corpus, case, found) == kind


def test_the_error_table_counts_every_case_once_and_calls_wrong_answers_silent() -> None:
    rows = [("Answer: B", "b"), ("Answer: B", "c"), ("Answer: B", None), ("no idea", "a")]
    cases = [_case(id=f"x{i}", text=text, label=label) for i, (text, label) in enumerate(rows)]
    tallies = corpus_accuracy.score_corpus("choice", cases, ("dev",))
    mine = next(t for t in tallies if t.reader == "choice/v9" and t.group == "all")
    assert (mine.agree, mine.wrong, mine.extra, mine.missed) == (1, 1, 1, 1)
    table = corpus_accuracy.error_table(tallies, "dev")
    row = next(line for line in table.splitlines() if "`choice/v9`" in line)
    assert row == "| `choice/v9` | 4 | 1 | 1 | 1 | 1 | 2 (50.0%) | 1/3 (33.3%) |"
    head, rule = table.splitlines()[:2]
    assert rule.count("|---") == head.count("|") - 1
