"""The plain-answer and correction readings of choice/v10 and v11 scan a sentence a bounded
number of times; these tests hold them to the quadratic reading they replaced."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

import answer_audit as aa
from answer_audit.parsers import choice_plain
from answer_audit.parsers.choice_last_resort import BUT, NOT_AFTER, NOT_SENTENCE

# the reading before the scans were shared: each cue search from the sentence's start
_OLD_BUT_AFTER = re.compile(r"[^.!?。！？\n]*?" + BUT)


def _old_counts(
    norm: str,
    start: int,
    stop: int,
    sentence: tuple[int, int],
    cues: choice_plain.Cues,
    corrected: bool = False,
) -> bool:
    first, end = sentence
    example, negated = cues.example, cues.negated
    if not corrected and cues.not_before.search(norm, max(first, start - 40), start) is not None:
        return False
    if NOT_AFTER.match(norm, stop) is not None or _OLD_BUT_AFTER.match(norm, stop, end):
        return False
    if negated.match(norm, stop) is not None:
        return False
    return NOT_SENTENCE.search(norm, first, start) is None and not example.search(
        norm, first, start
    )


def test_scan_matches_old_counts_on_cue_texts() -> None:
    texts = [
        "if C C but C. example: C (C) rather C\nC",
        "my friend chose C C, not B; maybe C instead C",
        "cliff C C C ifx C e.g C",
    ]
    cues = choice_plain.Cues(re.compile(r"\bexample\b|e\.g"), re.compile(r"[ \t]*not\b"))
    for norm in texts:
        scan = choice_plain._SentenceScan(norm, 0, len(norm))
        for m in re.finditer(r"\b[bc]\b|C", norm):
            s, e = m.span()
            assert choice_plain._counts(norm, s, e, scan, cues) == _old_counts(
                norm, s, e, (0, len(norm)), cues
            )


_PIECES = st.sampled_from(
    ["C", "B", "(C)", "c", "d", "1", "3", "Б", "В", "イ", "エ", "γ", " ", " - ", "-", ", ", "、",
     "，", ". ", "。", "\n", "; ", "? ", "if ", "but ", "rather ", "not ", "ikke ", "no ",
     "example ", "e.g. ", "for instance ", "my friend chose ", "she picked ", "or ", "and ",
     "维生素", "答案是", "如果", "而是", "the answer is ", "Svar: ", "x", "vitamin ", "Plan ",
     "is not ", "does not match option ", "    ", "o ", "e "]
)  # fmt: skip
_TEXTS = st.lists(_PIECES, min_size=1, max_size=60).map("".join)


def _old_reading(text: str, preset: str, choices: str) -> tuple[object, ...]:
    original = choice_plain._counts

    def shim(norm, start, stop, scan, cues, corrected=False):  # type: ignore[no-untyped-def]
        return _old_counts(norm, start, stop, (scan.first, scan.end), cues, corrected)

    choice_plain._counts = shim
    try:
        e = aa.extract(text, preset, choices=choices)
    finally:
        choice_plain._counts = original
    return e.value, e.rule, e.span


@settings(max_examples=400, deadline=None)
@given(_TEXTS, st.sampled_from(["choice/v10", "choice/v11"]), st.sampled_from(["abcd", "1234"]))
def test_same_reading_as_before(text: str, preset: str, choices: str) -> None:
    new = aa.extract(text, preset, choices=choices)
    assert (new.value, new.rule, new.span) == _old_reading(text, preset, choices)
