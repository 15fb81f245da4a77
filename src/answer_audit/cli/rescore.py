"""`answer-audit rescore`: re-extract saved outputs with a preset; stored vs rescored metrics."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Annotated

import polars as pl
import typer

from answer_audit.analysis.rescore import RescoreResult, rescore
from answer_audit.cli import options as opt
from answer_audit.cli.comparison import comparison_hint, with_compared_columns
from answer_audit.cli.console import err, out, progress_reporter
from answer_audit.cli.engine import check_engine, check_ray_out, check_ray_sources, rescore_on_ray
from answer_audit.cli.errors import user_errors
from answer_audit.cli.options import (
    adhoc_json_preset,
    check_adhoc_used,
    renamed_option,
    report_paths,
    resolve_parser,
    split_list,
)
from answer_audit.cli.pipeline import opened_rows
from answer_audit.parsers import PresetSet
from answer_audit.report.html.rescore import render_rescore_html
from answer_audit.report.json import write_json
from answer_audit.report.markdown.rescore import render_rescore_markdown
from answer_audit.report.outputs import (
    atomic_write,
    atomic_write_text,
    check_output_paths,
    generated_at,
    row_format,
    writing_rows,
)
from answer_audit.report.terminal import print_notes, print_rescore, print_written
from answer_audit.schemes.parallel import resolve_workers
from answer_audit.sources import ColumnMap
from answer_audit.sources.spec import SourceSpec, load_streamed

ParserOpt = Annotated[
    str,
    typer.Option(
        "--parser", "-p", show_default=False,
        help="Preset to rescore with (see `answer-audit parsers`), or `json` with --field.",
    ),
]  # fmt: skip
# The spellings before the one vocabulary (--parsed, --label): still read, with a note.
OldStoredCol = Annotated[str | None, typer.Option("--stored", hidden=True)]
OldStoredLabel = Annotated[str | None, typer.Option("--stored-label", hidden=True)]


@user_errors
def rescore_cmd(
    parser: ParserOpt,
    sources: opt.Sources = None,
    raw: opt.RawCol = "raw",
    truth: opt.TruthCol = "truth",
    parsed: opt.ParsedCol = None,
    label: opt.LabelCol = None,
    stored: OldStoredCol = None,
    stored_label: OldStoredLabel = None,
    error: opt.ErrorCol = None,
    choices_col: opt.ChoicesCol = None,
    id_col: opt.IdCol = None,
    group_by: opt.GroupBy = None,
    compare: opt.Compare = None,
    baseline: opt.Baseline = None,
    item: opt.Item = None,
    null_values: opt.NullValues = None,
    fmt: opt.Fmt = "auto",
    records: opt.Records = None,
    table: opt.SqlTable = None,
    query: opt.SqlQuery = None,
    skip_bad_lines: opt.SkipBad = False,
    separator: opt.Separator = None,
    metric: opt.Metric = None,
    scorer: opt.Scorer = None,
    choices: opt.Choices = None,
    presets: opt.Presets = None,
    field: opt.JsonField = None,
    null_as: opt.NullAs = None,
    allowed: opt.Allowed = None,
    no_integer_fallback: opt.NoIntegerFallback = False,
    normalizer: opt.Normalizer = None,
    bootstrap: Annotated[
        int, typer.Option("--bootstrap", min=2, max=100_000, help="Bootstrap resamples.")
    ] = 1000,
    seed: opt.Seed = 0,
    out_rows: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Write every input row plus the new labels (.jsonl/.csv/.parquet/.json; with "
            "--engine ray: a new folder, one Parquet file per batch).",
        ),
    ] = None,
    out_dir: opt.OutDir = None,
    out_json: opt.OutJson = None,
    out_md: opt.OutMd = None,
    out_html: opt.OutHtml = None,
    workers: opt.Workers = 0,
    engine: opt.Engine = "local",
    address: opt.Address = None,
    quiet: opt.Quiet = False,
) -> None:
    """Re-extract saved outputs with a parser preset and compare with the stored answers."""
    check_engine(engine, address)
    spec = SourceSpec(paths=tuple(sources or ()), fmt=fmt, records_key=records, table=table,
                      query=query, skip_bad_lines=skip_bad_lines, metric=metric,
                      scorer=scorer, separator=separator)  # fmt: skip
    parsed = renamed_option("--stored", stored, "--parsed", parsed)
    label = renamed_option("--stored-label", stored_label, "--label", label)
    reports = report_paths("rescore", out_dir, out_md, out_json, out_html)
    out_md, out_json, out_html = reports.all()
    cmap = ColumnMap(id=id_col, raw=raw, parsed=parsed, label=label, truth=truth,
                     error=error, choices=choices_col, group_by=split_list(group_by),
                     null_values=split_list(null_values))  # fmt: skip
    if not spec.paths:
        raise ValueError("no input: pass one or more result files")
    adhoc = adhoc_json_preset(field, null_as, allowed, no_integer_fallback)
    check_adhoc_used(adhoc, [parser])
    if engine == "ray":
        check_ray_sources(spec, cmap)
        check_ray_out(out_rows)
    elif out_rows is not None:
        row_format(out_rows)
    inputs_and_presets = [*spec.inputs, *([presets] if presets else [])]  # never over either
    row_file = None if engine == "ray" else out_rows  # on Ray, a folder (`check_ray_out`)
    check_output_paths([row_file, out_json, out_md, out_html], inputs_and_presets)
    preset, preset_set = resolve_parser(parser, adhoc), PresetSet.from_file(presets)
    with progress_reporter(quiet, total=3) as step:
        if engine == "ray":
            result = rescore_on_ray(spec, cmap, preset, presets=preset_set, choices=choices,
                                    normalizer=normalizer, n_boot=bootstrap, seed=seed,
                                    conclusions=(compare, baseline, item), address=address,
                                    out=out_rows, step=step)  # fmt: skip
            step("writing")  # the workers wrote the rows
        else:
            step("loading")
            loading, own_groups = with_compared_columns(spec, cmap, compare, item)
            # Parquet, CSV/TSV and JSON Lines: the texts are read a slice at a time
            loaded, groups = load_streamed(spec, loading)
            with opened_rows(loaded) as rows, _row_writer(row_file, spec.inputs) as rows_to:
                step(f"rescoring with {parser}")
                # each slice's rows are handed to the writer as they are labelled
                result = rescore(loaded, preset, presets=preset_set, choices=choices,
                                 normalizer=normalizer, group_by=own_groups or groups,
                                 n_boot=bootstrap, seed=seed, workers=resolve_workers(workers),
                                 compare=compare, baseline=baseline, item=item,
                                 keep_rows=False, rows_to=rows_to)  # fmt: skip
                hint = comparison_hint(spec, loaded.coverage, rows.small)
                result = result.with_conclusions_hint(hint)
                step("writing")
        _write_reports(result, engine, out_json, out_md, out_html, spec.inputs)
    if not quiet:
        print_rescore(result, out, err)  # with the notes
    else:
        print_notes(result.notes, err)  # warnings reach the terminal, --quiet or not
    print_written((out_rows, out_json, out_md, out_html), out)


def _write_json(data: dict[str, object], path: Path) -> None:
    with path.open("w", encoding="utf-8") as fh:
        write_json(data, fh)


@contextmanager
def _row_writer(
    path: Path | None, inputs: tuple[Path, ...]
) -> Iterator[Callable[[pl.DataFrame], None] | None]:
    """`writing_rows` for ``--out`` (the file written when the block ends), or None."""
    if path is None:
        yield None
        return
    with writing_rows(path, inputs) as add:
        yield add


def _write_reports(
    result: RescoreResult,
    engine: str,
    out_json: Path | None,
    out_md: Path | None,
    out_html: Path | None,
    inputs: tuple[Path, ...],
) -> None:
    """The reports asked for (the JSON names the ``engine`` next to its time stamp)."""
    stamp = generated_at()
    if out_json is not None:
        data = {**result.to_dict(), "generated_at": stamp, "engine": engine}
        atomic_write(out_json, partial(_write_json, data), inputs)
    if out_md is not None:
        atomic_write_text(out_md, render_rescore_markdown(result, generated_at=stamp), inputs)
    if out_html is not None:
        atomic_write_text(out_html, render_rescore_html(result, generated_at=stamp), inputs)
