# The README's two commands: `make lab` and `make test`. Both set everything up from nothing.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: lab app lite lite-serve test lint typecheck unit notebooks browser bench fuzz binder-url clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Reinstall only when the dependency list changes. Then compile the local replay's numba code
# (about 15 s, cached beside the modules), so that a learner's first replay does not.
$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[pipeline,test,dev,lab,teach]'
	$(VENV)/bin/mqlearn pipeline compile
	touch $(STAMP)

# JupyterLab on the repository (so the course's links to docs/, such as each rule ID's entry in
# docs/rules.md, open), starting on the course's first notebook. --allow-root: containers, this CI.
lab: $(STAMP)
	$(VENV)/bin/jupyter lab --ServerApp.root_dir=. notebooks/00_start_here.ipynb --allow-root

# The queue workbench alone, as a web app without code (Voila). A pre-heated kernel has run the
# notebook before the page is asked for, so the app paints at once (benchmarks/bench_browser.py).
# Voila also reads ./voila.json (the extensions a Voila page does not load), as on Binder.
APP_OPTIONS := --preheat_kernel=True
# JUPYTER_PATH: where Voila finds mqlearn's template (an editable install does not copy it).
app: $(STAMP)
	JUPYTER_PATH=$(CURDIR)/share/jupyter$${JUPYTER_PATH:+:$$JUPYTER_PATH} \
	  $(VENV)/bin/voila $(APP_OPTIONS) notebooks/workbench.ipynb

# The course as a JupyterLite site in build/lite: notebooks 00-08 and the workbench run in the
# learner's browser (Pyodide), no Python server, nothing fetched from another host at page time
# (tools/lite_build.py; its tools in a build venv of their own, build/lite-env). Skipped when
# build/lite was built from the same inputs. LITE_PYODIDE=cdn leaves Pyodide to its public CDN.
LITE_PYODIDE ?= local
lite:
	$(PYTHON) tools/lite_build.py --pyodide $(LITE_PYODIDE)

# Serves build/lite on http://127.0.0.1:8000/lab/index.html (any static web server will do).
lite-serve: lite
	$(PYTHON) tools/lite_serve.py --port 8000

test: $(STAMP) lint typecheck unit notebooks browser

PY_PATHS := mqlearn tests benchmarks tools

lint: $(STAMP)
	$(VENV)/bin/ruff check $(PY_PATHS)
	$(VENV)/bin/ruff format --check $(PY_PATHS)
	$(PY) -m pytest -q tests/test_layers.py  # the layering contract (no upward imports)

typecheck: $(STAMP)
	$(VENV)/bin/mypy

unit: $(STAMP)
	$(PY) -m pytest --ignore=tests/browser

# Every course notebook runs top to bottom; cells marked NBVAL_CHECK_OUTPUT must reproduce their
# saved output. Listed by name so nothing else (checkpoints, data) is ever collected.
NOTEBOOKS := $(wildcard notebooks/*.ipynb)
notebooks: $(STAMP)
	@test -n "$(NOTEBOOKS)" || { echo "no notebooks/*.ipynb to run" >&2; exit 1; }
	$(PY) -m pytest --nbval-lax --nbval-current-env \
		--nbval-sanitize-with tests/nbval_sanitize.cfg $(NOTEBOOKS)

# Real chromium (/usr/bin/chromium) against Voila and JupyterLab; .ci/run installs it.
browser: $(STAMP)
	$(PY) -m pytest tests/browser

# The engine benchmark, then click-to-paint in real Chromium (benchmarks/bench_browser.py); each
# writes benchmarks/results/<name>.json, and docs/performance.md is rendered from those files.
bench: $(STAMP)
	$(PY) benchmarks/bench_engine.py --results
	$(PY) benchmarks/bench_browser.py --results
	$(PY) tools/performance_doc.py

# The property and differential tests with fresh random examples, seed after seed, for
# FUZZ_MINUTES; prints every seed tried and how to replay a failing one (tools/fuzz.py).
FUZZ_MINUTES ?= 30
fuzz: $(STAMP)
	$(PY) tools/fuzz.py --minutes $(FUZZ_MINUTES)

# The Binder links (course, workbench app) of this repository, read from its GitHub remote.
binder-url:
	@$(PYTHON) tools/binder_url.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis tests/artifacts
