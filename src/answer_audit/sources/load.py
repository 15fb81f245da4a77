"""Many input files, one canonical table: read each, canonicalize, stack, and account for it."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import polars as pl

from answer_audit.sources.decode import compression
from answer_audit.sources.files import detect_format, read_table
from answer_audit.sources.frameworks import framework_map, is_framework
from answer_audit.table.canonical import ColumnMap, LoadedTable, canonical_frame, concat_frames
from answer_audit.table.errors import SourceError
from answer_audit.table.lazy import StreamedTable, stream_parquet

PathArg = str | os.PathLike[str]


def load_files(
    paths: PathArg | Iterable[PathArg],
    cmap: ColumnMap,
    *,
    fmt: str = "auto",
    records_key: str | None = None,
    table: str | None = None,
    query: str | None = None,
    skip_bad_lines: bool = False,
    metric: str | None = None,
    scorer: str | None = None,
    separator: str | None = None,
) -> LoadedTable:
    """Read every file and return one canonical table, rows in file then row order.

    `source` is each file's name (its path as given when two files share a name); generated ids
    are row numbers, prefixed "SOURCE:" when there are several files. Framework logs (lm-eval
    samples, inspect_ai logs) map their own columns and group by their own defaults unless
    `cmap.group_by` is given; `metric`/`scorer` pick their stored label. Raises SourceError for
    an unknown column, an unreadable file, or a mapped truth column with no values at all.

    Example: `load_files(["t0.csv", "t1.csv"], ColumnMap(raw="raw_text", truth="answer"))`.
    """
    given = [paths] if isinstance(paths, str | os.PathLike) else list(paths)
    if not given:
        raise SourceError("no input files given")
    sources = _source_names([Path(p) for p in given])
    canonical: list[pl.DataFrame] = []
    originals: list[pl.DataFrame] = []
    files: list[dict[str, Any]] = []
    notes: list[str] = []
    for path, source in zip(given, sources, strict=True):
        frame, stats = read_table(
            path,
            fmt=fmt,
            records_key=records_key,
            table=table,
            query=query,
            skip_bad_lines=skip_bad_lines,
            metric=metric,
            scorer=scorer,
            separator=separator,
        )
        reader_notes = stats.pop("notes", [])
        used = (
            framework_map(stats["format"], cmap, frame, str(path))
            if is_framework(stats["format"])
            else cmap
        )
        labelled = frame.with_columns(pl.lit(source, dtype=pl.String).alias("source"))
        if "source" in frame.columns:
            check_own_source(str(path), used)
            notes.append(_OWN_SOURCE.format(path=path))
        originals.append(frame if "source" in frame.columns else labelled)
        prefix = f"{source}:" if len(given) > 1 else ""
        canonical.append(canonical_frame(labelled, used, where=str(path), id_prefix=prefix))
        files.append({"source": source, **stats})
        notes += _read_notes(str(path), stats) + reader_notes
    notes += _records_key_notes(files)
    result = concat_frames(canonical)
    if result.height == 0:
        raise SourceError(f"no rows to read in the given file(s): {'; '.join(notes)}")
    _check_truth(result, cmap)
    notes += _duplicate_id_notes(result) + null_text_notes(result, cmap)
    return LoadedTable(result, concat_frames(originals), _coverage(result, files), notes)


def stream_files(
    paths: PathArg | Iterable[PathArg], cmap: ColumnMap, *, fmt: str = "auto"
) -> StreamedTable | None:
    """The table `load_files` builds, but with the long text columns left in the files and
    read a slice at a time (`sources.lazy`), when every file is Parquet; None otherwise (or
    when a file is missing: `load_files` then says which). Same rows, ids, notes and coverage.
    """
    given = [Path(paths)] if isinstance(paths, str | os.PathLike) else [Path(p) for p in paths]
    if not given or not all(p.is_file() for p in given):
        return None
    if any((detect_format(p) if fmt == "auto" else fmt) != "parquet" for p in given):
        return None
    if any(compression(p) is not None for p in given):
        return None  # read_table says how to decompress it
    sources = _source_names(given)
    rows, originals = stream_parquet(given, sources, cmap)
    files = [
        {"source": source, "path": str(path), "format": "parquet", "bad_lines_skipped": 0,
         "decode_replacements": 0, "rows": frame.height}
        for path, source, frame in zip(given, sources, originals, strict=True)
    ]  # fmt: skip
    notes = []
    for path, frame in zip(given, originals, strict=True):
        if "source" in frame.columns:
            check_own_source(str(path), cmap)
            notes.append(_OWN_SOURCE.format(path=path))
    _check_truth(rows.small, cmap)
    notes += _duplicate_id_notes(rows.small) + null_text_notes(rows.small, cmap)
    return StreamedTable(rows, _coverage(rows.small, files), notes)


def check_own_source(where: str, cmap: ColumnMap) -> None:
    """A file with its own 'source' column may not map it: that name is the file's name here
    (it would silently read the file name instead of the column)."""
    roles = {role: getattr(cmap, role) for role in
             ("id", "raw", "parsed", "label", "truth", "error", "choices")}  # fmt: skip
    used = [f"--{role}" for role, column in roles.items() if column == "source"]
    if "source" in cmap.group_by:
        used.append("--group-by")
    if used:
        raise SourceError(
            f"{where}: the file has its own 'source' column, but 'source' is the name "
            f"answer-audit gives the input file, so {' and '.join(used)} source cannot mean "
            "that column; rename it in the file (or in a SQLite --query with AS)"
        )


_OWN_SOURCE = (
    "{path}: its own 'source' column is kept in the original table; the canonical 'source' is "
    "the file name"
)


def _source_names(paths: list[Path]) -> list[str]:
    resolved = Counter(p.resolve() for p in paths)
    twice = [str(p) for p in paths if resolved[p.resolve()] > 1]
    if twice:
        raise SourceError(f"{twice[0]}: the same file is given twice; pass each file once")
    names = Counter(p.name for p in paths)
    return [p.name if names[p.name] == 1 else str(p) for p in paths]


def _read_notes(where: str, stats: dict[str, Any]) -> list[str]:
    notes = []
    if stats["bad_lines_skipped"]:
        notes.append(f"{where}: skipped {stats['bad_lines_skipped']} malformed JSONL line(s)")
    if stats["decode_replacements"]:
        notes.append(
            f"{where}: replaced {stats['decode_replacements']} invalid UTF-8 byte sequence(s) "
            "with U+FFFD"
        )
    return notes


def _records_key_notes(files: list[dict[str, Any]]) -> list[str]:
    # One note per key, not per file: four result files under "results" is one fact.
    keys = Counter(f["records_key"] for f in files if f.get("records_key"))
    return [f"records read from the key '{key}' ({n} file(s))" for key, n in keys.items()]


def _check_truth(frame: pl.DataFrame, cmap: ColumnMap) -> None:
    if cmap.truth is not None and frame["truth"].null_count() == frame.height:
        raise SourceError(
            f"truth column '{cmap.truth}' has no values; check --truth / --null-values"
        )


# Spellings of "missing" that tools write as text (pandas, Python's str(None), spreadsheets),
# and cells of an error column that say "no error" in a flag's words.
_NULL_TEXTS = ("None", "none", "null", "NULL", "nan", "NaN", "N/A", "n/a", "NA")
_NO_ERROR_TEXTS = ("0", "0.0", "false", "False", "FALSE", "no", "No", "None", "null")


def null_text_notes(frame: pl.DataFrame, cmap: ColumnMap) -> list[str]:
    """Notes on cells that look missing but are not declared with --null-values: truths
    spelled ``None``/``NaN``/``N/A`` (each would be scored as a truth), and an --error column
    that reads like a flag (``0``/``False``: every non-empty cell counts as an error). Cells
    are compared as --null-values compares them: whole, unstripped."""
    checks = (
        ("truth", cmap.truth, _NULL_TEXTS, "these are scored as truths. If they mean no truth"),
        ("error", cmap.error, _NO_ERROR_TEXTS,
         "every non-empty cell counts as an error. If the column is a flag"),
    )  # fmt: skip
    notes = []
    for role, column, texts, meaning in checks:
        if column is None or role not in frame.columns:
            continue
        seen = {t: n for t in texts if t not in cmap.null_values
                if (n := _count(frame[role], t))}  # fmt: skip
        if not seen:
            continue
        listed = ", ".join(f"'{t}' in {n} rows" for t, n in seen.items())
        # --null-values applies to every column but raw and id: advise it only when it would
        # not also blank a truth, parse or group value
        others = [
            c for c in ("truth", "parsed", *cmap.group_by) if c != role and c in frame.columns
        ]
        clash = next(((t, c) for t in seen for c in others if _count(frame[c], t)), None)
        advice = (
            f"pass --null-values {','.join(seen)}"
            if clash is None
            else f"write the column empty where there is no error (--null-values would also "
            f"blank the '{clash[0]}' cells of {clash[1]})"
        )
        notes.append(f"{role} column '{column}' holds {listed}; {meaning}, {advice}")
    return notes


def _count(column: pl.Series, text: str) -> int:
    return int((column.cast(pl.String, strict=False) == text).sum())


def _duplicate_id_notes(frame: pl.DataFrame) -> list[str]:
    repeated = frame["id"].drop_nulls().is_duplicated()
    if not repeated.any():
        return []
    examples = frame["id"].drop_nulls().filter(repeated).unique(maintain_order=True).head(3)
    return [
        f"{int(repeated.sum())} rows share an id with another row (e.g. "
        f"{', '.join(examples.to_list())}); ids are not unique"
    ]


def _coverage(frame: pl.DataFrame, files: list[dict[str, Any]]) -> dict[str, Any]:
    coverage: dict[str, Any] = {
        "files": files,
        "rows": frame.height,
        "bad_lines_skipped": sum(f["bad_lines_skipped"] for f in files),
        "decode_replacements": sum(f["decode_replacements"] for f in files),
    }
    if "truth" in frame.columns:
        coverage["rows_with_truth"] = frame.height - frame["truth"].null_count()
    if "label" in frame.columns:
        coverage["rows_with_label"] = frame.height - frame["label"].null_count()
    return coverage
