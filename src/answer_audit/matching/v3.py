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

Over 400 lines on purpose: a frozen matcher's whole reading in one place, with the linear-time
scans it needs on hostile text (tests/matching/test_v3_linear.py checks them against plain
quadratic readings).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from fractions import Fraction
from functools import lru_cache

from answer_audit.matching.v3_normalizer import canonical_v3, normalize_v3
from answer_audit.text.numerals import MAX_DIGITS, close_enough, find_numbers, number_spans

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
    reading = _Reading(p)
    mentions = _mentions(p, truth, g, skip_negated=True)
    return any(reading.asserted(s, e) for s, e in mentions)


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


def _mentions(p: str, truth: str, g: str, skip_negated: bool = False) -> Iterator[tuple[int, int]]:
    """The truth's mentions in ``p``, in the order they are read: one at a time, so that the
    first asserted one ends the reading (``any``) without finding every other."""
    value, unit = _number_truth(truth)
    if value is not None:
        tolerant = "." in g or unit is not None
        yield from _iter_number_mentions(p, value, unit, tolerant, skip_negated)
        return
    words = g.split()
    if words[0] in ("the", "a", "an") and len(words) > 1:
        words = words[1:]  # "the Sun": "Sun" states it too
    if len(words) > 1 and words[-1] in _CATEGORY_NOUNS:
        words = words[:-1]  # "the Pacific" states "Pacific Ocean"
    body = r"[\W_]+".join(re.escape(w) for w in words)
    joined = " ".join(words)
    if len(joined) <= SHORT_TRUTH_MAX_LEN or joined.isdigit():
        body = rf"(?<![a-z0-9]){body}(?![a-z0-9])"
    for m in re.finditer(body, p):
        yield m.span()


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
    return list(_iter_number_mentions(p, value, unit, tolerant))


def _iter_number_mentions(
    p: str, value: Fraction, unit: str | None, tolerant: bool, skip_negated: bool = False
) -> Iterator[tuple[int, int]]:
    """The mentions `_iter_read_number_mentions` finds, in the same order; with
    ``skip_negated``, less those `_plain_integer_mentions` proves are not asserted."""
    exact_integer = unit is None and not tolerant and value.denominator == 1
    if exact_integer and p.isascii():
        if not _may_state_integer(p, value.numerator):
            return iter(())  # what the reading below finds in such a text (tested equal)
        if not any(c in p for c in "$%/^") and _NOT_PLAIN.search(p) is None:
            return _plain_integer_mentions(p, value.numerator, skip_negated)
    return _iter_read_number_mentions(p, value, unit, tolerant)


# In an ASCII text without these (a digit beside a decimal point, a grouping comma or an `e`
# exponent) and without `$`, `%`, `/` or `^` (a currency sign, a percent, a fraction, a power)
# every `_NUMBER` match (text.numerals) is an optional sign and a whole run of digits that no
# `[\w./]` precedes: no other group of the pattern can match. So the matches worth an integer
# are the runs of its digits after zeros.
_NOT_PLAIN = re.compile(r"\.\d|\d(?:,\d|e[-+]?\d)")


@lru_cache(maxsize=256)
def _plain_integer_pattern(n: int) -> re.Pattern[str]:
    """A run of zeros and the digits of ``|n|`` (with its sign) as `_NUMBER` reads it in a plain
    text (`_NOT_PLAIN`), after an optional plain negation (`_NEGATED_BEFORE`'s words,
    spaces only) that ends where the number starts: group ``neg`` (letters and spaces hold no
    number, so the prefix changes which runs match in no way)."""
    return re.compile(
        r"(?P<neg>(?:(?<!\w)(?:not|never|instead of|rather than|no longer)|n't)"
        r"(?: +(?:the|a|an|exactly|actually|really|simply|just))? +)?"
        rf"(?<![\w./])(?P<sign>[-+]?)0*{abs(n)}(?!\d)"
    )


def _plain_integer_mentions(p: str, n: int, skip_negated: bool) -> Iterator[tuple[int, int]]:
    """`_iter_read_number_mentions` for the integer ``n`` in a plain text (`_NOT_PLAIN`),
    without reading every number (tested equal). With ``skip_negated``, a mention a plain
    negation precedes is left out: `_Reading.asserted` is False for it (the negation and the
    mention hold no sentence end, so it stands in the mention's sentence, and
    `_NEGATED_BEFORE_REVERSED` matches it)."""
    for m in _plain_integer_pattern(n).finditer(p):
        if skip_negated and m.group(1) is not None:
            continue
        sign = m.group(2)
        start = m.start(2)
        if (n and (sign == "-") != (n < 0)) or m.end() - start - len(sign) > MAX_DIGITS:
            continue  # another sign, or too long to be read (`_NUMBER` gives no value)
        yield start, m.end()
    if 10 <= n <= 99999:
        yield from _digit_list_mentions(p, str(n))


def _read_number_mentions(
    p: str, value: Fraction, unit: str | None, tolerant: bool
) -> list[tuple[int, int]]:
    return list(_iter_read_number_mentions(p, value, unit, tolerant))


def _iter_read_number_mentions(
    p: str, value: Fraction, unit: str | None, tolerant: bool
) -> Iterator[tuple[int, int]]:
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
            yield start, end
    if value.denominator == 1 and 10 <= value <= 99999:
        yield from _digit_list_mentions(p, str(value.numerator))


# A fraction (`16/2`) or an exponent (`3e5`, `3 × 10^5`) can equal an integer whose digits
# it does not spell; `re` skips to digits fast for a pattern that opens with `\d`.
_E_EXPONENT = re.compile(r"\de[-+]?\d")


def _may_state_integer(p: str, n: int) -> bool:
    """False only when no number of the ASCII text ``p`` can equal ``n`` and no digit list can
    spell it: a plain number equal to ``n`` holds its digits (``+08.00``, ``$8``, ``8%``; commas
    dropped for ``1,000``), a fraction the digits of ``n`` times its denominator
    (`_fraction_may_equal`), other forms a ``^`` or ``e`` exponent, and a digit list
    (`_digit_list_mentions`, 10-99999) holds each digit. Non-ASCII digits (``٨``) are why the
    text must be ASCII."""
    digits = str(abs(n))
    if digits in p.replace(",", "") or "^" in p or _E_EXPONENT.search(p):
        return True
    if "/" in p and _fraction_may_equal(p, abs(n)):
        return True
    return 10 <= n <= 99999 and all(d in p for d in digits)


# A fraction's numerator (digits, commas, a point) and denominator.
_FRACTION = re.compile(r"([\d,.]*)/(\d+)")


def _fraction_may_equal(p: str, n: int) -> bool:
    """False only when no fraction ``x/d`` of the ASCII text ``p`` can be worth ``n`` (or
    ``-n``): that needs ``x = n * d``, so the digits of ``n * d`` in the numerator (which ends
    the run of digits, commas and points before the slash; commas dropped). A page of
    ``\\frac{1}{2}`` is ruled out in one pass, instead of reading every fraction's value."""
    for numerator, denominator in set(_FRACTION.findall(p)):
        if len(denominator) > 30 or str(n * int(denominator)) in numerator.replace(",", ""):
            return True
    return False


def _digit_list_mentions(p: str, digits: str) -> list[tuple[int, int]]:
    """``1 and 4`` for 14, in a sentence that talks about digits."""
    sep = r"\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)"
    pattern = re.compile(r"(?<!\d)(?<!\d\.)" + sep.join(digits) + r"(?!\d|\.\d|\s*,\s*\d)")
    sentences = _Sentences(p)
    found = [m.span() for m in pattern.finditer(p) if sentences.about_digits(m.start())]
    # "the first two decimal digits are 3.14": the digits after the point
    for n in find_numbers(p):
        text = p[n.start : n.end]
        if "." in text and text.split(".")[1] == digits and sentences.about_digits(n.start):
            found.append((n.start, n.end))
    return found


# ------------------------------------------------------------------ assertion

# What a reading looks at before a mention, read backwards (in the reversed text, from the
# mention's start): _NEGATED_BEFORE and _OPERAND_BEFORE, which end where the mention starts,
# reversed. A `$`-anchored search tries every position of the sentence before the mention,
# once per mention; matching the reversed pattern reads only what it matches. Possessive
# runs of spaces: what follows each run cannot start with a space (nor with the bracket or
# comma beside it), so no match is lost, and a long run is read once instead of once per split.
_NEGATED_BEFORE_REVERSED = re.compile(
    r"(?:\s++(?:eht|a|na|yltcaxe|yllautca|yllaer|ylpmis|tsuj))?\s++"
    r"(?:ton\b|t'n|reven\b|fo daetsni\b|naht rehtar\b|regnol on\b)"
)
_OPS_REVERSED = r"(?:×|\*|x|semit|yb deilpitlum|\+|sulp|sunim|-|÷|/|yb dedivid)"
_OPERAND_BEFORE_REVERSED = re.compile(rf"\s*+\(?+\s*+{_OPS_REVERSED}\s*+\)?+\s*+\d")
# _NEGATED_AFTER and _OPERAND_AFTER without `^`, matched at the mention's end (pos) in the
# whole text instead of in a copy of the rest of the sentence.
_NEGATED_AFTER_AT = re.compile(r"[\s,]*(?:is|was|are)\s+(?:not|incorrect|wrong)\b|[\s,]*isn't\b")
_OPERAND_AFTER_AT = re.compile(rf"\s*+\)?+\s*+(?:{_OPS}\s*+\(?+\s*+-?\d|squared\b|\^)")
_DIGIT_WORDS = re.compile(r"\b(?:digits?|decimals?)\b")


class _Sentences:
    """Where the sentences of a text start and end (`_SENTENCE_END`), found in one pass."""

    __slots__ = ("_digit_words", "_ends", "p")

    def __init__(self, p: str) -> None:
        self.p = p
        self._ends: list[int] | None = None
        self._digit_words: list[int] | None = None

    def bounds(self, at: int) -> tuple[int, int]:
        """The sentence around offset ``at``: from just after the last sentence end in
        ``p[:at]`` (read as if the text ended at ``at``: a final ``.`` ends a sentence even
        before a digit) to the first sentence end at or after ``at`` (or the text's end)."""
        p = self.p
        if self._ends is None:
            self._ends = [m.start() for m in _SENTENCE_END.finditer(p)]
        ends = self._ends
        i = bisect_left(ends, at)
        e = ends[i] if i < len(ends) else len(p)
        if at > 0 and p[at - 1] == ".":
            return at, e
        return (ends[i - 1] + 1 if i else 0), e

    def about_digits(self, at: int) -> bool:
        """The sentence around ``at`` says "digit(s)" or "decimal(s)" (as a word)."""
        s, e = self.bounds(at)
        if self._digit_words is None:
            self._digit_words = [m.start() for m in _DIGIT_WORDS.finditer(self.p)]
        i = bisect_left(self._digit_words, s)
        return i < len(self._digit_words) and self._digit_words[i] < e


class _Reading(_Sentences):
    """`match_v3`'s reading of the mentions in one text: whether each is asserted. What the
    mentions of a text share (its sentences, its reversed copy, each sentence's lists) is found
    once, so a text of many mentions is read in time linear in its length."""

    __slots__ = ("_lists", "_reversed")

    def __init__(self, p: str) -> None:
        super().__init__(p)
        self._reversed: str | None = None
        self._lists: dict[tuple[int, int], tuple[list[int], list[int]] | None] = {}

    def asserted(self, start: int, end: int) -> bool:
        """The mention ``p[start:end]`` is stated: not asked (its sentence ends with ``?``),
        not negated, not an operand, not one item of a list of numbers or names (what
        ``_NEGATED_BEFORE.search(p[s:start])`` and the rest find in its sentence ``[s, e)``)."""
        p = self.p
        n = len(p)
        s, e = self.bounds(end)
        if e < n and p[e] == "?":
            return False
        tail_end = e + 1 if e < n else n
        if start > s:  # what stands before the mention, read backwards from its start
            if self._reversed is None:
                self._reversed = p[::-1]
            if _NEGATED_BEFORE_REVERSED.match(self._reversed, n - start, n - s):
                return False
            if _OPERAND_BEFORE_REVERSED.match(self._reversed, n - start, n - s):
                return False
        if _NEGATED_AFTER_AT.match(p, end, tail_end) or _OPERAND_AFTER_AT.match(p, end, tail_end):
            return False
        return not self._in_list(s, e, start, end)

    def _in_list(self, s: int, e: int, start: int, end: int) -> bool:
        """``p[start:end]`` lies inside one of the lists (`_LIST`) of the sentence ``[s, e)``."""
        key = (s, e)
        if key not in self._lists:
            spans = _list_spans(self.p, s, e) if self.p.find(",", s, e) >= 0 else None
            self._lists[key] = None if spans is None else ([a for a, _ in spans],
                                                           [b for _, b in spans])  # fmt: skip
        found = self._lists[key]
        if found is None:
            return False  # every list has a comma
        starts, ends = found
        i = bisect_right(starts, start) - 1  # the last list starting at or before the mention
        return i >= 0 and end <= ends[i]


# Where a list can start: a number (`_NUM`) or a name (`_NAME`), the two branches of `_LIST`.
_LIST_START = re.compile(r"[-\d]|[a-z]")
_NUM_START = re.compile(r"[-\d]")
_NUM_RUN = re.compile(_NUM)
# The names a `_LIST` name branch chains by commas from a start, each as long as it can be (the
# path its greedy match takes): possessive, so it is read once.
_NAME_CHAIN = re.compile(
    r"[a-z][\w'-]*+(?: [a-z][\w'-]*+)?+(?:\s*+,\s*+[a-z][\w'-]*+(?: [a-z][\w'-]*+)?+)*+"
)


def _list_spans(p: str, s: int, e: int) -> list[tuple[int, int]]:
    """``[m.span() for m in _LIST.finditer(p, s, e)]``, without the attempts that cannot match.

    A failed `_LIST` attempt reads as far as its branch could reach, and `finditer` would try
    again one character later: over a long list that never closes (``a, b, c, ...`` with no
    "and"), every attempt reads to its end. Here a failed attempt rules out the next ones it
    proves fail: after a number (``12.5``) every start inside it (the same number, to the same
    end); after a name, every name start up to the end of its comma chain (each such attempt
    can only take a subset of the first one's paths: the same names and closings), except the
    second word of a last two-word name that a third word follows (from ``c`` in ``b c d``, a
    name is ``c d``); numbers inside those names (``x1, 2, 3``) are still tried.
    `tests/matching/test_v3_linear.py` compares the two.
    """
    spans: list[tuple[int, int]] = []
    pos = s
    names_fail_until = s  # a name starting before this cannot start a list
    while pos < e:
        if pos < names_fail_until:
            found = _NUM_START.search(p, pos, names_fail_until)
            if found is None:
                pos = names_fail_until
                continue
        else:
            found = _LIST_START.search(p, pos, e)
            if found is None:
                break
        at = found.start()
        m = _LIST.match(p, at, e)
        if m is not None:
            spans.append(m.span())
            pos = m.end()
        elif p[at] == "-" or p[at].isdecimal():
            run = _NUM_RUN.match(p, at, e)
            pos = at + 1 if run is None else run.end()
        else:
            chain = _NAME_CHAIN.match(p, at, e)
            assert chain is not None  # it opens with the [a-z] that `_LIST_START` found
            names_fail_until = chain.end()
            if _third_word_follows(p, names_fail_until, e):
                # from the last name's second word on, a name can take that third word, which
                # the attempt at `at` could not
                names_fail_until = p.rfind(" ", at, names_fail_until) + 1
            pos = at + 1
    return spans


def _third_word_follows(p: str, at: int, e: int) -> bool:
    """A word follows ``at`` (the end of a chain's last name) after one space: that name has
    two words (else it would have taken this one)."""
    return at + 1 < e and p[at] == " " and "a" <= p[at + 1] <= "z"


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
