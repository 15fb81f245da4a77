"""choice/v9's two general steps around the answer statements (step kinds ``guard`` and
``last-resort``).

- ``guard`` (before the statements): two shapes that look answered and are not. A final
  ``\\boxed{}`` that holds several choices (``\\boxed{ACD}``) picks several options: no answer.
  An output cut off in the middle of a sentence that names a choice, right after a copula ("...
  A项的结构是", "... so option B is"): the sentence never said what the choice is, no answer.
- ``last-resort`` (after every other step found nothing): the step's patterns each mark a choice
  token in an answer position, in any language (after a copula, before a Korean or Japanese
  copula, after "but" in a correction, first on a line and followed by punctuation or an
  explanation, last on a line after a word, an appositive ", option D", a JSON string field
  whose whole value is one choice under any key, also inside a JSON string). A position that is
  negated, an example, a comparison or a conditional does not count; when the positions left
  name exactly one choice, that choice is the answer, else nothing.

Both read the normalized (lowercased, masked, cut) text the engine passes every step, and only
its last `TAIL` characters (from a line break when one is near): where a final answer, a final
box or a cut-off sentence stands, and a bound on their work however long the output is.
"""

from __future__ import annotations

import re
from typing import Protocol

from answer_audit.parsers.choice_step import TAIL, ChoiceStep, Found, NoAnswer

GUARD_RULES = ("multi-box-no-answer", "cut-off-no-answer")
_MARKS = ".!?。！？\n"  # where a sentence ends


def answer_tail(norm: str) -> tuple[int, int]:
    """Where the last `TAIL` characters of ``norm``'s non-blank part start and where it ends;
    the start moves back to a line break within 200 characters before it, if any (so a line's
    start is seen as one).

    >>> answer_tail("a\nb  ")
    (0, 3)
    """
    end = len(norm.rstrip())
    if end <= TAIL:
        return 0, end
    start = end - TAIL
    brk = norm.rfind("\n", start - 200, start + 1)
    return (brk if brk >= 0 else start), end


def sentence_start(norm: str, lo: int, at: int) -> int:
    """Where the sentence holding ``at`` starts, no earlier than ``lo``."""
    return max(lo, *(norm.rfind(mark, lo, at) + 1 for mark in _MARKS))


def _sentence_end(norm: str, at: int, hi: int) -> int:
    """Where the sentence holding ``at`` ends, no later than ``hi``."""
    return min((i for i in (norm.find(m, at, hi) for m in _MARKS) if i >= 0), default=hi)


# Before a token in its clause: it is negated, an example, compared, conditional or one of a
# list ("B, D"); a "but" between the cue and the token ends the cue ("not A, but D").
BUT = r"(?:\bbut\b|\brather\b|\binstead\b|\bsondern\b|\bsino\b|\bmais\b|بل|而是|아니라|ではなく)"
NOT_BEFORE = re.compile(
    r"(?:\b(?:not|never|no|nor|neither|either|unlike|than|like|such as|e\.g\.|eg|if|whether"
    r"|between|except|or|and|vs\.?|versus|without|nicht|kein|pas|ni|ou|o|oder|und|et|y|e"
    r"|sans|sin|không|bukan|tidak|nie|check|consider|examine|evaluate|compare|about"
    r"|look at|try|test)(?![a-z])|n['’]t|ليس|ليست|لا|غير|أو|不是|非|或|和|与|还是|例如|比如"
    r"|如果|假如|ไม่ใช่|ไม่|หรือ|아닌|또는)(?:(?!" + BUT + r")[^.;:!?。；：！？\n]){0,20}\Z"
    r"|(?<![^\W\d_])[^\W\d_][)）]?[ \t]*[,،、/&][ \t]*[(（]?\Z"
)
# Right after a token: it is the subject of a verdict against it (also after an appositive's
# comma: "heparin, option D, is ruled out"), or one of two.
NOT_AFTER = re.compile(
    r"[)）\]'\"”’*]*[ \t]*(?:,?[ \t]*(?:is|are|was|seems|looks|would|could|might|may)[ \t]+(?:not|n['’]t"
    r"|incorrect|wrong|false|unlikely|ruled out|eliminated|be|have)\b|isn['’]t|(?:or|and|vs\.?"
    r"|und|oder|et|ou|y|o|e|или|и)[ \t]+\W{0,2}[a-z\d]\b|[,、/][ \t]*\W?[a-z]\W?(?:[ \t]|$)"
    r"|가 아니|이 아니|가 틀|이 틀|는 틀|은 틀|不|错|ではな|じゃな|は誤|が誤|ليس|ليست|خاطئ"
    r"|sai|không)"
)


class _Tokens(Protocol):
    def value(self, token: str) -> str | None: ...


class _Compiled(Protocol):
    @property
    def token_chars(self) -> frozenset[str]: ...
    @property
    def tokens(self) -> _Tokens | None: ...


def read_guard(
    step: ChoiceStep,
    patterns: tuple[re.Pattern[str], ...],
    norm: str,
    lines: object,
    compiled: _Compiled,
) -> NoAnswer | None:
    """``guard``: no answer for a final box of several choices or a sentence cut off after a
    copula that names a choice (``patterns``: the dangling copula, then one choice token)."""
    lo, end = answer_tail(norm)
    box = norm.rfind("\\boxed{", lo, end)
    if box >= 0:
        # (a mask may have blanked the closing brace: the box then ends with its line)
        close = norm.find("}", box + 7, end)
        line_end = norm.find("\n", box + 7, end)
        close = min(i for i in (close, line_end, end) if i >= 0)
        inner = norm[box + 7 : close].rstrip(" \t.。")  # (a sentence may end the line)
        after = norm[close + 1 : end]
        held = re.sub(r"\\text\{|[\s,，、;&()$]|\band\b", "", inner)
        if (
            len(held) >= 2
            and len(set(held)) == len(held)
            and all(ch in compiled.token_chars for ch in held)
            and not after.strip(" \t\n$.\\]")
        ):
            # (through the closing brace; a box never closed ends with the text)
            return NoAnswer(GUARD_RULES[0], (box, min(close + 1, len(norm))))
    dangling, token = patterns
    tail = norm[max(0, end - 16) : end]
    if dangling.search(tail) is None:
        return None
    start = sentence_start(norm, lo, end)
    if token.search(norm, start, end) is not None:
        return NoAnswer(GUARD_RULES[1], (start, end))
    return None


def read_last_resort(
    step: ChoiceStep,
    patterns: tuple[re.Pattern[str], ...],
    norm: str,
    lines: object,
    compiled: _Compiled,
) -> Found | None:
    """``last-resort``: the one choice the answer positions (``patterns`` but the last, group 1
    the token) name, when no other step found one; None when they name none or several, or when
    the sentence of the last one, or the text after it, names another choice that is not negated
    (``patterns[-1]``: one choice token), or that sentence is conditional, an example or someone
    else's answer."""
    value = compiled.tokens.value if compiled.tokens is not None else _same
    # (choice/v11: the step's negations follow its patterns: negation words before a token)
    rejects = patterns[len(patterns) - len(step.negations) :] if step.negations else ()
    *positions, token_pattern = patterns[: len(patterns) - len(rejects)]
    seen: set[str | None] = set()
    last: tuple[int, int, str] | None = None
    lo, hi = answer_tail(norm)
    for pattern in positions:
        for m in pattern.finditer(norm, lo, hi):
            start, stop = m.span(1)
            if NOT_BEFORE.search(norm, max(0, start - 40), start) is not None:
                continue
            if any(r.search(norm, max(0, start - 40), start) for r in rejects):
                continue
            if NOT_AFTER.match(norm, stop) is not None:
                continue
            token = m.group(1)
            seen.add(value(token))
            if len(seen) > 1:
                return None
            if last is None or start > last[0]:
                last = (start, stop, token)
    if last is None or None in seen:
        return None
    start, stop, token = last
    begin = sentence_start(norm, lo, start)
    if NOT_SENTENCE.search(norm, begin, start) is not None:
        return None
    end = _sentence_end(norm, stop, hi)
    for other in token_pattern.finditer(norm, begin, end):
        at = other.start(1)
        if at == start or value(other.group(1)) == value(token) or _ARTICLE.match(norm, at):
            continue
        if NOT_BEFORE.search(norm, max(0, at - 40), at) is not None or any(
            r.search(norm, max(0, at - 40), at) for r in rejects
        ):
            continue  # negated, or one of a list the answer is not in ("not A, but C")
        if at < start and NOT_AFTER.match(norm, other.end(1)) is not None:
            continue
        return None
    if DOUBT_AFTER.search(norm, stop, hi) is not None:
        return None
    return start, stop, token, step.rule


# "a"/"i" before a word: the English article or pronoun, not a choice.
_ARTICLE = re.compile(r"[ai][ \t]+[a-z]{2,}")
# After the answer: a doubt or indecision ("Or C.", "maybe D", "I can't decide").
DOUBT_AFTER = re.compile(
    r"\b(?:or|maybe|perhaps|possibly|au)\b[^.!?\n]{0,24}?\b[a-j]\b[^a-z]|can['’]?t decide"
    r"|cannot decide|还是|或者"
)
# Earlier in the answer's sentence: a conditional, an example, someone else's answer.
NOT_SENTENCE = re.compile(
    r"\b(?:if|would|example|e\.g|for instance|thinks|says|said|believes|claims|suppose)\b"
    r"|如果|假如|例如|比如|만약|もし"
)


def _same(token: str) -> str | None:
    return token
