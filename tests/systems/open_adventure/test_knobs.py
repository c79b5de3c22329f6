"""Every A-OA-* knob read from the ruleset: overrides change behaviour; bad overrides name their key path."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from narateer_cli.errors import BadInput, Refused
from narateer_cli.systems.open_adventure import chart, dice, sheet, turns
from narateer_cli.systems.open_adventure.check import multi_drawbacks

from .helpers import cast, check, rules


def test_unknown_and_narateer_keys_are_bad_input_with_did_you_mean():
    with pytest.raises(BadInput) as e:
        rules(explod={"cap": 1})
    assert "rules.explod" in e.value.message and e.value.fix == "did you mean explode?"
    with pytest.raises(BadInput) as e:
        rules(faces=[0, 1, 2])
    assert "rules.faces" in e.value.message
    with pytest.raises(BadInput) as e:
        rules(opposed={"tie": "coin"})
    assert "rules.opposed.tie" in e.value.message
    with pytest.raises(BadInput) as e:
        rules(explode={"capp": 2})
    assert e.value.fix == "did you mean cap?"


def test_chart_beyond_cap_and_refuse_A_OA_CHART():
    assert chart.chart_dice(17, rules(chart={"beyond": "cap"})) == (6, 6, 6, 6)
    with pytest.raises(Refused):
        chart.chart_dice(15, rules(chart={"beyond": "refuse"}))
    with pytest.raises(Refused):
        check("amicus", "strength", ds="9", benefit=11, r=rules(chart={"beyond": "refuse"}))


def test_explosion_cap_keeps_the_last_maximum_A_OA_EXPCAP():
    r = rules(explode={"cap": 1})
    c = check("laria", "intellect", "10+10", ds="9", r=r)  # d10: one extra die, the last kept at 10
    assert c.total == 20
    with pytest.raises(BadInput):
        check("laria", "intellect", "10+10+1", ds="9", r=r)
    with pytest.raises(BadInput):
        check("laria", "intellect", "10+3", ds="9", r=rules(explode={"dice": "none"}))


def test_critical_failure_knobs_A_OA_CRIT():
    c = check("bloodwind", "strength", "6+1,1", mo=True, ds="2", r=rules(critical_failure={"faces": "chain_end"}))
    assert c.critical_failure and not c.success
    c = check("bloodwind", "strength", "1,1", mo=True, ds="2", r=rules(critical_failure={"always_fails": False}))
    assert c.critical_failure and c.success


@pytest.mark.parametrize("tie,success", [("actor", True), ("opponent", False), ("neither", False)])
def test_opposed_tie_A_OA_OPP(tie, success):
    c = check("warheart", "strength", "3,4", mo=True, opposed=("orc", "strength"), other="orc",
              other_faces="2,5", r=rules(opposed={"tie": tie}))
    assert c.success is success


def test_opponent_below_minimum_is_refused_A_OA_OPP():
    with pytest.raises(Refused) as e:
        check("warheart", "strength", "3,4", mo=True, opposed=("goblin", "mind"), other="goblin", other_faces="2")
    assert e.value.rule == "A-OA-OPP"


def test_effect_knobs_A_OA_EFF():
    c = check("goblin", "spear", "3,3", ds="5", effect_bonuses=("1",))
    assert c.effect == 3 and c.effect_source == "flat"  # flat 2 + an explicit bonus
    c = check("goblin", "spear", "3,3", ds="5", effect_bonuses=("1",), r=rules(effect={"flat_takes_bonus": "none"}))
    assert c.effect == 2


def test_specializations_stack_A_OA_SPEC():
    c = check("bloodwind", "strength", "3,3", mo=True, ds="9", specializations=("axes", "Outlander-Lore"))
    assert c.action_score.specializations == 2
    c = check("bloodwind", "strength", "3,3", mo=True, ds="9", specializations=("axes", "outlander_lore"),
              r=rules(specializations={"stack": False}))
    assert c.action_score.specializations == 1
    with pytest.raises(BadInput) as e:
        check("bloodwind", "strength", "3,3", ds="9", specializations=("axe",))
    assert e.value.fix == "did you mean axes?"


def test_multi_sum_and_product_A_OA_MULTI():
    assert multi_drawbacks(3, 1, rules()) == 3 and multi_drawbacks(1, 2, rules()) == 2
    assert multi_drawbacks(3, 2, rules()) == 5 and multi_drawbacks(3, 2, rules(multi="product")) == 6
    assert multi_drawbacks(1, 1, rules(multi="product")) == 0


def test_stunt_loss_knobs_A_OA_STUNT():
    # a Critical Failure at a DS the dice reach: shortfall 0, yet the loss is at least 1
    c = check("bloodwind", "strength", "1,1", mo=True, ds="2", stunt=True)
    assert c.shortfall == 0 and c.stunt.loss == 1
    c = check("bloodwind", "strength", "1,1", mo=True, ds="2", stunt=True, r=rules(stunt={"min_fail_loss": 0}))
    assert c.stunt.loss == 0
    with pytest.raises(Refused):
        check("amicus", "strength", mo=True, ds="6", compare=True, stunt=True, r=rules(stunt={"compare": False}))
    c = check("orc", "shove", "3,3", ds="5", stunt=True)  # an NPC's listed Stunt hits its statblock pool
    assert c.stunt.before == 10 and c.stunt.after == 9
    c = check("goblin", "dirty-trick", "1,2", ds="5", stunt=True)  # no pool: the loss is reported
    assert c.stunt.loss == 2 and c.stunt.before is None


def test_min_action_score_for_compare_A_OA_AS1():
    with pytest.raises(Refused):
        check("bloodwind", "intellect", ds="1", compare=True)
    c = check("bloodwind", "intellect", ds="1", compare=True, r=rules(min_action_score={"compare": False}))
    assert c.success and c.effect == 0


def test_turn_order_ties_pcs_first_then_naming_A_OA_TURN():
    r = rules()
    sheets = {c: cast(c, r) for c in ("goblin", "amicus", "laria", "orc")}
    order = turns.order(["goblin", "amicus", "laria", "orc"], {"amicus": 6, "laria": 6}, sheets, r)
    assert order == ("amicus", "laria", "goblin", "orc")
    with pytest.raises(BadInput):
        turns.order(["goblin", "amicus"], {}, sheets, r)
    chooses = turns.order(["goblin", "amicus"], {}, sheets, rules(turn={"order": "actor_chooses"}))
    assert chooses == ("goblin", "amicus")


def test_sheet_schema_names_the_misspelt_key():
    r = rules()
    doc = {"name": "X", "attributes": {"body": {"strength": 1, "coordination": 1, "toughnes": 1},
                                       "mind": {"intellect": 1, "deduction": 1, "willpower": 1},
                                       "spirit": {"presence": 1, "intuition": 1, "resilience": 1}},
           "points": {"bdy": 3}, "notes": "kept"}
    found = sheet.problems(doc, "characters/x.yaml", r)
    assert any("attributes.body.toughnes; did you mean toughness?" in p for p in found)
    assert any("points.bdy; did you mean body?" in p for p in found)
    assert not any("notes" in p for p in found)
    npc = {"name": "N", "kind": "npc", "attributes": {"body": 1, "mind": 1, "spirit": 1},
           "actions": {"strength": {"as": 3}}}
    assert any("named like an attribute" in p for p in sheet.problems(npc, "n", r))


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 30), st.integers(0, 10_000))
def test_seeded_faces_replay_through_faces_text(score, seed):
    r = rules()
    dice_ = chart.chart_dice(score, r)
    rolled = dice.roll_pool(dice_, score, r, dice.DiceSource(rng=random.Random(seed)))
    again = dice.roll_pool(dice_, score, r, dice.DiceSource(physical={"faces": (dice.parse_faces(rolled.faces_text), "--faces")}))
    assert again == rolled


def test_opponent_uses_major_spends_its_next_major_A_OA_OPP():
    r = rules()
    sheets = {c: cast(c, r) for c in ("warheart", "orc")}
    state = turns.TurnState(encounter="door", order=turns.order(["warheart", "orc"], {"warheart": 9}, sheets, r))
    state = turns.spend(turns.start(state), "warheart")
    state = turns.spend_opponent(state, "orc")
    state = turns.start(turns.end(state))
    assert state.actor == "orc" and state.major and not state.spent
    with pytest.raises(Refused):
        turns.spend(state, "orc")
