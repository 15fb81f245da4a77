"""`answer-audit diff`: two labellings of the same outputs, row by row."""

from __future__ import annotations

import dataclasses
from typing import Annotated, Literal

import typer

from answer_audit.analysis.diff import diff_labelings, pair_tables
from answer_audit.cli import options as opt
from answer_audit.cli.comparison import comparison_hint, with_compared_columns
from answer_audit.cli.console import err, out, progress_reporter
from answer_audit.cli.errors import user_errors
from answer_audit.cli.options import (
    adhoc_json_preset,
    check_adhoc_used,
    report_paths,
    resolve_parser,
    split_list,
)
from answer_audit.parsers import PresetSet
from answer_audit.report.html.diff import render_diff_html
from answer_audit.report.json import to_json
from answer_audit.report.markdown.diff import render_diff_markdown
from answer_audit.report.outputs import atomic_write_text, check_output_paths, generated_at
from answer_audit.report.terminal import print_diff, print_notes, print_written
from answer_audit.schemes.kinds import KINDS, KindName
from answer_audit.schemes.parallel import resolve_workers
from answer_audit.sources import ColumnMap, LoadedTable
from answer_audit.sources.frameworks import is_framework
from answer_audit.sources.spec import SourceSpec, load
from answer_audit.table.canonical import with_null_values

SideOpt = "A preset, `json` (with --field), or stored:COLUMN for a stored parse."


@user_errors
def diff_cmd(
    a: Annotated[str, typer.Option("--a", "-a", help=f"Side A: {SideOpt}", show_default=False)],
    b: Annotated[str, typer.Option("--b", "-b", help=f"Side B: {SideOpt}", show_default=False)],
    sources: opt.Sources = None,
    align: Annotated[
        str | None,
        typer.Option(
            "--align",
            help="Two files: pair their rows by `id` (needs --id) or by "
            "`order`; A labels the first file, B the second.",
        ),
    ] = None,
    kind: Annotated[
        str | None,
        typer.Option(
            "--kind",
            help="What the answers are: freeform, choice, json or number; picks the matcher "
            "when both sides are stored parses.",
            rich_help_panel=opt.PARSING,
        ),
    ] = None,
    raw: opt.RawCol = "raw",
    truth: opt.TruthCol = "truth",
    id_col: opt.IdCol = None,
    error: opt.ErrorCol = None,
    choices_col: opt.ChoicesCol = None,
    group_by: opt.GroupBy = None,
    compare: opt.Compare = None,
    baseline: opt.Baseline = None,
    item: opt.Item = None,
    seed: Annotated[
        int,
        typer.Option(
            "--seed",
            min=0,
            help="Seed of the conclusions' resampling.",
            rich_help_panel=opt.CONCLUSIONS,
        ),
    ] = 0,
    bootstrap: Annotated[
        int,
        typer.Option(
            "--bootstrap",
            min=2,
            max=100_000,
            help="Resamples for the conclusions' intervals.",
            rich_help_panel=opt.CONCLUSIONS,
        ),
    ] = 1000,
    null_values: opt.NullValues = None,
    fmt: opt.Fmt = "auto",
    records: opt.Records = None,
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
    context: Annotated[
        int, typer.Option("--context", min=0, help="Characters shown around a span.")
    ] = 80,
    max_rows: Annotated[
        int, typer.Option("--max-rows", min=0, help="Disagreements shown (all go to the JSON).")
    ] = 20,
    out_md: opt.OutMd = None,
    out_dir: opt.OutDir = None,
    out_json: opt.OutJson = None,
    out_html: opt.OutHtml = None,
    workers: opt.Workers = 0,
    quiet: opt.Quiet = False,
) -> None:
    """Compare two labellings of the same outputs: did the model change, or only the parser?"""
    paths = tuple(sources or ())
    out_md, out_json, out_html = report_paths("diff", out_dir, out_md, out_json, out_html).all()
    cmap = ColumnMap(id=id_col, raw=raw, truth=truth, error=error, choices=choices_col,
                     group_by=split_list(group_by),
                     null_values=split_list(null_values))  # fmt: skip
    spec = SourceSpec(paths=paths, fmt=fmt, records_key=records, skip_bad_lines=skip_bad_lines,
                      metric=metric, scorer=scorer, separator=separator)  # fmt: skip
    if not paths:
        raise ValueError("no input: pass one result file, or two with --align")
    adhoc = adhoc_json_preset(field, null_as, allowed, no_integer_fallback)
    check_adhoc_used(adhoc, [a, b])
    inputs_and_presets = [*spec.inputs, *([presets] if presets else [])]  # never over either
    check_output_paths([out_md, out_json, out_html], inputs_and_presets)
    loading, _ = with_compared_columns(spec, cmap, compare, item)
    with progress_reporter(quiet, total=2) as step:
        step("loading")
        first, second, notes, mode = _diff_tables(spec, loading, align)
        step("comparing")
        result = diff_labelings(
            first.frame, resolve_parser(a, adhoc), resolve_parser(b, adhoc),
            frame_b=None if second is None else second.frame,
            columns=with_null_values(first.original, cmap.null_values),
            columns_b=None if second is None
            else with_null_values(second.original, cmap.null_values),
            kind=_kind(kind),
            presets=PresetSet.from_file(presets), choices=choices,
            normalizer=normalizer, context=context, align=mode, group_by=cmap.group_by,
            workers=resolve_workers(workers), compare=compare, baseline=baseline, item=item,
            seed=seed, n_boot=bootstrap,
        )  # fmt: skip
    result = dataclasses.replace(result, notes=(*notes, *result.notes))  # loading's notes first
    result = result.with_conclusions_hint(comparison_hint(spec, first.coverage, first.frame))
    if out_md is not None:
        text = render_diff_markdown(result, max_rows=max_rows, generated_at=generated_at())
        atomic_write_text(out_md, text, spec.inputs)
    if out_json is not None:
        atomic_write_text(out_json, to_json(result.to_dict()), spec.inputs)
    if out_html is not None:
        text = render_diff_html(result, max_rows=max_rows, generated_at=generated_at())
        atomic_write_text(out_html, text, spec.inputs)
    if not quiet:
        print_diff(result, max_rows, out, err)  # with the notes
    else:
        print_notes(result.notes, err)  # warnings reach the terminal, --quiet or not
    print_written((out_md, out_json, out_html), out)


def _kind(kind: str | None) -> KindName | None:
    if kind is None:
        return None
    if kind in KINDS:
        return KINDS[kind].name
    raise ValueError(f"--kind {kind!r}: expected one of {', '.join(KINDS)}")


def _diff_tables(
    spec: SourceSpec, cmap: ColumnMap, align: str | None
) -> tuple[LoadedTable, LoadedTable | None, list[str], Literal["rows", "id", "order"]]:
    """One table (every file stacked), or two aligned tables when --align is given."""
    if align is None:
        loaded, _ = load(spec, cmap)
        return loaded, None, list(loaded.notes), "rows"
    if align not in ("id", "order"):
        raise ValueError(f"--align {align!r}: expected id or order")
    if len(spec.paths) != 2:
        raise ValueError(f"--align pairs two files; got {len(spec.paths)}")
    first, _ = load(SourceSpec(**{**vars(spec), "paths": spec.paths[:1]}), cmap)
    second, _ = load(SourceSpec(**{**vars(spec), "paths": spec.paths[1:]}), cmap)
    if align == "id" and cmap.id is None and not (_own_ids(first) and _own_ids(second)):
        raise ValueError("--align id needs --id COLUMN (or use --align order)")
    by: Literal["id", "order"] = "id" if align == "id" else "order"
    ta, tb, notes = pair_tables(first, second, by)
    return ta, tb, [*first.notes, *second.notes, *notes], by


def _own_ids(loaded: LoadedTable) -> bool:
    """Whether a table's ids come with its format (lm-eval's doc_id, inspect's sample id)
    rather than from --id."""
    files = loaded.coverage.get("files", [])
    return bool(files) and all(is_framework(f.get("format", "")) for f in files)
