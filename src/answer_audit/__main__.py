"""``python -m answer_audit``: the same command line as ``answer-audit``."""

from answer_audit.cli import app

app(prog_name="answer-audit")
