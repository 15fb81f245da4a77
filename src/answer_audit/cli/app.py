"""The Typer app: its name, help, `--debug`, and one-line errors for every command."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from typer.core import TyperCommand

from answer_audit.cli.errors import OneLineErrors, debug


def _without_flag_types(params: list[Any]) -> list[Any]:
    """On/off switches need no type in the help (Typer shows ``<bool>`` beside them).
    Typed loosely: Typer runs on its own copy of click, whose classes are private."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    return params


class Command(TyperCommand):
    """Every command: switches shown without a type."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _without_flag_types(super().get_params(ctx))


class Group(OneLineErrors):
    """The app: one-line errors, and switches shown without a type."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _without_flag_types(super().get_params(ctx))


app = typer.Typer(
    cls=Group,
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
