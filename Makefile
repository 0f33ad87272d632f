# The two commands of the README: `make run` and `make test`. Each sets up what it needs.
PYTHON ?= python3.11
VENV   ?= .venv
BIN     = $(VENV)/bin
PORT   ?= 8000
STAMP   = $(VENV)/.installed

.PHONY: run test setup lint demo bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python requirements.txt requirements-dev.txt
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

setup: $(STAMP)

## make run: install, migrate, load the demo event, serve on http://127.0.0.1:$(PORT)
run: setup
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py migrate --noinput
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py demo
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

## make test: the whole suite (browser tests run when Debian's chromium is installed)
test: setup
	$(BIN)/python -m pytest -n $${TEST_WORKERS:-auto} $(PYTEST_ARGS)

lint: setup
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
