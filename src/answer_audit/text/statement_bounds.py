"""Where answer statements are: the last answer prefix of a text, the statement it opens, and
the final sentence of a text without one.

An answer prefix is ``\\boxed{`` (or ``\\fbox{``), ``####``, ``<answer>``, a JSON ``"answer":``,
or the word for "answer" followed by a colon or a copula (``Answer:``, ``The final answer is``,
``Die Antwort lautet``, ``La réponse est``, ``Ответ:``), in any case; in scripts written without
spaces the copula may be missing (``答案是``, ``答案：``, ``సమాధానం 36``). The last one is found with
one compiled scan from the end of the text (`last_prefix`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from answer_audit.text.latex import Mapped, rewrite
from answer_audit.text.regions import lower_same_length
from answer_audit.text.vocabulary import (
    ANSWER_COPULAS,
    ANSWER_WORDS,
    DECIMAL_COMMA_ANSWER_WORDS,
    MORE_ANSWER_WORDS,
)

# "choose" introduces a choice, not a number; a one-syllable word alone is too common
_NOT_PREFIXES = frozenset({"选", "答", "답"})
ENGLISH_ANSWER_WORDS = ("final answer", "correct answer", "right answer", "answer", "ans")
ANSWER_PREFIX_WORDS = tuple(
    dict.fromkeys(
        w.lower()
        for w in (
            *ENGLISH_ANSWER_WORDS,
            *ANSWER_WORDS,
            *MORE_ANSWER_WORDS,
            *DECIMAL_COMMA_ANSWER_WORDS,
        )
        if w not in _NOT_PREFIXES
    )
)


def _spaced(word: str) -> bool:
    """Written with spaces between words (Latin, Greek, Cyrillic): the word for "answer" is
    then also a verb or a common word, and a prefix needs a colon or copula after it."""
    return word[0] < "\u0530"


_Trie = dict[str, "_Trie"]


def trie_pattern(words: list[str]) -> str:
    """An alternation of ``words`` as a trie (``an(?:s|swer)``): a failing position costs one
    character comparison per distinct first letter, not one per word."""
    trie: _Trie = {}
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: _Trie) -> str:
        branches = [re.escape(ch) + build(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = "|".join(branches)
        if "" in node:
            return f"(?:{body})?"
        return branches[0] if len(branches) == 1 else f"(?:{body})"

    return build(trie)


_COPULA = "|".join(re.escape(c) for c in sorted(ANSWER_COPULAS, key=len, reverse=True))
_LINK = rf"[ \t*_]*(?:[:：ঃ፡=]|(?:{_COPULA})(?![^\W\d_]))"
_SPACED = [w for w in ANSWER_PREFIX_WORDS if _spaced(w)]
_UNSPACED = [w for w in ANSWER_PREFIX_WORDS if not _spaced(w)]
_SYMBOLS = (
    r"(?P<box>\\(?:boxed|fbox)\s*\{)|(?P<hash>#{4,})|(?P<tag><(?:final_?)?answer>)"
    r'|(?P<json>"(?:final_?)?answer"\s*:\s*"?)'
)
_WORDS = (
    rf"(?=[{re.escape(''.join(sorted({w[0] for w in _SPACED})))}])"
    rf"(?P<spaced>{trie_pattern(_SPACED)})s?(?![^\W\d_])[*_]*"
    rf"(?:\s+(?:to|for) (?:the|this|that) (?:question|problem))?(?:{_LINK})+[ \t*_]*"
)
# number/v4: a parenthesis may follow the word (`the answer (arabic numerals) is`)
_WORDS_V4 = _WORDS.replace(
    "(?:\\s+(?:to|for)", "(?:[ \\t]*\\([^()\\n]{1,40}\\))?(?:\\s+(?:to|for)", 1
)
_UNSPACED_WORDS = (
    rf"(?=[{re.escape(''.join(sorted({w[0] for w in _UNSPACED} | set('答답'))))}])(?:"
    rf"(?P<unspaced>{trie_pattern(_UNSPACED)})(?:{_LINK})*[ \t*_]*"
    rf"|(?P<short>答|답)(?:[ \t*_]*(?:[:：=]|是|为|は|은|는))+[ \t*_]*)"
)
# What may stand just before a word that is written with spaces: the word scan only tries
# the positions after one of these (a word at the very start is tried on its own).
_BEFORE_WORD = r"[\s*_(\[{<>\"'“”‘’«».,;:!?#|/\\$¿¡-]"
# The last match of each: `.*` runs to the end and backs off one character at a time, so a
# scan stops at the last match. Each tail opens with a class (a position whose character is
# not in it fails at one check), and the symbols' lookbehind steps back onto the character to
# try them there. Three scans (symbols, spaced words, unspaced words), each from the end down
# to the last match of the one before; unspaced words only in a text that is not ASCII.
_LAST_SYMBOL = re.compile(rf'(?s).*[\\#<"](?<=(?=(?P<prefix>{_SYMBOLS}))[\s\S])')
_LAST_WORD = re.compile(rf"(?s).*{_BEFORE_WORD}(?P<prefix>{_WORDS})")
_WORD_HERE = re.compile(rf"(?<![^\W\d_])(?P<prefix>{_WORDS})")
_LAST_WORD_V4 = re.compile(rf"(?s).*{_BEFORE_WORD}(?P<prefix>{_WORDS_V4})")
_WORD_HERE_V4 = re.compile(rf"(?<![^\W\d_])(?P<prefix>{_WORDS_V4})")
_LAST_UNSPACED = re.compile(rf"(?s).*(?P<prefix>{_UNSPACED_WORDS})")
_NAMES_THE_ANSWER = re.compile(
    r"\b(?:find|get|check|verify|compute|calculate|know|reach|determine|obtain)\s+"
    r"(?:the|an|our|my|your|this)\s+(?:(?:final|correct|right)\s+)?$"
)
_MAX_NAMED = 4  # prefixes skipped that way before giving up (bounded on floods)
_COMMA_WORDS = frozenset(w.lower() for w in DECIMAL_COMMA_ANSWER_WORDS)


@dataclass(frozen=True, slots=True)
class AnswerPrefix:
    """One answer prefix: its kind (``box``, ``hash``, ``tag``, ``json``, ``word``), where it
    is, and whether its language writes decimal commas (None: English, or not known)."""

    kind: str
    start: int
    end: int
    decimal_comma: bool | None = None
    word: str | None = None
    """The word for "answer" (lowercased) of a ``word`` prefix."""


@dataclass(frozen=True, slots=True)
class Bounds:
    """A statement's bounds in the text."""

    start: int
    end: int


def lowered(text: str) -> str:
    """The text lowercased, offsets unchanged: what `last_prefix` scans."""
    return lower_same_length(text)


_TAIL = 256  # characters read first: the last prefix is usually near the end
_OVERLAP = 200  # a prefix that starts before the tail and ends in it is found in the rest


def last_prefix(
    lowered_text: str, start: int, end: int, parenthesis: bool = False
) -> AnswerPrefix | None:
    """The last answer prefix in ``lowered_text[start:end]`` (see `lowered`), or None; with
    ``parenthesis`` (number/v4) the word may be followed by one (``answer (in dollars) is``)."""
    tail = max(start, end - _TAIL)
    best = _last_in(lowered_text, tail, end, parenthesis)
    if best is None and tail > start:
        best = _last_in(lowered_text, start, min(end, tail + _OVERLAP), parenthesis)
    return None if best is None else _prefix(best)


def _last_in(
    lowered_text: str, start: int, end: int, parenthesis: bool = False
) -> re.Match[str] | None:
    """The match of the last prefix starting in ``[start, end)``, of any kind."""
    best = _LAST_SYMBOL.match(lowered_text, start, end)
    after = best.start("prefix") + 1 if best else start
    word = _last_word(lowered_text, after, end, parenthesis)
    if word is not None:
        best, after = word, word.start("prefix") + 1
    if not lowered_text.isascii():
        best = _LAST_UNSPACED.match(lowered_text, after, end) or best
    return best


def _last_word(
    lowered_text: str, start: int, end: int, parenthesis: bool = False
) -> re.Match[str] | None:
    last, here = (_LAST_WORD_V4, _WORD_HERE_V4) if parenthesis else (_LAST_WORD, _WORD_HERE)
    for _ in range(_MAX_NAMED):
        m = last.match(lowered_text, start, end) or here.match(lowered_text, start, end)
        word = m.start("spaced") if m else 0
        if m is None or not _NAMES_THE_ANSWER.search(lowered_text, max(start, word - 40), word):
            return m
        end = m.start("prefix")  # "to find the answer: ..." names the answer, it does not give it
    return None


def _prefix(m: re.Match[str]) -> AnswerPrefix:
    a, b = m.span("prefix")
    groups = m.groupdict()
    for kind in ("box", "hash", "tag", "json"):
        if groups.get(kind) is not None:
            return AnswerPrefix(kind, a, b)
    word = groups.get("spaced") or groups.get("unspaced") or groups.get("short")
    comma = True if word in _COMMA_WORDS else None if word in ENGLISH_ANSWER_WORDS else False
    return AnswerPrefix("word", a, b, comma, word)


# ------------------------------------------------------------------- statement bounds

_MAX_STATEMENT = 300  # characters: a statement is a sentence, not a page
_MAX_BOX = 500
_TERMINATOR = re.compile(r"[.!?。！？．।](?=[\s*_)\]\"'”’<$]|$)|\n")
_ABBREVIATION = re.compile(
    r"(?i)\b(?:approx|ca|e\.g|i\.e|vs|etc|no|nr|resp|bzw|env|aprox|mr|mrs|dr|st|rs)$"
)
_ENUMERATOR = re.compile(r"[ \t]*(?:\d{1,2}[.)]|[-*•])[ \t]+(?=\S)")
_BLANK = re.compile(r"[ \t*_]*")
_NONSPACE = re.compile(r"\S")
_JSON_VALUE_END = re.compile(r'["\n,}]')
_JSON_STRING_END = re.compile(r'(?<!\\)"|\n')


def prefix_statement(
    text: str, prefix: AnswerPrefix, end: int, quoted_json: bool = False
) -> Bounds:
    """The statement an answer prefix opens: the box's inside, the tag's or JSON value's
    inside, else the rest of the sentence (the next line when the prefix ends its line).
    With ``quoted_json`` (number/v3) a JSON string value runs to its closing quote, so its
    grouping commas stay in it (``"12,600"``)."""
    start = prefix.end
    if quoted_json and prefix.kind == "json" and text[start - 1 : start] == '"':
        stop = _JSON_STRING_END.search(text, start, min(end, start + _MAX_STATEMENT))
        return Bounds(start, stop.start() if stop else _line_end(text, start, end))
    if prefix.kind == "box":
        return Bounds(start, _closing_brace(text, start, min(end, start + _MAX_BOX)))
    if prefix.kind == "tag":
        close = text.find("</", start, min(end, start + _MAX_BOX))
        return Bounds(start, close if close >= 0 else _line_end(text, start, end))
    if prefix.kind == "json":
        stop = _JSON_VALUE_END.search(text, start, min(end, start + _MAX_STATEMENT))
        return Bounds(start, stop.start() if stop else _line_end(text, start, end))
    line_end = _line_end(text, start, end)
    if _BLANK.fullmatch(text, start, line_end):  # `Answer:` alone on its line
        following = _NONSPACE.search(text, line_end, end)
        if following is None:
            return Bounds(start, start)
        start = following.start()
        enumerator = _ENUMERATOR.match(text, start, end)  # `Answer:\n1. 540`
        start = enumerator.end() if enumerator else start
    return Bounds(start, sentence_end(text, start, end))


def sentence_end(text: str, start: int, end: int) -> int:
    """Where the sentence from ``start`` ends (its terminator excluded), within a bound."""
    limit = min(end, start + _MAX_STATEMENT)
    pos = start
    while True:
        m = _TERMINATOR.search(text, pos, limit)
        if m is None:
            return limit
        if m.group() == "\n" or not _ABBREVIATION.search(
            text, max(start, m.start() - 8), m.start()
        ):
            return m.start()
        pos = m.end()


def _line_end(text: str, start: int, end: int) -> int:
    newline = text.find("\n", start, end)
    return end if newline < 0 else newline


def _closing_brace(text: str, start: int, limit: int) -> int:
    depth = 1
    for i in range(start, limit):
        ch = text[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i
    return limit


# ------------------------------------------------------------------- the final sentence

_LAST_NUMBER = re.compile(r"(?s).*[\d½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅐⅛⅜⅝⅞⅑⅒]")
_SENTENCE_START = re.compile(r"(?s).*(?:[.!?。！？．।](?=\s)|\n)")
_ASIDE = re.compile(
    r"(?i)^[\s*_>#(]*(?:note|n\.b|p\.s|check|checking|verification|verify|to (?:double[- ])?check"
    r"|originally|initially|at first|at the start"
    r"|double[- ]check|sanity check|for (?:example|instance)|e\.g)\b"
    r"|\bif\b.*\b(?:had|were|would|could)\b|\bwould\b.*\bbut\b"
    r"|\b(?:started|starts|began|begins) (?:out )?with\b|\bto begin with\b"
    r"|^\s*\((?=[^)]*[^\W\d_]{2})[^)]*\)?\W*$"  # a remark in parentheses
)
_MAX_ASIDES = 4
_LAST_NONSPACE = re.compile(r"(?s).*\S")


def final_sentence(text: str, start: int, end: int) -> Bounds | None:
    """The last sentence of ``text[start:end]`` with a number that is neither an aside (a note,
    a check, a counterfactual) nor a question; the last one with a number when all are. With no
    digit at all, the last sentence (number words are read there)."""
    found: Bounds | None = None
    limit = end
    for _ in range(_MAX_ASIDES + 1):
        m = _LAST_NUMBER.match(text, start, limit)
        if m is None:
            break
        bounds = _sentence_around(text, start, end, m.end() - 1)
        found = found or bounds
        sentence = text[bounds.start : bounds.end]
        if not _ASIDE.search(sentence) and text[bounds.end : bounds.end + 1] != "?":
            return bounds
        limit = bounds.start
    if found is None:
        last = _LAST_NONSPACE.match(text, start, end)  # no digit: the last sentence, for words
        return None if last is None else _sentence_around(text, start, end, last.end() - 1)
    return found


def _sentence_around(text: str, start: int, end: int, pos: int) -> Bounds:
    window = max(start, pos - _MAX_STATEMENT)
    m = _SENTENCE_START.match(text, window, pos)
    sentence_start = m.end() if m else window
    return Bounds(sentence_start, sentence_end(text, pos, end))


# ------------------------------------------------------------------- calculator annotations

_ANNOTATION = re.compile(r"<<[^<>\n]*>>")


def without_annotations(statement: str) -> tuple[str, Mapped]:
    """The statement without GSM8K calculator annotations (``<<3*12=36>>``), and the map of
    its offsets back."""
    if "<<" not in statement:
        return statement, Mapped(statement)
    mapped = rewrite(Mapped(statement), _ANNOTATION, lambda m: ())
    return mapped.text, mapped
