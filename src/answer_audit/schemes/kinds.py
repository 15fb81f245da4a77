"""One object per kind of answer: free-form text, a choice letter, a JSON field's integer, a number.

A kind decides, once, everything that depends on what an answer is:

- **value typing**: what an extracted value, a stored parse and a truth become
  (`Kind.value`, `Kind.truth_key`, `Kind.stored_extraction`);
- **matching**: how a value is compared with the truth (`Kind.correct`), which normalizers
  apply (`Kind.compares_text`), and how two labellings' values are compared (`Kind.agreement_key`);
- **defaults**: the schemes an audit runs (`Kind.default_schemes`), the normalizer, the choice set;
- **display**: how a value is written in reports (`Kind.display`, `Kind.value_dtype`).

Value typing at a glance (each kind's docstring says why):

==========  ===================  =========  ===========  ===========
input       freeform, number     choice     json value   json truth
==========  ===================  =========  ===========  ===========
``"3.0"``   ``"3.0"``            ``"3.0"``  ``3``        ``3``
``" 3 "``   ``" 3 "``            ``"c"``    ``3``        ``3``
``3.5``     ``"3.5"``            ``"3.5"``  ``None``     ``"3.5"``
``""``      ``None``             ``None``   ``None``     ``None``
``None``    ``None``             ``None``   ``None``     ``None``
==========  ===================  =========  ===========  ===========

(Truths are text in the table: the ``3.5`` row of the last column is the truth ``"3.5"``.)
The canonical table keeps what a parser extracted as text (``value`` column); typing applies
where a value is compared with a truth or reported per row (`answer_audit.schemes.labels`).
Code elsewhere names a kind by its name (``"choice"``, as in the JSON reports and
``--kind``) and looks the object up here: ``KINDS["choice"]`` or `get_kind`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import ClassVar, Literal

import polars as pl

from answer_audit.extraction import Extraction
from answer_audit.matching import NORMALIZERS, is_correct, normalize
from answer_audit.parsers import BUILTIN, NumberPreset, Parser, PresetError, get_parser
from answer_audit.parsers.choice import DEFAULT_CHOICES
from answer_audit.parsers.number_statement import StatementNumberPreset
from answer_audit.parsers.presets.recommended import RECOMMENDED
from answer_audit.schemes.columns import extractions_frame, map_unique
from answer_audit.schemes.scheme import STORED, Scheme

# The engines of numeric presets (number/v1's and number/v2's): the number kind's defaults.
NUMBER_ENGINES = (NumberPreset, StatementNumberPreset)
KindName = Literal["freeform", "choice", "json", "number"]
Value = str | int | None  # a typed value: text, a choice letter, or a JSON integer


class Kind:
    """What one kind of answer is: how its values are typed, matched, defaulted and shown.

    One instance per kind, in `KINDS`; compare kinds by ``name``. Subclasses override the
    typing and matching methods; the class attributes below are the kind's fixed facts.
    """

    name: ClassVar[KindName]
    family: ClassVar[str]
    """The parser family whose presets label this kind (`check_scheme` refuses others)."""
    compares_text: ClassVar[bool]
    """Values are free text judged by the scheme's matcher (``:v1``, ``:v2``, ``:v3``,
    ``:numeric``); False: they are keys compared as they are, and a normalizer is refused."""
    closed_values: ClassVar[bool]
    """Values come from a small closed set (letters, integers): a value confusion matrix of
    two labellings means something."""
    json_field: ClassVar[bool] = False
    """Values are a JSON object's field: incidence groups the rules into field categories."""
    default_normalizer: ClassVar[str] = "v1"
    """The normalizer (and matcher) used when none is named."""
    default_choices: ClassVar[str | None] = None
    """The choice letters a preset reads when none are given; None: choices do not apply."""
    value_dtype: ClassVar[type[pl.DataType]] = pl.String
    """The column type of typed values in per-row output (rescore's ``extracted``)."""

    def __repr__(self) -> str:
        return f"KINDS[{self.name!r}]"

    def __str__(self) -> str:
        return self.name

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return get_kind, (self.name,)  # unpickled in a worker process: the same registry object

    # ---------------------------------------------------------------- value typing

    def value(self, raw: object) -> Value:
        """An extracted value, a stored parse or a table cell as the matcher compares it."""
        raise NotImplementedError

    def truth_key(self, truth: str | None) -> Value:
        """What a truth becomes for comparison (None: the row has no truth this kind judges)."""
        raise NotImplementedError

    def truth_class(self, truth: str | None) -> str | None:
        """The truth as a class name in per-class reports (the text of `truth_key`)."""
        key = self.truth_key(truth)
        return None if key is None else str(key)

    def stored_extraction(self, parsed: str | None) -> Extraction:
        """The stored parse as an Extraction: rule ``stored``, or ``stored-missing`` (None)."""
        return Extraction(None, "stored-missing") if parsed is None else Extraction(parsed, STORED)

    def stored_column(self, frame: pl.DataFrame) -> pl.DataFrame:
        """`stored_extraction` of every row's ``parsed`` cell, as extraction columns."""
        return frame.select(
            pl.col("parsed").alias("value"),
            pl.when(pl.col("parsed").is_null()).then(pl.lit("stored-missing"))
            .otherwise(pl.lit(STORED)).alias("rule"),
            pl.lit(None, dtype=pl.Int64).alias("span_start"),
            pl.lit(None, dtype=pl.Int64).alias("span_end"),
        )  # fmt: skip

    # ---------------------------------------------------------------- matching

    def correct(self, value: object, truth: str | None, normalizer: str = "v1") -> bool | None:
        """Whether ``value`` matches ``truth``: None when there is no truth, False for no value."""
        key = self.truth_key(truth)
        if key is None:
            return None
        typed = self.value(value)
        return False if typed is None else typed == key

    def agreement_key(self, value: Value, normalizer: str = "v1") -> object:
        """What two labellings' values are compared by when asking whether they agree."""
        return value

    def in_value_set(self, key: Value) -> bool:
        """Whether a typed value or truth key is one this kind's answers can be: any text for
        free-form kinds; one of the closed set for the others (a letter, an integer)."""
        return key is not None

    def pick_normalizer(self, normalizer: str | None) -> str:
        """The normalizer to match with: the kind's default when None; one given must exist
        and suit the kind (a normalizer named for letters or integers is a mistake)."""
        if normalizer is None:
            return self.default_normalizer
        if normalizer not in NORMALIZERS:
            raise ValueError(f"unknown normalizer {normalizer!r}; known: {', '.join(NORMALIZERS)}")
        if not self.compares_text:
            raise ValueError(
                f"a normalizer applies to free-form parsers only, not to {self.name} ones"
            )
        return normalizer

    def check_scheme(self, scheme: Scheme, presets: Mapping[str, Parser] | None = None) -> None:
        """Raise PresetError when the scheme's parser does not exist or does not fit this kind,
        or when it names a normalizer this kind's matcher would ignore."""
        if not self.compares_text and scheme.normalizer != "v1":
            raise PresetError(
                f"scheme {scheme.name!r}: a normalizer applies to free-form parsers only, not "
                f"to {self.name} ones ({self.name} values are compared as they are); write "
                f"{scheme.name}={scheme.parser}"
            )
        if scheme.uses_stored_parse:
            return
        preset = get_parser(scheme.parser, presets)
        if preset.family != self.family:
            raise PresetError(
                f"scheme {scheme.name!r} uses {scheme.parser!r} ({preset.family}) on "
                f"{self.name} data; pass --kind {preset.family} or pick a {self.name} preset"
            )

    # ---------------------------------------------------------------- defaults, display

    def default_schemes(self) -> list[Scheme]:
        """The schemes an audit runs when the user names none: every frozen built-in preset of
        the family, the comparison ones (choice/answer-colon-first, choice/letter-boundary)
        included on purpose: how far common conventions move the numbers is what the audit is
        for."""
        return [
            Scheme(name, name, self.default_normalizer)
            for name, preset in sorted(BUILTIN.items())
            if preset.family == self.family
        ]

    def display(self, value: Value) -> str | None:
        """A typed value as reports write it: the text, the letter, the integer's digits."""
        return None if value is None else str(value)


class FreeformKind(Kind):
    """Free-form answers: text judged by the scheme's matcher (is the truth stated in it?).

    Values stay text, untouched (the matcher normalizes): ``"3.0"`` -> ``"3.0"``, ``" 3 "`` ->
    ``" 3 "``, ``3.5`` -> ``"3.5"``; blank (``""``, ``" "``) and None -> None. Truths stay as
    they are too (None stays None); the matcher decides that a blank truth is no truth.
    Matching is `answer_audit.matching.is_correct` with the scheme's normalizer, on the text.
    """

    name: ClassVar[KindName] = "freeform"
    family = "freeform"
    compares_text = True
    closed_values = False

    def value(self, raw: object) -> Value:
        if raw is None:
            return None
        text = str(raw)
        return text if text.strip() else None

    def truth_key(self, truth: str | None) -> Value:
        return truth

    def truth_class(self, truth: str | None) -> str | None:
        return truth

    def correct(self, value: object, truth: str | None, normalizer: str = "v1") -> bool | None:
        # The matcher reads the text as extracted, whitespace included (blank and None agree).
        return is_correct(None if value is None else str(value), truth, normalizer)

    def agreement_key(self, value: Value, normalizer: str = "v1") -> object:
        if isinstance(value, str):
            return normalize(value, normalizer) or None
        return value

    def default_schemes(self) -> list[Scheme]:
        """Parsing alone (freeform/v2, v1 matcher), parsing plus normalizing (v2 matcher),
        normalizing the stored parse alone, and the recommended parser with its matcher
        (freeform/v4 with v5, `RECOMMENDED`): each scheme's distance from the stored labels
        says which step moves the numbers."""
        best = RECOMMENDED["freeform"]
        return [
            Scheme("parse_only", "freeform/v2", "v1"),
            Scheme("parse_norm", "freeform/v2", "v2"),
            Scheme("norm_only", STORED, "v2"),
            Scheme(f"parse_{best.preset.rsplit('/', 1)[-1]}", best.preset, best.matcher),
        ]


class NumberKind(FreeformKind):
    """Numeric answers in free-form outputs: the truth is a number, compared by value.

    Typed like free-form (text; blank and None -> None): the ``numeric`` matcher reads the
    final number of the text (``"3.0"`` equals a truth ``3``). Its presets are the number
    presets, whose family is ``freeform`` (they read free-form outputs), so a preset's own kind
    is never ``number``: this kind is chosen by name (``--kind number``) for its defaults.
    """

    name = "number"
    default_normalizer = "numeric"

    def default_schemes(self) -> list[Scheme]:
        """Every built-in number preset, and the stored parse, with the numeric matcher."""
        presets = [name for name, p in sorted(BUILTIN.items()) if isinstance(p, NUMBER_ENGINES)]
        return [Scheme(name, name, "numeric") for name in presets] + [
            Scheme("stored_numeric", STORED, "numeric")
        ]


class ChoiceKind(Kind):
    """Multiple-choice answers: a lowercase letter, compared as it is.

    Values and truths are typed alike: stripped and lowercased, an option number 1..26 read
    as its letter (``" 3 "`` -> ``"c"``, ``"02"`` -> ``"b"``, ``"B"`` -> ``"b"``); other text
    stays that text (``"3.0"`` -> ``"3.0"``, ``3.5`` -> ``"3.5"``, ``"27"`` -> ``"27"``), which
    equals no letter; blank and None -> None. Presets extract letters, which stay as they are.
    """

    name = "choice"
    family = "choice"
    compares_text = False
    closed_values = True
    default_choices = DEFAULT_CHOICES

    def value(self, raw: object) -> Value:
        return choice_key(None if raw is None else str(raw))

    def truth_key(self, truth: str | None) -> Value:
        return choice_key(truth)

    def in_value_set(self, key: Value) -> bool:
        return isinstance(key, str) and len(key) == 1 and "a" <= key <= "z"


class JsonKind(Kind):
    """A JSON object's integer field (a grade, a score): compared as an integer.

    Values (extracted or stored) are the integer a text spells, else None: ``"3.0"`` -> 3,
    ``" 3 "`` -> 3, ``"1e3"`` -> 1000; ``3.5``, ``"2.7"``, ``"inf"``, ``""`` and None -> None.
    A stored parse with no integer is ``stored-unparseable``. Truths: the same integer when
    there is one; other text stays stripped, lowercased text (``"3.5"`` -> ``"3.5"``), which
    no value equals, so the row is scored and wrong; blank and None -> None (no truth).
    """

    name = "json"
    family = "json"
    compares_text = False
    closed_values = True
    json_field = True
    value_dtype = pl.Int64

    def value(self, raw: object) -> Value:
        if raw is None or isinstance(raw, bool):
            return None
        if isinstance(raw, int):
            return raw
        if isinstance(raw, float):
            return int(raw) if math.isfinite(raw) and raw.is_integer() else None
        return integer_value(str(raw))

    def truth_key(self, truth: str | None) -> Value:
        if truth is None or not truth.strip():
            return None
        text = truth.strip().lower()
        number = integer_value(text)
        return text if number is None else number

    def in_value_set(self, key: Value) -> bool:
        return isinstance(key, int)

    def stored_extraction(self, parsed: str | None) -> Extraction:
        """The stored parse's integer (rule ``stored``), ``stored-unparseable`` when it spells
        none, ``stored-missing`` when there is none."""
        if parsed is None:
            return Extraction(None, "stored-missing")
        number = integer_value(parsed)
        return (
            Extraction(None, "stored-unparseable") if number is None else Extraction(number, STORED)
        )

    def stored_column(self, frame: pl.DataFrame) -> pl.DataFrame:
        return extractions_frame(map_unique(frame["parsed"], self.stored_extraction))


def integer_value(text: str) -> int | None:
    """The integer a text spells (``"3"``, ``" 3 "``, ``"3.0"``, ``"3e0"``); None for anything
    else (``"2.7"``, ``"inf"``, ``""``).

    >>> integer_value("3.0"), integer_value("2.7")
    (3, None)
    """
    try:
        return int(text)
    except ValueError:
        pass
    try:
        number = float(text)
    except ValueError:
        return None
    # Truncating would make "2.7" equal 2; infinities and NaN are no integer at all.
    return int(number) if math.isfinite(number) and number.is_integer() else None


def choice_key(text: str | None) -> str | None:
    """A choice answer as a lowercase letter: option numbers 1..26 read as letters.

    >>> choice_key(" B "), choice_key("2"), choice_key("27"), choice_key(" ")
    ('b', 'b', '27', None)
    """
    if text is None:
        return None
    t = text.strip().lower()
    if not t:
        return None
    # (a decimal too long to be an option number is never read as one: int() refuses
    # more than 4300 digits)
    numbered = t.isdecimal() and len(t.lstrip("0")) <= 2 and 1 <= int(t) <= 26
    return chr(ord("a") + int(t) - 1) if numbered else t


FREEFORM: Kind = FreeformKind()
CHOICE: Kind = ChoiceKind()
JSON: Kind = JsonKind()
NUMBER: Kind = NumberKind()

KINDS: Mapping[str, Kind] = MappingProxyType({k.name: k for k in (FREEFORM, CHOICE, JSON, NUMBER)})
"""Every kind by name, in the order error messages list them."""


def get_kind(kind: Kind | str) -> Kind:
    """The kind object for a kind or its name; ValueError for an unknown name.

    >>> get_kind("json").value("3.0")
    3
    """
    if isinstance(kind, Kind):
        return kind
    found = KINDS.get(kind)
    if found is None:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {kind!r}")
    return found


def parser_kind(parser: Parser) -> Kind:
    """The kind a preset labels: its family's (number presets read free-form outputs, so
    theirs is ``freeform``); PresetError for a family no matcher handles."""
    kind = KINDS.get(parser.family)
    if kind is None or kind.family != parser.family:
        raise PresetError(f"parser {parser.name!r} has family {parser.family!r}; no matcher for it")
    return kind
