"""Shared test configuration: Hypothesis profiles, picked with HYPOTHESIS_PROFILE.

``default`` (100 examples) for `make test`: derandomized, so every run (and every xdist worker,
whichever tests it is handed) tries the same examples and a pass or fail is reproducible;
``fuzz`` (100,000 random examples, failures kept in .hypothesis/) for `make fuzz`, to explore.
Neither has a deadline: under a parallel run on a busy machine a slow example is not a bug.
A test's own ``@settings(max_examples=...)`` still wins over the profile.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("default", max_examples=100, deadline=None, derandomize=True)
settings.register_profile("fuzz", max_examples=100_000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
