"""Applying a scheme: a parser (a preset, or the stored parse) + the kind's matcher, per row.

Applying a scheme to the canonical table gives, per row, the extracted value, the rule that
fired, its span, and the correctness label (None where there is no truth). The steps live
beside this module: `scheme` (Scheme and its parsing), `kinds` (value typing and matching per
kind), `extract` (the extraction columns), `correctness` (the ``correct`` column), `columns`
(error rows). Here are the functions the rest of the package calls with a kind or its name
(``"json"``); the other names are re-exported for the same callers.
"""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from answer_audit.extraction import Extraction
from answer_audit.parsers import FreeformPreset, Parser, get_parser
from answer_audit.schemes.columns import ERROR_RULE, NO_OUTPUT, NO_OUTPUT_RULE, mask_error_rows
from answer_audit.schemes.correctness import label_column, vectorized_matcher
from answer_audit.schemes.extract import extract_column
from answer_audit.schemes.kinds import (
    KINDS,
    Kind,
    KindName,
    Value,
    get_kind,
    integer_value,
)
from answer_audit.schemes.scheme import CONSISTENCY, STORED, Scheme, merge_schemes, parse_scheme

__all__ = [
    "CONSISTENCY",
    "ERROR_RULE",
    "KINDS",
    "NO_OUTPUT",
    "NO_OUTPUT_RULE",
    "STORED",
    "ExtractionCache",
    "Kind",
    "KindName",
    "Scheme",
    "Value",
    "apply_scheme",
    "check_scheme",
    "default_schemes",
    "extract_column",
    "integer_value",
    "label_column",
    "label_value",
    "mask_error_rows",
    "merge_schemes",
    "parse_scheme",
    "row_by_row",
    "stored_extraction",
    "truth_key",
]

ExtractionCache = dict[str, pl.DataFrame]  # parser name -> its extraction columns


def apply_scheme(
    frame: pl.DataFrame,
    scheme: Scheme,
    kind: Kind | str,
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
    kind = get_kind(kind)
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


def row_by_row(scheme: Scheme, kind: Kind | str, presets: Mapping[str, Parser] | None) -> bool:
    """Whether the scheme's parser or matcher runs row by row in Python (and so in worker
    processes when there are several), rather than vectorized in Polars."""
    vector_parser = scheme.uses_stored_parse or isinstance(
        get_parser(scheme.parser, presets), FreeformPreset
    )
    return not (vector_parser and vectorized_matcher(kind, scheme.normalizer))


def label_value(
    value: object, truth: str | None, kind: Kind | str, normalizer: str = "v1"
) -> bool | None:
    """Correctness of one extracted value against the truth, with the kind's matcher
    (`Kind.correct`).

    >>> label_value(3, "3.0", "json"), label_value("b", "2", "choice")
    (True, True)
    """
    return get_kind(kind).correct(value, truth, normalizer)


def truth_key(truth: str | None, kind: Kind | str) -> Value:
    """What an extracted value is compared with (`Kind.truth_key`).

    >>> truth_key(" 2 ", "choice"), truth_key("3.0", "json")
    ('b', 3)
    """
    return get_kind(kind).truth_key(truth)


def stored_extraction(parsed: str | None, kind: Kind | str) -> Extraction:
    """The stored parse as an Extraction, typed like the kind's values (`Kind.stored_extraction`)."""
    return get_kind(kind).stored_extraction(parsed)


def default_schemes(kind: Kind | str) -> list[Scheme]:
    """The schemes an audit runs when the user names none (`Kind.default_schemes`)."""
    return get_kind(kind).default_schemes()


def check_scheme(scheme: Scheme, kind: Kind | str, presets: Mapping[str, Parser] | None) -> None:
    """PresetError when the scheme does not fit the data kind (`Kind.check_scheme`)."""
    get_kind(kind).check_scheme(scheme, presets)
