"""One entry point from "what the user pointed at" to the canonical table."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from answer_audit.sources import ColumnMap, LoadedTable, SourceError, load_files, load_runs
from answer_audit.sources.frameworks import default_groups
from answer_audit.sources.load import stream_files
from answer_audit.sources.runs import DB_NAME, stream_runs
from answer_audit.table.lazy import StreamedTable

RUN_GROUPS = ("temperature", "variant", "condition")


@dataclass(frozen=True)
class SourceSpec:
    """Where the rows come from: files, or experiment run folders (``runs_dir`` + ``metadata``)."""

    paths: tuple[Path, ...] = ()
    runs_dir: Path | None = None
    metadata: Path | None = None
    conditions: tuple[str, ...] | None = None  # run folders: None keeps every condition
    fmt: str = "auto"
    records_key: str | None = None
    table: str | None = None
    query: str | None = None
    skip_bad_lines: bool = False
    metric: str | None = None
    scorer: str | None = None
    separator: str | None = None  # a CSV file's field separator (found from its lines if None)

    @property
    def inputs(self) -> tuple[Path, ...]:
        """Every path we read (outputs must never be written over these)."""
        extra = tuple(p for p in (self.metadata,) if p is not None)
        # The run databases too: an output path must never land on one of them.
        runs = tuple(sorted(self.runs_dir.rglob(DB_NAME))) if self.runs_dir is not None else ()
        return self.paths + extra + runs


_FILE_OPTIONS = (
    ("records_key", "--records"), ("table", "--table"), ("query", "--query"),
    ("skip_bad_lines", "--skip-bad-lines"), ("metric", "--metric"), ("scorer", "--scorer"),
    ("separator", "--separator"),
)  # fmt: skip


def _given_file_options(spec: SourceSpec) -> list[str]:
    """The flags of the file-reading options ``spec`` sets."""
    return [flag for name, flag in _FILE_OPTIONS if getattr(spec, name) not in (None, False)]


def _check_run_options(spec: SourceSpec) -> None:
    """A file-reading option given with run folders would be ignored: stop instead. (Files
    and run folders together are refused by `load`, with its own message.)"""
    if (spec.runs_dir is None and spec.metadata is None) or spec.paths:
        return
    given = _given_file_options(spec)
    if spec.fmt != "auto":
        given.insert(0, "--format")
    if given:
        raise SourceError(f"{given[0]} applies to input files, not to --runs-dir folders; drop it")


def load(spec: SourceSpec, cmap: ColumnMap) -> tuple[LoadedTable, tuple[str, ...]]:
    """The canonical table and the group columns to use (the map's, or the run or framework
    defaults)."""
    _check_run_options(spec)
    if spec.runs_dir is not None or spec.metadata is not None:
        if spec.paths:
            raise SourceError("give either input files or --runs-dir/--metadata, not both")
        if spec.runs_dir is None or spec.metadata is None:
            raise SourceError("--runs-dir and --metadata go together; pass both")
        loaded = load_runs(spec.runs_dir, spec.metadata, conditions=spec.conditions)
        return loaded, cmap.group_by or RUN_GROUPS
    if not spec.paths:
        raise SourceError("no input: pass one or more files, or --runs-dir DIR --metadata FILE")
    loaded = load_files(
        list(spec.paths),
        cmap,
        fmt=spec.fmt,
        records_key=spec.records_key,
        table=spec.table,
        query=spec.query,
        skip_bad_lines=spec.skip_bad_lines,
        metric=spec.metric,
        scorer=spec.scorer,
        separator=spec.separator,
    )
    formats = [f["format"] for f in loaded.coverage["files"]]
    return loaded, cmap.group_by or default_groups(formats)


# the file-reading options a streamed read of files takes; any other needs the whole read
_STREAMED_OPTIONS = ("--skip-bad-lines", "--separator")


def load_streamed(
    spec: SourceSpec, cmap: ColumnMap
) -> tuple[LoadedTable | StreamedTable, tuple[str, ...]]:
    """`load` for a reader that goes through the rows once, in order, a slice at a time (the
    audit): Parquet, CSV and JSON Lines files and run folders come back as a `StreamedTable`
    whose text columns stay in the inputs (close its rows when done); every other input is
    loaded whole. The rows, notes and coverage are the same; an input the streamed read
    cannot read is read whole, so the error is the whole read's."""
    _check_run_options(spec)
    if spec.runs_dir is not None and spec.metadata is not None and not spec.paths:
        if not Path(spec.metadata).is_file():
            return load(spec, cmap)  # a pipe can be read once: no streamed try before the read
        try:
            runs = stream_runs(spec.runs_dir, spec.metadata, conditions=spec.conditions)
        except SourceError:  # e.g. outputs without a rowid: the whole read says what is wrong
            return load(spec, cmap)
        return runs, cmap.group_by or RUN_GROUPS
    plain = not set(_given_file_options(spec)) - set(_STREAMED_OPTIONS)
    if spec.paths and spec.runs_dir is None and spec.metadata is None and plain:
        try:
            streamed = stream_files(list(spec.paths), cmap, fmt=spec.fmt,
                                    skip_bad_lines=spec.skip_bad_lines, separator=spec.separator)  # fmt: skip
        except SourceError:
            return load(spec, cmap)
        if streamed is not None:
            formats = [f["format"] for f in streamed.coverage["files"]]
            return streamed, cmap.group_by or default_groups(formats)
    return load(spec, cmap)
