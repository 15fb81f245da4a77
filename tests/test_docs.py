"""README stays true: the preset table is current and every command and flag is documented."""

import pytest
import typer.main
from typer.core import TyperOption

from answer_audit.cli import app
from answer_audit.parsers import BUILTIN
from answer_audit.report.markdown.presets import presets_markdown
from paths import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")
COMMAND = typer.main.get_command(app)


def test_preset_table_is_current() -> None:
    block = README.split("<!-- presets:start -->\n", 1)[1].split("<!-- presets:end -->", 1)[0]
    assert block == presets_markdown(BUILTIN), "README preset table is stale: run `make docs`"


@pytest.mark.parametrize("name", sorted(COMMAND.commands))  # type: ignore[attr-defined]
def test_every_command_has_help_and_is_in_readme(name: str) -> None:
    command = COMMAND.commands[name]  # type: ignore[attr-defined]
    assert command.help, f"command {name!r} has no help text"
    assert f"answer-audit {name}" in README, f"README does not mention `answer-audit {name}`"
    for param in command.params:
        if isinstance(param, TyperOption):
            assert param.help, f"{name} {param.opts[0]} has no help text"
            names = [*param.opts, *param.secondary_opts]
            assert any(o in README for o in names), f"README does not document {name} {names[0]}"
