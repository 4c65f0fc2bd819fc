# Two commands do all set-up on a fresh machine:
#   make run    - the main job on the bundled library
#   make test   - the whole test suite (what CI runs)
VENV ?= .venv
PYTHON ?= python3
PY := $(VENV)/bin/python

.PHONY: setup run test lint perf clean

# --no-compile: byte-compiling every installed file (ray's alone are thousands) costs more CPU than compiling, on
# first import, the modules that are used
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --no-compile --upgrade pip
	$(PY) -m pip install --quiet --no-compile -e '.[dev]'
	touch $@

setup: $(VENV)/.installed

# The engine is installed where it can be (root or password-less sudo, apt-get); elsewhere one line says so and
# the pipeline runs every step but the engine episodes.
run: setup
	sh scripts/install-engine.sh --optional
	$(VENV)/bin/taskverse pipeline --out out --force

test: setup engine-setup lint
	$(PY) -m pytest

lint: setup
	$(VENV)/bin/ruff check src tests scripts
	$(VENV)/bin/mypy

perf: setup
	for script in scripts/perf/*.py; do echo "== $$script"; taskset -c 0 $(PY) $$script || exit 1; done

clean:
	rm -rf $(VENV) .cache
engine-setup: ; sh scripts/install-engine.sh
