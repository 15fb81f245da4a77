"""Making untrusted model text safe inside Markdown tables and code fences."""

from __future__ import annotations

import re

# Every character str.splitlines() breaks on, so a cell is always one physical line.
_NEWLINES = re.compile("\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_BACKTICK_RUN = re.compile(r"`+")
# Inline Markdown that would change what untrusted text shows or load something: links and
# images (`[`, `]`), code spans (a backtick), emphasis and strikethrough (`*`, `~`, and `_`
# where it can open or close emphasis; `run_t0_1` stays readable).
_INLINE = re.compile(r"[\[\]`*~]|(?<![^\W_])_|_(?![^\W_])")


class OwnMarkdown(str):
    """Markdown this program wrote (a rule's description, with its patterns in code spans): a
    table cell treats it as ``trusted``, whatever the rest of the table is."""


def cell(value: object, trusted: bool = False) -> str:
    """One Markdown table cell: ``|`` escaped and newlines as ``<br>``.

    Untrusted text (the default) also gets backslashes doubled, HTML brackets neutralized and
    inline Markdown escaped, so it renders as written: ``![x](http://host/t.png)`` shows those
    characters instead of loading an image. ``trusted`` text of our own (or an `OwnMarkdown`
    value) keeps its code spans and backslashes.
    """
    text = "" if value is None else str(value)
    if not trusted and not isinstance(value, OwnMarkdown):
        text = text.replace("\\", "\\\\")
        text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        text = _INLINE.sub(lambda m: "\\" + m.group(), text)
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
