"""The JSON side of the typed results: frozen dataclasses that turn into plain JSON data.

A result part subclasses `JsonRecord` and is a ``@dataclass(frozen=True)``; its ``to_dict()``
walks the fields in declaration order, so a new field appears in the JSON where it is
declared (put new ones last to keep the report's key order). A field declared with
``field(metadata=INTERNAL, repr=False, compare=False)`` stays out of the JSON (data a renderer
or writer needs that the JSON report does not carry).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

_INTERNAL = "answer_audit.internal"
INTERNAL = MappingProxyType({_INTERNAL: True})
"""Field metadata: the field is left out of ``to_dict()``."""


def as_json(value: Any) -> Any:
    """``value`` as plain JSON data: records by their ``to_dict()``, tuples as lists, mappings
    as dicts (recursively); everything else as it is.

    >>> as_json({"ci": (0.25, 0.75)})
    {'ci': [0.25, 0.75]}
    """
    if isinstance(value, JsonRecord):
        return value.to_dict()
    if isinstance(value, Mapping):
        return {key: as_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [as_json(item) for item in value]
    return value


class JsonRecord:
    """Base of the frozen result dataclasses: ``to_dict()`` is the JSON, field by field."""

    def to_dict(self) -> dict[str, Any]:
        """The fields in declaration order as plain JSON data (internal fields left out)."""
        record: DataclassInstance = self  # type: ignore[assignment]
        return {
            f.name: as_json(getattr(self, f.name))
            for f in dataclasses.fields(record)
            if not f.metadata.get(_INTERNAL, False)
        }
