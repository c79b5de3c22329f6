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
