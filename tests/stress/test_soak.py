"""`make test` plays the stress cases short and `make soak` long (`make test` under five
minutes, the long runs in `make soak`, CI runs both)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import REPO


def soak_amounts(value: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "NARATEER_SOAK"}
    if value is not None:
        env["NARATEER_SOAK"] = value
    code = ("from tests.stress import test_kill, test_sigint, test_concurrency, test_state_machine as sm;"
            "s = sm.EncounterMachine.TestCase.settings;"
            "print(test_kill.ROUNDS, test_sigint.ROUNDS, test_concurrency.PER_WORKER, s.max_examples, s.stateful_step_count)")
    return subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True,
                          check=True, timeout=60).stdout.split()


def test_the_stress_cases_run_short_in_make_test_and_long_in_make_soak():
    short, long = soak_amounts(None), soak_amounts("1")
    assert soak_amounts("0") == short
    assert all(int(a) < int(b) for a, b in zip(short, long)), (short, long)
    assert int(long[0]) >= 5 * int(short[0]) and int(long[3]) >= 5 * int(short[3])  # kill rounds, machine examples


def test_make_soak_sets_the_variable_and_ci_runs_it_after_make_test():
    makefile = (REPO / "Makefile").read_text()
    assert "\nsoak: " in makefile and "NARATEER_SOAK=1 $(BIN)/python -m pytest tests/stress/" in makefile
    ci = [line for line in (REPO / ".ci" / "run").read_text().splitlines() if line.startswith("make ")]
    assert ci == ["make test", "make soak"]
