"""The ``v3`` matcher: is the truth *stated* in the answer, in any equivalent spelling?

On top of v2's boundary-safe containment (after the v3 normalizer):

- numbers compare by value, with units converted (``299,792,458 m/s`` states ``300,000 km/s``)
  and a 0.5% relative tolerance when the truth has a unit or a decimal (``9.81`` for ``9.8``);
  ``711`` never states ``11`` and ``3.14`` is one number, not ``3`` and ``14``;
- a number truth may be spelled as its digits in a sentence about digits (``1 and 4``);
- a mention does not count when it is only asked (in a sentence ending with ``?``), negated
  (``not Tokyo``), an operand (``12 × 12 = 144`` does not state 12) or one item of a list of
  numbers (``1, 4, 9, 16, 25``);
- yes/no truths are read from the answer's polarity: an explicit yes or no, where a "No"
  followed by an affirmation rejects the user's claim (``No, 11 is a prime number`` is yes).
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache

from answer_audit.matching.v3_normalizer import canonical_v3, normalize_v3
from answer_audit.text.numerals import close_enough, find_numbers, number_spans

REL_TOL_V3 = 0.005
SHORT_TRUTH_MAX_LEN = 4

# A last word that only says what kind of place it is ("Pacific Ocean", "Sahara Desert").
_CATEGORY_NOUNS = frozenset(
    {"ocean", "sea", "river", "lake", "desert", "mountain", "mountains", "island", "islands",
     "city", "peninsula", "bay", "strait", "canal", "continent"}
)  # fmt: skip
_UNIT = re.compile(r"\s*(m/s2|km/s|m/s|mi/s|°c|%)")
_TO_SI = {"m/s": Fraction(1), "km/s": Fraction(1000), "mi/s": Fraction("1609.344")}
_SENTENCE_END = re.compile(r"[!?\n]|\.(?!\d)")
# A number written next to an arithmetic operator and another number is an operand
# ("12 × 12 = 144" does not state 12; "subtracted 5 times" does state 5).
_OPS = r"(?:×|\*|x|times|multiplied by|\+|plus|minus|-|÷|/|divided by)"
_OPERAND_BEFORE = re.compile(rf"\d\s*\)?\s*{_OPS}\s*\(?\s*$")
_OPERAND_AFTER = re.compile(rf"^\s*\)?\s*(?:{_OPS}\s*\(?\s*-?\d|squared\b|\^)")
_NEGATED_BEFORE = re.compile(
    r"(?:\bnot|n't|\bnever|\binstead of|\brather than|\bno longer)\s+(?:the\s+|a\s+|an\s+|exactly\s+"
    r"|actually\s+|really\s+|simply\s+|just\s+)?$"
)
_NEGATED_AFTER = re.compile(r"^[\s,]*(?:is|was|are)\s+(?:not|incorrect|wrong)\b|^[\s,]*isn't\b")
# Items of a list: three or more numbers ("1, 4, 9, 16"), or names closed by "and"/"or"/"etc"
# ("Berlin, Munich, Frankfurt, and others"). "Washington, D.C., not Boston" is no list.
_NUM = r"-?\d+(?:\.\d+)?"
_NAME = r"[a-z][\w'-]*(?: [a-z][\w'-]*)?"
_LIST = re.compile(
    rf"{_NUM}(?:\s*,\s*{_NUM}){{2,}}(?:\s*,?\s*(?:and|or)\s+{_NUM})?"
    rf"|{_NAME}(?:\s*,\s*{_NAME})+\s*,?\s*(?:(?:and|or)\s+{_NAME}|etc\b)"
)


def match_v3(prediction: str, truth: str) -> bool | None:
    """True when the truth is stated in the prediction (see the module docstring).

    >>> match_v3("There are eight planets.", "8"), match_v3("Isn't it Rome?", "Rome")
    (True, False)
    """
    g = _normalized_truth(truth)
    if not g:
        return None
    p = canonical_v3(prediction)
    if not p.strip():
        return False
    if g in ("yes", "no"):
        return _polarity(p) == g
    return any(_asserted(p, s, e) for s, e in _mentions(p, truth, g))


# ------------------------------------------------- a cheap "cannot be stated" check


# Letters the v3 rewrites can produce from ASCII text that did not hold them (the unit symbols
# m/s2, km/s, m/s, mi/s, °c); a required word made only of these is no proof of absence.
_UNIT_LETTERS = frozenset({"m", "s", "k", "km", "mi", "i", "c"})


@lru_cache(maxsize=4096)
def required_word(truth: str) -> str | None:
    """A lowercase ASCII word that ``canonical_v3`` of an ASCII prediction must contain (as
    lowercased text, or by joining a dotted chain like ``p.a.r.i.s.``) for `match_v3` to find
    the truth; None when the truth has no such word (numbers, yes/no, non-ASCII words).

    On ASCII text the v3 rewrites only lowercase, replace characters by spaces, drop the dots
    of a dotted chain, turn number words into digits and unit phrases into unit symbols; so a
    letters-only word that is no unit symbol's letters appears only if it was there. Used by
    `schemes.label_column` to label rows False without the row rules (tested equal).

    >>> required_word("The Pacific Ocean"), required_word("12"), required_word("Yes")
    ('pacific', None, None)
    """
    g = _normalized_truth(truth)
    if not g or g in ("yes", "no") or _number_truth(truth)[0] is not None:
        return None
    words = g.split()
    if words[0] in ("the", "a", "an") and len(words) > 1:
        words = words[1:]
    if len(words) > 1 and words[-1] in _CATEGORY_NOUNS:
        words = words[:-1]
    word = words[0]
    if not re.fullmatch(r"[a-z]+", word) or word in _UNIT_LETTERS:
        return None
    return word


# ------------------------------------------------------------------- mentions


def _mentions(p: str, truth: str, g: str) -> list[tuple[int, int]]:
    value, unit = _number_truth(truth)
    if value is not None:
        return _number_mentions(p, value, unit, "." in g or unit is not None)
    words = g.split()
    if words[0] in ("the", "a", "an") and len(words) > 1:
        words = words[1:]  # "the Sun": "Sun" states it too
    if len(words) > 1 and words[-1] in _CATEGORY_NOUNS:
        words = words[:-1]  # "the Pacific" states "Pacific Ocean"
    body = r"[\W_]+".join(re.escape(w) for w in words)
    joined = " ".join(words)
    if len(joined) <= SHORT_TRUTH_MAX_LEN or joined.isdigit():
        body = rf"(?<![a-z0-9]){body}(?![a-z0-9])"
    return [m.span() for m in re.finditer(body, p)]


# A run has few distinct truths and many predictions: each truth is read once.
_normalized_truth = lru_cache(maxsize=4096)(normalize_v3)


@lru_cache(maxsize=4096)
def _number_truth(truth: str) -> tuple[Fraction | None, str | None]:
    text = canonical_v3(truth).strip()
    numbers = find_numbers(text)
    if len(numbers) != 1 or numbers[0].start != 0:
        return None, None
    rest = text[numbers[0].end :]
    unit = _UNIT.match(rest)
    tail = rest[unit.end() :] if unit else rest
    if tail.strip(" .,"):
        return None, None  # more than a number and a unit
    return numbers[0].value, unit.group(1) if unit else None


def _number_mentions(
    p: str, value: Fraction, unit: str | None, tolerant: bool
) -> list[tuple[int, int]]:
    exact_integer = unit is None and not tolerant and value.denominator == 1
    if exact_integer and p.isascii() and not _may_state_integer(p, value.numerator):
        return []  # what the reading below finds in such a text (tested equal)
    return _read_number_mentions(p, value, unit, tolerant)


def _read_number_mentions(
    p: str, value: Fraction, unit: str | None, tolerant: bool
) -> list[tuple[int, int]]:
    found = []
    rel_tol = REL_TOL_V3 if tolerant else 0.0
    for v, start, end in number_spans(p):
        if unit is not None and (said := _UNIT.match(p, end)) is not None:
            said_unit = said.group(1)
            if said_unit != unit:
                if said_unit not in _TO_SI or unit not in _TO_SI:
                    continue
                v = v * _TO_SI[said_unit] / _TO_SI[unit]
        # Fractions are kept in lowest terms: equal values have equal parts (and this skips
        # Fraction.__eq__'s type checks, which dominate on a text of many numbers)
        same = v.numerator == value.numerator and v.denominator == value.denominator
        if same or (rel_tol and close_enough(v, value, rel_tol)):
            found.append((start, end))
    if value.denominator == 1 and 10 <= value <= 99999:
        found += _digit_list_mentions(p, str(value.numerator))
    return found


# A fraction (`16/2`) or an exponent (`3e5`, `3 × 10^5`) can equal an integer whose digits
# it does not spell; `re` skips to digits fast for a pattern that opens with `\d`.
_E_EXPONENT = re.compile(r"\de[-+]?\d")


def _may_state_integer(p: str, n: int) -> bool:
    """False only when no number of the ASCII text ``p`` can equal ``n`` and no digit list can
    spell it: a plain number equal to ``n`` holds its digits (``+08.00``, ``$8``, ``8%``; commas
    dropped for ``1,000``), other forms need a ``/``, ``^`` or ``e`` exponent, and a digit list
    (`_digit_list_mentions`, 10-99999) holds each digit. Non-ASCII digits (``٨``) are why the
    text must be ASCII."""
    digits = str(abs(n))
    if digits in p.replace(",", "") or "/" in p or "^" in p or _E_EXPONENT.search(p):
        return True
    return 10 <= n <= 99999 and all(d in p for d in digits)


def _digit_list_mentions(p: str, digits: str) -> list[tuple[int, int]]:
    """``1 and 4`` for 14, in a sentence that talks about digits."""
    sep = r"\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)"
    pattern = re.compile(r"(?<!\d)(?<!\d\.)" + sep.join(digits) + r"(?!\d|\.\d|\s*,\s*\d)")
    found = [m.span() for m in pattern.finditer(p) if _about_digits(p, m.start())]
    # "the first two decimal digits are 3.14": the digits after the point
    for n in find_numbers(p):
        text = p[n.start : n.end]
        if "." in text and text.split(".")[1] == digits and _about_digits(p, n.start):
            found.append((n.start, n.end))
    return found


def _about_digits(p: str, start: int) -> bool:
    s, e = _sentence_bounds(p, start)
    return re.search(r"\b(?:digits?|decimals?)\b", p[s:e]) is not None


# ------------------------------------------------------------------ assertion


def _sentence_bounds(p: str, start: int) -> tuple[int, int]:
    before = [m.end() for m in _SENTENCE_END.finditer(p, 0, start)]
    after = _SENTENCE_END.search(p, start)
    return (before[-1] if before else 0), (after.start() if after else len(p))


def _asserted(p: str, start: int, end: int) -> bool:
    s, e = _sentence_bounds(p, end)
    if e < len(p) and p[e] == "?":
        return False
    head, tail = p[s:start], p[end : e + 1]
    if _NEGATED_BEFORE.search(head) or _NEGATED_AFTER.match(tail):
        return False
    if _OPERAND_BEFORE.search(head) or _OPERAND_AFTER.match(tail):
        return False
    if p.find(",", s, e) < 0:
        return True  # every list has a comma
    return not any(m.start() <= start and end <= m.end() for m in _LIST.finditer(p, s, e))


# ------------------------------------------------------------------- yes / no

_EXPLICIT = re.compile(r"(?<![\"'“‘])\b(yes|no)\b(?=\s*(?:[.,!;:\n)]|$))")
_AFFIRMS = re.compile(
    r"\b(?:is|are)\s+(?:indeed\s+|actually\s+|definitely\s+|in fact\s+|certainly\s+|truly\s+)*"
    r"(?:a|an)\b"
)
_DENIES = re.compile(r"\b(?:is|are|does|do)\s+not\b|\b(?:isn't|aren't|doesn't|don't)\b")
_CONCLUSION = re.compile(r"^\s*(?:therefore|thus|hence|so|in conclusion|that makes it)\b")


def _polarity(p: str) -> str | None:
    """``yes``/``no`` as the answer states it, or None when it takes no side."""
    sentences = [x for x in re.split(r"(?<=[.!?\n])\s+|\n", p) if x.strip()]
    verdict: str | None = None
    for i, sentence in enumerate(sentences):
        m = _EXPLICIT.search(sentence)
        if m is not None:
            said = m.group(1)
            if said == "no":
                nearby = (
                    sentence[m.end() :] + " " + (sentences[i + 1] if i + 1 < len(sentences) else "")
                )
                if _AFFIRMS.search(nearby) and not _DENIES.search(nearby):
                    said = "yes"  # "No, 11 is a prime number": rejects the claim, not the fact
            verdict = said
        elif _CONCLUSION.match(sentence):
            if _DENIES.search(sentence):
                verdict = "no"
            elif _AFFIRMS.search(sentence):
                verdict = "yes"
    return verdict
