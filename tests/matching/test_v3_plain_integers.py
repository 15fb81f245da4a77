"""The v3 matcher's fast reading of an integer truth in a text of plain integers
(`v3._plain_integer_mentions`) finds the mentions that reading every number finds, and the
mentions it leaves out as plainly negated are never asserted. These tests compare the fast
reading with the reading of every number (`v3._read_number_mentions`, `number_spans`) on
generated texts, the hostile floods among them (`not 8, ` over and over).
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import example, given, settings
from hypothesis import strategies as st

from answer_audit.matching import v3
from answer_audit.matching.v3_normalizer import canonical_v3

# Plain integers with signs and zeros, what may stand before them (negations with articles,
# words that end like one, other separators), and what makes a text not plain ($, %, /, ^,
# a decimal point, a grouping comma or an exponent beside a digit) so that both ways are taken.
_PIECES = st.sampled_from(
    ["8", "08", "0008", "-8", "+8", "--8", "+-8", "80", "18", "0", "00", "-0", "14", "014", "1",
     "4", "-14", "1 and 4", "digits ", " ", "  ", "\t", "\n", ",", ", ", ".", ". ", "!", "?",
     "not ", "not  ", "n't ", "can't ", "knot ", "never ", "instead of ", "rather than ",
     "no longer ", "the ", "a ", "an ", "exactly ", "actually ", "just ", "is not", " isn't",
     "x", "a", "é", "_", "'", "-", "+", "*", "=", " + ", " = ", "(", ")", "$", "%", "/", "^",
     "e", "e5", "1.5", ".8", "8.0", "1,000", "8,0"]
)  # fmt: skip
_INTEGERS = st.sampled_from([8, 0, -8, 14, -14, 1000, 80])


def _texts() -> st.SearchStrategy[str]:
    pieces = st.lists(_PIECES, max_size=24).map("".join)
    # a few pieces repeated, as in the hostile floods
    floods = st.tuples(st.lists(_PIECES, min_size=1, max_size=4).map("".join),
                       st.integers(1, 40)).map(lambda t: t[0] * t[1])  # fmt: skip
    return st.one_of(pieces, floods, st.tuples(pieces, floods).map("".join))


@settings(max_examples=3000)
@given(_texts(), _INTEGERS)
@example("not 8, " * 50, 8)
@example("8 or 9 " * 20, 8)
@example("0" * 1001 + "8 and 8", 8)  # a run of digits too long to be read
@example("-0 +0 0", 0)
@example("x-8 -8 .-8", 8)
@example("x-8 -8 .-8", -8)
def test_the_fast_reading_finds_every_mention(text: str, n: int) -> None:
    p = canonical_v3(text)
    expected = v3._read_number_mentions(p, Fraction(n), None, False)
    assert v3._number_mentions(p, Fraction(n), None, False) == expected
    if p.isascii() and not any(c in p for c in "$%/^") and v3._NOT_PLAIN.search(p) is None:
        assert list(v3._plain_integer_mentions(p, n, False)) == expected


@settings(max_examples=3000)
@given(_texts(), _INTEGERS)
@example("not 8, " * 50, 8)
@example("not 8, not the 8 8", 8)
@example("it is not 8.8", 8)
@example("never 8?", 8)
def test_a_mention_left_out_as_negated_is_not_asserted(text: str, n: int) -> None:
    p = canonical_v3(text)
    every = v3._read_number_mentions(p, Fraction(n), None, False)
    kept = list(v3._iter_number_mentions(p, Fraction(n), None, False, skip_negated=True))
    reading = v3._Reading(p)
    assert set(kept) <= set(every)
    assert not any(reading.asserted(s, e) for s, e in set(every) - set(kept))
    if p.strip():
        assert v3.match_v3(text, str(n)) == any(reading.asserted(s, e) for s, e in every)
