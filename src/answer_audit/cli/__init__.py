"""The `answer-audit` command line: one module per command, joined here.

Each command module holds one plain function (flags in, one library call, render, write); this
module registers them on the app, so no command imports another. `answer_audit.cli.app` builds
the Typer app and its error handling.
"""

from answer_audit.cli.app import Command, app
from answer_audit.cli.audit import audit_cmd
from answer_audit.cli.console import err, out, progress_reporter
from answer_audit.cli.demo import demo_cmd
from answer_audit.cli.diff import diff_cmd
from answer_audit.cli.explain import explain_cmd
from answer_audit.cli.parsers import parsers_cmd
from answer_audit.cli.rescore import rescore_cmd

app.command("audit", cls=Command)(audit_cmd)
app.command("rescore", cls=Command)(rescore_cmd)
app.command("diff", cls=Command)(diff_cmd)
app.command("explain", cls=Command)(explain_cmd)
app.command("parsers", cls=Command)(parsers_cmd)
app.command("demo", cls=Command)(demo_cmd)

__all__ = ["app", "err", "out", "progress_reporter"]
