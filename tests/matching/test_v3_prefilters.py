"""The cheap checks that let the v3 rules skip regex passes never skip a pass that would match.

Each check is a necessary condition: when it says "no", none of the patterns it guards can
match. These properties are what keeps the frozen presets' results unchanged by the checks.
"""

import re

from hypothesis import example, given
from hypothesis import strategies as st

from answer_audit.matching.v3_normalizer import (
    _COMMA_DIGIT,
    _DOT_LETTER,
    _DOTTED_ABBREVIATION_WITH_FINAL_DOT,
    _NUMBER_WORDS,
    _ONES,
    _SCALES,
    _TENS,
    _THOUSANDS,
    _UNIT_PATTERNS,
)
from answer_audit.parsers.freeform import _CUT_KEYWORDS, _may_hold
from answer_audit.text.vocabulary import TURN_PATTERNS as V3_CUTS
from strategies import CUT_PIECES, UNIT_PIECES

CUTS = [re.compile(p, re.MULTILINE) for p in V3_CUTS]


@given(st.lists(CUT_PIECES, max_size=25).map("".join))
@example("Great answer. User: next")
@example("\n**Ai**:")
@example("ſpeaker 1:")
def test_cut_keywords_are_a_necessary_condition(region: str) -> None:
    if any(p.search(region) for p in CUTS):
        assert _may_hold(region, *_CUT_KEYWORDS[V3_CUTS])  # the v3 turn patterns' gate


@given(st.lists(UNIT_PIECES, max_size=20).map("".join))
@example("9.8 meters per second squared")
@example("3 kilometres per second")
@example("something per second")
@example("3 ms^-2")
def test_unit_keys_are_a_necessary_condition(text: str) -> None:
    for pattern, _, keys in _UNIT_PATTERNS:
        if pattern.search(text):
            assert any(all(word in text for word in key) for key in keys), pattern.pattern


@given(st.lists(UNIT_PIECES, max_size=20).map("".join))
@example("3 kilometres per second and 2 m/s")
@example("5 kps, 20 percent")
def test_unit_rewrites_read_their_gates_from_one_set(text: str) -> None:
    from answer_audit.matching.v3_normalizer import _rewrite_units

    expected = text  # every pattern in turn, each gated on the text the ones before left
    for pattern, symbol, keys in _UNIT_PATTERNS:
        if any(all(word in expected for word in key) for key in keys):
            expected = pattern.sub(symbol, expected)
    assert _rewrite_units(text) == expected


@given(
    st.lists(
        st.sampled_from(["a", "b", "z", ".", ",", "1", "23", "456", "7890", " ", "é", "\n"]),
        max_size=20,
    ).map("".join)
)
@example("u.s.")
@example("1,000")
def test_dot_and_comma_gates_are_necessary_conditions(text: str) -> None:
    if _DOTTED_ABBREVIATION_WITH_FINAL_DOT.search(text):
        assert _DOT_LETTER.search(text)
    if _THOUSANDS.search(text):
        assert _COMMA_DIGIT.search(text)


WORD_PIECES = st.sampled_from(
    ["one", "seven", "seventeen", "seventy", "six", "sixteen", "sixty", "four", "fourteen", "forty",
     "eight", "eighteen", "eighty", "nine", "nineteen", "ninety", "ten", "hundred", "thousand",
     "million", "billion", "and", "zero", "twelve", "a", "s", "teen", "ty", " ", "-", "  and ", "\n",
     "x", "0", "_", "é"]
)  # fmt: skip


@given(st.lists(WORD_PIECES, max_size=20).map("".join))
@example("seventeen hundred and six")
@example("sixty-four")
@example("eighteenth")
def test_number_word_trie_equals_the_longest_first_alternation(text: str) -> None:
    def spans(pattern: re.Pattern[str]) -> list[tuple[int, int]]:
        return [m.span() for m in pattern.finditer(text)]

    word = "|".join(sorted([*_ONES, *_TENS, *_SCALES], key=len, reverse=True))  # longest first
    reference = re.compile(rf"\b(?:{word})(?:(?:[\s-]+|\s+and\s+)(?:{word}))*\b")
    assert spans(_NUMBER_WORDS) == spans(reference)


@given(st.text(alphabet=st.sampled_from("ab c\n1_é回。：Ｂ ,-"), max_size=30))
def test_enough_words_is_a_count_of_word_characters(text: str) -> None:
    from answer_audit.parsers.choice_statements import _ENOUGH_WORDS, _REASON_MIN_CHARS

    assert (_ENOUGH_WORDS.match(text) is not None) == (
        len(re.findall(r"\w", text)) >= _REASON_MIN_CHARS
    )


V3_PIECES = st.sampled_from(
    ["Paris", "paris", "PARIS", "p.a.r.i.s.", "P.A.R.I.S", "Pa**ris", "Pa ris", "Par\\text{is}",
     "Nile", "nile river", "Pacific", "The Pacific Ocean", "Washington", "D.C.", "U.S.", "us",
     "heart", "Heart", "kilometers per second", "km/s", "5kilometers per second", "°C", "celsius",
     "one", "seven", "eight", "8", "twelve", "12", " ", "\n", ".", ",", "?", "not ", "isn't ",
     "Is it ", "$", "\\frac{a}{b}", "~", "_", "*", "#", "é", "Ｐａｒｉｓ", "ſ", "K", "İ", "state",
     "m/s", "mi/s", "c", "s", "a", "the "]
)  # fmt: skip
V3_TRUTHS = st.sampled_from(
    ["Paris", "The Nile River", "Pacific Ocean", "Washington, D.C.", "U.S.", "Heart", "km/s",
     "C", "state of war", "8", "Yes", "No", "", "H2O", "Seven Seas", "mi", "é", "PARIS"]
)  # fmt: skip


@given(st.lists(st.tuples(st.one_of(st.none(), st.lists(V3_PIECES, max_size=12).map("".join)),
                          st.one_of(st.none(), V3_TRUTHS)), min_size=1, max_size=10))  # fmt: skip
@example([("Pa ris", "Paris"), ("p.a.r.i.s.", "Paris"), ("kilometers per second", "km/s"),
          ("PARIS is", "Paris"), ("", "Paris"), (None, "Paris"), ("Ｐａｒｉｓ", "Paris")])  # fmt: skip
def test_v3_labels_with_the_word_check_equal_the_row_rules(
    rows: list[tuple[str | None, str | None]],
) -> None:
    import polars as pl

    from answer_audit.matching import is_correct
    from answer_audit.schemes.correctness import label_column

    values = pl.Series([v for v, _ in rows], dtype=pl.String)
    truths = pl.Series([t for _, t in rows], dtype=pl.String)
    expected = [is_correct(v, t, "v3") for v, t in rows]
    assert label_column(values, truths, "freeform", "v3").to_list() == expected


def test_the_word_check_decides_only_plain_ascii_rows_without_the_word() -> None:
    import polars as pl

    from answer_audit.schemes.correctness import _v3_word_absent

    values = pl.Series(["It is Rome.", "It is Paris.", "p.a.r.i.s", "Ｐａｒｉｓ", None, "It is 8."])
    truths = pl.Series(["Paris", "Paris", "Paris", "Paris", "Paris", "8"])
    absent = _v3_word_absent(values, truths)
    assert absent is not None
    assert absent.to_list() == [True, False, False, False, False, False]
