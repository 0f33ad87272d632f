# The two commands of the README: `make run` and `make test`. Each sets up what it needs.
PYTHON ?= python3.11
VENV   ?= .venv
BIN     = $(VENV)/bin
PORT   ?= 8000
STAMP   = $(VENV)/.installed

.PHONY: run dev test setup lint demo bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python requirements.txt requirements-dev.txt
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

# bbpPairings, the engine of the FIDE (Dutch) System 2025, built from vendor/ (see
# scripts/build-bbppairings: without a compiler it warns and the product pairs by 2017, saying so)
BBP     = $(BIN)/bbpPairings
$(BBP): $(BIN)/python vendor/bbpPairings/COMMIT scripts/build-bbppairings
	scripts/build-bbppairings $(BBP)

setup: $(STAMP) $(BBP)

## make run: install, migrate, load the demo event, serve the hall's network on port $(PORT)
## (DEBUG off, as at the venue: friendly error pages, static files collected)
run: setup
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo
	$(BIN)/python manage.py collectstatic --noinput -v 0
	$(BIN)/python manage.py serve --port $(PORT)

## make dev: the same with DEBUG on (Django's debug pages), on this computer only
dev: setup
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py demo
	DEBUG=1 $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

## make test: the whole suite (browser tests run when Debian's chromium is installed).
## Bytecode is written even where the machine says not to (PYTHONDONTWRITEBYTECODE): the suite
## starts about a hundred servers and commands, and each compiled every module again (0.4 s).
test: setup
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $${TEST_WORKERS:-auto} --dist worksteal $(PYTEST_ARGS)

lint: setup
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
