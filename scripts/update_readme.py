"""Regenerate README's preset table from the presets themselves (`make docs`)."""

from pathlib import Path

from answer_audit.parsers import BUILTIN
from answer_audit.report.markdown.presets import presets_markdown

START, END = "<!-- presets:start -->", "<!-- presets:end -->"


def main() -> None:
    readme = Path(__file__).resolve().parents[1] / "README.md"
    text = readme.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    readme.write_text(f"{head}{START}\n{presets_markdown(BUILTIN)}{END}{tail}", encoding="utf-8")


if __name__ == "__main__":
    main()
