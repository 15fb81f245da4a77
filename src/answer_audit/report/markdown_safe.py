"""Making untrusted model text safe inside Markdown tables and code fences."""

from __future__ import annotations

import re

_NEWLINES = re.compile(r"\r\n|\r|\n")
_BACKTICK_RUN = re.compile(r"`+")


def cell(value: object) -> str:
    """One Markdown table cell: ``|`` escaped, newlines as ``<br>``, HTML brackets neutralized."""
    text = "" if value is None else str(value)
    text = text.replace("\\", "\\\\").replace("|", "\\|")
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _NEWLINES.sub("<br>", text)


def fence(text: str, info: str = "text") -> str:
    """``text`` in a code fence longer than any backtick run it contains."""
    longest = max((len(m.group()) for m in _BACKTICK_RUN.finditer(text)), default=0)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}{info}\n{text}\n{ticks}"


def table(header: list[str], rows: list[list[object]]) -> str:
    """A Markdown table with every cell escaped."""
    lines = ["| " + " | ".join(cell(h) for h in header) + " |"]
    lines.append("|" + "|".join("---" for _ in header) + "|")
    lines.extend("| " + " | ".join(cell(v) for v in row) + " |" for row in rows)
    return "\n".join(lines)
