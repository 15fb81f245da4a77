"""Option types shared by several commands (one definition each)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

Sources = Annotated[
    list[Path] | None,
    typer.Argument(help="Input files: CSV, JSONL, JSON, Parquet or SQLite (several are concatenated).",
                   show_default=False),
]  # fmt: skip
Fmt = Annotated[
    str, typer.Option("--format", help="Input format: auto, csv, jsonl, json, parquet, sqlite.")
]
Records = Annotated[str | None, typer.Option("--records", help="JSON: key of the list of records.")]
SqlTable = Annotated[str | None, typer.Option("--table", help="SQLite: table to read.")]
SqlQuery = Annotated[str | None, typer.Option("--query", help="SQLite: SELECT query to read.")]
SkipBad = Annotated[
    bool,
    typer.Option("--skip-bad-lines", help="JSONL: skip malformed lines (counted in the report)."),
]
IdCol = Annotated[
    str | None, typer.Option("--id", help="Column with row ids (default: row number).")
]
RawCol = Annotated[str, typer.Option("--raw", help="Column with the raw model output.")]
ParsedCol = Annotated[
    str | None, typer.Option("--parsed", help="Column with the stored parsed answer.")
]
LabelCol = Annotated[
    str | None, typer.Option("--label", help="Column with the stored correctness label.")
]
TruthCol = Annotated[str, typer.Option("--truth", help="Column with the ground truth.")]
ErrorCol = Annotated[
    str | None, typer.Option("--error", help="Column that is non-empty on error rows.")
]
GroupBy = Annotated[str | None, typer.Option("--group-by", help="Comma-separated group columns.")]
NullValues = Annotated[
    str | None,
    typer.Option("--null-values", help="Comma-separated strings meaning missing, e.g. None,NA."),
]
Presets = Annotated[
    Path | None, typer.Option("--presets", help="TOML file with user presets.", dir_okay=False)
]
Seed = Annotated[int, typer.Option("--seed", help="Seed for sampling and bootstrap.")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or summary table.")]
OutJson = Annotated[Path | None, typer.Option("--out-json", help="Write the JSON report here.")]
OutMd = Annotated[Path | None, typer.Option("--out-md", help="Write the Markdown report here.")]


def split_list(value: str | None) -> tuple[str, ...]:
    """``"a, b,,c"`` -> ``("a", "b", "c")``; None -> ``()``."""
    return tuple(v.strip() for v in (value or "").split(",") if v.strip())
