"""The second numeric engine (``number/v2``): the value of the output's last answer statement.

Where `NumberPreset` (``number/v1``) ranks rules (a box, then ``####``, then ``Answer:``, then
the last number), this engine reads the answer region the way a careful reader does:

1. The region is a free-form preset's (``freeform/v4``'s turn and question markers), except
   that a reasoning block never closed has no answer, and wrappers are kept.
2. The last answer prefix wins, whatever its kind: ``\\boxed{``, ``####``, ``<answer>``,
   ``"answer":``, ``Answer:``, ``The final answer is``, ``Die Antwort lautet``, ``答案是`` ...
   (a later ``Final answer: 15`` beats an earlier ``\\boxed{12}``). Its statement (up to the end
   of the sentence, or the box) gives the value by the rules of `answer_audit.text.
   answer_statements`: an equation's result, no value for two values, a range, a time.
3. Answer statements in a row that name different values (``\\boxed{3}, \\boxed{5}``, or three
   lines cycling ``3``, ``4``, ``5``) give none; so does a doubt after the answer
   (``The answer is 24. Or maybe 36?``); an answer prefix with nothing after it gives none.
4. Without a prefix: a first line that is a bare number followed by its explanation, else the
   output's final statement (its last sentence with a number, skipping asides such as "Note:
   if he had made 10 batches ..." and questions), read for its last result. A trace that stops
   mid-computation (``12 × 15 = 180. Then 180 ÷``) has none.

Decimal commas and grouping follow the text's convention (`answer_audit.text.number_reading`).
Every step scans the region a bounded number of times with compiled patterns; Python reads
only short statements, so the cost is linear in the text and small per row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from answer_audit.extraction import Extraction
from answer_audit.parsers.freeform import AnswerRegionPreset
from answer_audit.parsers.number_forms import answer_in_parts, code_block_end, ends_on_copula
from answer_audit.parsers.number_region import find_region
from answer_audit.text.answer_statements import (
    NO_NUMBER,
    V2_RULES,
    Pick,
    Reading,
    ReadingRules,
    read_statement,
)
from answer_audit.text.decimal_convention import Convention
from answer_audit.text.harmony import final_channel_start
from answer_audit.text.number_words_languages import ANSWER_WORD_LANGUAGES
from answer_audit.text.numerals import format_number
from answer_audit.text.statement_bounds import (
    AnswerPrefix,
    Bounds,
    final_sentence,
    last_prefix,
    lowered,
    prefix_statement,
    without_annotations,
)

_RULES = {"box": "boxed", "hash": "hash-answer", "tag": "answer-tag", "json": "answer-tag"}
_RUN_GAP = 40  # at most this much text (no digits) between answer statements of one run
_RUN_LOOKBACK = 3  # statements looked at before the last one (bounded on floods)
_STATEMENT_REACH = 80  # a statement of a run is short: its prefix is this close to its number
_LAST_DIGIT = re.compile(r"(?s).*\d")
_DIGIT = re.compile(r"\d")
_HEDGE_REACH = 200  # a doubt right after the answer ("The answer is 24. Or maybe 36?")
_HEDGE = re.compile(
    r"(?i)\b(?:or maybe|or perhaps|or possibly|or is it|or was it|or could it be|or should it be"
    r"|oder vielleicht|ou peut-être|o quizás|o tal vez)"
    r"\b[^\d\n]{0,30}\d"
)
_CUT_OFF = re.compile(r"(?:[-−+×/÷=^(]|\\div|\d\s*\*|\\[dtc]?frac\s*\{?|\\times|\\cdot)\s*$")
_ALTERNATIVE_OPENING = re.compile(r"(?i)[\s*_]*(?:or|oder|ou)\b")
_NONSPACE = re.compile(r"\S")
_SENTENCE_BREAK = re.compile(r"\n|[.!?。](?=\s)")
_DEPENDS = re.compile(
    r"(?i)\b(?:depends|depending) on whether\b|\b(?:answer|result)\s+(?:\w+\s+){0,2}depends\b"
)
_BARE_FIRST_LINE = re.compile(
    r"[ \t*_#>]*[-+−]?[$€£]?\s?[\d.,]+(?:\s?[^\W\d_]{0,12})?[ \t*_.!]*(?:\n|$)"
)


@dataclass(frozen=True)
class StatementNumberPreset:
    """A numeric preset that reads the last answer statement (``number/v2``).

    ``region`` is the free-form preset whose turn and question markers end the answer region;
    it is read with reasoning blocks closed (an open one has no answer) and wrappers kept.
    Its ``family`` is ``freeform``, like `NumberPreset`'s: pair it with the ``numeric`` matcher.
    """

    name: str
    region: AnswerRegionPreset
    family: str = "freeform"
    rules: ReadingRules = V2_RULES
    """What it reads beyond number/v2 (`ReadingRules`; number/v3 turns them all on)."""

    def extract(self, text: str) -> Extraction:
        offset: int | None = 0
        if self.rules.harmony:
            offset = final_channel_start(text)
        if offset is None:
            return Extraction(None, "no-final-channel", None)
        region = find_region(self.region, text[offset:] if offset else text)
        if isinstance(region, str):
            return Extraction(None, region, None)
        return read_answer(text, offset + region[0], offset + region[1], self.rules)

    def describe(self) -> list[str]:
        return [
            f"answer region: the text before the first new turn or question ({self.region.name}); "
            "`unclosed-think`: a reasoning block never closed has no answer; `opens-with-turn`",
            "the last answer prefix wins, whatever its kind: `boxed` (`\\boxed{}`), "
            "`hash-answer` (`####`), `answer-tag` (`<answer>`, JSON `answer`), `answer-line` "
            "(`Answer:`, `The final answer is`, `Die Antwort lautet`, `答案是`, ...)",
            "its statement's value: an equation's result (`25 × 12 = 300` -> 300), a mixed "
            "number, vulgar or LaTeX fraction, scientific notation, number words; grouping and "
            "decimal commas as the text writes them",
            "no value (the rule says why): `several-values` (`12 or 15`, `5, 7`), `range`, "
            "`clock-time`, `not-a-plain-number` (`3\\sqrt{2}`, `2π`), `ambiguous-separator` "
            "(`1.500` in a German text that does not decide), `cycle` (answers in a row "
            "naming different values), `hedged` (`Or maybe 36?` after it), `empty-answer`, "
            "`answer-not-a-number`",
            "`answer-first`: no prefix, a first line that is a bare number and its explanation",
            "`last-statement`: no prefix, the final sentence with a number (asides and "
            "questions skipped), its last result; `cut-off` when the text stops mid-computation",
            "value: the number as a short exact string (`29.00` -> `29`, `3/8` -> `0.375`)",
            "`not-found`: no number",
            *self._rule_lines(),
        ]

    def _rule_lines(self) -> list[str]:
        rules = self.rules
        lines = [
            (
                rules.harmony,
                "harmony: the analysis channel is reasoning, only the final channel "
                "answers; `no-final-channel` when it never comes",
            ),
            (
                rules.scales,
                "scale words multiply (`$3.2 million` -> 3200000, `2万5千` -> 25000); "
                "`四分之三` -> 3/4",
            ),
            (rules.spaced_fraction, "`Answer: 7 / 8` is the fraction 7/8"),
            (rules.quoted_json, 'a JSON string value runs to its closing quote (`"12,600"`)'),
            (rules.padded_sums, "`12.500 + 7.500 = 20.000` decides that points group"),
            (rules.cjk_alternatives, "`12個または15個`: `several-values`"),
            (
                rules.no_answer_forms,
                "`not-determinable` (a final 'cannot be calculated'), "
                "`unrun-program` (code that was never run)",
            ),
            (
                rules.word_languages,
                "number words in the answer word's language (de, es, fr, it, pt, ru, tr, nl, "
                "pl): `Die Antwort lautet dreiundzwanzig` -> 23; an article alone is no number",
            ),
            (rules.answer_parenthesis, "`the answer (arabic numerals) is 42`"),
            (
                rules.programs,
                "`subtract(2460, 2115), divide(#0, 2115) = 0.16312` -> 0.16312; an equation "
                "in parentheses computes (`is (612 − 540) / 540 = 13.3%` -> 13.3)",
            ),
            (rules.part_answers, "`a) 36  b) 54`: `several-values`"),
            (rules.copula_cut_off, "`cut-off`: the text stops right after `is`"),
            (
                rules.code_prefixes,
                "`ans = ...` inside code that was run is code: the text after the block answers",
            ),
        ]
        return [line for on, line in lines if on]


def read_answer(text: str, start: int, end: int, rules: ReadingRules = V2_RULES) -> Extraction:
    """The answer value of ``text[start:end]`` (an answer region), as an `Extraction` whose
    span indexes ``text``."""
    low = lowered(text)
    prefix = last_prefix(low, start, end, rules.answer_parenthesis)
    if prefix is not None and rules.code_prefixes and "```" in text[start : prefix.start]:
        after = code_block_end(text, start, end, prefix.start)
        if after is not None:  # `ans = ...` in a program that was run: the text after answers
            return read_answer(text, after, end, rules)
    hint = prefix.decimal_comma if prefix else None
    convention = Convention(text, start, end, hint, padded_sums=rules.padded_sums)
    if prefix is not None:
        return _from_prefix(text, low, start, end, prefix, convention, rules)
    if rules.no_answer_forms and _unrun_program(text, start, end):
        return Extraction(None, "unrun-program", None)
    first = _bare_first_line(text, start, end, convention, rules)
    if first is not None:
        return first
    return _final_statement(text, low, start, end, convention, rules)


def _from_prefix(
    text: str,
    low: str,
    start: int,
    end: int,
    prefix: AnswerPrefix,
    convention: Convention,
    rules: ReadingRules,
) -> Extraction:
    bounds = prefix_statement(text, prefix, end, rules.quoted_json)
    if rules.part_answers and answer_in_parts(text, bounds.start, end):
        return Extraction(None, "several-values", None)
    language = ANSWER_WORD_LANGUAGES.get(prefix.word or "") if rules.word_languages else None
    reading = _read(text, bounds, convention, "first", rules, language)
    if reading is NO_NUMBER or _echoed(text, start, bounds, reading):
        if not _DIGIT.search(text, bounds.end, end):
            empty = not text[bounds.start : bounds.end].strip(" \t\n*_$.")
            return Extraction(None, "empty-answer" if empty else "answer-not-a-number", None)
        return _final_statement(text, low, bounds.end, end, convention, rules)
    span = (reading.start, reading.end)
    if reading.value is None:
        return Extraction(None, reading.rule or "not-found", span)
    problem = _run_problem(text, low, start, prefix, reading.value, convention, rules)
    if problem is None and _HEDGE.search(text, bounds.end, min(end, bounds.end + _HEDGE_REACH)):
        problem = "hedged"
    if problem is not None:
        return Extraction(None, problem, span)
    return Extraction(format_number(reading.value), _RULES.get(prefix.kind, "answer-line"), span)


def _read(
    text: str,
    bounds: Bounds,
    convention: Convention,
    pick: Pick,
    rules: ReadingRules,
    language: str | None = None,
) -> Reading:
    """`read_statement` on ``text[bounds]``, its offsets moved into ``text``."""
    statement, offsets = without_annotations(text[bounds.start : bounds.end])
    reading = read_statement(statement, convention, pick, rules, language)
    if reading is NO_NUMBER:
        return reading
    a, b = offsets.span(reading.start, reading.end) if reading.end > reading.start else (0, 0)
    return Reading(reading.value, reading.rule, bounds.start + a, bounds.start + b)


def _echoed(text: str, start: int, bounds: Bounds, reading: Reading) -> bool:
    """An answer prefix opening the region and followed by reasoning echoes the prompt
    (``Answer: Let's think step by step. Roger has 5 balls ...``): its statement is no answer."""
    if text.count("\n", start, bounds.start) or len(text[bounds.start : reading.start].split()) < 2:
        return False
    return _DIGIT.search(text, bounds.end, bounds.end + 2000) is not None


def _run_problem(
    text: str,
    low: str,
    start: int,
    last: AnswerPrefix,
    value: Fraction,
    convention: Convention,
    rules: ReadingRules,
) -> str | None:
    """``several-values`` when an answer statement just before the last one, on its line,
    names another value; ``cycle`` when three or more in a row end on a change of value."""
    values = [value]
    later = last
    # statements in a row repeat their prefix: no earlier copy close by, no run (the common case)
    if low.find(low[last.start : last.end].strip(), max(start, last.start - 400), last.start) < 0:
        return None
    for _ in range(_RUN_LOOKBACK):
        # an earlier statement of the run ends in a number shortly before this prefix
        digit = _LAST_DIGIT.match(text, max(start, later.start - 3 * _RUN_GAP), later.start)
        if digit is None or len(text[digit.end() : later.start].strip()) > _RUN_GAP:
            break
        before = last_prefix(low, max(start, digit.end() - _STATEMENT_REACH), digit.end())
        if before is None:
            break
        earlier = prefix_statement(text, before, later.start, rules.quoted_json)
        gap = text[earlier.end : later.start]
        if len(gap.strip()) > _RUN_GAP or _DIGIT.search(gap):
            break
        reading = _read(text, earlier, convention, "first", rules)
        if reading.value is None:
            break
        if len(values) == 1 and not _SENTENCE_BREAK.search(gap) and reading.value != value:
            return "several-values"
        values.append(reading.value)
        later = before
    if len(values) >= 3 and values[0] != values[1]:
        return "cycle"
    return None


def _bare_first_line(
    text: str, start: int, end: int, convention: Convention, rules: ReadingRules
) -> Extraction | None:
    """``18\\n\\nExplanation: ...``: a first line that is one number, then more lines."""
    m = _BARE_FIRST_LINE.match(text, start, end)
    if m is None or not m.group().endswith("\n"):
        return None
    nonspace = _NONSPACE.search(text, m.end(), end)
    following = end if nonspace is None else nonspace.start()
    if following == end or _BARE_FIRST_LINE.match(text, following, end):
        return None  # the whole output, or a column of numbers: no answer and explanation
    reading = _read(text, Bounds(start, m.end()), convention, "first", rules)
    if reading.value is None:
        return None
    return Extraction(format_number(reading.value), "answer-first", (reading.start, reading.end))


_BARE_LINES = re.compile(
    r"(?:\A|\n)[ \t*_]*([-+−]?[\d.,/]+)[ \t*_.]*\n\s*([-+−]?[\d.,/]+)[ \t*_.]*\n\s*"
    r"([-+−]?[\d.,/]+)[ \t*_.]*\Z"
)


def _cycling_lines(text: str, start: int, end: int) -> bool:
    """The output ends in three or more lines of bare numbers, changing at the end (``5``,
    ``6``, ``7``): a cycle, not an answer."""
    tail = text[max(start, end - 200) : end].rstrip()
    m = _BARE_LINES.search(tail)
    return m is not None and m.group(2) != m.group(3)


def _final_statement(
    text: str, low: str, start: int, end: int, convention: Convention, rules: ReadingRules
) -> Extraction:
    """The value of the last sentence with a number (asides skipped), or why there is none."""
    tail, _ = without_annotations(text[max(start, end - 400) : end].rstrip())
    if _CUT_OFF.search(tail[-40:]) or (rules.copula_cut_off and ends_on_copula(tail)):
        return Extraction(None, "cut-off", None)
    if low.find("depend", start, end) >= 0 and _DEPENDS.search(text, start, end):
        return Extraction(None, "hedged", None)
    if _cycling_lines(text, start, end):
        return Extraction(None, "cycle", None)
    sentence = final_sentence(text, start, end)
    if sentence is None:
        return Extraction(None, "not-found", None)
    if text[sentence.end : sentence.end + 1] == "?" or _ALTERNATIVE_OPENING.match(
        text, sentence.start, sentence.end
    ):
        return Extraction(None, "hedged", None)  # "Is it 12?", "Maybe 12? Or 15."
    reading = _read(text, sentence, convention, "last", rules)
    if reading is NO_NUMBER:
        return Extraction(None, "not-found", None)
    span = (reading.start, reading.end)
    if reading.value is None:
        return Extraction(None, reading.rule or "not-found", span)
    if rules.no_answer_forms and _UNDETERMINED.search(text, reading.end, end):
        return Extraction(None, "not-determinable", span)
    return Extraction(format_number(reading.value), "last-statement", span)


# number/v3: the final statement says the value cannot be found (after its last number)
_UNDETERMINED = re.compile(
    r"(?i)\b(?:cannot|can ?not|can't|could not|couldn't|is not possible to|isn't possible to"
    r"|impossible to|unable to|no way to)\s+(?:be\s+)?(?:calculate|determine|compute|work out"
    r"|find|answer)(?:d|ed)?\b"
    r"|\b(?:not enough|insufficient) (?:information|data)\b"
    r"|\bkann nicht (?:berechnet|bestimmt|ermittelt) werden|\bne peut pas être (?:calculé|déterminé)"
    r"|\bno se puede (?:calcular|determinar)|无法(?:求出|计算|确定|得出)|条件不足|不能确定"
    r"|求められない|計算できない|決められない"
)
# number/v3: an output that ends inside a program it never ran (`def solution(): ... return x`)
_LAST_LINE = re.compile(r"(?s).*\n([^\n]*\S[^\n]*)\s*\Z")
_INDENTED_RETURN = re.compile(r"[ \t]+return\b")
_CODE_FENCE = re.compile(r"(?s).*^```[ \t]*(python3?|py)?[ \t]*\n", re.MULTILINE)


def _unrun_program(text: str, start: int, end: int) -> bool:
    """The region ends with a function's indented ``return`` line, or with a closed
    ``python`` block (no ``output`` after it): a program given, never run."""
    last = _LAST_LINE.match(text, start, end)
    if last is not None and _INDENTED_RETURN.match(last.group(1)):
        return True
    if not text[start:end].rstrip().endswith("```"):
        return False
    fence = _CODE_FENCE.match(text, start, max(start, end - 3))
    return fence is not None and fence.group(1) is not None
