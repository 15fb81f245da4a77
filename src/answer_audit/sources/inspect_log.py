"""inspect_ai evaluation logs (`.eval`, `.json`), read with inspect_ai's own reader.

One row per (sample, epoch): raw = ``output.completion``, truth = ``target``, parsed = the
chosen scorer's ``answer``, label = its ``value`` (``C``/``I``, 1/0, true/false); groups task,
model, epoch. inspect_ai is an optional dependency (``answer-audit[inspect]``), imported only
when a log is read.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from answer_audit.sources.decode import DECOMPRESSION_ERRORS, open_text_file
from answer_audit.table.errors import FormatMismatch, SourceError

if TYPE_CHECKING:
    from inspect_ai.log import EvalLog, EvalSample

GROUPS = ("task", "model", "epoch")
INSTALL_HINT = "pip install 'answer-audit[inspect]'"
# inspect's CORRECT / INCORRECT / NOANSWER (counted as 0 by its accuracy); PARTIAL is neither.
_SCORE_WORDS = {"c": True, "i": False, "n": False, "true": True, "false": False, "yes": True,
                "no": False, "1": True, "0": False}  # fmt: skip
_JSON_HEAD = re.compile(rb'^\s*\{\s*"version"\s*:\s*\d+\s*,\s*"status"\s*:')
_SCHEMA = {"id": pl.String, "sample_id": pl.String, "task": pl.String, "model": pl.String,
           "epoch": pl.Int64, "raw": pl.String, "truth": pl.String, "error": pl.String}  # fmt: skip


def looks_like_inspect_json(path: Path) -> bool:
    """Whether a JSON file starts the way inspect_ai writes logs: ``{"version": N, "status":``."""
    try:
        with open_text_file(path) as fh:  # a compressed log is recognized, then refused
            head = fh.read(4096)
    except (*DECOMPRESSION_ERRORS, SourceError):
        return False
    return _JSON_HEAD.match(head.removeprefix(b"\xef\xbb\xbf")) is not None


def read_inspect_log(
    path: Path, *, scorer: str | None = None
) -> tuple[pl.DataFrame, dict[str, Any]]:
    """The samples of one log as rows, and read statistics (with ``notes``).

    Columns: id (``task:sample_id:epoch``), sample_id, task, model, epoch, raw, truth, error,
    then parsed and label from the scorer (``scorer``, or the log's only one). Raises
    SourceError when inspect_ai is missing, the file is not a log, or the scorer is ambiguous.

    Example: `read_inspect_log(Path("logs/run.eval"), scorer="match")`.
    """
    log = _read_log(path)
    samples = list(log.samples or [])
    if not samples:
        raise SourceError(
            f"{path}: the log holds no samples (status '{log.status}'); nothing to read"
        )
    chosen = _chosen_scorer(samples, path, scorer, log.status)
    task, model = log.eval.task, log.eval.model
    rows = [_row(sample, task, model) for sample in samples]
    frame = pl.DataFrame(rows, schema=_SCHEMA)
    notes = [] if log.status == "success" else [f"{path}: the log's status is '{log.status}'"]
    if chosen is not None:
        parsed, labels, unreadable = _score_columns(samples, chosen)
        if labels.null_count() == labels.len() and unreadable:
            raise SourceError(
                f"{path}: no score of '{chosen}' reads as correct/incorrect (values such as "
                f"{unreadable[0]!r}); pick a scorer with C/I, 1/0 or true/false values (--scorer)"
            )
        frame = frame.with_columns(parsed, labels)
        notes.append(f"{path}: stored parse and label from scorer '{chosen}'")
        if unreadable:
            notes.append(
                f"{path}: {len(unreadable)} score(s) of '{chosen}' are neither correct nor "
                f"incorrect (e.g. {unreadable[0]!r}); their label is left empty"
            )
    else:
        notes.append(f"{path}: no scores in the log; there is no stored parse or label")
    several = sum(isinstance(s.target, list) and len(s.target) > 1 for s in samples)
    if several:
        notes.append(f"{path}: {several} sample(s) have several targets; truth is the first")
    errors = frame["error"].is_not_null().sum()
    if errors:
        notes.append(f"{path}: {errors} sample(s) ended with an error")
    stats = {"task": task, "model": model, "scorer": chosen, "notes": notes}
    return frame, stats


def _read_log(path: Path) -> EvalLog:
    try:
        from inspect_ai.log import read_eval_log
    except ImportError:
        raise SourceError(
            f"{path}: reading inspect_ai logs needs inspect_ai: {INSTALL_HINT}"
        ) from None
    try:
        return read_eval_log(str(path))
    # The reader fails in many ways (zip, JSON, pydantic validation); each means "not a log".
    except Exception as exc:
        lines = str(exc).strip().splitlines()
        reason = lines[0] if lines else type(exc).__name__
        raise FormatMismatch(
            f"{path}: not a readable inspect_ai log ({reason}); inspect logs end in .eval or .json"
        ) from exc


def _chosen_scorer(
    samples: list[EvalSample], path: Path, scorer: str | None, status: str
) -> str | None:
    names: dict[str, None] = {}
    for sample in samples:
        names.update(dict.fromkeys(sample.scores or {}))
    if scorer is not None:
        if scorer not in names:
            found = ", ".join(names) or "(none)"
            why = (
                f" (the log's status is '{status}': the run may have stopped before scoring; "
                "drop --scorer to read its outputs without a stored label)"
                if not names and status != "success"
                else ""
            )
            raise SourceError(f"{path}: no scorer '{scorer}' in the log; scorers: {found}{why}")
        return scorer
    if len(names) > 1:
        raise SourceError(
            f"{path}: the log has several scorers ({', '.join(names)}); pass --scorer NAME"
        )
    return next(iter(names), None)


def _row(sample: EvalSample, task: str, model: str) -> dict[str, Any]:
    target = (
        sample.target[0] if isinstance(sample.target, list) and sample.target else sample.target
    )
    return {
        "id": f"{task}:{sample.id}:{sample.epoch}",
        "sample_id": str(sample.id),
        "task": task,
        "model": model,
        "epoch": sample.epoch,
        "raw": sample.output.completion if sample.output is not None else None,
        "truth": target if isinstance(target, str) else None,
        "error": sample.error.message if sample.error is not None else None,
    }


def _score_columns(
    samples: list[EvalSample], scorer: str
) -> tuple[pl.Series, pl.Series, list[object]]:
    answers: list[str | None] = []
    labels: list[bool | None] = []
    unreadable: list[object] = []
    for sample in samples:
        score = (sample.scores or {}).get(scorer)
        answers.append(None if score is None else score.answer)
        label = None if score is None else score_label(score.value)
        if score is not None and label is None:
            unreadable.append(score.value)
        labels.append(label)
    parsed = pl.Series("parsed", answers, dtype=pl.String)
    return parsed, pl.Series("label", labels, dtype=pl.Boolean), unreadable


def score_label(value: object) -> bool | None:
    """A score value as correct/incorrect: C/I/N, true/false, yes/no, 1/0; None otherwise.

    Example: `score_label("C")` is True, `score_label(0.0)` False, `score_label("P")` None.
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float) and not (isinstance(value, float) and math.isnan(value)):
        return bool(value) if value in (0, 1) else None
    if isinstance(value, str):
        return _SCORE_WORDS.get(value.strip().lower())
    return None
