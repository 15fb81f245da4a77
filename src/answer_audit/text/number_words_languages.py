"""Number words in other languages (number/v4): ``dreiundzwanzig``, ``cuarenta y dos``,
``quatre-vingt-dix-sept``, ``двенадцать``, ``yirmi beş``, up to the thousands.

Each language is data (`NumberLanguage`): the words that add their value, the hundred words
that multiply the group before them, the thousand words that close a group, the words that
join parts (``und``, ``y``, ``et``), and the forms that are also articles (``ein``, ``un``,
``bir``). A language's words compile to one alternation written as a trie (literal prefixes:
a failing position costs one comparison per first letter). One-word compounds (German,
Italian, Dutch) are read by trying the words in a row without a space.

The number reader asks only inside an answer statement whose answer word is in that
language (``Die Antwort lautet dreiundzwanzig``): ``un``/``ein`` in prose is no answer, and an
article alone counts only when it is the whole statement (``Cevap: bir``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from answer_audit.text.statement_bounds import trie_pattern

_MAX_WORDS = 12  # words in one number: 9999 takes at most seven in these languages


@dataclass(frozen=True)
class NumberLanguage:
    """How one language writes whole numbers in words (lowercase, NFC)."""

    code: str
    values: Mapping[str, int]
    """Words (and fixed phrases, ``quatre-vingt``) that add their value to the group."""
    hundreds: Mapping[str, int] = field(default_factory=dict)
    """Words that multiply the group before them (``hundert``: ``zweihundert`` is 200)."""
    thousands: Mapping[str, int] = field(default_factory=dict)
    """Words that multiply the group before them and close it (``mil``, ``тысяч``)."""
    joiners: tuple[str, ...] = ()
    """Words between parts that add nothing (``und``, ``y``, ``et``)."""
    articles: frozenset[str] = frozenset()
    """Forms that are also the indefinite article: a number alone only as a whole statement."""
    minus: tuple[str, ...] = ()
    compound: bool = False
    """Parts run together in one word (``dreiundzwanzig``)."""


def _tens(names: Mapping[int, str]) -> dict[str, int]:
    return {word: value for value, word in names.items()}


_GERMAN = NumberLanguage(
    "de",
    {
        **_tens({0: "null", 1: "eins", 2: "zwei", 3: "drei", 4: "vier", 5: "fünf", 6: "sechs"}),
        **_tens({7: "sieben", 8: "acht", 9: "neun", 10: "zehn", 11: "elf", 12: "zwölf"}),
        **_tens({13: "dreizehn", 14: "vierzehn", 15: "fünfzehn", 16: "sechzehn", 17: "siebzehn"}),
        **_tens({18: "achtzehn", 19: "neunzehn", 20: "zwanzig", 30: "dreißig", 40: "vierzig"}),
        **_tens({50: "fünfzig", 60: "sechzig", 70: "siebzig", 80: "achtzig", 90: "neunzig"}),
        "ein": 1,
        "eine": 1,
        "zwo": 2,
        "dreissig": 30,
        "fuenf": 5,
        "zwoelf": 12,
    },
    hundreds={"hundert": 100},
    thousands={"tausend": 1000},
    joiners=("und",),
    articles=frozenset({"ein", "eine"}),
    minus=("minus",),
    compound=True,
)
_SPANISH_UNITS = {1: "uno", 2: "dos", 3: "tres", 4: "cuatro", 5: "cinco", 6: "seis"}
_SPANISH_UNITS.update({7: "siete", 8: "ocho", 9: "nueve"})
_SPANISH = NumberLanguage(
    "es",
    {
        **_tens(_SPANISH_UNITS),
        **_tens({0: "cero", 10: "diez", 11: "once", 12: "doce", 13: "trece", 14: "catorce"}),
        **_tens({15: "quince", 16: "dieciséis", 17: "diecisiete", 18: "dieciocho"}),
        **_tens({19: "diecinueve", 20: "veinte", 30: "treinta", 40: "cuarenta", 50: "cincuenta"}),
        **_tens({60: "sesenta", 70: "setenta", 80: "ochenta", 90: "noventa", 100: "cien"}),
        **{f"veinti{w}": 20 + v for v, w in _SPANISH_UNITS.items()},
        "veintidós": 22,
        "veintitrés": 23,
        "veintiséis": 26,
        "veintiún": 21,
        "veintiuna": 21,
        "un": 1,
        "una": 1,
        "ciento": 100,
        "doscientos": 200,
        "doscientas": 200,
        "trescientos": 300,
        "trescientas": 300,
        "cuatrocientos": 400,
        "cuatrocientas": 400,
        "quinientos": 500,
        "quinientas": 500,
        "seiscientos": 600,
        "seiscientas": 600,
        "setecientos": 700,
        "setecientas": 700,
        "ochocientos": 800,
        "ochocientas": 800,
        "novecientos": 900,
        "novecientas": 900,
    },
    thousands={"mil": 1000},
    joiners=("y",),
    articles=frozenset({"un", "una"}),
    minus=("menos",),
)
_FRENCH = NumberLanguage(
    "fr",
    {
        **_tens({0: "zéro", 1: "un", 2: "deux", 3: "trois", 4: "quatre", 5: "cinq", 6: "six"}),
        **_tens({7: "sept", 8: "huit", 9: "neuf", 10: "dix", 11: "onze", 12: "douze"}),
        **_tens({13: "treize", 14: "quatorze", 15: "quinze", 16: "seize", 20: "vingt"}),
        **_tens({30: "trente", 40: "quarante", 50: "cinquante", 60: "soixante"}),
        "une": 1,
        "vingts": 20,
        "quatre-vingt": 80,
        "quatre-vingts": 80,
        "quatre vingt": 80,
        "quatre vingts": 80,
        "septante": 70,
        "huitante": 80,
        "octante": 80,
        "nonante": 90,
    },
    hundreds={"cent": 100, "cents": 100},
    thousands={"mille": 1000, "mil": 1000},
    joiners=("et",),
    articles=frozenset({"un", "une"}),
    minus=("moins",),
)
_ITALIAN = NumberLanguage(
    "it",
    {
        **_tens({0: "zero", 1: "uno", 2: "due", 3: "tre", 4: "quattro", 5: "cinque", 6: "sei"}),
        **_tens({7: "sette", 8: "otto", 9: "nove", 10: "dieci", 11: "undici", 12: "dodici"}),
        **_tens({13: "tredici", 14: "quattordici", 15: "quindici", 16: "sedici"}),
        **_tens({17: "diciassette", 18: "diciotto", 19: "diciannove", 20: "venti"}),
        **_tens({30: "trenta", 40: "quaranta", 50: "cinquanta", 60: "sessanta"}),
        **_tens({70: "settanta", 80: "ottanta", 90: "novanta"}),
        # a ten drops its vowel before uno and otto (ventuno, trentotto)
        "vent": 20,
        "trent": 30,
        "quarant": 40,
        "cinquant": 50,
        "sessant": 60,
        "settant": 70,
        "ottant": 80,
        "novant": 90,
        "tré": 3,
        "un": 1,
        "una": 1,
    },
    hundreds={"cento": 100, "cent": 100},
    thousands={"mille": 1000, "mila": 1000},
    articles=frozenset({"un", "una", "uno"}),
    minus=("meno",),
    compound=True,
)
_PORTUGUESE = NumberLanguage(
    "pt",
    {
        **_tens({0: "zero", 1: "um", 2: "dois", 3: "três", 4: "quatro", 5: "cinco", 6: "seis"}),
        **_tens({7: "sete", 8: "oito", 9: "nove", 10: "dez", 11: "onze", 12: "doze"}),
        **_tens({13: "treze", 14: "catorze", 15: "quinze", 16: "dezesseis", 17: "dezessete"}),
        **_tens({18: "dezoito", 19: "dezenove", 20: "vinte", 30: "trinta", 40: "quarenta"}),
        **_tens({50: "cinquenta", 60: "sessenta", 70: "setenta", 80: "oitenta", 90: "noventa"}),
        "uma": 1,
        "duas": 2,
        "quatorze": 14,
        "dezasseis": 16,
        "dezassete": 17,
        "dezanove": 19,
        "cem": 100,
        "cento": 100,
        "duzentos": 200,
        "duzentas": 200,
        "trezentos": 300,
        "trezentas": 300,
        "quatrocentos": 400,
        "quatrocentas": 400,
        "quinhentos": 500,
        "quinhentas": 500,
        "seiscentos": 600,
        "seiscentas": 600,
        "setecentos": 700,
        "setecentas": 700,
        "oitocentos": 800,
        "oitocentas": 800,
        "novecentos": 900,
        "novecentas": 900,
    },
    thousands={"mil": 1000},
    joiners=("e",),
    articles=frozenset({"um", "uma"}),
    minus=("menos",),
)
_RUSSIAN = NumberLanguage(
    "ru",
    {
        **_tens({0: "ноль", 1: "один", 2: "два", 3: "три", 4: "четыре", 5: "пять"}),
        **_tens({6: "шесть", 7: "семь", 8: "восемь", 9: "девять", 10: "десять"}),
        **_tens({11: "одиннадцать", 12: "двенадцать", 13: "тринадцать", 14: "четырнадцать"}),
        **_tens({15: "пятнадцать", 16: "шестнадцать", 17: "семнадцать", 18: "восемнадцать"}),
        **_tens({19: "девятнадцать", 20: "двадцать", 30: "тридцать", 40: "сорок"}),
        **_tens({50: "пятьдесят", 60: "шестьдесят", 70: "семьдесят", 80: "восемьдесят"}),
        **_tens({90: "девяносто", 100: "сто", 200: "двести", 300: "триста"}),
        **_tens({400: "четыреста", 500: "пятьсот", 600: "шестьсот", 700: "семьсот"}),
        **_tens({800: "восемьсот", 900: "девятьсот"}),
        "нуль": 0,
        "одна": 1,
        "одно": 1,
        "две": 2,
    },
    thousands={"тысяча": 1000, "тысячи": 1000, "тысяч": 1000},
    minus=("минус",),
)
_TURKISH = NumberLanguage(
    "tr",
    {
        **_tens({0: "sıfır", 1: "bir", 2: "iki", 3: "üç", 4: "dört", 5: "beş", 6: "altı"}),
        **_tens({7: "yedi", 8: "sekiz", 9: "dokuz", 10: "on", 20: "yirmi", 30: "otuz"}),
        **_tens({40: "kırk", 50: "elli", 60: "altmış", 70: "yetmiş", 80: "seksen"}),
        **_tens({90: "doksan"}),
    },
    hundreds={"yüz": 100},
    thousands={"bin": 1000},
    articles=frozenset({"bir"}),
    minus=("eksi",),
)
_DUTCH = NumberLanguage(
    "nl",
    {
        **_tens({0: "nul", 1: "één", 2: "twee", 3: "drie", 4: "vier", 5: "vijf", 6: "zes"}),
        **_tens({7: "zeven", 8: "acht", 9: "negen", 10: "tien", 11: "elf", 12: "twaalf"}),
        **_tens({13: "dertien", 14: "veertien", 15: "vijftien", 16: "zestien"}),
        **_tens({17: "zeventien", 18: "achttien", 19: "negentien", 20: "twintig"}),
        **_tens({30: "dertig", 40: "veertig", 50: "vijftig", 60: "zestig", 70: "zeventig"}),
        **_tens({80: "tachtig", 90: "negentig"}),
        "een": 1,
        "eén": 1,
    },
    hundreds={"honderd": 100},
    thousands={"duizend": 1000},
    joiners=("en", "ën"),
    articles=frozenset({"een"}),
    minus=("min", "minus"),
    compound=True,
)
_POLISH = NumberLanguage(
    "pl",
    {
        **_tens({0: "zero", 1: "jeden", 2: "dwa", 3: "trzy", 4: "cztery", 5: "pięć"}),
        **_tens({6: "sześć", 7: "siedem", 8: "osiem", 9: "dziewięć", 10: "dziesięć"}),
        **_tens({11: "jedenaście", 12: "dwanaście", 13: "trzynaście", 14: "czternaście"}),
        **_tens({15: "piętnaście", 16: "szesnaście", 17: "siedemnaście", 18: "osiemnaście"}),
        **_tens({19: "dziewiętnaście", 20: "dwadzieścia", 30: "trzydzieści"}),
        **_tens({40: "czterdzieści", 50: "pięćdziesiąt", 60: "sześćdziesiąt"}),
        **_tens({70: "siedemdziesiąt", 80: "osiemdziesiąt", 90: "dziewięćdziesiąt"}),
        **_tens({100: "sto", 200: "dwieście", 300: "trzysta", 400: "czterysta"}),
        **_tens({500: "pięćset", 600: "sześćset", 700: "siedemset", 800: "osiemset"}),
        **_tens({900: "dziewięćset"}),
        "jedna": 1,
        "jedno": 1,
        "dwie": 2,
    },
    thousands={"tysiąc": 1000, "tysiące": 1000, "tysięcy": 1000},
    minus=("minus",),
)
LANGUAGES = {
    lang.code: lang
    for lang in (_GERMAN, _SPANISH, _FRENCH, _ITALIAN, _PORTUGUESE, _RUSSIAN, _TURKISH, _DUTCH)
}
LANGUAGES["pl"] = _POLISH

# The language of an answer word (`answer_audit.text.statement_bounds.ANSWER_PREFIX_WORDS`,
# lowercased): the statement after it may name its value in that language's words.
ANSWER_WORD_LANGUAGES = {
    "antwort": "de",
    "respuesta": "es",
    "réponse": "fr",
    "reponse": "fr",
    "risposta": "it",
    "resposta": "pt",
    "ответ": "ru",
    "cevap": "tr",
    "yanıt": "tr",
    "antwoord": "nl",
    "odpowiedź": "pl",
}


def _compile(lang: NumberLanguage) -> re.Pattern[str]:
    word = trie_pattern(sorted(_known(lang) - set(lang.joiners)))
    joiner = trie_pattern(sorted(lang.joiners)) if lang.joiners else None
    gap = r"[ \t\u00a0-]+"
    if joiner:
        gap = rf"(?:{gap}(?:{joiner}){gap}|-(?:{joiner})-|{gap})"
    if lang.compound:
        gap = rf"(?:{gap}|(?:{joiner})?)" if joiner else f"(?:{gap})?"
    minus = trie_pattern(sorted(lang.minus)) if lang.minus else None
    sign = rf"(?:(?P<minus>{minus})[ \t]+)?" if minus else ""
    return re.compile(
        rf"(?<![^\W\d_]){sign}(?P<number>{word}(?:{gap}{word}){{0,{_MAX_WORDS - 1}}})"
        r"(?![^\W\d_])",
        re.IGNORECASE,
    )


def _known(lang: NumberLanguage) -> set[str]:
    return {*lang.values, *lang.hundreds, *lang.thousands, *lang.joiners}


_COMPILED = {code: _compile(lang) for code, lang in LANGUAGES.items()}
_KNOWN = {code: _known(lang) for code, lang in LANGUAGES.items()}
_SEPARATOR = " \t\u00a0-"


def language_word_numbers(text: str, language: str) -> Iterator[tuple[Fraction, int, int]]:
    """Every number ``text`` writes in the words of ``language`` (a code of `LANGUAGES`):
    (value, start, end), in reading order. An article alone (``ein``, ``un``) counts only
    when it is all of ``text`` but punctuation.

    >>> [int(v) for v, _, _ in language_word_numbers("Sie hat dreiundzwanzig, ein Apfel", "de")]
    [23]
    """
    lang = LANGUAGES.get(language)
    if lang is None:
        return
    for m in _COMPILED[language].finditer(text):
        number = m.group("number").lower()
        if number in lang.articles and text.strip(" \t\n.!*_:;\"'«»") != m.group():
            continue
        words = _words(number, _KNOWN[language])
        if words is None:
            continue
        value = _value(lang, words)
        yield Fraction(-value if m.groupdict().get("minus") else value), m.start(), m.end()


def _value(lang: NumberLanguage, words: list[str]) -> int:
    total = current = 0
    for word in words:
        if word in lang.hundreds:
            current = max(current, 1) * lang.hundreds[word]
        elif word in lang.thousands:
            total += max(current, 1) * lang.thousands[word]
            current = 0
        else:
            current += lang.values.get(word, 0)  # a joiner adds nothing
    return total + current


def _words(number: str, known: set[str]) -> list[str] | None:
    """``number`` as a row of known words (spaces and hyphens between them, or none): the
    first reading found, longest words first, backing off where the rest does not read
    (``ottantotto`` is ``ottant`` + ``otto``, ``quatre-vingt-dix`` is ``quatre-vingt`` +
    ``dix``)."""
    longest = max(map(len, known))
    rows: dict[int, list[str] | None] = {len(number): []}
    for i in range(len(number) - 1, -1, -1):
        rows[i] = None
        if number[i] in _SEPARATOR:
            rows[i] = rows[i + 1]
            continue
        for length in range(min(longest, len(number) - i), 0, -1):
            rest = rows.get(i + length)
            if rest is not None and number[i : i + length] in known:
                rows[i] = [number[i : i + length], *rest]
                break
    return rows[0]
