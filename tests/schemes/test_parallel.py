"""Worker processes give exactly the serial results, in order."""

from collections.abc import Sequence
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from answer_audit.cli import app
from answer_audit.schemes import parallel
from answer_audit.schemes.apply import apply_scheme
from answer_audit.schemes.scheme import Scheme

TEXTS = [
    "<think>maybe Rome</think>The capital is **Paris**.",
    "Okay, so I think it is Paris. Wait, isn't Rome the capital?",
    "There are eight planets.\nUSER: and now?",
    "It is 12, since 12 × 12 = 144.",
    "",
    None,
    "No, 7 is a prime number.",
] * 5
TRUTHS = ["Paris", "Paris", "8", "12", "Paris", "Paris", "Yes"] * 5


@pytest.fixture
def tiny_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "MIN_PARALLEL_ITEMS", 2)


def _double(items: Sequence[int]) -> list[int]:
    return [2 * i for i in items]


def test_map_chunks_keeps_order_across_workers(tiny_threshold: None) -> None:
    items = list(range(1001))
    assert parallel.map_chunks(_double, items, 2) == _double(items)


@pytest.mark.parametrize(
    ("parser", "normalizer"), [("freeform/v3", "v3"), ("number/v1", "numeric")]
)
def test_a_scheme_in_two_workers_equals_the_serial_run(
    tiny_threshold: None, parser: str, normalizer: str
) -> None:
    frame = pl.DataFrame(
        {"raw": TEXTS, "truth": TRUTHS}, schema={"raw": pl.String, "truth": pl.String}
    )
    scheme = Scheme("s", parser, normalizer)
    serial = apply_scheme(frame, scheme, "freeform", workers=1)
    assert apply_scheme(frame, scheme, "freeform", workers=2).equals(serial)
    assert parallel._POOLS, "the two-worker run did not start a pool"


def test_cli_workers_flag_gives_the_same_report(tiny_threshold: None, tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    pl.DataFrame({"raw": [t or "" for t in TEXTS], "truth": TRUTHS,
                  "label": [i % 2 for i in range(len(TEXTS))]}).write_csv(path)  # fmt: skip
    reports = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.json"
        result = CliRunner().invoke(app, ["audit", str(path), "--label", "label", "-q", "--workers", workers,
                                          "--out-json", str(out), "--out-md", str(tmp_path / "a.md")])  # fmt: skip
        assert result.exit_code == 0, result.stderr
        reports.append(out.read_text())

    def strip(text: str) -> str:
        return text.split('"generated_at"')[0]

    assert strip(reports[0]) == strip(reports[1])


def test_workers_resolve_to_the_cores_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    assert parallel.resolve_workers(0) == min(parallel.available_cores(), 8) >= 1
    assert parallel.resolve_workers(3) == 3
    monkeypatch.setattr(parallel, "available_cores", lambda: 64)
    assert parallel.resolve_workers(0) == parallel.MAX_AUTO_WORKERS == 8
    assert parallel.resolve_workers(16) == 16  # asked for explicitly


def test_rescore_and_diff_with_workers_give_the_same_results(tiny_threshold: None) -> None:
    from answer_audit.analysis.diff import diff_labelings
    from answer_audit.analysis.rescore import rescore

    frame = pl.DataFrame({"id": [str(i) for i in range(len(TEXTS))], "raw": TEXTS, "truth": TRUTHS},
                         schema={"id": pl.String, "raw": pl.String, "truth": pl.String})  # fmt: skip
    one = rescore(frame, "freeform/v3", normalizer="v3", n_boot=20).to_dict()
    two = rescore(frame, "freeform/v3", normalizer="v3", n_boot=20, workers=2).to_dict()
    assert one == two
    d1 = diff_labelings(frame, "freeform/v2", "freeform/v3", normalizer="v3").to_dict()
    d2 = diff_labelings(frame, "freeform/v2", "freeform/v3", normalizer="v3", workers=2).to_dict()
    assert d1 == d2 and d1["agreement"]["n"] == len(TEXTS)


def test_an_audit_overlapping_threads_and_workers_equals_the_serial_one(
    tiny_threshold: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # workers > 1: the row-by-row schemes of each slice run from a second thread while the
    # vectorized ones run here; many slices, schemes of both kinds, one parser in both
    import answer_audit.analysis.audit as audit_module
    from answer_audit.analysis.audit import AuditSettings, audit
    from answer_audit.schemes.apply import default_schemes
    from answer_audit.sources.demo import write_demo_runs
    from answer_audit.sources.runs import load_runs

    frame = load_runs(tmp_path / "runs", write_demo_runs(tmp_path / "runs")).frame
    monkeypatch.setattr(audit_module, "CHUNK_ROWS", 11)
    schemes = [*default_schemes("freeform"), Scheme("v2_v3", "freeform/v2", "v3"),
               Scheme("numbers", "number/v1", "numeric")]  # fmt: skip
    settings = AuditSettings(group_by=("temperature", "variant"), max_examples=40, n_boot=50)
    serial = audit(frame, schemes, settings, workers=1).to_dict()
    assert audit(frame, schemes, settings, workers=2).to_dict() == serial
