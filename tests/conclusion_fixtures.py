"""Tables in which every conclusion status occurs, as the commands read them.

Each case (a stratum named after the status it must get) holds 100 rows at `control` and 100 at
`treat`; a row's stored label and its label under the scheme follow paired cells (both right,
stored only, scheme only, neither). In the audit table the scheme re-matches the stored parse
(``--scheme new=stored:numeric``): the parse is the truth ``1`` where the scheme is right and
``2`` where it is wrong, while the recorded label holds the stored correctness. One case more,
`not estimable`, gives every treat row a truth the numeric matcher cannot judge.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

Cell = tuple[int, int, int, int]
STATUS_CASES: dict[str, tuple[Cell, Cell]] = {
    "significant reversal": ((20, 0, 60, 20), (20, 60, 0, 20)),  # +60 pp -> -60 pp
    "gained": ((50, 0, 0, 50), (55, 0, 35, 10)),  # +5 -> +40
    "lost": ((50, 0, 0, 50), (55, 35, 0, 10)),  # +40 -> +5
    "reversed": ((50, 0, 0, 50), (42, 16, 0, 42)),  # +8 -> -8, 16 rows flip
    "shifted": ((50, 0, 0, 50), (52, 0, 10, 38)),  # +2 -> +12, 10 rows flip
    "same": ((50, 0, 0, 50), (49, 2, 0, 49)),  # +1 -> -1 within noise
}
PATTERNS = ((True, True), (True, False), (False, True), (False, False))
EVERY_STATUS = [*STATUS_CASES, "not estimable"]
AUDIT_FLAGS = ["--parsed", "parsed", "--label", "label", "--group-by", "case", "--compare", "cond",
               "--baseline", "control", "--item", "q", "--no-default-schemes",
               "--scheme", "new=stored:numeric", "--bootstrap", "2000", "--seed", "0"]  # fmt: skip


def _rows(case: str, level: str, cells: Cell, first_item: int) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for (stored, scheme), count in zip(PATTERNS, cells, strict=True):
        rows += [{"case": case, "cond": level, "label": int(stored), "new_ok": scheme}] * count
    items = np.random.default_rng(first_item).permutation(len(rows))  # pairing carries no signal
    return [{**row, "q": f"q{item:03d}"} for row, item in zip(rows, items, strict=True)]


def status_frame() -> pl.DataFrame:
    """Columns id, raw, parsed, label, truth, case, cond, q (and new_ok: the scheme's label)."""
    rows: list[dict[str, object]] = []
    for case, (control, treat) in STATUS_CASES.items():
        rows += _rows(case, "control", control, 0) + _rows(case, "treat", treat, 1)
    rows += _rows("not estimable", "control", (50, 0, 0, 50), 0)
    rows += _rows("not estimable", "treat", (50, 0, 0, 50), 1)
    frame = pl.DataFrame(rows).with_row_index("n")
    unjudged = (pl.col("case") == "not estimable") & (pl.col("cond") == "treat")
    return frame.select(
        pl.format("r{}", pl.col("n")).alias("id"),
        pl.lit("see the stored parse").alias("raw"),
        pl.when(pl.col("new_ok")).then(pl.lit("1")).otherwise(pl.lit("2")).alias("parsed"),
        "label",
        pl.when(unjudged).then(pl.lit("one")).otherwise(pl.lit("1")).alias("truth"),
        "case", "cond", "q", "new_ok",
    )  # fmt: skip


def status_csv(path: Path) -> Path:
    """`status_frame` written as CSV."""
    status_frame().write_csv(path)
    return path
