"""Reports as JSON: stable, human-diffable, strict."""

from __future__ import annotations

import json
import math
from typing import Any, TextIO

_OPTIONS: dict[str, Any] = {"indent": 2, "ensure_ascii": False, "default": str, "allow_nan": False}


def to_json(data: Any) -> str:
    """Stable, human-diffable JSON (sorted keys would reorder sections, so insertion order).

    Strict JSON: a non-finite float (e.g. a NaN group value) is written as the text "NaN",
    "Infinity" or "-Infinity", never as the bare tokens other JSON readers reject.
    """
    return json.dumps(_finite(data), **_OPTIONS) + "\n"


def write_json(data: Any, fh: TextIO) -> None:
    """`to_json` written to ``fh`` a piece at a time: the same text, never held whole as one
    string beside the data it is made from."""
    json.dump(_finite(data), fh, **_OPTIONS)
    fh.write("\n")


def _finite(data: Any) -> Any:
    if isinstance(data, float) and not math.isfinite(data):
        return "NaN" if math.isnan(data) else ("Infinity" if data > 0 else "-Infinity")
    if isinstance(data, dict):
        return {k: _finite(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_finite(v) for v in data]
    return data
