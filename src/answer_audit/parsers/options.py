"""Reading a row's answer options (for option-text matching) from the forms tables hold them in."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

Options = tuple[str, ...] | dict[str, str]
# "a 選択肢…", "A. text", "(B) text", "c) text", "d：text" — one option per line.
_OPTION_LINE = re.compile(r"\s*[(\[]?([A-Ja-j])(?:[)\].:：]|\s)\s*(.+)")


def parse_options(value: object) -> Options | None:
    """The options of one row: a list (in choice order) or a mapping letter -> text.

    Accepts a list or mapping, JSON text of one, or a block with one lettered option per line.
    Returns None when nothing option-like is found.

    >>> parse_options("a Paris\\nb Rome")
    {'a': 'Paris', 'b': 'Rome'}
    >>> parse_options('["Paris", "Rome"]')
    ('Paris', 'Rome')
    """
    if value is None:
        return None
    if isinstance(value, Mapping):
        return {str(k).strip().lower(): str(v) for k, v in value.items()} or None
    if isinstance(value, Sequence) and not isinstance(value, str):
        return tuple(str(v) for v in value) or None
    text = str(value).strip()
    if text[:1] in "[{":
        try:
            decoded = json.loads(text)
        except ValueError:
            decoded = None
        if isinstance(decoded, list | dict):
            return parse_options(decoded)
    pairs = [m for m in map(_OPTION_LINE.fullmatch, text.splitlines()) if m]
    options = {m.group(1).lower(): m.group(2).strip() for m in pairs}
    return options if len(options) >= 2 else None
