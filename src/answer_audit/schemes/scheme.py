"""A scheme: which parser labels a row (a preset, or the stored parse) and which matcher judges it.

``NAME=PARSER[:NORMALIZER]`` on the command line (`parse_scheme`); the defaults a kind runs
when the user names none are the kind's (`answer_audit.schemes.kinds.Kind.default_schemes`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from answer_audit.matching import NORMALIZERS

STORED = "stored"  # the parser name that means "the stored parse", not a preset


@dataclass(frozen=True)
class Scheme:
    """How to label a row: ``parser`` is a preset name or ``"stored"`` (the stored parse)."""

    name: str
    parser: str
    normalizer: str = "v1"

    @property
    def uses_stored_parse(self) -> bool:
        """Whether the row's stored parse is the extracted value (no preset runs)."""
        return self.parser == STORED

    def spec(self) -> str:
        """The scheme as the command line writes it: ``NAME=PARSER:NORMALIZER``."""
        return f"{self.name}={self.parser}:{self.normalizer}"


def parse_scheme(text: str) -> Scheme:
    """Parse ``NAME=PARSER[:NORMALIZER]`` (normalizer defaults to v1).

    >>> parse_scheme("strict=freeform/v2:v2")
    Scheme(name='strict', parser='freeform/v2', normalizer='v2')
    """
    m = re.fullmatch(r"\s*([\w.\-]+)\s*=\s*([\w./\-]+)\s*(?::\s*([\w\-]+))?\s*", text)
    if m is None:
        raise ValueError(
            f"--scheme {text!r}: expected NAME=PARSER[:NORMALIZER], e.g. mine=freeform/v2:v2"
        )
    name, parser, normalizer = m.group(1), m.group(2), m.group(3) or "v1"
    if normalizer not in NORMALIZERS:
        raise ValueError(
            f"--scheme {text!r}: unknown normalizer {normalizer!r}; known: {', '.join(NORMALIZERS)}"
        )
    return Scheme(name, parser, normalizer)


# The stored parse under the v1 matcher: does the stored label agree with the stored parse?
CONSISTENCY = Scheme("consistency", STORED, "v1")


def merge_schemes(base: Sequence[Scheme], extra: Sequence[Scheme]) -> list[Scheme]:
    """``base`` with ``extra`` added; a scheme of the same name replaces the base one.

    >>> [s.spec() for s in merge_schemes([Scheme("a", "stored")], [Scheme("a", "choice/v4")])]
    ['a=choice/v4:v1']
    """
    merged = {s.name: s for s in base}
    merged.update({s.name: s for s in extra})
    return list(merged.values())
