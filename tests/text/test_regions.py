import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from answer_audit import normalize, strip_think, truncate_at_markers
from answer_audit.matching.v1_v2 import SUB_SUPER_FROM, SUB_SUPER_TO
from answer_audit.parsers.presets.freeform import V2_MARKERS
from answer_audit.text.offsets import nfkc_lower_with_map
from answer_audit.text.vocabulary import TURN_MARKERS as V1_MARKERS


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("no tags here", "no tags here"),
        ("reasoning</think>  Paris", "Paris"),
        ("a</think>b</THINK>\n  final ", "final "),
        ("<think>x</think>", ""),
        ("</Think>Rome", "Rome"),
    ],
)
def test_strip_think_keeps_text_after_last_closing_tag(text: str, expected: str) -> None:
    assert strip_think(text) == expected


@pytest.mark.parametrize(
    ("text", "markers", "case_sensitive", "expected"),
    [
        ("Paris.\nUSER: and Rome?", V1_MARKERS, True, "Paris."),
        ("Paris.\nuser: and Rome?", V1_MARKERS, True, "Paris.\nuser: and Rome?"),
        ("Paris.\nuser: and Rome?", V2_MARKERS, False, "Paris."),
        # a marker at position 0 does not count; the next occurrence does
        ("Question: what?\nParis\nQuestion: next", V1_MARKERS, True, "Question: what?\nParis"),
        # earliest of several markers wins
        ("A Passage: x USER: y", V1_MARKERS, True, "A"),
        # the cut leaves only whitespace -> first non-empty line
        ("  \nUSER: hello\nthere", ["USER:"], True, "USER: hello"),
        ("", V1_MARKERS, True, ""),
    ],
)
def test_truncate_at_markers(
    text: str, markers: tuple[str, ...], case_sensitive: bool, expected: str
) -> None:
    assert truncate_at_markers(text, markers, case_sensitive) == expected


@pytest.mark.parametrize(
    ("text", "v1", "v2"),
    [
        ("  The U.S. (mainland)!  ", "the u s mainland", "the us mainland"),
        ("Washington, D.C.", "washington d c", "washington dc"),
        ("H₂O and x²", "h₂o and x²", "h2o and x2"),
        ("**Paris**", "**paris**", "paris"),
        ("`code`_~", "`code`_~", "code"),
        ("'quoted' [a] {b}", "quoted a b", "quoted a b"),
        ("tabs\t\tand\nlines", "tabs and lines", "tabs and lines"),
        ("", "", ""),
    ],
)
def test_normalizers(text: str, v1: str, v2: str) -> None:
    assert normalize(text, "v1") == v1
    assert normalize(text, "v2") == v2


def test_unknown_normalizer_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown normalizer 'v9'"):
        normalize("x", "v9")


def test_nfkc_map_points_back_into_the_original() -> None:
    text = "回答（1文字のみ）: ３ ﬁ Ⅳ"
    norm, origin = nfkc_lower_with_map(text)
    assert origin is not None
    three = norm.index("3")
    assert text[slice(*origin.span(three, three + 1))] == "３"
    fi = norm.index("fi")
    assert text[slice(*origin.span(fi, fi + 1))] == "ﬁ"  # one char of an expansion -> whole piece
    norm, origin = nfkc_lower_with_map("Answer: ⒝")
    assert origin is not None and norm.endswith("(b)")
    assert origin.span(len(norm) - 2, len(norm) - 1) == (8, 9)


def _reference_map(text: str) -> tuple[list[int], list[int]] | None:
    """The per-base-character construction, written out plainly."""
    import unicodedata

    whole = unicodedata.normalize("NFKC", text).lower()
    if unicodedata.normalize("NFKC", text) == text and len(whole) == len(text):
        return list(range(len(text))), list(range(1, len(text) + 1))  # the identity shortcut
    pieces: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    start = 0
    for i in range(1, len(text) + 1):
        if i == len(text) or unicodedata.combining(text[i]) == 0:
            chunk = text[start:i]
            piece = unicodedata.normalize("NFKC", chunk).lower()
            pieces.append(piece)
            if piece == chunk:
                starts += range(start, i)
                ends += range(start + 1, i + 1)
            else:
                starts += [start] * len(piece)
                ends += [i] * len(piece)
            start = i
    return (starts, ends) if "".join(pieces) == whole else None


@given(
    st.text(alphabet=st.sampled_from("aBｃ３回答：ﬁ①Ⅳİ ㍿\u0301\u3099が\nﷺ\ud800\U0001d400\u0345"))
)
@example("B\u3099")  # NFKC keeps it, lower() changes B: the identity map, not the whole piece
def test_offset_map_matches_the_plain_construction(text: str) -> None:
    norm, origin = nfkc_lower_with_map(text)
    expected = _reference_map(text)
    if origin is None:
        assert expected is None
        return
    assert expected is not None
    for i in range(len(norm)):
        assert origin.span(i, i + 1) == (expected[0][i], expected[1][i])


# The frozen v1/v2 normalizers as first written (regex passes), the reference for the
# translate-table versions.
_REF_V1_PUNCT = re.compile(r"[.,;:!?'\"()\[\]{}]")
_REF_V2_PUNCT = re.compile(r"[.,;:!?'\"()\[\]{}*_`~]")
_REF_SPACE = re.compile(r"\s+")


def _reference(text: str, version: str) -> str:
    if version == "v1":
        text = _REF_V1_PUNCT.sub(" ", text.lower().strip())
    else:
        text = text.lower().strip().translate(str.maketrans(SUB_SUPER_FROM, SUB_SUPER_TO))
        text = re.sub(r"\b(?:[a-z]\.)+[a-z]\b", lambda m: m.group(0).replace(".", ""), text)
        text = _REF_V2_PUNCT.sub(" ", text)
    return _REF_SPACE.sub(" ", text).strip()


@settings(max_examples=500)
@given(st.text(alphabet=st.sampled_from(
    [*"aZus.,;:!?'\"()[]{}*_`~ \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u2028\u3000₂²İ"]
)))  # fmt: skip
def test_v1_and_v2_equal_their_regex_reference(text: str) -> None:
    assert normalize(text, "v1") == _reference(text, "v1")
    assert normalize(text, "v2") == _reference(text, "v2")
