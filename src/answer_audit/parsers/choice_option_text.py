"""Reading an option's text: the ``option-text`` step kind of the choice engine.

When the options' texts are given, an output that names exactly one of them (whole words,
longest text first) after its last answer trigger, or in a one- or two-line answer, chooses
that option, unless the text is negated ("not Paris").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from answer_audit.parsers.choice_patterns import StepRegexes
from answer_audit.parsers.choice_step import Decision, Found, Lines, OptionTexts
from answer_audit.text.prefilters import may_match


def read_option_text(
    rx: StepRegexes,
    norm: str,
    lines: Lines,
    letters: str,
    options: OptionTexts | None,
) -> Decision:
    """Run one ``option-text`` step on the normalized (masked) text: the option whose text it
    names, or None."""
    table = _option_table(options, letters)
    if not any(key in norm for key, _ in table):
        return None  # no option text anywhere: no region can hold one (skip the trigger scans)
    regions: list[tuple[int, int]] = []
    # text after the last trigger, to the end of its line
    for pattern, needs in zip(rx.patterns, rx.pattern_needs, strict=True):
        if not may_match(needs, norm):
            continue  # no trigger of this pattern anywhere in the text
        last = None
        for found in pattern.finditer(norm):
            last = found
        if last is not None:
            end = norm.find("\n", last.end())
            regions.append((last.end(), len(norm) if end < 0 else end))
    if len(lines) <= 2:
        regions.append((0, len(norm)))
    for start, end in regions:
        hits = _option_hits(norm, start, end, table, one_letter=True)
        if len({hit[2] for hit in hits}) == 1:
            s, e, letter, _ = hits[-1]
            negated = rx.negation is not None and rx.negation.match(norm, e) is not None
            if not negated and _NEGATED_BEFORE.search(norm, start, s) is None:
                return s, e, letter, "option-text"
    return None


_NEGATED_BEFORE = re.compile(r"\b(?:not|never|neither|nor)\b|n't\b|不是|ではな|じゃな|아니")


def _option_table(options: OptionTexts | None, letters: str) -> list[tuple[str, str]]:
    """(normalized option text, letter), longest text first."""
    if options is None:
        return []
    pairs = options.items() if isinstance(options, Mapping) else zip(letters, options, strict=False)
    table = []
    for letter, text in pairs:
        key = unicodedata.normalize("NFKC", text).lower().strip()
        if key and len(letter) == 1 and letter.lower() in letters:  # one choice letter
            table.append((key, letter.lower()))
    return sorted(table, key=lambda kv: -len(kv[0]))


def _option_hits(
    norm: str, start: int, end: int, table: list[tuple[str, str]], *, one_letter: bool = False
) -> list[Found]:
    """Whole-word occurrences of the options' texts in ``norm[start:end]``, longest text first:
    an occurrence overlapping one already taken is dropped. Each text's occurrences come in
    order, so the overlap check walks the taken ones once per text (linear in the hits).
    ``one_letter``: the caller only uses the hits when they name one letter, so stop (with an
    incomplete list) once two letters are taken: taken occurrences are never dropped."""
    taken: list[tuple[int, int, str]] = []  # sorted, non-overlapping
    for key, letter in table:
        mine: list[tuple[int, int, str]] = []
        j = 0  # first taken occurrence that ends after the candidate's start
        # an ASCII letter or digit at an end of the text must not touch another one there
        word_start = key[0].isalnum() and key[0].isascii()
        word_end = key[-1].isalnum() and key[-1].isascii()
        size = len(key)
        pos = norm.find(key, start, end)
        while pos >= 0:
            stop = pos + size
            if not (
                (word_start and pos > 0 and norm[pos - 1].isalnum())
                or (word_end and stop < len(norm) and norm[stop].isalnum())
            ):
                while j < len(taken) and taken[j][1] <= pos:
                    j += 1
                free = (j == len(taken) or taken[j][0] >= stop) and (not mine or mine[-1][1] <= pos)
                if free:
                    mine.append((pos, stop, letter))
                    if one_letter and taken and taken[0][2] != letter:
                        break  # a second letter is taken: no single answer
            pos = norm.find(key, pos + 1, end)
        taken = sorted(taken + mine)  # two sorted runs: a linear merge
        if one_letter and len({hit[2] for hit in taken}) > 1:
            break
    return [(s, e, letter, "option-text") for s, e, letter in taken]
