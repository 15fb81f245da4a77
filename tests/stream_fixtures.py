"""Tables shared by the streamed-read tests (tests/table/, tests/sources/): rows with every
pathology the audit counts, written in each format a streamed read takes."""

from __future__ import annotations

import gzip
from pathlib import Path

import polars as pl

from answer_audit.sources import ColumnMap

CMAP = ColumnMap(raw="out", parsed="parse", label="ok", truth="gold", group_by=("temp",))


def pathology_rows(n: int, start: int = 0) -> pl.DataFrame:
    """Free-form rows with every pathology the audit counts: role tails, think tags, nulls."""
    raws, parses, oks, golds = [], [], [], []
    for i in range(start, start + n):
        gold = ["Paris", "8", "Tokyo", None][i % 4]
        raw = [
            f"Paris.\nUSER: and {i}?",
            f"<think>maybe 7</think> It is {8 if i % 3 else 9}.",
            f"Kyoto, not Tokyo. Question: {i}",
            "",
        ][i % 4]
        raws.append(raw)
        parses.append(raw.split("\n")[0] if i % 5 else None)
        oks.append(None if i % 7 == 0 else bool(i % 2))
        golds.append(gold)
    return pl.DataFrame(
        {"out": raws, "parse": parses, "ok": oks, "gold": golds,
         "temp": [i % 3 * 0.5 for i in range(start, start + n)]}
    )  # fmt: skip


def write_rows(frame: pl.DataFrame, path: Path) -> Path:
    """``frame`` written in the format its name says: .parquet, .csv, .tsv or .jsonl, each
    optionally .gz."""
    name = path.name.removesuffix(".gz")
    plain = path.with_name(name)
    if name.endswith(".parquet"):
        frame.write_parquet(plain, row_group_size=4)  # slices cross row groups
    elif name.endswith(".jsonl"):
        frame.write_ndjson(plain)
    else:
        frame.write_csv(plain, separator="\t" if name.endswith(".tsv") else ",")
    if path.name.endswith(".gz"):
        path.write_bytes(gzip.compress(plain.read_bytes(), mtime=0))
        plain.unlink()
    return path
