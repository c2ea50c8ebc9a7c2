# Two entry points for a fresh machine (see README.md):
#   make serve   install everything, then serve the site with live reload on http://127.0.0.1:8000/
#   make test    install everything, then run every check: lint, strict build, pytest (with browser tests)
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
export NO_MKDOCS_2_WARNING := 1

.PHONY: setup serve test test-fast lint build browser clean zensical

setup: $(VENV)/.installed node_modules/.installed

# -qq: pip reports only errors. The warnings it printed here were not about the project: the machine's
# package-index settings, and the notice setuptools gives on every editable install (pip 26 shows it).
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -qq --upgrade pip
	$(PY) -m pip install -qq -e '.[dev]'
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Debian's Chromium and a CJK font for the browser tests; never a browser downloaded by Playwright.
browser:
	@if [ ! -x /usr/bin/chromium ] || ! fc-list 2>/dev/null | grep -qi "Noto Sans CJK"; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; \
	  else \
	    echo "The browser tests need Debian's chromium and fonts-noto-cjk: sudo apt-get install chromium fonts-noto-cjk"; exit 2; \
	  fi; \
	fi

serve: setup
	$(VENV)/bin/mkdocs serve

lint: setup
	$(PY) scripts/lint.py

build: setup
	$(VENV)/bin/mkdocs build --strict --quiet -d site

# The same site built with Zensical (the successor of Material for MkDocs) into site-zensical/:
# optional, the MkDocs path never needs it (zensical_adapter/build.py).
zensical: setup
	@$(PY) -c "import zensical" 2>/dev/null || $(PY) -m pip install -qq -e '.[zensical]'
	$(PY) zensical_adapter/build.py --strict -d site-zensical

test: setup browser
	$(VENV)/bin/ruff check --quiet .
	$(PY) scripts/lint.py
	$(VENV)/bin/mkdocs build --strict --quiet -d site
	$(PY) -m pytest

# The suite without the browser and the slow builds and servers (markers: pyproject.toml): a quick loop.
test-fast: setup
	$(VENV)/bin/ruff check --quiet .
	$(PY) -m pytest -m "not browser and not slow" -q

clean:
	rm -rf site site-zensical .zensical .cache artifacts .bench
