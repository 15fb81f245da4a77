"""The exception the sources package raises (one, and one refinement of it): a message written
for the person at the CLI."""

from __future__ import annotations


class SourceError(Exception):
    """An input could not be read as asked.

    The message says what went wrong, where (file, line, key or column) and how to fix it, so the
    CLI can print it as is.
    """


class FormatMismatch(SourceError):
    """The file does not read as the format it was taken for (e.g. a JSONL that is not lm-eval
    samples); with `--format auto` the message then says what the detection saw."""


def first_line(exc: BaseException) -> str:
    """The first line of an exception's message (a library's long error, shortened for one
    stderr line), or its type's name when it has none."""
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
