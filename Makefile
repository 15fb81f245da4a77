# Two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install test lint demo docs bench bench-full fuzz accuracy clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# Every Python file we keep; ruff checks and format-checks them all.
PY_PATHS := src tests benchmarks scripts

# The same checks run by .pre-commit-config.yaml. mypy's file list (the package and the tests) is
# `files` in pyproject.toml's [tool.mypy]; lint-imports checks the layer contracts there
# (--no-cache: the graph takes a third of a second, not worth a cache folder).
lint: $(STAMP)
	$(BIN)/ruff check $(PY_PATHS)
	$(BIN)/ruff format --check $(PY_PATHS)
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

# The suite in parallel (pytest-xdist, one worker per core). Tests that share an xdist_group run
# on one worker, one after another: "browser" (one Chromium at a time) and "timing" (tests that
# assert on wall-clock time). `make test PYTEST_WORKERS=0` runs everything in one process.
PYTEST_WORKERS ?= auto

test: lint
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadgroup --durations=10

demo: $(STAMP)
	$(BIN)/answer-audit demo --out tmp/demo

# Speed and memory targets live here, never in timed unit tests (see benchmarks/README.md).
bench: $(STAMP)
	$(BIN)/python benchmarks/scan.py
	$(BIN)/python benchmarks/hostile.py
	$(BIN)/python benchmarks/ratios.py
	$(BIN)/python benchmarks/choice_ratios.py
	$(BIN)/python benchmarks/run.py

bench-full: $(STAMP)
	$(BIN)/python benchmarks/scan.py
	$(BIN)/python benchmarks/hostile.py
	$(BIN)/python benchmarks/ratios.py
	$(BIN)/python benchmarks/choice_ratios.py
	$(BIN)/python benchmarks/run.py --full
	$(BIN)/python benchmarks/ray_engine.py --rows 10000000

# The property tests with 100,000 examples per function (the default run uses 100).
fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=fuzz $(BIN)/pytest tests/test_properties.py

# Agreement of every preset with the human labels in tests/labels (dev and held-out test split).
# Options go in ACCURACY_ARGS: `make accuracy ACCURACY_ARGS="--held-out --errors"`.
ACCURACY_ARGS ?=
accuracy: $(STAMP)
	$(BIN)/python benchmarks/accuracy.py $(ACCURACY_ARGS)

clean:
	rm -rf $(VENV) tmp .pytest_cache .mypy_cache .ruff_cache .hypothesis

# Regenerates docs/cli.md (every command's --help) and the preset table in docs/presets.md;
# tests/test_docs.py fails when either is stale.
docs: $(STAMP)
	$(BIN)/python scripts/update_docs.py
