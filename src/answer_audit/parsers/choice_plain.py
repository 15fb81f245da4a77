"""choice/v10's readings of plain answers in any language, by the shape of a label and where it
stands rather than by the words around it (step kinds ``correction`` and ``plain-answer``), and
where an invented next item starts (`invented_item_start`).

A label *counts* in a sentence when it stands alone in the options' script (no letter of its
script, no Latin letter, digit, apostrophe or degree sign touching it), after a word of the
same sentence, and is not negated, compared, listed or an example (v9's cues,
`choice_last_resort`); a cased label (Latin, Greek, Cyrillic) followed by a space and another
cased letter reads as a word or a name ("a house", "vitamin C is"), not a label, unless it is
wrapped ("(C) ..."); a digit counts only in a set of digits; a question counts nothing.

- ``plain-answer`` (after every other step found nothing): the labels that count in the answer
  region's last `TAIL` characters all name one option, and one of them stands in the output's
  first sentence, its final sentence or its last line's first sentence: that option.
- ``correction`` (before the statements): the output opens with a sentence naming one option,
  names none after it until its final sentence, and that final sentence ends in another option
  and repeats the word just before the first label ("Svar: a ... Det korrekte svar er derfor
  c.") or the words just after it ("答えはイでございます。... 正しくはエでございます。"): the
  later option.
- `invented_item_start`: a question line (ending in ``?``) after a line naming a label, followed
  within three lines by an option list (lines led by the labels in order, or one line holding
  them in brackets) or, when it opens with a header (``Spørgsmål:``), by a line whose header the
  text used before it (``Svar:``): a new item begins there, and the answer is before it.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from re import _constants as sre_constants  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any, Protocol

from answer_audit.parsers.choice_last_resort import (
    BUT,
    DOUBT_AFTER,
    NOT_AFTER,
    NOT_BEFORE,
    NOT_SENTENCE,
    answer_tail,
)
from answer_audit.parsers.choice_step import ChoiceStep, Found

# Where a sentence ends: a full stop before a space or the end, and the marks of many scripts
# (Devanagari danda, Ethiopic, Burmese, Khmer, Arabic and Greek question mark and semicolon).
_SENTENCE_MARK = re.compile(r"[.!?](?=[\s\"'”’)\]*_]|\Z)|[。！？；;·।።፤။។؟۔\n]")
_QUESTION = frozenset("?？؟")
_OPENERS = "([（【\"'“‘*_«"
_CLOSERS = ")]）】\"'”’*_»"
# The letters that are words of their own in languages written in Latin, Cyrillic or Greek
# letters (articles, conjunctions, prepositions: "a casa", "e", "i", "в Москве", "ο"): before a
# word they are read as words; another cased label before a word ("Plan B is") is a name or a
# mention, which names an option without answering it.
ONE_LETTER_WORDS = frozenset("aeiouyvkswzаеиоуявкс" + "οηω")
# Cyrillic letters that look like a Latin label and no older preset reads (v5's are а в с е).
LOOKALIKES = {"ј": "j", "і": "i"}


class Tokens(Protocol):
    """What the label readers need of a preset's choice labels."""

    @property
    def labels(self) -> str: ...

    def value(self, token: str) -> str | None: ...


class CompiledLabels(Protocol):
    """What the label readers need of a compiled preset: its labels, when not Latin letters."""

    @property
    def tokens(self) -> Tokens | None: ...


@dataclass(frozen=True)
class _Label:
    start: int
    stop: int
    token: str
    value: str
    sentence: int
    counts: bool  # not in a question, negated, compared, listed or an example
    rejected: bool = False  # choice/v11: after a negation word ("ikke b"): named, not a pick


@dataclass(frozen=True)
class _Region:
    """The tail's sentences: where each starts and ends, and whether it asks a question."""

    lo: int
    hi: int
    starts: list[int]
    ends: list[int]
    asks: list[bool]
    marked: bool  # a sentence before the last ends with a mark other than a line break

    def index(self, at: int) -> int:
        return bisect_right(self.starts, at) - 1

    def last(self) -> int:
        return len(self.starts) - 1


def _sentences(norm: str, lo: int, hi: int) -> _Region:
    starts, ends, asks = [], [], []
    marked = False
    at = lo
    for m in _SENTENCE_MARK.finditer(norm, lo, hi):
        if norm[at : m.start()].strip():
            starts.append(at)
            ends.append(m.start())
            asks.append(m.group() in _QUESTION)
            marked = marked or (m.group() != "\n" and m.end() < hi)
        at = m.end()
    if norm[at:hi].strip():
        starts.append(at)
        ends.append(hi)
        asks.append(False)
    return _Region(lo, hi, starts, ends, asks, marked)


def _value_of(compiled: CompiledLabels) -> Callable[[str], str | None]:
    tokens = compiled.tokens
    assert tokens is not None  # a `scripts` preset
    digits = tokens.labels[:1].isdecimal()

    def value(token: str) -> str | None:
        token = LOOKALIKES.get(token, token)
        if token.isdecimal():
            if not digits:
                return None  # a number in a set of letters: a quantity or a year, not a label
            token = str(unicodedata.decimal(token))
        return tokens.value(token)

    return value


def _cased(ch: str) -> bool:
    return ch.lower() != ch.upper()


def _in_word(norm: str, start: int, stop: int) -> bool:
    """Whether a letter or mark of a script that spaces its words touches the label (Han, kana
    and Hangul run words together, so a label may touch them: "答案是C")."""
    for at in (start - 1, stop):
        if 0 <= at < len(norm):
            ch = norm[at]
            if unicodedata.category(ch)[0] in "LM" and not _RUNS_TOGETHER.match(ch):
                return True
    # an abbreviation ("u.s.a."), or a heading or key before a colon ("Option A:", {"a": 1})
    return _ABBREVIATION.match(norm, max(0, start - 2), start) is not None or (
        _KEY.match(norm, stop) is not None
    )


_ABBREVIATION = re.compile(r"[^\W\d_]\.")
_KEY = re.compile(r"[)\]）】\"'”’*_]*[ \t]*[:：]|\.[^\W\d_]")


_RUNS_TOGETHER = re.compile(
    r"[\u1100-\u11ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]"
)
_ALTERNATIVE = re.compile(r"[ \t]+[^\W\d_]{1,6}[ \t]+[(\[]?\w(?!\w)")


def _a_word(norm: str, start: int, stop: int, short_words: bool = False) -> bool:
    """Whether the cased label at ``start:stop``, not wrapped, is followed by a space and a
    cased letter: a word or a name ("a house", "vitamin C is"), not a label. With
    ``short_words`` (choice/v11), not when one short word that is no English one and a sentence
    mark follow ("C da,", "B dha."): a copula or particle after the label."""
    if (start > 0 and norm[start - 1] in _OPENERS) or not _cased(norm[start:stop]):
        return False
    after = re.match(r"[ \t]+(\w)", norm[stop : stop + 8])
    if after is None or not _cased(after.group(1)):
        return False
    if short_words:
        particle = _PARTICLE.match(norm, stop)
        return particle is None or particle.group(1) in _ENGLISH_SHORT
    return True


# choice/v11: one short word, then a sentence mark or the end, after a label
_PARTICLE = re.compile(r"[ \t]+([^\W\d_]{1,3})(?=[ \t]*(?:[.,;:!。，；！]|\n|\Z))")
_ENGLISH_SHORT = frozenset(
    ("too", "now", "is", "was", "are", "be", "so", "to", "it", "in", "on", "at", "of", "as",
     "by", "up", "or", "and", "the", "for", "yet", "all", "one", "two", "own", "way", "etc",
     "ok", "me", "us", "him", "her", "them", "you", "we", "do", "did", "has", "had", "can", "may")
)  # fmt: skip


# After a label in its sentence: a contrast ("C, but I have not checked it")
_BUT = re.compile(BUT)
_BUT_STOP = re.compile(r"[.!?。！？\n]")


def _counts(
    norm: str,
    start: int,
    stop: int,
    scan: _SentenceScan,
    cues: Cues,
    corrected: bool = False,
) -> bool:
    """Whether the label at ``start:stop`` of a sentence answers: not negated, compared,
    listed, conditional, an example or followed by a contrast (``corrected``: it corrects a
    rejected label before it, whose cues do not reach it)."""
    first = scan.first
    example, negated = cues.example, cues.negated
    if not corrected and cues.not_before.search(norm, max(first, start - 40), start) is not None:
        return False
    if NOT_AFTER.match(norm, stop) is not None or scan.but_after(stop):
        return False
    if negated.match(norm, stop) is not None:
        return False
    return not scan.cue_before(NOT_SENTENCE, start) and not scan.cue_before(example, start)


class _SentenceScan:
    """One sentence's cues for its labels in order, each scan of the sentence done once: a
    label's cue search otherwise rereads the sentence from its start, quadratic in a sentence
    of many labels ("(C) (C) (C) ...")."""

    def __init__(self, norm: str, first: int, end: int) -> None:
        self.norm, self.first, self.end = norm, first, end
        self._but: tuple[int, int | None] | None = None  # (searched from, next contrast)
        self._stops: list[int] | None = None
        self._cues: dict[re.Pattern[str], tuple[int | None, int | None]] = {}

    def but_after(self, stop: int) -> bool:
        """``[^.!?。！？\n]*?`` then `BUT` from ``stop`` in the sentence (v10's reading)."""
        if (
            self._but is None
            or stop < self._but[0]
            or (self._but[1] is not None and stop > self._but[1])
        ):
            m = _BUT.search(self.norm, stop, self.end)
            self._but = (stop, m.start() if m is not None else None)
        at = self._but[1]
        if at is None:
            return False
        if self._stops is None:
            self._stops = [m.start() for m in _BUT_STOP.finditer(self.norm, self.first, self.end)]
        i = bisect_left(self._stops, stop)
        return i == len(self._stops) or self._stops[i] >= at

    def cue_before(self, pattern: re.Pattern[str], start: int) -> bool:
        """``pattern.search(norm, first, start) is not None``: searched only once a text the
        pattern cannot match without stands before ``start``, and first where it last matched."""
        if pattern not in self._cues:
            self._cues[pattern] = (_earliest_end(pattern, self.norm, self.first, self.end), None)
        ready, hit = self._cues[pattern]
        if ready is None or start < ready:
            return False
        if hit is not None and hit < start and pattern.match(self.norm, hit, start) is not None:
            return True
        m = pattern.search(self.norm, self.first, start)
        self._cues[pattern] = (ready, m.start() if m is not None else None)
        return m is not None


def _earliest_end(pattern: re.Pattern[str], norm: str, first: int, end: int) -> int | None:
    """Where the first text ends, in ``norm[first:end]``, that every match of ``pattern``
    holds one of (`_required`); ``first`` when it has none, None when none stands there."""
    texts = _required(pattern)
    if texts is None:
        return first
    ends = [at + len(text) for text in texts if (at := norm.find(text, first, end)) >= 0]
    return min(ends, default=None)


@lru_cache(maxsize=64)
def _required(pattern: re.Pattern[str]) -> tuple[str, ...] | None:
    """Texts one of which every match of ``pattern`` holds, or None when none is known."""
    if pattern.flags & re.IGNORECASE:
        return None
    found = _required_in(sre_parse.parse(pattern.pattern, pattern.flags))
    return tuple(sorted(found)) if found else None


def _required_in(items: Any) -> frozenset[str] | None:
    best: frozenset[str] | None = None
    run = ""

    def better(texts: frozenset[str] | None) -> None:
        nonlocal best
        if texts and (best is None or min(map(len, texts)) > min(map(len, best))):
            best = texts

    for op, av in items:
        if op is sre_constants.LITERAL:
            run += chr(av)
            continue
        better(frozenset((run,)) if run else None)
        run = ""
        if op is sre_constants.SUBPATTERN and not av[1] & re.IGNORECASE:
            better(_required_in(av[3]))
        elif op is sre_constants.ATOMIC_GROUP:
            better(_required_in(av))
        elif op is sre_constants.BRANCH:
            branches = [_required_in(b) for b in av[1]]
            if all(branches):
                better(frozenset().union(*branches))  # type: ignore[arg-type]
        elif op in _REPEATS and av[0] >= 1:
            better(_required_in(av[2]))
    better(frozenset((run,)) if run else None)
    return best


_REPEATS = (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT, sre_constants.POSSESSIVE_REPEAT)


@dataclass(frozen=True)
class Cues:
    """What makes a label no answer, from a step's patterns (after the label token): v10's
    example cues and negations after it, and choice/v11's rejecting negation words before it
    and its own reading of v9's cues before it (`NOT_BEFORE`)."""

    example: re.Pattern[str]
    negated: re.Pattern[str]
    reject: re.Pattern[str] | None = None
    not_before: re.Pattern[str] = NOT_BEFORE

    @classmethod
    def of(cls, patterns: tuple[re.Pattern[str], ...]) -> Cues:
        if len(patterns) < 5:
            return cls(patterns[1], patterns[2])
        return cls(patterns[1], patterns[2], patterns[3], patterns[4])


# choice/v11: between a rejected label and the label that corrects it ("nav B, bet A")
_CORRECTS = re.compile(
    r"[)）\]'\"”’*_]*[ \t]*[,;，、·][ \t]*(?:[^\W\d_]{1,10}[ \t]+)?[(（\[*_\"'“‘]*"
)

# a one-letter word, then a label: the word joins them
_JOINS = re.compile(r"[ \t]+[(（\[*_\"'“‘]*\w(?!\w)")


def _labels(
    patterns: tuple[re.Pattern[str], ...],
    norm: str,
    region: _Region,
    value: Callable[[str], str | None],
) -> list[_Label]:
    """Every label standing alone after a word of its sentence, and whether it counts."""
    token, cues = patterns[0], Cues.of(patterns)
    v11 = cues.reject is not None
    found: list[_Label] = []
    rejected: _Label | None = None  # choice/v11: the last rejected label
    scans: dict[int, _SentenceScan] = {}
    lettered: dict[int, int] = {}  # a sentence's first letter (its end when it has none)
    for m in token.finditer(norm, region.lo, region.hi):
        start, stop = m.span(1)
        i = region.index(start)
        if i < 0 or start >= region.ends[i]:
            continue  # (a mark, not a sentence)
        v = value(m.group(1))
        if v is None:
            continue
        corrected = (
            rejected is not None
            and rejected.sentence == i
            and _CORRECTS.fullmatch(norm, rejected.stop, start) is not None
        )
        if corrected and m.group(1) in ONE_LETTER_WORDS and _JOINS.match(norm, stop):
            continue  # the word that joins the correction ("не Б, а В"), not a label
        if not corrected and _in_word(norm, start, stop):
            continue
        first = region.starts[i]
        if _ALTERNATIVE.match(norm, stop) is not None:
            # one short word joins it to another label ("B au C", "A 同 C"): both are named
            found.append(_Label(start, stop, m.group(1), v, i, False))
            continue
        if not corrected and _a_word(norm, start, stop, v11):
            if m.group(1) not in ONE_LETTER_WORDS:  # "Kanske B också": named, not answered
                found.append(_Label(start, stop, m.group(1), v, i, False))
            continue
        if i not in lettered:
            lettered[i] = next(
                (k for k in range(first, region.ends[i]) if norm[k].isalpha()), region.ends[i]
            )
        if not corrected and lettered[i] >= start:
            line_start = max(norm.rfind("\n", 0, start) + 1, region.lo)
            if not any(ch.isalnum() for ch in norm[line_start:start]):
                continue  # it leads a line: a list of options, a heading
            found.append(_Label(start, stop, m.group(1), v, i, False))  # "C 都啱": named
            continue
        if cues.reject is not None and cues.reject.search(norm, max(first, start - 40), start):
            rejected = _Label(start, stop, m.group(1), v, i, False, rejected=True)
            found.append(rejected)
            continue
        if i not in scans:
            scans[i] = _SentenceScan(norm, first, region.ends[i])
        counts = not region.asks[i] and _counts(norm, start, stop, scans[i], cues, corrected)
        found.append(_Label(start, stop, m.group(1), v, i, counts))
    return found


def _cut_off(norm: str, region: _Region, labels: list[_Label]) -> bool:
    """Whether the output stops inside its final sentence: no closing mark, a word that is no
    label is its end, and the output ends its sentences with marks (a cased script, or marks
    used before)."""
    end = region.hi
    if region.ends[-1] != end or not norm[end - 1].isalpha():
        return False
    if labels and labels[-1].stop == end:
        return False  # "Svaret er c"
    return _cased(norm[end - 1]) or region.marked


def read_plain(
    step: ChoiceStep,
    patterns: tuple[re.Pattern[str], ...],
    norm: str,
    lines: object,
    compiled: CompiledLabels,
) -> Found | None:
    """``plain-answer``: the one option every label in the tail names, when one that counts
    stands in the first sentence, the final sentence or the last line's first sentence."""
    lo, hi = answer_tail(norm)
    region = _sentences(norm, lo, hi)
    if not region.starts:
        return None
    labels = _labels(patterns, norm, region, _value_of(compiled))
    if len({label.value for label in labels if not label.rejected}) != 1:
        return None
    last = region.last()
    if _cut_off(norm, region, labels) and any(label.sentence == last for label in labels):
        return None  # the sentence naming it never ended
    last_line = norm.rfind("\n", lo, hi) + 1
    places = {last, region.index(max(last_line, lo))}
    if lo == 0:
        places.add(0)
    placed = [label for label in labels if label.counts and label.sentence in places]
    if not placed:
        return None
    chosen = placed[-1]
    if DOUBT_AFTER.search(norm, chosen.stop, hi) is not None:
        return None
    return chosen.start, chosen.stop, chosen.value, step.rule


# The word of an opening label line ("Svar: a", "Đáp án: A."), and what follows a label
_LEAD_WORD = re.compile(r"([^\W\d_]{2,})[ \t]*[:：][ \t*_(（\[\"'“‘]*\Z")
_TRAIL_WORDS = re.compile(r"[)\]）】\"'”’*_]*[ \t]*([^\W\d_]{2,})")
_END = re.compile(r"[)\]）】\"'”’*_ \t]*(?:([^\W\d_]{2,})[ \t]*)?[.!。！]*\s*\Z")
_HEADER_LINE = re.compile(r"\n[ \t*#>]*[^\W\d_][^:：\n]{0,30}[:：]")


def read_correction(
    step: ChoiceStep,
    patterns: tuple[re.Pattern[str], ...],
    norm: str,
    lines: object,
    compiled: CompiledLabels,
) -> Found | None:
    """``correction``: the final sentence's option when it corrects the one the output opened
    with, in the opening answer's own words (see the module's docstring)."""
    lo, hi = answer_tail(norm)
    if lo != 0:
        return None
    region = _sentences(norm, lo, hi)
    if len(region.starts) < 2:
        return None
    labels = _labels(patterns, norm, region, _value_of(compiled))
    last = region.last()
    opening = [label for label in labels if label.sentence == 0]
    final = [label for label in labels if label.sentence == last]
    if len(opening) + len(final) != len(labels) or not opening or not final:
        return None  # another sentence names an option, or one of the two names none
    if len({x.value for x in opening}) != 1 or len({x.value for x in final}) != 1:
        return None
    before, after = opening[-1], final[-1]
    if before.value == after.value or not after.counts or not before.counts:
        return None
    end = _END.match(norm, after.stop, hi)
    if end is None or _HEADER_LINE.search(norm, before.stop, region.starts[last]) is not None:
        return None  # it does not end the output, or a new item's header comes between
    lead = _LEAD_WORD.search(norm, region.starts[0], before.start)
    if lead is not None:
        word = re.compile(rf"(?<![^\W\d_]){re.escape(lead.group(1))}(?![^\W\d_])(?![ \t]*[:：])")
        if word.search(norm, region.starts[last], after.start) is not None:
            return after.start, after.stop, after.value, step.rule
    trail = _TRAIL_WORDS.match(norm, before.stop, region.ends[0])
    if trail is not None and end.group(1) == trail.group(1):
        return after.start, after.stop, after.value, step.rule
    return None


_OPTION_LINE = re.compile(r"[ \t*#>\-]*[(（\[]?(\S)[)）\].:：][ \t]*\S")
_BRACKETED = re.compile(r"[(（\[](\S)[)）\]]")
_HEADER = re.compile(r"[ \t*#>]*([^\W\d_][^:：\n]{0,30}?)[ \t]*[:：]")


def invented_item_start(norm: str, token: re.Pattern[str], compiled: CompiledLabels) -> int | None:
    """Where an invented next item starts in the answer region's tail (see the module's
    docstring), or None (``token``: one label, group 1)."""
    value = _value_of(compiled)
    labels = compiled.tokens.labels if compiled.tokens is not None else ""
    lo, hi = answer_tail(norm)
    if all(norm.find(mark, lo, hi) < 0 for mark in _QUESTION):
        return None  # no question: no new item (most outputs stop here)
    lines = [
        (lo + m.start(), m.group().strip()) for m in re.finditer(r"[^\n]*\S[^\n]*", norm[lo:hi])
    ]
    for i, (at, line) in enumerate(lines):
        if i == 0 or line.rstrip(_CLOSERS + " \t")[-1:] not in _QUESTION:
            continue
        if token.search(norm, lo, at) is None:
            continue  # nothing before it names an option: no answer it could follow
        after = [text for _, text in lines[i + 1 : i + 3 + len(labels)]]
        if _lists_options(after, value, labels):
            return at
        header = _HEADER.match(line)
        next_header = _HEADER.match(after[0]) if after else None
        if header is not None and next_header is not None:
            used = {h.group(1) for _, text in lines[:i] if (h := _HEADER.match(text))}
            if next_header.group(1) in used:
                return at
    return None


def _lists_options(after: list[str], value: Callable[[str], str | None], labels: str) -> bool:
    """Whether these lines list the options: lines led by the labels in order from the first
    (after at most one other line, a header), or one line holding them in brackets in order."""
    need = min(3, len(labels))
    run = 0
    for k, text in enumerate(after):
        m = _OPTION_LINE.match(text)
        if m is not None and run < len(labels) and value(m.group(1)) == labels[run]:
            run += 1
            if run >= need:
                return True
            continue
        if run or k > 1:
            return False
        inline = [value(b.group(1)) for b in _BRACKETED.finditer(text)]
        if len(inline) >= need and inline == list(labels[: len(inline)]):
            return True
    return False
