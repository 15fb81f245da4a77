"""`answer-audit parsers`: list the presets, built-in and from a preset file."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from answer_audit.cli import options as opt
from answer_audit.cli.console import out
from answer_audit.cli.errors import user_errors
from answer_audit.parsers import PresetSet
from answer_audit.report.markdown.presets import presets_markdown


@user_errors
def parsers_cmd(
    presets: opt.Presets = None,
    rules: Annotated[
        bool, typer.Option("--rules", help="List each preset's rules in order.")
    ] = False,
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print README's preset table (rules in order).")
    ] = False,
) -> None:
    """List the available parser presets (built-in and from --presets)."""
    preset_set = PresetSet.from_file(presets)
    if markdown:
        print(presets_markdown(preset_set), end="")
        return
    table = Table("preset", "family", "rules, in order" if rules else "first rule")
    for name, preset in sorted(preset_set.items()):
        steps = preset.describe()
        table.add_row(name, preset.family, Text("\n".join(steps) if rules else steps[0]))
    out.print(table)
