"""Numbers in model output: find them boundary-safely, read them exactly, pick the final one.

A number is read as an exact `Fraction`: thousands separators (``1,234,567``), a sign (``-``,
``+``, ``−``), a currency symbol (``$``, ``€``, ``£``, ``¥``, ``₹``), decimals (``29.00``),
simple fractions (``3/4``, ``\\frac{3}{4}``), scientific notation (``3 × 10^8``, ``3e8``) and a
trailing percent sign (dropped: ``45%`` reads 45). A number never starts or ends inside another:
``711`` holds no ``11``, and ``-3`` is not ``3``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from answer_audit.text.offsets import OffsetMap, nfkc_lower_with_map
from answer_audit.text.prefilters import guarded
from answer_audit.text.vocabulary import NUMBER_ANSWER_WORDS

_NUMBER = guarded(
    re.compile(
        r"(?<![\w./])(?:(?<!\d,)|(?!\d{3}(?!\d)))"  # not inside a word, decimal or 1,234
        r"(?P<sign>[-+−])?"
        r"(?P<cur>[$€£¥₹]\s?)?"
        r"(?:(?P<int>\d{1,3}(?:,\d{3})+(?![\d])|\d+)(?:\.(?P<frac>\d+))?|\.(?P<bare>\d+))"
        r"(?:/(?P<den>\d+)(?![\d./]))?"
        r"(?:\s*(?:×|x|\*|\\times|\\cdot)\s*10\s*\^\s*\{?(?P<exp>[-+−]?\d+)\}?|e(?P<e>[-+]?\d+)\b)?"
        r"(?![\d])(?!\.\d)"
        r"(?P<pct>\s?%)?"
    )
)  # guarded: a position that cannot start a number fails at one class check (same matches)
_DIGIT = re.compile(r"\d")  # every _NUMBER match holds one (its int, frac or bare group)
_FRAC = re.compile(r"\\[dt]?frac\s*\{\s*([^{}]*?)\s*\}\s*\{\s*([^{}]*?)\s*\}")


@dataclass(frozen=True, slots=True)
class Number:
    """One number found in a text: its exact value and where it was (``start``, ``end``)."""

    value: Fraction
    start: int
    end: int

    @property
    def canonical(self) -> str:
        """The value as a short exact string: ``29``, ``0.75``, ``-3``, ``1/3``."""
        return format_number(self.value)


def format_number(value: Fraction) -> str:
    """``29`` for 29.00, ``0.75`` for 3/4, ``1/3`` when no finite decimal is exact.

    >>> format_number(Fraction(3, 4)), format_number(Fraction(29)), format_number(Fraction(1, 3))
    ('0.75', '29', '1/3')
    """
    if value.denominator == 1:
        return str(value.numerator)
    d = value.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    if d != 1:
        return f"{value.numerator}/{value.denominator}"
    places = max(twos, fives)
    scaled = abs(value) * 10**places
    digits = str(scaled.numerator).rjust(places + 1, "0")
    sign = "-" if value < 0 else ""
    return f"{sign}{digits[:-places]}.{digits[-places:]}".rstrip("0").rstrip(".")


@dataclass(frozen=True, slots=True)
class Prepared:
    """A text made ready for number reading, and the map of its offsets back to the original."""

    text: str
    origin: OffsetMap | None

    def span(self, start: int, end: int) -> tuple[int, int] | None:
        return self.origin.span(start, end) if self.origin is not None and end > start else None


_REWRITES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (_FRAC, lambda m: f"{m.group(1)}/{m.group(2)}"),
    (re.compile(r"\{,\}"), lambda m: ","),  # 1{,}000
    (re.compile(r"\\[,;:! ]"), lambda m: ""),  # LaTeX spacing
    (re.compile("\u2044"), lambda m: "/"),  # fraction slash
)


def prepare(text: str) -> Prepared:
    """NFKC + lowercase, ``\\frac{a}{b}`` written ``a/b``, LaTeX spacing dropped; offsets mapped."""
    norm, origin = nfkc_lower_with_map(text)
    if not any(pattern.search(norm) for pattern, _ in _REWRITES):
        return Prepared(norm, origin)
    # starts[i], ends[i] - 1: the first and last characters of `norm` (NFKC) that character
    # i of the rewritten text came from; built with NumPy, one array operation per rewrite
    starts = np.arange(len(norm))
    ends = starts + 1
    for pattern, repl in _REWRITES:
        matches: list[tuple[int, int, int]] = []
        rewritten = pattern.sub(_recording(repl, matches), norm)
        if not matches:
            continue
        starts, ends = _rewritten_offsets(len(norm), matches, starts, ends)
        norm = rewritten
    if origin is None:
        return Prepared(norm, None)
    return Prepared(norm, origin.through(starts, ends))


def _recording(
    repl: Callable[[re.Match[str]], str], matches: list[tuple[int, int, int]]
) -> Callable[[re.Match[str]], str]:
    """``repl``, noting each match's start, end and the length of what replaced it."""

    def replace(m: re.Match[str]) -> str:
        out = repl(m)
        matches.append((m.start(), m.end(), len(out)))
        return out

    return replace


def _rewritten_offsets(
    size: int,
    matches: list[tuple[int, int, int]],
    starts: npt.NDArray[np.int64],
    ends: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """``starts`` and ``ends`` of a text of ``size`` characters after each ``(start, end,
    length)`` match was replaced by ``length`` characters: a kept character keeps its own, a
    new one takes the match's first start and last end."""
    spans = np.array(matches, dtype=np.int64).reshape(-1, 3)
    first, after, length = spans[:, 0], spans[:, 1], spans[:, 2]
    # each old character is written `copies` times: once if kept, `length` times for the
    # first character of a match, never for its other characters
    inside = np.zeros(size + 1, dtype=np.int64)
    np.add.at(inside, first + 1, 1)
    np.add.at(inside, after, -1)
    copies = 1 - np.cumsum(inside)[:size]
    copies[first] = length
    last = np.arange(size)
    last[first] = after - 1
    return np.repeat(starts, copies), np.repeat(ends[last], copies)


def find_numbers(text: str) -> list[Number]:
    """Every number in ``text`` (already `prepare`d, or plain), in reading order.

    >>> [n.canonical for n in find_numbers("It costs $1,234.50, not 711 or -3; 3/4 of 10^2 is 75%.")]
    ['1234.5', '711', '-3', '0.75', '10', '2', '75']
    """
    return [Number(value, start, end) for value, start, end in number_spans(text)]


def number_spans(text: str) -> Iterator[tuple[Fraction, int, int]]:
    """`find_numbers` as (value, start, end) tuples, without building a `Number` for each."""
    if _DIGIT.search(text) is None:  # every number has a digit; the pattern scans every position
        return
    for m in _NUMBER.finditer(text):
        value = _value(m)
        if value is not None:
            yield value, *m.span()


# Beyond these a "number" is noise (and exact arithmetic on it would be slow): not read.
_MAX_DIGITS = 1000
MAX_DIGITS = _MAX_DIGITS  # (public: the v3 matcher's fast reading of integers keeps it)
_MAX_EXPONENT = 400


def _value(m: re.Match[str]) -> Fraction | None:
    sign, whole, frac, bare, den, exp, e = m.group("sign", "int", "frac", "bare", "den", "exp", "e")
    if not (frac or bare or den or exp or e):  # a plain integer, the common case
        value = _integer(whole)
        if value is None:
            return None
        return -value if sign == "-" or sign == "−" else value
    whole = (whole or "0").replace(",", "")
    frac = frac or bare or ""
    if len(whole) + len(frac) > _MAX_DIGITS:
        return None
    # from ints, not from a string: the same Fraction at a quarter of the cost
    value = Fraction(int(whole + frac), 10 ** len(frac)) if frac else Fraction(int(whole))
    if den is not None:
        denominator = int(den)
        if denominator == 0:
            return None
        value /= denominator
    exp = exp or e
    if exp is not None:
        power = int(exp.replace("−", "-")[:6])
        if abs(power) > _MAX_EXPONENT:
            return None
        value *= Fraction(10) ** power
    return -value if sign == "-" or sign == "−" else value


@lru_cache(maxsize=1024)
def _integer(digits: str) -> Fraction | None:
    """``1,234`` or ``1234`` as a Fraction (None past _MAX_DIGITS); cached: texts repeat the
    same small integers."""
    digits = digits.replace(",", "")
    return None if len(digits) > _MAX_DIGITS else Fraction(int(digits))


def parse_number(text: str) -> Fraction | None:
    """The value of a text that is one number (with optional currency, unit or %), or None.

    >>> parse_number(" 29.00 "), parse_number("$1,000"), parse_number("3 apples and 4 pears")
    (Fraction(29, 1), Fraction(1000, 1), None)
    """
    numbers = find_numbers(prepare(text).text)
    if len(numbers) != 1:
        return None
    return numbers[0].value


def close_enough(a: Fraction, b: Fraction, rel_tol: float = 0.0) -> bool:
    """Exact equality, or within ``rel_tol`` of the larger magnitude.

    >>> close_enough(Fraction(29), Fraction("29.00")), close_enough(Fraction(711), Fraction(11))
    (True, False)
    """
    if a == b:
        return True
    return rel_tol > 0 and abs(a - b) <= Fraction(rel_tol) * max(abs(a), abs(b))


# ------------------------------------------------------------- the final number

_BOXED = re.compile(r"\\boxed\s*\{")
# The last match of `_BOXED`, found from the end (its matches cannot overlap: each opens at a
# backslash and holds no other), not by listing them all: a flood of boxes stays linear.
_LAST_BOXED = re.compile(r"(?s).*(?:\\boxed\s*\{)")
_HASHES = re.compile(r"####\s*")
_TRIGGERS = "|".join(NUMBER_ANSWER_WORDS)
# The lookahead for the triggers' first characters (case-insensitive like the triggers) lets a
# position that starts none of them fail at one check instead of trying every trigger.
_ANSWER = re.compile(
    rf"(?i)(?=[{''.join(sorted({t[0] for t in _TRIGGERS.split('|')}))}])(?:{_TRIGGERS})"
    r"(?:\s*(?:is|=|:|は|是|为|은|는))*\s*[:：]?"
)


def final_number(text: str) -> tuple[Number, str] | tuple[None, str]:
    """The answer number of a `prepare`d text and the rule that chose it.

    Priority: the last ``\\boxed{}`` (its first number; ``boxed-no-number`` when it has
    none), then the last ``####``, then the last ``Answer:`` line (the first number after the
    trigger on that line), then the last number anywhere. ``not-found`` when there is none.

    >>> n, rule = final_number(prepare("3 + 4 = 7, so 7 apples.\\n#### 7\\nAnswer: 8").text)
    >>> n.canonical, rule
    ('7', 'hash-answer')
    """
    last_box = _LAST_BOXED.match(text)
    if last_box is not None:
        start = last_box.end()
        inside = text[start : _closing_brace(text, start)]
        numbers = find_numbers(inside)
        if not numbers:
            return None, "boxed-no-number"
        n = numbers[0]
        return Number(n.value, start + n.start, start + n.end), "boxed"
    if _DIGIT.search(text) is None:  # no rule below can find a number: skip their scans
        return None, "not-found"
    for rule, pattern in (("hash-answer", _HASHES), ("answer-line", _ANSWER)):
        found = list(pattern.finditer(text))
        limit = len(text)  # each trigger reads up to the next one: linear on hostile input
        for m in reversed(found):
            line_end = text.find("\n", m.end(), limit)
            stop = limit if line_end < 0 else line_end
            numbers = find_numbers(text[m.end() : stop])
            if numbers:
                n = numbers[0]
                return Number(n.value, m.end() + n.start, m.end() + n.end), rule
            limit = m.start()
    for m in _matches_from_the_end(text):
        value = _value(m)
        if value is not None:
            return Number(value, m.start(), m.end()), "last-number"
    return None, "not-found"


# A character that no number match can hold (see _NUMBER's alphabet: digits, spaces, `,./`,
# `×x*^{}`, `\\times`, `\\cdot`, signs, currency, `%`, the exponent `e`). No match spans it,
# and a search that ends there (endpos) finds the same matches before it as a whole-text
# search: the lookaheads at a match's end see a non-digit, non-`.`, non-`/` either way, and
# the `\\b` after an exponent differs only before a word character that follows a digit,
# which is therefore not a barrier.
_BARRIER = re.compile(
    r"[^\w\s,./×*\\^{}\-+−$€£¥₹%]|(?<!\d)[^\W\d_xetimscdo]"
    # Between two digits, a space holds no match ("d d" is in none: its spaces follow a
    # currency sign or stand around an operator or before %), nor does a comma followed by
    # one or two digits (grouping takes three): floods of numbers then find a barrier too.
    r"|(?<=\d)\s(?=\d)|(?<=\d),(?=\d{1,2}(?!\d))"
)
_WINDOW = 512


def _matches_from_the_end(text: str) -> Iterator[re.Match[str]]:
    """`_NUMBER`'s whole-text matches, last first, reading back from the end in windows.

    Each window starts just after a barrier character, so its matches are exactly the
    whole-text matches inside it (lookbehinds see the text before ``pos``). The final number
    of a megabyte of short lines then costs one window, not a scan of every line.
    """
    end = len(text)
    width = _WINDOW
    while end > 0:
        cut = max(0, end - width)
        barrier = _BARRIER.search(text, cut, end) if cut > 0 else None
        if barrier is None and cut > 0:
            width *= 2  # no barrier in reach: look further back
            continue
        start = barrier.end() if barrier is not None else 0
        yield from reversed(list(_NUMBER.finditer(text, start, end)))
        end = barrier.start() if barrier is not None else 0


def _closing_brace(text: str, start: int) -> int:
    depth = 1
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return len(text)


def normalize_number(text: str) -> str:
    """The ``numeric`` normalizer: the answer number of a text, written exactly; "" if none.

    >>> normalize_number("So the total is $1,234.50."), normalize_number("no digits")
    ('1234.5', '')
    """
    number, _ = final_number(prepare(text).text)
    return number.canonical if number is not None else ""
