"""Audit results for the HTML report tests: the demo, and one full of hostile model text."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from answer_audit.audit import AuditResult, AuditSettings, audit
from answer_audit.demo import demo_rows
from answer_audit.loading import SourceSpec, load
from answer_audit.sources import ColumnMap, write_runs

# Each must reach the page as literal text: never as markup, script or template code.
HOSTILE = (
    "<script>window.__pwned=1;document.title='PWNED'</script>",
    "<img src=x onerror=\"window.__pwned=1;document.title='PWNED'\">",
    "</textarea><script>window.__pwned=1;document.title='PWNED'</script>",
    "</mark><b>bold?</b>",
    "{{ 7*7 }}",
)
STAMP = "2026-01-01 00:00 UTC"


def demo_result(tmp: Path) -> AuditResult:
    """The audit `make demo` runs (same rows, groups and settings)."""
    metadata = write_runs(demo_rows(0), tmp / "runs")
    loaded, groups = load(SourceSpec(runs_dir=tmp / "runs", metadata=metadata), ColumnMap())
    return audit(loaded.frame, settings=AuditSettings(group_by=groups))


def hostile_result() -> AuditResult:
    """Every hostile string in raw outputs (inside and outside the extracted span), ids, truths,
    stored parses and group values; each row flips, so each becomes an example."""
    raws, ids, groups = [], [], []
    for k, text in enumerate(HOSTILE):
        # freeform/v2 answers after </think>: the span is the hostile text + "London" (wrong),
        # while the stored parse (the whole text) contains the truth "Paris" (right).
        raws.append(f"Paris? {text}\n</think>\n{text} London")
        ids.append(f"{text}#{k}")
        groups.append(text)
    n = len(raws)
    frame = pl.DataFrame(
        {"id": ids, "raw": raws, "parsed": raws, "label": [True] * n, "truth": ["Paris"] * n,
         "g": groups}
    )  # fmt: skip
    return audit(frame, settings=AuditSettings(group_by=("g",), n_boot=200))
