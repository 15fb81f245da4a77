from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from answer_audit import is_correct
from answer_audit.matching import v3 as matching_v3


@pytest.mark.parametrize(
    ("prediction", "truth", "normalizer", "expected"),
    [
        ("It is 18.", "8", "v1", False),  # "8" never matches inside "18"
        ("It is 8.", "8", "v1", True),
        ("8", "8", "v1", True),
        ("eight (8)", "8", "v1", True),
        ("Paris, France", "Paris", "v1", True),
        ("Parisian food", "Paris", "v1", True),  # long truth: substring
        ("Parisian food", "rome", "v1", False),
        ("Washington, D.C.", "Washington D.C.", "v1", True),
        ("Washington DC", "Washington, D.C.", "v1", False),
        ("Washington DC", "Washington, D.C.", "v2", True),
        ("H₂O", "H2O", "v1", False),
        ("H₂O", "H2O", "v2", True),
        ("**Au**", "Au", "v1", True),
        ("12345", "2345", "v1", False),  # all digits: boundary-safe even when long
        ("No 12345 here", "12345", "v1", True),
        ("", "Paris", "v1", False),
        (None, "Paris", "v1", False),
        ("...", "Paris", "v1", False),
        ("Paris", None, "v1", None),
        ("Paris", " ?! ", "v1", None),
        ("c++", "c", "v1", True),
        ("the answer is a", "a", "v1", True),
    ],
)
def test_is_correct(
    prediction: str | None, truth: str | None, normalizer: str, expected: bool | None
) -> None:
    assert is_correct(prediction, truth, normalizer) is expected


def test_regex_metacharacters_in_truth_are_literal() -> None:
    assert is_correct("a+b", "a+b", "v1") is True
    assert is_correct("aab", "a+b", "v1") is False


_NUMBER_PIECES = st.sampled_from(
    ["1", "2", "4", "8", "0", " ", ",", ".", "/", "^", "e", "-", "$", "%", "and ", "digits ",
     "16/2", "0.8e1", "3e5", "8.00", "300,000", " x 10^", "not "]
)  # fmt: skip


@settings(max_examples=1000)
@given(st.lists(_NUMBER_PIECES, max_size=12), st.sampled_from([0, 8, 12, 14, 1000, 300000, -8]))
@example(["16", "/", "2"], 8)  # a fraction equal to the integer
@example(["3e5"], 300000)  # an exponent without the integer's digits
@example(["3", " x 10^", "5"], 300000)
@example(["300,000"], 300000)  # thousands separators
@example(["digits ", "1", " ", "and ", "4"], 14)  # a digit list
@example(["\u0668"], 8)  # an Arabic-Indic eight: read as 8, so only ASCII texts are ruled out
def test_ruling_out_an_integer_loses_no_mention(pieces: list[str], n: int) -> None:
    p = "".join(pieces)
    found = matching_v3._read_number_mentions(p, Fraction(n), None, False)
    if p.isascii() and not matching_v3._may_state_integer(p, n):
        assert found == []
    assert matching_v3._number_mentions(p, Fraction(n), None, False) == found
