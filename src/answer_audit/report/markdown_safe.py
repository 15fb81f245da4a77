"""Making untrusted model text safe inside Markdown tables and code fences."""

from __future__ import annotations

import re

# Every character str.splitlines() breaks on, so a cell is always one physical line.
_NEWLINES = re.compile("\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_BACKTICK_RUN = re.compile(r"`+")


def cell(value: object, trusted: bool = False) -> str:
    """One Markdown table cell: ``|`` escaped and newlines as ``<br>``.

    Untrusted text (the default) also gets backslashes doubled and HTML brackets neutralized;
    ``trusted`` text of our own keeps them, so its code spans read as written.
    """
    text = "" if value is None else str(value)
    if not trusted:
        text = text.replace("\\", "\\\\")
        text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _NEWLINES.sub("<br>", text.replace("|", "\\|"))


def fence(text: str, info: str = "text") -> str:
    """``text`` in a code fence longer than any backtick run it contains."""
    longest = max((len(m.group()) for m in _BACKTICK_RUN.finditer(text)), default=0)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}{info}\n{text}\n{ticks}"


def table(header: list[str], rows: list[list[object]], trusted: bool = False) -> str:
    """A Markdown table with every cell escaped (see `cell`)."""
    lines = ["| " + " | ".join(cell(h, trusted) for h in header) + " |"]
    lines.append("|" + "|".join("---" for _ in header) + "|")
    lines.extend("| " + " | ".join(cell(v, trusted) for v in row) + " |" for row in rows)
    return "\n".join(lines)
