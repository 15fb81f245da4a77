"""`answer-audit parsers`: list the presets, built-in and from a preset file."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Column, Table
from rich.text import Text

from answer_audit.cli import options as opt
from answer_audit.cli.console import out
from answer_audit.cli.errors import user_errors
from answer_audit.parsers import PresetSet
from answer_audit.parsers.presets.recommended import RECOMMENDED
from answer_audit.report.markdown.presets import presets_markdown
from answer_audit.report.terminal import inert


@user_errors
def parsers_cmd(
    presets: opt.Presets = None,
    rules: Annotated[
        bool, typer.Option("--rules", help="List each preset's rules in order.")
    ] = False,
    markdown: Annotated[
        bool,
        typer.Option(
            "--markdown", help="Print the preset table of docs/presets.md (rules in order)."
        ),
    ] = False,
) -> None:
    """List the available parser presets (built-in and from --presets)."""
    preset_set = PresetSet.from_file(presets)
    if markdown:
        print(presets_markdown(preset_set), end="")
        return
    recommended = {r.preset: r for r in RECOMMENDED.values()}
    table = Table("family", "rules, in order" if rules else "first rule")
    table.columns.insert(0, Column("preset", no_wrap=True))  # "(recommended)" stays on its line
    for name, preset in sorted(preset_set.items()):
        steps = preset.describe()
        shown = Text(inert(name))
        if name in recommended:
            shown.append(" (recommended)", style="bold green")
        table.add_row(shown, preset.family, Text(inert("\n".join(steps) if rules else steps[0])))
    out.print(table)
    for r in RECOMMENDED.values():
        out.print(
            Text(
                inert(
                    f"recommended {r.family}: {r.preset} with :{r.matcher}, agreement {r.agreement}"
                )
            ),
            soft_wrap=True,
        )
