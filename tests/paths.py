"""Where the tests find the repository, their data files and the shared real outputs."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
# Real model outputs live beside the repository, never in it; tests that read them skip when absent.
REAL = REPO.parent / "shared" / "data" / "real"
