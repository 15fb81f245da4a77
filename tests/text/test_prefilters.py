"""The first-character guard finds exactly the matches of the pattern it guards."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from answer_audit import extract, list_parsers
from answer_audit.parsers import choice as choice_module
from answer_audit.parsers import choice_patterns
from answer_audit.parsers.presets.choice import CHOICE_V4
from answer_audit.text import prefilters as first_chars_module
from answer_audit.text.prefilters import (
    first_chars,
    guarded,
    may_match,
    needed_strings,
    original,
    scans_fast,
)
from strategies import CUT_PIECES, UNIT_PIECES


def _matches(
    pattern: re.Pattern[str], text: str
) -> list[tuple[tuple[int, int], tuple[object, ...]]]:
    """Every match of ``pattern`` in ``text``: span and groups (what a guard must keep)."""
    return [(m.span(), m.groups()) for m in pattern.finditer(text)]


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("ab|cd", "ac"),
        (r"(?<![0-9a-z])[0-9]+x", "09"),  # a lookbehind is skipped, not evaluated
        ("a?b", "ab"),
        (r"\bso|(?:it|is)'s", "is"),
        ("(?:x|)y", "xy"),  # an empty branch lets the next item start the match
        ("[b-dx]z", "bdx"),
        ("(?i:a)b", "Aa"),
    ],
)
def test_first_characters_of_a_pattern(pattern: str, expected: str) -> None:
    ranges = first_chars(pattern)
    assert ranges is not None
    assert "".join(chr(lo) + (chr(hi) if hi != lo else "") for lo, hi in ranges) == expected


def test_ignore_case_letters_take_every_spelling_re_accepts() -> None:
    from answer_audit.text.prefilters import _CASE_EXTRAS

    # every character `re` matches to an ASCII letter under IGNORECASE, by letter
    spellings: dict[str, set[int]] = {}
    any_letter = re.compile("(?i)[a-z]")
    for code in range(0x110000):
        if any_letter.match(chr(code)):
            for letter in "abcdefghijklmnopqrstuvwxyz":
                if re.match(f"(?i){letter}", chr(code)):
                    spellings.setdefault(letter, set()).add(code)
    for letter, codes in spellings.items():
        expected = {ord(letter), ord(letter.upper()), *_CASE_EXTRAS.get(letter, ())}
        assert codes == expected, letter
        ranges = first_chars(f"(?i:{letter})")
        assert ranges is not None and {lo for lo, _ in ranges} | {hi for _, hi in ranges} <= codes
    assert first_chars("(?i:é)") is None  # a non-ASCII letter under IGNORECASE: not reasoned
    assert first_chars("(?i:1)x") == [(49, 49)]


def test_class_escapes_stay_escapes() -> None:
    assert first_chars(r"[\d.]x|\s") == [(-1, 0), (-1, 2), (46, 46)]
    guarded_digits = guarded(re.compile(r"(?<!\w)\d+"))
    assert guarded_digits.pattern.startswith(r"(?=[\d])")


@pytest.mark.parametrize(
    "pattern",
    [
        "a*",
        "(?:a|b?)",
        r"x?\b",
        ".a",
        r"\Da",
        "[^a]b",
        r"\Sb",
        "(?i)a",
        "(?-i:a)b",
        r"(a)?(?(1)b|c)",
    ],
)
def test_no_set_when_unknown_or_empty_matches(pattern: str) -> None:
    assert first_chars(pattern) is None
    compiled = re.compile(pattern)
    assert guarded(compiled) is compiled


def test_patterns_that_re_already_skips_through_are_left_alone() -> None:
    for pattern in ("abc|x", "[0-9_]+x", "answer|回答"):
        compiled = re.compile(pattern)
        assert guarded(compiled) is compiled
    lookbehind = re.compile(r"(?<![a-z])(?:so|thus) ([abcd])")
    assert guarded(lookbehind) is not lookbehind
    assert guarded(lookbehind).groups == 1


# Pieces of real answers (and near misses) in the languages choice/v4 reads.
_PIECES = st.sampled_from(
    ["answer", "Answer: ", "回答", "：", ": ", "正解は", "答案是", "정답", "a", "b", "c", "d",
     "B", "(", ")", "（", "）", "\n", " ", "1", "2", "文字", "第", "条", " is correct", "so ",
     "ではない", "以外", "例: ", "question 2:", "**", "$", "\\boxed{", "}", "選択肢", "是正确",
     "Ａ", "e\u0301", "final: ", "i would choose ", "option ", ", ", " or ", "。", "x",
     "Answer: B", "正解は b", "the answer is c.", "So d.", "答案是A", "B is correct", "(c)",
     "回答（1文字のみ）: a", "I'd go with b", "**Answer:** C", "like ", "e.g. ", "%", " is not ",
     "(1) ", "1、2、3", "例えば", "は誤り", "does ", "問題1：", "Q: ", "for instance, ", "paris",
     "Rome", "madrid "]
)  # fmt: skip
_TEXTS = st.one_of(st.lists(_PIECES, max_size=40).map("".join), st.text(max_size=60))


@given(_TEXTS)
def test_guarded_v4_patterns_find_the_same_matches(text: str) -> None:
    norm = text.lower()
    letters = "abcd"
    for source in (*CHOICE_V4.steps[0].patterns, *CHOICE_V4.masks):
        plain = re.compile(source.replace("{L}", letters).replace("{D}", "1-4"))
        fast = guarded(plain)
        assert _matches(fast, norm) == _matches(plain, norm)


_NUMBERISH = st.lists(
    st.sampled_from(["1", "23", "4,567", ",", ".", "5", "-", "+", "−", "$", "€", " ", "%", "/",
                     "0", "e", "e-3", " × 10^", "\\frac{1}{2}", "x", "a", "١٢", "３", "\n"]),
    max_size=30,
).map("".join)  # fmt: skip


@given(st.one_of(_NUMBERISH, st.text(max_size=40)))
def test_the_guarded_number_pattern_finds_the_same_numbers(text: str) -> None:
    from answer_audit.text.numerals import _NUMBER
    from answer_audit.text.prefilters import original

    plain = original(_NUMBER)
    assert _NUMBER is not plain and _NUMBER.pattern != plain.pattern
    assert _matches(_NUMBER, text) == _matches(plain, text)


@given(st.lists(CUT_PIECES, max_size=25).map("".join))
def test_guarded_freeform_patterns_find_the_same_matches(text: str) -> None:
    from answer_audit.parsers.freeform import _compiled
    from answer_audit.text.prefilters import original
    from answer_audit.text.vocabulary import QUESTION_PATTERNS as V3_QUESTIONS
    from answer_audit.text.vocabulary import TURN_PATTERNS as V3_CUTS

    cuts, questions = _compiled(V3_CUTS, V3_QUESTIONS)
    assert any(original(p) is not p for p in cuts)  # some are guarded
    for fast in (*cuts, *questions):
        plain = original(fast)
        assert _matches(fast, text) == _matches(plain, text)


@given(st.lists(UNIT_PIECES, max_size=20).map("".join))
def test_guarded_unit_and_number_word_patterns_find_the_same_matches(text: str) -> None:
    from answer_audit.matching.v3_normalizer import _NUMBER_WORDS, _UNIT_PATTERNS
    from answer_audit.text.prefilters import original

    for fast in (_NUMBER_WORDS, *(pattern for pattern, _, _ in _UNIT_PATTERNS)):
        plain = original(fast)
        assert plain is not fast
        assert _matches(fast, text) == _matches(plain, text)


@given(_TEXTS)
def test_every_choice_preset_extracts_the_same_with_and_without_guards(text: str) -> None:
    presets = [name for name in list_parsers() if name.startswith("choice/")]
    guarded_out = [extract(text, name) for name in presets]
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(choice_module, "guarded", lambda pattern: pattern)
            choice_module._compile.cache_clear()
            plain_out = [extract(text, name) for name in presets]
    finally:
        choice_module._compile.cache_clear()
    assert guarded_out == plain_out


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"\b(?:for example|e\.g\.)\b|例", {"for example", "e.g.", "例"}),
        (r"(?:of|in) the form", {" the form"}),  # the longest run of literals wins
        (r"a*b", {"b"}),  # a repeat that may run zero times needs nothing
        (r"x+y?", {"x"}),
        (r"[ab]c|d", {"c", "d"}),  # a class of characters is a requirement too, if no better
        (r"(?:例|例え|例如)", {"例"}),  # a string holding another is dropped
        (r"(?<=z)\s*q", {"q"}),  # lookarounds hold no requirement of the match itself
    ],
)
def test_strings_every_match_holds(pattern: str, expected: set[str]) -> None:
    assert needed_strings(re.compile(pattern)) == frozenset(expected)


@pytest.mark.parametrize(
    "pattern", [r"(?i)abc", r"(?i:ab)c?", r"x?", r"\d+", r"[^a]", r".b?", r"a|\d"]
)
def test_no_strings_when_unknown(pattern: str) -> None:
    assert needed_strings(re.compile(pattern)) is None
    assert may_match(None, "")  # unknown: the pattern is always tried


def test_may_match_reads_non_ascii_strings_only_in_non_ascii_text() -> None:
    needs = frozenset({"例", "e.g."})
    assert may_match(needs, "see 例") and may_match(needs, "e.g. this")
    assert not may_match(needs, "for example") and not may_match(needs, "例え"[1:])


def _v4_patterns_with_needs() -> list[tuple[str, re.Pattern[str], frozenset[str]]]:
    compiled = choice_module._compile(CHOICE_V4, "abcd")
    rx = compiled.extras[0]
    assert rx is not None
    # (the engine skips the check for the masks `re` finds as fast: `scans_fast`)
    found = [
        (f"mask {i}", original(mask), needed_strings(mask)) for i, mask in enumerate(compiled.masks)
    ]
    found += [(name, getattr(rx, name), rx.needs[name]) for name in ("negation", "ignore", "stop")]
    found += [
        (f"pattern {i}", original(pattern), needs)
        for i, (pattern, needs) in enumerate(zip(rx.patterns, rx.pattern_needs, strict=True))
    ]
    return [(name, pattern, needs) for name, pattern, needs in found if needs is not None]


@pytest.mark.parametrize(("name", "pattern", "needs"), _v4_patterns_with_needs())
@given(data=st.data())
def test_every_match_holds_a_needed_string(
    name: str, pattern: re.Pattern[str], needs: frozenset[str], data: st.DataObject
) -> None:
    # texts made to match the pattern (hypothesis reads the regex), so a string missing from
    # the set shows up as a match that holds none of them
    text = data.draw(st.from_regex(pattern, fullmatch=False), label=name)
    for m in pattern.finditer(text):
        assert may_match(needs, m.group()), (name, m.group())


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"\n[ \t]*user:", True),  # a literal first: `re` skips to it like `str.find`
        (r"<\|(?:im_start|user)\|>", True),
        (r"<start_of_turn>|\[/?inst\]|</s>", True),  # literals, all marks: a fast class scan
        (r"[\[(（【][0-9]+[\])）】]", True),
        (r"[0-9_]+\s*(?:文字|字)", False),  # digits are common: checking the strings pays off
        (r"(?<![a-z])[abcd](?:\s*,\s*[abcd]){2,}", False),
        (r"user:|human:", False),  # letters first
        (r"(?i)<\|user", False),
        (r"\$+|\{", False),
    ],
)
def test_patterns_re_scans_as_fast_as_a_string_search(pattern: str, expected: bool) -> None:
    assert scans_fast(re.compile(pattern)) is expected


def test_choice_v4_cues_and_masks_have_needed_strings() -> None:
    # every mask but 第/条 numbers, every cue, and the 3 statement patterns
    assert len(_v4_patterns_with_needs()) == 10


@given(_TEXTS)
def test_every_choice_preset_extracts_the_same_with_and_without_skipping(text: str) -> None:
    presets = [name for name in list_parsers() if name.startswith("choice/")]
    options = ["paris", "rome", "berlin", "madrid"]  # choice/v4 also reads the options' text
    skipping = [extract(text, name) for name in presets]
    skipping.append(extract(text, "choice/v4", choices_text=options))
    try:
        with pytest.MonkeyPatch.context() as patch:
            for module in (choice_module, choice_patterns):
                patch.setattr(module, "needed_strings", lambda pattern: None)
            choice_module._compile.cache_clear()
            plain = [extract(text, name) for name in presets]
            plain.append(extract(text, "choice/v4", choices_text=options))
    finally:
        choice_module._compile.cache_clear()
    assert skipping == plain


@settings(max_examples=150)
@given(
    st.text(alphabet="abAB回答é\u0301\n ", max_size=40),
    st.frozensets(st.text(alphabet="ab回答é\u0301 ", min_size=1, max_size=3), min_size=1),
)
def test_the_one_pass_search_finds_what_substring_checks_find(
    text: str, needs: frozenset[str]
) -> None:
    assert first_chars_module._holds_any(text, needs) == any(n in text for n in needs)
    long = (
        text * (first_chars_module._ONE_PASS_FROM // max(len(text), 1) + 1) if text else "x" * 70000
    )
    assert may_match(needs, long) == any(n in long for n in needs)


def test_a_long_text_with_a_lone_surrogate_is_still_read() -> None:
    # the one-pass search hands the text to Polars as UTF-8, which a half emoji does not have
    long = "answer: b\n" + "x" * (first_chars_module._ONE_PASS_FROM + 10) + "\ud800"
    assert may_match(frozenset({"answer", "回答"}), long)
    assert not may_match(frozenset({"zzz", "回答"}), long)
    assert extract(long, "choice/v4").value == "b"
    cities = ["Paris", "Rome", "Berlin", "Madrid"]
    text = "The capital is Paris.\ud800" + " " * 70000
    assert extract(text, "choice/v4", choices_text=cities).value == "a"
