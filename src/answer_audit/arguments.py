"""Checks of the public functions' arguments: a wrong type is one clear TypeError or ValueError
that names the function and the argument, not an AttributeError from deep inside."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any


def text(value: Any, function: str, name: str = "text", *, optional: bool = False) -> None:
    """``value`` must be a str (or None when ``optional``)."""
    if isinstance(value, str) or (optional and value is None):
        return
    hint = (
        " (decode bytes first: value.decode('utf-8', 'replace'))"
        if isinstance(value, bytes | bytearray)
        else ""
    )
    kind = "a str or None" if optional else "a str"
    raise TypeError(f"{function}(): {name} must be {kind}, not {type(value).__name__}{hint}")


def options(value: Any, function: str) -> None:
    """``choices_text``: None, option texts in order, or texts keyed by letter."""
    if value is None:
        return
    if isinstance(value, Mapping):
        pairs = list(value.items())
    elif isinstance(value, list | tuple):
        pairs = [(f"[{i}]", v) for i, v in enumerate(value)]  # (the index, shown as a key)
    else:
        raise TypeError(
            f"{function}(): choices_text must be a list of option texts or a dict of them by "
            f"letter, not {type(value).__name__}"
        )
    for key, option in pairs:
        if not isinstance(key, str) or not isinstance(option, str):
            raise TypeError(f"{function}(): choices_text holds {key!r}: {option!r}; use str")


def tolerance(value: Any, function: str) -> None:
    """``rel_tol``: a finite number >= 0."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{function}(): rel_tol must be a number, not {type(value).__name__}")
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{function}(): rel_tol must be a finite number >= 0, not {value!r}")
