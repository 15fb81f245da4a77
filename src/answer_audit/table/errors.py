"""The exception the sources package raises (one, and refinements of it): a message written
for the person at the CLI."""

from __future__ import annotations


class SourceError(Exception):
    """An input could not be read as asked.

    The message says what went wrong, where (file, line, key or column) and how to fix it, so the
    CLI can print it as is.
    """


class MissingColumn(SourceError):
    """A column the column map names is not in the input. ``column`` is the name looked for and
    ``role`` the map's field that named it (``truth``, ``group_by``...; None for a column a
    caller asked for by name), so the command line can name the flag that sets it."""

    def __init__(self, message: str, column: str | None = None, role: str | None = None) -> None:
        super().__init__(message)
        self.column = column
        self.role = role

    def __reduce__(self) -> tuple[type[MissingColumn], tuple[str, str | None, str | None]]:
        # the default keeps only the message: a worker's error would lose the column and role
        return (type(self), (str(self), self.column, self.role))


class FormatMismatch(SourceError):
    """The file does not read as the format it was taken for (e.g. a JSONL that is not lm-eval
    samples); with `--format auto` the message then says what the detection saw."""


def first_line(exc: BaseException) -> str:
    """The first line of an exception's message (a library's long error, shortened for one
    stderr line), or its type's name when it has none."""
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
