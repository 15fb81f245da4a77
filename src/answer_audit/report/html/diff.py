"""A diff of two labellings as one self-contained HTML page: the Markdown report's facts, drawn,
and each disagreement with both sides' spans highlighted in the raw text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from answer_audit.analysis.diff_result import (
    DiffGroup,
    DiffResult,
    Disagreement,
    PairedAccuracy,
    RulePair,
)
from answer_audit.report.html import charts, environment, mark_spans
from answer_audit.report.html.conclusions import conclusions_context
from answer_audit.report.value_changes import changes_context

ALPHA = 0.05


def render_diff_html(d: DiffResult, *, generated_at: str = "", max_rows: int = 50) -> str:
    """The diff report as one HTML page; the first ``max_rows`` disagreements are shown.

    Deterministic: the same result and ``generated_at`` give the same bytes.

    >>> import polars as pl
    >>> from answer_audit.analysis.diff import diff_labelings
    >>> t = pl.DataFrame({"id": ["1"], "raw": ["Answer: a\\nNo.\\nAnswer: c"], "truth": ["c"]})
    >>> '<mark class="side-b">c</mark>' in render_diff_html(diff_labelings(t, "choice/v1", "choice/v3"))
    True
    """
    context = diff_context(d, generated_at=generated_at, max_rows=max_rows)
    return environment().get_template("diff.html.j2").render(context)


def diff_context(d: DiffResult, *, generated_at: str, max_rows: int) -> dict[str, Any]:
    """Everything the template shows, computed here (the template only lays it out)."""
    ag = d.agreement
    shown = d.disagreements[:max_rows]
    texts = d.raw_texts if len(d.raw_texts) == len(d.disagreements) else [None] * len(shown)
    names = list(d.groups[0].group) if d.groups else []
    return {
        "generated_at": generated_at,
        "a": d.a,
        "b": d.b,
        "family": d.family,
        "align": d.align,
        "n": d.n,
        "agreement": {
            **ag.to_dict(),
            "disagree": ag.n - ag.agree,
            "bar": charts.stacked_bar(
                [
                    ("same value", ag.agree, charts.AGREE),
                    ("different value", ag.n - ag.agree, charts.SIGNIFICANT),
                ],
                width=2 * charts.STACK_WIDTH,
            ),
        },
        "accuracy": _accuracy(d.accuracy),
        "confusion": None
        if d.confusion is None
        else charts.heat_table(d.confusion.labels, d.confusion.matrix),
        "changes": None
        if d.confusion is not None or d.value_changes is None or not d.value_changes.changed
        else changes_context(d.value_changes, "A", "B"),
        "group_by": names,
        "groups": [_group(g) for g in d.groups],
        "rule_pairs": _rule_pairs(d.rule_pairs),
        "disagreements": [_disagreement(k, e, texts[k - 1]) for k, e in enumerate(shown, 1)],
        "disagreements_total": len(d.disagreements),
        "notes": list(d.notes),
        "alpha": ALPHA,
        "percent_axis": charts.axis(charts.percent_scale(), "%"),
        "palette": {
            "a": charts.SIDE_A,
            "b": charts.SIDE_B,
            "agree": charts.AGREE,
            "disagree": charts.SIGNIFICANT,
        },
        "swatch": charts.swatch,
        **conclusions_context(d.conclusions, d.conclusions_hint),
    }


def _pp(fraction: float | None) -> float | None:
    return None if fraction is None else 100 * fraction


def _accuracy(acc: PairedAccuracy | None) -> dict[str, Any] | None:
    if acc is None:
        return None
    return {**acc.to_dict(), "a": 100 * acc.a, "b": 100 * acc.b, "delta": 100 * acc.delta,
            "sig": acc.mcnemar_p < ALPHA}  # fmt: skip


def _group(g: DiffGroup) -> dict[str, Any]:
    ag, acc = g.agreement, g.accuracy
    percent = charts.percent_scale()
    agree = [charts.Bar("same value", _pp(ag.rate), "bar-agree")]
    row = {
        "values": ["—" if v is None else str(v) for v in g.group.values()],
        "n": ag.n,
        "agree": ag.agree,
        "rate": _pp(ag.rate),
        "agree_bar": charts.bars(agree, percent, "agreement"),
    }
    if acc is None:
        return {**row, "a": None, "b": None, "accuracy_bars": None, "delta": None, "p": None}
    pair = [charts.Bar("A", _pp(acc.a), "bar-a"), charts.Bar("B", _pp(acc.b), "bar-b")]
    return {**row, "a": _pp(acc.a), "b": _pp(acc.b),
            "accuracy_bars": charts.bars(pair, percent, "accuracy"), "delta": _pp(acc.delta),
            "p": acc.mcnemar_p}  # fmt: skip


def _rule_pairs(pairs: tuple[RulePair, ...]) -> list[dict[str, Any]]:
    total = sum(p.n for p in pairs) or 1
    share = charts.percent_scale()
    return [
        {**p.to_dict(), "share": 100 * p.n / total,
         "bar": charts.bars([charts.Bar("rows", 100 * p.n / total, "bar-disagree")], share,
                            "share of disagreements")}
        for p in pairs
    ]  # fmt: skip


def _disagreement(
    number: int, e: Disagreement, raws: tuple[str | None, str | None] | None
) -> dict[str, Any]:
    a, b = e.a, e.b
    view: dict[str, Any] = {"id": e.id, "truth": e.truth, "a": a, "b": b, "number": number,
                            "texts": [], "ids_differ": a.id != b.id}  # fmt: skip
    if raws is None:  # a result built without raw texts: the snippets, unmarked
        view["snippets"] = [("A", a.snippet), ("B", b.snippet)]
        return view
    raw_a, raw_b = raws
    if raw_a == raw_b:
        text = raw_a or ""
        spans = {"a": a.span, "b": b.span}
        view["texts"] = [{"title": "Raw output", "chars": len(text), "spans": _said(spans),
                          "view": mark_spans(text, spans)}]  # fmt: skip
    else:
        view["texts"] = [
            {"title": f"Raw output {name.upper()}", "chars": len(raw or ""),
             "spans": _said({name: side.span}), "view": mark_spans(raw or "", {name: side.span})}
            for name, side, raw in (("a", a, raw_a), ("b", b, raw_b))
        ]  # fmt: skip
    view["snippets"] = []
    return view


def _said(spans: Mapping[str, Any]) -> str:
    """Which sides have a span here: ``"A's and B's spans highlighted"``, or what is missing."""
    marked = [name.upper() for name, span in spans.items() if span is not None]
    if not marked:
        return "no span in the raw text"
    what = " and ".join(f"{m}'s" for m in marked) + (" span" if len(marked) == 1 else " spans")
    missing = [name.upper() for name, span in spans.items() if span is None]
    tail = f"; {missing[0]} has no span (a stored parse or nothing found)" if missing else ""
    return f"{what} highlighted{tail}"
