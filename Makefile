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
	$(BIN)/answer-audit explain --parser choice/v3 "$$(printf '問題文....\n\nAnswer: c')"
	$(BIN)/answer-audit explain --parser json/isup_grade 'Here: {"isup_grade": null} I hope this helps'
	$(BIN)/answer-audit explain --parser freeform/v2 "$$(printf 'hmm</think> Paris.\nUSER: and Rome?')"

clean:
	rm -rf $(VENV) tmp .pytest_cache .mypy_cache .ruff_cache

docs: $(STAMP)
	$(BIN)/python scripts/update_readme.py
