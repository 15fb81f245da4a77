"""The `answer-audit` command line: each command parses flags, makes one library call, renders."""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from answer_audit.extract import extract
from answer_audit.parsers import ChoicePreset, PresetError, PresetSet

app = typer.Typer(
    name="answer-audit",
    help="Trustworthy answer extraction, rescoring, and parsing-sensitivity audits for LLM evals.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console()
err = Console(stderr=True)
_state = {"debug": False}

P = ParamSpec("P")
R = TypeVar("R")

# Errors that mean "the user's input is wrong": one line on stderr, exit code 2.
USER_ERRORS: tuple[type[Exception], ...] = (PresetError, FileNotFoundError, ValueError)


def user_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """Turn library errors into one clear stderr line and exit code 2 (traceback with --debug)."""

    @wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except USER_ERRORS as exc:
            if _state["debug"]:
                raise
            err.print(f"[bold red]error:[/] {exc}", highlight=False, soft_wrap=True)
            raise typer.Exit(2) from None

    return wrapper


@app.callback()
def main(
    debug: Annotated[bool, typer.Option("--debug", help="Show full tracebacks on errors.")] = False,
) -> None:
    """Trustworthy answer extraction, rescoring, and parsing-sensitivity audits for LLM evals."""
    _state["debug"] = debug


PresetsOpt = Annotated[
    Path | None, typer.Option("--presets", help="TOML file with user presets.", dir_okay=False)
]


@app.command("parsers")
@user_errors
def parsers_cmd(
    presets: PresetsOpt = None,
    rules: bool = typer.Option(False, "--rules", help="Also list each preset's rules in order."),
) -> None:
    """List the available parser presets (built-in and from --presets)."""
    table = Table("preset", "family", "rules, in order" if rules else "first rule")
    for name, preset in sorted(PresetSet.from_file(presets).items()):
        steps = preset.describe()
        table.add_row(name, preset.family, "\n".join(steps) if rules else steps[0])
    out.print(table)


@app.command("explain")
@user_errors
def explain_cmd(
    text: Annotated[str, typer.Argument(help="The raw model output, or '-' to read stdin.")],
    parser: Annotated[str, typer.Option("--parser", "-p", help="Preset name.")] = "choice/v3",
    presets: PresetsOpt = None,
    choices: Annotated[
        str | None, typer.Option(help="Choice set for choice presets, e.g. abcde.")
    ] = None,
    context: Annotated[
        int, typer.Option(help="Characters of context around the span (0 = whole text).")
    ] = 0,
) -> None:
    """Extract one answer and show the value, the rule that fired, and where it came from."""
    raw = sys.stdin.read() if text == "-" else text
    preset = PresetSet.from_file(presets)
    if choices is not None and not isinstance(preset.get(parser), ChoicePreset):
        raise ValueError(f"--choices applies to choice presets only, not {parser!r}")
    result = extract(raw, parser, choices=choices, presets=preset)
    out.print(f"[bold]parser[/]  {parser}")
    out.print(f"[bold]value[/]   {result.value!r}", highlight=False)
    out.print(f"[bold]rule[/]    {result.rule}")
    out.print(f"[bold]span[/]    {result.span}")
    out.rule()
    out.print(highlight_span(raw, result.span, context))


def highlight_span(raw: str, span: tuple[int, int] | None, context: int = 0) -> Text:
    """The raw text with the span highlighted, optionally cut to `context` characters around it."""
    start, end = span if span is not None else (0, 0)
    lo, hi = 0, len(raw)
    if context and span is not None:
        lo, hi = max(0, start - context), min(len(raw), end + context)
    shown = Text("…" if lo else "")
    shown.append(raw[lo:start])
    shown.append(raw[start:end], style="bold black on yellow")
    shown.append(raw[end:hi])
    shown.append("…" if hi < len(raw) else "")
    return shown


def run() -> Any:  # pragma: no cover - console entry point
    return app()
