"""The ``v3`` normalizer: one spelling for answers that are the same but written differently.

``canonical_v3`` keeps punctuation (the v3 matcher needs sentences); ``normalize_v3`` also turns
punctuation into spaces. What v3 adds to v2:

- NFKC (``H₂O`` -> ``h2o``, ``m/s²`` -> ``m/s2``, full-width letters and digits);
- LaTeX and markdown wrappers dropped (``$\\text{9.8 m/s}^2$``, ``**Paris**``);
- thousands separators dropped inside numbers (``299,792`` -> ``299792``);
- English number words as digits (``eight`` -> ``8``, ``one hundred`` -> ``100``);
- unit words as symbols (``meters per second squared`` -> ``m/s2``, ``km per second`` -> ``km/s``);
- a decimal point between digits is kept (``9.8`` stays one number).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from answer_audit.text.prefilters import guarded

_LATEX_COMMANDS = re.compile(
    r"\\(?:text|textbf|textrm|texttt|textit|mathrm|mathbf|mathit|boxed|operatorname|emph)\s*\{"
)
# LaTeX rewrites in order: the commands (each starts with a backslash), the `{,}` group
# separator, then spacing and math delimiters (each needs a backslash, "~" or "$").
_LATEX_SYMBOLS = (
    (re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}"), r"\1/\2"),
    (re.compile(r"\\(?:times|cdot)"), " × "),
    (re.compile(r"\\approx"), " ≈ "),
    (re.compile(r"\\pi\b"), " π "),
    (re.compile(r"\\sqrt"), " √"),
    (re.compile(r"\\%"), "%"),
)
_LATEX_GROUP_COMMA = re.compile(r"\{,\}")
_LATEX_SPACING = re.compile(r"\\[,;:! ]|~|\\\(|\\\)|\\\[|\\\]|\$")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
# With its final dot ("u.s." -> "us", "u.s.5" -> "us5"), unlike v2's rule (matching/v1_v2.py),
# which stops at the last letter: both stay, as merging them would change v2 or v3 results.
_DOTTED_ABBREVIATION_WITH_FINAL_DOT = re.compile(r"\b(?:[a-z]\.){2,}|\b(?:[a-z]\.)+[a-z]\b")
_MARKDOWN = re.compile(r"[*_`#]+")

# (phrase, symbol, keys): every match of the phrase contains all the words of one of its keys,
# so a text without any key skips that rewrite (tests/test_prefilters.py checks it). "meter"
# and "metre" rather than "met", which "something" and "method" contain.
_PER_SECOND = (("meter", "second"), ("metre", "second"))
_UNITS = (
    (r"met(?:er|re)s? per second squared|met(?:er|re)s? per second per second|m/s\^?2|m/s/s"
     r"|m ?s\^?-2", "m/s2", (*_PER_SECOND, ("m/s",), ("-2",))),
    (r"kilomet(?:er|re)s? per second|kms?(?: per |/)s(?:ec(?:ond)?)?\b|kps", "km/s",
     (*_PER_SECOND, ("km",), ("kps",))),
    (r"met(?:er|re)s? per second|m/sec\b|m/s(?!2)", "m/s", (*_PER_SECOND, ("m/s",))),
    (r"miles? per second|mi/s", "mi/s", (("mile", "second"), ("mi/s",))),
    (r"degrees? (?:celsius|centigrade)|° ?c\b|celsius", "°c",
     (("celsius",), ("centigrade",), ("°",))),
    (r"per ?cent\b", "%", (("cent",),)),
)  # fmt: skip
_SPACE, _MAYBE_SPACE = r"\s+", r"\s*"  # a space in a unit phrase: any run of whitespace
_UNIT_PATTERNS = tuple(
    (
        guarded(  # the lookbehind opens the pattern: fail at one class check instead
            re.compile(
                "(?<![a-z])" + p.replace(" ?", _MAYBE_SPACE).replace(" ", _SPACE) + "(?![a-z])"
            )
        ),
        s,
        tuple(frozenset(key) for key in keys),
    )
    for p, s, keys in _UNITS
)
# The words of the unit keys: a rewrite runs only when all the words of one of its keys are in
# the text (the same gate as before, read from one set).
_UNIT_WORD_LIST = tuple(sorted({w for *_, keys in _UNITS for key in keys for w in key}))
_ANY_UNIT_WORD = re.compile("|".join(map(re.escape, _UNIT_WORD_LIST)))
# Necessary for a dotted abbreviation / a thousands separator: cheap searches that gate the
# slower rewrites (a literal first, which `re` finds fast; a class first it does not).
_DOT_LETTER = re.compile(r"\.[a-z]")
_COMMA_DIGIT = re.compile(r",\d")

_ONES = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19,
}  # fmt: skip
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}  # fmt: skip
_SCALES = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9}


def _trie(words: list[str]) -> str:
    """The alternation of ``words`` as a prefix tree (``t(?:en|wo|h(?:ree|...))``): the same
    matches as the longest-first alternation, since a longer word is tried before its prefix,
    but `re` rejects a position after one character instead of trying thirty alternatives."""
    tree: dict[str, dict[str, Any]] = {}
    for word in words:
        node = tree
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict[str, Any]) -> str:
        branches = [re.escape(ch) + emit(node[ch]) for ch in sorted(node) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return emit(tree)


_WORD_TRIE = _trie([*_ONES, *_TENS, *_SCALES])
_NUMBER_WORDS = guarded(
    re.compile(rf"\b(?:{_WORD_TRIE})(?:(?:[\s-]+|\s+and\s+)(?:{_WORD_TRIE}))*\b")
)  # guarded: fails at one class check where no number word can start
_PUNCT = re.compile(r"[,;:!?'\"()\[\]{}\\]|(?<!\d)\.|\.(?!\d)")
_WHITESPACE = re.compile(r"\s+")


def canonical_v3(text: str) -> str:
    """Every v3 rewrite except the last: punctuation is kept, so sentences can still be read."""
    return _rewrite(text, strip_punctuation=False)


def normalize_v3(text: str) -> str:
    """v2 plus NFKC, LaTeX/markdown, thousands separators, number words and unit words.

    >>> normalize_v3("It is **eight**."), normalize_v3("$9.8\\\\,\\\\text{m/s}^2$")
    ('it is 8', '9.8 m/s2')
    >>> normalize_v3("About 299,792 kilometres per second (H₂O, Washington, D.C.)")
    'about 299792 km/s h2o washington dc'
    """
    return _WHITESPACE.sub(" ", _rewrite(text, strip_punctuation=True)).strip()


def _rewrite(text: str, *, strip_punctuation: bool) -> str:
    # Each step is skipped when the text lacks a character the step needs to match: the same
    # result, without a regex pass over the text (most answers hold no LaTeX, units or digits).
    text = unicodedata.normalize("NFKC", text).lower().replace("\u2044", "/")
    if "\\" in text:
        for pattern, repl in _LATEX_SYMBOLS:
            text = pattern.sub(repl, text)
    if "{,}" in text:
        text = _LATEX_GROUP_COMMA.sub(",", text)
    if "\\" in text or "~" in text or "$" in text:
        text = _LATEX_SPACING.sub(" ", text)
    if "\\" in text:
        text = _LATEX_COMMANDS.sub(" ", text)
    text = text.replace("{", " ").replace("}", " ")
    if any(mark in text for mark in "*_`#"):
        text = _MARKDOWN.sub(" ", text)
    if _COMMA_DIGIT.search(text):
        text = _THOUSANDS.sub("", text)
    if _DOT_LETTER.search(text):
        text = _DOTTED_ABBREVIATION_WITH_FINAL_DOT.sub(lambda m: m.group(0).replace(".", ""), text)
    if strip_punctuation:  # before the word rewrites, so a second pass finds nothing new
        text = _WHITESPACE.sub(" ", _PUNCT.sub(" ", text))
    text = _NUMBER_WORDS.sub(_words_to_number, text)
    if "^" in text:  # drop spaces around "^"; re.sub(r"\s*\^\s*") is quadratic on long blank runs
        parts = text.split("^")
        text = "^".join([parts[0].rstrip(), *(p.strip() for p in parts[1:-1]), parts[-1].lstrip()])
    return _rewrite_units(text)


def _rewrite_units(text: str) -> str:
    """Unit words as symbols; each rewrite only when the text holds all the words of one of
    its keys (what the rewrites before it left)."""
    present = _unit_words(text)
    for pattern, symbol, keys in _UNIT_PATTERNS:
        if present and any(key <= present for key in keys):
            rewritten = pattern.sub(symbol, text)
            if rewritten != text:
                text, present = rewritten, _unit_words(rewritten)
    return text


def _unit_words(text: str) -> frozenset[str]:
    """The words of the unit keys that ``text`` holds (the gates read them)."""
    if not _ANY_UNIT_WORD.search(text):  # most answers name no unit
        return frozenset()
    return frozenset(word for word in _UNIT_WORD_LIST if word in text)


def _words_to_number(m: re.Match[str]) -> str:
    words = [w for w in re.split(r"[\s-]+", m.group(0)) if w and w != "and"]
    total = current = 0
    for word in words:
        if word in _ONES:
            current += _ONES[word]
        elif word in _TENS:
            current += _TENS[word]
        elif word == "hundred":
            current = max(current, 1) * 100
        else:
            total += max(current, 1) * _SCALES[word]
            current = 0
    if len(words) == 1 and words[0] in _SCALES:
        return m.group(0)  # "a hundred" or "thousands of": not a number on its own
    return str(total + current)
