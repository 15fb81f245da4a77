"""The free-form engines and presets: freeform/v1 and v2 (literal markers), freeform/v3 (the
answer region) with the v3 normalizer and matcher it is scored with, then freeform/v4 (the broad
corpus's rules), on realistic outputs written for the test in the shapes seen in real runs."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from answer_audit import PresetSet, extract, get_parser, is_correct, normalize
from answer_audit.parsers.freeform import _CUT_KEYWORDS, _may_hold
from answer_audit.parsers.presets.freeform import FREEFORM_V3, FREEFORM_V4
from answer_audit.schemes.apply import Scheme, default_schemes, parse_scheme
from answer_audit.text.vocabulary import TURN_PATTERNS_V4
from strategies import CUT_PIECES

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


def test_default_freeform_schemes_include_the_recommended_preset() -> None:
    assert Scheme("parse_v4", "freeform/v4", "v5") in default_schemes("freeform")
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

    from answer_audit.text.vocabulary import QUESTION_PATTERNS

    full_loop = replace(FREEFORM_V3, question_patterns=(QUESTION_PATTERNS[0] + "(?:)",))
    assert FREEFORM_V3.extract(text) == full_loop.extract(text)


# ========================================================================= freeform/v4
# The answer region read as the broad corpus's rules say (tests/labels/README.md). One test per
# convention: the chat formats and question words that end the answer, an output that opens
# with the asker's turn, a reasoning trace never closed, and what stays as in freeform/v3; then
# properties: the keyword gate, the vectorized whole-text rows, an appended invented turn.


def region_v4(text: str) -> tuple[str, str]:
    """The freeform/v4 answer region of ``text`` and its rule (its span is checked)."""
    e = extract(text, "freeform/v4")
    assert isinstance(e.value, str)
    if e.span is not None:
        assert text[e.span[0] : e.span[1]] == e.value
    return e.value, e.rule


# ------------------------------------------------------------------- new turns and questions


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Canberra.\n\nH: And New Zealand?\n\nA: Wellington.", "Canberra."),  # Anthropic's old H:
        ("Paris</s><s>[INST] And Italy? [/INST] Rome", "Paris"),  # Llama 2 / Mistral
        ("The answer is 12.\n\nStudent: I thought 8.\nTeacher: No, 12.", "The answer is 12."),
        ("Paris\n用户：意大利呢？\n助手：罗马", "Paris"),
        ("東京\nユーザー：大阪は？", "東京"),
        ("Canberra\n\nInput: New Zealand\nOutput: Wellington", "Canberra"),  # few-shot lines
        ("Paris\n问题：意大利的首都？\n答案：罗马", "Paris"),
        ("Paris\nFrage: Italien?\nAntwort: Rom", "Paris"),
        ("Paris\n\nPregunta: ¿Italia?\nRespuesta: Roma", "Paris"),
        ("Paris\n\n## Question 3\nWhat is the capital of Italy?", "Paris"),  # a numbered header
        ("Paris\nNext question: Italy?", "Paris"),
        # freeform/v3's turns still end it
        ("Paris\nUSER: What about Germany?\nASSISTANT: Berlin", "Paris"),
        ("Ottawa<|im_end|>\n<|im_start|>user\nAustralia?", "Ottawa"),
        ("Shakespeare wrote Hamlet.Passage: The Globe Theatre", "Shakespeare wrote Hamlet."),
    ],
)
def test_more_chat_formats_and_question_words_end_the_answer(text: str, expected: str) -> None:
    assert region_v4(text) == (expected, "truncated-at-marker")


@pytest.mark.parametrize(
    "text",
    [
        "Hamlet was written by Shakespeare around 1600.",
        "Let's look at your question: Q: what is 2+2? It is 4.",  # a restated question
        "The student asked the teacher; the answer is Paris.",  # words, not speakers
        "Hydrogen: H. Helium: He.",
        "Please check the input: it reads Paris.",
        "A: Paris",  # the prompt's own answer prefix, echoed
        "Question: What is the capital of France?\nAnswer: Paris",  # an echoed question
        # prompt-like junk before the answer: a question after a sentence on its line is none
        "Reply in markdown. Question: Who is president?\n\nThe capital of Italy is Rome.",
    ],
)
def test_words_and_echoes_are_no_new_turn(text: str) -> None:
    assert region_v4(text) == (text, "whole-text")


@pytest.mark.parametrize(
    "text",
    [
        "USER: What is the capital of France?\nASSISTANT: Paris",
        "Human: What is the capital of France?\n\nAssistant: Paris",
        "H: Capital of France?\nA: Paris",
        "<|im_start|>user\nCapital of France?<|im_end|>\n<|im_start|>assistant\nParis",
        "[INST] Capital of France? [/INST] Paris",
        "### Instruction:\nName the capital of France.\n\n### Response:\nParis",
        "用户：法国的首都是哪里？\n助手：巴黎",
    ],
)
def test_an_output_that_opens_with_the_askers_turn_has_no_answer(text: str) -> None:
    assert region_v4(text) == ("", "opens-with-turn")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ASSISTANT: Paris\nUSER: thanks", "ASSISTANT: Paris"),  # the answerer's own role
        ("### Response:\nParis", "### Response:\nParis"),
    ],
)
def test_an_output_that_opens_with_its_own_role_keeps_its_answer(text: str, expected: str) -> None:
    assert region_v4(text)[0] == expected


# ------------------------------------------------------------------- reasoning


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<think>\nHmm... I think it is the Sahara.", "Hmm... I think it is the Sahara."),
        ("<think>Is it Lyon? No wait, Paris.\nUSER: next", "Is it Lyon? No wait, Paris."),
        ("<|begin_of_thought|>It is Paris.", "It is Paris."),
        ("<reasoning>Rome, surely", "Rome, surely"),
        ("<think>done</think>\n<think>Paris, I think", "Paris, I think"),
        ("<think>x</think >", ""),
    ],
)
def test_a_reasoning_trace_never_closed_is_read_as_the_answer(text: str, expected: str) -> None:
    value, rule = region_v4(text)
    assert value == expected
    cut = "USER:" in text  # a turn inside the trace still ends it, and names the rule
    assert rule == ("truncated-at-marker" if cut else "reasoning-trace" if expected else "empty")


@pytest.mark.parametrize(
    ("text", "expected", "rule"),
    [
        ("<think>It is Lyon.</think>\n\nParis", "Paris", "after-think"),
        ("<think>The answer is the Sahara.</think>\n\nThe largest hot desert is the",
         "The largest hot desert is the", "after-think"),
        ("<think>Paris</think>   ", "", "empty"),
        ("**Canberra**", "Canberra", "whole-text"),
        ("$\\boxed{12}$", "12", "whole-text"),
    ],
)  # fmt: skip
def test_what_stays_as_in_freeform_v3(text: str, expected: str, rule: str) -> None:
    assert region_v4(text) == (expected, rule)
    assert extract(text, "freeform/v3").value == expected


def test_v3_gives_no_answer_for_an_open_trace_and_v4_reads_it() -> None:
    text = "<think>\nThe largest hot desert is the Sahara."
    assert extract(text, "freeform/v3").rule == "unclosed-think"
    assert is_correct(region_v4(text)[0], "Sahara", "v4") is True


def test_v4_describes_its_new_rules_and_v3_does_not() -> None:
    v4 = "\n".join(FREEFORM_V4.describe())
    v3 = "\n".join(FREEFORM_V3.describe())
    for rule in ("reasoning-trace", "opens-with-turn"):
        assert rule in v4
        assert rule not in v3
    assert "unclosed-think" in v3


# ------------------------------------------------------------------- properties

V4_CUT_PIECES = st.one_of(
    CUT_PIECES,
    st.sampled_from(
        ["H", "h", "Student", "TEACHER", "input", "</s>", "用户", "助手", "系统", "ユーザー",
         "アシスタント", "사용자", "어시스턴트", "：", "H:", "**H:**", "\nH :"]
    ),
)  # fmt: skip


@given(st.lists(V4_CUT_PIECES, max_size=25).map("".join))
@settings(max_examples=300, deadline=None)
@example("x\nH: hi")
@example("x\n**Student**: hi")
def test_v4_cut_keywords_are_a_necessary_condition(region_text: str) -> None:
    from answer_audit.parsers.freeform import _compiled

    cuts, _ = _compiled(TURN_PATTERNS_V4, ())
    if any(p.search(region_text) for p in cuts):
        assert _may_hold(region_text, *_CUT_KEYWORDS[TURN_PATTERNS_V4])


# Pieces of answers around what freeform/v4 reacts to (see tests/schemes/test_vectorized.py).
REGION_PIECES = st.sampled_from(
    ["Paris", "the user", "User:", "USER", "AI:", "ai", "H:", "h:", "H", "Human", "Question 2",
     "Q:", "q.", "quite", "Frage:", "frage", "pregunta:", "Student:", "teacher", "Input:",
     "<think>", "</think>", "</s>", "<", "**", "__", "`", "$", "\\boxed{8}", "\\(", "*", "_",
     "#", ">", " ", "\t", "\n", "\r", "\x0b", "\x1c", "\x1f", "\u00a0", "é", "用户：", "8",
     ".", ":", "x"]
)  # fmt: skip


@given(st.lists(st.one_of(st.none(), st.lists(REGION_PIECES, max_size=12).map("".join)),
                min_size=1, max_size=12))  # fmt: skip
@settings(max_examples=150, deadline=None)
@example(["\x0bH: hi", " Paris ", "Paris\nh : x", "Frage: x", "Paris\n## Question 3", None])
@example(["USER: hi\nASSISTANT: Paris", "<think>Paris", "Paris</s>", "**Paris**", "\nq) x"])
def test_freeform_v4_whole_text_rows_equal_the_row_rules(raws: list[str | None]) -> None:
    from answer_audit.schemes.extract import _extract_rows, extract_column

    frame = pl.DataFrame({"raw": raws}, schema={"raw": pl.String})
    rows = _extract_rows(get_parser("freeform/v4"), frame["raw"], workers=1)
    assert extract_column(frame, "freeform/v4", "freeform").equals(rows)


ANSWERS = st.sampled_from(
    ["Paris", "The capital of France is Paris.", "Lyon, not Paris.", "**Canberra**",
     "<think>It is Rome.</think>\nRome", "<think>I believe it is Rome.", "It is 12.", "eight",
     "I'm not sure.", "Water freezes at 32 °F.", "The U.S."]
)  # fmt: skip
TURNS = st.sampled_from(
    ["\nUSER: {q}\nASSISTANT: {a}", "\n\nHuman: {q}\n\nAssistant: {a}", "\nH: {q}\nA: {a}",
     "<|im_end|>\n<|im_start|>user\n{q}<|im_end|>\n<|im_start|>assistant\n{a}",
     "</s><s>[INST] {q} [/INST] {a}", "\n\nQuestion: {q}\nAnswer: {a}", "\nQ: {q}\nA: {a}",
     "\n\nStudent: {q}\nTeacher: {a}", "\n用户：{q}\n助手：{a}", "\nFrage: {q}\nAntwort: {a}"]
)  # fmt: skip
WORDS = st.sampled_from(["Paris", "Lyon", "No, it is Paris", "12", "Rome", "yes", "United States"])


@given(ANSWERS, TURNS, WORDS, WORDS, st.sampled_from(["Paris", "12", "Rome", "United States"]))
@settings(max_examples=300, deadline=None)
def test_an_appended_invented_turn_never_changes_the_answer(
    answer: str, turn: str, question: str, reply: str, truth: str
) -> None:
    alone = region_v4(answer)[0]
    extended = region_v4(answer + turn.format(q=question + "?", a=reply))[0]
    assert extended == alone
    assert is_correct(extended, truth, "v4") == is_correct(alone, truth, "v4")


QUESTION_PIECES = st.sampled_from(
    ["Question", "QUESTION", "q", "Q", "question 3", "Next question", "Frage", "FRAGE", "ſwali",
     "Pregunta", "pergunta", "domanda", "swali", "pertanyaan", "soal", "Вопрос", "soru",
     "Câu hỏi", "问题", "問題", "题目", "質問", "질문", "প্রশ্ন", "प्रश्न", "سؤال", "السؤال", "1",
     ":", "：", ".", ")", " ", "\t", "\n", "#", "*", "_", ">", "x"]
)  # fmt: skip


@given(st.lists(QUESTION_PIECES, max_size=20).map("".join))
@settings(max_examples=300, deadline=None)
@example("x\nſwali: y")
def test_v4_question_keywords_are_a_necessary_condition(region_text: str) -> None:
    from answer_audit.parsers.freeform import _QUESTION_KEYWORDS, _compiled, _holds_keyword
    from answer_audit.text.vocabulary import QUESTION_PATTERNS_V4

    _, questions = _compiled((), QUESTION_PATTERNS_V4)
    if any(p.search(region_text) for p in questions):
        assert _holds_keyword(region_text, _QUESTION_KEYWORDS[QUESTION_PATTERNS_V4])


def test_a_user_preset_can_build_on_freeform_v4(tmp_path: Path) -> None:
    from answer_audit import PresetSet

    path = tmp_path / "p.toml"
    path.write_text(
        '[preset."freeform/v4-bot"]\nfamily = "freeform"\nbase = "freeform/v4"\n'
        "cut_patterns = ['^BOT:']\n",
        encoding="utf-8",
    )
    presets = PresetSet.from_file(path)
    assert extract("Paris\nBOT: hi", "freeform/v4-bot", presets=presets).value == "Paris"
    # its other rules are freeform/v4's
    found = extract("<think>It is Rome.", "freeform/v4-bot", presets=presets)
    assert (found.value, found.rule) == ("It is Rome.", "reasoning-trace")
    found = extract("USER: hi\nASSISTANT: Rome", "freeform/v4-bot", presets=presets)
    assert found.rule == "opens-with-turn"
