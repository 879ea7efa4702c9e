# The README's two commands: `make lab` and `make test`. Both set everything up from nothing.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: lab test lint typecheck unit bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Reinstall only when the dependency list changes.
$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test,dev,lab]'
	touch $(STAMP)

lab: $(STAMP)
	mkdir -p notebooks
	$(VENV)/bin/jupyter lab --notebook-dir=notebooks --allow-root  # root: containers, this CI

test: $(STAMP) lint typecheck unit

PY_PATHS := mqlearn tests benchmarks tools

lint: $(STAMP)
	$(VENV)/bin/ruff check $(PY_PATHS)
	$(VENV)/bin/ruff format --check $(PY_PATHS)

typecheck: $(STAMP)
	$(VENV)/bin/mypy

unit: $(STAMP)
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) benchmarks/bench_engine.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
