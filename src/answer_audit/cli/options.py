"""Option types shared by several commands (one definition each)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

import typer

from answer_audit.parsers import JsonFieldPreset, Parser
from answer_audit.parsers.choice import validated_choices

Sources = Annotated[
    list[Path] | None,
    typer.Argument(help="Input files: CSV, JSONL, JSON, Parquet, SQLite, lm-eval samples or "
                        "inspect_ai logs (several are concatenated).", show_default=False),
]  # fmt: skip
Fmt = Annotated[
    str,
    typer.Option(
        "--format",
        help="Input format: auto, csv, jsonl, json, parquet, sqlite, lm-eval, inspect.",
    ),
]
Metric = Annotated[
    str | None,
    typer.Option("--metric", help="lm-eval samples: 0/1 metric that is the stored label "
                                  "(default exact_match when present)."),
]  # fmt: skip
Scorer = Annotated[
    str | None,
    typer.Option("--scorer", help="inspect_ai logs: scorer whose value and answer are the "
                                  "stored label and parse (default: the only one)."),
]  # fmt: skip
Records = Annotated[str | None, typer.Option("--records", help="JSON: key of the list of records.")]
SqlTable = Annotated[str | None, typer.Option("--table", help="SQLite: table to read.")]
SqlQuery = Annotated[str | None, typer.Option("--query", help="SQLite: SELECT query to read.")]
SkipBad = Annotated[
    bool,
    typer.Option("--skip-bad-lines", help="JSONL: skip malformed lines (counted in the report)."),
]
Separator = Annotated[
    str | None,
    typer.Option("--separator", help="CSV: the field separator, one character or 'tab' "
                 "(default: found from the first lines: comma, tab or semicolon)."),
]  # fmt: skip
IdCol = Annotated[
    str | None, typer.Option("--id", help="Column with row ids (default: row number).")
]
RawCol = Annotated[str, typer.Option("--raw", help="Column with the raw model output.")]
ParsedCol = Annotated[
    str | None, typer.Option("--parsed", help="Column with the stored parsed answer.")
]
LabelCol = Annotated[
    str | None, typer.Option("--label", help="Column with the stored correctness label.")
]
TruthCol = Annotated[str, typer.Option("--truth", help="Column with the ground truth.")]
ErrorCol = Annotated[
    str | None, typer.Option("--error", help="Column that is non-empty on error rows.")
]
ChoicesCol = Annotated[
    str | None,
    typer.Option("--choices-col", help="Column with each row's options (list, JSON, or 'a text' lines): "
                 "choice presets that read option text (choice/v4) match it."),
]  # fmt: skip
GroupBy = Annotated[str | None, typer.Option("--group-by", help="Comma-separated group columns.")]
NullValues = Annotated[
    str | None,
    typer.Option("--null-values", help="Comma-separated strings meaning missing, e.g. None,NA."),
]
Presets = Annotated[
    Path | None, typer.Option("--presets", help="TOML file with user presets.", dir_okay=False)
]
Seed = Annotated[int, typer.Option("--seed", min=0, help="Seed for sampling and bootstrap.")]
Workers = Annotated[
    int,
    typer.Option("--workers", min=0, help="Processes for the presets and matchers that run row "
                 "by row, e.g. freeform/v3 and v3 (0: every core, at most 8; same numbers either way)."),
]  # fmt: skip
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or summary table.")]
OutJson = Annotated[Path | None, typer.Option("--out-json", help="Write the JSON report here.")]
OutMd = Annotated[Path | None, typer.Option("--out-md", help="Write the Markdown report here.")]
OutHtml = Annotated[
    Path | None,
    typer.Option("--out-html", help="Write the self-contained HTML report here."),
]


def split_list(value: str | None) -> tuple[str, ...]:
    """``"a, b,,c"`` -> ``("a", "b", "c")``; None -> ``()``."""
    return tuple(v.strip() for v in (value or "").split(",") if v.strip())


def checked_choices(value: str | None) -> str | None:
    """``--choices``: the choice letters, as one word (``abcde``) or separated by commas or
    spaces. Anything else is refused: ``a-e`` would otherwise read as the two letters a, e."""
    if value is None:
        return None
    try:
        return validated_choices(value)
    except ValueError as exc:
        raise typer.BadParameter(str(exc).replace("e.g. abcde", "e.g. --choices abcde")) from None


# Rescore and diff: how to build a parser from flags, and how to match.
Choices = Annotated[
    str | None,
    typer.Option(
        "--choices", help="Choice set for choice presets, e.g. abcde.", callback=checked_choices
    ),
]
Normalizer = Annotated[
    str | None,
    typer.Option("--normalizer", help="Free-form presets: normalizer for matching (default v1)."),
]
JsonField = Annotated[
    str | None, typer.Option("--field", help="--parser json: the JSON field holding the answer.")
]
NullAs = Annotated[
    int | None, typer.Option("--null-as", help="--parser json: the value a JSON null stands for.")
]
Allowed = Annotated[
    str | None,
    typer.Option("--allowed", help="--parser json: inclusive range of valid values, e.g. 0-5."),
]
NoIntegerFallback = Annotated[
    bool,
    typer.Option(
        "--no-integer-fallback",
        help="--parser json: without any JSON, do not fall back to the first integer.",
    ),
]


def parse_allowed(text: str) -> tuple[int, int]:
    """``"0-5"`` -> ``(0, 5)``; also ``-2..3`` and ``-2:3``; ValueError otherwise."""
    m = re.fullmatch(r"\s*([+-]?\d+)\s*(?:-|\.\.|:)\s*([+-]?\d+)\s*", text)
    if m is None:
        raise ValueError(f"--allowed {text!r}: expected LOW-HIGH, e.g. 0-5")
    low, high = int(m.group(1)), int(m.group(2))
    if low > high:
        raise ValueError(f"--allowed {text!r}: LOW is above HIGH")
    return low, high


def adhoc_json_preset(
    field: str | None, null_as: int | None, allowed: str | None, no_fallback: bool
) -> JsonFieldPreset | None:
    """The ad-hoc preset `--parser json --field ...` asks for (None when no JSON flag is set)."""
    if field is None:
        if null_as is not None or allowed is not None or no_fallback:
            raise ValueError("--null-as, --allowed and --no-integer-fallback need --field")
        return None
    bounds = parse_allowed(allowed) if allowed is not None else None
    parts = [f"field={field}"] + ([f"null_as={null_as}"] if null_as is not None else [])
    parts += [f"allowed={bounds[0]}-{bounds[1]}"] if bounds else []
    parts += ["no-integer-fallback"] if no_fallback else []
    name = f"json({', '.join(parts)})"
    return JsonFieldPreset(name, field, null_as, bounds, integer_fallback=not no_fallback)


def resolve_parser(name: str, adhoc: JsonFieldPreset | None) -> str | Parser:
    """A preset name as given, or the ad-hoc JSON preset for `json`."""
    if name != "json":
        return name
    if adhoc is None:
        raise ValueError("`json` needs --field FIELD (and optionally --null-as, --allowed)")
    return adhoc


def check_adhoc_used(adhoc: JsonFieldPreset | None, names: list[str]) -> None:
    """Refuse JSON flags when no side is `json`."""
    if adhoc is not None and "json" not in names:
        raise ValueError("--field, --null-as, --allowed apply to `--parser json` only")
