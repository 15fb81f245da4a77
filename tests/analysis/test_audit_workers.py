"""Slices audited in worker processes (`analysis.audit_workers`) give the one-process report:
user presets and choice letters reach the workers, and the merge is the in-process one."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import answer_audit.analysis.audit as audit_module
from answer_audit.analysis.audit import AuditSettings, audit
from answer_audit.analysis.audit_workers import MIN_SLICE_ROWS, slice_rows
from answer_audit.parsers import PresetSet
from answer_audit.schemes.scheme import Scheme

LETTERS = ["a", "b", "c", "d", "e", "f", "g"]


def _choice_rows(n: int) -> pl.DataFrame:
    raws = [[f"Answer: {LETTERS[i % 7].upper()}", f"I think ({LETTERS[(i + 1) % 7]})",
             "no idea", f"The answer is {LETTERS[i % 5]}."][i % 4] for i in range(n)]  # fmt: skip
    return pl.DataFrame({
        "id": [str(i) for i in range(n)], "raw": raws,
        "truth": [LETTERS[i % 7] for i in range(n)],
        "label": [i % 3 == 0 for i in range(n)], "site": [f"s{i % 3}" for i in range(n)],
    })  # fmt: skip


def test_slices_in_workers_give_the_one_process_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "p.toml"
    path.write_text(
        '[preset."choice/upper"]\nfamily = "choice"\nbase = "choice/v3"\nchoices = "ABCDEFG"\n',
        encoding="utf-8",
    )
    presets = PresetSet.from_file(path)
    schemes = [Scheme("u", "choice/upper", "v1"), Scheme("v4", "choice/v4", "v1")]
    settings = AuditSettings(kind="choice", group_by=("site",), choices="abcdefg",
                             max_examples=12, n_boot=30)  # fmt: skip
    frame = _choice_rows(90)
    serial = audit(frame, schemes, settings, presets=presets, workers=1).to_dict()
    monkeypatch.setattr(audit_module, "CHUNK_ROWS", 7)  # 13 slices, handed to two workers
    said: list[str] = []
    spread = audit(frame, schemes, settings, presets=presets, workers=2, progress=said.append)
    assert spread.to_dict() == serial
    assert "scored u, v4 (rows 84-90 of 90)" in said


def test_slice_sizes_share_one_process_slice_among_the_workers() -> None:
    assert slice_rows(100_000, 2) == 25_000
    assert slice_rows(100_000, 64) == MIN_SLICE_ROWS
    assert slice_rows(7, 2) == 7
