"""Golden test: built-in parser presets are frozen, so their extractions must never change.

The inputs are ``tests/golden/inputs.jsonl``; what each preset extracted when it was recorded is
``tests/golden/expected.jsonl``. A new preset (or a new input) is recorded with
``python tests/golden/record.py``, which refuses to rewrite the records of a frozen preset.
"""

from __future__ import annotations

import importlib.util
from collections import defaultdict
from types import ModuleType
from typing import Any

import pytest

from answer_audit import list_parsers
from paths import TESTS

_MAX_SHOWN = 25
_REQUIRED_TAGS: tuple[str, ...] = ("freeform", "choice", "json")
_REQUIRED_TAGS += ("japanese", "chinese", "think", "role-tail", "json-prose")


def _load_recorder() -> ModuleType:
    # tests/ is not a package: load the recorder by path so its helpers (and with them the
    # record format) are shared whatever pytest's import mode is.
    path = TESTS / "golden" / "record.py"
    spec = importlib.util.spec_from_file_location("golden_record", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


recorder = _load_recorder()
INPUTS: list[dict[str, Any]] = recorder.load_inputs()
TEXTS: dict[str, str] = {item["id"]: item["text"] for item in INPUTS}
RECORDS: dict[tuple[str, str], dict[str, Any]] = recorder.load_records()
BY_PRESET: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
for (_input_id, _preset), _record in RECORDS.items():
    BY_PRESET[_preset][_input_id] = _record


def _show(record: dict[str, Any] | None) -> str:
    if record is None:
        return "(no record)"
    return f"value={record['value']!r} rule={record['rule']!r} span={record['span']}"


@pytest.mark.parametrize("preset", sorted(BY_PRESET))
def test_preset_matches_golden_records(preset: str) -> None:
    assert preset in list_parsers(), (
        f"{preset} has golden records but is no longer a built-in preset; frozen presets "
        "must not be removed or renamed"
    )
    recorded = BY_PRESET[preset]
    problems = []
    for item in INPUTS:
        actual = recorder.record_for(item["id"], preset, item["text"])
        expected = recorded.get(item["id"])
        if expected is None:
            hint = f"no record (new input? run `{recorder.RECORDER}`)"
            problems.append(f"{item['id']} [{preset}]: {hint}; actual {_show(actual)}")
        elif actual != expected:
            problems.append(
                f"{item['id']} [{preset}]: expected {_show(expected)}, actual {_show(actual)}"
            )
    problems += [
        f"{input_id} [{preset}]: recorded, but the input is gone from inputs.jsonl"
        for input_id in sorted(set(recorded) - set(TEXTS))
    ]
    if problems:
        shown = "\n".join(problems[:_MAX_SHOWN])
        more = f"\n... and {len(problems) - _MAX_SHOWN} more" if len(problems) > _MAX_SHOWN else ""
        pytest.fail(
            f"frozen preset {preset} changed behaviour on {len(problems)} of {len(INPUTS)} "
            f"golden inputs:\n{shown}{more}",
            pytrace=False,
        )


def test_every_builtin_preset_has_golden_records() -> None:
    missing = [name for name in list_parsers() if name not in BY_PRESET]
    assert not missing, (
        f"built-in presets without golden records: {', '.join(missing)}; "
        f"run `{recorder.RECORDER}` to record them (and commit tests/golden/expected.jsonl)"
    )


def test_corpus_is_large_and_covers_every_tag_family() -> None:
    assert len(INPUTS) >= 300, f"only {len(INPUTS)} golden inputs; keep at least 300"
    tags = {tag for item in INPUTS for tag in item["tags"]}
    missing = [tag for tag in _REQUIRED_TAGS if tag not in tags]
    assert not missing, f"no golden input is tagged {', '.join(missing)}"
    mislabelled = [item["id"] for item in INPUTS if item["id"].split("-")[0] not in item["tags"]]
    assert not mislabelled, f"inputs whose id family is not among their tags: {mislabelled}"


def test_recorded_spans_lie_within_the_text() -> None:
    bad = []
    for (input_id, preset), record in sorted(RECORDS.items()):
        span = record["span"]
        if span is None or input_id not in TEXTS:
            continue
        start, end = span
        if not 0 <= start <= end <= len(TEXTS[input_id]):
            bad.append(f"{input_id} [{preset}]: span {span}, text length {len(TEXTS[input_id])}")
    assert not bad, "spans outside their text:\n" + "\n".join(bad[:_MAX_SHOWN])
