"""choice/v12's precision rules: letters and numbers that look like option labels but are part of
something else, blanked (with what they are part of) before the steps that read a label by its
shape (``correction``, ``last-resort``, ``plain-answer``: a step with ``precise``), so they
answer nothing and name nothing.

A label in the answer region's tail (`answer_tail`) is *not* a label when it is

- a unit after a number: a number, then at most one space, then the label, not wrapped
  ("I = 3 A.", "0.5 A", "Ток равен 3 А."), unless an answer word leads the number;
- fused into a word of a script that runs its words together: a Han, kana or Hangul character
  touching it on the right that is none of the particles and words answers use after a label
  ("B超", "A型血", "D类", "Aさん"; but "C选项", "Bです", "B입니다"), or on its left a katakana,
  Han or Hangul character that is none of the copulas, verbs and nouns answers use before a
  label ("ビタミンC", "维生素C", "비타민C"; but "答案是C", "选C", "答えはC");
- the end of a name or the start of a compound: a cased letter joined by a hyphen to a word
  ("D-day", "C-section"), or after a noun that makes designations (`_NAME_NOUNS`: "Hepatitis
  B.", "Plan B", "Exhibit A", "витамина С"), when its sentence holds no answer word, option
  word or colon before it and it heads nothing ("Group B: ...");
- with digit labels, a count: a digit followed by a word that is no conjunction or verdict, in
  a sentence with no answer word, option word or colon before it ("So we have 3 apples."; but
  "I choose 2 because ...").

The preset's ``item_after_answer`` (choice/v12's ``item-cut``, in `choice`) is the other half:
a question restated with its options is an invented next item only after an answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Protocol, TypeVar

from answer_audit.parsers.choice_last_resort import answer_tail
from answer_audit.parsers.choice_plain import CompiledLabels
from answer_audit.text.vocabulary import ANSWER_WORDS, MORE_ANSWER_WORDS

# Han, kana and Hangul: scripts that run their words together (as `choice_plain` reads them)
_RUNS_TOGETHER = re.compile(
    r"[\u1100-\u11ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]"
)
# What an answer puts right after a label in Chinese, Japanese and Korean, read at its right:
# a copula, a particle, "option", a verdict ("C选项", "B是", "Cです", "B입니다"); not an
# honorific ("Aさん") nor a noun it names ("B超", "A型", "A股", "A형")
_CJK_AFTER = re.compile(
    r"(?!さん|ちゃん|くん|様|さま)(?:[ぁ-ゖ]|选项|選項|选择|選擇|[项項号號是为為对對正错錯的吧啊呢嗎吗了最符比更也"
    r"都就才和或与與及还還而啱係喺嘅咩定并並这這那中里裡之属屬不没沒应應可能会會需则則在]"
    r"|[가이는은를을입에와과로으도의만랑야요인였다번항])"
)
# What an answer puts right before a label, read at its left: a copula, a choosing verb,
# "answer", "option", a conclusive word ("答案是C", "选C", "答案C", "故C", "정답은 B");
# any other Han or Hangul character, or katakana, makes it part of a word ("维生素C",
# "ビタミンC", "비타민C"); hiragana is a particle ("答えはC")
_CJK_BEFORE = frozenset(
    "是为為选選择擇项項答解故即应應取填作于於到者个個有和或与與及比非除了则則此以就还還係系乃揀拣挑定"
    "属屬對对号號第也都嘅咗喺"
    "은는이가답를을로즉번항"
)
_ANSWER_CASE = re.compile(r"(?<=答)案")  # "答案C" (but "方案C" is plan C)
# Nouns that a letter after them makes a name or a designation, not an option ("Hepatitis B",
# "Vitamin C", "Group B", "Exhibit A", "stage C", "Plan B"), in English and a few languages
# that write them alike; a plural "s" is read too
_NAME_NOUNS = frozenset(
    (
        "vitamin", "vitamine", "vitamina", "витамин", "hepatitis", "hépatite", "hepatite",
        "epatite", "гепатит", "influenza", "flu", "grippe", "strain", "type", "typ", "tipo",
        "тип", "blood", "group", "gruppe", "groupe", "grupo", "gruppo", "groep", "grupa",
        "группа", "exhibit", "annex", "annexe", "anhang", "appendix", "article", "artikel",
        "artículo", "articolo", "artigo", "schedule", "stage", "stadium", "stade", "estadio",
        "plan", "plano", "episode", "épisode", "episodio", "part", "teil", "partie", "parte",
        "section", "sektion", "sección", "chapter", "kapitel", "chapitre", "capítulo",
        "figure", "fig", "abbildung", "table", "tabelle", "category", "kategorie", "categoría",
        "class", "klasse", "classe", "clase", "grade", "level", "niveau", "nivel", "phase",
        "fase", "tier", "league", "liga", "division", "sector", "zone", "block",
        "building", "gebäude", "wing", "ward", "room", "raum", "salle", "sala", "gate", "terminal",
        "platform", "gleis", "track", "side", "seite", "team", "squad", "company", "firm",
        "model", "modell", "modèle", "modelo", "series", "serie", "série", "size", "format",
        "theorem", "satz", "théorème", "teorema", "lemma", "lemme", "axiom", "hypothesis",
        "scenario", "szenario", "case", "fall", "cas", "caso", "patient", "person", "subject",
        "player", "spieler", "joueur", "jugador", "country", "land", "pays", "país", "city",
        "stadt", "ville", "ciudad", "town", "village", "island", "point", "punkt", "vertex",
        "node", "sample", "probe", "box", "urn", "bag", "tube", "cup", "bottle", "flask",
        "jar", "container", "drug", "medication", "compound", "substance", "solution",
        "mixture", "protein", "factor", "faktor", "facteur", "gene", "allele", "receptor",
        "site", "region", "area", "unit", "einheit", "row", "column", "matrix", "vector",
        "plane", "face", "channel", "port", "pier", "level", "day", "hour", "list", "liste",
        "shift", "batch", "lot", "version", "rank", "rang", "grade", "note",
    )
)  # fmt: skip
# A word of the answer (any of `ANSWER_WORDS`, `MORE_ANSWER_WORDS`, option words) or a colon
# earlier in the sentence: the label is named as an answer
_ANSWER_CUE = re.compile(
    "|".join(
        sorted(
            {
                re.escape(w)
                for w in (
                    *ANSWER_WORDS,
                    *MORE_ANSWER_WORDS,
                    "option", "choice", "alternativ", "vaihtoehto", "variant", "opción",
                    "opcion", "opção", "opzione", "optie", "wariant", "seçenek", "pilihan",
                    "lựa chọn", "گزینه", "ข้อ", "선택", "選", "选", "solution", "correct",
                )
            },
            key=len,
            reverse=True,
        )
    )
    + r"|[:：]"
)  # fmt: skip
# The start of the label's sentence: the last sentence mark or line break before it
_SENTENCE_START = re.compile(r"[.!?](?=[\s\"'”’)\]*_])|[。！？；;\n]")
_OPENERS = "([（【\"'“‘*_«"
_CLOSERS = ")]）】\"'”’*_»"
# A hyphen and a word right after a label ("D-day")
_HYPHEN_WORD = re.compile(r"-[^\W\d_]+")
_KEY_AFTER = re.compile(r"[)）\]*_]*[ \t]*[:：]")
# A digit label followed by a word: a count ("3 apples"), unless an answer cue is in the sentence
_WORD_AFTER = re.compile(r"[ \t]+([^\W\d_]+)")
# Words after a chosen number that are no noun it counts: conjunctions, copulas, verbs of a
# verdict ("2 because", "3 is correct", "4 weil", "1 car")
_LINKS = frozenset(
    (
        "because", "since", "as", "so", "but", "and", "or", "which", "that", "is", "was",
        "seems", "looks", "fits", "matches", "works", "makes", "gives", "would", "should",
        "could", "must", "will", "best", "only", "here", "too", "then", "now", "again", "for",
        "weil", "denn", "da", "ist", "car", "parce", "puisque", "est", "porque", "pues", "pois",
        "es", "é", "perché", "poiché", "è", "vì", "do", "là", "karena", "kerana", "sebab",
        "adalah", "ialah", "потому", "так", "бо", "jer", "kwa", "que", "che", "dass", "omdat",
        "eftersom", "fordi", "koska", "ponieważ", "bo", "protože", "mert", "çünkü",
    )
)  # fmt: skip


class _Compiled(CompiledLabels, Protocol):
    @property
    def item_token(self) -> re.Pattern[str] | None: ...

    @property
    def token_chars(self) -> frozenset[str]: ...


def _sentence_start(norm: str, lo: int, start: int) -> int:
    """Where the sentence holding ``start`` begins (within 300 characters, not before ``lo``)."""
    floor = max(lo, start - 300)
    at = floor
    for m in _SENTENCE_START.finditer(norm, floor, start):
        at = m.end()
    return at


def _wrapped(norm: str, start: int, stop: int) -> bool:
    return (start > 0 and norm[start - 1] in _OPENERS) or (
        stop < len(norm) and norm[stop] in _CLOSERS
    )


def _unit(norm: str, lo: int, start: int, stop: int) -> bool:
    """A unit after a number ("3 A"), unless wrapped or an answer word leads the number."""
    before = norm[max(lo, start - 2) : start]
    if not before or not (
        before[-1].isdecimal() or (before[-1] in " \t" and before[:1].isdecimal())
    ):
        return False
    if _wrapped(norm, start, stop):
        return False
    number = _number_start(norm, lo, start)
    lead = norm[max(lo, number - 24) : number].rstrip(" \t:：")
    return _ANSWER_CUE.search(lead[-12:]) is None if lead else True


def _number_start(norm: str, lo: int, start: int) -> int:
    """Where the number before the unit at ``start`` begins (its digits, points and commas)."""
    at = start - 1
    while at > lo and norm[at - 1] in " \t":
        at -= 1
    while at > lo and (norm[at - 1].isdecimal() or norm[at - 1] in ".,"):
        at -= 1
    return at


def _fused(norm: str, start: int, stop: int) -> bool:
    """A label fused into a word of a script that runs its words together."""
    if (start == 0 or norm[start - 1] < "\u1100") and norm[stop : stop + 1] < "\u1100":
        return False  # (most labels: no such character touches them)
    if _RUNS_TOGETHER.match(norm, stop) and _CJK_AFTER.match(norm, stop) is None:
        return True  # "B超", "A型血", "A股"
    if start == 0 or not _RUNS_TOGETHER.match(norm, start - 1):
        return False
    left = norm[start - 1]
    if "\u3041" <= left <= "\u3096":
        return False  # a particle: "答えはC"
    return left not in _CJK_BEFORE and _ANSWER_CASE.match(norm, start - 1) is None


def _answer_cued(norm: str, lo: int, start: int) -> bool:
    return _ANSWER_CUE.search(norm, _sentence_start(norm, lo, start), start) is not None


def _name_end(norm: str, lo: int, start: int, stop: int) -> tuple[int, int] | None:
    """The name a cased letter ends ("Hepatitis B", "Plan B", "витамин С") or the compound it
    starts ("D-day"), or None."""
    if norm[start].lower() == norm[start].upper() or _wrapped(norm, start, stop):
        return None
    compound = _HYPHEN_WORD.match(norm, stop)
    if compound is not None and not (start > 0 and norm[start - 1] == "-"):
        return start, compound.end()
    end = start
    while end > lo and norm[end - 1] in " \t":
        end -= 1
    if end == start and not (end > lo and norm[end - 1] == "-"):
        return None  # no space or hyphen before it
    end -= end == start  # (the hyphen)
    begin = end
    while begin > lo and norm[begin - 1].isalpha():
        begin -= 1
    if end - begin < 3 or not _name_noun(norm[begin:end]):
        return None
    if _KEY_AFTER.match(norm, stop) is not None or _answer_cued(norm, lo, start):
        return None  # it heads what follows ("Group B: ..."), or the sentence answers
    return begin, stop


def _name_noun(word: str) -> bool:
    """One of `_NAME_NOUNS`, or one of five letters or more with an ending of up to three
    ("витамина", "groups", "stages")."""
    return word in _NAME_NOUNS or any(
        word[:cut] in _NAME_NOUNS for cut in range(max(5, len(word) - 3), len(word))
    )


def _quantity(norm: str, lo: int, start: int, stop: int) -> tuple[int, int] | None:
    """A digit and the word it counts, that is no conjunction or verb, in a sentence with no
    answer cue ("So we have 3 apples."; not "I choose 2 because ..."), or None."""
    after = _WORD_AFTER.match(norm, stop)
    if after is None or after.group(1) in _LINKS or _wrapped(norm, start, stop):
        return None
    return None if _answer_cued(norm, lo, start) else (start, after.end())


def _not_label(norm: str, lo: int, start: int, stop: int, digits: bool) -> tuple[int, int] | None:
    """The span of the thing the label at ``start:stop`` is part of, when it is no label."""
    if norm[start].isdecimal():
        return _quantity(norm, lo, start, stop) if digits else None
    if _unit(norm, lo, start, stop):
        return _number_start(norm, lo, start), stop  # the number is no label either
    if _fused(norm, start, stop):
        return start, stop
    return _name_end(norm, lo, start, stop)


def not_labels(norm: str, compiled: _Compiled) -> list[tuple[int, int]]:
    """The spans of the answer region's tail that look like labels and are not, each with what
    it is part of ("3 a", "plan b", "d-day"), in order and apart (see the module's docstring)."""
    token, tokens = compiled.item_token, compiled.tokens
    if token is None or tokens is None:
        return []
    digits = tokens.labels[:1].isdecimal()
    lo, hi = answer_tail(norm)
    found: list[tuple[int, int]] = []
    # only where a rule may apply: a label after a digit, a space, a hyphen or a CJK character,
    # or before a hyphen or a CJK character (or a digit before a word): a fraction of the labels
    for m in _candidates(compiled.token_chars, digits).finditer(norm, lo, hi):
        start = m.start()
        label = token.match(norm, start)
        if label is None or label.start(1) != start:
            continue
        stop = label.end(1)
        if tokens.value(_LOOKALIKES.get(label.group(1), label.group(1))) is None:
            continue
        span = _not_label(norm, lo, start, stop, digits)
        if span is None:
            continue
        if found and span[0] < found[-1][1]:
            span = (found[-1][0], max(span[1], found[-1][1]))
            found.pop()
        found.append(span)
    return found


@lru_cache(maxsize=64)
def _candidates(chars: frozenset[str], digits: bool) -> re.Pattern[str]:
    """Where a label one of `not_labels`'s rules may reject can stand (``chars``: the labels)."""
    letters = "".join(sorted(re.escape(c) for c in chars if not c.isdecimal())) + "јі"
    wide = "\u1100-\U0010ffff"
    pattern = rf"[{letters}](?:(?<=[\d \t\-].)(?![^\W\d_])|(?<=[{wide}].)|(?=[\-{wide}]))"
    return re.compile(pattern + r"|\d(?=[ \t]+[^\W\d_])" if digits else pattern)


def blank_not_labels(norm: str, compiled: _Compiled) -> str:
    """``norm`` with every `not_labels` span blanked (offsets kept)."""
    spans = not_labels(norm, compiled)
    if not spans:
        return norm
    parts, at = [], 0
    for start, stop in spans:
        # a word of a letter no script labels with: a word stays a word ("a D-day" keeps its
        # article an article) and "a Plan B." names no two options
        parts += [norm[at:start], _BLANK * (stop - start)]
        at = stop
    parts.append(norm[at:])
    return "".join(parts)


_LOOKALIKES = {"ј": "j", "і": "i"}  # (as `choice_plain` reads them)
_BLANK = "ſ"  # (NFKC turns a long s into "s", so a normalized text never holds one)
R = TypeVar("R")


def precise(read: Callable[..., R | None], lazy: bool = False) -> Callable[..., R | None]:
    """A step reader (``step, patterns, norm, lines, compiled``) that reads ``norm`` with its
    non-labels blanked (`blank_not_labels`, worked out once for the steps of one text). With
    ``lazy`` (for a step that runs on every text), only what it reads on ``norm`` is checked:
    where it reads nothing, nothing is blanked (so it can only take answers away)."""

    def read_precisely(
        step: object, patterns: object, norm: str, lines: object, compiled: _Compiled
    ) -> R | None:
        global _LAST
        if lazy and (found := read(step, patterns, norm, lines, compiled)) is None:
            return None
        last = _LAST
        if last[0] is norm and last[1] is compiled:
            blanked = last[2]
        else:
            blanked = blank_not_labels(norm, compiled)
            _LAST = (norm, compiled, blanked)
        if lazy and blanked is norm:
            return found
        return read(step, patterns, blanked, lines, compiled)

    return read_precisely


# The last text blanked, by identity, with the compiled preset and the result: a text's
# precise steps run one after another on the same string. (A stale entry from another thread
# fails the identity test; the result never depends on it.)
_LAST: tuple[object, object, str] = (None, None, "")
