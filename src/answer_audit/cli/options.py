"""Option types shared by several commands (one definition each)."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated

import typer

from answer_audit.parsers import JsonFieldPreset, Parser
from answer_audit.parsers.choice import validated_choices
from answer_audit.parsers.jsonfield import ADHOC_JSON_PARSERS

# Help panels: the options of a command grouped by what they are about.
INPUT = "Input"
COLUMNS = "Columns"
PARSING = "Parsing"
STATS = "Statistics"
OUTPUT = "Output"
RUN = "Running"
CONCLUSIONS = "Conclusions"

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
        rich_help_panel=INPUT,
    ),
]
Metric = Annotated[
    str | None,
    typer.Option("--metric", help="lm-eval samples: 0/1 metric that is the stored label "
                                  "(default exact_match when present).", rich_help_panel=INPUT),
]  # fmt: skip
Scorer = Annotated[
    str | None,
    typer.Option("--scorer", help="inspect_ai logs: scorer whose value and answer are the "
                                  "stored label and parse (default: the only one).", rich_help_panel=INPUT),
]  # fmt: skip
Records = Annotated[
    str | None,
    typer.Option("--records", help="JSON: key of the list of records.", rich_help_panel=INPUT),
]
SqlTable = Annotated[
    str | None, typer.Option("--table", help="SQLite: table to read.", rich_help_panel=INPUT)
]
SqlQuery = Annotated[
    str | None, typer.Option("--query", help="SQLite: SELECT query to read.", rich_help_panel=INPUT)
]
SkipBad = Annotated[
    bool,
    typer.Option(
        "--skip-bad-lines",
        help="JSONL: skip malformed lines (counted in the report).",
        rich_help_panel=INPUT,
    ),
]
Separator = Annotated[
    str | None,
    typer.Option("--separator", help="CSV: the field separator, one character or 'tab' "
                 "(default: found from the first lines: comma, tab or semicolon).", rich_help_panel=INPUT),
]  # fmt: skip
IdCol = Annotated[
    str | None,
    typer.Option(
        "--id", help="Column with row ids (default: row number).", rich_help_panel=COLUMNS
    ),
]
RawCol = Annotated[
    str, typer.Option("--raw", help="Column with the raw model output.", rich_help_panel=COLUMNS)
]
ParsedCol = Annotated[
    str | None,
    typer.Option("--parsed", help="Column with the stored parsed answer.", rich_help_panel=COLUMNS),
]
LabelCol = Annotated[
    str | None,
    typer.Option(
        "--label", help="Column with the stored correctness label.", rich_help_panel=COLUMNS
    ),
]
TruthCol = Annotated[
    str, typer.Option("--truth", help="Column with the ground truth.", rich_help_panel=COLUMNS)
]
ErrorCol = Annotated[
    str | None,
    typer.Option(
        "--error", help="Column that is non-empty on error rows.", rich_help_panel=COLUMNS
    ),
]
ChoicesCol = Annotated[
    str | None,
    typer.Option("--choices-col", help="Column with each row's options (list, JSON, or 'a text' lines): "
                 "choice presets that read option text (choice/v4) match it.", rich_help_panel=COLUMNS),
]  # fmt: skip
GroupBy = Annotated[
    str | None,
    typer.Option("--group-by", help="Comma-separated group columns.", rich_help_panel=COLUMNS),
]
NullValues = Annotated[
    str | None,
    typer.Option(
        "--null-values",
        help="Comma-separated strings meaning missing, e.g. None,NA.",
        rich_help_panel=INPUT,
    ),
]
Compare = Annotated[
    str | None,
    typer.Option("--compare", help="Column whose levels are compared (model, condition, filter, source...): "
                 "does each effect and ranking survive re-labelling? The other --group-by columns are strata.",
                 rich_help_panel=CONCLUSIONS, show_default=False),
]  # fmt: skip
Baseline = Annotated[
    str | None,
    typer.Option("--baseline", help="Level of --compare that every other level is compared with "
                 "(default: every pair of levels).", rich_help_panel=CONCLUSIONS, show_default=False),
]  # fmt: skip
Item = Annotated[
    str | None,
    typer.Option("--item", help="Column naming the question, when the levels answer the same ones: "
                 "an item's rows are resampled together (cluster bootstrap).",
                 rich_help_panel=CONCLUSIONS, show_default=False),
]  # fmt: skip
Presets = Annotated[
    Path | None,
    typer.Option(
        "--presets", help="TOML file with user presets.", dir_okay=False, rich_help_panel=PARSING
    ),
]
Seed = Annotated[
    int,
    typer.Option("--seed", min=0, help="Seed for sampling and bootstrap.", rich_help_panel=STATS),
]
Workers = Annotated[
    int,
    typer.Option("--workers", min=0, help="Worker processes: audit labels slices of rows in "
                 "them, rescore and diff run the row-by-row presets and matchers (e.g. freeform/v3, "
                 "v3) there (0: one per core, as many as half the free memory holds at about 400 MB "
                 "each; same numbers either way).", rich_help_panel=RUN),
]  # fmt: skip
Quiet = Annotated[
    bool,
    typer.Option("--quiet", "-q", help="No progress bar or summary table.", rich_help_panel=OUTPUT),
]
Engine = Annotated[
    str,
    typer.Option("--engine", help="Where the command runs: local (this machine) or ray (a Ray "
                 "cluster; Parquet sources and --id only; pip install 'answer-audit[ray]').",
                 rich_help_panel=RUN),
]  # fmt: skip
Address = Annotated[
    str | None,
    typer.Option("--address", help="--engine ray: the cluster's address (e.g. auto or "
                 "ray://head:10001); default: a local Ray, started for the run.", rich_help_panel=RUN),
]  # fmt: skip
OutJson = Annotated[
    Path | None,
    typer.Option("--out-json", help="Write the JSON report here.", rich_help_panel=OUTPUT),
]
OutMd = Annotated[
    Path | None,
    typer.Option("--out-md", help="Write the Markdown report here.", rich_help_panel=OUTPUT),
]
OutDir = Annotated[
    Path | None,
    typer.Option("--out-dir",
                 help="Write every report (Markdown, JSON, HTML) into this folder.", rich_help_panel=OUTPUT),
]  # fmt: skip
OutHtml = Annotated[
    Path | None,
    typer.Option(
        "--out-html", help="Write the self-contained HTML report here.", rich_help_panel=OUTPUT
    ),
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
        "--choices",
        help="Choice set for choice presets, e.g. abcde.",
        callback=checked_choices,
        rich_help_panel=PARSING,
    ),
]
Normalizer = Annotated[
    str | None,
    typer.Option(
        "--normalizer",
        help="Free-form presets: normalizer for matching (default v1).",
        rich_help_panel=PARSING,
    ),
]
JsonField = Annotated[
    str | None,
    typer.Option(
        "--field",
        help="--parser json: the JSON field holding the answer (--parser json/v2: the same, read "
        "by the tolerant reader: trailing commas, single quotes, unquoted keys, comments).",
        rich_help_panel=PARSING,
    ),
]
NullAs = Annotated[
    int | None,
    typer.Option(
        "--null-as",
        help="--parser json: the value a JSON null stands for.",
        rich_help_panel=PARSING,
    ),
]
Allowed = Annotated[
    str | None,
    typer.Option(
        "--allowed",
        help="--parser json: inclusive range of valid values, e.g. 0-5.",
        rich_help_panel=PARSING,
    ),
]
NoIntegerFallback = Annotated[
    bool,
    typer.Option(
        "--no-integer-fallback",
        help="--parser json: without any JSON, do not fall back to the first integer.",
        rich_help_panel=PARSING,
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
    """A preset name as given, or the ad-hoc JSON preset for `json` (and its tolerant version
    for `json/v2`, named ``json/v2(field=...)``)."""
    if name not in ADHOC_JSON_PARSERS:
        return name
    if adhoc is None:
        raise ValueError(f"`{name}` needs --field FIELD (and optionally --null-as, --allowed)")
    if ADHOC_JSON_PARSERS[name]:
        return replace(adhoc, name=name + adhoc.name.removeprefix("json"), tolerant=True)
    return adhoc


def check_adhoc_used(adhoc: JsonFieldPreset | None, names: list[str]) -> None:
    """Refuse JSON flags when no side is `json` or `json/v2`."""
    if adhoc is not None and not set(ADHOC_JSON_PARSERS) & set(names):
        raise ValueError(
            "--field, --null-as, --allowed apply to `--parser json` only (or `json/v2`)"
        )


@dataclass(frozen=True)
class ReportPaths:
    """Where a command writes its reports: only the ones asked for (None: not written)."""

    md: Path | None = None
    json: Path | None = None
    html: Path | None = None

    def all(self) -> tuple[Path | None, Path | None, Path | None]:
        """The three paths, in the order reports are written and announced."""
        return self.md, self.json, self.html


def report_paths(
    stem: str, out_dir: Path | None, md: Path | None, json: Path | None, html: Path | None
) -> ReportPaths:
    """The reports asked for: each `--out-*` path, and with `--out-dir` every report not given
    a path of its own, named ``STEM.md``, ``STEM.json``, ``STEM.html`` in that folder."""
    if out_dir is not None:
        md = md or out_dir / f"{stem}.md"
        json = json or out_dir / f"{stem}.json"
        html = html or out_dir / f"{stem}.html"
    return ReportPaths(md, json, html)


def renamed_option(old: str, old_value: str | None, new: str, new_value: str | None) -> str | None:
    """The value of an option that has a new name: the new spelling wins; the old one still
    works, with a deprecation note on stderr (given both, differently, is an error)."""
    if old_value is None:
        return new_value
    if new_value is not None and new_value != old_value:
        raise ValueError(f"{old} is the old name of {new}: give one of them")
    print(f"note: {old} is deprecated; use {new} (same meaning)", file=sys.stderr)
    return old_value
