"""`answer-audit audit`: relabel saved outputs under alternative schemes; report what flips."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from answer_audit.cli import options as opt
from answer_audit.cli.errors import user_errors
from answer_audit.cli.options import report_paths, split_list
from answer_audit.cli.pipeline import run_audit
from answer_audit.sources import ColumnMap
from answer_audit.sources.spec import SourceSpec


@user_errors
def audit_cmd(
    sources: opt.Sources = None,
    runs_dir: Annotated[
        Path | None,
        typer.Option(
            "--runs-dir", help="Folder of experiment runs (SQLite).", rich_help_panel=opt.INPUT
        ),
    ] = None,
    metadata: Annotated[
        Path | None,
        typer.Option(
            "--metadata", help="runs_metadata.json for --runs-dir.", rich_help_panel=opt.INPUT
        ),
    ] = None,
    conditions: Annotated[
        str | None,
        typer.Option(
            "--conditions",
            help="Run folders: comma-separated condition names to keep (default: all).",
            rich_help_panel=opt.INPUT,
        ),
    ] = None,
    fmt: opt.Fmt = "auto",
    records: opt.Records = None,
    table: opt.SqlTable = None,
    query: opt.SqlQuery = None,
    skip_bad_lines: opt.SkipBad = False,
    separator: opt.Separator = None,
    metric: opt.Metric = None,
    scorer: opt.Scorer = None,
    id_col: opt.IdCol = None,
    raw: opt.RawCol = "raw",
    parsed: opt.ParsedCol = None,
    label: opt.LabelCol = None,
    truth: opt.TruthCol = "truth",
    error: opt.ErrorCol = None,
    choices_col: opt.ChoicesCol = None,
    group_by: opt.GroupBy = None,
    compare: opt.Compare = None,
    baseline: opt.Baseline = None,
    item: opt.Item = None,
    null_values: opt.NullValues = None,
    kind: Annotated[
        str,
        typer.Option(
            "--kind",
            help="What the answers are: freeform, choice, json or number; picks the default schemes.",
            rich_help_panel=opt.PARSING,
        ),
    ] = "freeform",
    scheme: Annotated[
        list[str] | None,
        typer.Option(
            "--scheme",
            help="NAME=PARSER[:NORMALIZER]; adds or replaces a scheme (repeatable).",
            rich_help_panel=opt.PARSING,
        ),
    ] = None,
    defaults: Annotated[
        bool,
        typer.Option(
            "--default-schemes/--no-default-schemes",
            help="Run the --kind's default schemes besides any --scheme.",
            rich_help_panel=opt.PARSING,
        ),
    ] = True,
    presets: opt.Presets = None,
    choices: opt.Choices = None,
    seed: opt.Seed = 0,
    bootstrap: Annotated[
        int,
        typer.Option(
            "--bootstrap",
            min=2,
            max=100_000,
            help="Bootstrap resamples for the Δpp intervals.",
            rich_help_panel=opt.STATS,
        ),
    ] = 1000,
    max_rows: Annotated[
        int,
        typer.Option(
            "--max-rows",
            min=0,
            help="Per-group rows per scheme in the Markdown/HTML.",
            rich_help_panel=opt.OUTPUT,
        ),
    ] = 40,
    max_examples: Annotated[
        int,
        typer.Option(
            "--max-examples", min=0, help="Flip examples to sample.", rich_help_panel=opt.OUTPUT
        ),
    ] = 30,
    out_dir: opt.OutDir = None,
    out_md: opt.OutMd = None,
    out_json: opt.OutJson = None,
    out_html: opt.OutHtml = None,
    workers: opt.Workers = 0,
    engine: opt.Engine = "local",
    address: opt.Address = None,
    quiet: opt.Quiet = False,
) -> None:
    """Relabel saved outputs under alternative parsers and normalizers; report what flips."""
    spec = SourceSpec(
        paths=tuple(sources or ()), runs_dir=runs_dir, metadata=metadata,
        conditions=split_list(conditions) if conditions is not None else None, fmt=fmt, records_key=records, table=table,
        query=query, skip_bad_lines=skip_bad_lines, metric=metric, scorer=scorer,
        separator=separator,
    )  # fmt: skip
    cmap = ColumnMap(
        id=id_col, raw=raw, parsed=parsed, label=label, truth=truth, error=error,
        choices=choices_col, group_by=split_list(group_by), null_values=split_list(null_values),
    )  # fmt: skip
    run_audit(
        spec, cmap, kind=kind, scheme=scheme, defaults=defaults, presets=presets,
        choices=choices, seed=seed, bootstrap=bootstrap, max_rows=max_rows,
        max_examples=max_examples,
        outputs=report_paths("answer_parsing_audit", out_dir, out_md, out_json, out_html),
        workers=workers, quiet=quiet, compare=compare, baseline=baseline, item=item,
        engine=engine, address=address,
    )  # fmt: skip
