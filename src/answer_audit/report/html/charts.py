"""Inline SVG charts for the HTML reports.

Every chart is built only from numbers, palette constants and escaped strings (``Markup.format``
escapes its arguments), so no model text can reach the page unescaped through a chart.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup

# Okabe-Ito: distinguishable with the common colour-vision deficiencies and in greyscale print.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
STORED = "#9aa3ad"
SCHEME = "#0072B2"
SIGNIFICANT = "#D55E00"
SIDE_A = "#E69F00"  # diff: side A (amber) and side B (blue), in bars, legends and marks
SIDE_B = "#0072B2"
AGREE = "#009E73"

FOREST_WIDTH = 200
ERROR_WIDTH = 100
ROW_HEIGHT = 20
AXIS_HEIGHT = 18
STACK_WIDTH = 240
STACK_HEIGHT = 14
HEAT_LEVELS = 5


@dataclass(frozen=True)
class Scale:
    """A linear map from ``[lo, hi]`` to ``[pad, width - pad]`` pixels."""

    lo: float
    hi: float
    width: int
    pad: int = 8

    def x(self, value: float) -> float:
        span = self.hi - self.lo or 1.0
        return self.pad + (value - self.lo) / span * (self.width - 2 * self.pad)

    def ticks(self) -> list[float]:
        return nice_ticks(self.lo, self.hi)


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round tick values (steps of 1, 2 or 5 times a power of ten) covering ``[lo, hi]``.

    >>> nice_ticks(-3.2, 41.0)
    [0.0, 20.0, 40.0]
    """
    if hi <= lo:
        return [lo]
    raw = (hi - lo) / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(lo / step - 1e-9) * step
    ticks, k = [], 0
    while first + k * step <= hi + 1e-9:
        ticks.append(round(first + k * step, 10) + 0.0)
        k += 1
    return ticks


def delta_scale(intervals: Sequence[tuple[float, float]], width: int = FOREST_WIDTH) -> Scale:
    """A Δpp scale covering every interval and zero, widened to round numbers."""
    lo = min([0.0, *(a for a, _ in intervals)])
    hi = max([0.0, *(b for _, b in intervals)])
    if hi - lo < 2:
        lo, hi = lo - 1, hi + 1
    ticks = nice_ticks(lo, hi)
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
    return Scale(math.floor(lo / step) * step, math.ceil(hi / step) * step, width, pad=14)


def percent_scale(width: int = ERROR_WIDTH) -> Scale:
    """The error-rate scale: always 0 to 100%, so bars compare across schemes and reports."""
    return Scale(0.0, 100.0, width, pad=2)


def _num(value: float) -> str:
    return f"{value:.1f}"


def _svg(scale: Scale, height: int, body: Markup, label: str, cls: str) -> Markup:
    return Markup(
        '<svg class="{}" width="{}" height="{}" viewBox="0 0 {} {}" role="img" aria-label="{}">'
        "{}</svg>"
    ).format(cls, scale.width, height, scale.width, height, label, body)


def _grid(scale: Scale, height: int, zero: bool) -> Markup:
    lines = [
        Markup('<line class="{}" x1="{}" x2="{}" y1="0" y2="{}"/>').format(
            "zero" if zero and t == 0 else "grid", _num(scale.x(t)), _num(scale.x(t)), height
        )
        for t in scale.ticks()
    ]
    return Markup("").join(lines)


def forest_row(
    lo: float, delta: float, hi: float, scale: Scale, significant: bool, title: str | None = None
) -> Markup:
    """One forest-plot row: the 95% interval as a line, Δpp as a marker (a diamond if
    significant); ``title`` replaces the default tooltip (``Δ +1.0 pp (95% CI ...)``)."""
    y = ROW_HEIGHT / 2
    x, x_lo, x_hi = scale.x(delta), scale.x(lo), scale.x(hi)
    cls = "sig" if significant else "ns"
    if significant:
        r = 5.5
        marker = Markup('<polygon class="fp-pt {}" points="{},{} {},{} {},{} {},{}"/>').format(
            cls,
            _num(x),
            _num(y - r),
            _num(x + r),
            _num(y),
            _num(x),
            _num(y + r),
            _num(x - r),
            _num(y),
        )
    else:
        marker = Markup('<circle class="fp-pt {}" cx="{}" cy="{}" r="3.6"/>').format(
            cls, _num(x), _num(y)
        )
    if title is None:
        title = f"Δ {delta:+.1f} pp (95% CI {lo:+.1f} to {hi:+.1f})" + (
            " significant" if significant else ""
        )
    body = Markup("<title>{}</title>{}{}{}").format(
        title,
        _grid(scale, ROW_HEIGHT, zero=True),
        Markup('<line class="fp-ci {}" x1="{}" x2="{}" y1="{}" y2="{}"/>').format(
            cls, _num(x_lo), _num(x_hi), _num(y), _num(y)
        ),
        marker,
    )
    return _svg(scale, ROW_HEIGHT, body, title, "chart forest")


def axis(scale: Scale, unit: str = "") -> Markup:
    """Tick labels for a column of rows drawn on ``scale``."""
    labels = []
    for t in scale.ticks():
        text = f"{t:+g}" if unit == "pp" and t else f"{t:g}"
        labels.append(
            Markup('<text x="{}" y="13" text-anchor="middle">{}</text>').format(
                _num(scale.x(t)), text
            )
        )
    return _svg(
        scale, AXIS_HEIGHT, Markup("").join(labels), f"axis in {unit or 'units'}", "chart axis"
    )


@dataclass(frozen=True)
class Bar:
    """One bar of a `bars` chart: a percentage (None: not drawn), its CSS class, an interval."""

    label: str
    value: float | None
    cls: str
    ci: tuple[float, float] | None = None


def bars(items: Sequence[Bar], scale: Scale, what: str, cls: str = "chart bars") -> Markup:
    """Horizontal bars stacked in one row (6 px each), with an optional interval whisker each.

    >>> "bar-b" in bars([Bar("B", 40.0, "bar-b", (30.0, 50.0))], percent_scale(), "accuracy")
    True
    """
    top = (ROW_HEIGHT - (8 * len(items) - 2)) / 2
    left = scale.x(scale.lo)
    shapes, said = [], []
    for k, item in enumerate(items):
        if item.value is None:
            said.append(f"{item.label} —")
            continue
        y = top + 8 * k
        shapes.append(
            Markup('<rect class="{}" x="{}" y="{}" width="{}" height="6"/>').format(
                item.cls, _num(left), _num(y), _num(max(scale.x(item.value) - left, 0.0))
            )
        )
        said.append(f"{item.label} {item.value:.1f}%")
        if item.ci is not None:
            lo, hi = (_num(scale.x(v)) for v in item.ci)
            shapes.append(
                Markup('<path class="bar-ci" d="M{},{}v6M{},{}H{}M{},{}v6"/>').format(
                    lo, _num(y), lo, _num(y + 3), hi, hi, _num(y)
                )
            )
            said[-1] += f" ({item.ci[0]:.1f} to {item.ci[1]:.1f})"
    title = f"{what}: {', '.join(said)}"
    grid = _grid(scale, ROW_HEIGHT, zero=False)
    body = Markup("<title>{}</title>{}{}").format(title, grid, Markup("").join(shapes))
    return _svg(scale, ROW_HEIGHT, body, title, cls)


def error_pair(stored: float, scheme: float, scale: Scale) -> Markup:
    """Stored (grey, top) and scheme (blue, bottom) error rates as two bars on one scale."""
    pair = [Bar("stored", stored, "bar-stored"), Bar("scheme", scheme, "bar-scheme")]
    return bars(pair, scale, "error", "chart errors")


def stacked_bar(parts: Sequence[tuple[str, int, str]], width: int = STACK_WIDTH) -> Markup:
    """A 100% bar of ``(label, count, colour)`` parts, in the given order."""
    total = sum(count for _, count, _ in parts)
    scale = Scale(0.0, float(total or 1), width, pad=0)
    rect = Markup('<rect x="{}" y="0" width="{}" height="{}" fill="{}"><title>{}</title></rect>')
    rects, x = [], 0.0
    for label, count, colour in parts:
        if count:
            title = f"{label}: {count} of {total} ({count / total:.0%})"
            w = scale.x(x + count) - scale.x(x)
            rects.append(rect.format(_num(scale.x(x)), _num(w), STACK_HEIGHT, colour, title))
        x += count
    summary = ", ".join(f"{label} {count}" for label, count, _ in parts)
    return _svg(scale, STACK_HEIGHT, Markup("").join(rects), summary, "chart stack")


def swatch(colour: str) -> Markup:
    """A small legend square in ``colour`` (a palette constant)."""
    return Markup(
        '<svg class="swatch" width="10" height="10" viewBox="0 0 10 10" aria-hidden="true">'
        '<rect width="10" height="10" rx="2" fill="{}"/></svg>'
    ).format(colour)


def heat_table(labels: Sequence[str], matrix: Sequence[Sequence[int]]) -> dict[str, object]:
    """A confusion matrix laid out for a heat-map table: each cell's count and shade class.

    The diagonal (same value) and the rest (changed value) are shaded on their own scales, each
    relative to its largest cell, so a few changes still show beside a heavy diagonal.

    >>> heat_table(["a", "b"], [[9, 1], [0, 3]])["rows"][0]["cells"]
    [{'n': 9, 'cls': 'heat same h5'}, {'n': 1, 'cls': 'heat diff h5'}]
    """
    size = range(len(labels))
    same_top = max((matrix[i][i] for i in size), default=0)
    diff_top = max((matrix[i][j] for i in size for j in size if i != j), default=0)

    def cell(i: int, j: int) -> dict[str, object]:
        n = matrix[i][j]
        kind, top = ("same", same_top) if i == j else ("diff", diff_top)
        level = math.ceil(HEAT_LEVELS * n / top) if n and top else 0
        return {"n": n, "cls": f"heat {kind} h{level}"}

    rows = [
        {"label": labels[i], "cells": [cell(i, j) for j in size], "total": sum(matrix[i])}
        for i in size
    ]
    columns = [sum(matrix[i][j] for i in size) for j in size]
    return {"labels": list(labels), "rows": rows, "columns": columns, "total": sum(columns),
            "same": sum(matrix[i][i] for i in size)}  # fmt: skip
