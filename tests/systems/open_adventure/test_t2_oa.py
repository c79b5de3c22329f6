"""T2-OA through the command line: Challenge Points on `new --npc`, points and wounds on `encounter show`,
and the Minor Action verb."""

from __future__ import annotations

from ruamel.yaml import YAML

from tests.conftest import ok, refused, run


def _sheet(camp, cid) -> dict:
    return YAML(typ="safe").load((camp / "characters" / f"{cid}.yaml").read_text())


def test_new_npc_points_challenge_writes_challenge_points_T2_OA(oa):
    d = ok(oa, "new", "wolf2", "--npc", "--points", "challenge=8")
    assert d["challenge_points"] == 8 and d["npc"] and "Challenge Points 8" in d["message"]
    doc = _sheet(oa, "wolf2")
    assert doc["challenge_points"] == 8 and "points" not in doc
    r = run(oa, "check")
    assert r.code == 0, r.err
    assert ok(oa, "points", "wolf2", "challenge", "-3")["after"] == 5


def test_new_npc_text_says_challenge_points_T2_OA(oa):
    r = run(oa, "new", "wolf2", "--npc", "--points", "challenge=8", "--points", "body=4")
    assert r.code == 0 and r.out.strip() == "created characters/wolf2.yaml (Challenge Points 8)"
    assert _sheet(oa, "wolf2")["points"] == {"body": 4}


def test_new_pc_points_challenge_refused_T2_OA(oa):
    refused(oa, 2, "new", "kara", "--points", "challenge=3", contains="NPC")
    refused(oa, 2, "new", "wolf2", "--npc", "--points", "challenge=x", contains="--points challenge")


def _hall(oa):
    ok(oa, "encounter", "new", "hall", "bloodwind", "warheart", "goblin", "orc",
       "--reaction", "bloodwind=9", "--reaction", "warheart=5")


def test_encounter_show_lists_points_wounds_challenge_conditions_T2_OA(oa):
    _hall(oa)
    ok(oa, "points", "bloodwind", "body", "-3")
    ok(oa, "wound", "orc")
    ok(oa, "condition", "goblin", "+prone")
    ok(oa, "condition", "warheart", "+stunned", "--rounds", "1")
    rows = {p["id"]: p for p in ok(oa, "encounter", "show")["participants"]}
    assert list(rows) == ["bloodwind", "goblin", "warheart", "orc"]
    assert rows["bloodwind"]["points"] == {"body": 9, "mind": 8, "spirit": 9} and "challenge_points" not in rows["bloodwind"]
    assert rows["goblin"]["challenge_points"] == 6 and rows["goblin"]["conditions"] == ["prone"]
    assert rows["orc"]["wounds"] == 1 and rows["orc"]["challenge_points"] == 12
    assert rows["warheart"]["rounds_left"] == {"stunned": 1}
    out = run(oa, "encounter", "show").out.splitlines()
    assert out[0].startswith("hall: Round 1, no Turn going")
    assert out[2].split() == ["participant", "body", "mind", "spirit", "wounds", "challenge", "conditions"]
    table = {line.split()[0]: line for line in out[4:]}
    assert table["bloodwind"].split() == ["bloodwind", "9", "8", "9", "0", "-", "-"]
    assert table["goblin"].split() == ["goblin", "(NPC)", "-", "-", "-", "0", "6", "prone"]
    assert table["orc"].split() == ["orc", "(NPC)", "10", "-", "-", "1", "12", "-"]
    assert table["warheart"].split()[-4:] == ["-", "stunned", "(1", "Round", "left)"][-4:]


def test_turn_minor_spends_the_minor_action_once_per_turn_T2_OA(oa):
    _hall(oa)
    refused(oa, 3, "turn", "minor", contains="no Turn is going")
    ok(oa, "turn", "start")
    refused(oa, 3, "turn", "minor", "goblin", contains="not goblin's Turn")
    d = ok(oa, "turn", "minor", "--what", "draw the axe")
    assert d["actor"] == "bloodwind" and d["minor"] is False and d["major"] is True and d["what"] == "draw the axe"
    assert "bloodwind spends the Minor Action: draw the axe" in d["message"]
    assert ok(oa, "encounter", "show")["minor"] is False
    refused(oa, 3, "turn", "minor", "bloodwind", contains="Minor Action")
    log = run(oa, "encounter", "log", "--last", "1")
    assert log.code == 0 and "draw the axe" in log.out
    assert run(oa, "verify").code == 0
    ok(oa, "turn", "end")
    ok(oa, "turn", "start")
    r = run(oa, "turn", "minor")
    assert r.code == 0 and r.out.strip() == "goblin spends the Minor Action (Major Action left)"
    assert run(oa, "undo").code == 0
    assert ok(oa, "encounter", "show")["minor"] is True
