SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

VENV ?= .venv
PY := $(VENV)/bin/python
MANAGE := $(PY) manage.py
HOST ?= 127.0.0.1
PORT ?= 8000
# The second test run's database; Django creates and drops test_amnesia_table (_gw0, _gw1...).
PG_TEST_URL ?= postgres://postgres@127.0.0.1:5432/amnesia_table
# pytest-xdist workers; 0 runs everything in one process.
TEST_WORKERS ?= 2
PYTEST := $(PY) -m pytest -n $(TEST_WORKERS)
# Python keeps the bytecode of what it compiles (__pycache__, ignored by git), whatever the
# environment says: every test run starts dozens of Python processes (the test workers, the
# servers, workers and commands the tests start), and without it each compiled the site and the
# test modules again (a test worker's collection took twice the CPU time).
unexport PYTHONDONTWRITEBYTECODE

# make backup: dated copies of the database in BACKUP_DIR, the newest BACKUP_KEEP kept.
BACKUP_DIR ?= backups
BACKUP_KEEP ?= 14

# make serve listens on every interface unless HOST is given (make run: this machine only).
SERVE_HOST := $(if $(filter file,$(origin HOST)),0.0.0.0,$(HOST))

.PHONY: help setup run serve test types test-sqlite test-postgres lint format bench backup

help:
	@echo "make run     set up, migrate, load the demo, serve on http://$(HOST):$(PORT)/ with the workers"
	@echo "make serve   set up, migrate, load the demo, serve the phones on $(SERVE_HOST):$(PORT) (Granian, workers)"
	@echo "make test    set up, lint and types, run the tests (checks, migrations) on SQLite and PostgreSQL"
	@echo "make lint    ruff check, ruff format --check and mypy"
	@echo "make format  ruff format and ruff check --fix"
	@echo "make bench   run each bench/*.py"
	@echo "make backup  a dated copy of the database in $(BACKUP_DIR)/, the newest $(BACKUP_KEEP) kept"

setup:
	@scripts/setup.sh

# The site: the set-up leaves out what only the tests need (Chromium, epubcheck, Java).
# devserver is runserver plus the workers (books, long runs), stopped together by Ctrl-C.
run:
	@SETUP_FOR=run scripts/setup.sh
	$(MANAGE) migrate --noinput
	$(MANAGE) generate_area_cards
	$(MANAGE) demo
	DEBUG=$${DEBUG:-1} $(MANAGE) devserver $(HOST):$(PORT)

# The logic is the serve command's (games/management/commands/serve.py): set-up, checks, the
# secret key, the addresses, collectstatic, then Granian and the workers, supervised.
serve:
	@SETUP_FOR=run scripts/setup.sh
	$(MANAGE) serve --host $(SERVE_HOST) --port $(PORT)

# Django's system checks (manage.py check, the game contract among them) and the models'
# agreement with the migrations (makemigrations --check) are tests, run on both engines:
# tests/games/test_checks.py and tests/test_migrations.py.
# The two runs, one after the other. Running them at once (make -j3) was tried: on 2 cores it took
# more wall time and about a fifth more CPU time (four test workers, their servers and the browser
# fighting for the cores), measured back to back (docs/development.md, make test). The types
# (mypy, one process, ~12 s of CPU) are checked beside the SQLite run, which leaves a core idle
# now and then (a browser waiting on a page): their words are printed when the SQLite run ends,
# and a type error stops make test there, before the PostgreSQL run.
# TEST_MEMO_DIR: a folder for this make test alone, where the tests keep the pictures that the
# same input always makes alike (tests/memo.py), so the second worker and the PostgreSQL run read
# them instead of drawing them again; removed after, so the next make test draws them anew.
test: setup
	$(PY) -m ruff check .
	@memo=$$(mktemp -d -t amnesia-test-memo.XXXXXX); types=$$(mktemp -t amnesia-types.XXXXXX); \
	trap 'kill $${mypy:-} 2>/dev/null || true; rm -rf "$$memo" "$$types"' EXIT; \
	$(PY) -m mypy >"$$types" 2>&1 & mypy=$$!; \
	TEST_MEMO_DIR="$$memo" $(MAKE) --no-print-directory test-sqlite || sqlite=$$?; \
	echo "$(PY) -m mypy"; typed=0; wait $$mypy || typed=$$?; cat "$$types"; \
	if [ "$${sqlite:-0}" != 0 ] || [ "$$typed" != 0 ]; then exit 1; fi; \
	TEST_MEMO_DIR="$$memo" $(MAKE) --no-print-directory test-postgres

types:
	$(PY) -m mypy

test-sqlite:
	DATABASE_URL= $(PYTEST)

# Runs when PostgreSQL answers; in CI (CI=true) a silent database is a failure, not a skip.
# Only the tests that reach the database run there (tests/conftest.py says which; --every-test
# runs them all).
test-postgres:
	@if $(PY) -c 'import psycopg, sys; psycopg.connect(sys.argv[1], dbname="postgres", connect_timeout=3).close()' '$(PG_TEST_URL)' 2>/dev/null; then \
	  echo "DATABASE_URL=$(PG_TEST_URL) $(PYTEST)"; \
	  DATABASE_URL='$(PG_TEST_URL)' $(PYTEST); \
	elif [[ "$${CI:-}" =~ ^(1|true|yes)$$ ]]; then \
	  echo "PostgreSQL does not answer at $(PG_TEST_URL): CI needs it." >&2; exit 1; \
	else \
	  echo "PostgreSQL does not answer at $(PG_TEST_URL): its test run is skipped."; \
	fi

lint: setup
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy

format: setup
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

bench: setup
	@shopt -s nullglob; files=(bench/*.py); \
	if [ $${#files[@]} -eq 0 ]; then echo "no benchmarks in bench/ yet"; fi; \
	for file in "$${files[@]}"; do \
	  echo "== $$file"; DJANGO_SETTINGS_MODULE=amnesia_site.settings PYTHONPATH=. $(PY) "$$file"; \
	done

# No set-up first: it runs beside a live site (from cron, say), whose .venv is there already.
backup:
	$(MANAGE) backup --into $(BACKUP_DIR) --keep $(BACKUP_KEEP)
