"""The general readings choice/v10 adds to v9 (`choice_plain`): a plain answer named by the shape
and place of its label in any language (``plain-answer``), a final sentence that corrects the
opening answer in its own words (``correction``), an invented next item (``item-cut``), and a
few more last-resort positions (a JSON value "Option B", an XML element, a keyword argument, a
label in parentheses ending a line). Each table pairs the forms read with look-alikes that are
not answers: articles, pronouns and prepositions that look like labels, numbers and years in a
set of letters, alternatives, questions, doubt, cut-off sentences, abbreviations and keys.

Beside it: v9 (`test_choice_v9.py`), v8 (`test_choice_v8.py`), older versions (`test_choice.py`).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from answer_audit import extract
from choice_cases import SEED_EXAMPLES, assert_choice_or_none


def v10(text: str, choices: str | None = None) -> str | None:
    value = extract(text, "choice/v10", choices=choices).value
    assert value is None or isinstance(value, str)
    return value


@pytest.mark.parametrize(("text", "expected"), SEED_EXAMPLES)
def test_choice_v10_passes_the_seed_examples(text: str, expected: str | None) -> None:
    assert v10(text) == expected


@pytest.mark.parametrize(
    ("text", "choices", "expected"),
    [
        ("Prawidłowa odpowiedź to B, ponieważ Wisła jest najdłuższą rzeką.", "abcd", "b"),
        ("Doğru cevap kesinlikle B, çünkü Ankara başkenttir.", "abcd", "b"),
        ("Rätt svar är alltså c, eftersom Stockholm ligger vid Mälaren.", "abcd", "c"),
        ("Svarið er b, vegna þess að Ísland er eyja.", "abcd", "b"),
        ("Amsar daidai ita ce (C) saboda ruwan sama ya yi.", "abcd", "c"),
        ("Impendulo eqondile ngu-B, ngoba kunjalo.", "abcd", "b"),
        ("Правилният отговор е Г, защото текстът го казва.", "абвг", "г"),
        ("Η απάντηση λοιπόν είναι Β, επειδή το κείμενο το αναφέρει.", "αβγδ", "β"),
        ("התשובה שלי היא ב, כי הטקסט אומר זאת במפורש.", "אבגד", "ב"),
        ("উত্তরটি হলো গ কারণ অনুচ্ছেদে তা বলা হয়েছে।", "কখগঘ", "গ"),
        ("ចម្លើយ​ត្រឹមត្រូវ៖ គ ព្រោះ​អត្ថបទ​និយាយ​ដូច្នេះ។", "កខគឃ", "គ"),
        # the final sentence after reasoning
        (
            "Mõtleme samm-sammult. Hind tõuseb. Seega sobib vastuseks D, sest nii.",
            "abcdefghij",
            "d",
        ),
        ("Câu trả lời là (Ј).", "abcdefghij", "j"),  # a Cyrillic look-alike of J
        # option numbers in a set of numbers, in any script's digits
        ("Phương án đúng là số 3 vì nhiệt độ tăng.", "1234", "3"),
        ("پاسخ صحیح گزینه ۴ است زیرا متن این را می‌گوید.", "1234", "4"),
        ("उत्तर विकल्प २ है क्योंकि लेख यही कहता है।", "1234", "2"),
    ],
)
def test_a_plain_answer_is_read_by_the_shape_and_place_of_its_label(
    text: str, choices: str, expected: str
) -> None:
    assert extract(text, "choice/v9", choices=choices).value is None  # v9 read none of these
    found = extract(text, "choice/v10", choices=choices)
    assert (found.value, found.rule) == (expected, "plain-answer")


@pytest.mark.parametrize(
    ("text", "choices"),
    [
        # articles, pronouns, conjunctions and prepositions that look like labels
        ("A resposta depende de quem a pergunta faz.", "abcd"),
        ("Ez a kérdés nehéz, és a szöveg nem mondja meg.", "abcd"),
        ("Il y a plusieurs possibilités, je ne sais pas.", "abcd"),
        ("Kot i pies śpią, a ja czekam.", "abcdefghij"),
        ("Det finns i texten men inte i frågan.", "abcdefghij"),
        ("La casa e il giardino sono grandi.", "abcde"),
        ("Я был в Москве и в Киеве.", "абвг"),
        ("Take vitamin C every day and rest.", "abcd"),
        ("Plan B is what most people choose here.", "abcd"),
        # numbers in a set of letters: years, quantities, prices, temperatures
        ("The treaty was signed in 1648 and 3 states joined.", "abcd"),
        ("Có 4 quả táo trên bàn.", "abcd"),
        ("Es kostet 3,5 Euro, also 2 Stück.", "abcd"),
        ("Water boils at 100°C at sea level.", "abcd"),
        # two options, a list, a question, someone else's answer, a contrast
        ("Jibu linaweza kuwa B au C.", "abcd"),
        ("答案可能係 A 或者 C。", "abcd"),
        ("A 同 C 都啱，我揀唔到。", "abcd"),
        ("Mehrere Optionen passen: B, C und D.", "abcd"),
        ("Is it B?", "abcd"),
        ("Er det b? Eller kanskje d?", "abcd"),
        ("My friend picked D, but I have not checked it yet.", "abcd"),
        # cut off inside a sentence that names an option
        ("Rozważmy opcję (A), która mówi o", "abcd"),
        ("آئیے دیکھتے ہیں۔ آپشن B میں دی گئی", "abcd"),
        # an option named in reasoning, another in the final sentence
        ("Option B seems plausible at first. The final sentence names D instead.", "abcd"),
        # an abbreviation, a heading before a colon, a value that is a number
        ("The U.S.A.", "abcd"),
        ("Option A: wrong unit.", "abcd"),
        ('{"grade": "grade 3"}', "abcd"),
        ("H<sub>2</sub>O is water.", "abcd"),
    ],
)
def test_look_alikes_of_a_plain_answer_are_no_answer(text: str, choices: str) -> None:
    assert v10(text, choices) is None


@pytest.mark.parametrize(
    ("text", "choices", "expected"),
    [
        ("<result>\n  <option>C</option>\n</result>", "abcd", "c"),
        ("Pick(choice='B', why='largest')", "abcd", "b"),
        ('{"svar": "Alternativ D"}', "abcd", "d"),
        ("Svar: tlen (opcja C).", "abcd", "c"),
        ("Laten we stap voor stap denken. Dus het antwoord wordt (F).", "abcdefghij", "f"),
    ],
)
def test_last_resort_reads_markup_holding_one_label(text: str, choices: str, expected: str) -> None:
    assert v10(text, choices) == expected


@pytest.mark.parametrize(
    ("text", "choices", "expected", "first"),
    [
        ("Odpověď: B\n\nMoment, špatně jsem četl otázku. Správná odpověď je tedy D.", "abcd",
         "d", "b"),
        ("Cevap: A\n\nBekle, soruyu yanlış okudum. Doğru cevap aslında C.", "abcd", "c", "a"),
        ("答えはアです。すみません、読み違えました。正しくはウです。", "アイウエ", "ウ", "ア"),
    ],
)  # fmt: skip
def test_a_final_sentence_correcting_the_opening_answer_in_its_words_wins(
    text: str, choices: str, expected: str, first: str
) -> None:
    assert extract(text, "choice/v9", choices=choices).value == first
    found = extract(text, "choice/v10", choices=choices)
    assert (found.value, found.rule) == (expected, "correction")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Svar: b\n\nJeg har tjekket det igen. Svaret er stadig b.", "b"),  # the same option
        ("Answer: D\n\nStory: Once upon a time.\nAnswer: B", "d"),  # a new item's header
        ("Svar: a\n\nAlternativ c er også interessant. Svaret er derfor b.", "a"),  # c between
        ("So the answer is (A).\nThe answer is (D).", "d"),  # no label line opens it: v9's
        ("Svar: a\n\nSvaret er ikke c?", "a"),  # a question corrects nothing
    ],
)
def test_no_correction_without_the_opening_answer_s_words_alone(text: str, expected: str) -> None:
    found = extract(text, "choice/v10")
    assert found.value == expected
    assert found.rule != "correction"


@pytest.mark.parametrize(
    ("text", "choices", "expected"),
    [
        ("Svar: b\n\nSpørgsmål: Hvad er hovedstaden i Norge?\nSvarmuligheder:\na. Oslo\n"
         "b. Bergen\nc. Trondheim\nd. Stavanger\nSvar: a", "abcd", "b"),
        ("Vastaus: (B).\n\nKysymys: Mikä on Suomen pääkaupunki?\nVaihtoehdot: (A) Turku "
         "(B) Helsinki (C) Tampere\nVastaus: (A).", "abcdefghij", "b"),
        ("תשובה: ב\n\nשאלה: מהי בירת ישראל?\nתשובה: ג", "אבגד", "ב"),
    ],
)  # fmt: skip
def test_an_invented_next_item_ends_the_answer(text: str, choices: str, expected: str) -> None:
    assert extract(text, "choice/v9", choices=choices).value != expected
    assert v10(text, choices) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # nothing before the question names an option: the list is the output's own
        ("Which is right?\nA) heat\nB) light\nC) sound\nAnswer: B", "b"),
        # a question with neither an option list nor a used header after it
        ("Svar: b\n\nHvorfor ikke c?\nFordi c handler om noget andet. Svar: c", "c"),
    ],
)
def test_a_question_without_a_new_item_cuts_nothing(text: str, expected: str) -> None:
    assert v10(text) == expected


# Plain answer sentences and look-alikes, in pieces.
_PIECES = st.sampled_from(
    ["Svaret er ", "B", "C", "a ", "i ", " ", "\n", ".", ", ", "fordi ", "Spørgsmål: x?", "a. x",
     "b. y", "c. z", "(D)", "ikke ", "?", "1905", "۲", "vitamin ", "Svar: ", "Ј", "<o>A</o>"]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=16).map("".join))
def test_choice_v10_reads_any_mix_of_its_new_forms_to_a_choice_or_none(text: str) -> None:
    assert_choice_or_none(extract(text, "choice/v10"), text)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["Rätt svar är {}.", "Odpowiedź to {}.", "答案係 {}。", "Jawaban: {}"]),
    st.sampled_from(["Kanske {} också.", "Hoặc {} cũng được.", "{} 都啱。", "Pilihan {} juga."]),
    st.sampled_from("BCD"),  # (A before a word reads as a word: "Kanske A också" names none)
    st.sampled_from("BCD"),
)
def test_plain_answer_never_answers_when_the_tail_names_two_options(
    first: str, second: str, x: str, y: str
) -> None:
    found = extract(first.format(x) + " " + second.format(y), "choice/v10")
    if x != y:
        assert found.rule != "plain-answer"
    assert found.value in (None, x.lower(), y.lower())
