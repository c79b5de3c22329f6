"""Shared fixtures: a fresh example campaign per test and a way to run the CLI.

`run(...)` drives the real entry point (`narateer_cli.cli.main`) in process,
so exit statuses, stdout and stderr are exactly what a user sees; `sh(...)`
does the same in a separate process for what only a real process shows.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from narateer_cli.testing.kit import Ran, narateer

REPO = Path(__file__).resolve().parent.parent


# Every property test draws the same examples on every run (a flaky test is a defect: CI's verdict must be
# the code's, never the draw's); NARATEER_EXPLORE=1 draws fresh ones to look for new failures. Nor is the
# verdict the machine's: no property is about time, so no example has a deadline and slow data generation
# fails nothing (on two workers beside other work, an example of 5 ms sometimes waits 200 ms for a core).
settings.register_profile("fixed", derandomize=True, database=None, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("explore")
settings.load_profile("explore" if os.environ.get("NARATEER_EXPLORE", "") not in ("", "0") else "fixed")

Result = Ran  # one command's exit code, stdout and stderr (the conformance kit's record)


def run(campaign: Path | None, *args: str, env: dict | None = None) -> Result:
    """One narateer command in this process (the kit's `narateer`), with `env` set around it."""
    old_env = {}
    for key, value in (env or {}).items():
        old_env[key] = os.environ.get(key)
        os.environ[key] = value
    try:
        return narateer(campaign, *args)
    finally:
        for key, value in old_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def sh(campaign: Path | None, *args: str, env: dict | None = None, timeout: float = 60) -> Result:
    argv = [sys.executable, "-m", "narateer_cli"]
    argv += (["--campaign", str(campaign)] if campaign is not None else []) + [str(a) for a in args]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})
    return Result(proc.returncode, proc.stdout, proc.stderr)


def children_cpu() -> float:
    """CPU seconds (user + system) used by every child process this one has waited for so far. The difference
    around one `sh` is that command's own cost, which a busy machine does not stretch as it stretches the
    clock: a bound on it holds whatever else the machine runs."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def ok(camp: Path, *args: str):
    """Run a command with --json; it must succeed; return its JSON object."""
    r = run(camp, "--json", *args)
    assert r.code == 0, (args, r.err)
    return r.json


def refused(camp: Path, code: int, *args: str, contains: str | None = None, rule: str | None = None) -> str:
    """The command fails with `code`, says so in one stderr line with no rule id in it (T2-RULES), prints
    nothing (with --json: only the error's JSON object), writes nothing. `contains`: a part of that line
    that says why; `rule`: the rule id the error cites, checked where it stays, the --json object's `rule`
    field. One of the two is required: an exit code alone passes a refusal for another reason."""
    if contains is None and rule is None:
        raise TypeError("refused() needs contains= or rule=: say why the command is refused")
    before = snapshot(camp)
    r = run(camp, *args)
    assert r.code == code, (args, r.code, r.out, r.err)
    assert len(r.err.strip().splitlines()) == 1, r.err
    assert "Traceback" not in r.err
    assert r.out == "" if "--json" not in args else json_error(r, code)
    if contains is not None:
        assert contains in r.err, r.err
    assert snapshot(camp) == before
    if rule is not None:
        assert rule not in r.err, r.err
        again = r if "--json" in args else run(camp, "--json", *args)
        assert json_error(again, code)["rule"] == rule, again.out
        assert snapshot(camp) == before
    return r.err


def json_error(r: Result, code: int) -> dict:
    """A failed command's --json answer: one JSON object on stdout with the error, its rule and fix."""
    import json

    assert r.code == code and r.out.count("\n") == 1, (r.code, r.out, r.err)
    data = json.loads(r.out)
    assert set(data) == {"error", "rule", "fix", "exit"} and data["exit"] == code, data
    return data


def reseal_secret(root: Path, record_path: Path, record: dict):
    """Rewrite a secret roll's private record as the machine that rolled it would (sealed, G-PRIV-2): a
    roller who lies on their own machine, which verify must still catch."""
    from narateer_cli.store import private

    fields = {k: v for k, v in record.items() if k != "mac"}
    record_path.write_text(private.sealed(root, "secret", record_path.stem, fields))


def sheet_dice(camp: Path, cid: str) -> dict:
    """A character's action_dice counts as the file holds them."""
    from ruamel.yaml import YAML

    return dict(YAML(typ="safe").load((camp / "characters" / f"{cid}.yaml").read_text())["action_dice"])


def snapshot(root: Path) -> dict:
    """Every file's bytes under the campaign, except the tool's private folder."""
    out = {}
    for path in sorted(root.rglob("*")):
        parts = path.relative_to(root).parts
        if path.is_file() and ".narateer" not in parts and parts[:2] != (".git", "narateer"):
            out[str(path.relative_to(root))] = path.read_bytes()
    return out


def matches_golden(outputs: dict, name: str, folder: Path, suffix: str = "txt", code: int = 0):
    """Step `name` of `outputs` ({name: (code, stdout, stderr)}) exited with `code` (success unless told),
    wrote nothing to stderr and printed exactly the golden file `folder/name.suffix`;
    NARATEER_GOLDEN_UPDATE=1 rewrites the file first (a deliberate change)."""
    got, out, err = outputs[name]
    assert (got, err) == (code, ""), err
    golden = folder / f"{name}.{suffix}"
    if os.environ.get("NARATEER_GOLDEN_UPDATE"):
        golden.write_text(out, encoding="utf-8")
    assert out == golden.read_text(encoding="utf-8")


class Steady:
    """Golden text's moving parts as placeholders: the campaign folder (CAMP), dates, clock times, full entry ids
    (each keeps one name, ENTRY-n by first sight, so `real` turns the name back into the id) and the short ids
    of `encounter log` rows (IDIDIDI); the rest stays byte for byte."""

    def __init__(self, root: Path):
        self.root, self.ids = root, {}

    def __call__(self, text: str) -> str:
        text = text.replace(str(self.root), "CAMP")
        text = re.sub(r"\b\d{4}-\d\d-\d\d\b", "YYYY-MM-DD", text)
        text = re.sub(r"\b\d\d:\d\d:\d\d\b", "HH:MM:SS", text)
        text = re.sub(r"\b\d\d:\d\d\b", "HH:MM", text)
        text = re.sub(r"(?m)^(\s*\d+  )[0-9a-f]{7}(  )", r"\1IDIDIDI\2", text)
        return re.sub(r"\b[0-9a-f]{12}\b", self._name, text)

    def _name(self, match) -> str:
        return self.ids.setdefault(match.group(0), f"ENTRY-{len(self.ids) + 1}")

    def real(self, arg: str) -> str:
        return next((eid for eid, name in self.ids.items() if name == arg), arg)


def git_config(tmp_path: Path, monkeypatch, extra: str = "[init]\n\tdefaultBranch = main\n") -> Path:
    """A git configuration of the test's own (who commits, then `extra`), with the machine's global and system
    ones out of the way: each git the test runs, narateer's included, reads only it."""
    config = tmp_path / "gitconfig"
    config.write_text("[user]\n\tname = t\n\temail = t@example.org\n" + extra)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    return config


def example_campaign(root: Path, system: str | None = None) -> Path:
    """A fresh copy of a game's example campaign at `root` (Narateer's when `system` is None) with no current
    encounter."""
    result = run(None, "init", str(root), *(("--system", system) if system else ()), "--example")
    assert result.code == 0, result.err
    config = root / "narateer.yaml"
    config.write_text("".join(line for line in config.read_text().splitlines(True) if not line.startswith("encounter:")))
    return root


@pytest.fixture
def camp(tmp_path) -> Path:
    """A fresh copy of the example campaign with no current encounter."""
    return example_campaign(tmp_path / "camp")


@pytest.fixture
def encounter_camp(camp) -> Path:
    """The example campaign with the `ambush` encounter current (selka, sentry, mira, bandit)."""
    config = camp / "narateer.yaml"
    config.write_text(config.read_text() + "encounter: ambush\n")
    return camp


# ---- what the run tells at its end, run in one process or on several workers (pytest-xdist) -------------------
# The stress tests' figures (tests/stress/stats.py) and the browser the serve tests found missing are collected
# where a test runs; on workers, each hands them at its end to the process that prints the summary.

BROWSER_MISSING: list[str] = []  # what new_browser (tests/serve/conftest.py) did not find
BROWSER_INSTALL = "apt-get install -y chromium chromium-driver"


def pytest_sessionfinish(session):
    handed = getattr(session.config, "workeroutput", None)  # set in a pytest-xdist worker only
    if handed is not None:
        from tests.stress import stats

        handed["narateer"] = {"stress": dict(stats.STATS), "counted": sorted(stats.COUNTED),
                              "browser_missing": list(BROWSER_MISSING)}


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """A worker's figures, in the process that prints the summary (a pytest-xdist hook)."""
    from tests.stress import stats

    got = getattr(node, "workeroutput", {}).get("narateer")
    if got:
        stats.merge(got["stress"], got["counted"])
        BROWSER_MISSING.extend(got["browser_missing"])


def pytest_terminal_summary(terminalreporter):
    from tests.stress import stats

    if stats.STATS:
        terminalreporter.section("narateer stress figures")
        for key in sorted(stats.STATS):
            terminalreporter.write_line(f"{key}: {stats.STATS[key]}")
    if BROWSER_MISSING:
        terminalreporter.write_line(
            f"!!! BROWSER TESTS SKIPPED: no headless Chromium ({BROWSER_MISSING[0]} missing). "
            f"Install it with `{BROWSER_INSTALL}` (Debian) and `pip install -e '.[test,serve]'`, then run `make test` "
            "again.", red=True, bold=True)
