# `make run` serves the site; `make test` runs every check. Both set up .venv on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.run-deps
TEST_STAMP := $(VENV)/.test-deps
PYTEST_ARGS ?=

.PHONY: run test lint typecheck pytest clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(RUN_STAMP)

run: $(RUN_STAMP)
	$(BIN)/rummykit serve

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests

typecheck: $(TEST_STAMP)
	$(BIN)/mypy

pytest: $(TEST_STAMP)
	$(BIN)/pytest -n 2 --dist loadgroup $(PYTEST_ARGS)

test: lint typecheck pytest

clean:
	rm -rf $(VENV) build src/*.egg-info
