"""Guard for vectorizing the scoring path: `apply_scheme` equals a plain per-row reference.

For every default free-form scheme, every built-in preset over its own family, and the stored
parse, the columns `apply_scheme` returns (value, rule, span, correct) must equal what a loop
gives that extracts each row with `extract` and labels it with `is_correct` (free-form) or the
documented choice/JSON comparison. Inputs: the golden corpus (each text twice, with different
truths, so per-distinct-value caches are exercised) and rows from `benchmarks/generate.py`.
"""

from __future__ import annotations

import json
import sys
from functools import cache
from typing import Any

import polars as pl
import pytest

from answer_audit import extract, get_parser, is_correct, list_parsers, normalize
from answer_audit.matching import NORMALIZERS
from answer_audit.schemes.apply import apply_scheme, default_schemes
from answer_audit.schemes.kinds import KindName
from answer_audit.schemes.scheme import CONSISTENCY, Scheme
from paths import REPO

ROOT = REPO
sys.path.insert(0, str(ROOT / "benchmarks"))
import generate  # noqa: E402

GENERATED_ROWS = 5_000
# All generated rows where vectorized code runs today (v1/v2 free-form parsing and matching);
# fewer where every row takes the row rules at up to ~0.4 ms, to keep the test near 10 s.
VECTORIZED = ({"stored", "freeform/v1", "freeform/v2"}, {"v1", "v2"})
GENERATED_ROWS_ROW_RULES = 1_000
TRUTHS: dict[KindName, tuple[str | None, ...]] = {
    "freeform": (
        "Paris", "8", "H2O", "U.S.", "William Shakespeare", None, "Washington, D.C.", "1945",
        "the state of war between Germany and the Allied Powers", "", "  ", "a", "CO₂", "東京",
        "b", "12", "Leonardo da Vinci", "u.s.a.", "US", "Washington DC", "x2", "h2o",
    ),
    "choice": ("a", "B", "c", "4", "2", None, "e", " d ", "", "10", "C"),
    "json": ("0", "3", "5", "2.0", None, "-1", "x", "", "4", "1e0"),
}  # fmt: skip
STORED: dict[KindName, tuple[str | None, ...]] = {
    "choice": ("a", "C", "2", None, "zz", "b", " d"),
    "json": ("3", "2.0", None, "abc", "-1", "1e3", "0", "5"),
}


# ------------------------------------------------------------------ reference


def choice_key(text: str | None) -> str | None:
    if text is None or not text.strip():
        return None
    t = text.strip().lower()
    return chr(ord("a") + int(t) - 1) if t.isdigit() and 1 <= int(t) <= 26 else t


def json_key(text: str | None) -> int | str | None:
    if text is None or not text.strip():
        return None
    t = text.strip().lower()
    try:
        return int(float(t))
    except ValueError:
        return t


def reference_value(
    row: dict[str, Any], scheme: Scheme, kind: KindName
) -> tuple[str | int | None, str, tuple[int, int] | None]:
    """(value, rule, span) of one row, extracted on its own."""
    if scheme.uses_stored_parse:
        parsed = row["parsed"]
        if parsed is None:
            return None, "stored-missing", None
        if kind == "json":
            try:
                return int(float(parsed)), "stored", None
            except ValueError:
                return None, "stored-unparseable", None
        return parsed, "stored", None
    if row["raw"] is None:
        return None, "no-output", None
    found = extract(row["raw"], scheme.parser)
    return found.value, found.rule, found.span


def reference_label(
    value: str | int | None, truth: str | None, kind: KindName, normalizer: str
) -> bool | None:
    if kind == "freeform":
        return is_correct(None if value is None else str(value), truth, normalizer)
    key = choice_key(truth) if kind == "choice" else json_key(truth)
    if key is None:
        return None
    if value is None:
        return False
    return choice_key(str(value)) == key if kind == "choice" else value == key


def reference_frame(frame: pl.DataFrame, scheme: Scheme, kind: KindName) -> list[dict[str, Any]]:
    out = []
    for row in frame.iter_rows(named=True):
        value, rule, span = reference_value(row, scheme, kind)
        out.append(
            {
                "value": None if value is None else str(value),
                "rule": rule,
                "span_start": None if span is None else span[0],
                "span_end": None if span is None else span[1],
                "correct": reference_label(value, row["truth"], kind, scheme.normalizer),
            }
        )
    return out


# ------------------------------------------------------------------ corpora


def _cycled(values: tuple[str | None, ...], n: int, shift: int = 0) -> list[str | None]:
    return [values[(i + shift) % len(values)] for i in range(n)]


def _stored(kind: KindName, raws: list[str | None]) -> list[str | None]:
    if kind == "freeform":
        return [None if r is None else extract(r, "freeform/v1").value for r in raws]  # type: ignore[misc]  # free-form values are text
    return _cycled(STORED[kind], len(raws))


@cache
def golden_frame(kind: KindName) -> pl.DataFrame:
    lines = (ROOT / "tests" / "golden" / "inputs.jsonl").read_text(encoding="utf-8").split("\n")
    texts = [json.loads(line)["text"] for line in lines if line.strip()]
    raws: list[str | None] = [*texts, *texts, None, None]  # each text twice; two missing outputs
    truths = _cycled(TRUTHS[kind], len(texts)) + _cycled(TRUTHS[kind], len(texts) + 2, shift=5)
    if kind == "freeform":
        # Every third row: a word of its own text (so many labels are True); in the second copy
        # that word v2-normalized ("U.S." -> "us", "H₂O" -> "h2o"), where v1 and v2 disagree.
        for i, text in enumerate(raws):
            words = (text or "").split()
            if i % 3 == 0 and words:
                word = words[len(words) // 2]
                truths[i] = word if i < len(texts) else normalize(word, "v2")
    return pl.DataFrame(
        {"raw": raws, "parsed": _stored(kind, raws), "truth": truths},
        schema={"raw": pl.String, "parsed": pl.String, "truth": pl.String},
    )


@cache
def generated_frame(kind: KindName) -> pl.DataFrame:
    rows = generate.generate_rows(GENERATED_ROWS, seed=7).select("raw", "parsed", "truth")
    if kind == "freeform":
        return rows
    return rows.with_columns(
        pl.Series("parsed", _stored(kind, rows["raw"].to_list()), dtype=pl.String),
        pl.Series("truth", _cycled(TRUTHS[kind], rows.height), dtype=pl.String),
    )


def cases() -> list[tuple[KindName, Scheme]]:
    found: list[tuple[KindName, Scheme]] = [("freeform", s) for s in default_schemes("freeform")]
    found.append(("freeform", CONSISTENCY))
    for name in list_parsers():
        family: KindName = get_parser(name).family  # type: ignore[assignment]  # built-in families are kinds
        normalizers = ("v1", "v2") if family == "freeform" else ("v1",)
        found += [(family, Scheme(f"{name}:{n}", name, n)) for n in normalizers]
    # The stored parse under every matcher (v3, numeric ...: row rules today, maybe not tomorrow).
    found += [("freeform", Scheme(f"stored:{n}", "stored", n)) for n in NORMALIZERS]
    found += [("choice", Scheme("stored", "stored")), ("json", Scheme("stored", "stored"))]
    unique = {(kind, s.parser, s.normalizer): (kind, s) for kind, s in reversed(found)}
    return list(reversed(unique.values()))  # first spelling of each (kind, parser, normalizer)


CASES = cases()


@pytest.mark.parametrize("corpus", ["golden", "generated"])
@pytest.mark.parametrize(("kind", "scheme"), CASES, ids=[f"{k}-{s.spec()}" for k, s in CASES])
def test_apply_scheme_matches_per_row_reference(
    corpus: str, kind: KindName, scheme: Scheme
) -> None:
    frame = golden_frame(kind) if corpus == "golden" else generated_frame(kind)
    vectorized = kind == "freeform" and scheme.parser in VECTORIZED[0]
    if not (vectorized and scheme.normalizer in VECTORIZED[1]):
        frame = frame.head(GENERATED_ROWS_ROW_RULES)
    got = apply_scheme(frame, scheme, kind).to_dicts()
    want = reference_frame(frame, scheme, kind)
    assert len(got) == len(want)
    diffs = [(i, g, w) for i, (g, w) in enumerate(zip(got, want, strict=True)) if g != w]
    shown = "\n".join(f"row {i}: got {g}\n        want {w}" for i, g, w in diffs[:5])
    assert not diffs, f"{len(diffs)} row(s) differ from the per-row reference:\n{shown}"


def test_cases_cover_every_builtin_preset() -> None:
    assert {s.parser for _, s in CASES} >= set(list_parsers())
    assert {s.name for k, s in CASES if k == "freeform"} >= {
        s.name for s in default_schemes("freeform")
    }
