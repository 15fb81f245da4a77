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
            # choice/v12 is choice/v11 without its silent wrong answers on look-alike labels (an
            # attack review's findings); both were scored once on the sixth fresh split, which
            # neither was built with, and read every labelled row alike
            Recommendation(
                "choice",
                "choice/v12",
                "v1",
                "100% of 110 held-out statute, short and chain-of-thought cases; 93.8% of 272 "
                "blind corpus cases (as choice/v11; choice/v10 92.6%, choice/v9 87.5%, "
                "choice/letter-boundary 65.1%), right on 99.1% of the cases it answers",
            ),
            # the v5 matcher was built with the first fresh free-form split as development
            # data; its blind figure is the second fresh split, scored once
            Recommendation(
                "freeform",
                "freeform/v4",
                "v5",
                "96.8% of 371 held-out conformity cases (as freeform/v3 + v3) and 100% of 40 "
                "held-out corpus cases; 80.7% of 140 blind short-answer cases in 16 languages "
                "(freeform/v4 + v4 77.1%; names given only in another language or as a "
                "synonym are its misses)",
            ),
            # number/v4 was built with the third blind number split (fresh3) as development
            # data; its blind figure is the fourth fresh number split, scored once
            Recommendation(
                "number",
                "number/v4",
                "numeric",
                "86.2% of 145 outputs written and labelled blind (number/v3 83.4%, lm-eval "
                "flexible-extract 51.7%), right on 87.8% of those it answers; 98.9% of a first "
                "blind split (172/174) and 98.4% of 123 held-out corpus cases",
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
