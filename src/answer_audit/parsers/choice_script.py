"""Choice letters in any script (``choice/v5``): which characters name which option.

Older presets take Latin letters only (`choice.validated_choices`). A preset with ``scripts``
takes the option labels as the prompt wrote them (``abcd``, ``أبجد``, ``कखगघ``, ``アイウエ``,
``①②③④``, ``甲乙丙丁``, ``ㄱㄴㄷㄹ``) and reads, for the option at position ``i``:

- its label, NFKC-normalized and lowercased like the text (``①`` reads as ``1``, ``ㄱ`` as the
  conjoining jamo NFKC makes of it), and the label's common variants (a bare alif ``ا`` for
  ``أ``);
- the Latin letter at that position (``الإجابة: B`` answers the second option) and its digit
  (``1`` is the first option), as every older preset does;
- for a Latin set, the Cyrillic and Greek letters that look the same (``В`` is ``B``, ``Β`` is
  ``B``), which models write after a Russian, Ukrainian or Greek answer word.

A token must not touch a letter or digit of its own script (``a`` in ``cat``, ``ب`` inside an
Arabic word, ``ア`` in ``アメリカ``); Han letters (甲乙丙丁) are read wherever a pattern puts
them, since Chinese runs words together.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

LATIN = "abcdefghijklmnopqrstuvwxyz"
# Cyrillic and Greek letters that look like a Latin choice letter (lowercased).
_HOMOGLYPHS = {"а": "a", "в": "b", "с": "c", "е": "e", "α": "a", "β": "b", "ε": "e"}
# Other ways a model writes a native label.
_VARIANTS = {"أ": ("ا", "إ", "آ")}
# Unicode blocks whose letters join into words: a token of that script must not touch another
# character of the block. Han and Latin-1 letters are not listed (Latin uses `0-9a-z`).
_BLOCKS = (
    ("\u0370", "\u03ff"),  # Greek
    ("\u0400", "\u04ff"),  # Cyrillic
    ("\u0530", "\u058f"),  # Armenian
    ("\u0590", "\u05ff"),  # Hebrew
    ("\u0600", "\u06ff"),  # Arabic
    ("\u0750", "\u077f"),  # Arabic supplement
    ("\u0900", "\u097f"),  # Devanagari
    ("\u0980", "\u09ff"),  # Bengali
    ("\u0a00", "\u0a7f"),  # Gurmukhi
    ("\u0a80", "\u0aff"),  # Gujarati
    ("\u0b00", "\u0b7f"),  # Oriya
    ("\u0b80", "\u0bff"),  # Tamil
    ("\u0c00", "\u0c7f"),  # Telugu
    ("\u0c80", "\u0cff"),  # Kannada
    ("\u0d00", "\u0d7f"),  # Malayalam
    ("\u0e00", "\u0e7f"),  # Thai
    ("\u0e80", "\u0eff"),  # Lao
    ("\u10a0", "\u10ff"),  # Georgian
    ("\u1100", "\u11ff"),  # Hangul jamo (what NFKC makes of compatibility jamo)
    ("\u1200", "\u137f"),  # Ethiopic
    ("\u3040", "\u309f"),  # Hiragana
    ("\u30a0", "\u30ff"),  # Katakana
)
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
            "ninth", "tenth")  # fmt: skip
# "the second option", "the last choice": a position in words.
ORDINAL_TOKEN = (
    r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last)"
    r"\s+(?:option|choice|alternative|answer|one)(?![a-z])"
)


# choice/v8: a position in words in more languages ("option number two", "la segunda opción",
# "die dritte Antwort", "第二个选项", "最后一个", "2番目"), read by `position_index`.
_POSITION_WORDS: dict[str, int] = {
    **{w: i for i, w in enumerate(ORDINALS)},
    **{w: i for i, w in enumerate(("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th"))},
    **{w: i for i, w in enumerate(("one", "two", "three", "four", "five", "six", "seven", "eight",
                                   "nine", "ten"))},
    **{w: i for i, w in enumerate(("uno", "dos", "tres", "cuatro", "cinco"))},
    **{w: i for i, w in enumerate(("um", "dois", "três", "quatro"))},
    **{f"{stem}{end}": i
       for i, stems in enumerate((("primer", "primeir", "prim"), ("segund", "second"),
                                  ("tercer", "terceir", "terz"), ("cuart", "quart"), ("quint",)))
       for stem in stems for end in ("a", "o")},
    "primer": 0, "tercer": 2,
    **{w: i for i, w in enumerate(("première", "deuxième", "troisième", "quatrième", "cinquième"))},
    "premier": 0, "premiere": 0, "seconde": 1, "deuxieme": 1, "troisieme": 2, "quatrieme": 3,
    **{f"{stem}{end}": i
       for i, stem in enumerate(("erst", "zweit", "dritt", "viert", "fünft"))
       for end in ("e", "en", "er", "es")},
}  # fmt: skip
_LAST_WORDS = frozenset(
    ("last", "última", "último", "ultima", "ultimo", "dernière", "dernier", "derniere",
     "letzte", "letzten", "letzter", "letztes", "最后", "最後")
)  # fmt: skip
_HAN_DIGITS = {c: i for i, c in enumerate("一二三四五六七八九十")}
_POSITION_PARTS = re.compile(
    r"第([一二三四五六七八九十]|[1-9])|([1-9一二三四五六七八九])番目|最[后後]|[^\W\d_]+|\d+\w*"
)


# The option before the last ("the second-to-last option", "vorletzte", "倒数第二")
_SECOND_TO_LAST = re.compile(
    r"(?:second|2nd)[ \t-]+(?:to|from)[ \t-]+(?:the[ \t]+)?last|penultimate|next[ \t-]+to[ \t-]+last"
    r"|vorletzt|avant-derni|pen[uú]ltim|倒数第二"
)


def position_index(phrase: str, n: int) -> int | None:
    """The 0-based option a phrase naming a position points to among ``n`` (None: none, or
    beyond the set): its first position word ("second", "dos", "dritte", 第二, 2番目, "last").

    >>> position_index("option number two", 4), position_index("最后一个", 4)
    (1, 3)
    """
    phrase = phrase.lower()
    if _SECOND_TO_LAST.search(phrase) is not None:  # (only choice/v11 reads such phrases)
        return n - 2 if n >= 2 else None
    for m in _POSITION_PARTS.finditer(phrase):
        han = m.group(1) or m.group(2)
        word = m.group()
        if han is not None:
            index = int(han) - 1 if han.isdigit() else _HAN_DIGITS[han]
        elif word in _LAST_WORDS:
            index = n - 1
        else:
            index = _POSITION_WORDS.get(word, -1)
            if index < 0:
                continue
        return index if 0 <= index < n else None
    return None


def script_choices(value: str) -> str:
    """The option labels ``value`` lists, lowercased, one character each (separated by commas
    or spaces, or not at all); ValueError for none, or for two labels that read the same.

    >>> script_choices("أ, ب, ج, د")
    'أبجد'
    """
    if not isinstance(value, str):
        raise TypeError(f"choices must be a string of option labels such as 'abcd', not {value!r}")
    labels = "".join(c for c in value if c not in ", ").lower()
    normalized = [_normalized(c) for c in labels]
    if not labels or len(set(normalized)) < len(labels) or any(len(n) != 1 for n in normalized):
        raise ValueError(
            f"choices {value!r}: list one label per option, each a single character that no "
            "other label normalizes to (e.g. abcde, أبجد, ①②③④)"
        )
    return labels


def _normalized(label: str) -> str:
    return unicodedata.normalize("NFKC", label).lower()


@dataclass(frozen=True)
class TokenSet:
    """The characters that name the options of one choice set, and how patterns spell them.

    ``fill`` maps the placeholders of a ``scripts`` preset's patterns: ``{K}`` (every token
    character, escaped for a character class), ``{W}`` (the characters a token must not touch,
    for a class), ``{T}`` (one captured token with its boundaries, or an ordinal phrase),
    ``{L}`` and ``{D}`` (the Latin letters and the digit range, as in older presets).
    """

    labels: str  # the labels as given, lowercased: what an extraction returns
    position: dict[str, int]  # token character (or ordinal word) -> option index
    fill: dict[str, str]

    def value(self, token: str) -> str | None:
        """The label of the option ``token`` names (a character, or an ordinal phrase)."""
        index = self.position.get(token)
        if index is None:
            index = self.position.get(_normalized(token))
        if index is None and token[:1].isalpha() and " " in token:
            word = token.split()[0]
            index = len(self.labels) - 1 if word == "last" else self.position.get(word)
        if index is None and len(token) > 1:  # choice/v8's positions in more words and scripts
            index = position_index(token, len(self.labels))
        return self.labels[index] if index is not None else None


@lru_cache(maxsize=256)
def token_set(labels: str) -> TokenSet:
    """The tokens of a choice set (``labels`` as `script_choices` returns them)."""
    n = len(labels)
    position: dict[str, int] = {}
    blocks: set[tuple[str, str]] = set()
    for i, label in enumerate(labels):
        own = _normalized(label)
        for token in (own, *_VARIANTS.get(own, ())):
            position.setdefault(token, i)
        blocks |= {b for b in _BLOCKS if b[0] <= own <= b[1]}
    native = any(c not in LATIN for c in labels)
    latin = LATIN[: min(n, len(LATIN))] if native else labels
    for i, letter in enumerate(latin):
        position.setdefault(letter, i)  # a native set: the Latin letter of each position
    for i in range(min(n, 9)):
        position.setdefault(str(i + 1), i)
    if not native:
        for lookalike, letter in _HOMOGLYPHS.items():
            if letter in labels:
                position.setdefault(lookalike, labels.index(letter))
                blocks |= {b for b in _BLOCKS if b[0] <= lookalike <= b[1]}
    for i, word in enumerate(ORDINALS[:n]):
        position.setdefault(word, i)
    chars = "".join(sorted(t for t in position if len(t) == 1))
    word_class = "0-9a-z" + "".join(f"{lo}-{hi}" for lo, hi in sorted(blocks))
    token = rf"(?<![{word_class}])[{_escape(chars)}](?![{word_class}]|\.[0-9])"
    digits = min(n, 9)
    fill = {
        "{K}": _escape(chars),
        "{W}": word_class,
        "{T}": rf"({token}|{ORDINAL_TOKEN})",
        "{L}": re.escape(latin),
        "{D}": "1" if digits == 1 else f"1-{digits}",
    }
    return TokenSet(labels, position, fill)


def _escape(chars: str) -> str:
    """``chars`` for inside a character class."""
    return "".join("\\" + c if c in "\\]^-[" else c for c in chars)
