"""The choice engine and its presets, on outputs: choice/v1 .. v3; choice/v4 (one test per
failure mode, on realistic outputs written for the test and modelled on the shapes seen in real
runs); the comparison presets and user presets; choice/v5 (the conventions of issue 19, one test
per convention); and properties of text handling checked with hypothesis.

Beside it, by topic: option text (`test_choice_option_text.py`), option letters in other scripts
(`test_choice_script.py`), the terminal-answer rule (`test_choice_terminal.py`) and the engine's
internals checked against reference definitions (`test_choice_reference.py`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from answer_audit import PresetSet, extract
from answer_audit.parsers import MULTILINGUAL_PREFIXES, ChoicePreset, ChoiceStep
from choice_cases import SEED_EXAMPLES
from strategies import CHOICE_OUTPUTS

# ====================================================================== choice/v1 .. v3


@pytest.mark.parametrize(("text", "expected"), SEED_EXAMPLES)
def test_choice_v3_seed_examples(text: str, expected: str | None) -> None:
    assert extract(text, "choice/v3").value == expected


def test_choice_v3_rules_and_spans_point_at_the_token() -> None:
    text = "選択肢dは不適切である。\nしたがって、正解は b である。"
    e = extract(text, "choice/v3")
    assert e.rule == "correct-is-line"
    assert e.span is not None and text[e.span[0] : e.span[1]] == "b"
    full_width = "回答（1文字のみ）: ３"
    e = extract(full_width, "choice/v3")
    assert e.rule == "answer-line"
    assert e.span is not None and full_width[e.span[0] : e.span[1]] == "３"
    assert extract("よく分かりません。", "choice/v3").rule == "not-found"


def test_choice_v3_tail_single_char() -> None:
    text = "The options were weighed.\nFinal:\n  B  "
    e = extract(text, "choice/v3")
    assert (e.value, e.rule) == ("b", "tail-single-char")
    assert e.span is not None and text[e.span[0] : e.span[1]] == "B"
    # two different tokens on the tail line -> not a single repeated character
    assert extract("x\nc or d", "choice/v3").value is None
    # only the last five lines are considered
    assert extract("d\n" + "ない\n" * 5, "choice/v3").value is None


def test_choice_v3_last_answer_line_wins_and_last_token_in_it() -> None:
    assert extract("Answer: a\nthinking more\nAnswer: b", "choice/v3").value == "b"
    assert extract("answer: a or rather d", "choice/v3").value == "d"


def test_choice_v1_first_regex_then_last_char() -> None:
    assert extract("Answer: b\nAnswer: c", "choice/v1").value == "b"
    e = extract("the options... so maybe d then", "choice/v1")
    # scanning backwards past "then", the first a-d/1-4 character is the standalone "d"
    assert (e.value, e.rule) == ("d", "last-char")
    assert extract("回答：２", "choice/v1").value == "b"
    assert extract("xyz", "choice/v1").value is None


def test_choice_v2_digit_before_letter_in_answer_line() -> None:
    assert extract("Answer is b or 3", "choice/v2").value == "c"
    assert extract("explanation\nanswer: d", "choice/v2").value == "d"
    e = extract("no trigger\nsecond b\nthird", "choice/v2")
    assert (e.value, e.rule) == ("b", "last-lines")
    assert extract("only one 2 digit\n\n\nx\ny\nz", "choice/v2").rule == "whole-text"


def test_choice_v3_choice_set_is_a_parameter() -> None:
    assert extract("Answer: E", "choice/v3", choices="abcde").value == "e"
    # outside the choice set the answer line has no token; the frozen tail rule then reads
    # the "a" of "answer" -- a real pathology of choice/v3, pinned here on purpose
    assert extract("Answer: E", "choice/v3") == extract("Answer: E", "choice/v3", choices="abcd")
    assert extract("Answer: E", "choice/v3").value == "a"
    assert extract("Answer: 5", "choice/v3", choices="ABCDE").value == "e"
    assert extract("answer: j", "choice/v3", choices="abcdefghij").value == "j"


def test_user_defined_choice_preset_runs_on_the_same_engine() -> None:
    preset = ChoicePreset(
        "choice/final",
        (
            ChoiceStep(
                "trigger-lines", "final-line", triggers=("final",), patterns=(r"\b([{L}])\b",)
            ),
        ),
    )
    assert extract("final: c", preset).value == "c"
    assert extract("answer: c", preset).value is None


# ============================================================================ choice/v4

ECHO = "回答（1文字のみ）: "


def v4(text: str, options: list[str] | dict[str, str] | None = None) -> str | None:
    value = extract(text, "choice/v4", choices_text=options).value
    assert value is None or isinstance(value, str)
    return value


@pytest.mark.parametrize(("text", "expected"), SEED_EXAMPLES)
def test_choice_v4_passes_the_seed_examples(text: str, expected: str | None) -> None:
    assert v4(text) == expected


# --------------------------------------------------------- echoed format lines


@pytest.mark.parametrize(
    "text",
    [
        "回答（1文字のみ）:",
        "1文字だけ出力してください。",
        "a, b, c, d のいずれか1文字",
        "以下に回答を1文字で出力してください。\n"
        + f"{ECHO}a, b, c, d のどれか1文字を書いてください。\n" * 40,
        "回答は1文字だけです。 a, b, c, d のどれか1文字を書いてください。" * 20
        + " a, b, c, d のい",
        "1文字だけ出力してください。\n"
        + "回答（1文字のみ）: 回答は1文字だけです。\n" * 30
        + "回答（1",
        "ここに回答\n？",
    ],
)
def test_echoed_format_lines_are_not_answers(text: str) -> None:
    assert v4(text) is None


def test_one_character_is_not_option_one_even_when_garbled_or_cut() -> None:
    assert v4("回答（11文字以内）: b") == "b"
    assert v4("a\n" + f"{ECHO} a\n" * 30 + "回答（11文字以内）: a\n" * 100 + "回答（11") == "a"
    text = f"{ECHO}d\n" * 50 + "回答（1"  # the last line is cut inside the format label
    e = extract(text, "choice/v4")
    assert e.value == "d" and e.span is not None and text[e.span[0] : e.span[1]] == "d"


# ------------------------------------------- repetition, enumeration and cycles


def test_an_answer_repeated_hundreds_of_times_counts_once() -> None:
    assert v4("以下に回答を1文字で出力してください。\na\nb\nc\nd\n" + f"{ECHO}b\n\n" * 220) == "b"
    assert v4("したがって、正解はbです。\nb\n" * 15) == "b"


@pytest.mark.parametrize(
    "text",
    [
        "a\nb\nc\nd",
        "A, B, C, D",
        "Answer: A\nAnswer: B\nAnswer: C\nAnswer: D",
        f"{ECHO}a\n{ECHO}b\n{ECHO}c\n{ECHO}d",
        "以下に回答を1文字で出力してください。\n" + "a\nb\nc\nd\n" * 200,
        "a\n"
        + f"{ECHO}b\n{ECHO}c\n{ECHO}d\n{ECHO}a\n" * 50,  # a lone letter, then a labelled cycle
        "以下に回答を1文字で出力してください。\na\nb\nc\nd\n" + f"{ECHO}a\nb\nc\nd\n\n" * 80,
    ],
)
def test_enumerations_and_cycles_are_no_answer(text: str) -> None:
    e = extract(text, "choice/v4")
    assert e.value is None
    assert e.rule in {"enumeration-no-answer", "cycle-no-answer", "not-found"}


def test_a_reasoned_answer_before_the_output_collapses_into_a_cycle_counts() -> None:
    text = (
        "以下に回答を1文字で出力してください。\na\nb\nc\nd\na\n\n"
        "選択肢aは条文の要件に合致するため、したがって、回答はaです。\na\n"
        + "b\nc\nd\na\na\n"
        * 150
    )
    e = extract(text, "choice/v4")
    assert (e.value, e.rule) == ("a", "answer-before-cycle")
    labelled = f"{ECHO}a\n\n（理由: 第76条の規定に基づき、aが正しい。）\nb\nc\nd\n" * 20
    assert v4(labelled) == "a"


def test_the_last_letter_seen_is_not_the_answer_when_no_option_is_right() -> None:
    assert v4("正しい選択肢は見当たらないかもしれません。" * 30) is None
    assert v4("したがって、正解は「なし」です。" * 10) is None
    assert v4("None of the options is correct, so I cannot pick A, B, C or D.") is None
    assert (
        v4("aは正しい。bは正しい。cは正しい。dも正しい。誤っているものは判断できません。") is None
    )


# -------------------------------------------------------------------- negations


@pytest.mark.parametrize(
    "text",
    [
        "正解は b ではない。",
        "正解は b 以外の選択肢である。",
        "bは誤り。",
        "したがって、正解は b ではない。" * 12
        + "この場合、正解は b 以外の選択肢であるが、bは誤り。",
        "The answer is not A.",
        "정답은 B가 아닙니다.",
        "Die Antwort ist nicht A.",
        "答案不是A。",
    ],
)
def test_negations_do_not_answer_the_letter_they_name(text: str) -> None:
    assert v4(text) is None


def test_a_rejection_then_a_pick() -> None:
    assert v4("bは誤り。正解は d。") == "d"
    assert v4("The answer is not A. The answer is C.") == "c"
    assert v4("答案不是A，而是C。") == "c"


# -------------------------------------------- first lines, examples, follow-ups


def test_a_bare_first_line_followed_by_an_explanation() -> None:
    text = "c\n選択肢cは第5条第1項の規定と一致しています。他の選択肢は条文の内容と矛盾しています。"
    e = extract(text, "choice/v4")
    assert (e.value, e.rule) == ("c", "bare-line")
    assert v4("B\n\nExplanation: option A confuses weight with mass.") == "b"
    assert v4("B) 1648") == "b"


def test_an_example_line_is_not_the_answer() -> None:
    assert v4("例: a\n" + "回答: c\n\n" * 20) == "c"
    assert v4("Format, e.g. Answer: A\n\nAnswer: D") == "d"
    assert (
        v4("I will end with a line of the form 'Answer: A'.\nThe organelle is the mitochondrion.")
        is None
    )


def test_an_invented_follow_up_question_does_not_count() -> None:
    text = "The answer is B.\n\nQuestion: What is the capital of Spain?\nA) Madrid\nB) Lisbon\nAnswer: A"
    assert v4(text) == "b"
    text = (
        "したがって、正解は a です。\n\n次の問題：民法第100条について正しいものはどれか。\n回答: b"
    )
    assert v4(text) == "a"
    # the same prompt echoed after the answer, and answered the same way, is still this answer
    echoed = "【質問】\n次のうち、正しいものを教えてください。\n【回答指示】\n- 回答は a, b, c, d から1文字。\n"
    assert v4("正しい選択肢はb。\nb\n\n" + (echoed + f"{ECHO}b\nb\n\n") * 3) == "b"


# ---------------------------------------------------------- numbers that are not options


def test_article_references_and_list_markers_are_not_answers() -> None:
    assert v4("金融商品取引法第2条第1項第15号に基づき、正解は c です。") == "c"
    assert v4("第27条の32の2第1項本文が根拠となる。") is None
    assert v4("（1）aは誤り。（2）bも誤り。\n回答: d") == "d"
    assert v4("[1]と[2]の条文を比較すると、[2]の第4項が根拠となります。") is None
    assert v4("1. 第1号\n2. 第2号\n3. 第3号\n4. 第4号") is None


# ----------------------------------------------------------------------- wrappers


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("**Answer:** B", "b"),
        ("ANSWER: **A**", "a"),
        ("$A$", "a"),
        ("\\boxed{B}", "b"),
        ("Answer: $\\boxed{D}$", "d"),
        ("(B)", "b"),
        ("B)", "b"),
        ("Ｂ", "b"),
        ("Answer: Ｃ", "c"),
        ("answer: a", "a"),
        ("The answer is (D).", "d"),
        ("The answer is a.", "a"),
        ('{"answer": "B"}', "b"),
        ("<answer>C</answer>", "c"),
        ("回答：３", "c"),
        ("**回答：b**", "b"),
        ("正解：「a」", "a"),
        ("cです。", "c"),
    ],
)
def test_wrappers(text: str, expected: str) -> None:
    assert v4(text) == expected


def test_the_english_article_a_is_not_option_a() -> None:
    assert v4("It is a difficult question, but I would go with a guess.") is None
    assert v4("The answer is a trick question; none of the options apply.") is None
    text = (
        "This is a classic problem. A careful look shows that the height is 20 m.\nThe answer is C."
    )
    assert v4(text) == "c"
    assert v4("A resposta correta é C.") == "c"


def test_the_final_statement_wins_over_earlier_answer_lines() -> None:
    text = (
        "Answer: A\n\nWait, let me reconsider. The enthalpy change is negative, so the reaction "
        "releases heat, which is option D.\n\nFinal Answer: D"
    )
    assert v4(text) == "d"
    assert v4("Answer: C\nExplanation: Answer B is a common misconception.") == "c"
    assert v4("Answer: B or C") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Answer: B", "b"),
        ("回答: c", "c"),
        ("答え：2", "b"),
        ("解答: d", "d"),
        ("正解は b です。", "b"),
        ("答案：B", "b"),
        ("答案是 C。", "c"),
        ("答：C", "c"),
        ("故选 A。", "a"),
        ("정답: B", "b"),
        ("정답은 C입니다.", "c"),
        ("답: A", "a"),
        ("Antwort: B", "b"),
        ("Die richtige Antwort ist C.", "c"),
        ("Réponse : B", "b"),
        ("La bonne réponse est D.", "d"),
        ("Respuesta: C", "c"),
        ("La respuesta correcta es B.", "b"),
        ("Risposta: A", "a"),
        ("La risposta corretta è D.", "d"),
        ("Resposta: B", "b"),
        ("Jawaban: D", "d"),
        ("Jawabannya adalah B.", "b"),
        ("Jibu: C", "c"),
        ("Jibu sahihi ni A.", "a"),
        ("الإجابة: B", "b"),
        ("الإجابة الصحيحة هي C", "c"),
        ("उत्तर: A", "a"),
        ("सही उत्तर B है।", "b"),
        ("উত্তর: D", "d"),
        ("সঠিক উত্তর হলো C", "c"),
        ("Antwort：D", "d"),
    ],
)
def test_multilingual_answer_prefixes(text: str, expected: str) -> None:
    assert v4(text) == expected


# ---------------------------------------------------------------- reasoning blocks


def test_reasoning_blocks() -> None:
    assert v4("<think>Maybe A. No, B fits the date.</think>\n\nThe answer is **B**.") == "b"
    e = extract("<think>\nJupiter has many moons, maybe A is right. But Saturn has", "choice/v4")
    assert (e.value, e.rule) == (None, "unclosed-think")


def test_choice_v4_choice_set_is_a_parameter() -> None:
    assert extract("Answer: E", "choice/v4").value is None
    assert extract("Answer: E", "choice/v4", choices="abcde").value == "e"
    assert extract("Answer: 5", "choice/v4", choices="abcde").value == "e"


# --------------------------------------------------------------- comparison presets


def test_answer_colon_first_takes_the_first_answer_colon_then_each_prefix_in_order() -> None:
    assert extract("Answer: A\nthinking...\nAnswer: B", "choice/answer-colon-first").value == "a"
    assert extract("回答: c\nanswer: b", "choice/answer-colon-first").value == "b"  # English first
    assert extract("answer: apple", "choice/answer-colon-first").value == "a"  # no boundary
    assert extract("The answer is B", "choice/answer-colon-first").value is None
    assert MULTILINGUAL_PREFIXES[0] == "answer"


def test_letter_boundary_takes_the_first_standalone_letter() -> None:
    assert extract("I think B. Answer: C", "choice/letter-boundary").value == "b"
    assert extract("It is a good question; D.", "choice/letter-boundary").value == "a"
    assert extract("正解はbです", "choice/letter-boundary").value is None  # no \b inside Japanese


# ---------------------------------------------------------------- user presets


def test_a_user_preset_can_use_the_new_step_kinds(tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    path.write_text(
        """
[preset."choice/final-only"]
family = "choice"
think = true
masks = ['[0-9]+文字']
[[preset."choice/final-only".steps]]
kind = "statements"
rule = "final"
patterns = ['final\\s*:\\s*([{L}{D}])(?![0-9a-z])']
negations = ['\\s*is wrong']
bare = false
[[preset."choice/final-only".steps]]
kind = "option-text"
rule = "text"

[preset."choice/v4-abcde"]
family = "choice"
base = "choice/v4"
choices = "abcde"
""",
        encoding="utf-8",
    )
    presets = PresetSet.from_file(path)
    assert extract("Final: 2\nFinal: c", "choice/final-only", presets=presets).value == "c"
    assert extract("<think>final: a", "choice/final-only", presets=presets).rule == "unclosed-think"
    assert extract("Final: a is wrong", "choice/final-only", presets=presets).value is None
    assert extract("B", "choice/final-only", presets=presets).value is None  # bare = false
    assert extract("Answer: E", "choice/v4-abcde", presets=presets).value == "e"


# =========================================================================== choice/v5
# Everything choice/v4 reads, plus the conventions of issue 19 (one test per convention, on
# outputs written for the test), and properties of text handling (invisible characters,
# invented turns).


def v5(text: str, choices: str | None = None, options: list[str] | None = None) -> str | None:
    value = extract(text, "choice/v5", choices=choices, choices_text=options).value
    assert value is None or isinstance(value, str)
    return value


@pytest.mark.parametrize(("text", "expected"), SEED_EXAMPLES)
def test_choice_v5_passes_the_seed_examples(text: str, expected: str | None) -> None:
    assert v5(text) == expected


# ------------------------------------------------------------- what choice/v4 already reads


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("**Answer:** B", "b"),
        ("ANSWER: **A**", "a"),
        ("$A$", "a"),
        ("\\boxed{B}", "b"),
        ("(B)", "b"),
        ("Ｂ", "b"),
        ("The answer is a.", "a"),
        ('{"answer": "B"}', "b"),
        ("<answer>C</answer>", "c"),
        ("回答：３", "c"),
        ("正解：「a」", "a"),
        ("cです。", "c"),
        ("正解は b です。", "b"),
        ("答案是 C。", "c"),
        ("故选 A。", "a"),
        ("정답은 C입니다.", "c"),
        ("Die richtige Antwort ist C.", "c"),
        ("La bonne réponse est D.", "d"),
        ("Jawabannya adalah B.", "b"),
        ("Jibu sahihi ni A.", "a"),
        ("الإجابة الصحيحة هي C", "c"),
        ("सही उत्तर B है।", "b"),
        ("সঠিক উত্তর হলো C", "c"),
        ("B\n\nExplanation: option A confuses weight with mass.", "b"),
        ("例: a\n" + "回答: c\n\n" * 20, "c"),
        ("以下に回答を1文字で出力してください。\na\nb\nc\nd\n" + f"{ECHO}b\n\n" * 220, "b"),
        ("金融商品取引法第2条第1項第15号に基づき、正解は c です。", "c"),
        ("The answer is not A. The answer is C.", "c"),
        ("答案不是A，而是C。", "c"),
        ("Answer: C\nExplanation: Answer B is a common misconception.", "c"),
        ("<think>Maybe A. No, B fits the date.</think>\n\nThe answer is **B**.", "b"),
    ],
)
def test_choice_v5_reads_what_choice_v4_reads(text: str, expected: str) -> None:
    assert v5(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "回答（1文字のみ）:",
        "a\nb\nc\nd",
        "A, B, C, D",
        "Answer: A\nAnswer: B\nAnswer: C\nAnswer: D",
        "以下に回答を1文字で出力してください。\n" + "a\nb\nc\nd\n" * 200,
        "正解は b ではない。",
        "The answer is not A.",
        "Answer: B or C",
        "It is a difficult question, but I would go with a guess.",
        "[1]と[2]の条文を比較すると、[2]の第4項が根拠となります。",
        "<think>\nJupiter has many moons, maybe A is right. But Saturn has",
    ],
)
def test_choice_v5_reads_as_no_answer_what_choice_v4_does(text: str) -> None:
    assert v5(text) is None


# ------------------------------------------------------------- invented next turns


@pytest.mark.parametrize(
    "turn",
    [
        "\n\nUSER: next question? ANSWER: D",
        "\n\nHuman: Which is iron?\n\nAssistant: ANSWER: D",
        "\n\nH: And a reptile?\n\nA: The answer is D.",
        "\n<|im_end|>\n<|im_start|>user\nWhich planet?<|im_end|>\n<|im_start|>assistant\nANSWER: D",
        "<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nWhat is 2+2?\nANSWER: D",
        " [INST] Which is a mammal? [/INST] The answer is (D).",
        "</s><s>[INST] Which is correct? [/INST] Answer: D",
        "<end_of_turn>\n<start_of_turn>user\nCapital?<end_of_turn>\n<start_of_turn>model\nAnswer: D",
        "<|end|>\n<|user|>\nAnd this one? The answer is D.<|end|>\n<|assistant|>\nD",
        "\n\n### Instruction:\nAnswer the question.\n\n### Response:\nD",
        "\n\nStudent: I think it's D.\nTeacher: No, the correct answer is D.",
        "\n\n用户：下一题是什么？\n助手：答案：D",
        "\n\n**User:** Which one is odd?\n**Assistant:** The answer is D.",
        "\n\nuser: thanks! what about this one?\nassistant: Answer: D",
        "\n\nQuestion 2: What is the symbol for gold?\nA. Ag B. Au C. Gd D. Go\nAnswer: D",
        "\n\nQ: Which is the smallest prime?\n(A) 0 (B) 1 (C) 2 (D) 3\nA: The answer is (D).",
        "\n\nNow try this one: Which is a conductor? A) rubber B) glass C) wood D) copper. "
        "The answer is D.",
        "\n\nUSER: That's wrong, think again.\nASSISTANT: You're right, I apologize. Answer: D",
    ],
)
def test_an_invented_next_turn_ends_the_answer(turn: str) -> None:
    assert v5("ANSWER: A" + turn) == "a"
    assert (
        v5(
            "Let's think step by step. Carbon has four valence electrons.\n\nThe answer is (A)."
            + turn
        )
        == "a"
    )


def test_an_output_that_opens_with_an_invented_turn_has_no_answer() -> None:
    assert v5("USER: Answer the question.\nASSISTANT: Answer: C") is None
    assert v5("USER: Can you repeat the question?\nASSISTANT: Sure.\nUSER: C") is None
    # the prompt's own answer prefix echoed at the start is no turn
    assert v5("ASSISTANT: The answer is (B).") == "b"
    assert v5("### Response:\nThe answer is C.\n\n### Instruction:\nExplain the others.") == "c"


# ------------------------------------------------------------- answer statements


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The answer is clearly (A).", "a"),
        ("So the answer is definitely (B).", "b"),
        ("The only option left is the last one, so the answer is most likely (D).", "d"),
        ("The answer is probably B.", "b"),
        ("It's surely D.", "d"),
        ("The correct answer would therefore be A.", "a"),
        ("The answer is, without doubt, C.", "c"),
        ("The answer is... D!", "d"),
        ("Letter A.", "a"),
        ("Final choice — C", "c"),
        ("My final answer: D", "d"),
        ("B is the correct answer.", "b"),
        ("A and B are both partially correct, but B is the better answer.", "b"),
        ("C选项符合题意，其余选项均与材料不符。", "c"),
        ("第3个选项正确，即C。", "c"),
        ("The second option is correct.", "b"),
        ("I'll go with the last option.", "d"),
        ("I'd say B.", "b"),
        ("Answer: rules out C, leaving D", "d"),
        ("It isn't A, B or D, so C.", "c"),
        ('{"answer": "B", "confidence": 0.7}\n\nOn reflection, D.', "d"),
        ("The answer is B. Hmm, or maybe D? I'll stay with B.", "b"),
        ("La respuesta correcta es la C, ya que el tratado se firmó en 1648.", "c"),
        ("A resposta correta é a letra D.", "d"),
        ("A alternativa correta é B.", "b"),
    ],
)
def test_answer_statements_in_more_phrasings(text: str, expected: str) -> None:
    assert v5(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ответ: C", "c"),
        ("Правильный ответ: В", "b"),  # a Cyrillic В names option B
        ("Απάντηση: Β", "b"),  # and so does a Greek Β
        ("Відповідь: D", "d"),
        ("Cevap: D", "d"),
        ("Doğru cevap C şıkkıdır.", "c"),
        ("Đáp án: B", "b"),
        ("Απάντηση: C", "c"),
        ("መልስ፡ C", "c"),
        ("Amsa: A", "a"),
        ("Azịza: B", "b"),
        ("Ìdáhùn: B", "b"),
        ("Idahun: D", "d"),
        ("Ìdáhùn tó tọ́ ni B.", "b"),
        ("উত্তরঃ B", "b"),
        ("إجابة: B", "b"),
        ("الإجابة النهائية: D", "d"),
        ("इसलिए सही विकल्प (A) है।", "a"),
        ("Answer\u3164: B", "b"),  # a Hangul filler before the colon
        ("答案：Ｃ！", "c"),
        ("Answer：B。", "b"),
        ("Réponse : C", "c"),
    ],
)
def test_answer_prefixes_in_more_languages_with_every_colon(text: str, expected: str) -> None:
    assert v5(text) == expected


def test_an_unknown_language_label_line_still_answers() -> None:
    assert v5("Jawapan: C") == "c"
    assert v5("Kwa hivyo tunaona kwamba chaguo ni sahihi.\n\nXyzword: B") == "b"


# ------------------------------------------------------------- what is not an answer


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # an example cue reaches its own clause, not a real statement later on the line
        ("Sodium chloride is the classic example. The answer is C.", "c"),
        ("Some options, like (A) and (C), describe scurvy, so the answer is (D).", "d"),
        ("Minerals like quartz (A) and feldspar (B) are silicates, so the answer is C.", "c"),
        ("Such as A? No — the answer is B.", "b"),
        ("A format such as 'Answer: C' is required, so here it is: Answer: D", "d"),
        ("例如A选项提到的“汉代”并不准确，所以答案是C。", "c"),
        ("比如B和D都有明显错误，正确答案是A。", "a"),
        ("Example: B", None),
        ("Format, e.g. Answer: A", None),
        # counterfactuals and someone else's answer
        ("If the question had asked about mass, the answer would be A.", None),
        ("If I had to choose, the answer would be C.", "c"),
        ("The user thinks the answer is C.", None),
        ("You might think the answer is A, but it is B.", "b"),
        # ending in doubt
        ("The answer is B. Hmm, or maybe D?", None),
        ("The answer is B. Or is it B?", "b"),
        # a box holding a formula, a letter inside a unit or formula
        ("The field is \\boxed{B = \\mu_0 n I}.", None),
        ("选项 (B) $3.3\\mathrm{MeV}$。", "b"),
    ],
)
def test_examples_conditionals_doubts_and_formulas(text: str, expected: str | None) -> None:
    assert v5(text) == expected


def test_the_pronoun_i_is_not_option_i() -> None:
    ten = "ABCDEFGHIJ"
    assert v5("I think the answer is (E). I am fairly confident.", ten) == "e"
    assert v5("I believe option J is right.", ten) == "j"
    assert v5("I.e., the reaction is first order. The answer is (F).", ten) == "f"
    roman = "I. true\nII. false\nIII. true\nSo statements I and III hold"
    assert v5(roman + ", which is option (D). The answer is (D).", ten) == "d"
    assert v5(roman + ".", ten) is None  # Roman numerals name statements, not options
    assert v5("The answer is (I).", ten) == "i"
    assert v5("I would go with B.", ten) == "b"


# ------------------------------------------------------------- what the reader sees


@pytest.mark.parametrize(
    "text",
    ["Answer: \u200bB", "Answer\u200b: B", "\ufeffAnswer: B", "Answer: B\u00ad", "An\u2060swer: B"],
)
def test_invisible_characters_are_not_read(text: str) -> None:
    found = extract(text, "choice/v5")
    assert found.value == "b"
    assert found.span is not None and text[found.span[0] : found.span[1]] == "B"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("So the answer is \\(\\boxed{B}\\).", "b"),
        ("The correct choice is \\(\\text{D}\\).", "d"),
        ("$$\\text{Answer: } \\mathbf{(A)}$$", "a"),
        ("The answer is \\fbox{C}.", "c"),
        ("Answer: ${\\rm B}$", "b"),
        ("The answer is $\\mathbf{C}$.", "c"),
        ("Comparing the spectra, the compound is 2-butanone. \\boxed{B} \\boxed{B}", "b"),
        ("Final Answer: The final answer is $\\boxed{C}$. I hope it is correct.", "c"),
    ],
)
def test_latex_wrappers(text: str, expected: str) -> None:
    assert v5(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"), [(" is (A).", "a"), (": D", "d"), (" C\n\n", "c"), (" b. 4", "b")]
)
def test_a_bare_continuation_of_a_prompt_ending_in_answer(text: str, expected: str) -> None:
    assert v5(text) == expected


# ------------------------------------------------------------- long degenerate outputs


def test_floods_are_read_at_their_ends() -> None:
    assert v5("B\n" * 300_000) == "b"
    assert v5("a\nb\nc\nd\n" * 100_000) is None
    assert v5("Answer: C\n" * 100_000) == "c"
    reasoned = "選択肢aは条文の要件に合致するため、したがって、回答はaです。\na\n"
    assert v5(reasoned + "b\nc\nd\na\na\n" * 5_000) == "a"


# ------------------------------------------------------------- properties

_INVISIBLE = st.sampled_from(["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"])


@settings(max_examples=300, deadline=None)
@given(CHOICE_OUTPUTS, st.data())
def test_invisible_characters_anywhere_change_nothing(text: str, data: st.DataObject) -> None:
    at = data.draw(st.integers(0, len(text)))
    mark = data.draw(_INVISIBLE)
    marked = text[:at] + mark + text[at:]
    plain, seen = extract(text, "choice/v5"), extract(marked, "choice/v5")
    assert seen.value == plain.value
    if seen.span is not None and plain.span is not None:
        # the same characters, each after the inserted mark one place further on
        first, last = (i + (i >= at) for i in (plain.span[0], plain.span[1] - 1))
        assert seen.span == (first, last + 1)


_TURNS = st.sampled_from(
    ["\n\nUSER: ", "\n\nHuman: ", "\n<|im_start|>user\n", "<|eot_id|>", " [INST] ", "</s>",
     "\n<end_of_turn>\n", "\n\n### Instruction:\n", "\n\nUser: "]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(CHOICE_OUTPUTS, _TURNS, CHOICE_OUTPUTS)
def test_an_appended_invented_turn_never_changes_the_answer(
    text: str, turn: str, after: str
) -> None:
    assert v5(text + turn + after) == v5(text)


# =========================================================================== choice/v6
# choice/v5's reading with its rules made general: markup tokens and brackets of any script are
# wrappers, answer words reach their choice across table bars and heading gaps, and choice-first
# verdicts, first-person choices and Chinese modal links in more words.


def v6(text: str, choices: str | None = None) -> str | None:
    value = extract(text, "choice/v6", choices=choices).value
    assert value is None or isinstance(value, str)
    return value


@pytest.mark.parametrize(("text", "expected"), SEED_EXAMPLES)
def test_choice_v6_passes_the_seed_examples(text: str, expected: str | None) -> None:
    assert v6(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The answer is <|box_start|>C<|box_end|>", "c"),
        ("<|begin_of_box|>D<|end_of_box|>", "d"),
        ("Answer: <|begin_of_box|>A<|end_of_box|>\n\nThe other options ignore drag.", "a"),
        ("<|begin_of_box|>\\boxed{C}<|end_of_box|>", "c"),
        ("\\boxed{\\text{C}}", "c"),
        ("Therefore the answer is $\\boxed{(B)}$.", "b"),
        ("\\boxed{B: A polygenic model with many variants of small effect}", "b"),
    ],
)
def test_special_tokens_and_boxes_are_wrappers(text: str, expected: str) -> None:
    assert v6(text) == expected


def test_a_chat_turn_token_still_ends_the_answer() -> None:
    turn = "<|im_end|>\n<|im_start|>user\nNext?<|im_end|>\n<|im_start|>assistant\nAnswer: A"
    assert v6("Answer: C" + turn) == "c"
    assert v6("<|im_start|>user\nWhich one?<|im_end|>\nAnswer: A") is None


@pytest.mark.parametrize(
    ("opening", "closing"),
    list(zip("«‹《〈〔〖❨⟨", "»›》〉〕〗❩⟩", strict=True)),
)
def test_brackets_and_quotes_of_any_script_are_wrappers(opening: str, closing: str) -> None:
    assert v6(f"The answer is {opening}B{closing}.") == "b"
    assert v6(f"答案：{opening}D{closing}") == "d"
    assert v6(f"{opening}C{closing}") == "c"
    assert v6(f"The answer is {opening} C {closing}.") == "c"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("| | |\n|---|---|\n| Final answer | **B** |", "b"),
        ("# Answer\n\n**(A)** Photosynthesis", "a"),
        ("**Answer**\n\n(C)", "c"),
        ("| Option | Verdict |\n|---|---|\n| A | wrong |\n| B | right |\n| C | wrong |", "b"),
    ],
)
def test_markdown_tables_and_headings(text: str, expected: str) -> None:
    assert v6(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("C would be my answer.", "c"),
        ("Option C would be my choice.", "c"),
        ("Among the options, (C) fits best.", "c"),
        ("D is the only one that works.", "d"),
        ("B, because the reaction releases heat.", "b"),
        ("B — since the others contradict the data.", "b"),
        ("I'm going with (D).", "d"),
        ("We choose A.", "a"),
        ("A, B and C are all mammals, so the odd one out is D.", "d"),
    ],
)
def test_choice_first_verdicts_and_first_person_choices(text: str, expected: str) -> None:
    assert v6(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "B would be wrong here because it ignores friction.",
        "D is the only one that contradicts the data.",
        "A, B and C are all mammals.",
        "B, C and D are wrong.",
        "I'm going with my gut on this one.",
    ],
)
def test_sentences_about_a_choice_are_not_verdicts(text: str) -> None:
    assert v6(text) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("答案应为B", "b"),
        ("A说法不对，C、D也不对，所以正确的是B。", "b"),
        ("根据以上分析，应该是A。", "a"),
        ("正确答案应该是 B 选项", "b"),
        ("因此，本题正确的选项为A。", "a"),
        ("答：选B。", "b"),
        ("答案为 B 或 D", None),
        ("答案不是A，而是D。", "d"),
    ],
)
def test_chinese_modal_links(text: str, expected: str | None) -> None:
    assert v6(text) == expected


@settings(max_examples=300, deadline=None)
@given(CHOICE_OUTPUTS, st.sampled_from(["<|begin_of_box|>", "<|box_start|>", "<|ref|>"]))
def test_a_wrapping_markup_token_changes_nothing(text: str, token: str) -> None:
    closing = token.replace("begin", "end").replace("start", "end").replace("ref", "/ref")
    assert v6(token + text + closing) == v6(text)


@settings(max_examples=300, deadline=None)
@given(CHOICE_OUTPUTS, _TURNS, CHOICE_OUTPUTS)
def test_choice_v6_an_appended_invented_turn_never_changes_the_answer(
    text: str, turn: str, after: str
) -> None:
    assert v6(text + turn + after) == v6(text)


@settings(max_examples=300, deadline=None)
@given(CHOICE_OUTPUTS, st.data())
def test_choice_v6_invisible_characters_anywhere_change_nothing(
    text: str, data: st.DataObject
) -> None:
    at = data.draw(st.integers(0, len(text)))
    marked = text[:at] + data.draw(_INVISIBLE) + text[at:]
    assert v6(marked) == v6(text)
