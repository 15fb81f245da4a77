"""The classes choice/v11 adds to v10: alternatives joined by one short word in any script, a
code conditional, a parenthetical that is one label, more end-of-turn markers (any user-side
special token, bare role tags, an exam's `<eoa>`), HTML markup, a check mark before a label,
"is the closest", "I lean towards", positions from the end and German compound nouns, and in
``plain-answer``/``last-resort`` labels rejected by a negation word of many languages, corrected
by the label after them ("nav B, bet A"), a short particle after a label ("C da,"), one-letter
conjunctions, formula variables and someone else's pick. Each table pairs the forms read with
look-alikes that are not answers.

Beside it: v10 (`test_choice_v10.py`), v9, v8 and older versions.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from answer_audit import extract
from choice_cases import SEED_EXAMPLES, assert_choice_or_none


def v11(text: str, choices: str | None = None) -> str | None:
    value = extract(text, "choice/v11", choices=choices).value
    assert value is None or isinstance(value, str)
    return value


@pytest.mark.parametrize(("text", "expected"), SEED_EXAMPLES)
def test_choice_v11_passes_the_seed_examples(text: str, expected: str | None) -> None:
    assert v11(text) == expected


# (text, choices or None for abcd, expected)
ALTERNATIVES = [
    ("(a) or (c); both could work here.", None, None),
    ("Відповідь Б або В, точно не знаю.", "абвг", None),
    ("Cevap B veya D olabilir, emin değilim.", None, None),
    ("Vastaus on B tai D, en ole varma.", None, None),
    ('choice = "A" if score > 3 else "D"', None, None),
    ("result = 'C' if x else 'B'", None, None),
    # not alternatives: a reason, a one-letter word, the next line
    ("I'd go with C because D ignores friction.", None, "c"),
    ("The answer is C since D ignores friction.", None, "c"),
    ("Answer: B\n\nQuestion 2: Which is larger?", None, "b"),
    ("Answer: (D) a whole new approach", None, "d"),
]
PARENTHESES = [
    ("Answer: (C) Canberra was purpose-built", None, "c"),
    ("Answer: (B) A cat sleeping on a mat", None, "b"),
    ("Réponse : (D) Le chat dort", None, "d"),
    ("答案：（A） 一只狗", None, "a"),
    # an aside that is no label is still skipped
    ("Answer (one letter): B", None, "b"),
]
TURNS = [
    ("C<|END_OF_TURN_TOKEN|><|START_OF_TURN_TOKEN|><|USER_TOKEN|>Why not D?", None, "c"),
    ("The answer is A.<|user|>And the next one? The answer is D.", None, "a"),
    ("答案：B<用户>下一题？<AI>选C。", None, "b"),
    ("Answer: D <user> next one, answer: A", None, "d"),
    ("【解析】略。<eoe>\n【答案】 C <eoa>\n【解析】又一题。<eoe>\n【答案】 A <eoa>", None, "c"),
    ("【答案】 B <eoa>", None, "b"),
]
MARKUP = [
    ('<div><strong>Answer:</strong> <span class="opt">B</span></div>', None, "b"),
    ("<p>Answer: <b>C</b></p>", None, "c"),
    ("✅ C — the only option with the right units.", None, "c"),
    ("✔ B: correct units.", None, "b"),
    # a check mark on two options is no single pick; x<sub>2</sub> keeps its text
    ("✅ A: fine\n✅ C: also fine", None, None),
    ("H<sub>2</sub>O is water.", "1234", None),
]
VERDICTS = [
    ("Neither B nor D fits; A is the closest.", None, "a"),
    ("D is the closest one.", None, "d"),
    ("Between A and C I'm leaning towards C.", None, "c"),
    ("The penultimate option is correct.", None, "c"),
    ("The second-to-last option is right.", "abcde", "d"),
    ("Die vierte Antwortmöglichkeit ist richtig.", None, "d"),
    ("Die vorletzte Antwortoption ist richtig.", None, "c"),
    # the last option, not the second
    ("The last option is correct.", None, "d"),
]
REJECTIONS = [
    ("Svaret er ikke c.", None, None),
    ("Odpowiedź to nie B.", None, None),
    ("Răspunsul nu este A.", None, None),
    ("Svaret är inte B, utan D.", None, "d"),
    ("Odpověď není A, ale C.", None, "c"),
    ("Vastaus ei ole B, vaan C.", None, "c"),
    ("Ang sagot ay hindi A, kundi D.", None, "d"),
    ("Válasz nem B, hanem C.", None, "c"),
    ("Не Б, а В, бо це столиця.", "абвг", "в"),
    ("Svaret er ikke b, og heller ikke c.", None, None),
    ("It isn't D.", None, None),
    ("Jawapannya bukan C.", None, None),
    ("Η απάντηση δεν είναι το Β.", "αβγδ", None),
    ("Not A.", None, None),
    # the reverse order: the first is the answer, the second rejected
    ("Atsakymas yra C, ne A.", None, "c"),
]
PLAIN = [
    ("Erantzuna B da.", None, "b"),
    ("Jibu sahihi ni C.", None, "c"),
    ("Deebiin A dha.", None, "a"),
    ("Odgovor je D ovdje.", None, None),
    ("Përgjigja e duhur është D.", None, "d"),
    ("Resposta correta e certa: B.", None, "b"),
    # English short words after a label: a name or a mention
    ("I take vitamin C too.", None, None),
    ("We need plan B now.", None, None),
    # formula variables
    ("Since a_2 = 5 and d = 3, S_4 =", None, None),
    ("The rule gives F = C - P + 2, so one degree of freedom.", "abcdefghij", None),
    ("x^b grows faster.", None, None),
    # someone else's pick
    ("My friend picked B. I'm not sure.", None, None),
    ("Her teacher chose D.", None, None),
    ("She picked A.", None, None),
    ("My friend picked B, but I think C.", None, "c"),
]
ALL = ALTERNATIVES + PARENTHESES + TURNS + MARKUP + VERDICTS + REJECTIONS + PLAIN


@pytest.mark.parametrize(("text", "choices", "expected"), ALL)
def test_choice_v11_reads_its_classes_and_not_their_look_alikes(
    text: str, choices: str | None, expected: str | None
) -> None:
    assert v11(text, choices) == expected


def test_the_tables_hold_negatives() -> None:
    assert sum(expected is None for _, _, expected in ALL) >= 25


# Pieces of the new forms and their look-alikes.
_PIECES = st.sampled_from(
    ["Svaret er ", "B", "C", "a ", " ", "\n", ".", ", ", "ikke ", "nav ", " bet ", " da", " or ",
     "(D)", "✅ ", "<b>", "</b>", '<span class="x">', "<eoa>", "<|USER_TOKEN|>", "<用户>", " = ",
     "_1", "my friend chose ", "second-to-last option", "?", " if ", '"']
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=16).map("".join))
def test_choice_v11_reads_any_mix_of_its_new_forms_to_a_choice_or_none(text: str) -> None:
    assert_choice_or_none(extract(text, "choice/v11"), text)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["Svaret er ikke {}", "Atbilde nav {}", "Erantzuna ez da {}", "It is not {}"]),
    st.sampled_from([", men {}.", ", bet {}.", ", {} baizik.", ", but {}."]),
    st.sampled_from("BCD"),
    st.sampled_from("BCD"),
)
def test_a_rejected_label_is_never_the_answer(first: str, second: str, x: str, y: str) -> None:
    text = first.format(x) + second.format(y)
    found = extract(text, "choice/v11")
    assert found.value != x.lower() or x == y
    if x != y:
        assert found.value in (None, y.lower())
