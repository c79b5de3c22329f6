"""T3-APPLY: harm a command computes but does not deal says so, with the command that deals it (words and
`--json`); Open Adventure's Effect lowers the target's Challenge Points with `--apply`. The d20 game's `act`
deals its damage itself: nothing is left to say there."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import example_campaign, ok, refused, run


def _oa(root: Path) -> Path:
    assert run(None, "init", str(root), "--system", "open-adventure", "--example").code == 0
    config = root / "narateer.yaml"
    config.write_text("".join(line for line in config.read_text().splitlines(True) if not line.startswith("encounter:")))
    return root


@pytest.fixture
def brawl(tmp_path) -> Path:
    camp = example_campaign(tmp_path / "n")
    ok(camp, "encounter", "new", "brawl", "mira", "bandit", "sentry")
    ok(camp, "turn", "start", "mira")
    return camp


# mira's sword (damage 3), Boost 1: faces 2,2 total 4 beat bandit's Melee Readiness 2
SWORD = ("exchange", "mira", "bandit", "--weapon", "sword", "--boost", "1", "--response", "none", "--faces", "2,2")


def test_T3_APPLY_the_engine_names_the_wound_an_exchange_left_undealt():
    from narateer_cli.systems.narateer.engine.combat import ExchangeResult, OpportunityResult

    landed = ExchangeResult("mira", "bandit", "none", None, None, "attacker", 2, "Success", 3)
    assert landed.to_json()["not_applied"] == {"target": "bandit", "damage": 3, "command": "narateer wound bandit 3"}
    clash = landed.replace(lands="defender", damage=2)  # the defender's Clash lands on the attacker
    assert clash.to_json()["not_applied"]["command"] == "narateer wound mira 2"
    assert "not_applied" not in landed.replace(applied={"actor": "bandit", "moved": 3}).to_json()
    assert "not_applied" not in landed.replace(lands=None).to_json()
    assert "not_applied" not in landed.replace(damage=None).to_json()  # no weapon, no damage to deal
    react = OpportunityResult("sentry", "mira", "opportunity", None, True, 1, "Success", None, damage=3)
    assert react.to_json()["not_applied"]["command"] == "narateer wound mira 3"


def test_T3_APPLY_an_exchange_without_apply_names_the_wound_command(brawl):
    r = run(brawl, *SWORD)
    assert r.code == 0, r.err
    assert r.out.splitlines()[-2:] == ["=> mira lands: Hit Margin 2 (Success), damage 3",
                                       "not applied: run `narateer wound bandit 3` (or add --apply)"]
    data = ok(brawl, *SWORD)
    assert data["not_applied"] == {"target": "bandit", "damage": 3, "command": "narateer wound bandit 3"}
    # the command it names deals exactly what --apply would have
    before = ok(brawl, "show", "bandit")["dice"]
    ok(brawl, "wound", "bandit", "3")
    assert ok(brawl, "show", "bandit")["dice"].get("wounded", 0) == before.get("wounded", 0) + 3


def test_T3_APPLY_with_apply_nothing_is_left_to_say(brawl):
    r = run(brawl, *SWORD, "--apply")
    assert r.code == 0 and "not applied" not in r.out and "applied: bandit takes 3 wound(s)" in r.out
    assert "not_applied" not in ok(brawl, *SWORD, "--apply")


# -- Open Adventure ------------------------------------------------------------------------------------------------
# amicus: strength 4 + MO 2 = AS 6, d6+d6; goblin's Body Defense 5 is the DS; faces 5,4 = 9: Effect 4;
# the goblin has 6 Challenge Points

HIT = ("roll", "amicus", "strength", "--mo", "--vs", "goblin:body", "--faces", "5,4")


def test_T3_APPLY_open_adventure_apply_lowers_challenge_points_by_the_effect(tmp_path):
    camp = _oa(tmp_path / "oa")
    data = ok(camp, *HIT, "--apply")
    assert data["effect"] == 4 and data["applied"] == {"target": "goblin", "pool": "challenge", "before": 6, "after": 2}
    assert "not_applied" not in data
    assert "challenge_points: 2 " in (camp / "characters" / "goblin.yaml").read_text()
    r = run(camp, *HIT, "--apply")
    assert r.code == 0 and "  applied: goblin Challenge Points 2 -> 0" in r.out.splitlines()
    assert run(camp, "verify", "campaign").code == 0
    undone = run(camp, "undo")
    assert undone.code == 0 and "challenge_points: 2 " in (camp / "characters" / "goblin.yaml").read_text()


def test_T3_APPLY_open_adventure_without_apply_names_the_points_command(tmp_path):
    camp = _oa(tmp_path / "oa")
    before = (camp / "characters" / "goblin.yaml").read_bytes()
    r = run(camp, *HIT)
    assert r.code == 0, r.err
    assert "  not applied: run `narateer points goblin challenge -4` (or roll with --apply)" in r.out.splitlines()
    data = ok(camp, *HIT)
    assert data["not_applied"] == {"target": "goblin", "effect": 4, "command": "narateer points goblin challenge -4"}
    assert (camp / "characters" / "goblin.yaml").read_bytes() == before
    assert ok(camp, "points", "goblin", "challenge", "-4")["after"] == 2


def test_T3_APPLY_open_adventure_a_failure_or_a_target_with_no_challenge_points_says_nothing(tmp_path):
    camp = _oa(tmp_path / "oa")
    failed = ok(camp, "roll", "amicus", "strength", "--mo", "--vs", "goblin:body", "--faces", "2,1", "--apply")
    assert failed["success"] is False and "applied" not in failed and "not_applied" not in failed
    assert "not_applied" not in ok(camp, "roll", "amicus", "strength", "--mo", "--ds", "5", "--faces", "5,4")


def test_T3_APPLY_open_adventure_apply_without_challenge_points_is_bad_input_before_any_roll(tmp_path):
    camp = _oa(tmp_path / "oa")
    refused(camp, 2, "roll", "amicus", "strength", "--mo", "--ds", "5", "--faces", "5,4", "--apply",
            contains="--apply lowers the target's Challenge Points: name the target")
    refused(camp, 2, "roll", "amicus", "strength", "--mo", "--vs", "bloodwind:body", "--faces", "5,4", "--apply",
            contains="bloodwind has none")
    refused(camp, 2, "resolve", "amicus", "--intent", "x", "--auto", "--apply", contains="--apply lowers")


def test_T3_APPLY_open_adventure_a_secret_roll_may_not_apply(tmp_path):
    camp = _oa(tmp_path / "oa")
    refused(camp, 3, *HIT, "--apply", "--secret", contains="drop --secret")


def test_T3_APPLY_open_adventure_resolve_check_applies_too(tmp_path):
    camp = _oa(tmp_path / "oa")
    data = ok(camp, "resolve", "amicus", "--intent", "spear the goblin", "--check", "strength", "--mo",
              "--vs", "goblin:body", "--faces", "5,4", "--apply")
    assert data["check"]["applied"]["after"] == 2
