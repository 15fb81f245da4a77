"""Compare two JSON reports of answer-audit, ignoring what is allowed to differ between runs.

    python scripts/compare_reports.py A.json B.json [--ignore KEY ...]

Exit 0 when the reports are the same apart from the ignored top-level keys (by default
``generated_at`` and ``engine``: the wall-clock stamp, and which engine ran the analysis);
otherwise print the first differing paths and exit 1. Used to check that a refactor, another
engine or another number of workers gives the same report.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

IGNORED = ("generated_at", "engine")


def differences(a: Any, b: Any, path: str = "$") -> Iterator[str]:
    """Every path at which ``a`` and ``b`` differ (type, key set, length or value)."""
    if type(a) is not type(b):
        yield f"{path}: {type(a).__name__} vs {type(b).__name__}"
    elif isinstance(a, dict):
        for key in sorted(a.keys() | b.keys(), key=str):
            if key not in a or key not in b:
                yield f"{path}.{key}: only in {'B' if key not in a else 'A'}"
            else:
                yield from differences(a[key], b[key], f"{path}.{key}")
        if list(a) != list(b) and set(a) == set(b):
            yield f"{path}: same keys in another order"
    elif isinstance(a, list):
        if len(a) != len(b):
            yield f"{path}: {len(a)} vs {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            yield from differences(x, y, f"{path}[{i}]")
    elif a != b:
        yield f"{path}: {a!r} vs {b!r}"


def comparable(report: dict[str, Any], ignored: tuple[str, ...] = IGNORED) -> dict[str, Any]:
    """The report without the top-level keys that may differ between equal runs."""
    return {k: v for k, v in report.items() if k not in ignored}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", type=Path)
    parser.add_argument("b", type=Path)
    parser.add_argument("--ignore", action="append", default=list(IGNORED))
    args = parser.parse_args(argv)
    a, b = (json.loads(p.read_text(encoding="utf-8")) for p in (args.a, args.b))
    found = list(differences(comparable(a, tuple(args.ignore)), comparable(b, tuple(args.ignore))))
    for line in found[:20]:
        print(line)
    if len(found) > 20:
        print(f"... and {len(found) - 20} more")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
