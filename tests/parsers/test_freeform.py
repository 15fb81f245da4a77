"""The free-form engines and presets: freeform/v1 and v2 (literal markers), then freeform/v3
(the answer region) with the v3 normalizer and matcher it is scored with, on realistic outputs
written for the test in the shapes seen in real runs."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from answer_audit import PresetSet, extract, is_correct, normalize
from answer_audit.schemes.apply import Scheme, default_schemes, parse_scheme

# ================================================================== freeform/v1 and v2


@pytest.mark.parametrize(
    ("parser", "text", "value", "rule"),
    [
        ("freeform/v1", "  Paris.\nUSER: and Rome?", "Paris.", "truncated-at-marker"),
        ("freeform/v1", "Paris.\nuser: and Rome?", "Paris.\nuser: and Rome?", "whole-text"),
        ("freeform/v1", "reasoning</think>Paris", "reasoning</think>Paris", "whole-text"),
        ("freeform/v2", "reasoning</think>Paris", "Paris", "after-think"),
        ("freeform/v2", "x</think> Paris\nuser: hi", "Paris", "truncated-at-marker"),
        ("freeform/v2", "Paris.\n\nQuestion: next?", "Paris.", "truncated-at-marker"),
        ("freeform/v2", "   ", "", "empty"),
        ("freeform/v2", "", "", "empty"),
        ("freeform/v2", "thinking only</think>   ", "", "empty"),
        ("freeform/v1", "Rome", "Rome", "whole-text"),
    ],
)
def test_freeform_presets(parser: str, text: str, value: str, rule: str) -> None:
    e = extract(text, parser)
    assert (e.value, e.rule) == (value, rule)
    if e.span is not None:
        assert text[e.span[0] : e.span[1]] == value


# ========================================================================= freeform/v3


def region(text: str) -> tuple[str, str]:
    e = extract(text, "freeform/v3")
    assert isinstance(e.value, str)
    if e.span is not None:
        assert text[e.span[0] : e.span[1]] == e.value
    return e.value, e.rule


# ----------------------------------------------------------------- new turns


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Paris\nUSER: What is the capital of Germany?\nASSISTANT: Berlin", "Paris"),
        ("Mount Everest\nuser: how tall is it?\nassistant: About 8,849 metres.", "Mount Everest"),
        (
            "Jupiter is the largest planet.\nUser\nWhat about the smallest one?",
            "Jupiter is the largest planet.",
        ),
        ("Canberra. User: thanks! Assistant: You're welcome.", "Canberra."),
        ("Berlin.\n\nHuman: And France?\n\nAssistant: Paris.", "Berlin."),
        ("Rome<|im_end|>\n<|im_start|>user\nAnd Spain?", "Rome"),
        ("Rome\n<|user|>\nAnd Spain?\n<|assistant|>\nMadrid", "Rome"),
        ("Tokyo\n\n### Instruction:\nName the capital of Korea.\n\n### Response:\nSeoul", "Tokyo"),
        ("1945\n\nQuestion: In what year did World War I end?\nAnswer: 1918", "1945"),
        ("Paris.\n\nQ: What is the capital of Italy?\nA: Rome", "Paris."),
        ("It is 4.\n\n\n\nPerson A: Hey, 2 + 2 is easy.\nPerson B: Sure.", "It is 4."),
        (
            "The capital is Rome.\n\n**Flashcard: Capitals of Europe**\n*Question 1:* ...",
            "The capital is Rome.",
        ),
        ("The answer is 9.Passage: The 2018 season was the club's 120th.", "The answer is 9."),
    ],
)
def test_cuts_at_the_start_of_a_new_turn_or_block(text: str, expected: str) -> None:
    assert region(text) == (expected, "truncated-at-marker")


@pytest.mark.parametrize(
    "text",
    [
        "Here is how I read your question:\n\n**Question:** What is 4 × 4?\n\n4 × 4 = 16, so the result is **16**.",
        "First, the question as you asked it.\n\nQuestion: What is the square root of 81?\n\n9 × 9 = 81, so it is 9.",
        "Based on your question: *What does Phobos orbit?* The answer is Mars.",
        "Reply in plain text. Question: What is the capital of Peru?\n\nOkay, so the capital of Peru is Lima.",
        "The best answer to that question: Paris.",
        "Python.\nUsers often prefer it for data science.",
        "A spider has eight legs: four on each side of its body, attached to the cephalothorax.",
    ],
)
def test_restated_questions_and_ordinary_words_are_not_new_turns(text: str) -> None:
    assert region(text) == (text, "whole-text")


# ----------------------------------------------------------------- reasoning


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Let me think. It is Paris.</think>\n\nParis", "Paris"),
        ("<reasoning>It is Paris.</reasoning> Paris", "Paris"),
        ("<|begin_of_thought|>hmm<|end_of_thought|>\nParis", "Paris"),
        ("<think>the answer is Venus</think >Venus", "Venus"),
        ("maybe Rome</THINK>Rome", "Rome"),
    ],
)
def test_text_after_the_last_reasoning_delimiter(text: str, expected: str) -> None:
    assert region(text) == (expected, "after-think")


def test_an_opened_and_never_closed_reasoning_block_has_no_answer() -> None:
    assert region("<think>Okay, the capital of Japan... Tokyo? Or was it") == ("", "unclosed-think")
    assert region("<reasoning>Paris, I think") == ("", "unclosed-think")
    # a closer cut short is no closer, and without an opener the whole text is the answer
    assert region("the answer is 8</think") == ("the answer is 8</think", "whole-text")


@pytest.mark.parametrize(
    ("text", "expected"),
    [("**Paris**", "Paris"), ("`H2O`", "H2O"), ("$\\boxed{12}$", "12"), ("__Berlin__", "Berlin"),
     ("\\(\\text{Rome}\\)", "Rome"), ("**Paris** and **Rome**", "**Paris** and **Rome**")],
)  # fmt: skip
def test_markdown_and_latex_wrappers_around_the_answer(text: str, expected: str) -> None:
    assert region(text)[0] == expected


# ------------------------------------------------------------------ normalizer


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("H₂O", "h2o"),
        ("It is **eight**.", "it is 8"),
        ("one hundred and five", "105"),
        ("twenty-one", "21"),
        ("299,792,458 meters per second", "299792458 m/s"),
        ("9.8 m/s²", "9.8 m/s2"),
        ("$9.8\\,\\text{m/s}^2$", "9.8 m/s2"),
        ("Washington, D.C.", "washington dc"),
        ("3.14", "3.14"),
    ],
)
def test_v3_normalizer(text: str, expected: str) -> None:
    assert normalize(text, "v3") == expected


# -------------------------------------------------------------------- matcher


@pytest.mark.parametrize(
    ("prediction", "truth", "expected"),
    [
        ("A spider has eight legs.", "8", True),
        ("The formula for water is H₂O.", "H2O", True),
        ("It is approximately 9.8 meters per second squared.", "9.8 m/s²", True),
        ("The standard value is 9.81 m/s².", "9.8 m/s²", True),
        ("It is about 10 m/s².", "9.8 m/s²", False),
        ("Light covers about 299,792,458 metres per second.", "300,000 km/s", True),
        ("Roughly 3 × 10^8 m/s.", "300,000 km/s", True),
        ("It is 150,000 km/s.", "300,000 km/s", False),
        ("The capital is Washington, D.C.", "Washington, D.C.", True),
        ("The Earth orbits the Sun.", "The Sun", True),
        ("It is the Pacific.", "Pacific Ocean", True),
        ("The first two decimal digits of e are 7 and 1.", "71", True),
        ("The first two decimal digits of e are 1 and 7.", "71", False),
        ("The answer is 711.", "11", False),
        ("It is 18.", "8", False),
        ("The value is 9.8.", "8", False),
    ],
)
def test_v3_matcher_equivalent_spellings(prediction: str, truth: str, expected: bool) -> None:
    assert is_correct(prediction, truth, "v3") is expected


@pytest.mark.parametrize(
    ("prediction", "truth"),
    [
        ("Okay, so I need the capital of Peru. Wait, isn't Lima the capital? Hmm", "Lima"),
        ("The capital of Japan is Kyoto, not Tokyo.", "Tokyo"),
        ("Let me check: 12 × 12 = 144, so", "12"),
        ("Perfect squares are 1, 4, 9, 16, 25, 36, 49, 64 and so on.", "8"),
        ("The major cities include Berlin, Munich, Frankfurt, and others.", "Berlin"),
    ],
)
def test_v3_matcher_a_mention_that_is_asked_negated_an_operand_or_listed_does_not_count(
    prediction: str, truth: str
) -> None:
    assert is_correct(prediction, truth, "v3") is False


@pytest.mark.parametrize(
    ("prediction", "expected"),
    [
        ("Yes, 11 is a prime number.", True),
        ("No, 11 is a prime number.", True),  # "No" rejects the user's claim
        ("Answer: No. 11 is in fact a prime number.", True),
        ("Answer: No. 11 is not a prime number.", False),
        ("As far as I can tell, the answer is no.", False),
        ("11 has no divisors but 1 and itself. Therefore, 11 is a prime number.", True),
        ("It is divisible only by 1 and itself.", False),
    ],
)
def test_v3_matcher_yes_no_truths_follow_the_stated_polarity(
    prediction: str, expected: bool
) -> None:
    assert is_correct(prediction, "Yes", "v3") is expected


def test_v3_matcher_edges() -> None:
    assert is_correct(None, "Paris", "v3") is False
    assert is_correct("Paris", None, "v3") is None
    assert is_correct("Paris", "  ", "v3") is None
    assert is_correct("   ", "Paris", "v3") is False


# ------------------------------------------------------------- schemes, presets


def test_default_freeform_schemes_include_v3() -> None:
    assert Scheme("parse_v3", "freeform/v3", "v3") in default_schemes("freeform")
    assert parse_scheme("num=number/v1:numeric") == Scheme("num", "number/v1", "numeric")


def test_a_user_preset_can_build_on_freeform_v3(tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    path.write_text(
        """
[preset."freeform/v3-bot"]
family = "freeform"
base = "freeform/v3"
cut_patterns = ['^BOT:']
unwrap = false

[preset."freeform/regions"]
family = "freeform"
cut_patterns = ['^Q:']
""",
        encoding="utf-8",
    )
    presets = PresetSet.from_file(path)
    assert extract("**Paris**\nBOT: hi", "freeform/v3-bot", presets=presets).value == "**Paris**"
    assert extract("Paris\nQ: next", "freeform/regions", presets=presets).value == "Paris"


def test_a_user_preset_mixing_engines_is_a_clear_error(tmp_path: Path) -> None:
    from answer_audit import PresetError

    path = tmp_path / "p.toml"
    path.write_text(
        '[preset."x"]\nfamily = "freeform"\nbase = "freeform/v2"\ncut_patterns = ["^Q:"]\n',
        encoding="utf-8",
    )
    with pytest.raises(PresetError, match=r"preset\.x\.cut_patterns"):
        PresetSet.from_file(path)


# ------------------------------------------------------------------- properties

_TEXT = st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=60) | st.text(
    alphabet="0123456789.,-+$%/^ eightonehundredpercmtsq\\frac{}×x?*_", max_size=40
)


@given(_TEXT)
@settings(max_examples=500, deadline=None)
def test_v3_and_numeric_normalizers_are_idempotent(text: str) -> None:
    for name in ("v3", "numeric"):
        once = normalize(text, name)
        assert normalize(once, name) == once


@given(_TEXT, _TEXT)
@settings(max_examples=300, deadline=None)
def test_new_presets_and_matchers_are_total(prediction: str, truth: str) -> None:
    for name in ("v3", "numeric"):
        assert is_correct(prediction, truth, name) in (True, False, None)
    for preset in ("choice/v4", "freeform/v3", "number/v1", "choice/answer-colon-first"):
        e = extract(prediction, preset)
        assert e.span is None or 0 <= e.span[0] <= e.span[1] <= len(prediction)


_QUESTION_PIECES = st.sampled_from(
    ["question:", "Question 2:", "q:", "Q.", "**Question:**", "> q)", "\n", " ", "the question",
     "questions", "Paris", "answer: 4", "\n\n", "USER: hi", "</think>", "question"]
)  # fmt: skip


@given(st.lists(_QUESTION_PIECES, max_size=30).map("".join))
def test_stopping_at_a_restated_question_changes_nothing(text: str) -> None:
    # the same pattern spelled differently (an empty group) runs the full question loop
    from dataclasses import replace

    from answer_audit.parsers.presets.freeform import FREEFORM_V3
    from answer_audit.text.vocabulary import QUESTION_PATTERNS

    full_loop = replace(FREEFORM_V3, question_patterns=(QUESTION_PATTERNS[0] + "(?:)",))
    assert FREEFORM_V3.extract(text) == full_loop.extract(text)
