"""Forge's rules with the numbers it ships, its exact odds against a count of every roll, and the kit."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from narateer_cli.kit import BadInput, Refused, load_system
from narateer_cli.testing import test_conformance  # noqa: F401  one test per check of the conformance kit
from narateer_cli.testing.kit import narateer  # a narateer command in this process, as the shell runs it

from narateer_forge import engine

NARATEER_SYSTEMS = ["forge"]


def shared_files(camp):
    """The campaign's own files (the private folder holds caches a read may fill)."""
    return {p: p.read_bytes() for p in camp.rglob("*") if p.is_file() and ".narateer" not in p.parts}


@pytest.fixture(scope="module")
def rules():
    return load_system("forge").ruleset({})


def sheet(rules, stress=0, trauma=0, **actions):
    doc = {"name": "T", "actions": actions, "track": {"stress": stress, "trauma": trauma, "harm": 0}}
    return engine.parse_sheet("t", doc, "t.yaml", rules)


def counted(pool, rules):
    """Every outcome's chance by listing every roll of the pool."""
    n = engine.rolled_count(pool, rules)
    tally: dict = {}
    for faces in itertools.product(range(1, 7), repeat=n):
        outcome = engine.judge(pool, list(faces), rules)["outcome"]
        tally[outcome] = tally.get(outcome, 0) + 1
    return {k: Fraction(tally.get(k, 0), 6 ** n) for k in engine.OUTCOME_WORDS}


def counted_costs(rating, rules):
    n = engine.rolled_count(rating, rules)
    tally: dict = {}
    for faces in itertools.product(range(1, 7), repeat=n):
        judged = engine.judge(rating, list(faces), rules)
        cost = -rules.crit_clears if judged["critical"] else rules.resist_base - judged["highest"]
        tally[cost] = tally.get(cost, 0) + 1
    return {k: Fraction(v, 6 ** n) for k, v in sorted(tally.items())}


@pytest.mark.parametrize("pool", [0, 1, 2, 3, 4, 5])
def test_outcome_odds_are_exact(rules, pool):
    assert engine.outcome_chances(pool, rules) == counted(pool, rules)
    assert sum(engine.outcome_chances(pool, rules).values()) == 1


@pytest.mark.parametrize("pool", [0, 1, 2, 3, 4])
def test_resistance_costs_are_exact(rules, pool):
    assert engine.cost_chances(pool, rules) == counted_costs(pool, rules)


@pytest.mark.parametrize("pool", [0, 1, 3])
def test_odds_follow_the_campaigns_rules(pool):
    generous = load_system("forge").ruleset({"success": 5, "partial": 3})
    assert engine.outcome_chances(pool, generous) == counted(pool, generous)
    assert engine.cost_chances(pool, generous) == counted_costs(pool, generous)


def test_highest_die_decides(rules):
    s = sheet(rules, skirmish=3)
    assert engine.action(s, "skirmish", 0, False, [1, 5, 2], rules)["outcome"] == "Partial success"
    assert engine.action(s, "skirmish", 0, False, [3, 2, 1], rules)["outcome"] == "Bad outcome"
    one = engine.action(s, "skirmish", 0, False, [6, 2, 1], rules)
    assert (one["outcome"], one["critical"], one["success"]) == ("Success", False, True)
    two = engine.action(s, "skirmish", 0, False, [6, 6, 1], rules)
    assert (two["outcome"], two["critical"]) == ("Critical", True)


def test_no_dice_rolls_two_and_keeps_the_lowest(rules):
    s = sheet(rules)
    result = engine.action(s, "wreck", 0, False, [6, 6], rules)
    assert (result["pool"], result["highest"], result["outcome"], result["critical"]) == (0, 6, "Success", False)
    assert engine.action(s, "wreck", 0, False, [6, 2], rules)["outcome"] == "Bad outcome"
    with pytest.raises(BadInput, match="rolls 2"):
        engine.action(s, "wreck", 0, False, [6], rules)


def test_push_adds_a_die_for_two_stress_and_overflows_into_trauma(rules):
    s = sheet(rules, stress=8, prowl=1)
    result = engine.action(s, "prowl", 0, True, [2, 4], rules)
    assert (result["pool"], result["stress_after"], result["trauma_after"]) == (2, 0, 1)


def test_resistance_costs_six_minus_the_highest(rules):
    s = sheet(rules, stress=3, skirmish=2, wreck=1)     # prowess 2: two actions rated
    result = engine.resist(s, "prowess", [4, 2], rules)
    assert (result["rating"], result["cost"], result["stress_after"]) == (2, 2, 5)
    crit = engine.resist(s, "prowess", [6, 6], rules)
    assert (crit["cost"], crit["stress_after"]) == (-1, 2)
    zero = engine.resist(s, "insight", [5, 1], rules)     # no insight action: two dice, the lowest
    assert (zero["rating"], zero["cost"], zero["stress_after"]) == (0, 5, 8)


def test_stress_past_its_maximum_is_a_trauma_and_resets(rules):
    s = sheet(rules, stress=7, trauma=1, skirmish=1)
    result = engine.resist(s, "prowess", [3], rules)
    assert (result["stress_after"], result["trauma_after"], result["trauma_marked"]) == (0, 2, True)
    retired = sheet(rules, stress=9, trauma=4, skirmish=1)
    with pytest.raises(Refused, match="traumas"):
        engine.resist(retired, "prowess", [1], rules)


def test_verify_finds_an_edited_face(rules):
    s = sheet(rules, skirmish=2)
    result = engine.action(s, "skirmish", 0, False, [6, 3], rules)
    entry = {"seq": 7, "command": "roll", "actor": "t", "result": result}
    assert engine.verify_log([entry], rules) is None
    edited = {**entry, "result": {**result, "faces": [4, 3]}}
    assert "entry 7 (roll)" in engine.verify_log([edited], rules)


def test_an_unknown_ruleset_key_names_the_closest():
    with pytest.raises(BadInput, match="stress_max"):
        load_system("forge").ruleset({"stres_max": 8})


def example(tmp_path):
    camp = tmp_path / "c"
    assert narateer(None, "init", str(camp), "--system", "forge", "--example").code == 0
    return camp


def test_dry_run_and_odds_write_nothing(tmp_path):
    camp = example(tmp_path)
    before = shared_files(camp)
    ran = narateer(camp, "roll", "cutter", "skirmish", "--push", "--dry-run")
    assert ran.code == 0, ran.err
    assert "3 dice" in ran.out and "full success" in ran.out and "91/216" in ran.out  # 1 - (5/6)^3: a 6 on three
    assert narateer(camp, "odds", "2", "--resist").code == 0
    assert shared_files(camp) == before


def test_the_outcome_is_said_once(tmp_path):
    """The host's outcome line leads the roll's text; Forge's own lines do not say it again."""
    camp = example(tmp_path)
    ran = narateer(camp, "roll", "cutter", "skirmish", "--faces", "6,3")
    assert ran.code == 0, ran.err
    assert ran.out.splitlines()[0] == "Success" and ran.out.count("Success") == 1, ran.out


def test_a_fortune_roll_is_sealed(tmp_path):
    camp = example(tmp_path)
    assert narateer(camp, "fortune", "guide", "2", "--faces", "6,6").code == 0
    log = (camp / "encounters" / "campaign.log.yaml").read_text()
    assert "commitment" in log and "omen" not in log and "stars" not in log and "faces" not in log
