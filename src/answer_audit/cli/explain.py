"""`answer-audit explain`: one extraction, with the rule that fired and its span highlighted."""

from __future__ import annotations

import sys
from typing import Annotated

import typer
from rich.text import Text

from answer_audit.cli import options as opt
from answer_audit.cli.console import out
from answer_audit.cli.errors import user_errors
from answer_audit.parsers import ChoicePreset, PresetSet
from answer_audit.parsers.extract import extract
from answer_audit.parsers.presets.recommended import RECOMMENDED
from answer_audit.report.terminal import inert

_WHOLE_TEXT_MAX = 20_000  # explain shows a text whole up to this many characters
_LONG_TEXT_CONTEXT = 2_000


@user_errors
def explain_cmd(
    text: Annotated[str, typer.Argument(help="The raw model output, or '-' to read stdin.")],
    parser: Annotated[
        str,
        typer.Option(
            "--parser", "-p", help="Preset name (default: the recommended choice preset)."
        ),
    ] = RECOMMENDED["choice"].preset,
    presets: opt.Presets = None,
    choices: opt.Choices = None,
    context: Annotated[
        int | None,
        typer.Option(
            min=0,
            help="Characters of context around the span (0 = whole text; default: the whole "
            f"text up to {_WHOLE_TEXT_MAX:,} characters, else {_LONG_TEXT_CONTEXT:,}).",
        ),
    ] = None,
) -> None:
    """Extract one answer and show the value, the rule that fired, and where it came from."""
    raw = sys.stdin.read() if text == "-" else text
    preset = PresetSet.from_file(presets)
    if choices is not None and not isinstance(preset.get(parser), ChoicePreset):
        raise ValueError(f"--choices applies to choice presets only, not {parser!r}")
    result = extract(raw, parser, choices=choices, presets=preset)
    value = repr(result.value)
    if len(value) > _WHOLE_TEXT_MAX:  # the span below shows where it is
        value = f"{value[:_LONG_TEXT_CONTEXT]}… ({len(str(result.value)):,} characters)"
    for label, shown in (("parser", parser), ("value", value), ("rule", result.rule),
                         ("span", str(result.span))):  # fmt: skip
        out.print(Text(f"{label:<8}", style="bold") + Text(inert(shown)))
    out.rule()
    if context is None:  # a long text is shown around its span: printing megabytes is slow
        context = 0 if len(raw) <= _WHOLE_TEXT_MAX else _LONG_TEXT_CONTEXT
    out.print(highlight_span(raw, result.span, context))


def highlight_span(raw: str, span: tuple[int, int] | None, context: int = 0) -> Text:
    """The raw text with the span highlighted, optionally cut to `context` characters around it."""
    start, end = span if span is not None else (0, 0)
    lo, hi = 0, len(raw)
    if context:
        lo, hi = max(0, start - context), min(len(raw), end + context)
    shown = Text("…" if lo else "")
    shown.append(inert(raw[lo:start]))
    shown.append(inert(raw[start:end]), style="bold black on yellow")
    shown.append(inert(raw[end:hi]))
    shown.append("…" if hi < len(raw) else "")
    return shown
