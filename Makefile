# Two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install test lint demo docs clean

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

clean:
	rm -rf $(VENV) tmp .pytest_cache .mypy_cache .ruff_cache

docs: $(STAMP)
	$(BIN)/python scripts/update_readme.py
