"""The Typer app: its name, help, `--debug`, and one-line errors for every command."""

from __future__ import annotations

from typing import Annotated

import typer

from answer_audit.cli.errors import OneLineErrors, debug

app = typer.Typer(
    cls=OneLineErrors,
    name="answer-audit",
    help="Trustworthy answer extraction, rescoring, and parsing-sensitivity audits for LLM evals.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def main(
    debug_flag: Annotated[
        bool, typer.Option("--debug", help="Show full tracebacks on errors.")
    ] = False,
) -> None:
    """Trustworthy answer extraction, rescoring, and parsing-sensitivity audits for LLM evals."""
    debug["on"] = debug_flag
