"""Many input files, one canonical table: read each, canonicalize, stack, and account for it."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import polars as pl

from answer_audit.sources.csvfmt import checked_separator
from answer_audit.sources.decode import compression
from answer_audit.sources.files import detect_format, read_table
from answer_audit.sources.frameworks import framework_map, is_framework
from answer_audit.sources.sniff import records_inside
from answer_audit.sources.streamed_text import stream_csv, stream_jsonl
from answer_audit.table.canonical import (
    ColumnMap,
    LoadedTable,
    canonical_frame,
    check_map,
    concat_frames,
)
from answer_audit.table.errors import MissingColumn, SourceError
from answer_audit.table.lazy import (
    InputRows,
    StreamedFile,
    StreamedRows,
    StreamedTable,
    parquet_file,
)

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
        with _records_hint([Path(path)] if stats["format"] == "jsonl" else []):
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
    paths: PathArg | Iterable[PathArg],
    cmap: ColumnMap,
    *,
    fmt: str = "auto",
    skip_bad_lines: bool = False,
    separator: str | None = None,
) -> StreamedTable | None:
    """The table `load_files` builds, but with the long text columns left in the files and
    read a slice at a time (`table.lazy`), when every file is Parquet, CSV/TSV or JSON Lines
    (plain or compressed); None otherwise, or when a file is one only a whole read may read
    (a missing file, a pipe, quotes outside RFC 4180: `load_files` then reads it, or says what
    is wrong). Same rows, ids, notes and coverage. ``rows.close()`` when done: it removes the
    decompressed copies of compressed files.

    Example: `stream_files(["runs.csv.gz"], ColumnMap(raw="raw", truth="answer"))`.
    """
    given = [Path(paths)] if isinstance(paths, str | os.PathLike) else [Path(p) for p in paths]
    if not given or not all(p.is_file() for p in given):
        return None
    kinds = [_streamed_format(p, fmt, separator) for p in given]
    if None in kinds:
        return None
    sep = checked_separator(separator)
    stack = ExitStack()
    try:
        with _records_hint([p for p, k in zip(given, kinds, strict=True) if k == "jsonl"]):
            files = _stream_each(given, [str(k) for k in kinds], cmap, skip_bad_lines, sep, stack)
            table = None if files is None else _streamed_table(given, files, cmap, stack)
    except BaseException:
        stack.close()
        raise
    if table is None:
        stack.close()
    return table


_STREAMED = ("parquet", "csv", "jsonl")


@contextmanager
def _records_hint(jsonl: list[Path]) -> Iterator[None]:
    """A missing column that the records listed on a JSON Lines file's first line hold: the
    message adds how to read the file as the one JSON document it is (`records_inside`)."""
    try:
        yield
    except MissingColumn as exc:
        for path in jsonl:
            hint = records_inside(path, exc.column)
            if hint is not None:
                raise MissingColumn(f"{exc}{hint}", exc.column, exc.role) from None
        raise


def _streamed_format(path: Path, fmt: str, separator: str | None) -> str | None:
    """The format of a file a streamed read reads, or None (read whole: the whole read also
    refuses a --separator given for another format, and a compressed Parquet file)."""
    kind = detect_format(path) if fmt == "auto" else {"ndjson": "jsonl"}.get(fmt, fmt)
    if kind not in _STREAMED or (separator is not None and kind != "csv"):
        return None
    if kind == "parquet" and compression(path) is not None:
        return None
    return kind


def _stream_each(
    paths: list[Path],
    kinds: list[str],
    cmap: ColumnMap,
    skip_bad_lines: bool,
    separator: str | None,
    stack: ExitStack,
) -> list[StreamedFile] | None:
    """Each file's streamed read, rows numbered on from the file before; None when one
    cannot be streamed."""
    files: list[StreamedFile] = []
    start = 0
    for path, kind in zip(paths, kinds, strict=True):
        found: StreamedFile | None
        if kind == "parquet":
            found = parquet_file(path, cmap, start)
        elif kind == "csv":
            found = stream_csv(path, cmap, start, separator, stack)
        else:
            found = stream_jsonl(path, cmap, start, skip_bad_lines, stack)
        if found is None:
            return None
        files.append(found)
        start += found.part.height
    return files


def _streamed_table(
    paths: list[Path], streamed: list[StreamedFile], cmap: ColumnMap, stack: ExitStack
) -> StreamedTable:
    """The files' rows as one streamed table, checked and noted as `load_files` does."""
    sources = _source_names(paths)
    smalls: list[pl.DataFrame] = []
    files: list[dict[str, Any]] = []
    notes: list[str] = []
    labels: list[str | None] = []  # the source each file's input rows get (None: its own)
    for path, source, found in zip(paths, sources, streamed, strict=True):
        stats = dict(found.stats)
        reader_notes = stats.pop("notes", [])
        named = pl.Series("source", [source], dtype=pl.String).new_from_index(0, found.part.height)
        labelled = found.frame.with_columns(named) if found.frame.width else named.to_frame()
        own = "source" in found.columns
        labels.append(None if own else source)
        if own:
            check_own_source(str(path), cmap)
            notes.append(_OWN_SOURCE.format(path=path))
        check_map([*found.columns, *([] if own else ["source"])], cmap, str(path))
        prefix = f"{source}:" if len(paths) > 1 else ""
        smalls.append(canonical_frame(labelled, cmap, where=str(path), id_prefix=prefix,
                                      texts=False))  # fmt: skip
        files.append({"source": source, **stats})
        notes += _read_notes(str(path), stats) + reader_notes
    small = concat_frames(smalls)
    _check_truth(small, cmap)
    parts = tuple(f.part for f in streamed)
    rows = StreamedRows(small, parts, cmap, resources=stack)
    notes += _duplicate_id_notes(small) + null_text_notes(small, cmap, _streamed_counts(rows))
    return StreamedTable(rows, _coverage(small, files), notes, InputRows(parts, tuple(labels)))


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
NULL_TEXTS = ("None", "none", "null", "NULL", "nan", "NaN", "N/A", "n/a", "NA")
NO_ERROR_TEXTS = ("0", "0.0", "false", "False", "FALSE", "no", "No", "None", "null")


CellCount = Callable[[str, str], int]


def null_text_notes(
    frame: pl.DataFrame, cmap: ColumnMap, count: CellCount | None = None
) -> list[str]:
    """Notes on cells that look missing but are not declared with --null-values: truths
    spelled ``None``/``NaN``/``N/A`` (each would be scored as a truth), and an --error column
    that reads like a flag (``0``/``False``: every non-empty cell counts as an error). Cells
    are compared as --null-values compares them: whole, unstripped. ``count(column, text)``
    counts a column's cells equal to ``text`` (default: in ``frame``; a streamed table's
    ``parsed`` column is not in it)."""
    count = count or (lambda column, text: _count(frame[column], text))
    checks = (
        ("truth", cmap.truth, NULL_TEXTS, "these are scored as truths. If they mean no truth"),
        ("error", cmap.error, NO_ERROR_TEXTS,
         "every non-empty cell counts as an error. If the column is a flag"),
    )  # fmt: skip
    notes = []
    for role, column, texts, meaning in checks:
        if column is None or role not in frame.columns:
            continue
        seen = {t: n for t in texts if t not in cmap.null_values
                if (n := count(role, t))}  # fmt: skip
        if not seen:
            continue
        listed = ", ".join(f"'{t}' in {n} rows" for t, n in seen.items())
        # --null-values applies to every column but raw and id: advise it only when it would
        # not also blank a truth, parse or group value
        present = {*frame.columns, *(["parsed"] if cmap.parsed is not None else [])}
        others = [c for c in ("truth", "parsed", *cmap.group_by) if c != role and c in present]
        clash = next(((t, c) for t in seen for c in others if count(c, t)), None)
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


_COUNT_SLICE_ROWS = 100_000


def _streamed_counts(rows: StreamedRows) -> CellCount:
    """`null_text_notes`' count over a streamed table: its short columns in memory, its text
    columns read a slice at a time (only when a note needs them: rarely)."""

    def count(column: str, text: str) -> int:
        if column in rows.small.columns:
            return _count(rows.small[column], text)
        return sum(
            _count(rows.slice(start, _COUNT_SLICE_ROWS)[column], text)
            for start in range(0, rows.height, _COUNT_SLICE_ROWS)
        )

    return count


def _duplicate_id_notes(frame: pl.DataFrame) -> list[str]:
    ids = frame["id"].drop_nulls()
    repeated = ids.is_duplicated()
    examples = ids.filter(repeated).unique().sort().head(3).to_list()
    return repeated_id_notes(int(repeated.sum()), examples)


def repeated_id_notes(rows: int, examples: Sequence[str]) -> list[str]:
    """The note on ``rows`` rows that share an id with another row, quoting ``examples`` (the
    smallest such ids, so that the note does not depend on the order or split of the rows)."""
    if not rows:
        return []
    return [
        f"{rows} rows share an id with another row (e.g. {', '.join(examples)}); ids are not unique"
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
