"""Shapes of output that number/v4 reads apart (see `answer_audit.parsers.number_statement`).

- An answer prefix inside a code block that was run (``ans = price * (1 - discount)``, then an
  ``output`` fence or a sentence): code assigns, it states no answer; the text after the block
  answers.
- An answer in parts (``Válasz: a) 36  b) 54``): one value per part, no single answer.
- A text that stops right after a copula (``Hence the minimum value of $n$ is``): cut off.
"""

from __future__ import annotations

import re

_FENCE = "```"
_FENCE_INFO = re.compile(r"```[ \t]*([\w+-]*)")
_DIGIT = re.compile(r"\d")


def code_block_end(text: str, start: int, end: int, position: int) -> int | None:
    """Where the code block holding ``position`` ends (after its closing fence), when it was
    run: text with a digit follows it in ``text[start:end]``. None when ``position`` is not in
    a closed code block (an ``output`` block is not code), or nothing follows it."""
    if text.count(_FENCE, start, position) % 2 == 0:
        return None
    opening = text.rfind(_FENCE, start, position)
    info = _FENCE_INFO.match(text, opening)
    if info is not None and info.group(1).lower() in ("output", "text", "stdout", "result"):
        return None
    closing = text.find(_FENCE, position, end)
    if closing < 0:
        return None
    after = closing + len(_FENCE)
    return after if _DIGIT.search(text, after, end) else None


# A part label at the statement's start (`a)`, `(b)`, `(ii)`), and another one after a number
_PART = re.compile(r"[ \t*_]*(?:\((?:[a-h]|i{1,3}|iv)\)|[a-h]\))[ \t*_]*(?=[-+−$€£]?\d)")
_NEXT_PART = re.compile(r"\d[^\n]{0,40}?[\s,;][ \t*_]*(?:\((?:[a-h]|i{1,3}|iv)\)|[a-h]\))")
_PART_REACH = 200


def answer_in_parts(text: str, start: int, end: int) -> bool:
    """The statement at ``start`` opens with a part label (``a) 36``) and another part's
    label follows its number (``b) 54``, on the line or the next)."""
    if _PART.match(text, start, end) is None:
        return False
    window = text[start : min(end, start + _PART_REACH)]
    return _NEXT_PART.search(window) is not None


_COPULA_END = re.compile(
    r"(?i)(?<![^\W\d_])(?:is|are|was|were|equals|equal to|would be|will be|should be|becomes"
    r"|comes to|ist|beträgt|lautet|est|vaut|es|son|é|è|sono|равно|равен|равна|составляет"
    r")[ \t*_]*$"
)


def ends_on_copula(tail: str) -> bool:
    """``tail`` (a text's end, stripped) stops right after a copula: the value never came."""
    return _COPULA_END.search(tail[-40:]) is not None
