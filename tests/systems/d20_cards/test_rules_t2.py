"""T2-RULES d20-cards through the command line: Touch within reach whatever the range (R-CARD-PROP-10),
Mobility refused under every incapacitating condition (R-CARD-PROP-7, A-CARD-MOBILITY)."""

from __future__ import annotations

import pytest

from tests.conftest import ok, refused

from .test_cli import edit

GRASP = """name: Grasp
cost: {ap: 1}
tier: 1
source: Test Hands
atk: fin
range: 10
properties: [touch]
damage: {amount: 3, type: physical}
details: A card with a metre range and Touch.
"""


def _grasp(root):
    (root / "actions" / "grasp.yaml").write_text(GRASP)
    edit(root, "mira", actions=["strike", "grasp"], levels={"Blade Discipline": 1, "Test Hands": 1},
         prepared=["strike", "grasp"], mixed_heritage={})  # the build a tier 1 Test Hands card asks


def test_touch_with_a_metre_range_is_within_reach(d20):
    _grasp(d20)
    at_reach = ("act", "mira", "grasp", "--target", "bandit", "--distance", "1", "--faces", "2")
    assert ok(d20, *at_reach[:-2], "--dry-run")["allowed"] is True
    err = refused(d20, 3, "act", "mira", "grasp", "--target", "bandit", "--distance", "5",
                  rule="R-CARD-PROP-10")
    assert "within reach 1 m" in err
    ok(d20, *at_reach)


def test_touch_with_a_metre_range_follows_the_sheet_reach(d20):
    _grasp(d20)
    edit(d20, "mira", reach=2)
    ok(d20, "act", "mira", "grasp", "--target", "bandit", "--distance", "2", "--dry-run")
    refused(d20, 3, "act", "mira", "grasp", "--target", "bandit", "--distance", "3", contains="within reach 2 m")


BLOCKERS = ("immobilized", "incapacitated", "unconscious", "paralyzed", "stunned", "restrained")


@pytest.mark.parametrize("condition", BLOCKERS)
def test_mobility_refused_under_every_incapacitating_condition(d20, condition):
    ok(d20, "condition", "mira", "+" + condition)
    err = refused(d20, 3, "act", "mira", "strike", "--target", "bandit", "--faces", "15",
                  rule="R-CARD-PROP-7")
    assert f"mira is {condition}" in err
    assert ok(d20, "act", "mira", "firebolt", "--target", "bandit", "--faces", "2", "--dry-run")["allowed"]


def test_mobility_blocked_by_ships_every_incapacitating_condition():
    from narateer_cli.systems.d20_cards.names import MOBILITY_BLOCKERS
    from ruamel.yaml import YAML
    from pathlib import Path
    import narateer_cli.systems.d20_cards as game

    shipped = YAML(typ="safe").load((Path(game.__file__).parent / "rules.yaml").read_text())
    assert tuple(shipped["mobility_blocked_by"]) == BLOCKERS == MOBILITY_BLOCKERS


@pytest.mark.parametrize("value", ["immobilized", "[immobilized, 3]", "{stunned: 1}"])
def test_mobility_blocked_by_must_be_a_list_of_condition_names(d20, value):
    path = d20 / "narateer.yaml"
    path.write_text(path.read_text() + f"rules:\n  mobility_blocked_by: {value}\n")
    refused(d20, 2, "act", "mira", "strike", "--target", "bandit", "--faces", "15", contains="mobility_blocked_by")


def test_a_campaign_may_list_its_own_mobility_blockers(d20):
    path = d20 / "narateer.yaml"
    path.write_text(path.read_text() + "rules:\n  mobility_blocked_by: [grappled]\n")
    ok(d20, "condition", "mira", "+stunned")
    ok(d20, "act", "mira", "strike", "--target", "bandit", "--faces", "2", "--dry-run")
    ok(d20, "condition", "mira", "-stunned", "+grappled")
    refused(d20, 3, "act", "mira", "strike", "--target", "bandit", contains="mira is grappled", rule="R-CARD-PROP-7")


def test_drop_concentration_on_a_card_without_concentration_is_exit_2(d20):
    ok(d20, "act", "mira", "ward")
    err = refused(d20, 2, "act", "mira", "strike", "--target", "bandit", "--faces", "15", "--drop-concentration",
                  contains="strike needs no concentration")
    assert err == "narateer: strike needs no concentration; drop --drop-concentration\n"
    refused(d20, 2, "act", "mira", "strike", "--target", "bandit", "--drop-concentration", "--dry-run",
            contains="strike needs no concentration")
    assert ok(d20, "act", "mira", "rally-hymn", "--drop-concentration")["dropped"] == "ward"
