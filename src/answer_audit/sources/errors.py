"""The one exception the sources package raises: a message written for the person at the CLI."""

from __future__ import annotations


class SourceError(Exception):
    """An input could not be read as asked.

    The message says what went wrong, where (file, line, key or column) and how to fix it, so the
    CLI can print it as is.
    """
