"""The two consoles every command prints to, and the progress bar on stderr."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from answer_audit.report.terminal import inert

# No markup: messages and reports carry user text (paths, column names, model outputs) in which
# "[/]" or "[red]" is text, not a style; styles are given as Text styles.
out = Console(markup=False, highlight=False)
err = Console(stderr=True, markup=False, highlight=False)


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
