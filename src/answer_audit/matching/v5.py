"""The ``v5`` matcher: ``v4`` (`answer_audit.matching.v4`) and the classes a blind split showed
it missed. It reads every text as v4 does, on the v5 rendering (`rendered_v5`: v4's, with years
spoken as words written as digits), and adds:

- **Dates.** A truth that is a date is stated by the same day in any common format
  (``2007-12-13``, ``20/07/1969`` when the order is not in doubt, ``September 6, 1998`` for
  ``6 September 1998``, ``1994年5月10日``, ``13 de diciembre de 2007``), a year truth by a
  numeric full date (``2007-12-13`` for 2007); a different day, or a month or year alone for a
  full date, is no mention (`answer_audit.matching.v5_dates`).
- **Years in words.** ``nineteen eighty-nine`` is 1989 (v3 read it as 19 + 89).
- **Negation in more languages** (``e não Canberra``, ``не Москва``, ``non Roma``) and v4's
  Portuguese patterns read where they match (v4 wrote them with the accent its rendering drops).
- **A full name is no doubled surname.** v4 wrote the surname of ``Oscar Wilde`` in ``Not Oscar
  Wilde`` as the full name too (``Not Oscar Oscar Wilde``), so the "Not" no longer stood before
  the mention.
- **Corrections** (``Actually, I should correct myself: it was Y``, ``I misspoke``, ``ich
  korrigiere mich``, ``更正``) take the mention back; so does a doubt naming another candidate
  (``Hmm, or is it the tibia?``, ``I'm not sure anymore``) with no confirmation after it, and a
  trace cut off after such a doubt has not committed to a mention in its unfinished sentence.
- **No pick in more shapes**: one side of an alternative in other languages (``X oder Y``,
  ``X или Y``, ``可能是X，也可能是Y``, ``不是X就是Y``), a mention followed by "I can't determine
  which" (``Document 1 says X, Document 3 says Y``), and an item of a numbered or bulleted list
  introduced as candidates (``It could be one of these:``).
- **Sources are no answer.** A mention only under a ``Sources:`` or ``References:`` heading (a
  source title) does not count.
- ``Equatorial Guinea`` is not Guinea (a word that makes a longer name, as ``New``, ``North``).
"""

from __future__ import annotations

import heapq
import re
from fractions import Fraction
from functools import lru_cache

from answer_audit.matching import v4 as _v4
from answer_audit.matching.v3_normalizer import canonical_v3, normalize_v3
from answer_audit.matching.v4_aliases import alias_kinds, resolve_aliases
from answer_audit.matching.v4_normalizer import rendered_v4
from answer_audit.matching.v4_numbers import MENTIONS_READ, number_truth
from answer_audit.matching.v4_units import Unit
from answer_audit.matching.v5_dates import (
    Date,
    date_mentions,
    date_truth,
    spell_years,
    year_mentions,
)
from answer_audit.text.prefilters import guarded


def rendered_v5(text: str) -> str:
    """`rendered_v4` with years spoken as words written as digits.

    >>> rendered_v5("Zürich, nineteen eighty-nine")
    'Zurich, 1989'
    """
    return spell_years(rendered_v4(text))


def normalize_v5(text: str) -> str:
    """v3's normalizer on the v5 rendering.

    >>> normalize_v5("**Zürich** in nineteen eighty-nine")
    'zurich in 1989'
    """
    return normalize_v3(rendered_v5(text))


def match_v5(prediction: str, truth: str) -> bool | None:
    """True when the truth is stated in the prediction (see the module docstring).

    >>> match_v5("2007-12-13", "13 December 2007"), match_v5("Sydney, e não Canberra.", "Canberra")
    (True, False)
    """
    truth = spell_years(truth)
    if not _normalized_truth(truth):
        return None
    if date_truth(truth) is None:
        words = _v4.required_words(truth)  # v5 writes no letters where v4 wrote none
        if words is not None and _v4._lacks(prediction, words):
            return False
    return read_v5(prediction, truth)


_normalized_truth = lru_cache(maxsize=4096)(normalize_v5)
_rendered_truth = lru_cache(maxsize=4096)(rendered_v5)


def read_v5(prediction: str, truth: str) -> bool:
    """`match_v5`'s reading, for a truth (years already spelled as digits) that normalizes to
    some text."""
    g = _normalized_truth(truth)
    rendered = _rendered_truth(truth)
    p = canonical_v3(_resolve_aliases(rendered_v5(prediction), rendered))
    if not p.strip():
        return False
    if g in ("yes", "no"):
        return _v4._polarity(p) == g
    date = date_truth(truth)
    value, unit = number_truth(truth)
    is_number = value is not None or date is not None
    body_end = _body_end(p)
    for start, end in heapq.nlargest(MENTIONS_READ, _mentions(p, truth, g, date, value, unit)):
        if end > body_end or (not is_number and _inside_a_longer_name(p, start)):
            continue
        if _v4._asserted(p, start, end, is_number) and _asserted(p, start, end):
            return not (_v4._retracted(p, end) or _retracted(p, end))
    return False


def _mentions(
    p: str, truth: str, g: str, date: Date | None, value: Fraction | None, unit: Unit | None
) -> list[tuple[int, int]]:
    if date is not None:
        names = _v4._name_pattern(_v4._mention_words(g)).finditer(p)  # v4's, kept
        return date_mentions(p, date) + [m.span() for m in names]
    found = _v4._mentions(p, truth, g)
    if value is not None and unit is None and value.denominator == 1 and 1000 <= value < 3000:
        found += year_mentions(p, int(value))
    return found


# ------------------------------------------------------------------ aliases


def _resolve_aliases(prediction: str, truth: str) -> str:
    """v4's aliases, outside the places that already write the full truth: the surname of
    ``Oscar Wilde`` is not written out again inside ``Oscar Wilde``."""
    if "surname" not in alias_kinds(truth):
        return resolve_aliases(prediction, truth)
    pieces, last = [], 0
    for m in _full_name(truth).finditer(prediction):
        pieces += [resolve_aliases(prediction[last : m.start()], truth), m[0]]
        last = m.end()
    return "".join(pieces) + resolve_aliases(prediction[last:], truth)


@lru_cache(maxsize=4096)
def _full_name(truth: str) -> re.Pattern[str]:
    words = truth.replace(",", " ").split()
    return re.compile(r"(?<![A-Za-z])" + r"\s+".join(map(re.escape, words)) + r"(?![A-Za-z])")


_NAME_PREFIXES = _v4._NAME_PREFIXES | {"equatorial"}


def _inside_a_longer_name(p: str, start: int) -> bool:
    m = _v4._WORD_BEFORE_MENTION.search(p, max(0, start - 14), start)
    return m is not None and m.group(1) in _NAME_PREFIXES


# ------------------------------------------------------------------ reading

# Negation right before a mention in more languages (the text has lost its Latin accents:
# "não" is "nao"): Portuguese, French and Italian "non", Russian, Polish, Dutch, Swedish,
# Norwegian and Danish, Indonesian, Vietnamese.
_NEGATED_BEFORE = guarded(
    re.compile(r"(?<!\w)(?:nao|non|не|ни|nie|niet|inte|ikke|bukan|khong phai|nao e|nao era)\s*$")
)
# ... and right after it: Turkish "değil", Hindi "नहीं", Russian "— нет".
_NEGATED_AFTER = re.compile(r"^\s*(?:degil\b|नहीं|नही|\s*[—–-]\s*нет\b)")
# One side of an alternative in other languages (German, French and Portuguese, Russian,
# Polish, Turkish, Indonesian, Vietnamese, Chinese, Japanese, Korean).
_OR_WORDS = r"oder|ou|или|либо|lub|veya|ya da|atau|hoac|或者|或是|或(?!许)|抑或|또는|아니면"
_OR_AFTER = re.compile(
    rf"^\s*(?:(?:{_OR_WORDS}|还是|還是)\s*\w|か\s*、?\s*[\u30a0-\u30ff\u4e00-\u9fff])"
)
_OR_BEFORE = re.compile(rf"\w[\s,]*(?<!\w)(?:{_OR_WORDS})\s*$")
# A sentence that names two candidates: "可能是X，也可能是Y", "要么X要么Y", "不是X就是Y",
# "soit X soit Y", "entweder X oder Y".
_TWO_CANDIDATES = guarded(
    re.compile(
        r"可能是[^。！？\n]{1,40}也可能|也许是[^。！？\n]{1,40}也许是|要么[^。！？\n]{1,40}要么"
        r"|不是[^。！？\n，,]{1,20}就是|かもしれないし|\bsoit\b[^.!?\n]{1,40}\bsoit\b"
        r"|\bentweder\b[^.!?\n]{1,60}\boder\b|(?<!\w)либо\b[^.!?\n]{1,40}(?<!\w)либо\b"
    )
)
# The answer says it cannot tell which of the values it named is right.
_UNDECIDED = guarded(
    re.compile(
        r"\b(?:can(?:no|')t|could(?:n't| not)|unable to|not (?:sure|certain)|unsure"
        r"|(?:don't|do not) know|hard to (?:say|tell))\b[^.!?\n]{0,30}?\bwhich\b"
        r"(?:\s+(?:is|one|1|was|of (?:them|these|the two|2)|to (?:trust|believe|choose))\b"
        r"|\s*(?:[.!?,;—–-]|$))"
        r"|不确定是哪|不知道是哪|无法确定哪|無法確定哪|どちらか(?:分かりません|わかりません)"
    )
)
# A numbered or bulleted list item, and an introduction that offers candidates, not a pick.
_ITEM_LINE = re.compile(r"[ \t]*(?:\d{1,2}[.)]|[-*•·])[ \t]+(\S.*)")
_HEDGED_INTRO = re.compile(
    r"\b(?:could|might|may|possib\w*|options?|candidates?|(?:one|1) of|either|maybe|perhaps"
    r"|not sure|unsure|guess\w*|likely)\b|可能|候補|候选|возможно|vielleicht|peut-etre"
    r"|quizas|tal vez|talvez|forse"
)
_ITEM_WORDS = 6  # an item that is a candidate is a name, not a sentence
# A doubt that names another candidate, or says the writer is no longer sure.
_DOUBT = re.compile(
    r"\bor (?:is|was) it\b[^.!?\n]{0,60}\?|\bnot (?:so )?sure anymore\b|\bno longer sure\b"
    r"|\bnow i(?:'m| am) (?:not sure|unsure|doubting)\b"
)
# Corrections beyond v4's: the mention before them is taken back.
_RETRACTION = guarded(
    re.compile(
        r"\b(?:correct myself|let me correct|i misspoke|my mistake|i was mistaken)\b"
        r"|\b(?:ich korrigiere mich|ich meinte|korrektur\s*:|je me corrige|je voulais dire"
        r"|me corrijo|quise decir|quis dizer|mi correggo|volevo dire)\b"
        r"|поправлюсь|я ошиб(?:ся|лась)|更正|纠正一下|说错了|說錯了|訂正します|間違えました|정정"
    )
)
# Where the answer ends and its list of sources begins.
_SOURCES = re.compile(
    r"(?m)^[ \t>#]*(?:sources?|references?|citations?|bibliography|works cited|quellen"
    r"|fuentes|fontes|fonti|источники|来源|参考资料|参考文献|出典|출처)[ \t]*[:：]"
)


def _body_end(p: str) -> int:
    """Where a ``Sources:`` heading starts (a text that opens with one is all body)."""
    m = _SOURCES.search(p, 1)
    return m.start() if m else len(p)


def _asserted(p: str, start: int, end: int) -> bool:
    """v5's reading of one mention v4 reads as asserted (see the module docstring)."""
    s, e = _v4._sentence_bounds(p, start, end)
    near, tail = p[max(s, start - _v4._NEAR) : start], p[end : e + 1]
    if _NEGATED_BEFORE.search(near) or _NEGATED_AFTER.match(tail):
        return False
    if _OR_AFTER.match(tail) or _OR_BEFORE.search(near) or _TWO_CANDIDATES.search(p, s, e):
        return False
    if _undecided(p, s, end) or _in_open_list(p, start, end):
        return False
    return not _cut_off_in_doubt(p, start, e)


def _undecided(p: str, s: int, end: int) -> bool:
    """The mention's sentence or the next one says it cannot tell which value is right."""
    first = _v4._SENTENCE_END.search(p, end)
    second = _v4._SENTENCE_END.search(p, first.end()) if first else None
    return _UNDECIDED.search(p, s, second.end() if second else len(p)) is not None


def _in_open_list(p: str, start: int, end: int) -> bool:
    """The mention is a short item of a list of two or more that an introduction ending in a
    colon offers as candidates (``It could be one of these:``)."""
    line_start = p.rfind("\n", 0, start) + 1
    line_end = p.find("\n", start)
    line_end = len(p) if line_end < 0 else line_end
    if end > line_end or not _is_item(p[line_start:line_end]):
        return False  # the common case, decided without reading other lines
    before = p[max(0, line_start - _LIST_REACH) : line_start].split("\n")[:-1]
    after = p[line_end + 1 : line_end + 1 + _LIST_REACH].split("\n")
    above = 0
    while above < len(before) and _is_item(before[-1 - above]):
        above += 1
    below = next((i for i, line in enumerate(after) if not _is_item(line)), len(after))
    intro = before[-1 - above].strip() if above < len(before) else ""
    hedged = intro.endswith(":") and _HEDGED_INTRO.search(intro) is not None
    return above + below >= 1 and hedged


# The lines of a list are read this far from the mention's line each way.
_LIST_REACH = 1000


def _is_item(line: str) -> bool:
    m = _ITEM_LINE.fullmatch(line)
    return m is not None and len(m.group(1).split()) <= _ITEM_WORDS


def _cut_off_in_doubt(p: str, start: int, e: int) -> bool:
    """The mention is in an unfinished last sentence (a trace cut off), after a doubt that
    names another candidate or gives up (`_DOUBT`) and that nothing has confirmed since."""
    if e < len(p) and p[e:].strip():
        return False
    # v5's doubts only: v4's "is that right?" is often the writer checking, not changing mind
    doubts = [m.end() for m in _DOUBT.finditer(p, 0, start)]
    return bool(doubts) and _v4._CONFIRMATION.search(p, doubts[-1], start) is None


def _retracted(p: str, last_end: int) -> bool:
    """A v5 correction or doubt in the mention's sentence or the next one (v4's window)."""
    first = _v4._SENTENCE_END.search(p, last_end)
    second = _v4._SENTENCE_END.search(p, first.end()) if first else None
    window_end = second.end() if second else len(p)
    if _RETRACTION.search(p, last_end, window_end) is not None:
        return True
    doubt = _DOUBT.search(p, last_end, window_end)
    return doubt is not None and _v4._CONFIRMATION.search(p, doubt.end()) is None
