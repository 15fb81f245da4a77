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

lint: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

demo: $(STAMP)
	$(BIN)/answer-audit demo --out tmp/demo

# Speed and memory targets live here, never in timed unit tests (see benchmarks/README.md).
bench: $(STAMP)
	$(BIN)/python benchmarks/scan.py
	$(BIN)/python benchmarks/hostile.py
	$(BIN)/python benchmarks/run.py

bench-full: $(STAMP)
	$(BIN)/python benchmarks/scan.py
	$(BIN)/python benchmarks/hostile.py
	$(BIN)/python benchmarks/run.py --full

# The property tests with 100,000 examples per function (the default run uses 100).
fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=fuzz $(BIN)/pytest tests/test_properties.py -q

# Agreement of every preset with the human labels in tests/labels (dev and held-out test split).
accuracy: $(STAMP)
	$(BIN)/python benchmarks/accuracy.py

clean:
	rm -rf $(VENV) tmp .pytest_cache .mypy_cache .ruff_cache

docs: $(STAMP)
	$(BIN)/python scripts/update_readme.py
