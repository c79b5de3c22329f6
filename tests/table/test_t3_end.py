"""T3-END: `encounter end` ends every timed condition the encounter started and names each (text and --json),
unless the Guide keeps them (`--keep-conditions`, then they keep their rounds); no timed condition outlives its
encounter silently, in any game. Through the command line, with the faces of the case."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from tests.conftest import example_campaign, ok, refused, run, snapshot

LOAD = YAML(typ="safe").load




def _conditions(root: Path, cid: str) -> list:
    return list(LOAD((root / "characters" / f"{cid}.yaml").read_text()).get("conditions") or [])


@pytest.fixture
def d20(tmp_path) -> Path:
    return example_campaign(tmp_path / "d20", "d20-cards")


def test_T3_END_d20_blinded_for_two_rounds_ends_with_its_fight_and_spares_the_next_strike(d20):
    ok(d20, "encounter", "new", "fight", "mira", "bandit")
    ok(d20, "turn", "start", "mira")
    ok(d20, "condition", "mira", "+blinded", "--rounds", "2")
    r = run(d20, "encounter", "end")
    assert r.code == 0, r.err
    assert r.out == ("encounter fight ended; changes outside encounters now go to the campaign log\n"
                     "conditions ended with it: mira blinded\n")
    assert _conditions(d20, "mira") == []
    assert LOAD((d20 / "encounters" / "fight.yaml").read_text())["durations"] == {}
    assert run(d20, "verify", "fight").code == 0
    # the next fight: Mira's Strike at face 15 is 15 + fin 4 = 19 against bandit's AC 14, no blind -10
    ok(d20, "encounter", "new", "fight2", "mira", "bandit")
    ok(d20, "turn", "start", "mira")
    attack = ok(d20, "act", "mira", "strike", "--target", "bandit", "--faces", "15")["targets"][0]["attack"]
    assert (attack["penalty"], attack["total"], attack["hit"]) == (0, 19, True)


def test_T3_END_d20_the_end_names_each_condition_in_json_and_undo_puts_them_back(d20):
    ok(d20, "encounter", "new", "fight", "mira", "bandit")
    ok(d20, "condition", "mira", "+blinded", "--rounds", "2")
    ok(d20, "condition", "bandit", "+immobilized", "+nullified:1", "--rounds", "3")
    before = snapshot(d20)
    data = ok(d20, "encounter", "end")
    assert data == {"id": "fight", "current": False,
                    "ended": [{"char": "mira", "condition": "blinded"}, {"char": "bandit", "condition": "immobilized"},
                              {"char": "bandit", "condition": "nullified"}]}
    assert _conditions(d20, "bandit") == []
    entry = ok(d20, "encounter", "log", "fight")["entries"][-1]
    assert entry["state"]["bandit"] == {"before": {"conditions": ["immobilized", "nullified:1"]},
                                        "after": {"conditions": []}}
    assert "ending mira's blinded" in run(d20, "encounter", "log", "fight").out
    ok(d20, "undo", "fight")
    assert snapshot(d20) == {**before, "encounters/fight.log.yaml": snapshot(d20)["encounters/fight.log.yaml"]}


def test_T3_END_d20_kept_conditions_stay_with_their_rounds(d20):
    ok(d20, "encounter", "new", "fight", "mira", "bandit")
    ok(d20, "turn", "start", "mira")
    ok(d20, "condition", "mira", "+blinded", "--rounds", "2")
    r = run(d20, "encounter", "end", "--keep-conditions")
    assert r.code == 0, r.err
    assert r.out.splitlines()[1] == "conditions kept (--keep-conditions): mira blinded (2 rounds left)"
    assert _conditions(d20, "mira") == ["blinded"]
    state = LOAD((d20 / "encounters" / "fight.yaml").read_text())
    assert state["durations"] == {"mira": {"blinded": 3}} and state["round"] == 1
    entry = ok(d20, "encounter", "log", "fight")["entries"][-1]
    assert entry["declaration"] == {"keep_conditions": True}
    assert entry["result"]["kept"] == [{"char": "mira", "condition": "blinded", "rounds_left": 2}]
    # kept, the Guide's choice: blind in the next fight, at the blind penalty
    ok(d20, "encounter", "new", "fight2", "mira", "bandit")
    ok(d20, "turn", "start", "mira")
    attack = ok(d20, "act", "mira", "strike", "--target", "bandit", "--faces", "15")["targets"][0]["attack"]
    assert (attack["penalty"], attack["total"], attack["hit"]) == (-10, 9, False)


def test_T3_END_an_encounter_with_no_timer_ends_as_before(d20):
    ok(d20, "encounter", "new", "fight", "mira", "bandit")
    ok(d20, "condition", "mira", "+blinded")  # no --rounds: the Guide's, not the encounter's
    assert ok(d20, "encounter", "end") == {"id": "fight", "current": False}
    assert _conditions(d20, "mira") == ["blinded"]


def test_T3_END_narateer_stunned_ends_with_its_encounter(tmp_path):
    camp = example_campaign(tmp_path / "n")
    ok(camp, "encounter", "new", "brawl", "selka", "mira", "bandit")
    ok(camp, "turn", "start", "selka")
    ok(camp, "condition", "bandit", "+stunned", "--rounds", "2")
    ok(camp, "condition", "mira", "+slowed")  # untimed: stays
    r = run(camp, "encounter", "end")
    assert r.code == 0 and r.out.endswith("conditions ended with it: bandit stunned\n"), r.out
    assert _conditions(camp, "bandit") == [] and _conditions(camp, "mira") == ["slowed"]
    assert run(camp, "verify", "brawl").code == 0
    # no longer stunned: bandit's Opportunity Attack in the next encounter is not refused for it
    ok(camp, "encounter", "new", "alley", "selka", "bandit")
    r = run(camp, "react", "bandit", "opportunity", "--against", "selka", "--faces", "1")
    assert "stunned" not in r.err


def test_T3_END_narateer_keep_conditions(tmp_path):
    camp = example_campaign(tmp_path / "n")
    ok(camp, "encounter", "new", "brawl", "selka", "bandit")
    ok(camp, "turn", "start", "selka")
    ok(camp, "condition", "bandit", "+stunned", "--rounds", "2")
    data = ok(camp, "encounter", "end", "--keep-conditions")
    assert data["kept"] == [{"char": "bandit", "condition": "stunned", "rounds_left": 2}]
    assert _conditions(camp, "bandit") == ["stunned"]


def test_T3_END_open_adventure_prone_ends_with_its_encounter(tmp_path):
    camp = example_campaign(tmp_path / "oa", "open-adventure")
    ok(camp, "encounter", "new", "hall", "bloodwind", "goblin", "--reaction", "bloodwind=9")
    ok(camp, "condition", "goblin", "+prone", "--rounds", "2")
    ok(camp, "condition", "bloodwind", "+dazed", "--rounds", "1")
    data = ok(camp, "encounter", "end")
    assert data["ended"] == [{"char": "goblin", "condition": "prone"}, {"char": "bloodwind", "condition": "dazed"}]
    assert _conditions(camp, "goblin") == [] and _conditions(camp, "bloodwind") == []
    assert run(camp, "verify", "hall").code == 0


def test_T3_END_help_shows_keep_conditions(d20):
    r = run(d20, "encounter", "end", "--help")
    assert r.code == 0 and "--keep-conditions" in r.out and "narateer encounter end --keep-conditions" in r.out


def test_T3_END_a_game_that_cannot_end_its_timers_refuses_unless_they_are_kept(tmp_path, monkeypatch):
    """A game that gives no `end_conditions` (a plug-in's, here Narateer without it) ends no timer silently."""
    from narateer_cli.kit import Game
    from narateer_cli.systems import load_system
    from narateer_cli.systems.narateer.game import Narateer

    monkeypatch.setattr(Narateer, "end_conditions", Game.end_conditions)
    load_system("narateer")._found.pop("end_conditions", None)
    try:
        camp = example_campaign(tmp_path / "n")
        ok(camp, "encounter", "new", "brawl", "selka", "bandit")
        ok(camp, "turn", "start", "selka")
        ok(camp, "condition", "bandit", "+stunned", "--rounds", "2")
        refused(camp, 3, "encounter", "end", contains="bandit's stunned would outlive encounter brawl", rule="T3-END")
        data = ok(camp, "encounter", "end", "--keep-conditions")
        assert data["kept"] == [{"char": "bandit", "condition": "stunned", "rounds_left": 2}]
    finally:
        load_system("narateer")._found.pop("end_conditions", None)
