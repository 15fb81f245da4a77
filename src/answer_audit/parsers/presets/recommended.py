"""Which preset to use for new work, per family, with the agreement that earned it.

Older versions stay available so past results can be reproduced; these are the ones defaults
and examples use (`answer-audit explain`, the README). The figures come from `make accuracy`
(benchmarks/accuracy.py) on the held-out splits of tests/labels (`--held-out` for the broad
corpus), and a test recomputes the choice and free-form ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class Recommendation:
    """The recommended preset of one parser family."""

    family: str
    """The parser family (``choice``, ``freeform``, ``number``, ``json``)."""
    preset: str
    """The preset's name."""
    matcher: str
    """The matcher (normalizer) to pair it with in a scheme."""
    agreement: str
    """Its measured agreement with careful human reading, and on what."""


RECOMMENDED: Mapping[str, Recommendation] = MappingProxyType(
    {
        r.family: r
        for r in (
            # choice/v9 was built with every held-out split before it (test, fresh, fresh2,
            # fresh3) as development data; its blind figure is the fourth fresh split, scored
            # once at the end
            Recommendation(
                "choice",
                "choice/v9",
                "v1",
                "100% of 110 held-out statute, short and chain-of-thought cases; 77.5% of 236 "
                "blind corpus cases in over 40 languages (choice/v8 70.8%, "
                "choice/letter-boundary 62.7%)",
            ),
            Recommendation(
                "freeform",
                "freeform/v4",
                "v4",
                "96.8% of 371 held-out conformity cases (as freeform/v3 + v3) and 100% of 40 "
                "held-out corpus cases (freeform/v3 + v3 85.0%)",
            ),
            Recommendation(
                "number",
                "number/v2",
                "numeric",
                "98.3% of 174 outputs written and labelled blind (number/v1 76.4%) and 98.4% of "
                "123 held-out corpus cases (number/v1 77.2%)",
            ),
            Recommendation(
                "json",
                "json/isup_grade/v2",
                "v1",
                "no human-labelled set yet; reads all v1 reads, and JSON as models write it",
            ),
        )
    }
)
