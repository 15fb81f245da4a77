"""Record what every built-in parser preset extracts from the golden inputs.

    python tests/golden/record.py [--force] [--preset NAME ...]

Writes ``expected.jsonl`` next to this file: one line per (input id, preset) with the
extraction's value, rule and span, sorted by id then preset. Built-in presets are frozen, so
records already in the file are never changed or dropped without ``--force``; records for new
presets (and for new inputs) are added. ``--preset`` records only the presets named (the
records of the others are left as they are), so a new preset can be recorded while others are
still being written. ``tests/test_golden.py`` checks the package against
the file and imports its helpers from here, so the record format lives in one place.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from answer_audit import extract, list_parsers

HERE = Path(__file__).resolve().parent
INPUTS_PATH = HERE / "inputs.jsonl"
EXPECTED_PATH = HERE / "expected.jsonl"
RECORDER = "python tests/golden/record.py"

Record = dict[str, Any]
Key = tuple[str, str]  # (input id, preset name)

# Raw U+0085/U+2028/U+2029 inside a JSON string would split the line for str.splitlines().
_LINE_BREAKERS = ("\x85", "\u2028", "\u2029")


def dump_line(obj: Record) -> str:
    """One JSON line, readable (non-ASCII kept) yet safe for any line splitter."""
    line = json.dumps(obj, ensure_ascii=False)
    for ch in _LINE_BREAKERS:
        line = line.replace(ch, f"\\u{ord(ch):04x}")
    return line


def read_jsonl(path: Path) -> list[Record]:
    """The objects of a JSON-lines file (blank lines skipped); [] when the file is absent."""
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").split("\n")
    return [json.loads(line) for line in lines if line.strip()]


def load_inputs(path: Path = INPUTS_PATH) -> list[Record]:
    """The golden inputs; raises ValueError on a duplicate id."""
    inputs = read_jsonl(path)
    dupes = sorted(k for k, n in Counter(i["id"] for i in inputs).items() if n > 1)
    if dupes:
        raise ValueError(f"{path}: duplicate input ids: {', '.join(dupes)}")
    return inputs


def load_records(path: Path = EXPECTED_PATH) -> dict[Key, Record]:
    """The recorded extractions, keyed by (input id, preset)."""
    return {(r["id"], r["parser"]): r for r in read_jsonl(path)}


def record_for(input_id: str, parser: str, text: str) -> Record:
    """What ``parser`` extracts from ``text``, as a record (span as a list, like JSON)."""
    found = extract(text, parser)
    span = list(found.span) if found.span is not None else None
    return {
        "id": input_id,
        "parser": parser,
        "value": found.value,
        "rule": found.rule,
        "span": span,
    }


def record_all(inputs: list[Record], parsers: list[str]) -> dict[Key, Record]:
    """Records for every input under every preset."""
    records: dict[Key, Record] = {}
    for parser in parsers:
        for item in inputs:
            try:
                records[(item["id"], parser)] = record_for(item["id"], parser, item["text"])
            except Exception as err:  # a crash is a bug in the package: say where it happened
                raise RuntimeError(f"{parser} raised on input {item['id']!r}: {err!r}") from err
    return records


def describe(key: Key, record: Record | None) -> str:
    if record is None:
        return f"{key[0]} [{key[1]}]: (none)"
    shown = f"value={record['value']!r} rule={record['rule']} span={record['span']}"
    return f"{key[0]} [{key[1]}]: {shown}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--force",
        action="store_true",
        help="rewrite records of frozen presets (only for a deliberate change)",
    )
    parser.add_argument(
        "--preset",
        nargs="+",
        metavar="NAME",
        help="record only these presets (default: every built-in preset)",
    )
    args = parser.parse_args(argv)

    chosen = args.preset or list_parsers()
    unknown = sorted(set(chosen) - set(list_parsers()))
    if unknown:
        print(f"not built-in presets: {', '.join(unknown)}", file=sys.stderr)
        return 1
    every = load_records()
    old = {k: r for k, r in every.items() if k[1] in chosen or not args.preset}
    new = record_all(load_inputs(), chosen)
    added = sorted(k for k in new if k not in old)
    kept = sorted(k for k in new if k in old and old[k] == new[k])
    changed = sorted(k for k in new if k in old and old[k] != new[k])
    dropped = sorted(k for k in old if k not in new)  # input removed, or preset no longer built in

    if (changed or dropped) and not args.force:
        print(
            f"refusing to touch frozen records: {len(changed)} would change, {len(dropped)} "
            "would be dropped (rerun with --force only if that is intended)",
            file=sys.stderr,
        )
        for key in changed[:20]:
            print(f"  changed {describe(key, old[key])}", file=sys.stderr)
            print(f"      now {describe(key, new[key])}", file=sys.stderr)
        for key in dropped[:20]:
            print(f"  dropped {describe(key, old[key])}", file=sys.stderr)
        return 1

    if added or changed or dropped or not EXPECTED_PATH.exists():
        others = {k: r for k, r in every.items() if k not in old}  # presets not chosen
        merged = {**others, **new}
        lines = [dump_line(merged[key]) for key in sorted(merged)]
        EXPECTED_PATH.write_text("\n".join(lines) + "\n", encoding="utf-8")
    per_preset = Counter(p for _, p in added)
    detail = ", ".join(f"{p}: {n}" for p, n in sorted(per_preset.items()))
    forced = f", forced {len(changed)} changed and {len(dropped)} dropped" if args.force else ""
    print(f"added {len(added)} records{f' ({detail})' if detail else ''}, kept {len(kept)}{forced}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
