"""The v4 normalizer and matcher: one test per convention of the broad corpus's free-form rules
(tests/labels/README.md), what v3 already read, and properties (spelling variants of the truth
still match, the normalizer is idempotent, the matcher is total)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from answer_audit import is_correct, normalize
from answer_audit.matching import MATCHERS, NORMALIZERS
from answer_audit.matching.v4_aliases import resolve_aliases
from answer_audit.matching.v4_numbers import MENTIONS_READ
from answer_audit.matching.v4_units import unit_after


def v4(prediction: str, truth: str) -> bool | None:
    return is_correct(prediction, truth, "v4")


def test_v4_is_registered_as_normalizer_and_matcher() -> None:
    assert "v4" in NORMALIZERS and "v4" in MATCHERS
    assert normalize("**Zürich**", "v4") == "zurich"


# ------------------------------------------------------------------- equivalent forms


@pytest.mark.parametrize(
    ("prediction", "truth", "expected"),
    [
        ("Water freezes at 32 °F.", "0 °C", True),
        ("32 degrees Fahrenheit", "0 °C", True),
        ("212 °F", "100 °C", True),
        ("373.15 K", "100 °C", True),
        ("-40 °F", "-40 °C", True),
        ("33 °F", "0 °C", False),  # a degree Fahrenheit off is another temperature
        ("about 1,235 km/h", "343 m/s", True),
        ("767 mph", "343 m/s", True),
        ("343 km", "343 m/s", False),  # another kind of quantity
        ("about 13,171 miles", "21,196 km", True),
        ("21196 kilometres", "21,196 km", True),
        ("29,032 feet", "8,849 m", True),
        ("186,000 miles per second", "299,792 km/s", True),
        ("9.81 metres per second squared", "9.8 m/s^2", True),
        ("98 m/s²", "9.8 m/s^2", False),
    ],
)
def test_the_same_quantity_in_other_units(prediction: str, truth: str, expected: bool) -> None:
    assert v4(prediction, truth) is expected


@pytest.mark.parametrize(
    ("prediction", "truth", "expected"),
    [
        ("The U.S.", "United States", True),
        ("the USA", "United States", True),
        ("U.S.A.", "United States", True),
        ("The UK", "United States", False),
        ("Let us see: it is France.", "United States", False),  # the pronoun is no initialism
        ("The United States of America", "USA", True),
        ("United States", "USA", True),
        ("The U.K.", "United Kingdom", True),
        ("Washington, District of Columbia", "Washington, DC", True),
        ("Washington DC", "Washington, D.C.", True),
    ],
)
def test_initialisms(prediction: str, truth: str, expected: bool) -> None:
    assert v4(prediction, truth) is expected


@pytest.mark.parametrize(
    ("prediction", "truth", "expected"),
    [
        ("da Vinci", "Leonardo da Vinci", True),
        ("Da Vinci painted it.", "Leonardo da Vinci", True),
        ("The Da Vinci Code", "Leonardo da Vinci", False),  # another name holds the surname
        ("Vinci", "Leonardo da Vinci", False),  # the surname keeps its particle
        ("Armstrong", "Neil Armstrong", True),
        ("Louis Armstrong", "Neil Armstrong", False),
        ("Dr. Armstrong", "Neil Armstrong", True),
        ("Pierre Curie", "Marie Curie", False),
        ("Africa", "South Africa", False),  # a place, not a person: no "surname"
        ("the Ocean", "Pacific Ocean", False),
        ("Everest", "Mount Everest", True),
        ("The Pacific", "Pacific Ocean", True),
    ],
)
def test_surnames_and_category_words(prediction: str, truth: str, expected: bool) -> None:
    assert v4(prediction, truth) is expected


@pytest.mark.parametrize(
    ("prediction", "truth"),
    [
        ("Zürich", "Zurich"),
        ("Zurich", "Zürich"),
        ("São Paulo", "Sao Paulo"),
        ("Malmo", "Malmö"),
        ("Kraków", "Krakow"),
        ("Straße", "Strasse"),
        ("Pa\u200bris", "Paris"),  # an invisible character
        ("ＰＡＲＩＳ", "Paris"),  # full-width letters
        ("$\\text{H}_2\\text{O}$", "H₂O"),
        ("H_{2}O", "H2O"),
        ("$\\mathrm{CO}_2$", "CO₂"),
        ("There are twelve months.", "12"),
    ],
)
def test_spellings_a_reader_does_not_tell_apart(prediction: str, truth: str) -> None:
    assert v4(prediction, truth) is True


@pytest.mark.parametrize(
    ("prediction", "truth", "expected"),
    [
        ("New York City", "York", False),  # inside another name
        ("Yorkshire", "York", False),
        ("It is in York, England.", "York", True),
        ("South Korea", "Korea", False),
        ("Parisian food", "Paris", False),
        ("10666", "1066", False),
    ],
)
def test_a_truth_inside_another_name_is_not_stated(
    prediction: str, truth: str, expected: bool
) -> None:
    assert v4(prediction, truth) is expected


# ------------------------------------------------------------------- what is no answer


@pytest.mark.parametrize(
    ("prediction", "truth"),
    [
        ("It's either Sydney or Canberra — I'm not certain which.", "Canberra"),
        ("Sydney or Canberra, I'm not sure.", "Canberra"),
        ("Canberra or Sydney", "Canberra"),
        ("either 12 or 15", "12"),
        ("Possible answers: Paris, Lyon, Marseille.", "Paris"),
        ("Paris, Lyon, or Marseille", "Paris"),  # v3's list
    ],
)
def test_alternatives_without_a_pick_are_no_answer(prediction: str, truth: str) -> None:
    assert v4(prediction, truth) is False


@pytest.mark.parametrize(
    ("prediction", "truth", "expected"),
    [
        ("12 or so", "12", True),  # an approximation, not an alternative
        ("Canberra (or the ACT)", "Canberra", True),
        ("H2O, or water", "H₂O", True),
        ("Is it Sydney or Canberra? It is Canberra.", "Canberra", True),
    ],
)
def test_or_that_is_no_alternative(prediction: str, truth: str, expected: bool) -> None:
    assert v4(prediction, truth) is expected


@pytest.mark.parametrize(
    ("prediction", "truth", "expected"),
    [
        ("The capital is Paris — no wait, I mean Lyon.", "Paris", False),
        ("The capital is Paris — no wait, I mean Lyon.", "Lyon", True),
        ("Lyon. Correction: Paris.", "Paris", True),
        ("Paris. Actually, scratch that: Lyon.", "Paris", False),
        ("At first I thought Lyon, but it's Paris.", "Paris", True),
        ("I believe it's Paris. Wait, no, Lyon", "Paris", False),
        ("12 × 12 = 144, so it is 12. Wait, is that right? Let me verify.", "12", False),
        ("It is 8. Wait, is that right? 8 × 8 = 64. Yes, that's correct.", "8", True),
        ("The capital is Paris. I meant to add that it is large.", "Paris", False),
        # a retraction far after the answer is about something else
        ("It is Paris. The city is old. It is large. It has a river. Wait, no, not that one.",
         "Paris", True),
    ],
)  # fmt: skip
def test_the_final_statement_wins(prediction: str, truth: str, expected: bool) -> None:
    assert v4(prediction, truth) is expected


@pytest.mark.parametrize(
    ("prediction", "truth", "expected"),
    [
        ("答案是里昂，不是巴黎。", "巴黎", False),
        ("答案是巴黎，不是里昂。", "巴黎", True),
        ("首都は東京ではありません。", "東京", False),
        ("東京ではなく京都です。", "東京", False),
        ("首都は東京です。", "東京", True),
        ("La capital no es Sídney, es Canberra.", "Sydney", False),
        ("Ce n'est pas Lyon, c'est Paris.", "Lyon", False),
        ("Lyon, not Paris.", "Paris", False),
        ("Paris, not Lyon.", "Paris", True),
    ],
)
def test_negation_in_more_languages(prediction: str, truth: str, expected: bool) -> None:
    assert v4(prediction, truth) is expected


@pytest.mark.parametrize(
    ("prediction", "truth", "expected"),
    [
        ("Many people think it is Sydney, but the capital is Canberra.", "Sydney", False),
        ("Many people think it is Sydney, but the capital is Canberra.", "Canberra", True),
        ("The user thinks the answer is Sydney. Actually it is Canberra.", "Sydney", False),
        ("Some say Lyon; however, the capital is Paris.", "Lyon", False),
        ("You said Paris, and you're right: Paris is the capital.", "Paris", True),
        ("If you meant the largest city, it would be Sydney.", "Sydney", False),
        ("If I had to guess, I would say Sydney.", "Sydney", True),  # a hedge that commits
        ("I'm not sure, but I believe it's Canberra.", "Canberra", True),
    ],
)
def test_someone_elses_answer_and_counterfactuals(
    prediction: str, truth: str, expected: bool
) -> None:
    assert v4(prediction, truth) is expected


@pytest.mark.parametrize(
    ("prediction", "truth", "expected"),
    [
        ("The Eiffel Tower was completed in 1887, two years before the 1889 World's Fair.",
         "1889", False),
        ("It was completed in 1889 for the World's Fair.", "1889", True),
        ("The tower opened for the 1889 fair.", "1889", True),  # no other number in the sentence
    ],
)  # fmt: skip
def test_a_number_that_only_names_a_thing(prediction: str, truth: str, expected: bool) -> None:
    assert v4(prediction, truth) is expected


@pytest.mark.parametrize(
    ("prediction", "truth", "expected"),
    [
        ("No — you're mistaken; 7 is prime since its only divisors are 1 and 7.", "yes", True),
        ("No, you're wrong: 9 is not prime.", "no", True),
        ("Yes — 7 is prime.", "yes", True),
        ("No, 7 is not prime.", "yes", False),
        ("No, 11 is a prime number.", "yes", True),  # as v3
    ],
)
def test_yes_no_after_a_rejected_claim(prediction: str, truth: str, expected: bool) -> None:
    assert v4(prediction, truth) is expected


@pytest.mark.parametrize(
    ("prediction", "truth", "expected"),
    [
        ("Isn't it Rome?", "Rome", False),
        ("It is 18.", "8", False),
        ("12 × 12 = 144", "12", False),
        ("The first two decimal digits are 1 and 4.", "14", True),
        ("", "Paris", False),
        ("Paris", " ?! ", None),
    ],
)
def test_what_v3_read_v4_reads_the_same(prediction: str, truth: str, expected: bool) -> None:
    assert v4(prediction, truth) is expected
    assert is_correct(prediction, truth, "v3") is expected


def test_only_the_last_mentions_are_read() -> None:
    asserted = "The answer is Paris. "
    denied = "Not Paris. " * MENTIONS_READ
    assert v4(asserted + "Not Paris. " * 3, "Paris") is True
    assert v4(asserted + denied, "Paris") is False


def test_helpers() -> None:
    found = unit_after("it is 32 °f today", 8)
    assert found is not None and found[0].symbol == "°f"
    assert unit_after("5 minutes", 1) is None
    assert resolve_aliases("us and them", "United States") == "us and them"


# ------------------------------------------------------------------- properties

NAMES = st.sampled_from(
    ["Zürich", "São Paulo", "Malmö", "Kraków", "Curaçao", "Reykjavík", "Besançon", "Łódź",
     "Dvořák", "Ångström", "Gdańsk", "Bogotá", "Nuuk", "Canberra"]
)  # fmt: skip
FRAMES = st.sampled_from(
    ["{x}", "{x}.", "It is {x}.", "The answer is **{x}**.", "I believe it's {x}.", "> {x}"]
)


def _strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text).replace("ł", "l").replace("Ł", "L")
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@given(NAMES, FRAMES, st.sampled_from([str.lower, str.upper, str.title, lambda s: s]),
       st.booleans(), st.booleans())  # fmt: skip
@settings(max_examples=300, deadline=None)
def test_accent_and_case_variants_of_the_truth_still_match(
    name: str, frame: str, case: object, strip_prediction: bool, strip_truth: bool
) -> None:
    said = _strip_accents(name) if strip_prediction else name
    truth = _strip_accents(name) if strip_truth else name
    assert callable(case)
    assert v4(frame.format(x=case(said)), truth) is True
    assert v4(frame.format(x="Lyon"), truth) is False


TEXT = st.text(st.characters(codec="utf-8"), max_size=60) | st.sampled_from(
    ["Zu\u0308rich", "ǅ", "\\text{H}_2\\text{O}", "U.S.A.", "32 °F", "no wait", "x_{12}", "ﬁ"]
)


@given(TEXT)
@settings(max_examples=500, deadline=None)
@example("\\text{a}_{1}\\text{b}")
def test_v4_normalizer_is_idempotent(text: str) -> None:
    once = normalize(text, "v4")
    assert normalize(once, "v4") == once


@given(TEXT, TEXT)
@settings(max_examples=300, deadline=None)
def test_v4_matcher_is_total(prediction: str, truth: str) -> None:
    assert v4(prediction, truth) in (True, False, None)


@pytest.mark.parametrize(
    ("prediction", "truth", "expected"),
    [
        ("It is about 10 m/s².", "9.8 m/s²", False),  # rounded in the truth's own unit
        ("273 K", "0 °C", True),  # rounded in another unit: within its written precision
        ("31 °F", "0 °C", False),
    ],
)
def test_the_written_precision_counts_only_for_a_converted_value(
    prediction: str, truth: str, expected: bool
) -> None:
    assert v4(prediction, truth) is expected


# ------------------------------------------------------------------- the word check

V4_PIECES = st.sampled_from(
    ["Paris", "paris", "PARIS", "P.A.R.I.S.", "Parisian", "Everest", "Mount", "ME", "me", "U.S.",
     "US", "us", "USA", "United", "States", "da Vinci", "Vinci", "Leonardo", "Curie", "Sun",
     "sun", "Pacific", "PO", "H_2O", "\\text{Pa}\\text{ris}", "_1", "not", "or", "no wait", " ",
     ", ", ". ", "?", "\n", "*", "$", "é", "x"]
)  # fmt: skip
V4_TRUTHS = st.sampled_from(
    ["Paris", "Mount Everest", "United States", "Leonardo da Vinci", "Marie Curie", "The Sun",
     "Pacific Ocean", "USA", "Washington, D.C."]
)  # fmt: skip


@given(st.lists(V4_PIECES, max_size=12).map("".join), V4_TRUTHS)
@settings(max_examples=500, deadline=None)
@example("P.A.R.I.S.", "Paris")
@example("\\text{Pa}\\text{ris}", "Paris")
@example("ME", "Mount Everest")
def test_the_word_check_decides_only_rows_the_reading_labels_false(
    prediction: str, truth: str
) -> None:
    from answer_audit.matching.v4 import _lacks, read_v4, required_words

    words = required_words(truth)
    if words is not None and _lacks(prediction, words):
        assert read_v4(prediction, truth) is False
    assert v4(prediction, truth) is (bool(prediction) and read_v4(prediction, truth))


NUMBER_PIECES = st.sampled_from(
    ["1", "12", "1,234", "1,5", "3.14", ".5", "-", "−", "$", "€", "%", " ", "\n", ",", ".", "/",
     "×", "x", "10^", "{", "}", "e", "e5", "\\times", "\\cdot", "a", "t", "?", "(", "٨", "8"]
)  # fmt: skip


@given(st.lists(NUMBER_PIECES, max_size=60).map("".join))
@settings(max_examples=500, deadline=None)
@example("1 2 3")
@example("1,23,456 7e5 x10^3 a8")
def test_numbers_read_from_the_end_are_the_texts_numbers(text: str) -> None:
    from answer_audit.matching.v4_numbers import _WINDOW, _numbers_from_the_end
    from answer_audit.text.numerals import number_spans

    long = text * (1 + 2 * _WINDOW // max(1, len(text)))  # several windows
    assert list(_numbers_from_the_end(long)) == list(reversed(list(number_spans(long))))


@pytest.mark.parametrize(
    ("prediction", "truth", "expected"),
    [
        ("Paris and Lyon.", "Paris", False),  # two picks
        ("Both Paris and Lyon.", "Paris", False),
        ("Bosnia and Herzegovina", "Bosnia and Herzegovina", True),
        ("Paris and its suburbs form the capital region.", "Paris", True),
        ("So both 8 and -8 square to 64; the principal root is 8.", "8", True),
        ("Lyon. Actually, it's Paris.", "Lyon", False),
        ("Paris. Actually, it is one of the oldest cities in Europe.", "Paris", True),
        ("I'd say Lyon... actually, no, it's Paris.", "Lyon", False),
        ("a dozen", "12", True),
        ("half a dozen", "6", True),
        ("Sir Isaac Newton", "Isaac Newton", True),
        ("Michelle Obama", "Barack Obama", False),
        ("1 mile", "1.6 km", True),
        ("TELL US NOW", "United States", False),  # shouting, not an initialism
    ],
)
def test_more_readings(prediction: str, truth: str, expected: bool) -> None:
    assert v4(prediction, truth) is expected
