"""Worker processes give exactly the serial results, in order."""

from collections.abc import Iterator, Sequence
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


def test_workers_resolve_to_the_cores_the_memory_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    assert parallel.resolve_workers(0) == parallel.default_workers() >= 1
    assert parallel.resolve_workers(3) == 3
    assert parallel.resolve_workers(16) == 16  # asked for explicitly: no bound
    gib = 2**30
    per = parallel.WORKER_MEMORY_BYTES
    assert parallel.default_workers(cores=64, memory=100 * gib) == 64  # no fixed cap
    assert parallel.default_workers(cores=64, memory=10 * per) == 5  # half the free memory
    assert parallel.default_workers(cores=4, memory=per) == 1  # at least one
    monkeypatch.setattr(parallel, "available_memory", lambda: None)
    assert parallel.default_workers(cores=12) == 12  # memory unknown: the cores decide


def test_a_container_limit_bounds_the_free_memory(tmp_path: Path) -> None:
    (tmp_path / "memory.max").write_text("1000\n")
    (tmp_path / "memory.current").write_text("400\n")
    assert parallel._cgroup_room(tmp_path) == 600
    (tmp_path / "memory.max").write_text("max\n")
    assert parallel._cgroup_room(tmp_path) is None
    assert parallel._cgroup_room(tmp_path / "missing") is None
    found = parallel.available_memory()
    assert found is None or found > 0


def _polars_threads(_: object) -> int:
    import polars

    return polars.thread_pool_size()


def test_map_ordered_keeps_order_and_gives_workers_one_polars_thread() -> None:
    items = iter(range(7))  # read lazily
    assert list(parallel.map_ordered(_double_one, items, 2)) == [2 * i for i in range(7)]
    assert list(parallel.map_ordered(_double_one, range(3), 1)) == [0, 2, 4]  # here, no pool
    assert set(parallel.map_ordered(_polars_threads, range(4), 2)) == {1}
    assert len(parallel.worker_pids()) >= 2


def _double_one(item: int) -> int:
    return 2 * item


def test_map_ordered_reads_at_most_ahead_items_before_yielding() -> None:
    read: list[int] = []

    def items() -> Iterator[int]:
        for i in range(10):
            read.append(i)
            yield i

    found = parallel.map_ordered(_double_one, items(), 2, ahead=3)
    assert next(found) == 0
    assert len(read) == 3
    assert list(found) == [2 * i for i in range(1, 10)]


def _fail_on_three(item: int) -> int:
    if item == 3:
        raise ValueError("three")
    return item


def test_a_failed_item_stops_map_ordered_with_its_error() -> None:
    with pytest.raises(ValueError, match="three"):
        list(parallel.map_ordered(_fail_on_three, range(8), 2))


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
