"""The audit pipeline that `audit` and `demo` both run: load, audit, write, print.

A module of its own so that no command imports another.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from answer_audit.analysis.audit import AuditResult, AuditSettings, audit, runnable_schemes
from answer_audit.cli.comparison import comparison_hint, with_compared_columns
from answer_audit.cli.console import err, out, progress_reporter
from answer_audit.cli.engine import audit_on_ray, check_engine, check_ray_sources
from answer_audit.cli.options import ReportPaths
from answer_audit.parsers import PresetSet
from answer_audit.report.html import render_audit_html
from answer_audit.report.json import to_json
from answer_audit.report.markdown.audit import render_audit_markdown
from answer_audit.report.outputs import atomic_write_text, check_output_paths, generated_at
from answer_audit.report.terminal import print_audit_summary, print_notes, print_written
from answer_audit.schemes.apply import KINDS, default_schemes, merge_schemes, parse_scheme
from answer_audit.schemes.parallel import resolve_workers
from answer_audit.sources import ColumnMap, LoadedTable
from answer_audit.sources.spec import SourceSpec, load_streamed
from answer_audit.table.lazy import InMemoryRows, StreamedRows, StreamedTable


def run_audit(
    spec: SourceSpec,
    cmap: ColumnMap,
    *,
    kind: str,
    scheme: list[str] | None,
    defaults: bool,
    presets: Path | None,
    choices: str | None,
    seed: int,
    bootstrap: int,
    max_rows: int,
    max_examples: int,
    outputs: ReportPaths,
    workers: int,
    quiet: bool,
    compare: str | None = None,
    baseline: str | None = None,
    item: str | None = None,
    engine: str = "local",
    address: str | None = None,
) -> AuditResult:
    """Check the flags, load the sources, run the audit, write the reports asked for and print
    the summary; the result, for callers that want more. ``compare``, ``baseline`` and
    ``item`` ask for conclusions (`AuditSettings`); ``engine`` "ray" runs it on a Ray cluster
    (at ``address``) from Parquet sources (`answer_audit.cli.engine`)."""
    check_engine(engine, address)
    if kind not in KINDS:
        raise ValueError(f"--kind {kind!r}: expected one of {', '.join(KINDS)}")
    if choices is not None and KINDS[kind].default_choices is None:
        raise ValueError(f"--choices applies to --kind choice audits, not --kind {kind}")
    preset_set = PresetSet.from_file(presets)
    user_schemes = [parse_scheme(s) for s in scheme or ()]
    schemes = merge_schemes(default_schemes(kind) if defaults else [], user_schemes)
    if not schemes:
        raise ValueError("no scheme to run: --no-default-schemes needs at least one --scheme")
    inputs_and_presets = [*spec.inputs, *([presets] if presets else [])]  # never over either
    check_output_paths(outputs.all(), inputs_and_presets)
    if engine == "ray":
        check_ray_sources(spec, cmap)
        with progress_reporter(quiet, total=None) as step:
            settings = AuditSettings(kind=KINDS[kind].name, group_by=cmap.group_by, seed=seed,
                                     n_boot=bootstrap, max_examples=max_examples, choices=choices,
                                     compare=compare, baseline=baseline, item=item)  # fmt: skip
            result = audit_on_ray(spec, cmap, schemes, settings, presets=preset_set, step=step,
                                  user_schemes={s.name for s in user_schemes}, address=address)  # fmt: skip
        return _finish_audit(result, outputs, max_rows, spec, quiet, engine)
    # the audit reports each scheme of each slice of rows: a step count known only after
    # loading, so the bar shows activity and the message says where it is
    with progress_reporter(quiet, total=None) as step:
        step("loading")
        # Parquet, CSV/TSV, JSON Lines and run folders: the texts are read a slice at a time
        loading, own_groups = with_compared_columns(spec, cmap, compare, item)
        loaded, groups = load_streamed(spec, loading)
        settings = AuditSettings(kind=KINDS[kind].name, group_by=own_groups or groups, seed=seed,
                                 n_boot=bootstrap, max_examples=max_examples, choices=choices,
                                 compare=compare, baseline=baseline, item=item)  # fmt: skip
        with opened_rows(loaded) as rows:
            # the library's rule, applied to the defaults only: a --scheme of the user's stays
            schemes, skipped = runnable_schemes(schemes, rows.columns,
                                                asked={s.name for s in user_schemes})  # fmt: skip
            result = audit(rows, schemes, settings, presets=preset_set,
                           source_coverage=loaded.coverage, progress=step,
                           workers=resolve_workers(workers))  # fmt: skip
            hint = comparison_hint(spec, loaded.coverage, rows.small)
    result = result.with_notes(*loaded.notes, *skipped).with_conclusions_hint(hint)
    return _finish_audit(result, outputs, max_rows, spec, quiet, engine)


def _finish_audit(result: AuditResult, outputs: ReportPaths, max_rows: int, spec: SourceSpec,
                  quiet: bool, engine: str) -> AuditResult:  # fmt: skip
    """Write the reports asked for, print the summary and the notes; the result."""
    write_audit_reports(result, out_md=outputs.md, out_json=outputs.json, out_html=outputs.html,
                        max_rows=max_rows, inputs=spec.inputs, engine=engine)  # fmt: skip
    if not quiet:
        print_audit_summary(result, out, err)
    print_notes(result.notes, err)  # warnings reach the terminal, --quiet or not
    print_written(outputs.all(), out)
    return result


@contextmanager
def opened_rows(loaded: LoadedTable | StreamedTable) -> Iterator[InMemoryRows | StreamedRows]:
    """The canonical rows of what was loaded (for `audit`, and their short columns for the
    comparison hint); a streamed table's inputs are let go of (decompressed copies removed)
    afterwards."""
    if isinstance(loaded, LoadedTable):
        yield InMemoryRows(loaded.frame)
        return
    try:
        yield loaded.rows
    finally:
        loaded.rows.close()


def write_audit_reports(result: AuditResult, *, out_md: Path | None, out_json: Path | None,
                        max_rows: int, inputs: tuple[Path, ...] = (),
                        out_html: Path | None = None, engine: str = "local") -> None:  # fmt: skip
    """Render and atomically write whichever reports were asked for (the JSON names the
    ``engine`` that ran the audit next to its time stamp)."""
    stamp = generated_at()
    if out_md is not None:
        text = render_audit_markdown(result, max_rows=max_rows, generated_at=stamp)
        atomic_write_text(out_md, text, inputs)
    if out_json is not None:
        atomic_write_text(
            out_json, to_json({**result.to_dict(), "generated_at": stamp, "engine": engine}), inputs
        )
    if out_html is not None:
        text = render_audit_html(result, max_rows=max_rows, generated_at=stamp)
        atomic_write_text(out_html, text, inputs)
