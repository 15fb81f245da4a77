"""A rescore as one self-contained HTML page: the Markdown report's facts, drawn.

Shares the audit report's environment (autoescaping, CSP, base template) and chart helpers.
Beyond the Markdown it draws, per group, the paired-bootstrap interval of the accuracy change
(the audit's method, with the rescore's B, seed and level) and marks groups whose McNemar p
stays under `ALPHA` after Holm, as the audit report does.
"""

from __future__ import annotations

from typing import Any

from answer_audit.analysis.metrics import Bootstrap, Metrics
from answer_audit.analysis.rescore_result import Comparison, RescoreResult, RescoreSettings
from answer_audit.analysis.stats import holm, paired_delta_ci_counts
from answer_audit.report.html import charts, environment
from answer_audit.report.html.conclusions import conclusions_context
from answer_audit.report.markdown.rescore import SIDES, sides, stored_label_text
from answer_audit.report.value_changes import changes_context
from answer_audit.schemes.kinds import KINDS

ALPHA = 0.05


def render_rescore_html(result: RescoreResult, *, generated_at: str = "") -> str:
    """The rescore report as one HTML page (inline CSS and SVG, no scripts, no network).

    Deterministic: the same result and ``generated_at`` give the same bytes.

    >>> import polars as pl
    >>> from answer_audit.analysis.rescore import rescore
    >>> t = pl.DataFrame({"id": ["1"], "raw": ["Answer: b"], "parsed": ["a"], "truth": ["b"]})
    >>> render_rescore_html(rescore(t, "choice/v3", n_boot=10)).startswith("<!DOCTYPE html>")
    True
    """
    context = rescore_context(result, generated_at=generated_at)
    return environment().get_template("rescore.html.j2").render(context)


def rescore_context(result: RescoreResult, *, generated_at: str) -> dict[str, Any]:
    """Everything the template shows, computed here (the template only lays it out)."""
    overall, settings = result.overall, result.settings
    groups = _groups(result)
    delta = charts.delta_scale([g["ci"] for g in groups if g["ci"] is not None])
    for g in groups:
        if g["ci"] is not None:
            g["forest"] = charts.forest_row(g["ci"][0], g["delta"], g["ci"][1], delta, g["sig"])
    label = overall.stored_label
    return {
        "generated_at": generated_at,
        "parser": result.parser,
        "family": result.family,
        "normalizer": result.normalizer,
        "shows_normalizer": KINDS[result.family].compares_text,
        "settings": settings,
        "group_by": list(settings.group_by),
        "level": f"{float(settings.ci):.0%}",
        "alpha": ALPHA,
        "sides": [
            _side(s, m) for s, m in zip(SIDES, (overall.stored, overall.rescored), strict=True)
        ],
        "change": _change(overall, settings),
        "stored_label": None
        if label is None
        else {"text": stored_label_text(label), "alert": bool(label.disagreements)},
        "coverage": _coverage(result),
        "files": list(result.coverage.files),
        "groups": groups,
        "has_forest": any(g["ci"] is not None for g in groups),
        "recall": _recall(result),
        "incidence": _incidence(result),
        "confusion": None
        if result.confusion is None
        else charts.heat_table(result.confusion.labels, result.confusion.matrix),
        "changes": None
        if result.confusion is not None or result.value_changes is None
        else changes_context(result.value_changes, "stored", "rescored"),
        "notes": list(result.notes),
        "delta_axis": charts.axis(delta, "pp"),
        "percent_axis": charts.axis(charts.percent_scale(), "%"),
        "palette": {"stored": charts.STORED, "rescored": charts.SCHEME},
        "swatch": charts.swatch,
        "stored_name": result.stored_name,
        "recorded": label is not None,
        **conclusions_context(result.conclusions, result.conclusions_hint),
    }


def _pp(fraction: float | None) -> float | None:
    return None if fraction is None else 100 * fraction


def _accuracy(metrics: Metrics | None) -> float | None:
    return None if metrics is None else _pp(metrics.accuracy)


def _interval(value: float | None, boot: Bootstrap | None) -> tuple[float, float] | None:
    if value is None or boot is None:
        return None
    lo, hi = boot.ci
    return 100 * lo, 100 * hi


def _accuracy_interval(metrics: Metrics | None) -> tuple[float, float] | None:
    return None if metrics is None else _interval(metrics.accuracy, metrics.bootstrap.accuracy)


def _side(name: str, m: Metrics | None) -> dict[str, Any]:
    if m is None:
        return {"name": name, "missing": True}
    return {
        "name": name,
        "missing": False,
        "n": m.n,
        "accuracy": _pp(m.accuracy),
        "accuracy_ci": _interval(m.accuracy, m.bootstrap.accuracy),
        "balanced": _pp(m.balanced_accuracy),
        "balanced_ci": _interval(m.balanced_accuracy, m.bootstrap.balanced_accuracy),
        "failures": m.failures,
        "errors": m.errors,
    }


def delta_interval(entry: Comparison, settings: RescoreSettings) -> tuple[float, float] | None:
    """Paired-bootstrap interval of the accuracy change in points (rescored − stored), from the
    entry's paired counts, drawn with the rescore's B, seed and level; None without a stored
    side or scored rows."""
    stored, change = entry.stored, entry.change
    if change is None or stored is None or not stored.n or stored.accuracy is None:
        return None
    n = stored.n
    b, c = change.stored_only_correct, change.rescored_only_correct
    both = round(stored.accuracy * n) - b
    lo, hi = paired_delta_ci_counts(both, b, c, n - both - b - c, B=int(settings.bootstrap),
                                    seed=int(settings.seed), ci=float(settings.ci))  # fmt: skip
    # the helper gives the error-rate change; accuracy moves the other way (+ 0.0: no -0.0)
    return -hi + 0.0, -lo + 0.0


def _change(overall: Comparison, settings: RescoreSettings) -> dict[str, Any] | None:
    change = overall.change
    if change is None:
        return None
    p = change.mcnemar_p
    return {
        "delta": 100 * change.accuracy_delta,
        "ci": delta_interval(overall, settings),
        "flips": change.flips,
        "stored_only": change.stored_only_correct,
        "rescored_only": change.rescored_only_correct,
        "p": p,
        "sig": p < ALPHA,
    }


def _coverage(r: RescoreResult) -> list[tuple[str, object]]:
    c, s = r.coverage, r.settings
    rows: list[tuple[str, object]] = [
        ("rows", c.rows),
        ("scored (with a truth)", c.scored),
        ("skipped: no truth", c.no_truth),
        ("groups", c.groups),
        ("parser", f"{r.parser} ({r.family})"),
    ]
    if KINDS[r.family].compares_text:  # choice and JSON values are matched as they are
        rows.append(("normalizer", r.normalizer))
    if s.choices:
        rows.append(("choices", s.choices))
    rows.append(("bootstrap", f"B={s.bootstrap}, seed {s.seed}, {s.ci:.0%} interval"))
    return rows


def _groups(r: RescoreResult) -> list[dict[str, Any]]:
    adjusted = holm([None if g.comparison.change is None else g.comparison.change.mcnemar_p
                     for g in r.groups])  # fmt: skip
    percent = charts.percent_scale()
    out = []
    for g, holm_p in zip(r.groups, adjusted, strict=True):
        c = g.comparison
        stored, new, change = c.stored, c.rescored, c.change
        pair = [
            charts.Bar(s, _accuracy(m), f"bar-{s}", _accuracy_interval(m))
            for s, m in (("stored", stored), ("rescored", new))
        ]
        out.append({
            "values": ["—" if v is None else str(v) for v in g.group.values()],
            "n": new.n,
            "stored": _accuracy(stored),
            "rescored": _pp(new.accuracy),
            "bars": charts.bars(pair, percent, "accuracy"),
            "delta": None if change is None else 100 * change.accuracy_delta,
            "ci": delta_interval(c, r.settings),
            "forest": None,
            "flips": None if change is None else change.flips,
            "p": None if change is None else change.mcnemar_p,
            "holm": holm_p,
            "sig": holm_p is not None and holm_p < ALPHA,
            "failures": new.failures,
            "errors": new.errors,
        })  # fmt: skip
    return out


def _recall(r: RescoreResult) -> list[dict[str, Any]]:
    if not KINDS[r.family].closed_values:  # free text: every truth is its own class
        return []
    recalls = {s: m.per_class_recall for s, m in sides(r.overall)}
    classes = list(dict.fromkeys(c for rec in recalls.values() for c in rec))
    percent = charts.percent_scale()
    rows = []
    for cls in classes:
        cells = {s: rec.get(cls) for s, rec in recalls.items()}
        rates = {s: None if c is None else 100 * c.correct / c.total for s, c in cells.items()}
        pair = [charts.Bar(s, rates.get(s), f"bar-{s}") for s in SIDES if s in recalls]
        rows.append({"class": cls, "cells": [(cells[s], rates[s]) for s in SIDES if s in recalls],
                     "bars": charts.bars(pair, percent, "recall")})  # fmt: skip
    return rows


def _incidence(r: RescoreResult) -> dict[str, Any]:
    inc = r.incidence
    classes = inc.classes
    drawn = KINDS[r.family].closed_values and 0 < len(classes) <= len(charts.PALETTE)
    colours = {c: charts.PALETTE[k % len(charts.PALETTE)] for k, c in enumerate(classes)}
    total = sum(c.n for c in inc.categories) or 1
    rows = []
    for c in inc.categories:
        parts = [(f"truth {k}", c.truth[k], colours[k]) for k in classes]
        rows.append({
            "category": c.category,
            "description": c.description,
            "n": c.n,
            "scored": c.scored,
            "correct": c.correct,
            "share": 100 * c.n / total,
            "truth_counts": [c.truth[k] for k in classes],
            "truth_bar": charts.stacked_bar(parts, width=160) if drawn and c.scored else None,
        })  # fmt: skip
    return {
        "json": inc.by == "json-field",
        "classes": list(classes) if drawn else [],
        "legend": [(k, colours[k]) for k in classes] if drawn else [],
        "rows": rows,
    }
