# narateer: `make demo` plays the example campaign, `make test` runs the tests.
# `make soak` runs the stress cases long (CI runs it after `make test`).
# All create .venv and install the package into it first.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install demo test soak bench mutate screenshots clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[test,serve]'
	touch $(STAMP)

demo: $(STAMP)
	NARATEER=$(BIN)/narateer bash scripts/demo.sh

# the suite is CPU bound: it runs on two workers (pytest-xdist), one a core of the 2-core machine it is sized
# for; `make test TEST_WORKERS=0` runs it in this one process. `--dist loadgroup` keeps each group of tests
# marked `xdist_group` on one worker (the browser tests: tests/serve/conftest.py says why). Bytecode is cached
# in .venv even where PYTHONDONTWRITEBYTECODE is set: each narateer process a test starts would otherwise
# compile the package again (about 50 ms of CPU, half of a short command's), and pytest its test modules.
TEST_WORKERS ?= 2

test: $(STAMP)
	PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(CURDIR)/$(VENV)/pycache \
		$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup

# the stress cases (state machines of every game, kills, SIGINT, eight processes, clones syncing through one
# bare repository) with many more rounds and examples than `make test` plays; each checks the same things
# either way (tests/stress/soak.py)
soak: $(STAMP)
	NARATEER_SOAK=1 $(BIN)/python -m pytest tests/stress/test_state_machine.py tests/stress/test_kill.py \
		tests/stress/test_sigint.py tests/stress/test_concurrency.py tests/stress/test_sync.py \
		tests/stress/test_history_machines.py tests/stress/test_sync_rounds.py

# the pictures kept in tests/artifacts/ (guide-, party- and player-GAME.png): each game's Guide's screen, party's
# page and a player's page in headless Chromium, at a desktop's width and a phone's
screenshots: $(STAMP)
	NARATEER_SCREENSHOTS=1 $(BIN)/python -m pytest -n 0 -p no:randomly tests/serve/test_panel_browser.py -k screenshots

bench: $(STAMP)
	$(BIN)/python scripts/bench.py

# mutation testing of the engines, luck.py and the merge driver ([tool.mutmut] in pyproject.toml names the
# files and the tests; each mutant runs only the selected tests that reach its function); prints each file's
# figures and fails when a file that was run kills under 85% of its non-equivalent mutants
# (scripts/mutation_floor.py, scripts/mutants-equivalent.txt). Long: CI does not run it. One file at a time:
# MUTANTS="narateer_cli.luck*" (luck.py: minutes), MUTANTS="narateer_cli.store.merge*" (merge.py: 4 minutes).
MUTATE_WORKERS ?= 1

mutate: $(STAMP)
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[mutate]'
	nice -n 19 $(BIN)/mutmut run --max-children $(MUTATE_WORKERS) $(MUTANTS)
	$(BIN)/python scripts/mutation_floor.py

clean:
	rm -rf $(VENV) mutants .pytest_cache .hypothesis build *.egg-info
