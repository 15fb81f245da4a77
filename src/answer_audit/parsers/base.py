"""What every preset is: a frozen, hashable description that an engine runs; and the error
for a preset name or preset file that cannot be used."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from answer_audit.extraction import Extraction


@runtime_checkable
class Parser(Protocol):
    """A named, frozen preset of one parser family."""

    @property
    def name(self) -> str: ...

    @property
    def family(self) -> str: ...

    def extract(self, text: str) -> Extraction:
        """Extract the answer from one raw model output; never raises on a str."""
        ...

    def describe(self) -> list[str]:
        """The preset's rules, in the order they are tried, for docs and `parsers`."""
        ...


class PresetError(ValueError):
    """A preset name or preset file that cannot be used; the message says what and where."""
