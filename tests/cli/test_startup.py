"""Start-up cost stays out of a roll's path: a roll in an encounter parses no YAML (it reads
the parses kept by the last command), prints no table and reads no installed package's metadata (each
costs more than 5 ms), and `--help` loads no storage code.

Each probe runs in a fresh interpreter without `site` (python -S, the packages put on sys.path by
hand), so nothing a start-up hook of this environment imported hides what narateer itself imports.
"""

from __future__ import annotations

import json
import site
import subprocess
import sys

from tests.conftest import REPO, run

ROLL_HEAVY = ("ruamel.yaml", "tabulate", "importlib.metadata", "narateer_cli.systems.narateer.commands.pools")
PROBE = """
import json, sys
paths, args, watch = (json.loads(arg) for arg in sys.argv[1:4])
sys.path[:0] = paths
sys.argv = ["narateer", *args]
from narateer_cli import run
try:
    code = run()
except SystemExit as exc:
    code = exc.code
import gc
print("PROBE", json.dumps({"code": code, "gc": gc.isenabled(),
                           "loaded": [m for m in watch if m in sys.modules]}))
"""


def probe(args: list[str], watch, cwd) -> dict:
    paths = [str(REPO), *site.getsitepackages()]
    r = subprocess.run([sys.executable, "-S", "-c", PROBE, json.dumps(paths), json.dumps(args), json.dumps(watch)],
                       cwd=cwd, capture_output=True, text=True, timeout=60)
    lines = [line for line in r.stdout.splitlines() if line.startswith("PROBE ")]
    assert lines, r.stdout + r.stderr
    return json.loads(lines[-1][len("PROBE "):])


def log_entries(camp) -> list[dict]:
    path = camp / "encounters" / "ambush.log.yaml"
    text = path.read_text() if path.exists() else ""
    return [json.loads(line[2:]) for line in text.splitlines() if line.startswith("- {")]


def test_a_roll_in_an_encounter_loads_nothing_heavy_and_is_logged(camp, tmp_path):
    roll = ["roll", "selka", "stealth", "--dr", "3", "--reaction", "--in", "ambush", "--json", "--force"]
    assert run(camp, *roll).code == 0  # the first command parses the YAML and keeps the parses (.narateer/)
    before = len(log_entries(camp))
    got = probe(["--campaign", str(camp), *roll], ROLL_HEAVY, tmp_path)
    assert got["code"] == 0
    assert got["loaded"] == []
    entries = log_entries(camp)
    assert len(entries) == before + 1 and entries[-1]["command"] == "roll" and entries[-1]["actor"] == "selka"
    # the logged chance is exact: 1 die against DR 3 can never exceed it
    assert entries[-1]["result"]["chance"] == "0/1"


def test_the_collector_is_on_while_a_command_runs(camp, tmp_path):
    got = probe(["--campaign", str(camp), "show", "selka", "--json"], [], tmp_path)
    assert got["code"] == 0 and got["gc"] is True


def test_help_outside_a_campaign_loads_no_storage(tmp_path):
    got = probe(["--help"], ["narateer_cli.store"], tmp_path)
    assert got["code"] == 0 and got["loaded"] == []


def test_version_and_help_texts_are_click_s_own(camp):
    assert run(None, "--version").out == "narateer, version 0.1.0\n"
    assert "  -h, --help" in run(camp, "roll", "--help").out
    assert "Show this message and exit." in run(camp, "--help").out
