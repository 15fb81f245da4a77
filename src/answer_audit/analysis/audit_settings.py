"""What decides an audit's numbers besides the table: `AuditSettings`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from answer_audit.analysis.conclusions_results import ConclusionSettings
from answer_audit.analysis.conclusions_section import conclusion_settings
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
    compare: str | None = None
    """Column whose levels are compared (model, condition, source...): the conclusions check
    whether each effect and ranking survives re-labelling. None: no conclusions. The other
    ``group_by`` columns are its strata."""
    baseline: str | None = None
    """Level of ``compare`` every other level is compared with (None: every pair)."""
    item: str | None = None
    """Column naming the question, so that an item's rows are resampled together (cluster
    bootstrap); None treats rows as independent."""

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
        self.conclusion_settings()  # refuses a baseline or item without compare, and the like

    def conclusion_settings(self) -> ConclusionSettings | None:
        """What the conclusions compare (strata: the group-by columns but ``compare``), seeded
        and sized like the audit's other intervals; None without ``compare``."""
        return conclusion_settings(
            self.compare, self.baseline, self.item, self.group_by,
            seed=self.seed, n_boot=self.n_boot, alpha=self.alpha,
        )  # fmt: skip

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
