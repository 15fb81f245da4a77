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
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

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


class _Tokens(Protocol):
    @property
    def labels(self) -> str: ...

    def value(self, token: str) -> str | None: ...


class _Compiled(Protocol):
    @property
    def tokens(self) -> _Tokens | None: ...


@dataclass(frozen=True)
class _Label:
    start: int
    stop: int
    token: str
    value: str
    sentence: int
    counts: bool  # not in a question, negated, compared, listed or an example


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


def _value_of(compiled: _Compiled) -> Callable[[str], str | None]:
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


def _a_word(norm: str, start: int, stop: int) -> bool:
    """Whether the cased label at ``start:stop``, not wrapped, is followed by a space and a
    cased letter: a word or a name ("a house", "vitamin C is"), not a label."""
    if (start > 0 and norm[start - 1] in _OPENERS) or not _cased(norm[start:stop]):
        return False
    after = re.match(r"[ \t]+(\w)", norm[stop : stop + 8])
    return after is not None and _cased(after.group(1))


# After a label in its sentence: a contrast ("C, but I have not checked it")
_BUT_AFTER = re.compile(r"[^.!?。！？\n]*?" + BUT)


def _counts(
    norm: str,
    start: int,
    stop: int,
    sentence: tuple[int, int],
    cues: tuple[re.Pattern[str], re.Pattern[str]],
) -> bool:
    """Whether the label at ``start:stop`` of a sentence answers: not negated, compared,
    listed, conditional, an example or followed by a contrast."""
    first, end = sentence
    example, negated = cues
    if NOT_BEFORE.search(norm, max(first, start - 40), start) is not None:
        return False
    if NOT_AFTER.match(norm, stop) is not None or _BUT_AFTER.match(norm, stop, end):
        return False
    if negated.match(norm, stop) is not None:
        return False
    return NOT_SENTENCE.search(norm, first, start) is None and not example.search(
        norm, first, start
    )


def _labels(
    patterns: tuple[re.Pattern[str], ...],
    norm: str,
    region: _Region,
    value: Callable[[str], str | None],
) -> list[_Label]:
    """Every label standing alone after a word of its sentence, and whether it counts."""
    token, cues = patterns[0], (patterns[1], patterns[2])
    found = []
    for m in token.finditer(norm, region.lo, region.hi):
        start, stop = m.span(1)
        i = region.index(start)
        if i < 0 or start >= region.ends[i]:
            continue  # (a mark, not a sentence)
        v = value(m.group(1))
        if v is None or _in_word(norm, start, stop):
            continue
        first = region.starts[i]
        if _ALTERNATIVE.match(norm, stop) is not None:
            # one short word joins it to another label ("B au C", "A 同 C"): both are named
            found.append(_Label(start, stop, m.group(1), v, i, False))
            continue
        if _a_word(norm, start, stop):
            if m.group(1) not in ONE_LETTER_WORDS:  # "Kanske B också": named, not answered
                found.append(_Label(start, stop, m.group(1), v, i, False))
            continue
        if not any(c.isalpha() for c in norm[first:start]):
            line_start = max(norm.rfind("\n", 0, start) + 1, region.lo)
            if not any(ch.isalnum() for ch in norm[line_start:start]):
                continue  # it leads a line: a list of options, a heading
            found.append(_Label(start, stop, m.group(1), v, i, False))  # "C 都啱": named
            continue
        counts = not region.asks[i] and _counts(norm, start, stop, (first, region.ends[i]), cues)
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
    compiled: _Compiled,
) -> Found | None:
    """``plain-answer``: the one option every label in the tail names, when one that counts
    stands in the first sentence, the final sentence or the last line's first sentence."""
    lo, hi = answer_tail(norm)
    region = _sentences(norm, lo, hi)
    if not region.starts:
        return None
    labels = _labels(patterns, norm, region, _value_of(compiled))
    if len({label.value for label in labels}) != 1:
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
    compiled: _Compiled,
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


def invented_item_start(norm: str, token: re.Pattern[str], compiled: _Compiled) -> int | None:
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
