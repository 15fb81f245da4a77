"""JSON and JSON Lines text to records: line-precise errors and automatic record discovery."""

from __future__ import annotations

import json
import re
from typing import Any

from answer_audit.sources.decode import iter_lines
from answer_audit.table.errors import SourceError

Record = dict[str, Any]
_TOO_DEEP = "not readable JSON (nested too deeply for the JSON decoder)"


def parse_jsonl(
    text: str, where: str, *, skip_bad_lines: bool, first_line: int = 1
) -> tuple[list[Record], int]:
    """Records from JSON Lines text, one object per line; blank lines are ignored.

    A bad line raises SourceError naming `where:LINE` (counted from ``first_line``, for a
    piece of a file), or with `skip_bad_lines` is skipped and counted. Returns
    `(records, skipped)`.
    """
    records, _, skipped = parse_jsonl_lines(
        text, where, skip_bad_lines=skip_bad_lines, first_line=first_line
    )
    return records, skipped


def parse_jsonl_lines(
    text: str, where: str, *, skip_bad_lines: bool, first_line: int = 1
) -> tuple[list[Record], list[int], int]:
    """`parse_jsonl`, with the line number of each record: `(records, numbers, skipped)`."""
    records: list[Record] = []
    numbers: list[int] = []
    skipped = 0
    # Only "\n" ends a record: str.splitlines would also split on U+2028 inside JSON strings.
    for number, line in enumerate(iter_lines(text), start=first_line):
        if not line.strip():
            continue
        record, problem = _read_line(line)
        if record is not None:
            records.append(record)
            numbers.append(number)
        elif skip_bad_lines:
            skipped += 1
        else:
            hint = (
                "the file may be one JSON array, not JSON Lines: pass --format json"
                if number == 1 and line.lstrip().startswith("[")
                else "fix the line or pass --skip-bad-lines"
            )
            raise SourceError(f"{where}:{number}: {problem}; {hint}")
    return records, numbers, skipped


_JSON_KINDS = {dict: "an object", list: "a list", str: "a string", int: "a number",
               float: "a number", bool: "true or false", type(None): "null"}  # fmt: skip


def json_kind(value: Any) -> str:
    """What a decoded JSON value is, in JSON's words: "a number", not "a int"."""
    return _JSON_KINDS.get(type(value), type(value).__name__)


def _read_line(line: str) -> tuple[Record | None, str]:
    """The line's object, or None and what is wrong with the line (read once)."""
    try:
        value = json.loads(line)
    except json.JSONDecodeError as exc:
        return None, f"not valid JSON ({exc.msg}: column {exc.colno})"
    except RecursionError:
        return None, _TOO_DEEP
    if not isinstance(value, dict):
        return None, f"not a JSON object (found {json_kind(value)})"
    return value, ""


# JSON may escape half of a surrogate pair (a log that cut an emoji in two): the decoder gives a
# lone surrogate, which no UTF-8 table can hold. Such text is rare, so only then are the
# records walked, each lone surrogate replaced by U+FFFD and counted like undecodable bytes.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def may_hold_surrogates(text: str) -> bool:
    """Whether JSON text escapes a surrogate (records from it need `replace_surrogates`)."""
    return _SURROGATE_ESCAPE.search(text) is not None


def replace_surrogates(records: list[Record]) -> int:
    """Replace every lone surrogate in the records' keys and strings (in place); how many."""
    count = 0

    def fix(value: Any) -> Any:
        nonlocal count
        if isinstance(value, str):
            fixed, n = _LONE_SURROGATE.subn("\ufffd", value)
            count += n
            return fixed
        if isinstance(value, dict):
            return {fix(k): fix(v) for k, v in value.items()}
        if isinstance(value, list):
            return [fix(v) for v in value]
        return value

    for i, record in enumerate(records):
        records[i] = fix(record)
    return count


def parse_json_records(text: str, where: str, records_key: str | None) -> tuple[list[Record], str]:
    """The list of records in a JSON document, and the key it was found under ("" = top level).

    A top-level list is used as is. In an object, `records_key` (dotted path allowed, e.g.
    `data.results`) names the list; without it, the one non-empty list of objects at the top level
    is used, e.g. `{"config": {...}, "results": [...]}` gives the `results` list.
    """
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SourceError(
            f"{where}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg}); "
            "fix the file (JSON Lines files need a .jsonl extension or --format jsonl)"
        ) from exc
    except RecursionError:
        raise SourceError(f"{where}: {_TOO_DEEP}") from None
    if records_key is not None:
        value, key = _follow_key(document, records_key, where), records_key
    elif isinstance(document, list):
        value, key = document, ""
    elif isinstance(document, dict):
        key = _discover_key(document, where)
        value = document[key]
    else:
        raise SourceError(f"{where}: the JSON holds {json_kind(document)}, not records")
    return _check_records(value, where, key), key


def _follow_key(document: Any, dotted: str, where: str) -> Any:
    value = document
    walked: list[str] = []
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            here = ".".join(walked) or "the top level"
            keys = ", ".join(map(str, value)) if isinstance(value, dict) else "(not an object)"
            raise SourceError(
                f"{where}: key '{part}' of --records '{dotted}' not found at {here}; "
                f"available: {keys}"
            )
        value = value[part]
        walked.append(part)
    return value


def _is_record_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, dict) for item in value)


def _discover_key(document: dict[str, Any], where: str) -> str:
    candidates = [k for k, v in document.items() if _is_record_list(v) and v]
    if len(candidates) == 1:
        return candidates[0]
    empty = [k for k, v in document.items() if _is_record_list(v)]
    if not candidates and len(empty) == 1:
        return empty[0]  # found, but empty: the empty-input check reports it
    if candidates:
        raise SourceError(
            f"{where}: several lists of records at the top level: {', '.join(candidates)}; "
            "pass --records KEY to choose one"
        )
    raise SourceError(
        f"{where}: no list of records at the top level (keys: {', '.join(document)}); "
        "pass --records KEY (a dotted path such as data.results is allowed)"
    )


def _check_records(value: Any, where: str, key: str) -> list[Record]:
    at = f" under '{key}'" if key else ""
    if not isinstance(value, list):
        raise SourceError(f"{where}: the value{at} is {json_kind(value)}, not a list")
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            raise SourceError(
                f"{where}: item {index}{at} is {json_kind(item)}, not an object; "
                "records must be JSON objects"
            )
    return value
