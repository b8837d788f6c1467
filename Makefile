VENV ?= .venv
PY := $(VENV)/bin/python
PYTHON ?= python3

.PHONY: run test lint bench

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q '.[dev]'
	@# pip builds the (package-less) project in place; leave the work tree as it was.
	rm -rf build duocthu.egg-info
	touch $@

run: $(VENV)/.installed
	bash bin/run

# One xdist worker per core and one more (3 here and in CI), each on its own test database
# (test_duocthu_gw0, …): the browser and server tests wait on other processes, and with one
# worker per core a core stood idle for ~20 of the run's ~180 CPU-seconds (84.5 s with 2
# workers, 80.0 s with 3, this machine idle). loadgroup hands tests out one at a time in
# conftest.py's order (the longest first), a module marked xdist_group staying on one worker.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
# Bytecode is written (__pycache__/, ignored by git) even where the environment says
# PYTHONDONTWRITEBYTECODE (this machine's does): otherwise every process of the run — both
# workers, the servers and commands the tests start — compiled the app and the test modules
# again, ~2.5 s a worker's collection and ~0.3 s each process.
test: $(VENV)/.installed
	env -u PYTHONDONTWRITEBYTECODE $(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy duocthu corpus retrieval answering chat

bench: $(VENV)/.installed
	$(PY) bench/ingest.py
	$(PY) bench/resolver.py
	$(PY) bench/chat_turn.py
	$(PY) bench/embed.py
