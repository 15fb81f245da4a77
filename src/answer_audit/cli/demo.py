"""`answer-audit demo`: synthetic experiment runs, audited, with all three reports."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from answer_audit.cli import options as opt
from answer_audit.cli.console import out
from answer_audit.cli.errors import user_errors
from answer_audit.cli.options import ReportPaths
from answer_audit.cli.pipeline import run_audit
from answer_audit.report.terminal import inert
from answer_audit.sources import ColumnMap
from answer_audit.sources.demo import CONDITIONS, check_demo_folder, write_demo_runs
from answer_audit.sources.spec import SourceSpec


@user_errors
def demo_cmd(
    out_dir: Annotated[
        Path, typer.Option("--out", help="Folder for the demo runs and reports.")
    ] = Path("tmp/demo"),
    seed: opt.Seed = 0,
    quiet: opt.Quiet = False,
) -> None:
    """Generate synthetic experiment runs, audit them, and write the reports."""
    reports = [out_dir / f"answer_parsing_audit.{ext}" for ext in ("md", "json", "html")]
    check_demo_folder(out_dir, reports)
    metadata = write_demo_runs(out_dir / "runs", seed)
    out.print(Text(inert(f"generated demo runs in {out_dir / 'runs'} ({metadata.name})")))
    spec = SourceSpec(runs_dir=out_dir / "runs", metadata=metadata, conditions=CONDITIONS)
    run_audit(
        spec, ColumnMap(), kind="freeform", scheme=None, defaults=True, presets=None,
        choices=None, seed=seed, bootstrap=1000, max_rows=40, max_examples=30,
        outputs=ReportPaths(*reports), workers=0, quiet=quiet,
        # the question the tool answers: does each condition's effect survive the parser?
        compare="condition", baseline="control", item="question",
    )  # fmt: skip
