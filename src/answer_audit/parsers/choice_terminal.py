"""The terminal-answer rule of ``choice/v5``: most outputs end with their answer line.

An output decides at once, without the full reading (`choice_statements`), when

- it reads the same before and after normalization (every ASCII text; otherwise NFKC already,
  no invisible character, no ``İ``), so offsets need no map;
- its last non-blank line is a plain answer line naming choice X (``Answer: B``, ``The answer is
  (B).``, ``**Final Answer:** $\\boxed{B}$``, ``So the correct option is B.``, ``答案: B``);
- nothing before it can move the answer region: no reasoning tag or chat-template token, no role
  line (``User:``, ``Human:``, a role alone on a line, ``### Instruction``), no new question
  (``Question 2:``, ``Q:``, a question followed by a fresh option list);
- and no other answer line names another choice: no line that is a letter alone, no other line
  opening with "the answer is", no other ``Answer:`` label, no second ``\\boxed{}``.

Then the answer is X (rule ``final-answer-line``). On such outputs the full reading finds X too
(the final statement, with no other answer line to cycle or enumerate with); the rule is a rule of
its own so that its result is defined by these checks alone.

Speed is the point: every check is a search for one character (``<``, ``[``, ``#``, ``?``,
``:``), a regex that starts with a literal (a newline, ``<``) and so skips ahead the way `re` skips
to the ``A`` of ``Answer`` in a plain ``Answer:`` search, or a match on the last line. A typical
chain of thought costs a few passes over its text instead of the dozens of pattern scans of the
full reading.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from answer_audit.parsers.choice_region import INVISIBLE
from answer_audit.text.vocabulary import (
    ANSWER_WORDS,
    CHOICE_REPLY_ROLES,
    CHOICE_TURN_ROLES,
    MORE_ANSWER_WORDS,
)

RULE = "final-answer-line"
_WS = " \t\r\n\f\v"


def _words(words: tuple[str, ...]) -> str:
    """Words as the text is read (NFKC, lowercase), longest first."""
    found = dict.fromkeys(unicodedata.normalize("NFKC", w).lower() for w in words)
    return "|".join(re.escape(w) for w in sorted(found, key=len, reverse=True))


_ANSWER = _words((*ANSWER_WORDS, *MORE_ANSWER_WORDS))
_ROLES = _words((*CHOICE_TURN_ROLES, *CHOICE_REPLY_ROLES))
_QUESTIONS = (
    r"question|q|problem|exercise|task|frage|pregunta|domanda|pergunta|pertanyaan|swali|soru"
    r"|問題|質問|问题|題目|题目|문제|질문|سؤال|प्रश्न|প্রশ্ন|вопрос|câu hỏi|ερώτηση"
)
# The last non-blank line, whole: an answer word, a link, the choice in plain wrappers.
_TERMINAL = (
    r"(?i)[ \t>*_#]*(?:(?:so|thus|therefore|hence|finally|overall|in conclusion|in summary)[ ,]+)?"
    r"(?:(?:the |my )?(?:final |correct |best |right )?(?:answer|choice|option)s?"
    r"(?:[ \t]*\*\*)?[ \t]*(?::|is|would be|=)|(?:" + _ANSWER + r")(?:[ \t]*\*\*)?[ \t]*:)"
    r"(?:[ \t]*:)?[ \t*]*(?:(?:clearly|definitely|certainly|most likely|probably)[ \t]+)?"
    r"(?:option[ \t]+|choice[ \t]+)?"
    r"(?:\\boxed\{|\\(?:text|textbf|mathbf|mathrm)\{|\\\(|\$|\(|\[|\*\*)*([{L}])"
    r"(?:\)|\]|\}|\$|\*\*|\.|\\\))*"
)
# A short line: one word alone (group 1: a letter, a role), a numbered new question ("Question
# 2.", "Q3)"), or an answer line opening with "the answer is" (group 2: its letter). Only short
# lines can be one of these; `_SHORT` finds them, skipping from newline to newline.
_SHORT_LINE = (
    r"[ \t>*_#(\[]*+(?:([^\W\d_]++)[)\].]*[ \t*_]*"
    r"|[Qq](?:uestion|UESTION)?[ \t]*[0-9]+[ \t]*[.)].*"
    r"|(?i:(?:so |thus |therefore |hence |finally )?(?:the |my )?(?:final |correct |best |right )?"
    r"answer (?:is|would be))[ \t*]*(?:option[ \t]+)?(?:\\boxed\{|\$|\(|\[|\*\*)*"
    r"([{L}])(?![a-zA-Z]).*)"
)
_SHORT = re.compile(r"\n([^\n]{1,48}+)(?=\n|\Z)")
_SHORT_FIRST = re.compile(r"([^\n]{1,48}+)(?=\n|\Z)")
# What stands before a colon (up to it): a role, a new question, or an answer label.
_BEFORE_COLON = (
    r"(?im)(?:^[ \t>*_#]*(?:(?P<role>" + _ROLES + r")|(?P<question>" + _QUESTIONS + r"))"
    r"[ \t*_]*[0-9]*[ \t]*|(?<=[.!?] )(?P<inline>user|human)"
    r"|(?P<answer>answer|" + _ANSWER + r")(?:[ \t]*\*\*)?[ \t]*)\Z"
)
_AFTER_COLON = r"(?i)[ \t*]*(?:option[ \t]+)?(?:\\boxed\{|\$|\(|\[|\*\*)*([{L}])(?![a-z])"
_TAGS = re.compile(
    r"(?i)<\s*/?\s*(?:think|reasoning|thought)|<\||</?s>|<start_of_turn>|<end_of_turn>|<<sys>>"
)
_INST = re.compile(r"(?i)\[/?inst\]")
_HASHES = re.compile(r"(?i)##+[ \t]*(?:instruction|input|human|user|response|assistant)")
_OPTION_LIST = re.compile(r"\?[ \t]*\n?[ \t]*[(\[]?[a-zA-Z][)\].:]")
# What sends a text to the full reading even when NFKC keeps it: an invisible character, ``İ``
# (whose lowercase is two characters) or ``【``; one scan for all of them.
_NOT_AS_IS = re.compile(f"[{INVISIBLE}\u0130【]")
# Past this many colons the loop over them stops paying off: the full reading decides.
_MAX_COLONS = 64


@dataclass(frozen=True)
class TerminalRule:
    """The rule for one Latin choice set."""

    letters: str
    terminal: re.Pattern[str]
    short_line: re.Pattern[str]
    before_colon: re.Pattern[str]
    after_colon: re.Pattern[str]

    def answer(self, text: str) -> tuple[int, int, str] | None:
        """(start, end, choice) of the terminal answer of ``text``, or None (undecided)."""
        end = len(text.rstrip(_WS))
        start = text.rfind("\n", 0, end) + 1
        m = self.terminal.fullmatch(text, start, end)
        if m is None:  # most outputs the rule leaves undecided fail here, at their last line
            return None
        if not text.isascii() and not _reads_as_is(text):
            return None
        choice = m.group(1).lower()
        if not start:
            return m.start(1), m.end(1), choice  # one line: nothing before it
        head = text[:start]
        if _moves_region(head) or ("\\" in head and _boxed_twice(text)):
            return None
        if ":" in head and not self._colons_agree(head, choice):
            return None
        if not self._lines_agree(head, choice):
            return None
        return m.start(1), m.end(1), choice

    def _colons_agree(self, head: str, choice: str) -> bool:
        """No colon ends a role or a question, nor an answer label naming another choice."""
        if head.count(":") > _MAX_COLONS:
            return False
        i = head.find(":")
        while i >= 0:
            line_start = head.rfind("\n", 0, i) + 1
            found = self.before_colon.search(head, max(line_start, i - 40), i)
            if found is not None:
                if found.group("answer") is None:
                    return False  # a role or a new question
                other = self.after_colon.match(head, i + 1)
                if other is not None and other.group(1).lower() != choice:
                    return False
            i = head.find(":", i + 1)
        return True

    def _lines_agree(self, head: str, choice: str) -> bool:
        """No line is another letter alone or a role alone, numbers a new question, or opens
        with "the answer is" and another letter."""
        for line in (_SHORT_FIRST.match(head), *_SHORT.finditer(head)):
            found = None if line is None else self.short_line.fullmatch(line.group(1))
            if found is None:
                continue
            word, letter = found.group(1, 2)
            if letter is not None:
                if letter.lower() != choice:
                    return False
            elif word is None:
                return False  # a numbered question
            else:
                word = word.lower()
                if word in _ROLE_WORDS or (
                    len(word) == 1 and word in self.letters and word != choice
                ):
                    return False
        return True


_ROLE_WORDS = frozenset(
    unicodedata.normalize("NFKC", w).lower() for w in (*CHOICE_TURN_ROLES, *CHOICE_REPLY_ROLES)
)


def _reads_as_is(text: str) -> bool:
    """NFKC and lowercasing change no offset, and nothing is invisible: the full reading would
    see the same characters at the same places (its offset map is the identity)."""
    return unicodedata.is_normalized("NFKC", text) and _NOT_AS_IS.search(text) is None


def _moves_region(head: str) -> bool:
    """Something before the last line can cut the answer region or start a new question."""
    return (
        ("<" in head and _TAGS.search(head) is not None)
        or ("[" in head and _INST.search(head) is not None)
        or ("#" in head and _HASHES.search(head) is not None)
        or ("?" in head and _OPTION_LIST.search(head) is not None)
    )


def _boxed_twice(text: str) -> bool:
    return text.count("boxed{") > 1


@lru_cache(maxsize=64)
def terminal_rule(letters: str) -> TerminalRule | None:
    """The rule for a choice set of Latin letters (None for any other set)."""
    if not letters or not all("a" <= c <= "z" for c in letters):
        return None
    fill = re.escape(letters + letters.upper())
    return TerminalRule(
        letters,
        re.compile(_TERMINAL.replace("{L}", fill)),
        re.compile(_SHORT_LINE.replace("{L}", fill)),
        re.compile(_BEFORE_COLON),
        re.compile(_AFTER_COLON.replace("{L}", fill)),
    )
