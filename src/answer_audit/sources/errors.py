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
