"""The audit as one self-contained HTML file (inline CSS and SVG, no scripts, no network), and
what every HTML report shares: the Jinja2 environment and the span-marking helpers.

Model text is untrusted: it reaches the page only through Jinja2 autoescaping, and the page
carries a Content-Security-Policy that forbids scripts and remote loads as a second guard.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from answer_audit.analysis.audit import (
    AuditResult,
    FlipExample,
    GroupCell,
    RuleCounts,
    SchemeSummary,
)
from answer_audit.report.html import charts
from answer_audit.report.html.conclusions import conclusions_context
from answer_audit.report.markdown.audit import (
    CELLS_NOTE,
    DELTA_NOTE,
    coverage_rows,
    group_text,
    pct,
    pval,
)
from answer_audit.text.vocabulary import BLOCK_MARKERS, ROLE_MARKERS

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
RAW_LIMIT = 20_000  # characters of raw output shown per example, centred on the span


@cache
def environment() -> Environment:
    """The Jinja2 environment for every HTML report: package templates, autoescaping always on."""
    env = Environment(
        loader=PackageLoader("answer_audit.report.html", "templates"),
        autoescape=select_autoescape(("html", "html.j2"), default_for_string=True, default=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(
        pct=pct, pval=pval, signed=signed, group_text=group_text, breakable=breakable
    )
    env.globals.update(csp=CSP, elided=ELIDED, delta_note=DELTA_NOTE, cells_note=CELLS_NOTE)
    return env


def breakable(text: object) -> Markup:
    """``text`` escaped, with a line-break opportunity after each ``_ - / .`` (long file names).

    >>> breakable("run_1.json<")
    Markup('run_<wbr>1.<wbr>json&lt;')
    """
    return Markup(re.sub(r"([_/.-])(?=.)", r"\1<wbr>", str(escape(str(text)))))


def signed(value: float, digits: int = 2) -> str:
    return f"{value:+.{digits}f}"


def render_audit_html(result: AuditResult, *, generated_at: str = "", max_rows: int = 40) -> str:
    """The full audit report as one HTML page with the same facts as the Markdown report.

    Deterministic: the same result and ``generated_at`` give the same bytes.

    >>> from answer_audit.analysis.audit import audit
    >>> import polars as pl
    >>> t = pl.DataFrame({"id": ["1"], "raw": ["Paris"], "parsed": ["Paris"],
    ...                   "label": [True], "truth": ["Paris"]})
    >>> render_audit_html(audit(t)).startswith("<!DOCTYPE html>")
    True
    """
    context = audit_context(result, max_rows=max_rows, generated_at=generated_at)
    return environment().get_template("audit.html.j2").render(context)


@dataclass(frozen=True)
class RawView:
    """Raw output cut around the span: ``before`` + ``marked`` + ``after``, each escaped later."""

    before: str
    marked: str | None
    after: str
    cut_head: int
    cut_tail: int


def split_raw(raw: str, span: Sequence[int] | None, limit: int = RAW_LIMIT) -> RawView:
    """Split ``raw`` at the span (clamped to the text); cut long texts to a window around it.

    >>> split_raw("It is Paris.", [6, 11])
    RawView(before='It is ', marked='Paris', after='.', cut_head=0, cut_tail=0)
    """
    n = len(raw)
    if span is None:
        start = end = None
        lo, hi = 0, min(n, limit)
    else:
        start, end = _clamp(span, n)
        room = max(limit - (end - start), 0) // 2
        lo, hi = max(0, start - room), min(n, end + room)
    if start is None or end is None:
        return RawView(raw[lo:hi], None, "", lo, n - hi)
    return RawView(raw[lo:start], raw[start:end], raw[end:hi], lo, n - hi)


def _clamp(span: Sequence[int], n: int) -> tuple[int, int]:
    start = min(max(int(span[0]), 0), n)
    return start, min(max(int(span[1]), start), n)


@dataclass(frozen=True)
class MarkedText:
    """Raw output cut around several named spans: ``before``, ``parts``, ``after``, each escaped
    later. A part is (text, names of the spans covering it joined, "" for none), or
    (count, `ELIDED`) for a long stretch between two spans left out."""

    before: str
    parts: tuple[tuple[str, str], ...]
    after: str
    cut_head: int
    cut_tail: int


ELIDED = "elided"
GAP_CONTEXT = 300  # characters kept on each side of a long stretch between two spans


def mark_spans(
    raw: str, spans: Mapping[str, Sequence[int] | None], limit: int = RAW_LIMIT
) -> MarkedText:
    """`split_raw` around the union of the spans, the union cut where any span starts or ends;
    a stretch of more than ``2 * GAP_CONTEXT`` characters between two spans is elided.

    >>> mark_spans("b or c", {"a": [0, 1], "b": [5, 6]}).parts
    (('b', 'a'), (' or ', ''), ('c', 'b'))
    >>> mark_spans("b", {"a": [0, 1], "b": [0, 1]}).parts
    (('b', 'ab'),)
    """
    given = {name: _clamp(s, len(raw)) for name, s in spans.items() if s is not None}
    if not given:
        view = split_raw(raw, None, limit)
        return MarkedText(view.before, (), view.after, view.cut_head, view.cut_tail)
    lo = min(start for start, _ in given.values())
    hi = max(end for _, end in given.values())
    view = split_raw(raw, [lo, hi], limit)
    cuts = sorted({lo, hi, *(p for span in given.values() for p in span)})
    parts: list[tuple[str, str]] = []
    for a, b in pairwise(cuts):
        names = "".join(name for name, (s, e) in given.items() if s <= a and b <= e)
        if names or b - a <= 2 * GAP_CONTEXT + 40:
            parts.append((raw[a:b], names))
        else:
            keep = GAP_CONTEXT
            parts += [(raw[a : a + keep], ""), (str(b - a - 2 * keep), ELIDED),
                      (raw[b - keep : b], "")]  # fmt: skip
    return MarkedText(view.before, tuple(parts), view.after, view.cut_head, view.cut_tail)


def audit_context(result: AuditResult, *, max_rows: int, generated_at: str) -> dict[str, Any]:
    """Everything the template shows, computed in Python (the template only lays it out)."""
    settings = result.settings
    # result.cells is already in the report order (|Δpp|, flips, scheme), as in the Markdown.
    shown = {s.name: result.cells_of(s.name)[:max_rows] for s in result.schemes}
    all_shown = [c for cells in shown.values() for c in cells]
    delta = charts.delta_scale([c.stats.delta_ci for c in all_shown])
    errors = charts.percent_scale()
    colours = _rule_colours(result.rules)
    numbered = list(enumerate(result.examples, 1))
    schemes = [
        SchemeView(
            summary=s,
            overall_significant=s.overall.mcnemar_p < settings.alpha,
            anchor=f"scheme-{k}",
            rows=[_cell_view(c, settings.alpha, delta, errors) for c in shown[s.name]],
            total_cells=len(result.cells_of(s.name)),
            rules=_rules_view(result.rules.get(s.name), colours),
            examples=[_example_view(n, e) for n, e in numbered if e.scheme == s.name],
        )
        for k, s in enumerate(result.schemes, 1)
    ]
    return {
        "generated_at": generated_at,
        "settings": settings,
        "group_by": list(settings.group_by),
        "alpha": float(settings.alpha),
        "coverage": coverage_rows(result),
        "consistency": result.consistency,
        "schemes": schemes,
        "markers": result.markers,
        "role_markers": [m.strip() for m in ROLE_MARKERS if not m.startswith("\n")],
        "block_markers": list(BLOCK_MARKERS),
        "think": result.think,
        "examples_total": len(result.examples),
        "notes": result.notes,
        "delta_axis": charts.axis(delta, "pp"),
        "error_axis": charts.axis(errors, "%"),
        "palette": {"stored": charts.STORED, "scheme": charts.SCHEME, "sig": charts.SIGNIFICANT},
        "swatch": charts.swatch,
        "max_rows": max_rows,
        "recorded_labels": result.recorded_labels,
        "stored_name": result.stored_name,
        **conclusions_context(result.conclusions, result.conclusions_hint),
    }


@dataclass(frozen=True)
class CellView:
    """A per-group row of a scheme's table: the cell and its two charts."""

    cell: GroupCell
    significant: bool
    group_values: list[str]
    forest: Markup
    errors: Markup


@dataclass(frozen=True)
class GroupRulesView:
    """A group's row of the rule-provenance table."""

    values: list[str]
    counts: list[int]
    bar: Markup


@dataclass(frozen=True)
class RulesView:
    """A scheme's rule provenance: legend, overall bar and (several groups) a row per group."""

    legend: list[tuple[str, int, str]]
    total: int
    overall_bar: Markup
    rules: list[str]
    groups: list[GroupRulesView]


@dataclass(frozen=True)
class ExampleView:
    """A flip example with its number, group label and the raw text cut around the span."""

    example: FlipExample
    number: int
    group_label: str
    text: RawView


@dataclass(frozen=True)
class SchemeView:
    """One scheme's section: its summary card, per-group rows, rules and examples."""

    summary: SchemeSummary
    overall_significant: bool
    """Whether the overall shift is significant (McNemar p < alpha): a card whose groups are
    not must still not read as an all-clear."""
    anchor: str
    rows: list[CellView]
    total_cells: int
    rules: RulesView | None
    examples: list[ExampleView]


def _rule_colours(rules: Mapping[str, RuleCounts]) -> dict[str, str]:
    colours: dict[str, str] = {}
    for counts in rules.values():
        for rule in counts.overall:
            colours.setdefault(rule, charts.PALETTE[len(colours) % len(charts.PALETTE)])
    return colours


def _cell_view(c: GroupCell, alpha: float, delta: charts.Scale, errors: charts.Scale) -> CellView:
    sig = c.holm_p is not None and c.holm_p < alpha
    lo, hi = c.stats.delta_ci
    return CellView(
        cell=c,
        significant=sig,
        group_values=[_value(v) for v in c.group.values()],
        forest=charts.forest_row(lo, c.stats.delta_pp, hi, delta, sig),
        errors=charts.error_pair(c.stats.stored_error_pct, c.stats.error_pct, errors),
    )


def _value(value: object) -> str:
    return "—" if value is None else str(value)


def _rules_view(counts: RuleCounts | None, colours: Mapping[str, str]) -> RulesView | None:
    if counts is None:
        return None
    overall = counts.overall
    legend = [(rule, n, colours[rule]) for rule, n in overall.items()]
    groups = [
        GroupRulesView(
            values=[_value(v) for v in g.group.values()],
            counts=[g.counts.get(rule, 0) for rule in overall],
            bar=charts.stacked_bar(
                [(rule, g.counts.get(rule, 0), colours[rule]) for rule in overall]
            ),
        )
        for g in counts.groups
    ]
    return RulesView(
        legend=legend,
        total=sum(overall.values()),
        overall_bar=charts.stacked_bar(legend, width=2 * charts.STACK_WIDTH),
        rules=list(overall),
        groups=groups if len(groups) > 1 else [],
    )


def _example_view(number: int, e: FlipExample) -> ExampleView:
    return ExampleView(
        example=e, number=number, group_label=group_text(e.group), text=split_raw(e.raw, e.span)
    )
