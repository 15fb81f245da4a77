"""How the command line fails: one stderr line and exit code 2 for bad input, never a traceback.

`OneLineErrors` turns click's usage errors into one line; `user_errors` does the same for the
library's errors (`--debug` shows the traceback instead), naming the flag of a missing column; SIGTERM and SIGHUP end a command the
way Ctrl-C does, so temporary copies are removed on the way out.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import wraps
from typing import Any, ParamSpec, TypeVar

import typer
from rich.text import Text
from typer.core import TyperGroup

from answer_audit.cli.console import err
from answer_audit.parsers import PresetError
from answer_audit.report.terminal import inert
from answer_audit.sources import SourceError
from answer_audit.table.errors import MissingColumn


def _click_class(name: str) -> type[Exception]:
    """click's exception class ``name``, from the click Typer runs on (its own copy since
    Typer 0.24, the click package before): found through the public `typer.BadParameter`."""
    return next(c for c in typer.BadParameter.__mro__ if c.__name__ == name)


_UsageError, _ClickException = _click_class("UsageError"), _click_class("ClickException")


class OneLineErrors(TyperGroup):
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


P = ParamSpec("P")
R = TypeVar("R")

# Errors that mean "the user's input is wrong": one line on stderr, exit code 2.
USER_ERRORS: tuple[type[Exception], ...] = (PresetError, SourceError, OSError, ValueError)
# Set by the app's callback from --debug: re-raise instead of the one-line message.
debug = {"on": False}


# The flag that names the column of each role of a column map (`ColumnMap` fields).
COLUMN_FLAGS = {"id": "--id", "raw": "--raw", "parsed": "--parsed", "label": "--label",
                "truth": "--truth", "error": "--error", "choices": "--choices-col",
                "group_by": "--group-by"}  # fmt: skip


def user_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """Turn library errors into one clear stderr line and exit code 2 (traceback with --debug);
    a missing column's line starts with the flag that named it (`column_flag`)."""

    @wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except USER_ERRORS as exc:
            if debug["on"]:
                raise
            message = str(exc)
            flag = column_flag(exc, kwargs) if isinstance(exc, MissingColumn) else None
            if flag is not None:
                message = f"{flag}: {message}"
            err.print(Text("error: ", style="bold red") + Text(inert(message)), soft_wrap=True)
            raise typer.Exit(2) from None

    return wrapper


def column_flag(exc: MissingColumn, options: dict[str, Any]) -> str | None:
    """The flag that named the missing column: its role's (`COLUMN_FLAGS`), except that the
    loaders read the --compare and --item columns as group columns (``options``: the command's
    parameters by name); None for a column no flag names."""
    if exc.role == "group_by":
        for name in ("compare", "item"):
            if exc.column is not None and options.get(name) == exc.column:
                given = str(options.get("group_by") or "").split(",")
                if exc.column not in (g.strip() for g in given):
                    return f"--{name}"
    return COLUMN_FLAGS.get(exc.role or "")
