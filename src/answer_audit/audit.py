"""The parsing-sensitivity audit: flips, per-group deltas with significance, incidence, examples.

Pure: takes the canonical table, returns an AuditResult of plain data; renderers do the I/O.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import polars as pl

from answer_audit.matching import is_correct
from answer_audit.metrics import holm, mcnemar, paired_delta_ci
from answer_audit.parsers import Parser
from answer_audit.schemes import (
    CONSISTENCY,
    Kind,
    Scheme,
    apply_scheme,
    check_scheme,
    default_schemes,
)
from answer_audit.text import strip_think

ROLE_MARKERS = ("user:", "assistant:", "system:", "\nuser", "\nassistant", "\nsystem")
BLOCK_MARKERS = ("passage:", "question:", "article:", "movie title:", "movie plot:")
SNIPPET_HEAD = 300
SNIPPET_TAIL = 200


@dataclass(frozen=True)
class AuditSettings:
    """Everything besides the table that decides an audit's numbers."""

    kind: Kind = "freeform"
    group_by: tuple[str, ...] = ()
    seed: int = 0
    n_boot: int = 1000
    alpha: float = 0.05
    max_examples: int = 30


@dataclass
class AuditResult:
    """Plain data; ``to_dict()`` is the documented JSON report."""

    settings: dict[str, Any]
    coverage: dict[str, Any]
    consistency: dict[str, Any] | None
    schemes: list[dict[str, Any]]
    cells: list[dict[str, Any]]
    markers: dict[str, int]
    think: dict[str, Any]
    rules: dict[str, Any]
    examples: list[dict[str, Any]]
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def audit(
    frame: pl.DataFrame,
    schemes: Sequence[Scheme] | None = None,
    settings: AuditSettings | None = None,
    *,
    presets: Mapping[str, Parser] | None = None,
    source_coverage: Mapping[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
) -> AuditResult:
    """Relabel every row under each scheme and compare with the stored labels.

    ``frame`` is a canonical table (``id, raw, parsed?, label?, truth, <groups>``);
    ``progress`` is called with a short message as each scheme starts.

    >>> import polars as pl
    >>> t = pl.DataFrame({"id": ["1"], "raw": ["Paris.\\nUSER: hi"], "parsed": ["Paris."],
    ...                   "label": [True], "truth": ["Paris"]})
    >>> audit(t).schemes[0]["flips"]
    0
    """
    settings = settings or AuditSettings()
    schemes = list(schemes) if schemes is not None else default_schemes(settings.kind)
    _check_columns(frame, settings)
    for scheme in schemes:
        check_scheme(scheme, settings.kind, presets)

    consistency_labels = (
        apply_scheme(frame, CONSISTENCY, settings.kind) if "parsed" in frame.columns else None
    )
    if "label" in frame.columns:
        stored = frame["label"]
    elif consistency_labels is not None:
        stored = consistency_labels["correct"].alias("label")
    else:
        raise ValueError("the audit needs stored labels (--label) or a stored parse (--parsed)")

    labelled = {}
    for scheme in schemes:
        if progress is not None:
            progress(f"scoring {scheme.name}")
        labelled[scheme.name] = apply_scheme(frame, scheme, settings.kind, presets)
    # A row is scored when it has a truth the matcher accepts and a stored label.
    any_labels = (
        consistency_labels
        if consistency_labels is not None
        else next(iter(labelled.values()), None)
    )
    has_truth = (
        any_labels["correct"].is_not_null()
        if any_labels is not None
        else pl.Series([True] * frame.height)
    )
    scored = has_truth & stored.is_not_null()
    base = frame.with_columns(stored.alias("_stored"), scored.alias("_scored"))
    rows = base.filter(pl.col("_scored"))
    stored_ok = rows["_stored"].to_numpy().astype(bool)
    groups = _group_keys(rows, settings.group_by)

    coverage = _coverage(frame, has_truth, stored, groups, source_coverage)
    consistency = None
    if consistency_labels is not None and "label" in frame.columns:
        derived = consistency_labels.filter(scored)["correct"].to_numpy().astype(bool)
        consistency = {
            "scheme": CONSISTENCY.spec(),
            "n": len(derived),
            "mismatches": int((derived != stored_ok).sum()),
        }

    summaries, cells, flips_by_scheme, rules = [], [], {}, {}
    for scheme in schemes:
        lab = labelled[scheme.name].filter(scored)
        ok = lab["correct"].to_numpy().astype(bool)
        summary, scheme_cells = _compare(scheme, stored_ok, ok, groups, settings)
        summaries.append(summary)
        cells.extend(scheme_cells)
        flips_by_scheme[scheme.name] = np.flatnonzero(ok != stored_ok)
        if not scheme.uses_stored_parse:
            rules[scheme.name] = _rule_counts(lab["rule"], groups, settings.group_by)

    examples = _examples(rows, labelled, scored, flips_by_scheme, schemes, settings)
    return AuditResult(
        settings={**asdict(settings), "schemes": [s.spec() for s in schemes]},
        coverage=coverage,
        consistency=consistency,
        schemes=summaries,
        cells=sorted(cells, key=lambda c: (-abs(c["delta_pp"]), -c["flips"], c["scheme"])),
        markers=_markers(rows),
        think=_think(rows, stored_ok, settings),
        rules=rules,
        examples=examples,
    )


def _check_columns(frame: pl.DataFrame, settings: AuditSettings) -> None:
    missing = [c for c in ("raw", "truth", *settings.group_by) if c not in frame.columns]
    if missing:
        raise ValueError(
            f"the audit table lacks column(s) {', '.join(missing)}; available: {', '.join(frame.columns)}"
        )


def _group_keys(rows: pl.DataFrame, group_by: Sequence[str]) -> list[tuple[Any, ...]]:
    if not group_by:
        return [()] * rows.height
    return list(rows.select(group_by).iter_rows())


def _coverage(
    frame: pl.DataFrame,
    has_truth: pl.Series,
    stored: pl.Series,
    groups: list[tuple[Any, ...]],
    source_coverage: Mapping[str, Any] | None,
) -> dict[str, Any]:
    cov: dict[str, Any] = dict(source_coverage or {})
    cov.update(
        rows=frame.height,
        scored=int((has_truth & stored.is_not_null()).sum()),
        skipped={
            "no_truth": int((~has_truth).sum()),
            "no_stored_label": int((has_truth & stored.is_null()).sum()),
        },
        groups=len(set(groups)),
    )
    return cov


def _compare(
    scheme: Scheme,
    stored_ok: np.ndarray[Any, np.dtype[np.bool_]],
    ok: np.ndarray[Any, np.dtype[np.bool_]],
    groups: list[tuple[Any, ...]],
    settings: AuditSettings,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    overall = _delta(stored_ok, ok, settings)
    index: dict[tuple[Any, ...], list[int]] = {}
    for i, key in enumerate(groups):
        index.setdefault(key, []).append(i)
    cells = []
    for key, idx in sorted(index.items(), key=lambda kv: tuple(map(str, kv[0]))):
        sel = np.asarray(idx)
        cell = _delta(stored_ok[sel], ok[sel], settings)
        cells.append(
            {"scheme": scheme.name, "group": dict(zip(settings.group_by, key, strict=True)), **cell}
        )
    adjusted = holm([c["mcnemar_p"] for c in cells])
    for cell, p in zip(cells, adjusted, strict=True):
        cell["holm_p"] = p
    significant = [c for c in cells if c["holm_p"] is not None and c["holm_p"] < settings.alpha]
    max_abs = max((abs(c["delta_pp"]) for c in cells), default=0.0)
    summary = {
        "name": scheme.name,
        "parser": scheme.parser,
        "normalizer": scheme.normalizer,
        **overall,
        "max_abs_delta_pp": max_abs,
        "significant_groups": len(significant),
        "groups": len(cells),
        "verdict": _verdict(overall, max_abs, significant, len(cells), settings.alpha),
    }
    return summary, cells


def _delta(
    stored_ok: np.ndarray[Any, np.dtype[np.bool_]],
    ok: np.ndarray[Any, np.dtype[np.bool_]],
    settings: AuditSettings,
) -> dict[str, Any]:
    n = len(ok)
    b = int((stored_ok & ~ok).sum())  # stored right, scheme wrong
    c = int((~stored_ok & ok).sum())
    stored_err = (1 - stored_ok.mean()) * 100 if n else 0.0
    err = (1 - ok.mean()) * 100 if n else 0.0
    lo, hi = (
        paired_delta_ci(stored_ok, ok, B=settings.n_boot, seed=settings.seed) if n else (0.0, 0.0)
    )
    return {
        "n": n,
        "flips": b + c,
        "stored_right_scheme_wrong": b,
        "stored_wrong_scheme_right": c,
        "stored_error_pct": float(stored_err),
        "error_pct": float(err),
        "delta_pp": float(err - stored_err),
        "delta_ci": [float(lo), float(hi)],
        "mcnemar_p": float(mcnemar(b, c)),
    }


def _verdict(
    overall: Mapping[str, Any],
    max_abs: float,
    significant: list[dict[str, Any]],
    n_groups: int,
    alpha: float,
) -> str:
    lo, hi = overall["delta_ci"]
    head = (
        f"overall Δ {overall['delta_pp']:+.1f} pp (95% CI {lo:+.1f} to {hi:+.1f}, "
        f"McNemar p={overall['mcnemar_p']:.3g}); max |Δ| {max_abs:.1f} pp over {n_groups} group(s)"
    )
    if not significant:
        return f"{head}; no group significant at {alpha:g} after Holm"
    worst = max(significant, key=lambda c: abs(c["delta_pp"]))
    where = ", ".join(f"{k}={v}" for k, v in worst["group"].items()) or "all rows"
    return (
        f"{head}; {len(significant)} group(s) significant at {alpha:g} after Holm "
        f"(largest: {where}, Δ {worst['delta_pp']:+.1f} pp)"
    )


def _count_any(column: pl.Series, markers: Sequence[str]) -> int:
    lowered = column.fill_null("").str.to_lowercase()
    hit = pl.Series([False] * len(column))
    for marker in markers:
        hit = hit | lowered.str.contains(marker, literal=True)
    return int(hit.sum())


def _markers(rows: pl.DataFrame) -> dict[str, int]:
    parsed = (
        rows["parsed"]
        if "parsed" in rows.columns
        else pl.Series([None] * rows.height, dtype=pl.String)
    )
    return {
        "raw_role": _count_any(rows["raw"], ROLE_MARKERS),
        "raw_block": _count_any(rows["raw"], BLOCK_MARKERS),
        "parsed_role": _count_any(parsed, ROLE_MARKERS),
        "parsed_block": _count_any(parsed, BLOCK_MARKERS),
    }


def _think(
    rows: pl.DataFrame, stored_ok: np.ndarray[Any, np.dtype[np.bool_]], settings: AuditSettings
) -> dict[str, Any]:
    raw = rows["raw"].fill_null("")
    has_think = raw.str.to_lowercase().str.contains("</think>", literal=True).to_numpy()
    idx = np.flatnonzero(has_think)
    if settings.kind != "freeform":
        return {
            "rows": len(idx),
            "post_think_flips": None,
            "stored_right_post_think_wrong": [],
        }
    raws, truths, ids = raw.to_list(), rows["truth"].to_list(), rows["id"].to_list()
    flips = 0
    lost: list[dict[str, Any]] = []
    for i in idx:
        post = bool(is_correct(strip_think(raws[i]), truths[i], "v2"))
        if post != stored_ok[i]:
            flips += 1
            if stored_ok[i] and len(lost) < settings.max_examples:
                lost.append(
                    {"id": ids[i], "truth": truths[i], "post_think": snippet(strip_think(raws[i]))}
                )
    return {"rows": len(idx), "post_think_flips": flips, "stored_right_post_think_wrong": lost}


def _rule_counts(
    rules: pl.Series, groups: list[tuple[Any, ...]], group_by: Sequence[str]
) -> dict[str, Any]:
    overall: dict[str, int] = {}
    per_group: dict[tuple[Any, ...], dict[str, int]] = {}
    for rule, key in zip(rules.to_list(), groups, strict=True):
        overall[rule] = overall.get(rule, 0) + 1
        counts = per_group.setdefault(key, {})
        counts[rule] = counts.get(rule, 0) + 1
    return {
        "overall": dict(sorted(overall.items(), key=lambda kv: (-kv[1], kv[0]))),
        "groups": [
            {"group": dict(zip(group_by, key, strict=True)), "counts": dict(sorted(c.items()))}
            for key, c in sorted(per_group.items(), key=lambda kv: tuple(map(str, kv[0])))
        ],
    }


def _examples(
    rows: pl.DataFrame,
    labelled: Mapping[str, pl.DataFrame],
    scored: pl.Series,
    flips: Mapping[str, np.ndarray[Any, np.dtype[np.intp]]],
    schemes: Sequence[Scheme],
    settings: AuditSettings,
) -> list[dict[str, Any]]:
    pool = [(s.name, int(i)) for s in schemes for i in flips[s.name]]
    if not pool or settings.max_examples <= 0:
        return []
    chosen = random.Random(settings.seed).sample(pool, min(settings.max_examples, len(pool)))
    order = {s.name: k for k, s in enumerate(schemes)}
    chosen.sort(key=lambda p: (order[p[0]], p[1]))
    scored_labels = {name: lab.filter(scored) for name, lab in labelled.items()}
    out = []
    for name, i in chosen:
        row = rows.row(i, named=True)
        lab = scored_labels[name].row(i, named=True)
        raw = row["raw"] or ""
        span = None if lab["span_start"] is None else [lab["span_start"], lab["span_end"]]
        out.append(
            {
                "scheme": name,
                "id": row["id"],
                "group": {g: row[g] for g in settings.group_by},
                "truth": row["truth"],
                "stored_label": bool(row["_stored"]),
                "scheme_label": bool(lab["correct"]),
                "rule": lab["rule"],
                "span": span,
                "raw": raw,
                "raw_head": raw[:SNIPPET_HEAD],
                "raw_tail": raw[-SNIPPET_TAIL:] if len(raw) > SNIPPET_HEAD + SNIPPET_TAIL else "",
                "raw_chars": len(raw),
                "stored_parse": snippet(row.get("parsed")),
                "scheme_parse": snippet(lab["value"]),
            }
        )
    return out


def snippet(text: str | None, limit: int = SNIPPET_HEAD) -> str | None:
    """The text cut to ``limit`` characters with an ellipsis marking the cut."""
    if text is None:
        return None
    return text if len(text) <= limit else text[:limit] + "…"
