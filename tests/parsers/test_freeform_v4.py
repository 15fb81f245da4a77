"""freeform/v4: the answer region read as the broad corpus's rules say (tests/labels/README.md).

One test per convention: the chat formats and question words that end the answer, an output that
opens with the asker's turn, a reasoning trace never closed, and what stays as in freeform/v3;
then properties: the keyword gate, the vectorized whole-text rows, an appended invented turn.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from answer_audit import extract, get_parser, is_correct
from answer_audit.parsers.freeform import _CUT_KEYWORDS, _may_hold
from answer_audit.parsers.presets.freeform import FREEFORM_V3, FREEFORM_V4
from answer_audit.text.vocabulary import TURN_PATTERNS_V4
from strategies import CUT_PIECES


def region(text: str) -> tuple[str, str]:
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
    assert region(text) == (expected, "truncated-at-marker")


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
    assert region(text) == (text, "whole-text")


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
    assert region(text) == ("", "opens-with-turn")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ASSISTANT: Paris\nUSER: thanks", "ASSISTANT: Paris"),  # the answerer's own role
        ("### Response:\nParis", "### Response:\nParis"),
    ],
)
def test_an_output_that_opens_with_its_own_role_keeps_its_answer(text: str, expected: str) -> None:
    assert region(text)[0] == expected


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
    value, rule = region(text)
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
    assert region(text) == (expected, rule)
    assert extract(text, "freeform/v3").value == expected


def test_v3_gives_no_answer_for_an_open_trace_and_v4_reads_it() -> None:
    text = "<think>\nThe largest hot desert is the Sahara."
    assert extract(text, "freeform/v3").rule == "unclosed-think"
    assert is_correct(region(text)[0], "Sahara", "v4") is True


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
    alone = region(answer)[0]
    extended = region(answer + turn.format(q=question + "?", a=reply))[0]
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
