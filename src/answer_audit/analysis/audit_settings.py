"""What decides an audit's numbers besides the table: `AuditSettings`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from answer_audit.analysis.stats import as_integer, check_bootstrap, check_fraction
from answer_audit.parsers.choice import validated_choices
from answer_audit.schemes.apply import KINDS, KindName


@dataclass(frozen=True)
class AuditSettings:
    """Everything besides the table that decides an audit's numbers."""

    kind: KindName = "freeform"
    """The kind of answer, by name (`answer_audit.schemes.kinds.KINDS`): picks the default
    schemes and matchers."""
    group_by: tuple[str, ...] = ()
    """Columns whose values split the rows into groups, each compared on its own."""
    seed: int = 0
    """Seed of the bootstrap intervals and of the sample of flip examples."""
    n_boot: int = 1000
    """Bootstrap resamples per interval."""
    alpha: float = 0.05
    """A group is significant when its Holm-adjusted McNemar p is below this."""
    max_examples: int = 30
    """Flip examples to sample (and post-think losses to keep)."""
    choices: str | None = None
    """Choice audits: the choice letters (None: each preset's own)."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {self.kind!r}")
        if isinstance(self.group_by, str):
            raise TypeError(
                f"group_by takes a sequence of column names, e.g. ({self.group_by!r},); "
                f"got the string {self.group_by!r}"
            )
        object.__setattr__(self, "group_by", tuple(self.group_by))
        check_bootstrap(self.n_boot, self.seed)
        check_fraction("alpha", self.alpha, 0.05)
        examples = as_integer(self.max_examples)
        if examples is None or examples < 0:
            raise ValueError(
                f"max_examples must be a non-negative integer; got {self.max_examples!r}"
            )
        if self.choices is not None:
            object.__setattr__(self, "choices", validated_choices(self.choices))

    def to_dict(self) -> dict[str, Any]:
        """The settings as the JSON report's ``settings`` (the scheme list is added there)."""
        return {
            "kind": self.kind,
            "group_by": self.group_by,
            "seed": self.seed,
            "n_boot": self.n_boot,
            "alpha": self.alpha,
            "max_examples": self.max_examples,
            "choices": self.choices,
        }
