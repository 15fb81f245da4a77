"""The part of a multiple-choice output that can answer (``choice/v5``): what a reader sees.

- `drop_invisible`: format characters a reader never sees (zero-width spaces and joiners, word
  joiners, the BOM, soft hyphens, bidi marks, Hangul fillers, variation selectors) are removed
  before anything is read (``Answer​: A`` is ``Answer: A``), with a map back to the raw text.
- `ends_only`: a degenerate long output is read at its two ends (`masked` blanks what a
  preset's masks match, keeping offsets).
- `turn_start`: where the output starts an invented next turn. A user-side role or a chat
  template's turn token ends the answer wherever it appears, also at the very start (then the
  output has no answer of its own); an answering-side role (``ASSISTANT:``, ``### Response:``)
  only after the output has begun, since at its start it echoes the prompt's answer prefix.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from answer_audit.text.prefilters import may_match, original

# Invisible format characters (Unicode Cf and the fillers that render as nothing).
INVISIBLE = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0"
)
_INVISIBLE = re.compile(f"[{INVISIBLE}]+")


def drop_invisible(text: str) -> tuple[str, list[int] | None]:
    """``text`` without invisible characters, and for each kept character its offset in
    ``text`` (None when nothing was dropped: offsets are the same).

    >>> drop_invisible("An\\u200bswer")
    ('Answer', [0, 1, 3, 4, 5, 6])
    """
    if text.isascii() or _INVISIBLE.search(text) is None:
        return text, None
    kept: list[int] = []
    pieces: list[str] = []
    last = 0
    for m in _INVISIBLE.finditer(text):
        kept.extend(range(last, m.start()))
        pieces.append(text[last : m.start()])
        last = m.end()
    kept.extend(range(last, len(text)))
    pieces.append(text[last:])
    return "".join(pieces), kept


def raw_span(kept: list[int] | None, start: int, end: int) -> tuple[int, int]:
    """The raw span of ``[start:end]`` of the text `drop_invisible` returned (end > start)."""
    if kept is None:
        return start, end
    return kept[start], kept[end - 1] + 1


def turn_start(
    norm: str,
    turns: Sequence[tuple[re.Pattern[str], frozenset[str] | None]],
    replies: Sequence[tuple[re.Pattern[str], frozenset[str] | None]],
) -> int | None:
    """Offset where an invented next turn starts in ``norm`` (lowercased, NFKC), or None.

    ``turns`` end the output anywhere; ``replies`` only after its first non-space character.
    Each comes with the strings one of which its every match holds (None: unknown); the
    patterns are searched in ``"\n" + norm``, so a line start is a newline for every line.
    """
    text = "\n" + norm
    first = len(norm) - len(norm.lstrip()) + 1  # in `text`
    best: int | None = None
    for group, start in ((turns, 0), (replies, first + 1)):
        for pattern, needs in group:
            if not may_match(needs, norm):
                continue
            m = pattern.search(text, start)
            if m is not None:
                # a newline-led match starts its line (in `norm`, the character after it)
                cut = m.start() if m.group().startswith("\n") else m.start() - 1
                best = cut if best is None else min(best, cut)
    return best


# choice/v5 reads a long answer region at its two ends only (a raw output longer than 256K
# characters is cut to its first and last 64K before normalization; an answer region longer than
# 64K to its first and last 16K); the middle is blanked, so offsets stay. Outputs that long are
# degenerate loops (a letter per line, an answer line repeated, a prompt echoed) whose
# repetition shows at either end, and reading every one of a million repeated lines costs seconds.
RAW_LIMIT, RAW_END = 1 << 18, 1 << 16
READ_LIMIT, READ_END = 1 << 16, 1 << 14


def ends_only(text: str, limit: int, end: int) -> str:
    """``text`` with the middle of its non-blank part blanked when that part is longer than
    ``limit``: about ``end`` characters are kept at each end, cut at a line break when one is
    near (else at a space, else anywhere), so that no kept line is cut short."""
    first = len(text) - len(text.lstrip())
    if len(text) - first <= limit:
        return text
    head = _break_after(text, first + end)
    tail = _break_before(text, len(text) - end)
    if tail <= head:
        return text
    return text[:head] + " " * (tail - head) + text[tail:]


def _break_after(text: str, at: int) -> int:
    for sep in ("\n", " "):
        found = text.find(sep, at, at + 1024)
        if found >= 0:
            return found + 1
    return at


def _break_before(text: str, at: int) -> int:
    for sep in ("\n", " "):
        found = text.rfind(sep, at - 1024, at)
        if found >= 0:
            return found
    return at


def _blank(m: re.Match[str]) -> str:
    return " " * len(m.group())


def _blank_group(m: re.Match[str]) -> str:
    whole, (start, end) = m.group(), m.span(1)
    at = start - m.start()
    return whole[:at] + " " * (end - start) + whole[at + end - start :]


def masked(mask: re.Pattern[str], norm: str) -> str:
    """``norm`` with ``mask``'s matches blanked (choice/v5): only group 1 when the mask has
    one, and a mask that ends the text (``\\Z``) is searched on its last line only."""
    blank = _blank_group if mask.groups else _blank
    if original(mask).pattern.endswith(r"\Z"):
        last = norm.rfind("\n") + 1
        return norm[:last] + mask.sub(blank, norm[last:])
    return mask.sub(blank, norm)
