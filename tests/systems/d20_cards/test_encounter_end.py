"""d20-cards encounters between turns and at their end, through the command line (R-CARD-ACT-1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from tests.conftest import ok, refused, run, snapshot


@pytest.fixture
def d20(tmp_path) -> Path:
    root = tmp_path / "d20"
    assert run(None, "init", str(root), "--system", "d20-cards", "--example").code == 0
    ok(root, "encounter", "new", "fight", "mira", "bandit")
    return root


def test_acting_when_no_turn_is_going_says_how_to_start_one(d20):
    ok(d20, "turn", "start", "mira")
    ok(d20, "turn", "end")
    err = refused(d20, 3, "act", "mira", "strike", "--target", "bandit", "--faces", "15", rule="R-CARD-ACT-1")
    assert err == ("narateer: no turn is going in encounter fight; "
                   "run `narateer turn start mira` first\n")
    assert "None" not in err


def test_a_companion_between_turns_is_told_to_start_its_owners_turn(d20):
    err = refused(d20, 3, "act", "mira", "peck", "--companion", "pip", "--target", "bandit", "--faces", "15",
                  contains="no turn is going in encounter fight")
    assert "no turn is going" in err and "narateer turn start mira" in err


def test_encounter_end_logs_and_clears_the_current_encounter(d20):
    ok(d20, "turn", "start", "mira")
    data = ok(d20, "encounter", "end")
    assert data == {"id": "fight", "current": False}
    config = YAML(typ="safe").load((d20 / "narateer.yaml").read_text())
    assert "encounter" not in config
    entries = ok(d20, "encounter", "log", "fight")["entries"]
    assert entries[-1]["command"] == "encounter end"
    # an act afterwards is outside any encounter: no turn gate, the sheets change, the campaign log holds it
    ok(d20, "act", "mira", "strike", "--target", "bandit", "--faces", "15")
    refused(d20, 2, "encounter", "end", contains="no current encounter")


def test_encounter_end_names_a_misspelt_encounter(d20):
    refused(d20, 2, "encounter", "end", "fihgt", contains="did you mean fight?")


def test_encounter_end_can_be_undone(d20):
    before = snapshot(d20)
    ok(d20, "encounter", "end")
    ok(d20, "undo", "fight")
    after = snapshot(d20)
    assert after["narateer.yaml"] == before["narateer.yaml"]


def test_encounter_end_help_shows_a_d20_example(d20):
    r = run(d20, "encounter", "end", "--help")
    assert r.code == 0 and "narateer encounter end" in r.out and "ambush" not in r.out
