VENV ?= .venv
PY := $(VENV)/bin/python
PYTHON ?= python3

.PHONY: run test lint bench

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q '.[dev]'
	touch $@

run: $(VENV)/.installed
	bash bin/run

test: $(VENV)/.installed
	$(PY) -m pytest -q $(PYTEST_ARGS)

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy duocthu corpus retrieval answering chat

bench: $(VENV)/.installed
	$(PY) bench/resolver.py
	$(PY) bench/chat_turn.py
	$(PY) bench/embed.py
