"""Property tests: no public text function raises on any str, and results are deterministic."""

from hypothesis import given, settings
from hypothesis import strategies as st

from answer_audit import (
    extract,
    extract_json_field,
    first_json_object,
    is_correct,
    list_parsers,
    normalize,
    strip_think,
    truncate_at_markers,
)
from answer_audit.text.vocabulary import TURN_MARKERS as V1_MARKERS

# Text biased toward the characters our rules react to, mixed with arbitrary unicode.
PIECES = st.sampled_from(
    [
        "</think>",
        "<think>",
        "Answer:",
        "回答：",
        "正解は",
        "USER:",
        "\nuser",
        "{",
        "}",
        '{"isup_grade":',
        "null",
        "a",
        "b",
        "3",
        "４",
        "Ｂ",
        "\n",
        " ",
        "u.s.",
        "H₂O",
        "```",
        "\x00",
        "\u2028",
    ]
)
TEXT = st.one_of(
    st.text(), st.lists(st.one_of(PIECES, st.text(max_size=5)), max_size=40).map("".join)
)


@given(TEXT)
def test_every_preset_total_and_deterministic(text: str) -> None:
    for name in list_parsers():
        first = extract(text, name)
        assert extract(text, name) == first
        if first.span is not None:
            assert 0 <= first.span[0] <= first.span[1] <= len(text)


@given(TEXT)
def test_region_rules_total(text: str) -> None:
    assert strip_think(text) == strip_think(text)
    assert truncate_at_markers(text, V1_MARKERS, True) == truncate_at_markers(
        text, V1_MARKERS, True
    )
    truncate_at_markers(text, [m.lower() for m in V1_MARKERS], False)
    first_json_object(text)
    extract_json_field(text, "isup_grade", null_as=0, allowed=range(6))


@given(TEXT)
def test_normalizers_idempotent(text: str) -> None:
    for version in ("v1", "v2"):
        once = normalize(text, version)
        assert normalize(once, version) == once


@given(TEXT, TEXT)
@settings(max_examples=2 * settings().max_examples)  # twice the loaded profile's count
def test_matcher_total_and_deterministic(prediction: str, truth: str) -> None:
    for version in ("v1", "v2"):
        result = is_correct(prediction, truth, version)
        assert result is is_correct(prediction, truth, version)
        assert result in (True, False, None)


def test_huge_input_does_not_raise() -> None:
    text = ("Answer: a </think> USER: {" * 20_000)[:500_000]
    for name in list_parsers():
        extract(text, name)
