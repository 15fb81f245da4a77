"""User text on the terminal is text: never Rich markup, never a control sequence."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from answer_audit.cli import app
from answer_audit.report.terminal import inert

runner = CliRunner()

ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x9b31m"


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_inert_shows_controls_as_symbols_and_keeps_lengths() -> None:
    assert inert("ok\x1b[2J\x07\x7f\x9b") == "ok␛[2J␇␡\ufffd"
    assert inert("tab\tand\nnewline") == "tab\tand\nnewline"


@given(st.text())
def test_inert_leaves_no_control_but_tab_and_newline(text: str) -> None:
    shown = inert(text)
    assert len(shown) == len(text)
    assert all(c in "\t\n" or not (ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0) for c in shown)


@pytest.mark.parametrize("text", ["The answer is [/] x", "The answer is [red]Paris", "[bold]B"])
def test_explain_prints_brackets_as_written(text: str) -> None:
    code, stdout, stderr = run("explain", "-p", "freeform/v2", text)
    assert code == 0, stderr
    assert repr(text) in stdout  # the value line
    assert stdout.rstrip().endswith(text)  # the text with its span


def test_explain_shows_escape_sequences_inert() -> None:
    code, stdout, _ = run("explain", "-p", "freeform/v2", f"{ESCAPES} x")
    assert code == 0
    assert "\x1b" not in stdout and "\x07" not in stdout and "\x9b" not in stdout
    assert "␛]0;pwned␇␛[2J" in stdout


def test_error_naming_a_bracketed_value_is_one_line(tmp_path: Path) -> None:
    csv = tmp_path / "lab.csv"
    csv.write_text("raw,truth,label\nParis,Paris,[/x]\n", encoding="utf-8")
    code, _, stderr = run("audit", str(csv), "--label", "label", "--quiet")
    assert code == 2
    assert stderr.count("\n") == 1 and "Traceback" not in stderr
    assert "cannot read '[/x]' as a label" in stderr


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--raw", "[/bold]"], "column '[/bold]' not found"),
        (["--raw", "[red]x"], "column '[red]x' not found"),
        (["--parsed", "truth", "--scheme", "[/]=freeform/v2"], "--scheme '[/]=freeform/v2'"),
    ],
)
def test_errors_keep_brackets(tmp_path: Path, args: list[str], fragment: str) -> None:
    csv = tmp_path / "ok.csv"
    csv.write_text("raw,truth\nParis,Paris\n", encoding="utf-8")
    code, _, stderr = run("audit", str(csv), *args, "--quiet", "--out-md", str(tmp_path / "r.md"))
    assert code == 2 and "Traceback" not in stderr
    assert fragment in stderr


def test_wrote_line_names_a_bracketed_path(tmp_path: Path) -> None:
    csv = tmp_path / "ok.csv"
    csv.write_text("raw,truth\nParis,Paris\n", encoding="utf-8")
    (tmp_path / "o[").mkdir()
    target = tmp_path / "o[" / "[red]r.md"
    code, stdout, stderr = run(
        "rescore", str(csv), "-p", "freeform/v1", "-q", "--out-md", str(target)
    )
    assert code == 0, stderr
    assert target.is_file()
    assert f"wrote {target}" in stdout.replace("\n", "")


def test_diff_table_shows_model_escapes_inert(tmp_path: Path) -> None:
    csv = tmp_path / "a.csv"
    csv.write_text(f'raw,truth\n"{ESCAPES} Paris\nuser: Rome",Paris\n', encoding="utf-8")
    code, stdout, stderr = run("diff", str(csv), "-a", "freeform/v1", "-b", "freeform/v2")
    assert code == 0, stderr
    assert "\x1b" not in stdout + stderr and "\x07" not in stdout + stderr


def test_progress_messages_are_text(monkeypatch: pytest.MonkeyPatch) -> None:
    # the bar shows scheme names, which are the user's: "[/]" crashed it (on a terminal only)
    import io

    from rich.console import Console

    import answer_audit.cli as cli

    screen = io.StringIO()
    monkeypatch.setattr(cli, "err", Console(file=screen, force_terminal=True, markup=False))
    with cli.progress_reporter(False, None) as step:
        step("scoring [/]=freeform/v2 \x1b[2J")
    assert "\x1b[2J" not in screen.getvalue()


LONG_NAME = "mine-with-a-rather-long-scheme-name-of-48-chars"


@pytest.mark.parametrize("width", [80, 120])
def test_the_summary_table_shows_every_scheme_name_whole(width: int) -> None:
    import io

    import polars as pl
    from rich.console import Console

    from answer_audit.analysis.audit import AuditSettings, audit
    from answer_audit.report.terminal import print_audit_summary
    from answer_audit.schemes.apply import default_schemes, parse_scheme

    frame = pl.DataFrame({"raw": ["Answer: B", "A"] * 10, "parsed": ["b", "a"] * 10,
                          "label": [True, False] * 10, "truth": ["b", "c"] * 10})  # fmt: skip
    schemes = [*default_schemes("choice"), parse_scheme(f"{LONG_NAME}=choice/v4")]
    result = audit(frame, schemes, AuditSettings(kind="choice", n_boot=10))
    screen = io.StringIO()
    console = Console(file=screen, width=width, color_system=None)
    print_audit_summary(result, console, console)
    rows = [line for line in screen.getvalue().splitlines() if line.startswith("│")]
    assert "…" not in screen.getvalue()
    assert all(len(line) <= width for line in rows)
    # the scheme column's cells, a wrapped name's pieces joined
    names: list[str] = []
    for line in rows:
        cells = [cell.strip() for cell in line.strip("│").split("│")]
        if any(cells[1:]):
            names.append(cells[0])
        else:
            names[-1] += cells[0]
    assert names == [s.name for s in schemes]
    fits = [s.name for s in schemes if s.name != LONG_NAME]
    assert all(any(line.split("│")[1].strip() == n for line in rows) for n in fits)  # unbroken
