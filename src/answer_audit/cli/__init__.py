"""The `answer-audit` command line: each command parses flags, makes one library call, renders."""

from __future__ import annotations

import json
import math
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text
from typer.core import TyperGroup

from answer_audit.analysis.audit import AuditResult, AuditSettings, audit
from answer_audit.cli import options as opt
from answer_audit.cli.options import split_list
from answer_audit.parsers import ChoicePreset, PresetError, PresetSet
from answer_audit.parsers.extract import extract
from answer_audit.report.html import render_audit_html
from answer_audit.report.markdown.audit import render_audit_markdown
from answer_audit.report.markdown.presets import presets_markdown
from answer_audit.report.outputs import atomic_write_text, check_output_paths
from answer_audit.report.terminal import inert
from answer_audit.schemes.apply import KINDS, Scheme, default_schemes, merge_schemes, parse_scheme
from answer_audit.schemes.parallel import resolve_workers
from answer_audit.sources import ColumnMap, LoadedTable, SourceError
from answer_audit.sources.demo import check_demo_folder, write_demo_runs
from answer_audit.sources.spec import RUN_CONDITIONS, SourceSpec, load_streamed
from answer_audit.table.lazy import InMemoryRows, StreamedRows, StreamedTable


def _click_class(name: str) -> type[Exception]:
    """click's exception class ``name``, from the click Typer runs on (its own copy since
    Typer 0.24, the click package before): found through the public `typer.BadParameter`."""
    return next(c for c in typer.BadParameter.__mro__ if c.__name__ == name)


_UsageError, _ClickException = _click_class("UsageError"), _click_class("ClickException")


class _OneLineErrors(TyperGroup):
    """Usage errors (unknown option, bad option value) as one stderr line and exit code 2,
    like every other bad input, instead of click's usage block."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            with _exit_cleanly_on_termination():
                code = super().main(args, prog_name, complete_var, False, **extra)
        except _ClickException as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":
                exc.show()  # type: ignore[attr-defined]  # the help text, not an error
            else:
                message = " ".join(exc.format_message().split())  # type: ignore[attr-defined]
                ctx = getattr(exc, "ctx", None) if isinstance(exc, _UsageError) else None
                hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
                print(inert(f"error: {message}{hint}"), file=sys.stderr)
            sys.exit(exc.exit_code)  # type: ignore[attr-defined]
        except typer.Abort:
            print("Aborted!", file=sys.stderr)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


@contextmanager
def _exit_cleanly_on_termination() -> Iterator[None]:
    """SIGTERM and SIGHUP end the command like Ctrl-C does: by an exception, so temporary
    copies (a WAL database is read from a private copy) are removed on the way out. Python's
    default for them ends the process at once and left those copies behind. A signal the
    process inherited as ignored (``nohup``, a supervisor) stays ignored, and the previous
    handlers are put back afterwards (the CLI may run inside another Python program)."""

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    previous = {}
    if threading.current_thread() is threading.main_thread():
        for name in ("SIGTERM", "SIGHUP"):
            number = getattr(signal, name, None)
            if number is not None and signal.getsignal(number) is signal.SIG_DFL:
                previous[number] = signal.signal(number, stop)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


app = typer.Typer(
    cls=_OneLineErrors,
    name="answer-audit",
    help="Trustworthy answer extraction, rescoring, and parsing-sensitivity audits for LLM evals.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
# No markup: messages and reports carry user text (paths, column names, model outputs) in which
# "[/]" or "[red]" is text, not a style; styles are given as Text styles.
out = Console(markup=False, highlight=False)
err = Console(stderr=True, markup=False, highlight=False)
_state = {"debug": False}

P = ParamSpec("P")
R = TypeVar("R")

# Errors that mean "the user's input is wrong": one line on stderr, exit code 2.
USER_ERRORS: tuple[type[Exception], ...] = (PresetError, SourceError, OSError, ValueError)


def user_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """Turn library errors into one clear stderr line and exit code 2 (traceback with --debug)."""

    @wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except USER_ERRORS as exc:
            if _state["debug"]:
                raise
            err.print(Text("error: ", style="bold red") + Text(inert(str(exc))), soft_wrap=True)
            raise typer.Exit(2) from None

    return wrapper


@app.callback()
def main(
    debug: Annotated[bool, typer.Option("--debug", help="Show full tracebacks on errors.")] = False,
) -> None:
    """Trustworthy answer extraction, rescoring, and parsing-sensitivity audits for LLM evals."""
    _state["debug"] = debug


@app.command("parsers")
@user_errors
def parsers_cmd(
    presets: opt.Presets = None,
    rules: Annotated[
        bool, typer.Option("--rules", help="List each preset's rules in order.")
    ] = False,
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print README's preset table (rules in order).")
    ] = False,
) -> None:
    """List the available parser presets (built-in and from --presets)."""
    preset_set = PresetSet.from_file(presets)
    if markdown:
        print(presets_markdown(preset_set), end="")
        return
    table = Table("preset", "family", "rules, in order" if rules else "first rule")
    for name, preset in sorted(preset_set.items()):
        steps = preset.describe()
        table.add_row(name, preset.family, Text("\n".join(steps) if rules else steps[0]))
    out.print(table)


_WHOLE_TEXT_MAX = 20_000  # explain shows a text whole up to this many characters
_LONG_TEXT_CONTEXT = 2_000


@app.command("explain")
@user_errors
def explain_cmd(
    text: Annotated[str, typer.Argument(help="The raw model output, or '-' to read stdin.")],
    parser: Annotated[str, typer.Option("--parser", "-p", help="Preset name.")] = "choice/v3",
    presets: opt.Presets = None,
    choices: opt.Choices = None,
    context: Annotated[
        int | None,
        typer.Option(
            min=0,
            help="Characters of context around the span (0 = whole text; default: the whole "
            f"text up to {_WHOLE_TEXT_MAX:,} characters, else {_LONG_TEXT_CONTEXT:,}).",
        ),
    ] = None,
) -> None:
    """Extract one answer and show the value, the rule that fired, and where it came from."""
    raw = sys.stdin.read() if text == "-" else text
    preset = PresetSet.from_file(presets)
    if choices is not None and not isinstance(preset.get(parser), ChoicePreset):
        raise ValueError(f"--choices applies to choice presets only, not {parser!r}")
    result = extract(raw, parser, choices=choices, presets=preset)
    value = repr(result.value)
    if len(value) > _WHOLE_TEXT_MAX:  # the span below shows where it is
        value = f"{value[:_LONG_TEXT_CONTEXT]}… ({len(str(result.value)):,} characters)"
    for label, shown in (("parser", parser), ("value", value), ("rule", result.rule),
                         ("span", str(result.span))):  # fmt: skip
        out.print(Text(f"{label:<8}", style="bold") + Text(inert(shown)))
    out.rule()
    if context is None:  # a long text is shown around its span: printing megabytes is slow
        context = 0 if len(raw) <= _WHOLE_TEXT_MAX else _LONG_TEXT_CONTEXT
    out.print(highlight_span(raw, result.span, context))


def highlight_span(raw: str, span: tuple[int, int] | None, context: int = 0) -> Text:
    """The raw text with the span highlighted, optionally cut to `context` characters around it."""
    start, end = span if span is not None else (0, 0)
    lo, hi = 0, len(raw)
    if context:
        lo, hi = max(0, start - context), min(len(raw), end + context)
    shown = Text("…" if lo else "")
    shown.append(inert(raw[lo:start]))
    shown.append(inert(raw[start:end]), style="bold black on yellow")
    shown.append(inert(raw[end:hi]))
    shown.append("…" if hi < len(raw) else "")
    return shown


def run() -> Any:  # pragma: no cover - console entry point
    return app()


# ------------------------------------------------------------------- audit


@app.command("audit")
@user_errors
def audit_cmd(
    sources: opt.Sources = None,
    runs_dir: Annotated[
        Path | None, typer.Option("--runs-dir", help="Folder of experiment runs (SQLite).")
    ] = None,
    metadata: Annotated[
        Path | None, typer.Option("--metadata", help="runs_metadata.json for --runs-dir.")
    ] = None,
    conditions: Annotated[
        str, typer.Option("--conditions", help="Run folders: condition names to keep.")
    ] = ",".join(RUN_CONDITIONS),
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
    null_values: opt.NullValues = None,
    kind: Annotated[
        str, typer.Option("--kind", help="freeform, choice or json: picks the default schemes.")
    ] = "freeform",
    scheme: Annotated[
        list[str] | None,
        typer.Option(
            "--scheme", help="NAME=PARSER[:NORMALIZER]; adds or replaces a scheme (repeatable)."
        ),
    ] = None,
    defaults: Annotated[
        bool,
        typer.Option(
            "--default-schemes/--no-default-schemes",
            help="Run the --kind's default schemes besides any --scheme.",
        ),
    ] = True,
    presets: opt.Presets = None,
    choices: opt.Choices = None,
    seed: opt.Seed = 0,
    bootstrap: Annotated[
        int,
        typer.Option(
            "--bootstrap", min=2, max=100_000, help="Bootstrap resamples for the Δpp intervals."
        ),
    ] = 1000,
    max_rows: Annotated[
        int,
        typer.Option("--max-rows", min=0, help="Per-group rows per scheme in the Markdown/HTML."),
    ] = 40,
    max_examples: Annotated[
        int, typer.Option("--max-examples", min=0, help="Flip examples to sample.")
    ] = 30,
    out_md: opt.OutMd = Path("tmp/answer_parsing_audit.md"),
    out_json: opt.OutJson = None,
    out_html: opt.OutHtml = None,
    workers: opt.Workers = 0,
    quiet: opt.Quiet = False,
) -> None:
    """Relabel saved outputs under alternative parsers and normalizers; report what flips."""
    spec = SourceSpec(
        paths=tuple(sources or ()), runs_dir=runs_dir, metadata=metadata,
        conditions=split_list(conditions), fmt=fmt, records_key=records, table=table,
        query=query, skip_bad_lines=skip_bad_lines, metric=metric, scorer=scorer,
        separator=separator,
    )  # fmt: skip
    cmap = ColumnMap(
        id=id_col, raw=raw, parsed=parsed, label=label, truth=truth, error=error,
        choices=choices_col, group_by=split_list(group_by), null_values=split_list(null_values),
    )  # fmt: skip
    if kind not in KINDS:
        raise ValueError(f"--kind {kind!r}: expected one of {', '.join(KINDS)}")
    if choices is not None and kind != "choice":
        raise ValueError(f"--choices applies to --kind choice audits, not --kind {kind}")
    preset_set = PresetSet.from_file(presets)
    user_schemes = [parse_scheme(s) for s in scheme or ()]
    schemes = merge_schemes(default_schemes(kind) if defaults else [], user_schemes)
    if not schemes:
        raise ValueError("no scheme to run: --no-default-schemes needs at least one --scheme")
    inputs_and_presets = [*spec.inputs, *([presets] if presets else [])]  # never over either
    check_output_paths((out_md, out_json, out_html), inputs_and_presets)
    # the audit reports each scheme of each slice of rows: a step count known only after
    # loading, so the bar shows activity and the message says where it is
    with progress_reporter(quiet, total=None) as step:
        step("loading")
        # Parquet files and run folders: the texts are read a slice at a time
        loaded, groups = load_streamed(spec, cmap)
        settings = AuditSettings(kind=kind, group_by=groups, seed=seed, n_boot=bootstrap,
                                 max_examples=max_examples, choices=choices)  # fmt: skip
        with _opened(loaded) as rows:
            schemes, skipped = runnable_schemes(schemes, user_schemes, rows.columns)
            result = audit(rows, schemes, settings, presets=preset_set,
                           source_coverage=loaded.coverage, progress=step,
                           workers=resolve_workers(workers))  # fmt: skip
    result.notes.extend([*loaded.notes, *skipped])
    write_audit_reports(result, out_md=out_md, out_json=out_json, out_html=out_html,
                        max_rows=max_rows, inputs=spec.inputs)  # fmt: skip
    if not quiet:
        print_audit_summary(result)
    for path in (out_md, out_json, out_html):
        if path is not None:
            out.print(Text(inert(f"wrote {path}")))


@contextmanager
def _opened(loaded: LoadedTable | StreamedTable) -> Iterator[InMemoryRows | StreamedRows]:
    """The rows to audit (already canonical: `audit` reads them as they are); a streamed
    table's inputs are let go of afterwards."""
    if isinstance(loaded, LoadedTable):
        yield InMemoryRows(loaded.frame)
        return
    try:
        yield loaded.rows
    finally:
        loaded.rows.close()


def runnable_schemes(
    schemes: list[Scheme], user_schemes: list[Scheme], columns: list[str]
) -> tuple[list[Scheme], list[str]]:
    """Drop default schemes that need a stored parse the table lacks (a user's own stay and
    fail loudly); say which were dropped."""
    if "parsed" in columns:
        return schemes, []
    asked = {s.name for s in user_schemes}
    dropped = [s for s in schemes if s.uses_stored_parse and s.name not in asked]
    notes = [f"scheme {s.name} skipped: it rescores the stored parse, and no --parsed column was given"
             for s in dropped]  # fmt: skip
    return [s for s in schemes if s not in dropped], notes


def write_audit_reports(result: AuditResult, *, out_md: Path | None, out_json: Path | None,
                        max_rows: int, inputs: tuple[Path, ...] = (),
                        out_html: Path | None = None) -> None:  # fmt: skip
    """Render and atomically write whichever reports were asked for."""
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    if out_md is not None:
        text = render_audit_markdown(result, max_rows=max_rows, generated_at=stamp)
        atomic_write_text(out_md, text, inputs)
    if out_json is not None:
        atomic_write_text(out_json, to_json({**result.to_dict(), "generated_at": stamp}), inputs)
    if out_html is not None:
        text = render_audit_html(result, max_rows=max_rows, generated_at=stamp)
        atomic_write_text(out_html, text, inputs)


def print_audit_summary(result: AuditResult) -> None:
    c = result.coverage
    out.print(Text.assemble((str(c["rows"]), "bold"), " rows, ", (str(c["scored"]), "bold"),
                            f" scored, {c['groups']} group(s)"))  # fmt: skip
    if result.consistency is not None and result.consistency["mismatches"]:
        err.print(
            Text("WARNING", style="bold red"),
            f": {result.consistency['mismatches']} of {result.consistency['n']} "
            "stored labels are not reproduced by the stored parse + v1 matcher",
            sep="",
        )
    t = Table("scheme", "flips", "stored err %", "err %", "Δpp", "sig. groups (Holm)")
    for s in result.schemes:
        t.add_row(Text(inert(s["name"])), str(s["flips"]), f"{s['stored_error_pct']:.2f}", f"{s['error_pct']:.2f}",
                  f"{s['delta_pp']:+.2f}", f"{s['significant_groups']}/{s['groups']}")  # fmt: skip
    out.print(t)


@contextmanager
def progress_reporter(quiet: bool, total: int | None) -> Iterator[Callable[[str], None]]:
    """A step callback that drives a Rich progress bar (silent when quiet or not a TTY;
    ``total`` None: an activity bar)."""
    if quiet or not err.is_terminal:
        yield lambda message: None
        return
    with Progress(SpinnerColumn(), TextColumn("{task.description}", markup=False), BarColumn(),
                  TimeElapsedColumn(), console=err, transient=True) as bar:  # fmt: skip
        task = bar.add_task("starting", total=total)
        started = False

        def step(message: str) -> None:
            nonlocal started
            if started:
                bar.advance(task)
            started = True
            bar.update(task, description=inert(message))

        yield step
        bar.update(task, completed=total)


def to_json(data: Any) -> str:
    """Stable, human-diffable JSON (sorted keys would reorder sections, so insertion order).

    Strict JSON: a non-finite float (e.g. a NaN group value) is written as the text "NaN",
    "Infinity" or "-Infinity", never as the bare tokens other JSON readers reject.
    """
    return (
        json.dumps(_finite(data), indent=2, ensure_ascii=False, default=str, allow_nan=False) + "\n"
    )


def _finite(data: Any) -> Any:
    if isinstance(data, float) and not math.isfinite(data):
        return "NaN" if math.isnan(data) else ("Infinity" if data > 0 else "-Infinity")
    if isinstance(data, dict):
        return {k: _finite(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_finite(v) for v in data]
    return data


# -------------------------------------------------------------------- demo


@app.command("demo")
@user_errors
def demo_cmd(
    out_dir: Annotated[
        Path, typer.Option("--out", help="Folder for the demo runs and reports.")
    ] = Path("tmp/demo"),
    seed: opt.Seed = 0,
    quiet: opt.Quiet = False,
) -> None:
    """Generate synthetic experiment runs, audit them, and write the reports."""
    reports = [out_dir / f"answer_parsing_audit.{ext}" for ext in ("md", "json", "html")]
    check_demo_folder(out_dir, reports)
    metadata = write_demo_runs(out_dir / "runs", seed)
    out.print(Text(inert(f"generated demo runs in {out_dir / 'runs'} ({metadata.name})")))
    audit_cmd(
        sources=None, runs_dir=out_dir / "runs", metadata=metadata,
        conditions=",".join(RUN_CONDITIONS), fmt="auto", records=None, table=None, query=None,
        skip_bad_lines=False, metric=None, scorer=None, id_col=None, raw="raw", parsed=None,
        label=None, truth="truth", choices_col=None, group_by=None, null_values=None, kind="freeform", scheme=None, defaults=True,
        presets=None, seed=seed, bootstrap=1000, max_rows=40, max_examples=30,
        out_md=reports[0], out_json=reports[1], out_html=reports[2], quiet=quiet,
    )  # fmt: skip


from answer_audit.cli import rescore as _cli_rescore  # noqa: E402,F401  (registers commands)
