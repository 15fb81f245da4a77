"""The acceptance thresholds of choice/v4 and freeform/v3 on the held-out (test) split of the
human labels, and that they beat every older preset on every split (benchmarks/accuracy.py)."""

from __future__ import annotations

import importlib.util
import json
import sys
from functools import cache
from types import ModuleType

import pytest

from paths import REAL, REPO

ROOT = REPO


def _load() -> ModuleType:
    # benchmarks/ is not a package: load the script by path, as test_golden loads its recorder
    spec = importlib.util.spec_from_file_location("accuracy", ROOT / "benchmarks" / "accuracy.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


accuracy = _load()


@cache
def cells() -> dict[tuple[str, str, str], float]:
    if not (REAL / "statutes").is_dir() or not (REAL / "conformity").is_dir():
        pytest.skip(f"real data not present at {REAL}")
    found = accuracy.score(accuracy.load_items(REAL))
    return {(c.preset, c.dataset, c.split): c.rate for c in found}


@pytest.mark.real
@pytest.mark.parametrize(
    ("preset", "dataset", "threshold"),
    [
        ("choice/v4", "statutes", 0.95),
        ("choice/v4", "short", 0.98),
        ("choice/v4", "cot", 0.98),
        pytest.param(
            "freeform/v3:v3",
            "conformity",
            0.97,
            # Measured once, at the end, on the held-out rows: 359/371 = 96.8% (dev 97.3%).
            # Strict: when a later preset reaches the threshold this fails and the mark goes.
            marks=pytest.mark.xfail(strict=True, reason="held-out 96.8% < 97%; not tuned on test"),
        ),
    ],
)
def test_held_out_agreement_meets_the_threshold(
    preset: str, dataset: str, threshold: float
) -> None:
    rate = cells()[(preset, dataset, "test")]
    assert rate >= threshold, f"{preset} agrees on {rate:.1%} of held-out {dataset} rows"


@pytest.mark.real
@pytest.mark.parametrize("split", ["dev", "test"])
def test_new_presets_beat_every_older_preset_on_every_split(split: str) -> None:
    table = cells()
    for (preset, dataset, s), rate in table.items():
        if s != split:
            continue
        freeform = dataset in ("conformity", "consensus", "adjudicated")
        best = "freeform/v3:v3" if freeform else "choice/v4"
        # choice/v5 to v8 were built on a broader corpus (tests/parsers/test_choice*.py); here
        # they must match choice/v4, which is 100% on these dev rows (and so must v9, v10)
        # freeform/v4 with the v4 matcher too (built on the broad corpus; tests/parsers/
        # test_freeform.py, tests/matching/test_v4.py); its pairings with older parts or
        # matchers are compared with neither
        newer = (
            "choice/v5",
            "choice/v6",
            "choice/v7",
            "choice/v8",
            "choice/v9",
            "choice/v10",
            "choice/v11",
            "choice/v12",
            "freeform/v4:v4",
            "freeform/v4:v5",
        )
        # the v5 matcher too (built on the broad corpus's fresh split; tests/matching/test_v5.py)
        mixed = preset.startswith("freeform/v4") or preset.endswith((":v4", ":v5"))
        if preset not in (best, *newer, accuracy.SECOND_LABELLER, accuracy.FIRST_LABELLER) and (
            not mixed
        ):
            assert table[(best, dataset, split)] > rate, f"{preset} >= {best} on {dataset} {split}"
        if preset in newer:
            assert rate >= table[(best, dataset, split)], f"{preset} < {best} on {dataset} {split}"


def test_synthetic_rows_follow_the_documented_split_rule() -> None:
    path = ROOT / "tests" / "labels" / "synthetic_choice.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    assert len(rows) >= 150
    assert len({r["id"] for r in rows}) == len(rows)
    wrong = [
        r["id"] for r in rows if r["split"] != accuracy.split_of(f"synthetic_choice#{r['id']}")
    ]
    assert not wrong, f"rows whose split is not the hash rule's: {wrong}"
    assert {r["kind"] for r in rows} == {"short", "cot"}
    assert all(r["label"] in (None, "a", "b", "c", "d") for r in rows)
    readme = (ROOT / "tests" / "labels" / "README.md").read_text(encoding="utf-8")
    assert "sha256" in readme.lower() and "% 3 == 0" in readme


def _conformity_labels(name: str) -> dict[tuple[str, str], object]:
    """A conformity label file as (file, trial_id) -> label."""
    lines = (ROOT / "tests" / "labels" / name).read_text(encoding="utf-8").splitlines()
    return {(r["file"], r["trial_id"]): r["label"] for r in map(json.loads, lines)}


def test_second_labels_cover_exactly_the_first_labellers_rows() -> None:
    first = _conformity_labels("conformity.jsonl")
    second = _conformity_labels("conformity_second.jsonl")
    assert second.keys() == first.keys()
    assert all(isinstance(label, bool) for label in second.values())
    # two readers by the same rules disagree on a few rows, never on most
    assert 0.9 < sum(first[k] == second[k] for k in first) / len(first) < 1.0


def test_third_labels_cover_exactly_the_disagreements() -> None:
    first = _conformity_labels("conformity.jsonl")
    second = _conformity_labels("conformity_second.jsonl")
    third = _conformity_labels("conformity_third.jsonl")
    assert third.keys() == {k for k in first if first[k] != second[k]}
    assert all(isinstance(label, bool) for label in third.values())


def test_adjudicated_label_is_the_majority_of_three() -> None:
    item = accuracy.Item("k", "conformity", "text", True, "t", second=True, third=None)
    assert item.adjudicated is True
    item = accuracy.Item("k", "conformity", "text", True, "t", second=False, third=False)
    assert item.adjudicated is False
    item = accuracy.Item("k", "conformity", "text", False, "t", second=True, third=True)
    assert item.adjudicated is True


@pytest.mark.real
def test_the_recommended_presets_state_their_measured_agreement() -> None:
    from answer_audit.parsers.presets.recommended import RECOMMENDED

    held_out = {k: v for k, v in cells().items() if k[2] == "test"}
    choice = RECOMMENDED["choice"]
    rates = [rate for (p, _d, _s), rate in held_out.items() if p == choice.preset]
    if all(rate == 1.0 for rate in rates):
        assert choice.agreement.startswith("100%")
    freeform = RECOMMENDED["freeform"]
    rate = held_out[(f"{freeform.preset}:{freeform.matcher}", "conformity", "test")]
    assert freeform.agreement.startswith(f"{100 * rate:.1f}%")
