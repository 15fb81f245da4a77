"""A cheap guard in front of a regex: the characters any of its matches can start with.

Python's `re` tries a pattern at every position of the text. For a pattern that starts with a
long alternation (``answer|回答|答え|...``) or a lookbehind, every failing position costs the
whole alternation; a megabyte of text with no answer in it then takes a tenth of a second per
pattern. `guarded` puts a lookahead for the possible first characters in front
(``(?=[a回答...])(?:...)``), so a position that cannot start a match fails at one class
check. The set is computed from the parsed pattern and is a superset of the true first
characters (lookarounds and anchors are skipped, not evaluated), so the guarded pattern finds
exactly the same matches; patterns it cannot reason about (case-insensitive, a class with
categories or negation, ``.``, back-references, or a pattern that can match the empty string)
come back unchanged.
"""

from __future__ import annotations

import re
import weakref
from functools import lru_cache
from typing import Any

# `re`'s own parser (CPython 3.11+; private): its tree is what the guard reasons about. Where
# it is missing, every pattern stays unguarded, which changes speed, never matches.
try:
    from re import _constants as c  # type: ignore[attr-defined]  # the parser's opcodes
    from re import _parser  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - another Python
    _parser = None

Ranges = list[tuple[int, int]]  # code point ranges; (-1, k) stands for the class escape k
# Class escapes a first-character set may hold, by the parser's category (re's own meaning:
# Unicode for str patterns unless re.ASCII, the same in the guard as in the pattern).
_ESCAPES = {c.CATEGORY_DIGIT: 0, c.CATEGORY_WORD: 1, c.CATEGORY_SPACE: 2} if _parser else {}
_ESCAPE_TEXT = (r"\d", r"\w", r"\s")
# A class with more ranges than this is not worth checking at every position.
_MAX_RANGES = 64


def guarded(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """``pattern`` with a lookahead for its possible first characters, or unchanged (also when
    `re` already skips ahead by itself: a pattern that opens with a character or a class)."""
    if _parser is None or pattern.flags & re.IGNORECASE or _GLOBAL_FLAGS.match(pattern.pattern):
        return pattern  # inline flags must open the pattern; keep it as it is
    first = first_chars(pattern.pattern, pattern.flags)
    if first is None or _skips_ahead(pattern):
        return pattern
    body = "".join(_class_item(lo, hi) for lo, hi in first)
    try:
        fast = re.compile(f"(?=[{body}])(?:{pattern.pattern})", pattern.flags)
    except re.error:
        return pattern
    _ORIGINALS[fast] = pattern
    return fast


# guarded -> given; weak, so patterns compiled for passing choice sets do not pile up
_ORIGINALS: weakref.WeakKeyDictionary[re.Pattern[str], re.Pattern[str]] = (
    weakref.WeakKeyDictionary()
)


def original(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """The pattern `guarded` was given for ``pattern`` (``pattern`` itself when unguarded):
    what the tests compare a guarded pattern with."""
    return _ORIGINALS.get(pattern, pattern)


_GLOBAL_FLAGS = re.compile(r"\(\?[aiLmsux]+\)")


def _skips_ahead(pattern: re.Pattern[str]) -> bool:
    """`re` finds the first character fast by itself: the pattern opens with a literal, a class
    (or a repeat of one), an alternation whose branches all open with a literal, or ``^``."""
    data = _parser.parse(pattern.pattern, pattern.flags).data
    op, av = data[0]
    if op is c.AT and av in (c.AT_BEGINNING, c.AT_BEGINNING_LINE, c.AT_BEGINNING_STRING):
        return True  # a line or text start fails at once elsewhere; a guard would only add work
    if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT) and av[0] >= 1:
        op, av = av[2][0] if len(av[2]) == 1 else (None, None)
    if op in (c.LITERAL, c.IN):
        return True
    return op is c.BRANCH and all(branch and branch[0][0] is c.LITERAL for branch in av[1])


def scans_fast(pattern: re.Pattern[str]) -> bool:
    """`re` skips to where a match of ``pattern`` can start about as fast as `str.find` scans
    for one string: the pattern opens with a literal character, or every character it can open
    with is a punctuation mark or symbol (a class or an alternation of literals: ``[<[]``,
    ``<|...|\\[inst``), which prose seldom holds. Checking such a pattern's `needed_strings`
    first (one scan per string) costs more than the search it would skip. False for anything
    but a `re` pattern (a preset file's timed pattern)."""
    if _parser is None or not isinstance(pattern, re.Pattern) or pattern.flags & re.IGNORECASE:
        return False
    try:
        data = _parser.parse(pattern.pattern, pattern.flags).data
    except re.error:
        return False
    op, av = data[0]
    if op is c.LITERAL:
        return True
    if op is c.IN:
        return all(kind is c.LITERAL and _rare(value) for kind, value in av)
    if op is c.BRANCH:
        return all(branch and branch[0][0] is c.LITERAL and _rare(branch[0][1]) for branch in av[1])
    return False


def _rare(code: int) -> bool:
    """Not a letter, digit or space: a character prose holds a few of, at most."""
    char = chr(code)
    return not (char.isalnum() or char.isspace() or char == "_")


def first_chars(source: str, flags: int = 0, *, wide: bool = False) -> Ranges | None:
    """The code point ranges (and class escapes, as ``(-1, k)``) a match of ``source`` can
    start with, merged and sorted; None when unknown or when the pattern can match the empty
    string. ``wide``: a non-ASCII literal under IGNORECASE stands for every non-ASCII
    character and the ASCII letters `re` matches to it (instead of making the set unknown)."""
    if _parser is None:
        return None
    try:
        parsed = _parser.parse(source, flags)
    except re.error:
        return None
    if parsed.state.flags & re.IGNORECASE:
        return None
    found = _sequence(list(parsed.data), False, wide)
    if found is None or found[1]:
        return None
    ranges = _merged(found[0])
    return ranges if len(ranges) <= _MAX_RANGES else None


def _sequence(
    items: list[tuple[Any, Any]], nocase: bool, wide: bool = False
) -> tuple[Ranges, bool] | None:
    """First characters of a sequence of items, and whether the whole sequence can be empty
    (``nocase``: inside a case-insensitive group)."""
    out: Ranges = []
    for op, av in items:
        got = _item(op, av, nocase, wide)
        if got is None:
            return None
        ranges, nullable = got
        out += ranges
        if not nullable:
            return out, False
    return out, True


def _item(op: Any, av: Any, nocase: bool, wide: bool = False) -> tuple[Ranges, bool] | None:
    if op is c.LITERAL:
        one = _literal(av, nocase, wide)
        return None if one is None else (one, False)
    if op is c.IN:
        ranges: Ranges = []
        for kind, value in av:
            if kind is c.LITERAL:
                one = _literal(value, nocase, wide)
                if one is None:
                    return None
                ranges += one
            elif nocase:  # a range or escape under IGNORECASE: not worth the case analysis
                return None
            elif kind is c.RANGE:
                ranges.append(value)
            elif kind is c.CATEGORY and value in _ESCAPES:
                ranges.append((-1, _ESCAPES[value]))
            else:  # NEGATE, \D, \W, \S, ...: too wide to list
                return None
        return ranges, False
    if op is c.BRANCH:
        out: Ranges = []
        nullable = False
        for alternative in av[1]:
            got = _sequence(list(alternative), nocase, wide)
            if got is None:
                return None
            out += got[0]
            nullable = nullable or got[1]
        return out, nullable
    if op is c.SUBPATTERN:
        _group, add_flags, del_flags, sub = av
        if add_flags & ~re.IGNORECASE or del_flags:  # (?-i:...), (?s:...): leave them alone
            return None
        return _sequence(list(sub), nocase or bool(add_flags & re.IGNORECASE), wide)
    if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
        low, _high, sub = av
        got = _sequence(list(sub), nocase, wide)
        if got is None:
            return None
        return got[0], got[1] or low == 0
    if op is c.ATOMIC_GROUP:
        return _sequence(list(av), nocase, wide)
    if op in (c.AT, c.ASSERT, c.ASSERT_NOT):
        return [], True  # zero-width: the first character comes from what follows
    return None  # ANY, NOT_LITERAL, CATEGORY, GROUPREF, ...


# The non-ASCII characters `re` matches to an ASCII letter under IGNORECASE (str patterns);
# tests/test_first_chars.py checks the table against every code point.
_CASE_EXTRAS = {"i": (0x130, 0x131), "k": (0x212A,), "s": (0x17F,)}


def _literal(code: int, nocase: bool, wide: bool = False) -> Ranges | None:
    """The characters a literal matches: itself, or under IGNORECASE, for an ASCII letter, its
    two cases and the extras; None for a non-ASCII character under IGNORECASE, or with ``wide``
    every non-ASCII character and the ASCII letters whose extras hold it (`re`'s case folding
    is symmetric)."""
    char = chr(code)
    if not nocase or (char.isascii() and not char.isalpha()):
        return [(code, code)]
    if not char.isascii():
        if not wide:
            return None
        letters = [x for x, extras in _CASE_EXTRAS.items() if code in extras]
        return [(0x80, 0x10FFFF), *((ord(c), ord(c)) for x in letters for c in (x, x.upper()))]
    lower = char.lower()
    codes = [ord(lower), ord(lower.upper()), *_CASE_EXTRAS.get(lower, ())]
    return [(x, x) for x in codes]


def _merged(ranges: Ranges) -> Ranges:
    out: Ranges = sorted(set(r for r in ranges if r[0] < 0))
    for lo, hi in sorted(r for r in ranges if r[0] >= 0):
        if out and out[-1][0] >= 0 and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def _class_item(lo: int, hi: int) -> str:
    if lo < 0:
        return _ESCAPE_TEXT[hi]
    first = re.escape(chr(lo))
    return first if lo == hi else f"{first}-{re.escape(chr(hi))}"


# ------------------------------------------------------------ required literals


def needed_strings(pattern: Any) -> frozenset[str] | None:
    """`required_literals` of a guarded or plain ``re`` pattern, without a string that holds
    another of them (the shorter is found whenever the longer is); None for anything else (a
    preset file's timed pattern) and when unknown. See `may_match`."""
    if not isinstance(pattern, re.Pattern):
        return None
    needs = required_literals(original(pattern))
    if needs is None:
        return None
    return frozenset(s for s in needs if not any(t != s and t in s for t in needs))


def may_match(needs: frozenset[str] | None, text: str) -> bool:
    """False only when ``text`` holds none of the `needed_strings` (so the pattern has no match
    in it); True when it holds one, or when nothing is known."""
    if needs is None:
        return True
    if len(text) > _ONE_PASS_FROM and len(needs) > 1:
        try:
            return _holds_any(text, needs)
        except UnicodeEncodeError:
            pass  # a lone surrogate (half an emoji): no UTF-8 for Polars; scan as below
    ascii_needs, other_needs = _by_script(needs)
    if any(needed in text for needed in ascii_needs):
        return True
    # str.isascii is a flag lookup: an ASCII text holds no non-ASCII string
    return not text.isascii() and any(needed in text for needed in other_needs)


# From this length on, one Aho-Corasick pass (Polars) finds whether any needed string is there,
# instead of one scan of the text per string.
_ONE_PASS_FROM = 1 << 16


def _holds_any(text: str, needs: frozenset[str]) -> bool:
    """``any(needed in text for needed in needs)`` in one pass over the text. Exact: a UTF-8
    byte string holds another's bytes exactly when the text holds the other text. Raises
    UnicodeEncodeError for a text with a lone surrogate, which has no UTF-8."""
    import polars as pl  # imported here: `import answer_audit` stays light

    return bool(pl.Series([text]).str.contains_any(sorted(needs)).item())


@lru_cache(maxsize=256)
def _by_script(needs: frozenset[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return tuple(s for s in needs if s.isascii()), tuple(s for s in needs if not s.isascii())


def required_literals(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """Strings one of which every match of ``pattern`` holds (inside the match), or None when
    the parsed pattern does not show such a set (case-insensitive parts, repeats that may run
    zero times, classes, ...). A text holding none of them has no match anywhere, in any
    ``pos``/``endpos`` window: a check that costs a few substring searches per text.

    >>> sorted(required_literals(re.compile(r"\\b(?:for example|e\\.g\\.)\\b|例")))
    ['e.g.', 'for example', '例']
    """
    if _parser is None or pattern.flags & re.IGNORECASE:
        return None
    try:
        parsed = _parser.parse(pattern.pattern, pattern.flags)
    except re.error:
        return None
    if parsed.state.flags & re.IGNORECASE:
        return None
    return _needs(list(parsed.data))


def _needs(items: list[tuple[Any, Any]]) -> frozenset[str] | None:
    """Of the sequence's requirements (each run of literals; each item that has one), the most
    selective: the one whose shortest string is longest."""
    options: list[frozenset[str]] = []
    run: list[str] = []
    for op, av in items:
        if op is c.LITERAL:
            run.append(chr(av))
            continue
        if run:
            options.append(frozenset({"".join(run)}))
            run = []
        got = _item_needs(op, av)
        if got is not None:
            options.append(got)
    if run:
        options.append(frozenset({"".join(run)}))
    if not options:
        return None
    return max(options, key=lambda found: (min(map(len, found)), -len(found)))


def _item_needs(op: Any, av: Any) -> frozenset[str] | None:
    if op is c.IN:  # a class of single characters only
        if all(kind is c.LITERAL for kind, _value in av):
            return frozenset(chr(value) for _kind, value in av)
        return None
    if op is c.BRANCH:
        found: set[str] = set()
        for alternative in av[1]:
            got = _needs(list(alternative))
            if got is None:
                return None
            found |= got
        return frozenset(found)
    if op is c.SUBPATTERN:
        _group, add_flags, _del_flags, sub = av
        return None if add_flags & re.IGNORECASE else _needs(list(sub))
    if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
        low, _high, sub = av
        return _needs(list(sub)) if low >= 1 else None
    if op is c.ATOMIC_GROUP:
        return _needs(list(av))
    return None  # zero-width (AT, lookarounds) or not a fixed string (ANY, CATEGORY, ...)


# ------------------------------------------------------------ case


def uppercase_literal(source: str) -> str | None:
    """An uppercase letter that a match of ``source`` must hold as written (outside any
    case-insensitive part), or None; None too when the pattern is not `re` syntax.

    >>> uppercase_literal("Final: (x)"), uppercase_literal("(?i:Final)"), uppercase_literal(r"\\S")
    ('F', None, None)
    """
    if _parser is None:
        return None
    try:
        parsed = _parser.parse(source)
    except (re.error, RecursionError, OverflowError):  # e.g. syntax only `regex` knows
        return None
    if parsed.state.flags & re.IGNORECASE:
        return None
    return _upper_in(list(parsed.data))


def _upper_in(items: list[tuple[Any, Any]]) -> str | None:
    for op, av in items:
        found: str | None = None
        if op is c.LITERAL:
            found = chr(av) if chr(av) != chr(av).lower() else None
        elif op is c.SUBPATTERN:
            found = None if av[1] & re.IGNORECASE else _upper_in(list(av[3]))
        elif op is c.BRANCH:
            found = next((f for b in av[1] if (f := _upper_in(list(b))) is not None), None)
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            found = _upper_in(list(av[2]))
        elif op in (c.ASSERT, c.ASSERT_NOT):
            found = _upper_in(list(av[1]))
        elif op is c.ATOMIC_GROUP:
            found = _upper_in(list(av))
        if found is not None:
            return found
    return None


def least_width(pattern: object) -> int:
    """The fewest characters a match of ``pattern`` spans (lookarounds span none); 0 when that
    is unknown (not a compiled pattern, e.g. a preset file's timed one; no parser; or a pattern
    the parser cannot size).

    >>> least_width(re.compile(r"(?<=x)ab?c"))
    2
    """
    if _parser is None or not isinstance(pattern, re.Pattern):
        return 0
    try:
        return int(_parser.parse(pattern.pattern, pattern.flags).getwidth()[0])
    except Exception:  # (a private parser: any failure means "unknown")
        return 0
