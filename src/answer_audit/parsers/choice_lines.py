"""The lines of a choice output that hold a trigger word, found without reading every line.

The ``trigger-lines`` step (choice/v2 on) reads the lines that hold one of its triggers
(``answer``, ``回答``), last first. Asking each line in Python costs a megabyte of one-letter
lines a second or so; `lines_holding` asks the text instead: the last place each trigger occurs
before the lines already read names the next line that can hold one, so only lines that hold a
trigger are read (tests/parsers/test_choice_lines.py compares it with asking every line).
`split_lines` makes the line list itself; choice/v4's steps read the text without it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from itertools import islice
from operator import itemgetter

from answer_audit.parsers.choice_step import Lines


def lines_holding(lines: Lines, norm: str, triggers: tuple[str, ...]) -> Iterator[tuple[int, str]]:
    """``(offset, line) for offset, line in reversed(lines) if any(t in line for t in
    triggers)``, where ``lines`` are non-overlapping pieces ``norm[offset:offset + len(line)]``
    in text order.

    A line after the one that holds the last occurrence of every trigger (before the lines
    already read) holds none: any occurrence inside it would come later. So that line is the
    next one asked, and the lines after it are skipped."""
    if "" in triggers:  # in every line, and found everywhere: ask each line
        yield from reversed(lines)
        return
    if not triggers:
        return
    offsets: list[int] | None = None  # built when a trigger is first found
    limit, upper = len(norm), len(lines)  # lines[upper:] are read; the others end by limit
    # each trigger's last occurrence ending by limit (-1: none), searched again only once
    # limit passes it: each search reads on from where the one before stopped, so every
    # trigger is searched for across the text once in all (a trigger the text lacks, once)
    found = {t: norm.rfind(t) for t in triggers}
    while upper > 0:
        for t, at in found.items():
            if at >= 0 and at + len(t) > limit:
                found[t] = norm.rfind(t, 0, limit)
        last = max(found.values())
        if last < 0:
            return
        if offsets is None:
            offsets = list(map(itemgetter(0), lines))
        i = bisect_right(offsets, last, 0, upper) - 1
        # that line, and the lines before it while they hold one (a flood of answer lines
        # is read line by line, as before, without a search per line)
        while i >= 0:
            offset, line = lines[i]
            if not any(t in line for t in triggers):
                break
            yield offset, line
            i -= 1
        if i < 0:
            return
        upper, limit = i, lines[i][0]


# A stripped non-blank line: from a non-space to the last non-space before a line break
# (`str.splitlines`' breaks, each of which is whitespace, so `strip` would drop it).
LINE = re.compile(r"\S(?:[^\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]*\S)?")


def split_lines(norm: str) -> Lines:
    """The non-blank lines, stripped, each with the offset of its first non-space character
    (``splitlines`` then ``strip`` per line, as one regex scan)."""
    return [(m.start(), m.group()) for m in LINE.finditer(norm)]


def first_lines(norm: str, count: int) -> Lines:
    """``split_lines(norm)[:count]``, reading no further."""
    return [(m.start(), m.group()) for m in islice(LINE.finditer(norm), count)]
