"""The vectorized free-form path gives exactly the row rules' results, on any text."""

import polars as pl
from hypothesis import example, given, settings
from hypothesis import strategies as st

from answer_audit.matching import is_correct
from answer_audit.parsers.extract import extract
from answer_audit.schemes.apply import apply_scheme
from answer_audit.schemes.scheme import STORED, Scheme

PIECES = st.sampled_from(
    ["</think>", "</THINK>", "USER:", "user:", "\nUser", "Question:", "\n\nquestion", "Passage:",
     "Paris", "paris.", "U.S.", "u.s", "H₂O", "8", "18", " ", "\n", "\t", "\r", "\x1c", "\x0b",
     "a", "(", "*", "`", "é", "İ", "ß", "Σ", "\u2028", ".", "-", "_"]
)  # fmt: skip
TEXT = st.lists(PIECES, max_size=30).map("".join)
TRUTH = st.one_of(
    st.none(), st.sampled_from(["Paris", "8", "U.S.", "H2O", "a", "user", "", "Σ", "it's"]), TEXT
)


def reference(
    raws: list[str | None], truths: list[str | None], parser: str, normalizer: str
) -> pl.DataFrame:
    rows = []
    for raw, truth in zip(raws, truths, strict=True):
        if parser == STORED:
            value, rule, span = raw, "stored" if raw is not None else "stored-missing", None
        elif raw is None:
            value, rule, span = None, "no-output", None
        else:
            e = extract(raw, parser)
            assert not isinstance(e.value, int)  # free-form presets extract text (or None)
            value, rule, span = e.value, e.rule, e.span
        rows.append({
            "value": value, "rule": rule,
            "span_start": span[0] if span else None, "span_end": span[1] if span else None,
            "correct": is_correct(value, truth, normalizer),
        })  # fmt: skip
    return pl.DataFrame(rows, schema={"value": pl.String, "rule": pl.String, "span_start": pl.Int64,
                                      "span_end": pl.Int64, "correct": pl.Boolean})  # fmt: skip


@settings(max_examples=300)
@given(st.lists(st.tuples(st.one_of(st.none(), TEXT), TRUTH), min_size=1, max_size=12))
# v2 makes "_" a gap, which the Rust `\b` does not see (found by this test, 2026-11-22)
@example(rows=[("8_</think>", "8"), ("x_8", "8"), ("_paris_", "Paris"), ("8_", "8")])
def test_vectorized_freeform_equals_row_rules(rows: list[tuple[str | None, str | None]]) -> None:
    raws = [r for r, _ in rows]
    truths = [t for _, t in rows]
    frame = pl.DataFrame(
        {"raw": raws, "parsed": raws, "truth": truths},
        schema={"raw": pl.String, "parsed": pl.String, "truth": pl.String},
    )
    for parser in ("freeform/v1", "freeform/v2", STORED):
        for normalizer in ("v1", "v2"):
            got = apply_scheme(frame, Scheme("s", parser, normalizer), "freeform")
            assert got.to_dicts() == reference(raws, truths, parser, normalizer).to_dicts(), (
                parser,
                normalizer,
            )


# Pieces of answers around what freeform/v3 reacts to: roles, questions, reasoning tags,
# wrappers, every kind of whitespace Python strips (and Rust's \s does not: U+001C-U+001F).
REGION_PIECES = st.sampled_from(
    ["Paris", "the user", "User:", "USER", "AI:", "ai", "Ai ", "Question 2:", "Q:", "q.", "quite",
     "<think>", "</think>", "<", "**", "__", "`", "$", "\\boxed{8}", "\\(", "*", "_", "#", ">",
     " ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1f", "\u00a0", "é", "Context:", "said",
     "8", ".", ":", "x"]
)  # fmt: skip


@given(st.lists(st.one_of(st.none(), st.lists(REGION_PIECES, max_size=12).map("".join)),
                min_size=1, max_size=12))  # fmt: skip
@example(["\x0bAI: hi", " Paris ", "\x1c\x1d", "", None, "q) next", "**Paris**"])
@example(["Paris\nq) next", "Paris\n> AI: more", "Paris\nUser: hi", "8</think>9"])
@example(["\\boxed{8}", " `8` ", "$8$", "__8__", "\x1c8\x1f", "é 8", "\\(8\\)"])
@example(["Paris\nuſer: hi", "Paris\nSYSTEM: x", "Paris\n\u212aontext: x"])
def test_freeform_v3_whole_text_rows_equal_the_row_rules(raws: list[str | None]) -> None:
    from answer_audit.parsers import get_parser
    from answer_audit.schemes.extract import _extract_rows, extract_column

    frame = pl.DataFrame({"raw": raws}, schema={"raw": pl.String})
    rows = _extract_rows(get_parser("freeform/v3"), frame["raw"], workers=1)
    assert extract_column(frame, "freeform/v3", "freeform").equals(rows)
