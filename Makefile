# narateer: `make demo` plays the example campaign, `make test` runs the tests.
# Both create .venv and install the package into it first.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install demo test bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[test,serve]'
	touch $(STAMP)

demo: $(STAMP)
	NARATEER=$(BIN)/narateer bash scripts/demo.sh

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python scripts/bench.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
