"""The documentation stays true: generated pages are current, every command and flag is in the
CLI reference, examples run on the shipped example files, and links and named paths resolve."""

from __future__ import annotations

import difflib
import doctest
import importlib
import importlib.util
import re
import shlex
import shutil
from pathlib import Path

import pytest
import typer.main
from typer.core import TyperGroup, TyperOption
from typer.testing import CliRunner

from answer_audit.cli import app
from answer_audit.parsers import BUILTIN
from answer_audit.report.markdown.presets import presets_markdown
from paths import REPO

DOCS = REPO / "docs"
CLI_MD = DOCS / "cli.md"
README = REPO / "README.md"
# Pages written by hand: README and docs/, not the generated reference.
WRITTEN = [README, *sorted(p for p in DOCS.glob("*.md") if p != CLI_MD)]
# Pages whose links and named paths must resolve.
LINKED = [*WRITTEN, CLI_MD, REPO / "CHANGELOG.md", REPO / "benchmarks" / "README.md"]


def _cli_group() -> TyperGroup:
    """The CLI as typer runs it (with its completion flags): a group of commands."""
    command = typer.main.get_command(app)
    assert isinstance(command, TyperGroup)
    return command


COMMAND = _cli_group()
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _name(path: Path) -> str:
    return str(path.relative_to(REPO))


def _blocks(path: Path, languages: tuple[str, ...]) -> list[tuple[int, str, str]]:
    """(line, language, code) of each fenced block in one of ``languages``, in page order."""
    text = path.read_text(encoding="utf-8")
    return [
        (text.count("\n", 0, m.start()) + 2, m.group(1), m.group(2))
        for m in FENCE.finditer(text)
        if m.group(1) in languages
    ]


# ------------------------------------------------------------- recommended presets


_FAMILY_ROWS = {"multiple choice": "choice", "free text": "freeform", "a final number": "number",
                "a JSON field": "json"}  # fmt: skip


@pytest.mark.parametrize("page", [README, DOCS / "presets.md"], ids=_name)
def test_which_preset_to_use_names_the_recommended_ones(page: Path) -> None:
    from answer_audit.parsers.presets.recommended import RECOMMENDED

    named = {}
    for line in page.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0] in _FAMILY_ROWS:
            named[_FAMILY_ROWS[cells[0]]] = re.findall(r"`([a-z_]+/[a-z0-9_/]+)`", cells[1])[0]
    assert named == {family: r.preset for family, r in RECOMMENDED.items()}


# ---------------------------------------------------------------- generated pages


def test_generated_docs_are_current() -> None:
    # The generator is a script (`make docs`); load it by path and compare what it would write.
    spec = importlib.util.spec_from_file_location(
        "update_docs", REPO / "scripts" / "update_docs.py"
    )
    assert spec is not None and spec.loader is not None
    update_docs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(update_docs)
    for path, text in update_docs.generated().items():
        current = path.read_text(encoding="utf-8")
        lines = difflib.unified_diff(current.splitlines(True), text.splitlines(True), n=0)
        assert current == text, (
            f"{_name(path)} is stale: run `make docs`\n{''.join(list(lines)[:12])}"
        )


def test_preset_table_is_current() -> None:
    page = (DOCS / "presets.md").read_text(encoding="utf-8")
    block = page.split("<!-- presets:start -->\n", 1)[1].split("<!-- presets:end -->", 1)[0]
    assert block == presets_markdown(BUILTIN), "docs/presets.md table is stale: run `make docs`"


@pytest.mark.parametrize("name", sorted(COMMAND.commands))
def test_every_command_and_flag_has_help_and_is_in_the_cli_reference(name: str) -> None:
    reference = CLI_MD.read_text(encoding="utf-8")
    command = COMMAND.commands[name]
    assert command.help, f"command {name!r} has no help text"
    assert f"## `answer-audit {name}`" in reference, f"docs/cli.md has no section for {name}"
    section = reference.split(f"## `answer-audit {name}`", 1)[1].split("\n## ", 1)[0]
    for param in command.params:
        if isinstance(param, TyperOption) and not param.hidden:
            assert param.help, f"{name} {param.opts[0]} has no help text"
            names = [*param.opts, *param.secondary_opts]
            for option in names:
                assert re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", section), (
                    f"docs/cli.md does not list `{name} {option}`: run `make docs`"
                )


# ---------------------------------------------------------------- the README


def test_readme_is_a_first_ten_minutes_page() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines; move reference text to docs/"


# ---------------------------------------------------------------- examples run


def _in_example_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run from a scratch folder laid out like the repository root: examples/ beside it."""
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize("page", [p for p in WRITTEN if _blocks(p, ("python", "pycon"))], ids=_name)
def test_python_examples_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ```python block runs and every ```pycon block passes as a doctest, in page order
    and in one namespace, as a reader would run them one after another."""
    _in_example_folder(tmp_path, monkeypatch)
    namespace: dict[str, object] = {"__name__": "__docs__"}
    for line, language, code in _blocks(page, ("python", "pycon")):
        where = f"{_name(page)}:{line}"
        if language == "python":
            exec(compile(code, where, "exec"), namespace)
            continue
        test = doctest.DocTestParser().get_doctest(code, namespace, where, str(page), line)
        report: list[str] = []
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test, out=report.append, clear_globs=False)
        assert runner.failures == 0, "".join(report)
        namespace.update(test.globs)


def _shipped_commands(page: Path) -> list[tuple[int, str]]:
    """`answer-audit ...` lines of the shell blocks that read the shipped examples/ files."""
    found = []
    for line, _, code in _blocks(page, ("sh",)):
        for command in code.replace("\\\n", " ").splitlines():
            command = command.removeprefix("$ ").strip()
            ours = command.startswith(("answer-audit ", ".venv/bin/answer-audit "))
            if ours and "examples/" in command:
                found.append((line, command.split("#", 1)[0]))
    return found


@pytest.mark.parametrize("page", [p for p in WRITTEN if _shipped_commands(p)], ids=_name)
def test_command_examples_on_shipped_files_run(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _in_example_folder(tmp_path, monkeypatch)
    for line, command in _shipped_commands(page):
        args = shlex.split(command)[1:]
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, f"{_name(page)}:{line}: {command}\n{result.output}"


# ---------------------------------------------------------------- names resolve


def _slug(heading: str) -> str:
    """The anchor a Markdown viewer gives a heading (GitHub's rule, for the headings we use)."""
    text = heading.strip().lower().replace("`", "")
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {_slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", text, re.MULTILINE)}


@pytest.mark.parametrize("page", LINKED, ids=_name)
def test_links_between_pages_resolve(page: Path) -> None:
    text = re.sub(r"`[^`\n]*`", "", FENCE.sub("", page.read_text(encoding="utf-8")))
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        file, _, anchor = target.partition("#")
        resolved = (page.parent / file).resolve() if file else page
        assert resolved.exists(), f"{_name(page)} links to missing {target}"
        if anchor and resolved.suffix == ".md":
            assert anchor in _anchors(resolved), f"{_name(page)} links to missing {target}"


# The CHANGELOG names old paths on purpose (what moved where).
@pytest.mark.parametrize("page", [p for p in LINKED if p.name != "CHANGELOG.md"], ids=_name)
def test_named_modules_and_files_exist(page: Path) -> None:
    """`answer_audit.x.y` names a module or one of its attributes; `src/...`, `tests/...` and
    the like name files or folders that exist (a moved module must take its docs along)."""
    text = page.read_text(encoding="utf-8")
    for dotted in set(re.findall(r"`(answer_audit(?:\.\w+)+)", text)):
        parts = dotted.split(".")
        for cut in range(len(parts), 0, -1):
            try:
                found: object = importlib.import_module(".".join(parts[:cut]))
            except ModuleNotFoundError:
                continue
            for attribute in parts[cut:]:
                assert hasattr(found, attribute), f"{_name(page)} names missing `{dotted}`"
                found = getattr(found, attribute)
            break
    roots = r"(?:src|tests|benchmarks|scripts|examples|docs|\.ci)/"
    for path in set(re.findall(rf"`({roots}[\w./-]*)`", text)):
        assert (REPO / path).exists(), f"{_name(page)} names missing `{path}`"


# Flags of tools other than answer-audit that the pages mention.
OTHER_TOOLS_FLAGS = {
    "--all-files",
    "--cache-dir",
    "--check",
    "--durations",
    "--flag",
    "--force",
    "--help",
    "--no-cache",
    "--strict",
}


@pytest.mark.parametrize("page", WRITTEN, ids=_name)
def test_flags_in_written_pages_exist(page: Path) -> None:
    known = {
        option
        for command in [COMMAND, *COMMAND.commands.values()]
        for param in command.params
        for option in [*getattr(param, "opts", []), *getattr(param, "secondary_opts", [])]
    }
    text = page.read_text(encoding="utf-8")
    mentioned = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)(?![\w])", text))
    unknown = mentioned - known - OTHER_TOOLS_FLAGS
    assert not unknown, f"{_name(page)} mentions flags no command has: {sorted(unknown)}"


def test_changelog_keeps_a_changelog_form() -> None:
    text = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## \[([^\]]+)\]", text, re.MULTILINE)
    assert releases[:2] == ["Unreleased", "0.1.0"], releases
    for section in re.findall(r"^### (.+)$", text, re.MULTILINE):
        assert section in {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


# --------------------------------------------------------------------------------- the audit guide


def test_audit_flag_table_lists_only_audit_flags() -> None:
    # The hand-written flag table of the audit guide (docs/cli.md is generated from --help).
    guide = (REPO / "docs" / "commands.md").read_text(encoding="utf-8")
    section = guide.split("### The audit's flags, explained", 1)[1]
    table = section.split("| flag | meaning |", 1)[1].split("\n\n")[0]
    command = typer.main.get_group(app).commands["audit"]
    known = {
        o
        for p in command.params
        for o in [*getattr(p, "opts", []), *getattr(p, "secondary_opts", [])]
    }
    documented = set(re.findall(r"`(--[a-z-]+)", table)) | set(re.findall(r" (--[a-z-]+)", table))
    assert documented - known == set()
