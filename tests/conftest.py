"""Shared test configuration: Hypothesis profiles, picked with HYPOTHESIS_PROFILE.

``default`` (100 examples) for `make test`; ``fuzz`` (100,000 examples) for `make fuzz`.
A test's own ``@settings(max_examples=...)`` still wins over the profile.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("default", max_examples=100, deadline=None)
settings.register_profile("fuzz", max_examples=100_000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
