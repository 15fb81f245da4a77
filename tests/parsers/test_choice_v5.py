"""choice/v5: everything choice/v4 reads, plus the conventions of issue 19 (one test per
convention, on outputs written for the test), the terminal-answer rule, and properties of text
handling (invisible characters, invented turns) checked with hypothesis."""

from __future__ import annotations

import dataclasses
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from answer_audit import extract
from answer_audit.parsers.choice_script import script_choices, token_set
from answer_audit.parsers.choice_terminal import RULE as TERMINAL
from answer_audit.parsers.choice_terminal import terminal_rule
from answer_audit.parsers.presets.choice import CHOICE_V5
from choice_cases import SEED_EXAMPLES
from paths import REPO

FULL_READING = dataclasses.replace(CHOICE_V5, terminal=False)


def v5(text: str, choices: str | None = None, options: list[str] | None = None) -> str | None:
    value = extract(text, "choice/v5", choices=choices, choices_text=options).value
    assert value is None or isinstance(value, str)
    return value


@pytest.mark.parametrize(("text", "expected"), SEED_EXAMPLES)
def test_the_seed_examples(text: str, expected: str | None) -> None:
    assert v5(text) == expected


# ------------------------------------------------------------- what choice/v4 already reads

ECHO = "回答（1文字のみ）: "


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
def test_what_choice_v4_reads(text: str, expected: str) -> None:
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
def test_what_choice_v4_reads_as_no_answer(text: str) -> None:
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


# ------------------------------------------------------------- option letters in other scripts


@pytest.mark.parametrize(
    ("text", "letters", "expected"),
    [
        ("الإجابة: ج", "أبجد", "ج"),
        ("الجواب: أ", "أبجد", "أ"),
        ("ا", "أبجد", "أ"),  # a bare alif for أ
        ("ج) تزداد الحرارة", "أبجد", "ج"),
        ("الخيار أ خاطئ، والخيار ب خاطئ. الإجابة: د", "أبجد", "د"),
        ("الإجابة: B", "أبجد", "ب"),  # a Latin letter names the option at its position
        ("उत्तर: (ग)", "कखगघ", "ग"),
        ("उत्तर：क", "कखगघ", "क"),
        ("উত্তরঃ ঘ", "কখগঘ", "ঘ"),
        ("উত্তর: অ", "অবডঢ", "অ"),
        ("正解はウです。", "アイウエ", "ウ"),
        ("アとエは時代が異なるので誤り。したがって答えはウ。", "アイウエ", "ウ"),
        ("①と④は誤り。よって答えは②。", "①②③④", "②"),
        ("甲、乙两项均错误，故选丁。", "甲乙丙丁", "丁"),
        ("ㄱ과 ㄷ은 옳지 않으므로 정답은 ㄹ이다.", "ㄱㄴㄷㄹ", "ㄹ"),
    ],
)
def test_native_option_letters_when_the_choices_say_so(
    text: str, letters: str, expected: str
) -> None:
    assert v5(text, letters) == expected


def test_native_letters_are_not_read_for_latin_choices() -> None:
    assert v5("الإجابة: ج") is None
    assert v5("正解はウです。") is None


def test_script_choices_are_validated() -> None:
    assert script_choices("A, B, C") == "abc"
    with pytest.raises(ValueError):
        script_choices("aA")  # two labels that read the same
    with pytest.raises(ValueError):
        extract("Answer: B", "choice/v4", choices="أبجد")  # older presets take Latin only
    assert token_set("abcd").value("third option") == "c"


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


def test_option_text_without_its_closing_full_stop() -> None:
    options = ["Paris is big.", "Rome is old.", "Madrid is hot.", "Berlin is cold."]
    assert v5("Rome is old", options=options) == "b"


# ------------------------------------------------------------- the terminal-answer rule

ENDINGS = ["The answer is ({X}).", "Answer: {X}", "**Answer:** {X}", "ANSWER: {X}",
           "Final Answer: $\\boxed{{{X}}}$", "So the correct option is {X}.", "答案: {X}"]  # fmt: skip


@pytest.mark.parametrize("ending", ENDINGS)
def test_an_output_that_ends_with_its_answer_line_decides_at_once(ending: str) -> None:
    text = "Let's think step by step. Option A confuses mass and weight.\n\n" + ending.format(X="C")
    found = extract(text, "choice/v5")
    assert (found.value, found.rule) == ("c", TERMINAL)
    assert found.span is not None and text[found.span[0] : found.span[1]] == "C"


@pytest.mark.parametrize(
    "text",
    [
        "Answer: A\n\nWait, the second step was wrong.\n\nAnswer: C",  # another answer line
        "A\nB\nC\nAnswer: D",  # letters alone
        "<think>x</think>\nAnswer: C",  # a reasoning tag
        "ANSWER: A\n\nUSER: next?\nAnswer: C",  # a turn
        "The answer is (A).\nThe answer is (B).\nThe answer is (C).",
    ],
)
def test_the_terminal_rule_leaves_other_outputs_to_the_full_reading(text: str) -> None:
    assert terminal_rule("abcd") is not None
    assert terminal_rule("abcd").answer(text) is None  # type: ignore[union-attr]


def _cot_outputs() -> list[str]:
    sys.path.insert(0, str(REPO / "benchmarks"))
    from cot import cot_outputs  # benchmarks/ is not a package: imported by path

    return cot_outputs(400, seed=11, hard=0.3)


def test_the_terminal_rule_agrees_with_the_full_reading_where_it_decides() -> None:
    rule = terminal_rule("abcd")
    assert rule is not None
    decided = 0
    for text in _cot_outputs():
        found = rule.answer(text)
        if found is None:
            continue
        decided += 1
        full = FULL_READING.extract(text)
        assert (full.value, full.span) == (found[2], (found[0], found[1])), text
    assert decided > 200


# ------------------------------------------------------------- long degenerate outputs


def test_floods_are_read_at_their_ends() -> None:
    assert v5("B\n" * 300_000) == "b"
    assert v5("a\nb\nc\nd\n" * 100_000) is None
    assert v5("Answer: C\n" * 100_000) == "c"
    reasoned = "選択肢aは条文の要件に合致するため、したがって、回答はaです。\na\n"
    assert v5(reasoned + "b\nc\nd\na\na\n" * 5_000) == "a"


# ------------------------------------------------------------- properties

_PIECES = st.sampled_from(
    ["Answer: ", "The answer is ", "(", ")", "B", "C", "a", " ", "\n", ".", "so ", "not ",
     "Option ", "is correct", "答案：", "**", "$", "\\boxed{", "}", "maybe ", "?", "e.g. "]
)  # fmt: skip
_TEXTS = st.lists(_PIECES, max_size=14).map("".join)
_INVISIBLE = st.sampled_from(["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"])


@settings(max_examples=300, deadline=None)
@given(_TEXTS, st.data())
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
@given(_TEXTS, _TURNS, _TEXTS)
def test_an_appended_invented_turn_never_changes_the_answer(
    text: str, turn: str, after: str
) -> None:
    assert v5(text + turn + after) == v5(text)


@settings(max_examples=300, deadline=None)
@given(_TEXTS)
def test_the_terminal_rule_and_the_full_reading_agree(text: str) -> None:
    rule = terminal_rule("abcd")
    assert rule is not None
    found = rule.answer(text)
    if found is not None:
        full = FULL_READING.extract(text)
        assert (full.value, full.span) == (found[2], (found[0], found[1]))
