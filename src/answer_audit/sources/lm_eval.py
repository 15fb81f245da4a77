"""lm-evaluation-harness sample logs (`--log_samples`): one row per (document, filter).

A line of ``samples_<task>_<date>.jsonl`` holds ``doc_id``, ``doc``, ``target``, ``arguments``,
``resps`` (per request, the model's outputs), ``filtered_resps`` (per request, what the filter
pipeline kept), ``filter``, ``metrics`` (names) and each metric's value as a top-level key.
Rows map to: raw = ``resps[0][0]``, parsed = ``filtered_resps[0]``, truth = ``target``,
label = the chosen metric; groups task (from the file name) and filter.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

import polars as pl

from answer_audit.sources.decode import COMPRESSED_SUFFIXES, DECOMPRESSION_ERRORS, open_text_file
from answer_audit.sources.jsonfmt import json_kind
from answer_audit.table.errors import FormatMismatch, SourceError

DEFAULT_METRIC = "exact_match"
GROUPS = ("task", "filter")
SIGNATURE = ("doc_id", "resps", "filtered_resps")
# `samples_<task>_<date_id>.jsonl`; the harness writes date ids such as 2024-05-13T18-04-25.799797.
_FILE_NAME = re.compile(
    r"^samples_(?P<task>.+)_(?P<date>\d{4}-\d{2}-\d{2}T[\d.\-]+)\.jsonl(?:\.(?:gz|bz2|xz))?$"
)
# GSM8K's target is the whole solution; its exact_match strips everything up to "#### ".
_FINAL_ANSWER = re.compile(r"(?s).*####\s*(?P<answer>\S[^\n]*?)\s*$")
_PEEK_LIMIT = 1 << 24


def looks_like_lm_eval(path: Path) -> bool:
    """Whether the file's first line is a JSON object with lm-eval's sample keys."""
    try:
        with open_text_file(path) as fh:
            first = fh.readline(_PEEK_LIMIT)
            while first and not first.strip():
                first = fh.readline(_PEEK_LIMIT)
        record = json.loads(first.decode("utf-8", errors="replace").lstrip("\ufeff"))
    except (*DECOMPRESSION_ERRORS, SourceError, ValueError, RecursionError):
        return False
    return isinstance(record, dict) and all(key in record for key in SIGNATURE)


def task_from_file_name(path: Path) -> str:
    """``samples_gsm8k_2024-05-13T18-04-25.799797.jsonl`` (or ``.jsonl.gz``) -> ``gsm8k``, else
    the name's stem."""
    found = _FILE_NAME.match(path.name)
    if found is not None:
        return found.group("task")
    stem = Path(path.stem).stem if path.suffix.lower() in COMPRESSED_SUFFIXES else path.stem
    return stem.removeprefix("samples_")


def lm_eval_frame(
    records: Sequence[Mapping[str, Any]], where: Path, *, metric: str | None = None
) -> tuple[pl.DataFrame, dict[str, Any]]:
    """The rows of one samples file and read statistics (with ``notes``).

    Columns: id (``task:doc_id:filter``), doc_id, task, filter, raw, parsed, truth, label (when
    the metric is there), target (as logged), prompt. Loglikelihood rows (multiple-choice tasks
    scored by log-probabilities, no generated text) are left out and counted.

    Example: `lm_eval_frame([json.loads(line) for line in open(p)], Path(p), metric="acc")`.
    """
    task = task_from_file_name(where)
    chosen = _chosen_metric(records, where, metric)
    rows: list[dict[str, Any]] = []
    loglikelihood = 0
    for number, record in enumerate(records, start=1):
        _check_record(record, where, number)
        raw, parsed = _first_output(record["resps"]), _first_output(record["filtered_resps"])
        if isinstance(raw, list) or isinstance(parsed, list):
            loglikelihood += 1
            continue
        rows.append(_row(record, task, raw, parsed, chosen, where, number))
    frame = pl.DataFrame(rows, schema=_schema(chosen is not None))
    frame = frame.with_columns(_truth_expr())
    stats: dict[str, Any] = {"task": task, "metric": chosen, "loglikelihood_rows": loglikelihood}
    stats["notes"] = _notes(frame, records, where, chosen, metric, loglikelihood)
    return frame.drop("_final"), stats


def _check_record(record: Mapping[str, Any], where: Path, number: int) -> None:
    missing = [key for key in SIGNATURE if key not in record]
    if missing:
        found = ", ".join(list(record)[:8]) or "(none)"
        raise FormatMismatch(
            f"{where}:{number}: not an lm-evaluation-harness sample (missing {', '.join(missing)}; "
            f"keys: {found}); for plain JSON Lines use --format jsonl"
        )
    for key in ("resps", "filtered_resps"):
        if not isinstance(record[key], list):
            raise FormatMismatch(
                f"{where}:{number}: '{key}' is {json_kind(record[key])}, not a list; "
                "is this a samples file written by lm_eval --log_samples?"
            )


def _first_output(responses: list[Any]) -> Any:
    """The first request's first output: text, or a [logprob, is_greedy] list, or None."""
    value: Any = responses
    # resps nest one level deeper than filtered_resps; unwrap until a scalar or a pair.
    while isinstance(value, list) and value and not _is_loglikelihood_pair(value):
        value = value[0]
    if isinstance(value, list):
        return value if value else None
    return value if value is None or isinstance(value, str) else str(value)


def _is_loglikelihood_pair(value: list[Any]) -> bool:
    # The harness writes (logprob, is_greedy) tuples, sanitized to strings: ["-1.5", "False"].
    return len(value) == 2 and _is_number(value[0]) and str(value[1]) in ("True", "False")


def _is_number(value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return False
    try:
        float(value)
    except ValueError:
        return False
    return True


def _row(
    record: Mapping[str, Any],
    task: str,
    raw: str | None,
    parsed: str | None,
    metric: str | None,
    where: Path,
    number: int,
) -> dict[str, Any]:
    doc_id, name = record["doc_id"], str(record.get("filter", "none"))
    target = record.get("target")
    row: dict[str, Any] = {
        "id": f"{task}:{doc_id}:{name}",
        "doc_id": str(doc_id),
        "task": task,
        "filter": name,
        "raw": raw,
        "parsed": parsed,
        "target": target if isinstance(target, str) or target is None else json.dumps(target),
        "_truth": _truth_text(target),
        "prompt": _prompt(record.get("arguments")),
    }
    if metric is not None:
        row["label"] = _metric_label(record.get(metric), metric, where, number)
    return row


def _schema(with_label: bool) -> dict[str, pl.DataType]:
    names = ("id", "doc_id", "task", "filter", "raw", "parsed", "target", "_truth", "prompt")
    schema: dict[str, pl.DataType] = {name: pl.String() for name in names}
    if with_label:
        schema["label"] = pl.Boolean()
    return schema


def _truth_text(target: Any) -> str | None:
    if isinstance(target, list):
        # Several acceptable answers (e.g. TriviaQA aliases): the first; noted below.
        target = target[0] if target else None
    if target is None or isinstance(target, str):
        return target
    return json.dumps(target) if isinstance(target, dict) else str(target)


def _truth_expr() -> list[pl.Expr]:
    final = pl.col("_truth").str.extract(_FINAL_ANSWER.pattern, 1)
    return [final.alias("_final"), pl.coalesce(final, pl.col("_truth")).alias("truth")]


def _prompt(arguments: Any) -> str | None:
    """The first request's first argument: the prompt (written as a dict or as a list)."""
    first: Any = arguments
    if isinstance(first, dict):
        first = next(iter(first.values()), None)
    if isinstance(first, list):
        first = first[0] if first else None
    if isinstance(first, dict):
        first = next(iter(first.values()), None)
    elif isinstance(first, list):
        first = first[0] if first else None
    return first if isinstance(first, str) else None


def _chosen_metric(
    records: Sequence[Mapping[str, Any]], where: Path, metric: str | None
) -> str | None:
    if metric is None:
        return DEFAULT_METRIC if any(DEFAULT_METRIC in r for r in records) else None
    if not any(metric in r for r in records):
        found = ", ".join(_metric_names(records)) or "(none)"
        raise SourceError(f"{where}: no metric '{metric}' in the samples; metrics: {found}")
    return metric


def _metric_names(records: Sequence[Mapping[str, Any]]) -> list[str]:
    names: dict[str, None] = {}
    for record in records:
        listed = record.get("metrics")
        if isinstance(listed, list):
            names.update(dict.fromkeys(str(n) for n in listed))
    return list(names)


def _metric_label(value: Any, metric: str, where: Path, number: int) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int | float) and value in (0, 1):
        return bool(value)
    raise SourceError(
        f"{where}:{number}: metric '{metric}' is {value!r}, not 0 or 1, so it cannot be read as "
        "correct/incorrect; pass --metric with a 0/1 metric such as exact_match or acc"
    )


def _notes(
    frame: pl.DataFrame,
    records: Sequence[Mapping[str, Any]],
    where: Path,
    chosen: str | None,
    asked: str | None,
    loglikelihood: int,
) -> list[str]:
    notes = []
    if loglikelihood:
        notes.append(
            f"{where}: left out {loglikelihood} loglikelihood row(s): the model chose among options "
            "by log-probability and generated no text, so there is no answer to re-parse"
        )
    if chosen is None and frame.height:
        metrics = ", ".join(_metric_names(records)) or "none"
        notes.append(
            f"{where}: no '{DEFAULT_METRIC}' metric (metrics: {metrics}); without --metric the "
            "stored label is the stored parse matched by the v1 matcher"
        )
    elif chosen is not None and asked is None:
        notes.append(f"{where}: stored label = metric '{chosen}' (choose another with --metric)")
    finals = frame["_final"].is_not_null().sum() if frame.height else 0
    if finals:
        notes.append(
            f"{where}: truth is the text after '####' of the target in {finals} row(s) "
            "(GSM8K-style solutions), as the task's exact_match reads it"
        )
    several = sum(isinstance(r.get("target"), list) and len(r["target"]) > 1 for r in records)
    if several:
        notes.append(f"{where}: {several} target(s) list several answers; truth is the first")
    return notes + agreement_notes(filter_agreement(frame))


def filter_agreement(frame: pl.DataFrame) -> pl.DataFrame:
    """How every two filters of one task disagree on the same documents.

    ``frame`` needs task, doc_id, filter and parsed (label optional; ``source`` keeps runs
    apart), e.g. a `LoadedTable.original` of lm-eval samples. One row per (source, task, filter
    pair): docs (in both), answers_differ, and with labels labels_differ, a_only_correct,
    b_only_correct.

    Example: `filter_agreement(load_files(paths, ColumnMap(), fmt="lm-eval").original)`.
    """
    keys = [c for c in ("source", "task") if c in frame.columns]
    has_label = "label" in frame.columns
    rows: list[dict[str, Any]] = []
    for key_values, part in frame.group_by(keys, maintain_order=True):
        names = part["filter"].unique(maintain_order=True).to_list()
        for a, b in combinations(names, 2):
            rows.append(
                dict(zip(keys, key_values, strict=True)) | _pair(part, a, b, has_label=has_label)
            )
    return pl.DataFrame(rows)


def _pair(part: pl.DataFrame, a: str, b: str, *, has_label: bool) -> dict[str, Any]:
    cols = ["doc_id", "parsed", *(["label"] if has_label else [])]
    left = part.filter(pl.col("filter") == a).select(cols).unique("doc_id", keep="first")
    right = part.filter(pl.col("filter") == b).select(cols).unique("doc_id", keep="first")
    both = left.join(right, on="doc_id", suffix="_b")
    result: dict[str, Any] = {"filter_a": a, "filter_b": b, "docs": both.height}
    result["answers_differ"] = int(both["parsed"].ne_missing(both["parsed_b"]).sum())
    if has_label:
        la, lb = both["label"].fill_null(False), both["label_b"].fill_null(False)
        result["labels_differ"] = int(both["label"].ne_missing(both["label_b"]).sum())
        result["a_only_correct"] = int((la & ~lb).sum())
        result["b_only_correct"] = int((lb & ~la).sum())
    return result


def agreement_notes(table: pl.DataFrame) -> list[str]:
    """One line per filter pair of `filter_agreement`, e.g. for a report's notes."""
    notes = []
    for row in table.iter_rows(named=True):
        line = (
            f"lm-eval {row['task']}: filters {row['filter_a']} vs {row['filter_b']} on "
            f"{row['docs']} doc(s): stored answers differ on {row['answers_differ']}"
        )
        if "labels_differ" in row:
            line += (
                f", labels on {row['labels_differ']} ({row['filter_a']} alone right "
                f"{row['a_only_correct']}, {row['filter_b']} alone right {row['b_only_correct']})"
            )
        notes.append(line)
    return notes
