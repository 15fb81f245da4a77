"""number/v4: what it reads beyond number/v3 (number words of other languages, the zero-shot-CoT
answer phrase with its parenthesis, ConvFinQA programs, answers in parts, texts cut off after a
copula, invented follow-up questions, answer prefixes inside code that was run), each class with
negatives, and number/v3 unchanged on the same texts."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from answer_audit import extract
from answer_audit.text.number_words_languages import LANGUAGES, language_word_numbers


def value(text: str, preset: str) -> str | None:
    found = extract(text, preset).value
    assert found is None or isinstance(found, str)
    return found


# (text, number/v4's value, number/v3's value): v3's column pins that it is frozen.
CASES = [
    # --- number words in the answer word's language
    ("Die Antwort lautet dreiundzwanzig.", "23", None),
    ("Antwort: zweitausendvierhundertelf Euro", "2411", None),
    ("La respuesta es cuarenta y dos.", "42", None),
    ("Respuesta: dos mil veintiséis", "2026", None),
    ("La réponse est quatre-vingt-dix-sept.", "97", None),
    ("La réponse est soixante et onze.", "71", None),
    ("La réponse est mille deux cent trente-quatre.", "1234", None),
    ("La risposta è ventotto.", "28", None),
    ("Risposta: sei", "6", None),
    ("A resposta é mil novecentos e oitenta e quatro.", "1984", None),
    ("Ответ: две тысячи двадцать четыре.", "2024", None),
    ("Ответ: минус семь", "-7", None),
    ("Cevap: bin dokuz yüz seksen dört", "1984", None),
    ("Het antwoord is tweeënveertig.", "42", None),
    ("Odpowiedź: dwieście pięćdziesiąt sześć", "256", None),
    ("Cevap: bir", "1", None),  # an article alone is the number when it is all the answer
    ("Réponse : une.", "1", None),
    ("Antwort: 23 (dreiundzwanzig)", "23", "23"),
    # negatives: an article in prose, another language's words, no answer word, two values
    ("Die Antwort lautet: ein Apfel pro Kind.", None, None),
    ("La respuesta es un número par.", None, None),
    ("Cevap: bir elma", None, None),
    ("The answer is dreiundzwanzig.", None, None),
    ("Anna hat dreiundzwanzig Murmeln.", None, None),
    ("Die Antwort lautet zwölf oder dreizehn.", None, None),
    ("Ответ: двенадцать или тринадцать", None, None),
    # --- the zero-shot-CoT answer phrase, with its parenthesis
    ("Therefore, the answer (arabic numerals) is 8.", "8", "8"),
    ("So the answer (in dollars) is 15.", "15", "15"),
    (
        "There are 6 tables with 7 guests at each, so 6 × 7 guests in all.\n"
        "Therefore, the answer (arabic numerals) is forty-two.",
        "42",
        "7",
    ),
    ("The chef peels 8 × 3 = 24 potatoes.\nTherefore, the answer (arabic numerals) is", None, "24"),
    # --- an answer in parts has no single value
    ("Answer: a) 12  b) 15", None, "12"),
    ("Answer:\n(a) 3 cm\n(b) 4 cm", None, "3"),
    ("Answer: (i) 5, (ii) 7", None, "5"),
    ("Válasz: a) 36  b) 54", None, "36"),
    ("Answer: (b) 36", "36", "36"),  # one labelled value
    # --- a text cut off right after a copula
    ("So n = 5, and the smallest value of x is", None, "5"),
    ("Es bleiben 12 × 3 = 36 Äpfel. Die Anzahl ist", None, "36"),
    ("She is 12 years old. That is", None, "12"),
    ("The answer is 12, and that is all.", "12", "12"),
    # --- ConvFinQA programs and equations in parentheses
    ("subtract(2460, 2115), divide(#0, 2115) = 0.16312", "0.16312", None),
    ("add(120, 80), divide(#0, 2) = 100", "100", None),
    ("Answer: multiply(12, 3) = 36", "36", None),
    (
        "Cash grew from 540 to 612, so the percentage change from 2018 to 2019 is "
        "(612 − 540) / 540 = 13.3%",
        "13.3",
        None,
    ),
    ("It takes 2.5 hours (150 minutes).", "2.5", "2.5"),
    ("The trip takes 2.5 hours (150 / 60 = 2.5).", "2.5", "2.5"),
    # --- an invented follow-up question ends the answer
    (
        "So 10 × 9 / 2 = 45.\n\n## Follow-up question 1\nWhat about 12 guests?\n\n"
        "## Solution\n12 × 11 / 2 = 66",
        "45",
        "66",
    ),
    (
        "So 10 × 9 / 2 = 45 handshakes.\n\n**Bonus problem:** 12 guests?\n12 × 11 / 2 = 66",
        "45",
        "66",
    ),
    ("Also sind es 45.\n\n## Folgefrage\nUnd bei 12 Gästen?\n66", "45", "66"),
    ("## Solution\n10 × 9 / 2 = 45", "45", "45"),
    ("So 45.\n\nBonus problem: with 12 guests, 66.", "66", "66"),  # no header: a sentence
    ("We follow up on the next question: 10 × 9 / 2 = 45", "45", "45"),
    # --- an answer prefix inside code that was run is code
    (
        "```python\nprice = 80\ndiscount = 0.15\nans = price * (1 - discount)\nprint(ans)\n```\n"
        "```output\n68.0\n```\nThe sale price is $68.",
        "68",
        "1",
    ),
    (
        "```python\nanswer = 12 * 3\nprint(answer)\n```\n```output\n36\n```\nSo there are 36.",
        "36",
        None,
    ),
    ("```python\nans = price * (1 - 0.2)\nprint(ans)\n```\n```output\n40.0\n```", "40", None),
    ("```python\nans = 6 * 7\nprint(ans)\n```\nThe answer is 42.", "42", "42"),
    ("```python\nans = 42\n```", "42", "42"),  # never run: as number/v3 reads it
]


@pytest.mark.parametrize(("text", "v4", "v3"), CASES)
def test_number_v4_cases(text: str, v4: str | None, v3: str | None) -> None:
    assert value(text, "number/v4") == v4
    assert value(text, "number/v3") == v3


# ------------------------------------------------------------ spellers, written independently

_DE_UNITS = [
    "null",
    "eins",
    "zwei",
    "drei",
    "vier",
    "fünf",
    "sechs",
    "sieben",
    "acht",
    "neun",
    "zehn",
    "elf",
    "zwölf",
]
_DE_TENS = [
    "_",
    "_",
    "zwanzig",
    "dreißig",
    "vierzig",
    "fünfzig",
    "sechzig",
    "siebzig",
    "achtzig",
    "neunzig",
]


def german(n: int) -> str:
    def below_100(r: int) -> str:
        if r < 13:
            return _DE_UNITS[r]
        if r < 20:
            return {16: "sechzehn", 17: "siebzehn"}.get(r, _DE_UNITS[r - 10] + "zehn")
        tens, unit = divmod(r, 10)
        if not unit:
            return _DE_TENS[tens]
        return ("ein" if unit == 1 else _DE_UNITS[unit]) + "und" + _DE_TENS[tens]

    if n == 0:
        return "null"
    thousands, rest = divmod(n, 1000)
    hundreds, rest = divmod(rest, 100)
    out = ""
    if thousands:
        out += ("ein" if thousands == 1 else _DE_UNITS[thousands]) + "tausend"
    if hundreds:
        out += ("ein" if hundreds == 1 else _DE_UNITS[hundreds]) + "hundert"
    return out + (below_100(rest) if rest else "")


_ES_UNITS = ["cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve"]
_ES_TEENS = [
    "diez",
    "once",
    "doce",
    "trece",
    "catorce",
    "quince",
    "dieciséis",
    "diecisiete",
    "dieciocho",
    "diecinueve",
]
_ES_TENS = [
    "_",
    "_",
    "veinte",
    "treinta",
    "cuarenta",
    "cincuenta",
    "sesenta",
    "setenta",
    "ochenta",
    "noventa",
]
_ES_HUNDREDS = [
    "_",
    "ciento",
    "doscientos",
    "trescientos",
    "cuatrocientos",
    "quinientos",
    "seiscientos",
    "setecientos",
    "ochocientos",
    "novecientos",
]
_ES_TWENTIES = {22: "veintidós", 23: "veintitrés", 26: "veintiséis"}


def spanish(n: int) -> str:
    def below_100(r: int) -> str:
        if r < 10:
            return _ES_UNITS[r]
        if r < 20:
            return _ES_TEENS[r - 10]
        tens, unit = divmod(r, 10)
        if tens == 2 and unit:
            return _ES_TWENTIES.get(r, "veinti" + _ES_UNITS[unit])
        return _ES_TENS[tens] + (f" y {_ES_UNITS[unit]}" if unit else "")

    thousands, rest = divmod(n, 1000)
    hundreds, rest = divmod(rest, 100)
    words = []
    if thousands:
        words.append("mil" if thousands == 1 else f"{_ES_UNITS[thousands]} mil")
    if hundreds:
        words.append("cien" if hundreds == 1 and not rest else _ES_HUNDREDS[hundreds])
    if rest or not words:
        words.append(below_100(rest))
    return " ".join(words)


_FR_SMALL = [
    "zéro",
    "un",
    "deux",
    "trois",
    "quatre",
    "cinq",
    "six",
    "sept",
    "huit",
    "neuf",
    "dix",
    "onze",
    "douze",
    "treize",
    "quatorze",
    "quinze",
    "seize",
]
_FR_TENS = ["_", "_", "vingt", "trente", "quarante", "cinquante", "soixante"]


def french(n: int) -> str:
    def below_100(r: int) -> str:
        if r <= 16:
            return _FR_SMALL[r]
        if r < 20:
            return "dix-" + _FR_SMALL[r - 10]
        if r < 70:
            tens, unit = divmod(r, 10)
            joint = " et un" if unit == 1 else f"-{_FR_SMALL[unit]}" if unit else ""
            return _FR_TENS[tens] + joint
        if r < 80:
            return "soixante" + (" et onze" if r == 71 else "-" + below_100(r - 60))
        return "quatre-vingts" if r == 80 else "quatre-vingt-" + below_100(r - 80)

    thousands, rest = divmod(n, 1000)
    hundreds, rest = divmod(rest, 100)
    words = []
    if thousands:
        words.append("mille" if thousands == 1 else f"{_FR_SMALL[thousands]} mille")
    if hundreds:
        plural = "s" if hundreds > 1 and not rest else ""
        words.append("cent" if hundreds == 1 else f"{_FR_SMALL[hundreds]} cent{plural}")
    if rest or not words:
        words.append(below_100(rest))
    return " ".join(words)


_IT_SMALL = [
    "zero",
    "uno",
    "due",
    "tre",
    "quattro",
    "cinque",
    "sei",
    "sette",
    "otto",
    "nove",
    "dieci",
    "undici",
    "dodici",
    "tredici",
    "quattordici",
    "quindici",
    "sedici",
    "diciassette",
    "diciotto",
    "diciannove",
]
_IT_TENS = [
    "_",
    "_",
    "venti",
    "trenta",
    "quaranta",
    "cinquanta",
    "sessanta",
    "settanta",
    "ottanta",
    "novanta",
]


def italian(n: int) -> str:
    def below_100(r: int) -> str:
        if r < 20:
            return _IT_SMALL[r]
        tens, unit = divmod(r, 10)
        ten = _IT_TENS[tens]
        if unit in (1, 8):
            ten = ten[:-1]  # ventuno, trentotto
        return ten + ("tré" if unit == 3 else _IT_SMALL[unit] if unit else "")

    thousands, rest = divmod(n, 1000)
    hundreds, rest = divmod(rest, 100)
    out = ""
    if thousands:
        out += "mille" if thousands == 1 else _IT_SMALL[thousands] + "mila"
    if hundreds:
        out += ("" if hundreds == 1 else _IT_SMALL[hundreds]) + "cento"
    if rest or not out:
        out += below_100(rest)
    return out


_TR_UNITS = ["sıfır", "bir", "iki", "üç", "dört", "beş", "altı", "yedi", "sekiz", "dokuz"]
_TR_TENS = ["_", "on", "yirmi", "otuz", "kırk", "elli", "altmış", "yetmiş", "seksen", "doksan"]


def turkish(n: int) -> str:
    if n == 0:
        return "sıfır"
    thousands, rest = divmod(n, 1000)
    hundreds, rest = divmod(rest, 100)
    tens, unit = divmod(rest, 10)
    words = []
    if thousands:
        words += ["bin"] if thousands == 1 else [_TR_UNITS[thousands], "bin"]
    if hundreds:
        words += ["yüz"] if hundreds == 1 else [_TR_UNITS[hundreds], "yüz"]
    if tens:
        words.append(_TR_TENS[tens])
    if unit:
        words.append(_TR_UNITS[unit])
    return " ".join(words)


SPELLERS: dict[str, tuple[Callable[[int], str], str]] = {
    "de": (german, "Die Antwort lautet {}."),
    "es": (spanish, "La respuesta es {}."),
    "fr": (french, "La réponse est {}."),
    "it": (italian, "La risposta è {}."),
    "tr": (turkish, "Cevap: {}"),
}


@pytest.mark.parametrize("code", sorted(SPELLERS))
@given(n=st.integers(min_value=0, max_value=9999))
def test_words_read_every_number_below_ten_thousand(code: str, n: int) -> None:
    speller, sentence = SPELLERS[code]
    words = speller(n)
    found = [(int(v), start, end) for v, start, end in language_word_numbers(words, code)]
    assert found == [(n, 0, len(words))], words
    if words not in LANGUAGES[code].articles:
        assert value(sentence.format(words), "number/v4") == str(n)


@given(
    prose=st.text(alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyz äöüéñ"), max_size=60),
    code=st.sampled_from(sorted(LANGUAGES)),
)
def test_an_article_in_prose_is_no_number(prose: str, code: str) -> None:
    for article in LANGUAGES[code].articles:
        text = f"{article} {prose}x."
        assert all(start > 0 for _, start, _ in language_word_numbers(text, code))


def test_a_flood_of_number_words_stays_fast() -> None:
    import time

    text = "Die Antwort lautet " + "achtzehn" * 5000 + "x"
    started = time.process_time()
    assert value(text, "number/v4") is None
    assert time.process_time() - started < 1.0
