"""The preset table in README, generated from the presets themselves."""

from __future__ import annotations

from collections.abc import Mapping

from answer_audit.parsers import Parser
from answer_audit.report.markdown.safe import table


def presets_markdown(presets: Mapping[str, Parser]) -> str:
    """One row per preset: name, family, and its rules numbered in the order they are tried."""
    rows: list[list[object]] = []
    for name, preset in sorted(presets.items()):
        steps = preset.describe()
        rules = "\n".join(f"{i}. {step}" for i, step in enumerate(steps, 1))
        rows.append([f"`{name}`", preset.family, rules])
    return table(["preset", "family", "rules, in order"], rows, trusted=True) + "\n"
