# `make run` serves the site; `make test` runs every check; `make fuzz` fuzzes the API at
# length. All set up .venv on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.run-deps
TEST_STAMP := $(VENV)/.test-deps
PYTEST_ARGS ?=

FUZZ_EXAMPLES ?= 200

.PHONY: run test lint typecheck pytest fuzz clean

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

# `--dist load`: the group scheduler keys tests by node id, and schemathesis gives the API
# fuzz's operations one node id, so all but one of them were silently left out.
# `-rR`: the tests tried again are named in the summary.
pytest: $(TEST_STAMP)
	$(BIN)/pytest -n 2 --dist load -rR $(PYTEST_ARGS)

test: lint typecheck pytest

# The API fuzzed with many fresh examples per operation: on SQLite, then on PostgreSQL when
# one runs locally (RUMMYKIT_TEST_POSTGRES_URL). Prints the number of requests sent. Then the
# Rommé computers play 2,000 games under random rules (200 in `make test`), and the long
# randomised tests of the engines and solvers run ten times their `make test` length.
fuzz: $(TEST_STAMP)
	RUMMYKIT_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) RUMMYKIT_FUZZ_RANDOM=1 \
		$(BIN)/pytest -n 0 -s -p no:randomly -p no:warnings tests/web/test_fuzz.py
	RUMMYKIT_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) RUMMYKIT_FUZZ_RANDOM=1 RUMMYKIT_FUZZ_DATABASE=postgresql \
		$(BIN)/pytest -n 0 -s -p no:randomly -p no:warnings -rs tests/web/test_fuzz.py
	RUMMYKIT_BOT_CHUNKS=80 $(BIN)/pytest -n 2 -p no:randomly \
		tests/romme_solver/test_bots.py -k random_rules
	RUMMYKIT_TEST_SCALE=10 $(BIN)/pytest -n 2 -p no:randomly \
		tests/romme/test_properties.py -k seeded_random_rounds \
		tests/tiles_solver/test_solver_exact.py -k rummikub_solver

clean:
	rm -rf $(VENV) build src/*.egg-info
