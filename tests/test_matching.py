import pytest

from answer_audit import is_correct


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
