"""Schemes: a parser (a preset, or the stored parse) + a normalizer + the family's matcher.

Applying a scheme to the canonical table gives, per row, the extracted value, the rule that
fired, its span, and the correctness label (None where there is no truth).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Literal

import polars as pl

from answer_audit.extraction import Extraction
from answer_audit.matching import NORMALIZERS, is_correct
from answer_audit.matching import polars as fast
from answer_audit.matching.v3 import required_word
from answer_audit.parsers import (
    BUILTIN,
    ChoicePreset,
    FreeformPreset,
    Parser,
    PresetError,
    freeform_polars,
    get_parser,
)
from answer_audit.parsers.freeform import (
    V3_CUT_KEYWORDS,
    V3_CUTS,
    V3_QUESTIONS,
    AnswerRegionPreset,
)
from answer_audit.parsers.options import parse_options
from answer_audit.schemes.parallel import map_chunks
from answer_audit.text import vectorized
from answer_audit.text.regions import WHITESPACE

Kind = Literal["freeform", "choice", "json"]
KINDS: tuple[Kind, ...] = ("freeform", "choice", "json")
STORED = "stored"
NO_OUTPUT = Extraction(None, "no-output")


@dataclass(frozen=True)
class Scheme:
    """How to label a row: ``parser`` is a preset name or ``"stored"`` (the stored parse)."""

    name: str
    parser: str
    normalizer: str = "v1"

    @property
    def uses_stored_parse(self) -> bool:
        return self.parser == STORED

    def spec(self) -> str:
        return f"{self.name}={self.parser}:{self.normalizer}"


def parse_scheme(text: str) -> Scheme:
    """Parse ``NAME=PARSER[:NORMALIZER]`` (normalizer defaults to v1).

    >>> parse_scheme("strict=freeform/v2:v2")
    Scheme(name='strict', parser='freeform/v2', normalizer='v2')
    """
    m = re.fullmatch(r"\s*([\w.\-]+)\s*=\s*([\w./\-]+)\s*(?::\s*([\w\-]+))?\s*", text)
    if m is None:
        raise ValueError(
            f"--scheme {text!r}: expected NAME=PARSER[:NORMALIZER], e.g. mine=freeform/v2:v2"
        )
    name, parser, normalizer = m.group(1), m.group(2), m.group(3) or "v1"
    if normalizer not in NORMALIZERS:
        raise ValueError(
            f"--scheme {text!r}: unknown normalizer {normalizer!r}; known: {', '.join(NORMALIZERS)}"
        )
    return Scheme(name, parser, normalizer)


CONSISTENCY = Scheme("consistency", STORED, "v1")


def default_schemes(kind: Kind) -> list[Scheme]:
    """The schemes an audit runs when the user names none (see README)."""
    if kind == "freeform":
        return [
            Scheme("parse_only", "freeform/v2", "v1"),
            Scheme("parse_norm", "freeform/v2", "v2"),
            Scheme("norm_only", STORED, "v2"),
            Scheme("parse_v3", "freeform/v3", "v3"),
        ]
    # Every frozen preset of the family, the comparison ones (choice/answer-colon-first,
    # choice/letter-boundary) included on purpose: how far common conventions move the
    # numbers is what the audit is for.
    family = "choice" if kind == "choice" else "json"
    return [Scheme(name, name, "v1") for name, p in sorted(BUILTIN.items()) if p.family == family]


def merge_schemes(base: Sequence[Scheme], extra: Sequence[Scheme]) -> list[Scheme]:
    """``base`` with ``extra`` added; a scheme of the same name replaces the base one."""
    merged = {s.name: s for s in base}
    merged.update({s.name: s for s in extra})
    return list(merged.values())


def check_scheme(scheme: Scheme, kind: Kind, presets: Mapping[str, Parser] | None) -> None:
    """Raise a clear error when a scheme's parser does not exist or does not fit the data kind,
    or when it names a normalizer the kind's matcher would ignore."""
    if kind != "freeform" and scheme.normalizer != "v1":
        raise PresetError(
            f"scheme {scheme.name!r}: a normalizer applies to free-form parsers only, not to "
            f"{kind} ones ({kind} values are compared as they are); write "
            f"{scheme.name}={scheme.parser}"
        )
    if scheme.uses_stored_parse:
        return
    preset = get_parser(scheme.parser, presets)
    if preset.family != kind and not (kind == "freeform" and preset.family == "freeform"):
        raise PresetError(
            f"scheme {scheme.name!r} uses {scheme.parser!r} ({preset.family}) on {kind} data; "
            f"pass --kind {preset.family} or pick a {kind} preset"
        )


def row_by_row(scheme: Scheme, kind: Kind, presets: Mapping[str, Parser] | None) -> bool:
    """Whether the scheme's parser or matcher runs row by row in Python (and so in worker
    processes when there are several), rather than vectorized in Polars."""
    vector_parser = scheme.uses_stored_parse or isinstance(
        get_parser(scheme.parser, presets), FreeformPreset
    )
    vector_matcher = kind == "freeform" and scheme.normalizer in fast.VECTOR_NORMALIZERS
    return not (vector_parser and vector_matcher)


# ------------------------------------------------------------------ labelling


def truth_key(truth: str | None, kind: Kind) -> str | int | None:
    """What an extracted choice/number is compared with: a lowercase letter or an integer."""
    if truth is None:
        return None
    t = truth.strip().lower()
    if not t:
        return None
    if kind == "choice":
        # (a decimal too long to be an option number is never read as one: int() refuses
        # more than 4300 digits)
        numbered = t.isdecimal() and len(t.lstrip("0")) <= 2 and 1 <= int(t) <= 26
        return chr(ord("a") + int(t) - 1) if numbered else t
    if kind == "json":
        number = integer_value(t)
        return t if number is None else number
    return truth


def integer_value(text: str) -> int | None:
    """The integer a text spells ("3", "3.0", "3e0"); None for anything else ("2.7", "inf").

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


def label_value(
    value: str | int | None, truth: str | None, kind: Kind, normalizer: str
) -> bool | None:
    """Correctness of one extracted value against the truth, with the kind's matcher."""
    if kind == "freeform":
        return is_correct(None if value is None else str(value), truth, normalizer)
    key = truth_key(truth, kind)
    if key is None:
        return None
    if value is None:
        return False
    if kind == "choice":
        return truth_key(str(value), kind) == key
    return value == key


def stored_extraction(parsed: str | None, kind: Kind) -> Extraction:
    """The stored parse as an Extraction (rule ``stored``), typed like the kind's values."""
    if parsed is None:
        return Extraction(None, "stored-missing")
    if kind == "json":
        number = integer_value(parsed)
        return (
            Extraction(None, "stored-unparseable") if number is None else Extraction(number, STORED)
        )
    return Extraction(parsed, STORED)


_EXTRACT_SCHEMA = {"value": pl.String, "rule": pl.String, "span_start": pl.Int64,
                   "span_end": pl.Int64}  # fmt: skip
ExtractionCache = dict[str, pl.DataFrame]


def apply_scheme(
    frame: pl.DataFrame,
    scheme: Scheme,
    kind: Kind,
    presets: Mapping[str, Parser] | None = None,
    cache: ExtractionCache | None = None,
    workers: int = 1,
) -> pl.DataFrame:
    """Columns ``value`` (as string), ``rule``, ``span_start``, ``span_end``, ``correct``.

    Free-form presets and matchers run vectorized where that is provably identical (see
    `answer_audit.matching.polars`) and row by row elsewhere: each distinct raw text parsed once, each
    distinct (value, truth) pair matched once, in ``workers`` processes when there are many
    (`answer_audit.schemes.parallel`). ``cache`` (parser -> extractions) lets schemes that share a
    parser extract once.
    """
    if cache is not None and scheme.parser in cache:
        extracted = cache[scheme.parser]
    else:
        extracted = extract_column(frame, scheme.parser, kind, presets, workers)
        if cache is not None:
            cache[scheme.parser] = extracted
    truths = (
        frame["truth"]
        if "truth" in frame.columns
        else pl.Series([None] * frame.height, dtype=pl.String)
    )
    correct = label_column(extracted["value"], truths, kind, scheme.normalizer, workers)
    return extracted.with_columns(correct.alias("correct"))


ERROR_RULE = "error"  # the rule of a row whose error column is non-empty
NO_OUTPUT_RULE = "no-output"  # rescore and diff: a row whose raw output is missing or blank


def mask_error_rows(
    frame: pl.DataFrame, labelled: pl.DataFrame, *, no_output: bool = False
) -> pl.DataFrame:
    """`apply_scheme`'s output with the rows whose ``error`` column is non-empty marked as
    errors: no value, rule ``error``, incorrect (None still when there is no truth). With
    ``no_output``, rows whose raw output is missing or blank are marked the same way with the
    rule ``no-output``. Blank means what `str.strip` removes, as in the row rules."""
    failed = _filled(frame["error"]) if "error" in frame.columns else None
    empty = ~_filled(frame["raw"]) if no_output else None
    if failed is not None and empty is not None:
        empty = empty & ~failed  # an error row is an error, whatever its output
    marks = [(r, n) for r, n in ((empty, NO_OUTPUT_RULE), (failed, ERROR_RULE)) if r is not None]
    marks = [(rows, name) for rows, name in marks if rows.any()]
    if not marks:
        return labelled
    rule, masked = pl.col("rule"), marks[0][0]
    for rows, name in marks:
        rule = pl.when(rows).then(pl.lit(name)).otherwise(rule)
        masked = masked | rows
    return labelled.with_columns(
        pl.when(masked).then(None).otherwise(pl.col("value")).alias("value"),
        rule.alias("rule"),
        pl.when(masked).then(None).otherwise(pl.col("span_start")).alias("span_start"),
        pl.when(masked).then(None).otherwise(pl.col("span_end")).alias("span_end"),
        pl.when(masked & pl.col("correct").is_not_null()).then(pl.lit(False))
        .otherwise(pl.col("correct")).alias("correct"),
    )  # fmt: skip


def _filled(column: pl.Series) -> pl.Series:
    """Cells holding more than whitespace (null: False)."""
    text = column.cast(pl.String).str.strip_chars(WHITESPACE)
    return (text.str.len_chars() > 0).fill_null(False)


def extract_column(
    frame: pl.DataFrame,
    parser: str,
    kind: Kind,
    presets: Mapping[str, Parser] | None = None,
    workers: int = 1,
) -> pl.DataFrame:
    """``value`` (as string), ``rule``, ``span_start``, ``span_end`` for every row."""
    if parser == STORED:
        if "parsed" not in frame.columns:
            raise ValueError(
                "a scheme uses the stored parse, but no parsed column was given (--parsed)"
            )
        if kind != "json":
            return frame.select(
                pl.col("parsed").alias("value"),
                pl.when(pl.col("parsed").is_null()).then(pl.lit("stored-missing"))
                .otherwise(pl.lit(STORED)).alias("rule"),
                pl.lit(None, dtype=pl.Int64).alias("span_start"),
                pl.lit(None, dtype=pl.Int64).alias("span_end"),
            )  # fmt: skip
        return _extractions_frame(
            _map_unique(frame["parsed"], lambda p: stored_extraction(p, kind))
        )
    preset = get_parser(parser, presets)
    if isinstance(preset, FreeformPreset):
        return _freeform_fast(frame, preset)
    if isinstance(preset, ChoicePreset) and "choices" in frame.columns:
        return _extractions_frame(_with_options(frame, preset))
    keywords = _region_keywords(preset)
    if keywords is not None:  # freeform/v3's rules: rows whose region is the text, in Polars
        simple = freeform_polars.answer_region_simple(frame["raw"], keywords)
        if simple.any():
            whole = freeform_polars.answer_region_whole(frame["raw"].filter(simple))
            rest = _extract_rows(preset, frame["raw"].filter(~simple), workers)
            return (
                pl.concat([whole.with_columns(_at=simple.arg_true()),
                           rest.with_columns(_at=(~simple).arg_true())])
                .sort("_at").drop("_at")
            )  # fmt: skip
    return _extract_rows(preset, frame["raw"], workers)


def _extract_rows(preset: Parser, raw: pl.Series, workers: int) -> pl.DataFrame:
    """The preset row by row, each distinct text once, in ``workers`` processes."""
    raws = raw.to_list()
    distinct = list(dict.fromkeys(raws))
    extracted = map_chunks(partial(_extract_many, preset), distinct, workers)
    found = dict(zip(distinct, extracted, strict=True))
    return _extractions_frame([found[raw] for raw in raws])


def _region_keywords(preset: Parser) -> tuple[str, ...] | None:
    """The cut keywords when ``preset`` has `freeform/v3`'s rules exactly (built in, or a preset
    file repeating them), else None: `freeform_polars.answer_region_simple` is proved for those rules."""
    if not isinstance(preset, AnswerRegionPreset) or preset.user_patterns or not preset.unwrap:
        return None
    if (preset.cut_patterns, preset.question_patterns) != (V3_CUTS, V3_QUESTIONS):
        return None
    return V3_CUT_KEYWORDS


def _with_options(frame: pl.DataFrame, preset: ChoicePreset) -> list[Extraction]:
    """Choice extraction that may match the options' texts of each row (``choices`` column)."""
    memo: dict[tuple[str | None, str | None], Extraction] = {}
    out = []
    for raw, options in zip(frame["raw"].to_list(), frame["choices"].to_list(), strict=True):
        key = (raw, options)
        if key not in memo:
            memo[key] = (
                NO_OUTPUT
                if raw is None
                else preset.extract(raw, choices_text=parse_options(options))
            )
        out.append(memo[key])
    return out


def label_column(
    values: pl.Series, truths: pl.Series, kind: Kind, normalizer: str, workers: int = 1
) -> pl.Series:
    """Correctness of each value against its truth with the kind's matcher (None: no truth)."""
    if kind == "freeform" and normalizer in fast.VECTOR_NORMALIZERS:
        return _freeform_labels(values, truths, normalizer)
    absent = _v3_word_absent(values, truths) if normalizer == "v3" and kind == "freeform" else None
    if absent is None or not absent.any():
        return _label_rows(values, truths, kind, normalizer, workers)
    rows = (~absent).arg_true()
    judged = _label_rows(values.gather(rows), truths.gather(rows), kind, normalizer, workers)
    return pl.Series("correct", [False] * values.len(), dtype=pl.Boolean).scatter(rows, judged)


def _label_rows(
    values: pl.Series, truths: pl.Series, kind: Kind, normalizer: str, workers: int
) -> pl.Series:
    """The matcher row by row, once per distinct (value, truth), in ``workers`` processes."""
    pairs = list(zip(values.to_list(), truths.to_list(), strict=True))
    distinct = list(dict.fromkeys(pairs))
    judged = map_chunks(partial(_label_many, kind, normalizer), distinct, workers)
    found = dict(zip(distinct, judged, strict=True))
    return pl.Series("correct", [found[pair] for pair in pairs], dtype=pl.Boolean)


def _v3_word_absent(values: pl.Series, truths: pl.Series) -> pl.Series | None:
    """Rows the v3 matcher labels False without reading them: an ASCII prediction with no
    dotted chain that lacks the truth's `matching_v3.required_word` (see its proof); None
    when no truth has such a word."""
    words = {t: required_word(t) for t in truths.unique().drop_nulls().to_list()}
    if not any(words.values()):
        return None
    lowered = pl.col("value").str.to_lowercase()
    return (
        pl.DataFrame({"value": values, "truth": truths})
        .select(
            pl.col("truth").replace_strict(words, default=None, return_dtype=pl.String)
            .alias("word"),
            lowered.alias("lowered"),
            pl.col("value").str.contains(r"[^\x00-\x7F]").alias("wide"),
        )
        .select(
            (
                pl.col("word").is_not_null() & pl.col("lowered").is_not_null()
                & ~pl.col("wide")
                & ~pl.col("lowered").str.contains(r"[a-z]\.[a-z]")
                & ~pl.col("lowered").str.contains(pl.col("word"), literal=True)
            ).fill_null(False)
        )
        .to_series()
    )  # fmt: skip


def _label_many(
    kind: Kind, normalizer: str, pairs: Sequence[tuple[str | None, str | None]]
) -> list[bool | None]:
    return [label_value(_typed(value, kind), truth, kind, normalizer) for value, truth in pairs]


def _extract_many(preset: Parser, raws: Sequence[str | None]) -> list[Extraction]:
    return [_extract_raw(preset, raw) for raw in raws]


def _typed(value: str | None, kind: Kind) -> str | int | None:
    """Values travel as strings in the table; JSON values compare as integers."""
    if value is None or kind != "json":
        return value
    try:
        return int(value)
    except ValueError:
        return None


def _extract_raw(preset: Parser, raw: str | None) -> Extraction:
    return NO_OUTPUT if raw is None else preset.extract(raw)


def _extractions_frame(extractions: list[Extraction]) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "value": [None if e.value is None else str(e.value) for e in extractions],
            "rule": [e.rule for e in extractions],
            "span_start": [e.span[0] if e.span else None for e in extractions],
            "span_end": [e.span[1] if e.span else None for e in extractions],
        },
        schema=_EXTRACT_SCHEMA,
    )


def _freeform_fast(frame: pl.DataFrame, preset: FreeformPreset) -> pl.DataFrame:
    """The preset vectorized on safe rows, row by row on the rest."""
    raw = frame["raw"]
    ok = frame.select(pl.col("raw").is_not_null() & vectorized.safe(pl.col("raw"))).to_series()
    work = freeform_polars.freeform_extract(raw.filter(ok), preset)
    ok = ok.clone().scatter(ok.arg_true(), ~work["needs_rows"])  # fallback rows leave the fast set
    fast_rows = work.filter(~pl.col("needs_rows")).drop("needs_rows")
    slow = _extractions_frame(_map_unique(raw.filter(~ok), lambda r: _extract_raw(preset, r)))
    result = pl.DataFrame(
        {
            name: pl.Series([None] * frame.height, dtype=dtype)
            for name, dtype in _EXTRACT_SCHEMA.items()
        }
    )
    result = vectorized.scatter(result, ok, fast_rows)
    return vectorized.scatter(result, ~ok, slow)


def _freeform_labels(values: pl.Series, truths: pl.Series, normalizer: str) -> pl.Series:
    """`is_correct` vectorized where exact (see `fast.truth_pattern`), row by row elsewhere."""
    patterns = {
        t: fast.truth_pattern(t, normalizer) for t in truths.unique().drop_nulls().to_list()
    }
    value, lowered = pl.col("value"), pl.col("_lowered")
    work = pl.DataFrame({"value": values, "truth": truths}).with_columns(
        pl.col("truth")
        .replace_strict(patterns, default=None, return_dtype=pl.String)
        .alias("pattern"),
        fast.lowered_expr(value, normalizer).alias("_lowered"),
    )
    work = work.with_columns(
        (fast.needs_rows(value, lowered, normalizer) | ~vectorized.safe(pl.col("truth"))).alias("_slow")
    ).with_columns(
        pl.when(~pl.col("_slow")).then(fast.correct_expr(value, lowered, pl.col("pattern"), normalizer))
        .alias("correct")
    )  # fmt: skip
    slow = work.filter(pl.col("_slow"))
    if slow.height:
        memo: dict[tuple[str | None, str | None], bool | None] = {}
        labels = [
            memo[key]
            if key in memo
            else memo.setdefault(key, is_correct(key[0], key[1], normalizer))
            for key in zip(slow["value"].to_list(), slow["truth"].to_list(), strict=True)
        ]
        work = vectorized.scatter(
            work, work["_slow"], pl.DataFrame({"correct": pl.Series(labels, dtype=pl.Boolean)})
        )
    return work["correct"].cast(pl.Boolean)


def _map_unique(column: pl.Series, fn: Callable[[str | None], Extraction]) -> list[Extraction]:
    """``fn`` over a column, computed once per distinct value."""
    seen: dict[str | None, Extraction] = {}
    return [seen[v] if v in seen else seen.setdefault(v, fn(v)) for v in column.to_list()]
