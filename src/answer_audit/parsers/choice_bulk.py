"""choice/v4's statements in bulk: bare lines read by segment, long cycles found by slices.

choice/v4 reads every line of a text of any size. A megabyte of one-letter lines is half a
million bare statements: asked line by line and kept as objects, a second. Instead the text is
cut at each "\\n" into segments, each distinct segment is read once (the same line-by-line
reading, at its first place in the text) and its statements are repeated wherever it occurs,
as starts and tokens (`Found`). A segment's reading depends on nothing before it but the
"\\n" (an example cue is searched back to the line's start at most), when the cue pattern
looks back no further than one character (no lookbehind); the first segment with a line is
read in place (a lead line, and cues at the text's very start).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from itertools import accumulate, compress
from operator import add
from typing import Final, overload

from answer_audit.parsers.choice_lines import LINE
from answer_audit.parsers.choice_step import Lines

# A statement: where its token starts and ends, the token, its rule and (a pattern's) its whole
# match, read (only if a cycle makes it matter) for whether its line says more than a label and
# the choice (`choice_statements._says_more`). A plain tuple: a long repetitive output makes a
# hundred thousand, and the garbage collector stops tracking a plain tuple of numbers and
# strings (a NamedTuple it walks on every full collection: a third of the time such an output
# took).
Statement = tuple[int, int, str, str, tuple[int, int] | None]
START: Final = 0
END: Final = 1
TOKEN: Final = 2
RULE: Final = 3


# The line breaks of `str.splitlines` (and `LINE`) but "\n".
_OTHER_BREAK = re.compile(r"[\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def bare_in_segments(
    norm: str, base: int, bare_line: re.Pattern[str], read: Callable[[Lines], list[tuple[int, str]]]
) -> tuple[list[int], list[str]]:
    """The bare-line statements of ``norm[base:]`` (``norm[base - 1]`` is "\\n"): their starts
    and tokens. ``bare_line`` fullmatches a line that may be one; ``read`` gives the statements
    (start, token) of some lines (start, line) at their place in ``norm``."""
    segments = norm[base:].split("\n")
    distinct = dict.fromkeys(segments)
    # no bare line anywhere (a segment without another line break is one line, stripped)
    if not any(map(bare_line.fullmatch, map(str.strip, distinct))) and (
        _OTHER_BREAK.search(norm, base) is None
        or all(len(m.group()) == len(k.strip()) for k in distinct for m in LINE.finditer(k))
    ):
        return [], []
    # where each segment starts: base + the lengths (and "\n") of those before it
    offsets = list(accumulate(map((1).__add__, map(len, segments[:-1])), initial=base))
    first_at = dict(zip(reversed(segments), range(len(segments) - 1, -1, -1), strict=True))
    said: dict[str, tuple[tuple[int, str], ...]] = {}
    for segment, i in first_at.items():
        offset = offsets[i]
        lines = [(offset + m.start(), m.group()) for m in LINE.finditer(segment)]
        said[segment] = tuple((start - offset, token) for start, token in read(lines))
    if all(len(v) == 1 for v in said.values()):  # one in every segment: all in C
        rels = list(map({k: v[0][0] for k, v in said.items()}.__getitem__, segments))
        token_of = {k: v[0][1] for k, v in said.items()}
        return list(map(add, offsets, rels)), list(map(token_of.__getitem__, segments))
    if all(len(v) <= 1 for v in said.values()):  # at most one per segment: all in C
        rel_of = {k: v[0][0] if v else -1 for k, v in said.items()}
        token_of = {k: v[0][1] if v else "" for k, v in said.items()}
        rels = list(map(rel_of.__getitem__, segments))
        has = list(map((-1).__ne__, rels))
        picked = list(map(add, compress(offsets, has), compress(rels, has)))
        return picked, list(compress(map(token_of.__getitem__, segments), has))
    starts: list[int] = []
    tokens: list[str] = []
    for offset, statements in zip(offsets, map(said.__getitem__, segments), strict=True):
        for rel, token in statements:
            starts.append(offset + rel)
            tokens.append(token)
    return starts, tokens


class Found(Sequence[Statement]):
    """Statements in text order as starts and tokens: a bare line's is made when asked for,
    the others (``extra``, by start) are kept whole."""

    __slots__ = ("extra", "starts", "tokens")

    def __init__(self, starts: list[int], tokens: list[str], extra: dict[int, Statement]):
        self.starts, self.tokens, self.extra = starts, tokens, extra

    def __len__(self) -> int:
        return len(self.starts)

    @overload
    def __getitem__(self, i: int) -> Statement: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Statement]: ...
    def __getitem__(self, i: int | slice) -> Statement | Sequence[Statement]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        start = self.starts[i]
        kept = self.extra.get(start)
        return kept if kept is not None else (start, start + 1, self.tokens[i], "bare-line", None)

    def said(self) -> list[Statement]:
        """The statements that are not bare lines, in text order."""
        if len(self.extra) == len(self.starts):  # (its starts are among `starts`)
            return list(map(self.extra.__getitem__, self.starts))
        return [self.extra[k] for k in sorted(self.extra)]


def cycle_start_in_text(text: str, least: int) -> int | None:
    """`choice_statements._cycle_start` of one-character tokens, as a string (``least``: the
    fewest statements a cycle takes): each repeat is found by comparing slices (a binary search
    for where a period stops repeating) instead of token by token."""
    best: int | None = None
    n = len(text)
    same = n - len(text.rstrip(text[-1]))  # the final token's trailing run
    for period in range(2, 9):
        if n < max(2 * period, least):
            break
        top = min(n - period - 1, n - same - 1) + 1  # text[j] == text[j + period] for j >= top
        lo = 0  # the least start whose whole tail repeats: text[lo:top] == text[lo + p:top + p]
        hi = max(top, 0)
        while lo < hi:
            mid = (lo + hi) // 2
            if text[mid:top] == text[mid + period : top + period]:
                hi = mid
            else:
                lo = mid + 1
        start = lo
        if n - start >= max(2 * period, least) and n - start > same:
            best = start if best is None else min(best, start)
    return best
