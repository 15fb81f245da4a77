"""The ``v4`` matcher: is the truth *stated* in the answer, as a careful reader would judge it?

It reads as ``v3`` does (`answer_audit.matching.v3`: equivalent spellings, numbers by value, a
mention that is only asked, negated, an operand or one item of a list does not count, yes/no by
polarity; v3's readers are frozen, so v4 calls them), on the v4 rendering of both texts
(`answer_audit.matching.v4_normalizer`: accents, invisible characters, LaTeX formulas), with
the truth's other names written as the truth (`answer_audit.matching.v4_aliases`: ``U.S.``
for "United States", ``da Vinci`` for "Leonardo da Vinci"). What v4 adds to the reading:

- **Units.** A number with a unit states the truth's quantity in any unit of the same kind
  (``32 °F`` for ``0 °C``, ``1,235 km/h`` for ``343 m/s``; `answer_audit.matching.v4_numbers`);
  a unit of another kind (``343 km`` for ``343 m/s``) does not.
- **No pick.** A mention that is one side of an alternative (``either X or Y``, ``X or Y``),
  one of two names picked (``Paris and Lyon.``, ``both X and Y``) or one item of a list after
  a colon (``Possible answers: X, Y, Z``) is not an answer.
- **Someone else's answer** (``Many people think it is Sydney``, ``The user says 12``) and a
  counterfactual (``If you meant the largest city, it would be Sydney``) are not the answer.
- **Negation in more languages** (``不是巴黎``, ``東京ではない``, ``n'est pas``, ``no es``).
- **The final statement wins.** A mention taken back in its own or the next sentence (``no
  wait``, ``scratch that``, ``I meant``, ``correction:``, a short ``Actually, it's Lyon.``),
  or doubted there (``wait, is that right?``) with no confirmation after, does not count when
  no mention follows.
- **A number that only names something** (``the 1889 World's Fair``) is not the answer when
  the sentence states another number.
- **Yes/no.** A "No" that rejects the asker's claim (``No, you're mistaken; 7 is prime``)
  takes the polarity of the statement after it; a dash may follow the "No".
"""

from __future__ import annotations

import heapq
import re
from functools import lru_cache

from answer_audit.matching import v3 as _v3
from answer_audit.matching.v3_normalizer import canonical_v3
from answer_audit.matching.v4_aliases import alias_kinds, initials, resolve_aliases
from answer_audit.matching.v4_normalizer import normalize_v4, rendered_v4
from answer_audit.matching.v4_numbers import MENTIONS_READ, number_mentions, number_truth
from answer_audit.text.numerals import find_numbers
from answer_audit.text.prefilters import guarded

# A last word that only says what kind of place it is ("Pacific Ocean": "the Pacific"), as v3,
# and a first one ("Mount Everest": "Everest").
_CATEGORY_NOUNS = _v3._CATEGORY_NOUNS
_CATEGORY_PREFIXES = frozenset({"mount", "mt", "lake"})


def match_v4(prediction: str, truth: str) -> bool | None:
    """True when the truth is stated in the prediction (see the module docstring).

    >>> match_v4("Water freezes at 32 °F.", "0 °C"), match_v4("Paris, no wait, Lyon.", "Paris")
    (True, False)
    """
    g = _normalized_truth(truth)
    if not g:
        return None
    words = required_words(truth)
    if words is not None and _lacks(prediction, words):
        return False  # what `read_v4` finds (see `required_words`)
    return read_v4(prediction, truth)


def read_v4(prediction: str, truth: str) -> bool:
    """`match_v4`'s reading of a prediction, for a truth that normalizes to some text."""
    g = _normalized_truth(truth)
    p = canonical_v3(resolve_aliases(rendered_v4(prediction), _rendered_truth(truth)))
    if not p.strip():
        return False
    if g in ("yes", "no"):
        return _polarity(p) == g
    is_number = number_truth(truth)[0] is not None
    # Only the last asserted mention decides (the final statement wins): read from the end, at
    # most `MENTIONS_READ` of them (a text that mentions the truth that often after its last
    # assertion of it does not assert it; the reading of one text stays linear).
    for start, end in heapq.nlargest(MENTIONS_READ, _mentions(p, truth, g)):
        if (is_number or not _inside_a_longer_name(p, start)) and _asserted(
            p, start, end, is_number
        ):
            return not _retracted(p, end)
    return False


# A run has few distinct truths and many predictions: each truth is read once.
_normalized_truth = lru_cache(maxsize=4096)(normalize_v4)
_rendered_truth = lru_cache(maxsize=4096)(rendered_v4)


# ------------------------------------------------------------------- mentions


def _mentions(p: str, truth: str, g: str) -> list[tuple[int, int]]:
    value, unit = number_truth(truth)
    if value is not None:
        return number_mentions(p, value, unit, "." in g or unit is not None)
    return [m.span() for m in _name_pattern(_mention_words(g)).finditer(p)]


def _mention_words(g: str) -> tuple[str, ...]:
    """The words of the normalized truth that a mention must hold, in order."""
    words = g.split()
    if words[0] in ("the", "a", "an") and len(words) > 1:
        words = words[1:]  # "the Sun": "Sun" states it too
    if len(words) > 1 and words[-1] in _CATEGORY_NOUNS:
        words = words[:-1]  # "the Pacific" states "Pacific Ocean"
    if len(words) > 1 and words[0] in _CATEGORY_PREFIXES:
        words = words[1:]  # "Everest" states "Mount Everest"
    return tuple(words)


@lru_cache(maxsize=4096)
def required_words(truth: str) -> tuple[str, ...] | None:
    """Lowercase ASCII strings one of which `match_v4` finds in the lowercased prediction
    whenever it finds the truth there, for an ASCII prediction with no backslash and no dotted
    chain (``p.a.r.i.s``); None when the truth has no such strings (numbers, yes/no, non-ASCII
    words, a truth that holds an initialism).

    On such a prediction the v4 rendering changes nothing but subscript numbers and dozens
    (``H_2``, ``a dozen``: digits stay where letters or digits were), the v3 rewrites make no letters-only word that was
    not there (`answer_audit.matching.v3.required_word`), and an alias is written as the truth
    only where the text holds the truth's initials or its surname. So a mention holds the
    first word of the truth, its initials or the surname's last word only where the text did.

    >>> required_words("Mount Everest"), required_words("Leonardo da Vinci")
    (('everest', 'me'), ('vinci',))
    """
    g = _normalized_truth(truth)
    if not g or g in ("yes", "no") or number_truth(truth)[0] is not None:
        return None
    rendered = _rendered_truth(truth)
    kinds = alias_kinds(rendered)
    if "expansion" in kinds:
        return None  # "United States of America" states "USA": no word of it is required
    words = _mention_words(g)
    word = words[-1] if "surname" in kinds else words[0]
    if not re.fullmatch(r"[a-z]+", word) or word in _v3._UNIT_LETTERS:
        return None
    letters = initials(rendered)
    return (word,) if letters is None else (word, letters)


_DOTTED_CHAIN = re.compile(r"[a-z]\.[a-z]")


def _lacks(prediction: str, words: tuple[str, ...]) -> bool:
    """The prediction is one `required_words` speaks for and holds none of the words."""
    if not prediction.isascii() or "\\" in prediction:
        return False
    lowered = prediction.lower()
    return not any(w in lowered for w in words) and _DOTTED_CHAIN.search(lowered) is None


@lru_cache(maxsize=4096)
def _name_pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    body = r"[\W_]+".join(re.escape(w) for w in words)
    if " ".join(words).isascii():  # a whole word: "York" is not stated by "Yorkshire"
        body = rf"(?<![a-z0-9]){body}(?![a-z0-9])"
    return guarded(re.compile(body))


# A word that makes a longer name of the one after it: "New York" is not York, "South Korea"
# is not Korea (a category word is no such word: "Mount Everest" is Everest).
_NAME_PREFIXES = frozenset(
    {"new", "north", "south", "east", "west", "northern", "southern", "eastern", "western",
     "upper", "lower", "great", "greater", "little", "old", "san", "santa", "saint", "st",
     "fort", "port"}
)  # fmt: skip
_WORD_BEFORE_MENTION = re.compile(r"([a-z]+)\.?[ \t]+$")


def _inside_a_longer_name(p: str, start: int) -> bool:
    m = _WORD_BEFORE_MENTION.search(p, max(0, start - 12), start)
    return m is not None and m.group(1) in _NAME_PREFIXES


# ------------------------------------------------------------------ assertion

# Sentence ends: v3's, but an ellipsis ends a sentence once (at its last dot), and the
# ideographic full stop (NFKC leaves it; it turns "？" into "?").
_SENTENCE_END = re.compile(r"[!?\n。]|\.(?![\d.])")
# Negation right before a mention, beyond v3's English: Chinese, French, Spanish, Portuguese,
# Italian, German.
_NEGATED_BEFORE = guarded(
    re.compile(
        r"(?:不是|并非|并不是|而非|而不是|决不是|絕不是|並非|並不是|不是說"
        r"|\bpas|\bno es|\bno son|\bno era|\bnão é|\bnão era|\bnon è|\bnon era|\bnicht|\bkein(?:e|en)?"
        r"|\bni)\s*(?:le |la |les |el |los |las |o |a |il |der |die |das )?$"
    )
)
# Negation right after it: Japanese ではない / じゃない, Korean 이/가 아니, Chinese 不是 after a
# subject is not negation of it ("巴黎不是" is), French "n'est pas".
_NEGATED_AFTER = re.compile(
    r"^\s*(?:では(?:な|あり)|じゃ(?:な|あり)|(?:이|가)?\s*아니|ではなく|じゃなく"
    r"|n'est pas|n'était pas|ist nicht|ist kein|no es\b|no era\b|non è|não é)"
)
# One side of an alternative: "either X or Y", "X or Y", "X/Y" ("or so", "or more" are not).
_NOT_AN_ALTERNATIVE = (
    r"(?:so|more|less|fewer|greater|higher|lower|above|below|else|other|not|rather"
    r"|thereabouts|something|similar|equivalent)\b"
)
_OR_AFTER = re.compile(rf"^\s+or\s+(?!{_NOT_AN_ALTERNATIVE})[\w$]")
_OR_BEFORE = re.compile(rf"(?:^|(?<![,;(])\s)(?!{_NOT_AN_ALTERNATIVE})[\w%)]+\s+or\s+$")
_EITHER = re.compile(r"\beither\b")
_OR = re.compile(r"\bor\b")
# Two picks: a sentence that is only "X and Y" (one to three words each), or "both X and Y".
_AND = re.compile(r"\band\b|&")
_TWO_PICKS = re.compile(
    r"\W*(?:both\s+)?(?:[\w'-]+\s+){0,2}?[\w'-]+\s+(?:and|&)\s+(?:[\w'-]+\s+){0,2}?[\w'-]+\W*"
)
_BOTH = re.compile(r"\bboth\s+(?:[\w'-]+\s+){0,2}$")
# A list introduced by a colon: three or more short items, none picked ("Possible answers:
# Paris, Lyon, Marseille").
_ITEM = r"[^\s,:;.!?][^,:;.!?\n]{0,40}?"
_COLON_LIST = re.compile(rf":\s*{_ITEM}(?:\s*,\s*{_ITEM}){{2,}}\s*(?:[.;!?\n]|$)")
# A number that names a thing ("the 1889 World's Fair", "its 1066 invasion"), not a quantity.
_DETERMINER_BEFORE = re.compile(r"\b(?:the|a|an|this|that|its|their|his|her)\s+$")
_WORD_AFTER = re.compile(r"^[ -]+[a-z]")
# The clause a mention is in starts after the last of these in its sentence.
_CLAUSE_START = re.compile(r"[;:,]|\b(?:but|however|actually|whereas|while|though|although)\b")
# Someone else's answer, in the mention's clause ("Many people think it is Sydney").
_SOMEONE_ELSES = re.compile(
    r"\b(?:people|users?|you|they|others|some|many|he|she|the asker|critics|it is often"
    r"|it's often|is commonly|is often)\b(?:\s+\w+){0,3}?\s+(?:think|thinks|thought|believe"
    r"|believes|believed|say|says|said|claim|claims|claimed|assume|assumes|assumed|suggest"
    r"|suggests|suggested|guess|guesses|guessed|mistake|mistakes|confuse|confuses|mention"
    r"|mentioned|answered|insist|insists)\b"
)
# The answer to another question, in the mention's sentence ("If you meant the largest city,
# it would be Sydney"); "If I had to guess, I would say X" commits, so "I" is no such subject.
_COUNTERFACTUAL = re.compile(
    r"\bif (?:the question|it|you|we|they|he|she)\b[^.;?!]*\b(?:had|were|was|meant|asked"
    r"|referred|wanted)\b[^.;?!]*\bwould\b"
)
# A retraction after a mention: the final statement wins.
_RETRACTION = guarded(
    re.compile(
        r"\bno,?\s+wait\b|\bwait,?\s+no\b|\bno,?\s+actually\b|\bactually,?\s+no\b|\bscratch that\b"
        r"|\bi meant\b|\b(?:no|sorry|rather),?\s+i mean\b|\bcorrection\s*:|\bon second thought\b"
        r"|\bmake that\b|\bor rather\b|\bi was wrong\b|\bi stand corrected\b|不对|不，|我是说|訂正"
        # "Actually," opening a short sentence that names something else ("Lyon. Actually,
        # it's Paris."), not a remark ("Actually, it is one of the oldest cities in Europe.")
        r"|(?:^|[.!?]\s*)actually,\s+(?:it(?:['’]s| is| was)\s+)?(?:[^\s.!?]+\s+){0,2}[^\s.!?]+"
        r"\s*(?:[.!]|$)"
    )
)
# A doubt after a mention takes it back unless a confirmation follows ("Wait, is that right?
# Let me check. ... Yes, that's correct."): a trace cut off while doubting has not answered.
_DOUBT = re.compile(r"\bis (?:that|this|it) (?:right|correct|true|accurate)\s*\?")
_CONFIRMATION = re.compile(
    r"\b(?:yes|yeah|yep|indeed|confirmed|that(?:'s| is) (?:right|correct|true)|correct)\b"
)


def _asserted(p: str, start: int, end: int, is_number: bool) -> bool:
    """v3's reading of one mention (`answer_audit.matching.v3`: not asked, negated, an operand
    or a list item), in a sentence read at most `_SENTENCE_REACH` characters each way, then
    v4's (see the module docstring)."""
    s, e = _sentence_bounds(p, start, end)
    if e < len(p) and p[e] == "?":
        return False
    head, tail = p[s:start], p[end : e + 1]
    near = head[-_NEAR:]  # what a word right before the mention can be read from
    if _v3._NEGATED_BEFORE.search(near) or _v3._NEGATED_AFTER.match(tail):
        return False
    if _NEGATED_BEFORE.search(near) or _NEGATED_AFTER.match(tail):
        return False
    if _v3._OPERAND_BEFORE.search(near) or _v3._OPERAND_AFTER.match(tail):
        return False
    if p.find(",", s, e) >= 0 and _in_list(p, s, e, start, end):
        return False
    if _alternative(p, s, e, start, end, is_number) or _someone_elses(head[-_CLAUSE_REACH:]):
        return False
    if ":" in head and _in_colon_list(p, s, e, start, end):
        return False
    return not (is_number and _names_a_thing(p, s, e, start, end))


# The negations and operators right before a mention fit in this many characters, and the
# clause that says whose answer it is in this many.
_NEAR = 80
_CLAUSE_REACH = 300
# A list is looked for from this far before a mention: a list that starts earlier is found
# from inside (from its next item), at a cost bounded per mention.
_LIST_REACH = 200


def _in_list(p: str, s: int, e: int, start: int, end: int) -> bool:
    """The mention is one item of a list (v3's: numbers, or names closed by and/or/etc)."""
    if not (_COMMA_AFTER_ITEM.match(p, end, e) or _COMMA_BEFORE_ITEM.search(p, s, start)):
        return False  # an item of a list is followed by a comma or follows one, or "and"/"or"
    lists = _LIST.finditer(p, max(s, start - _LIST_REACH), e)
    return any(m.start() <= start and end <= m.end() for m in lists)


# v3's list, starting only where a word or number starts (the same lists, found without trying
# every letter of every word).
_LIST = guarded(re.compile(r"(?<![\w'-])(?:" + _v3._LIST.pattern + ")"))
# An item of a list is one or two words: the mention, perhaps with one more word.
_COMMA_AFTER_ITEM = re.compile(r"(?: [a-z][\w'-]*)?\s*,")
_COMMA_BEFORE_ITEM = re.compile(r"(?:,|\band|\bor)\s*(?:[a-z][\w'-]* )?$")


def _someone_elses(head: str) -> bool:
    """The clause before a mention says it is someone else's answer, or the sentence before it
    that it answers a counterfactual."""
    clause_start = 0
    for m in _CLAUSE_START.finditer(head):
        clause_start = m.end()
    return bool(_SOMEONE_ELSES.search(head, clause_start) or _COUNTERFACTUAL.search(head))


# A sentence is read at most this far each way from a mention: the reading of each mention
# costs at most this much, so a text of many mentions and no full stop stays linear.
_SENTENCE_REACH = 2000


def _sentence_bounds(p: str, start: int, end: int) -> tuple[int, int]:
    s = max(0, start - _SENTENCE_REACH)
    for m in _SENTENCE_END.finditer(p, s, start):
        s = m.end()
    after = _SENTENCE_END.search(p, end, end + _SENTENCE_REACH)
    return s, (after.start() if after else min(len(p), end + _SENTENCE_REACH))


def _alternative(p: str, s: int, e: int, start: int, end: int, is_number: bool) -> bool:
    """The mention is one side of "X or Y", lies in an "either ... or ..." sentence, or is one
    of two names picked ("Paris and Lyon.", "both X and Y"; "both 12 and -12" states 12)."""
    if not is_number and _two_picks(p, s, e, start, end):
        return True
    if not _OR.search(p, s, e):
        return False
    if _OR_AFTER.match(p[end:e]) or _OR_BEFORE.search(p[max(s, start - 60) : start]):
        return True
    either = _EITHER.search(p, s, e)
    return either is not None and _OR.search(p, either.end(), e) is not None


def _two_picks(p: str, s: int, e: int, start: int, end: int) -> bool:
    if not _AND.search(p, s, e) or " and " in p[start:end]:  # "Bosnia and Herzegovina" is one
        return False
    return bool(_TWO_PICKS.fullmatch(p, s, e) or _BOTH.search(p, max(s, start - 60), start))


def _in_colon_list(p: str, s: int, e: int, start: int, end: int) -> bool:
    m = _COLON_LIST.search(p, s, min(len(p), e + 1))
    return m is not None and m.start() <= start and end <= m.end()


def _names_a_thing(p: str, s: int, e: int, start: int, end: int) -> bool:
    """A number after a determiner and before a word, in a sentence that states another one."""
    if not (_DETERMINER_BEFORE.search(p, s, start) and _WORD_AFTER.match(p[end:e])):
        return False
    return any(not (start <= s + n.start < s + n.end <= end) for n in find_numbers(p[s:e]))


def _retracted(p: str, last_end: int) -> bool:
    """The last asserted mention is taken back in its own sentence or the next one ("Paris —
    no wait, I mean Lyon."); a "wait, no" further on is about something else."""
    first = _SENTENCE_END.search(p, last_end)
    second = _SENTENCE_END.search(p, first.end()) if first else None
    window_end = second.end() if second else len(p)
    if _RETRACTION.search(p, last_end, window_end) is not None:
        return True
    doubt = _DOUBT.search(p, last_end, window_end)
    return doubt is not None and _CONFIRMATION.search(p, doubt.end()) is None


# ------------------------------------------------------------------- yes / no

# "No" followed by a rejection of the asker's claim: the polarity is the statement after it.
_REJECTS_CLAIM = re.compile(
    r"^\W*(?:you(?:['’]re| are) (?:mistaken|wrong|incorrect)|that(?:['’]s| is) (?:not (?:right|true|"
    r"correct)|incorrect|wrong)|not quite|actually)\b"
)
_YES_NO_DASH = re.compile(r"(?<![\"'“‘])\b(yes|no)\s*[—–-]\s*")


def _polarity(p: str) -> str | None:
    """``yes``/``no`` as the answer states it, or None when it takes no side."""
    p = _YES_NO_DASH.sub(r"\1, ", p)  # "No — you're mistaken" reads as "No, you're mistaken"
    verdict = _v3._polarity(p)
    if verdict != "no":
        return verdict
    last = None
    for last in _v3._EXPLICIT.finditer(p):  # noqa: B007 - the last one is wanted
        pass
    if last is None or last.group(1) != "no" or not _REJECTS_CLAIM.match(p[last.end() :]):
        return verdict
    first = _SENTENCE_END.search(p, last.end())
    second = _SENTENCE_END.search(p, first.end()) if first else None
    rest = p[last.end() : second.end() if second else len(p)]  # its sentence and the next
    if _v3._DENIES.search(rest):
        return "no"
    return "yes" if re.search(r"\b(?:is|are)\b", rest) else verdict
