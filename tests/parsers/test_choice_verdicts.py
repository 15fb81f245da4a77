"""Verdicts, mapped values, alternatives and markup (the classes choice/v7 reads beyond v6, which
missed them on its held-out splits): one test per class with its near variants and its
look-alikes that are not answers; and properties of text
handling checked with hypothesis (code fences, verdict lists, appended turns, invisible
characters).

Beside it, by topic: v1 .. v6 (`test_choice.py`), option text, other scripts, the terminal rule.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from answer_audit import extract
from choice_cases import SEED_EXAMPLES
from strategies import CHOICE_OUTPUTS


def v7(text: str, choices: str | None = None) -> str | None:
    value = extract(text, "choice/v7", choices=choices).value
    assert value is None or isinstance(value, str)
    return value


def v7_rule(text: str) -> str:
    return extract(text, "choice/v7").rule


@pytest.mark.parametrize(("text", "expected"), SEED_EXAMPLES)
def test_choice_v7_passes_the_seed_examples(text: str, expected: str | None) -> None:
    assert v7(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The ratio is 1.41, which corresponds to option B.", "b"),
        ("The computed period is 2.4 s, matching choice (C).", "c"),
        ("This value of 0.35 M is consistent with option (A).", "a"),
        ("x = 3, which matches (D).", "d"),
        ("The measured value (2.2 eV) corresponds to C.", "c"),
        ("Das Ergebnis entspricht Option B.", "b"),
        ("El valor obtenido corresponde a la opción D.", "d"),
        # a denied mapping is no answer; the one affirmed after it is
        ("The value does not correspond to option A.", None),
        ("x = 4 doesn't match option B; it matches option C.", "c"),
        ("Option A corresponds to the first law and option B to the second.", None),
    ],
)
def test_a_value_mapped_to_an_option(text: str, expected: str | None) -> None:
    assert v7(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Choice C best fits the passage.", "c"),
        ("Option B best describes the author's tone.", "b"),
        ("D most closely matches the definition of a monopoly.", "d"),
        ("Of the four, (B) comes closest.", "b"),
        # option A, not the article, before a verdict
        ("A best describes the author's purpose.", "a"),
        ("A would be my answer.", "a"),
        ("A fits best.", "a"),
        # the article stays an article
        ("The answer is a best guess at most.", None),
        ("This is a most closely watched race.", None),
    ],
)
def test_superlative_verdicts_after_the_choice(text: str, expected: str | None) -> None:
    assert v7(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("- A: no\n- B: no\n- C: yes\n- D: no", "c"),
        ("A: false\nB: true\nC: false\nD: false", "b"),
        ("A ❌\nB ❌\nC ❌\nD ✅", "d"),
        ("| Option | Correct? |\n|---|---|\n| A | Yes |\n| B | No |\n| C | No |", "a"),
        ("A. Incorrect - too slow.\nB. Correct - it doubles.\nC. Incorrect - no change.", "b"),
        ("A：错\nB：对\nC：错\nD：错", "b"),
        # an answer after the list wins, as every final statement does
        ("A: yes\nB: yes\nC: no\n\nOn reflection the answer is B.", "b"),
        # one line alone is no list: the A: of an invented Q/A pair answers nothing
        ("Answer: D\n\nQ: Sure?\nA: Yes", "d"),
    ],
)
def test_a_per_option_verdict_list_gives_the_one_option_judged_right(
    text: str, expected: str
) -> None:
    assert v7(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "- A: no\n- B: yes\n- C: yes\n- D: no",
        "A: correct\nB: correct\nC: incorrect\nD: incorrect",
        "A ✓\nB ✓\nC ✗\nD ✗",
    ],
)
def test_a_verdict_list_that_passes_two_options_gives_none(text: str) -> None:
    found = extract(text, "choice/v7")
    assert (found.value, found.rule) == (None, "verdict-list-no-answer")
    assert v7("A: no\nB: no\nC: no\nD: no") is None


@pytest.mark.parametrize(
    "text",
    [
        "The answer is either \\boxed{A} or \\boxed{C}.",
        "Final answer: $\\boxed{B}$ or $\\boxed{D}$",
        "答案是\\boxed{A}或\\boxed{C}",
        "\\boxed{A}, \\boxed{C}",
        "Answer: A/C",
        "The answer is (A) or (B).",
        "It is **A** or **C**, I cannot decide.",
    ],
)
def test_both_of_two_alternatives_are_dropped(text: str) -> None:
    assert v7(text) is None


def test_a_choice_named_later_on_its_own_still_counts() -> None:
    assert v7("I narrowed it down to A or C, and C is the better answer.") == "c"
    assert v7("Answer: A or C?\n\nOn reflection, Answer: C") == "c"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Answer: `D`", "d"),
        ("**Answer:** `B`", "b"),
        ("The answer is ``C``.", "c"),
        ("`A`", "a"),
        ("```\nB\n```", "b"),
    ],
)
def test_code_spans_are_markup(text: str, expected: str) -> None:
    assert v7(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A resposta correta é a D.", "d"),
        ("A alternativa correta é a C, pois o ácido é fraco.", "c"),
        ("A resposta certa é o B.", "b"),
        ("A resposta é o item C.", "c"),
        ("La bonne réponse est donc la C.", "c"),
        ("La respuesta correcta es, por lo tanto, la D.", "d"),
        ("Quindi la risposta corretta è la A.", "a"),
        ("A resposta é A.", "a"),
        # an article before a word is no letter
        ("A resposta é a mais provável, mas não tenho certeza.", None),
    ],
)
def test_an_article_between_a_romance_copula_and_the_letter(
    text: str, expected: str | None
) -> None:
    assert v7(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Conclusion: (B). Eliminated: (A), (C), (D).", "b"),
        ("Verdict: C — the other three misread the statute.", "c"),
        ("Final decision: A, since only it balances the budget.", "a"),
        ("Selected option: D (the others contradict the text).", "d"),
        ("Fazit: B, weil nur diese Aussage stimmt.", "b"),
        ("结论：C。", "c"),
        ("In conclusion, A and C are both wrong.", None),
    ],
)
def test_answer_labels_in_other_words(text: str, expected: str | None) -> None:
    assert v7(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The user thinks the answer is C, but actually it's A: the war ended in 1783.", "a"),
        ("Some would say D, but it's B — the enzyme is denatured above 60 °C.", "b"),
        ("I first leaned towards A, but it is C, because the current doubles.", "c"),
        ("That's D: only a tuple is immutable.", "d"),
        ("So it's B; the others ignore friction.", "b"),
        # an article, a number, or no reason after it: not this rule
        ("It's a long story: the data are incomplete.", None),
        ("So 4: the next step.", None),
    ],
)
def test_a_concluding_choice_followed_by_its_reason(text: str, expected: str | None) -> None:
    assert v7(text) == expected


def test_rules_name_what_decided() -> None:
    assert v7_rule("- A: no\n- B: yes\n- C: no") == "verdict-line"
    assert v7_rule("Answer: `D`") == "answer-statement"
    assert v7_rule("Reasoning.\n\nAnswer: D") == "final-answer-line"


# ----------------------------------------------------------------------- properties

_VERDICT_YES = st.sampled_from(["yes", "Yes", "true", "correct", "✓", "✅", "对"])
_VERDICT_NO = st.sampled_from(["no", "No", "false", "incorrect", "✗", "❌", "错"])
_BULLETS = st.sampled_from(["", "- ", "* ", "| ", "Option "])
_SEPARATORS = st.sampled_from([": ", " - ", " | ", ": **"])


@settings(max_examples=200, deadline=None)
@given(st.data(), st.integers(2, 6), _BULLETS, _SEPARATORS)
def test_a_verdict_list_answers_its_one_yes_and_nothing_for_two(
    data: st.DataObject, n: int, bullet: str, separator: str
) -> None:
    letters = "ABCDEF"[:n]
    picked = data.draw(st.sets(st.sampled_from(letters), max_size=3))
    lines = [
        f"{bullet}{x}{separator}{data.draw(_VERDICT_YES if x in picked else _VERDICT_NO)}"
        for x in letters
    ]
    expected = next(iter(picked)).lower() if len(picked) == 1 else None
    assert v7("\n".join(lines), choices=letters) == expected


@settings(max_examples=300, deadline=None)
@given(CHOICE_OUTPUTS, st.sampled_from(["```\n", "```text\n", "`"]))
def test_a_code_fence_around_the_output_changes_nothing(text: str, fence: str) -> None:
    closing = "\n```" if fence.startswith("```") else "`"
    assert v7(fence + text + closing) == v7(text)


_TURNS = st.sampled_from(
    ["\n\nUSER: ", "\n\nHuman: ", "\n<|im_start|>user\n", "<|eot_id|>", " [INST] ", "</s>",
     "\n<end_of_turn>\n", "\n\n### Instruction:\n", "\n\nUser: "]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(CHOICE_OUTPUTS, _TURNS, CHOICE_OUTPUTS)
def test_choice_v7_an_appended_invented_turn_never_changes_the_answer(
    text: str, turn: str, after: str
) -> None:
    assert v7(text + turn + after) == v7(text)


_INVISIBLE = st.sampled_from(["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"])


@settings(max_examples=300, deadline=None)
@given(CHOICE_OUTPUTS, st.data())
def test_choice_v7_invisible_characters_anywhere_change_nothing(
    text: str, data: st.DataObject
) -> None:
    at = data.draw(st.integers(0, len(text)))
    marked = text[:at] + data.draw(_INVISIBLE) + text[at:]
    assert v7(marked) == v7(text)


_NEW_PIECES = st.sampled_from(
    ["Answer: ", "The answer is ", "B", "C", "a", " ", "\n", ".", ": ", "yes", "no", "`",
     "\\boxed{", "}", " or ", "it's ", "é a ", "corresponds to option ", "best fits",
     "Conclusion: ", "- ", "because "]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(_NEW_PIECES, max_size=16).map("".join))
def test_choice_v7_reads_any_mix_of_its_new_forms_to_a_choice_or_none(text: str) -> None:
    found = extract(text, "choice/v7")
    assert found.value in (None, "a", "b", "c", "d")
    if found.span is not None:  # the span points at the choice it read
        start, end = found.span
        assert 0 <= start < end <= len(text)
        assert text[start:end].lower() == found.value
