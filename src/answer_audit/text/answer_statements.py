"""The value one statement answers with: the result of its equation, not an operand, or no
value when the statement gives several, a range, a time, or something that is not a number.

A statement is short text: what follows ``Answer:`` up to the end of its sentence, the inside of
a ``\\boxed{}``, or the final sentence of an output. Its numerals (`find_numerals`, on the text
`plain_math` made plain) form chains: numbers joined by operators (``×``, ``+``, ``of``,
``minus``) are one expression, and ``=`` (or ``≈``) splits it into parts. A chain's result is
its last part that is a single number: ``25 × 12 = 300`` gives 300, ``x = 7`` gives 7,
``12 = 3 × 4`` gives 12. Between chains, a connector says how they relate:

- ``or``: two values (``12 or 15``: none), a conversion (``15 hours, or 900 minutes``: the
  first), or the value of an expression (``1/2 of 36, or 18``: 18);
- a list (``5, 7``, ``10 and 12``), a range (``10–12``), a clock time (``3:45``): none.

`read_statement` reads the first chain (what an answer prefix introduces) or the last one (the
final sentence of an output without a prefix, where a "total" wins: ``In total, 45 people came,
in 3 buses`` gives 45).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from answer_audit.text.decimal_convention import Convention
from answer_audit.text.latex import Mapped, plain_math, rewrite
from answer_audit.text.number_reading import Numeral, find_numerals
from answer_audit.text.number_scales import plain_scales, scale_after
from answer_audit.text.number_words import word_numbers
from answer_audit.text.number_words_languages import language_word_numbers


@dataclass(frozen=True, slots=True)
class ReadingRules:
    """What number/v3 and number/v4 read that number/v2 does not; all off is number/v2."""

    scales: bool = False
    """Scale words multiply (``$3.2 million``, ``3.5万``, ``2万5千``); ``四分之三`` is 3/4."""
    spaced_fraction: bool = False
    """A statement that is two integers around a slash (``7 / 8 of the tank``) is a fraction."""
    cjk_alternatives: bool = False
    """``12個または15個``, ``12个或15个``: two values (none), like ``12 or 15``."""
    quoted_json: bool = False
    """A JSON answer given as a string runs to its closing quote (``"12,600"``)."""
    padded_sums: bool = False
    """A sum that holds either way, whose point operands all end in ``.x00`` / ``.000``
    (``12.500 + 7.500 = 20.000``), groups with points: its decimals would be padding."""
    no_answer_forms: bool = False
    """No answer where a final statement says the value cannot be found, or the output is a
    program that was never run."""
    harmony: bool = False
    """A harmony output's analysis channel is reasoning; only its final channel answers."""
    # number/v4 (built with the third blind split, fresh3, as development data)
    word_languages: bool = False
    """Number words of the answer word's language (``Die Antwort lautet dreiundzwanzig``)."""
    answer_parenthesis: bool = False
    """A parenthesis after the word for "answer" (``the answer (arabic numerals) is``)."""
    programs: bool = False
    """A ConvFinQA program ``subtract(a, b), divide(#0, b) = v`` answers ``v``; an equation in
    parentheses after a number (``is (612 − 540) / 540 = 13.3%``) computes, not restates."""
    part_answers: bool = False
    """An answer in parts (``a) 36  b) 54``) has no single value."""
    copula_cut_off: bool = False
    """A text that stops right after a copula (``... the minimum value of n is``) is cut off."""
    code_prefixes: bool = False
    """An answer prefix inside code that was run (``ans = price * 0.85``, an ``output`` fence
    or a sentence after it) is code, not an answer."""


V2_RULES = ReadingRules()


@dataclass(frozen=True, slots=True)
class Reading:
    """What a statement answers with: a value, or why it has none (``rule``), and where
    (offsets into the statement). Neither value nor rule: the statement holds no number."""

    value: Fraction | None
    rule: str | None = None
    start: int = 0
    end: int = 0


NO_NUMBER = Reading(None)
Pick = Literal["first", "last"]

# Up to three unit words (not a conjunction: `x = 2 or x = 3` is two values)
_CONJUNCTION = r"(?:or|and|otherwise|oder|und|ou|et|o|y|e|или|и)\b"
# (each a whole word: a word split in two would make the repeat try every split)
_UNITS = rf"(?:(?:(?!{_CONJUNCTION})[^\W\d_]+(?![^\W\d_])\.?|[%°$€£'’/]+)[\s,]*){{0,3}}?"
_OPERATOR = re.compile(
    rf"[\s,)\]]*{_UNITS}(?:[-+×*·x/÷^]|of|times|plus|minus|divided by|multiplied by|mal|fois)"
    r"[\s(\[$€£]*",
    re.IGNORECASE,
)
_RELATION = re.compile(rf"[\s)\]]*{_UNITS}(?:=|≈|≃|≅)[\s(\[$€£]*")
_DASH = re.compile(r"[-–—]| [–—] ")
_ALTERNATIVE = re.compile(
    rf"[\s)\]]*(?P<units>{_UNITS})[\s,;]*(?:\b(?:or|otherwise|oder|ou|o|или|hoặc|atau)\b|或).*",
    re.IGNORECASE | re.DOTALL,
)
# `12個または15個`, `12个或15个`: a counter word may sit before the CJK "or" (no spaces around it)
_CJK_ALTERNATIVE = re.compile(
    r"\s*[^\W\d_]{0,3}?\s*(?:または|もしくは|あるいは|或者|或是|或|还是|還是|혹은|또는)\s*[$€£¥₩]?"
)
_DOUBT = re.compile(r"\b(?:maybe|perhaps|possibly|vielleicht|peut-être|quizás|tal vez)\b", re.I)
# The same quantity again in other units: `16 cups, about 2 kg`, `2.5 hours (150 minutes)`
_CONVERSION = re.compile(
    rf"[\s)\]]*{_UNITS}[\s,]*(?:\(|about|approximately|approx\.|roughly|around|nearly|almost"
    r"|i\.e\.,?|≈|~)[\s($€£]*",
    re.IGNORECASE,
)
# What an unevaluated expression is restated as: `1/2 of 36, which is 18`
_RESTATEMENT = re.compile(
    rf"[\s)\]]*{_UNITS}[\s,]*(?:which is|that is|that's|giving|makes|→|=>)[\s($€£]*",
    re.IGNORECASE,
)
# One equation running on into the next: `16 − 3 − 4 = 9 eggs, 9 × 2 = 18`
_CONTINUATION = re.compile(
    rf"[\s)\]]*{_UNITS}[\s,;]*(?:(?:so|then|and|thus|hence|therefore|→|=>)\b[\s,]*)?[\s($€£]*",
    re.IGNORECASE,
)
# A quantity in mixed units is no plain number: `5 hours and 30 minutes`, `5 feet 3 inches`
_MIXED_UNITS = re.compile(
    r"\s*(?:hours?|hrs?|h|minutes?|mins?|seconds?|secs?|feet|foot|ft|inch(?:es)?|pounds?|lbs?"
    r"|ounces?|oz|years?|months?|weeks?|days?|metres?|meters?|m|km|kg|cm|g|stunden?|heures?"
    r"|horas?)\.?\s*(?:,|and|&|plus|und|et|y)?\s*",
    re.IGNORECASE,
)
_LIST = re.compile(r"\s*(?:[,;、，&]|\b(?:and|und|et|y|e|и)\b|和|与)\s*", re.IGNORECASE)
_RANGE = re.compile(r"\s*(?:[–—~～〜]|\b(?:to|bis|à|a|through)\b)\s*", re.IGNORECASE)
_NEGATED = re.compile(r"(?:\bnot|\bisn't|\bnicht|\bpas|不是)\s*$", re.IGNORECASE)
_MINUS_WORD = re.compile(r"\bminus\s*$", re.IGNORECASE)
_TOTAL = re.compile(
    r"\b(?:in total|total(?= is| was| of| comes| =|:)|altogether|in all|overall|insgesamt"
    r"|au total|en total)\b|总共|一共|合计|共计",
    re.IGNORECASE,
)
_NEAR = 24  # characters between a "total" cue and its number
_BOLD = re.compile(r"\*\*([^*\n]{1,80})\*\*")


@dataclass(slots=True)
class _Chain:
    parts: list[list[int]]  # numeral indices; one part per side of `=`
    after: str = "end"  # the connector to the next chain: or, conversion, list, range, time, ...
    negated: bool = False

    @property
    def first(self) -> int:
        return self.parts[0][0]

    @property
    def last(self) -> int:
        return self.parts[-1][-1]

    @property
    def result(self) -> int | None:
        """The numeral of the last part that is a single number (None: unevaluated)."""
        for part in reversed(self.parts):
            if len(part) == 1:
                return part[0]
        return None


def read_statement(
    statement: str,
    convention: Convention,
    pick: Pick = "first",
    rules: ReadingRules = V2_RULES,
    language: str | None = None,
) -> Reading:
    """The value ``statement`` answers with (see the module docstring for the rules);
    ``language``: the code of its answer word's language, for number words.

    >>> read_statement("25 × 12 = 300 apples", Convention("")).value
    Fraction(300, 1)
    >>> read_statement("either 12 or 15", Convention(""), "last").rule
    'several-values'
    """
    mapped = plain_math(statement)
    if rules.scales:
        mapped = plain_scales(mapped)
    if rules.programs and "(" in mapped.text:
        mapped = rewrite(mapped, _PROGRAM, lambda m: ())
    numerals = find_numerals(mapped.text)
    if not numerals:
        return _words(mapped, pick, language if rules.word_languages else None)
    chains = _chains(mapped.text, numerals, rules.cjk_alternatives)
    if all(c.negated for c in chains):
        return NO_NUMBER
    if pick == "first":
        index = _first_choice(chains)
        before = "start"
    else:
        index = _last_choice(mapped.text, numerals, chains, rules.programs)
        before = chains[index - 1].after if index > 0 else "start"
    chain = chains[index]
    numeral_index = chain.result
    if numeral_index is None and rules.spaced_fraction:
        previous = chains[index - 1].after if index > 0 else "start"
        fraction = _spaced_fraction(mapped, numerals, chain, previous)
        if fraction is not None:
            return fraction
    if numeral_index is None:
        return _no_value(mapped, numerals[chain.first], "unevaluated-expression")
    numeral = numerals[numeral_index]
    problem = _connector_problem(before, chain.after)
    if problem is not None:
        return _no_value(mapped, numeral, problem)
    if numeral.not_plain:
        return _no_value(mapped, numeral, "not-a-plain-number")
    value = convention.value(numeral)
    if value is None:
        both_invalid = numeral.point is None and numeral.comma is None
        return _no_value(mapped, numeral, "not-a-number" if both_invalid else "ambiguous-separator")
    minus = "minus" in mapped.text and _MINUS_WORD.search(mapped.text, 0, numeral.start)
    if minus and chain.first == numeral_index:
        value = -value  # "the change is minus 20"
    if rules.scales and (factor := scale_after(mapped.text, numeral.end)) is not None:
        value *= factor
    start, end = mapped.span(numeral.start, numeral.end)
    return Reading(value, None, start, end)


_SLASH = re.compile(r" *[/⁄] *")


def _spaced_fraction(
    mapped: Mapped, numerals: list[Numeral], chain: _Chain, before: str
) -> Reading | None:
    """``7 / 8``: a chain of two integers around a slash, on its own (no ``=``, no other
    chain joined to it by a list, range or ``or``), is the fraction they write."""
    if len(chain.parts) != 1 or len(chain.parts[0]) != 2 or _connector_problem(before, chain.after):
        return None
    top, bottom = (numerals[i] for i in chain.parts[0])
    if not (top.integer_literal and bottom.integer_literal and bottom.point):
        return None
    if not _SLASH.fullmatch(mapped.text, top.end, bottom.start):
        return None
    value = top.point / bottom.point if top.point is not None else None
    start, end = mapped.span(top.start, bottom.end)
    return Reading(value, None, start, end)


_PROBLEMS = {
    "or": "several-values",
    "list": "several-values",
    "mixed-units": "not-a-plain-number",
    "range": "range",
    "time": "clock-time",
}


def _connector_problem(before: str, after: str) -> str | None:
    """A chain joined to the next (or the one before) by ``or``, a list, a range, a time or
    a second unit has no single value."""
    return _PROBLEMS.get(after) or _PROBLEMS.get(before)


def _no_value(mapped: Mapped, numeral: Numeral, rule: str) -> Reading:
    start, end = mapped.span(numeral.start, numeral.end)
    return Reading(None, rule, start, end)


# number/v4: a ConvFinQA program before its result (`subtract(2460, 2115), divide(#0, 2115) = `)
_PROGRAM = re.compile(
    r"^\s*(?:[a-z_]{2,20}\((?:[^()\n]{0,60})\)[\s,]*)+=(?=\s*[-+$€£]?\s*[\d.])", re.IGNORECASE
)


# number/v4: two numbers in words joined by "or" (`zwölf oder dreizehn`) are two values
_WORDS_OR = re.compile(
    r"[\s,]*(?:or|oder|o|u|ou|oppure|ou então|или|либо|veya|ya da|of|lub|albo)[\s,]*", re.I
)


def _words(mapped: Mapped, pick: Pick, language: str | None = None) -> Reading:
    found = list(language_word_numbers(mapped.text, language)) if language else []
    if len(found) > 1 and _WORDS_OR.fullmatch(mapped.text, found[0][2], found[1][1]):
        start, end = mapped.span(found[0][1], found[0][2])
        return Reading(None, "several-values", start, end)
    found = found or list(word_numbers(mapped.text))
    if not found:
        return NO_NUMBER
    value, start, end = found[0] if pick == "first" else found[-1]
    start, end = mapped.span(start, end)
    return Reading(value, None, start, end)


def _chains(text: str, numerals: list[Numeral], cjk_alternatives: bool = False) -> list[_Chain]:
    chains = [_Chain([[0]], negated=_NEGATED.search(text, 0, numerals[0].start) is not None)]
    for i in range(1, len(numerals)):
        gap = text[numerals[i - 1].end : numerals[i].start]
        if cjk_alternatives and _CJK_ALTERNATIVE.fullmatch(gap):
            kind = "or"
        else:
            kind = _gap_kind(gap, text, numerals, i)
        if kind == "operator":
            chains[-1].parts[-1].append(i)
        elif kind == "relation":
            chains[-1].parts.append([i])
        else:
            chains[-1].after = kind
            chains.append(_Chain([[i]], negated=_NEGATED.search(gap) is not None))
    return chains


def _gap_kind(gap: str, text: str, numerals: list[Numeral], i: int) -> str:
    """How numeral ``i`` relates to the one before it, from the text between them."""
    if _RELATION.fullmatch(gap):
        return "relation"
    if _DASH.fullmatch(gap):
        # 10-12 is a range, 15-3 = 12 a subtraction
        following = text[numerals[i].end : numerals[i + 1].start] if i + 1 < len(numerals) else ""
        return "operator" if _RELATION.fullmatch(following) else "range"
    if _OPERATOR.fullmatch(gap):
        return "operator"
    if _DOUBT.search(gap):
        return "or"  # 12, perhaps 15
    alternative = _ALTERNATIVE.fullmatch(gap)
    if alternative is not None:
        return "conversion" if alternative.group("units").strip(" ,") else "or"
    if gap == ":" and numerals[i].end - numerals[i].start == 2:
        return "time"
    for kind, pattern in _CONNECTORS:
        if pattern.fullmatch(gap):
            return kind
    return "other"


_CONNECTORS = (
    ("list", _LIST),
    ("mixed-units", _MIXED_UNITS),
    ("range", _RANGE),
    ("conversion", _CONVERSION),
    ("restatement", _RESTATEMENT),
    ("continuation", _CONTINUATION),
)


def _first_choice(chains: list[_Chain]) -> int:
    """The chain an answer prefix introduces: the first one not negated; the value an
    unevaluated expression is restated as (``1/2 of 36, or 18``); the last equation of a
    computation that runs on (``16 − 3 − 4 = 9, 9 × 2 = 18``)."""
    index = next(i for i, c in enumerate(chains) if not c.negated)
    while index + 1 < len(chains):
        chain, following = chains[index], chains[index + 1]
        if (chain.result is None and chain.after in ("or", "restatement", "conversion")) or (
            len(chain.parts) > 1
            and len(following.parts) > 1
            and chain.after in ("list", "continuation", "restatement")
        ):
            index += 1
        else:
            break
    return index


def _last_choice(
    text: str, numerals: list[Numeral], chains: list[_Chain], computed: bool = False
) -> int:
    """The chain a final sentence answers with: the one a "total" names, or a bold one, else
    the last with a result; the first of a conversion (``15 hours, or 900 minutes``), unless
    (``computed``, number/v4) the last is an equation: it computes its value."""
    usable = [i for i, c in enumerate(chains) if not c.negated and c.result is not None]
    if not usable:
        return next(i for i in reversed(range(len(chains))) if not chains[i].negated)
    for cue in _TOTAL.finditer(text):
        for i in usable:
            after = text[cue.end() : numerals[chains[i].first].start]
            before = text[numerals[chains[i].last].end : cue.start()]
            if numerals[chains[i].first].start >= cue.end() and _near(after):
                return i
            if numerals[chains[i].last].end <= cue.start() and _near(before):
                return i
    if "**" in text:
        bold = [m.span(1) for m in _BOLD.finditer(text)]
        results = {i: numerals[r] for i in usable if (r := chains[i].result) is not None}
        in_bold = [i for i, n in results.items() if any(_inside(n, span) for span in bold)]
        if in_bold:
            return in_bold[-1]
    chosen = usable[-1]
    if computed and len(chains[chosen].parts) > 1:
        return chosen
    while chosen > 0 and chains[chosen - 1].after == "conversion":
        chosen -= 1
    return chosen


def _inside(numeral: Numeral, span: tuple[int, int]) -> bool:
    return span[0] <= numeral.start and numeral.end <= span[1]


def _near(between: str) -> bool:
    return len(between) <= _NEAR and not any(c.isdigit() for c in between)
