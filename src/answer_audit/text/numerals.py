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
    starts = list(range(len(norm)))
    ends = [i + 1 for i in starts]
    for pattern, repl in _REWRITES:
        pieces: list[str] = []
        new_starts: list[int] = []
        new_ends: list[int] = []
        last = 0
        for m in pattern.finditer(norm):
            pieces.append(norm[last : m.start()])
            new_starts += starts[last : m.start()]
            new_ends += ends[last : m.start()]
            out = repl(m)
            pieces.append(out)
            new_starts += [starts[m.start()]] * len(out)
            new_ends += [ends[m.end() - 1]] * len(out)
            last = m.end()
        pieces.append(norm[last:])
        new_starts += starts[last:]
        new_ends += ends[last:]
        norm, starts, ends = "".join(pieces), new_starts, new_ends
    if origin is None:
        return Prepared(norm, None)
    spans = [origin.span(s, e) for s, e in zip(starts, ends, strict=True)]
    return Prepared(norm, OffsetMap([a for a, _ in spans], [b for _, b in spans]))


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
    boxes = list(_BOXED.finditer(text))
    if boxes:
        start = boxes[-1].end()
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
_BARRIER = re.compile(r"[^\w\s,./×*\\^{}\-+−$€£¥₹%]|(?<!\d)[^\W\d_xetimscdo]")
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
