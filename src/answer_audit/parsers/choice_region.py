"""The part of a multiple-choice output that can answer (``choice/v5``): what a reader sees.

- `drop_invisible`: format characters a reader never sees (zero-width spaces and joiners, word
  joiners, the BOM, soft hyphens, bidi marks, Hangul fillers, variation selectors) are removed
  before anything is read (``Answer​: A`` is ``Answer: A``), with a map back to the raw text.
- `turn_start`: where the output starts an invented next turn. A user-side role or a chat
  template's turn token ends the answer wherever it appears, also at the very start (then the
  output has no answer of its own); an answering-side role (``ASSISTANT:``, ``### Response:``)
  only after the output has begun, since at its start it echoes the prompt's answer prefix.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

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
    turns: Sequence[re.Pattern[str]],
    replies: Sequence[re.Pattern[str]],
) -> int | None:
    """Offset where an invented next turn starts in ``norm`` (lowercased, NFKC), or None.

    ``turns`` end the output anywhere; ``replies`` only after its first non-space character.
    """
    first = len(norm) - len(norm.lstrip())
    best: int | None = None
    for pattern in turns:
        m = pattern.search(norm)
        if m is not None and (best is None or m.start() < best):
            best = m.start()
    for pattern in replies:
        m = pattern.search(norm, first + 1)
        if m is not None and (best is None or m.start() < best):
            best = m.start()
    return best
