"""Narateer's `new` writes movement and weapons, and a weapon may carry a range (T-FIGHT)."""

from __future__ import annotations

from ruamel.yaml import YAML

from tests.conftest import ok, refused, run


def _sheet(camp, cid):
    return YAML(typ="safe").load((camp / "characters" / f"{cid}.yaml").read_text())


def test_new_writes_movement_and_weapons_that_exchange_reads(camp):
    ok(camp, "new", "tam", "--skill", "melee=2", "--movement", "walk=12", "--movement", "run=18",
       "--weapon", "spear=1:3:2", "--weapon", "Club=2:4")
    doc = _sheet(camp, "tam")
    assert doc["movement"] == {"walk": 12, "run": 18}
    assert doc["weapons"] == {"spear": {"attack_cost": 1, "damage": 3, "range": 2},
                              "club": {"attack_cost": 2, "damage": 4}}
    assert ok(camp, "check")["problems"] == []
    assert ok(camp, "show", "tam")["movement"] == {"walk": 12, "run": 18}
    ok(camp, "encounter", "new", "duel", "tam", "bandit")
    ok(camp, "turn", "start", "tam")
    data = ok(camp, "exchange", "tam", "bandit", "--weapon", "club", "--response", "none", "--faces", "2,2")
    assert data["attack"]["base_cost"] == 2  # the club's attack cost, as written by new


def test_a_sheet_weapon_may_carry_a_range(camp):
    path = camp / "characters" / "mira.yaml"
    path.write_text(path.read_text().replace("sword: {attack_cost: 1, damage: 3}",
                                             "sword: {attack_cost: 1, damage: 3, range: 1}"))
    assert "range: 1" in path.read_text()
    assert ok(camp, "check")["problems"] == []
    path.write_text(path.read_text().replace("range: 1", "range: -1"))
    assert run(camp, "check").code == 1


def test_new_refuses_an_unknown_mode_and_a_malformed_weapon(camp):
    refused(camp, 2, "new", "tam", "--movement", "fly=3", contains="unknown movement mode 'fly'")
    refused(camp, 2, "new", "tam", "--weapon", "bow=1", contains="COST:DAMAGE")
    refused(camp, 2, "new", "tam", "--weapon", "bow=1:x:3", contains="COST:DAMAGE")
    refused(camp, 2, "new", "tam", "--weapon", "bow=1:2:99999", contains="past the limit of 10000")
    refused(camp, 2, "new", "tam", "--from", "sentry", "--weapon", "bow=1:2", contains="do not go with --from")
