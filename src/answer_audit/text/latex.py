"""LaTeX and typography in a short answer statement, rewritten as plain math with an offset map.

`plain_math` turns what a reader sees rendered into the plain characters the number reader
(`answer_audit.text.number_reading`) scans: ``\\frac{3}{8}``, ``\\dfrac``, ``\\cfrac``,
``\\frac13`` and ``\\frac 2 5`` become ``3/8``; ``2\\frac{1}{2}`` becomes the mixed number
``2 1/2``; ``0.\\overline{3}`` becomes ``1/3``; wrappers (``\\text{}``, ``\\mathbf{}``,
``\\boxed{}``, ``\\left(``) and spacing (``\\!``, ``\\,``, ``{,}``) go; ``\\times``, ``\\cdot``,
``\\pi``, ``\\sqrt`` become ``×``, ``·``, ``π``, ``√``. Full-width forms, minus signs and the
many spaces become ASCII, invisible characters (zero-width space, word joiner, soft hyphen, BOM)
go. A fraction whose parts are not plain numbers (``\\frac{\\sqrt{3}}{2}``) becomes `NOT_PLAIN`,
so a numeric reader sees a value that is not a number rather than a part of one.

It is meant for statements (a few hundred characters): the offset map is a Python list.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

NOT_PLAIN = "\ufffc"  # stands for a value that is not a plain number (a surd, a symbol)


@dataclass(frozen=True, slots=True)
class Mapped:
    """A rewritten text and, per character, the span of the original it came from.

    ``starts`` and ``ends`` are None while the text is the original itself (the common case).
    """

    text: str
    starts: tuple[int, ...] | None = None
    ends: tuple[int, ...] | None = None

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original ``(start, end)`` that rewritten ``[start:end]`` (end > start) covers."""
        if self.starts is None or self.ends is None:
            return start, end
        return self.starts[start], self.ends[end - 1]


Piece = str | int  # new text (mapped to the whole match), or a group copied with its own map


def rewrite(
    mapped: Mapped, pattern: re.Pattern[str], pieces: Callable[[re.Match[str]], Sequence[Piece]]
) -> Mapped:
    """Every match of ``pattern`` replaced by ``pieces(match)``; unchanged characters keep
    their place in the original, and a copied group keeps its own."""
    text = mapped.text
    matches = list(pattern.finditer(text))
    if not matches:
        return mapped
    starts = list(mapped.starts) if mapped.starts is not None else list(range(len(text)))
    ends = list(mapped.ends) if mapped.ends is not None else list(range(1, len(text) + 1))
    out: list[str] = []
    new_starts: list[int] = []
    new_ends: list[int] = []
    last = 0
    for m in matches:
        out.append(text[last : m.start()])
        new_starts += starts[last : m.start()]
        new_ends += ends[last : m.start()]
        whole = (starts[m.start()], ends[m.end() - 1]) if m.end() > m.start() else (0, 0)
        for piece in pieces(m):
            if isinstance(piece, int):
                a, b = m.span(piece)
                out.append(text[a:b])
                new_starts += starts[a:b]
                new_ends += ends[a:b]
            else:
                out.append(piece)
                new_starts += [whole[0]] * len(piece)
                new_ends += [whole[1]] * len(piece)
        last = m.end()
    out.append(text[last:])
    new_starts += starts[last:]
    new_ends += ends[last:]
    return Mapped("".join(out), tuple(new_starts), tuple(new_ends))


# ------------------------------------------------------------------- typography (one to one)

_SPACES = (
    "\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"
)
_ONE_TO_ONE = {
    **{0xFF01 + i: 0x21 + i for i in range(0x5E)},  # full-width ASCII
    **{ord(c): " " for c in _SPACES},
    ord("\u2212"): "-",  # minus sign
    ord("\u2012"): "-",  # figure dash
    ord("\ufe63"): "-",
    ord("\u066b"): ".",  # Arabic decimal separator
    ord("\u066c"): ",",  # Arabic thousands separator
    ord("\u2044"): "/",  # fraction slash between plain digits
    ord("\u2215"): "/",  # division slash
}
_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff\u00ad]+")


def plain_characters(text: str) -> Mapped:
    """Full-width forms, minus signs and spaces as ASCII (one to one), invisible ones dropped."""
    mapped = Mapped(text if text.isascii() else text.translate(_ONE_TO_ONE))
    if not mapped.text.isascii() and _INVISIBLE.search(mapped.text):
        mapped = rewrite(mapped, _INVISIBLE, lambda m: ())
    return mapped


# ------------------------------------------------------------------------------ LaTeX

_DROPPED = re.compile(
    r"\\[,;:!> ]|\\[()\[\]]"
    r"|\\(?:left|right|bigl|bigr|Bigl|Bigr|big|Big|displaystyle|textstyle)(?![a-zA-Z])\.?"
)
_ESCAPED = re.compile(r"\\([$%#&_])")
# `$...$` and `$$...$$` around math: the inside stays (an escaped `\$` is a dollar sign)
_MATH_DOLLARS = re.compile(r"(?<!\\)\$\$?((?:[^$\\\n]|\\.)+?)(?<!\\)\$\$?")
_GROUPING_BRACES = re.compile(r"\{([,.])\}")
_WRAPPER = re.compile(
    r"\\(?:text|textbf|textit|textrm|textnormal|mathrm|mathbf|mathit|mathsf|mathbb|mbox"
    r"|operatorname|bm|boldsymbol|boxed|fbox|underline|emph)\s*\{([^{}]*)\}"
)
_SURD = re.compile(r"\\sqrt\s*(?:\[[^\[\]{}]*\])?\s*(?:\{[^{}]*\}|\d+|[a-zA-Z])?")
_ARG = r"(?:\{([^{}]*)\}|\s*([0-9a-zA-Z]))"
_FRACTION = re.compile(rf"\\[dtc]?frac\s*{_ARG}\s*{_ARG}")
_REPEATING = re.compile(r"(\d*)\.(\d*)\\(?:overline|bar|dot)\s*\{?(\d+)\}?")
_PLAIN_PART = re.compile(r"\s*([-+−]?)\s*(\d+(?:\.\d+)?)\s*")
_SYMBOLS = {
    "times": "×",
    "cdot": "·",
    "div": "÷",
    "approx": "≈",
    "pi": "π",
    "infty": "∞",
    "pm": "±",
    "mp": "±",
    "circ": "°",
    "degree": "°",
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
    "neq": "≠",
    "ne": "≠",
    "lt": "<",
    "gt": ">",
    "dots": "…",
    "ldots": "…",
    "cdots": "…",
}
_SYMBOL = re.compile(r"\^\s*\{?\s*\\circ\s*\}?|\\(" + "|".join(_SYMBOLS) + r")(?![a-zA-Z])")
_COMMAND_BEFORE_DIGIT = re.compile(r"(\\[a-zA-Z]+)(?=\d)")
_MAX_NESTING = 4  # wrappers peeled inside out, at most this deep (bounded work)


def plain_math(text: str) -> Mapped:
    """`plain_characters`, then LaTeX numbers, wrappers and symbols as plain math.

    >>> plain_math("$2\\\\frac{1}{2}$ or \\\\text{about }\\\\dfrac{9}{10}").text
    '2 1/2 or about 9/10'
    """
    mapped = plain_characters(text)
    if "$" in mapped.text:
        mapped = rewrite(mapped, _MATH_DOLLARS, lambda m: (1,))
    if "\\" not in mapped.text and "{" not in mapped.text:
        return mapped
    mapped = rewrite(mapped, _DROPPED, lambda m: ())
    mapped = rewrite(mapped, _ESCAPED, lambda m: (1,))
    mapped = rewrite(mapped, _GROUPING_BRACES, lambda m: (1,))
    for _ in range(_MAX_NESTING):
        before = mapped.text
        mapped = rewrite(mapped, _WRAPPER, lambda m: (1,))
        mapped = rewrite(mapped, _SURD, lambda m: (NOT_PLAIN,))
        mapped = rewrite(mapped, _REPEATING, _repeating)
        mapped = rewrite(mapped, _FRACTION, _fraction)
        if mapped.text == before:
            break
    mapped = rewrite(mapped, _SYMBOL, lambda m: (_SYMBOLS[m.group(1)] if m.group(1) else "°",))
    return rewrite(mapped, _COMMAND_BEFORE_DIGIT, lambda m: (1, " "))


def _fraction(m: re.Match[str]) -> Sequence[Piece]:
    numerator = _plain_part(m.group(1) if m.group(1) is not None else m.group(2))
    denominator = _plain_part(m.group(3) if m.group(3) is not None else m.group(4))
    if numerator is None or denominator is None:
        return (NOT_PLAIN,)
    negative = numerator[0] != denominator[0]
    text = f"{'-' if negative else ''}{numerator[1]}/{denominator[1]}"
    # a digit right before makes a mixed number: 2\frac{1}{2} is 2 1/2
    before = m.string[m.start() - 1] if m.start() else ""
    return (" " + text if before.isdigit() else text,)


def _plain_part(part: str) -> tuple[bool, str] | None:
    """(negative, digits) of a plain signed number, or None."""
    m = _PLAIN_PART.fullmatch(part)
    if m is None:
        return None
    return m.group(1) in ("-", "−"), m.group(2)


def _repeating(m: re.Match[str]) -> Sequence[Piece]:
    """``1.\\overline{6}`` as the exact fraction ``5/3`` (``0.1\\overline{6}`` is ``1/6``)."""
    whole, fixed, period = m.group(1) or "0", m.group(2), m.group(3)
    if len(whole) + len(fixed) + len(period) > 60:  # noise, not a number anyone wrote
        return (NOT_PLAIN,)
    value = Fraction(int(whole + fixed), 10 ** len(fixed))
    value += Fraction(int(period), (10 ** len(period) - 1) * 10 ** len(fixed))
    return (f"{value.numerator}/{value.denominator}" if value.denominator != 1 else str(value),)
