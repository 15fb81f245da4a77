"""The v3 matcher reads a text of many mentions in linear time, with the results of its first,
quadratic reading: each mention searched its sentence from the text's start, slices of the
sentence were copied and searched for `$`-anchored cues, and `finditer` retried a list that
never closes from every character of it. These tests compare the two readings.
"""

from __future__ import annotations

import re
from fractions import Fraction

from hypothesis import example, given, settings
from hypothesis import strategies as st

from answer_audit.matching import v3
from answer_audit.matching.v3_normalizer import canonical_v3, normalize_v3
from answer_audit.text.numerals import close_enough, find_numbers, number_spans

# Pieces that make sentences, negations, operands, lists (numbers, names, closings), digit
# lists and the characters on which `\s`, `\d` and `\w` differ from ASCII.
_PIECES = st.sampled_from(
    ["8", "9", "1", "4", "14", "16/2", "8.0", "-8", "$8", "8%", "1,000", "1.5", " ", "  ", "\t",
     "\u3000", "\x1c", ",", ", ", ".", "!", "?", "\n", "not ", "n't ", "never ", "instead of ",
     "rather than ", "no longer ", "the ", "a ", "an ", "exactly ", "just ", " and ", " or ",
     "and ", "or ", "etc", "x", " x ", "×", "*", "+", "-", "/", "(", ")", "times ", "plus ",
     "multiplied by ", "divided by ", " is not", " isn't", " is ", " was wrong", "squared", "^",
     "paris", " rome", "band", "for", "digits", " decimal", "é", "٣", "'", "eight", "1 and 4",
     "&", "Yes", "No", "yes.", "no,"]
)  # fmt: skip
_TRUTHS = st.sampled_from(["8", "14", "Paris", "paris rome", "8.0", "yes", "no", "1.5", "x", "16"])


# ------------------------------------------------------------ the first reading, kept here


def _reference_bounds(p: str, start: int) -> tuple[int, int]:
    before = [m.end() for m in v3._SENTENCE_END.finditer(p, 0, start)]
    after = v3._SENTENCE_END.search(p, start)
    return (before[-1] if before else 0), (after.start() if after else len(p))


def _reference_asserted(p: str, start: int, end: int) -> bool:
    s, e = _reference_bounds(p, end)
    if e < len(p) and p[e] == "?":
        return False
    head, tail = p[s:start], p[end : e + 1]
    if v3._NEGATED_BEFORE.search(head) or v3._NEGATED_AFTER.match(tail):
        return False
    if v3._OPERAND_BEFORE.search(head) or v3._OPERAND_AFTER.match(tail):
        return False
    if p.find(",", s, e) < 0:
        return True
    return not any(m.start() <= start and end <= m.end() for m in v3._LIST.finditer(p, s, e))


def _reference_digit_list(p: str, digits: str) -> list[tuple[int, int]]:
    def about_digits(start: int) -> bool:
        s, e = _reference_bounds(p, start)
        return re.search(r"\b(?:digits?|decimals?)\b", p[s:e]) is not None

    sep = r"\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)"
    pattern = re.compile(r"(?<!\d)(?<!\d\.)" + sep.join(digits) + r"(?!\d|\.\d|\s*,\s*\d)")
    found = [m.span() for m in pattern.finditer(p) if about_digits(m.start())]
    for n in find_numbers(p):
        text = p[n.start : n.end]
        if "." in text and text.split(".")[1] == digits and about_digits(n.start):
            found.append((n.start, n.end))
    return found


def _reference_match(prediction: str, truth: str) -> bool | None:
    g = normalize_v3(truth)
    if not g:
        return None
    p = canonical_v3(prediction)
    if not p.strip():
        return False
    if g in ("yes", "no"):
        return v3._polarity(p) == g
    value, unit = v3._number_truth(truth)
    if value is None:
        mentions = list(v3._mentions(p, truth, g))
    else:  # every number read, none ruled out by a gate
        rel_tol = v3.REL_TOL_V3 if "." in g or unit is not None else 0.0
        mentions = []
        for v, start, end in number_spans(p):
            said = v3._UNIT.match(p, end) if unit is not None else None
            if said is not None and said.group(1) != unit:
                if said.group(1) not in v3._TO_SI or unit not in v3._TO_SI:
                    continue
                v = v * v3._TO_SI[said.group(1)] / v3._TO_SI[unit]
            if v == value or (rel_tol and close_enough(v, value, rel_tol)):
                mentions.append((start, end))
        if value.denominator == 1 and 10 <= value <= 99999:
            mentions += _reference_digit_list(p, str(value.numerator))
    return any(_reference_asserted(p, s, e) for s, e in mentions)


# ------------------------------------------------------------------------ comparisons


@settings(max_examples=3000)
@given(st.lists(_PIECES, max_size=30).map("".join), _TRUTHS)
@example("not 8, not 8, 8", "8")
@example("8 paris, rome, paris and x", "8")
@example("the digits are 1 and 4.", "14")
@example("x.8", "8")
def test_the_linear_reading_matches_the_first(text: str, truth: str) -> None:
    assert v3.match_v3(text, truth) == _reference_match(text, truth)


_LIST_PIECES = st.sampled_from(
    ["a", "b", "x1", "1", "2", "-", ".", ",", ", ", " ", "  ", "and ", " and ", "or ", " or ",
     "etc", "etc.", "'", "é", "٣", "1.5", "-3", "paris", " rome", "foo-bar", "\n", "8", "band",
     "for", "Z", "_", "\t"]
)  # fmt: skip


@settings(max_examples=3000)
@given(st.lists(_LIST_PIECES, max_size=40).map("".join), st.data())
@example("r or etc'2,for for", None)  # from "or", a name takes the word "r or" could not
@example("x1, 2, 3", None)  # a list of numbers inside a chain of names
def test_lists_are_the_lists_finditer_finds(text: str, data: st.DataObject | None) -> None:
    s, e = 0, len(text)
    if data is not None:
        s = data.draw(st.integers(0, len(text)))
        e = data.draw(st.integers(s, len(text)))
    assert v3._list_spans(text, s, e) == [m.span() for m in v3._LIST.finditer(text, s, e)]


@settings(max_examples=2000)
@given(st.lists(_PIECES, max_size=20).map("".join))
def test_reversed_cues_find_what_the_anchored_search_finds(head: str) -> None:
    head = head.replace("\n", " ")  # a sentence holds no line break before a mention
    text = head + "8"
    n, start = len(text), len(head)
    back = text[::-1]
    for s in range(start + 1):
        for forward, backward in (
            (v3._NEGATED_BEFORE, v3._NEGATED_BEFORE_REVERSED),
            (v3._OPERAND_BEFORE, v3._OPERAND_BEFORE_REVERSED),
        ):
            expected = forward.search(text[s:start]) is not None
            found = start > s and backward.match(back, n - start, n - s) is not None
            assert found == expected, (forward.pattern, text[s:start])


@settings(max_examples=1000)
@given(st.lists(_PIECES, max_size=12).map("".join), st.sampled_from([0, 8, 12, 125, -8]))
@example("16/2", 8)
@example("1,000/8", 125)
@example("16.00/2", 8)
@example("-16/2", -8)
@example("\\frac{1}{2} 1/2", 0)
def test_ruling_out_a_fraction_loses_no_mention(text: str, n: int) -> None:
    found = v3._read_number_mentions(text, Fraction(n), None, False)
    if text.isascii() and not v3._may_state_integer(text, n):
        assert found == []
