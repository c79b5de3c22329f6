"""Open Adventure's worked examples W-1..W-23 through the engine, with their faces and numbers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from narateer_cli.errors import BadInput, Refused
from narateer_cli.systems.open_adventure import chart, turns
from narateer_cli.systems.open_adventure.odds import p_success

from .helpers import cast, check, rules


def test_w1_trident_explodes_R_OA_EXPL_1():
    r = check("amicus", "strength", "4,6+3", mo=True, ds="9")
    assert r.action_score.total == 6 and r.dice == ["d6", "d6"]
    assert r.faces == [[4], [6, 3]] and r.exploded == [1] and r.total == 13
    assert r.success and r.effect == 4 and r.faces_text == "4,6+3"


def test_w2_effect_and_bonus_R_OA_EFF_1():
    r = check("drayac", "coordination", "3,7", mo=True, bonuses=("3",), ds="6")
    assert r.action_score.total == 8 and r.total == 10 and r.effect == 4
    r = check("drayac", "coordination", "3,7", mo=True, bonuses=("3",), ds="6", effect_bonuses=("2",))
    assert r.effect == 6 and r.effect_bonus == 2


def test_w3_sphere_fails_short_by_one_R_OA_SUCC_2():
    r = check("laria", "intellect", "5", ds="6")
    assert r.action_score.total == 4 and r.dice == ["d10"]
    assert not r.success and r.shortfall == 1 and r.effect is None and r.stunt is None
    assert r.outcome == "Failure"


def test_w4_axe_critical_failure_then_freed_R_OA_CRIT():
    r = check("bloodwind", "strength", "1,1", mo=True, ds="2", mishap="the axe sticks in the table")
    assert r.total == 2 and r.critical_failure and not r.success
    assert r.outcome == "Critical Failure" and r.mishap == "the axe sticks in the table"
    r = check("bloodwind", "strength", "1,3", mo=True, ds="4")
    assert r.total == 4 and r.success and r.effect == 0 and not r.critical_failure


def test_w5_lantern_stunt_costs_shortfall_R_OA_STUNT_2():
    r = check("amicus", "coordination", "3", ds="6", stunt=True)
    assert r.action_score.total == 5 and r.dice == ["d12"]
    assert r.stunt.as_dict() == {"targets": 1, "outcomes": 1, "pool": "body", "loss": 3, "before": 10, "after": 7,
                       "wounds_after": 0}


@pytest.mark.parametrize("faces,success,effect", [("3,5", True, 0), ("2,5", False, None), ("4,7", True, 3)])
def test_w6_sweep_three_goblins_R_OA_STUNT_3(faces, success, effect):
    r = check("bloodwind", "strength", faces, mo=True, specializations=("axes",), vs=("goblin", "body"),
              target="goblin", stunt=True, targets=3)
    assert r.action_score.total == 7
    assert r.ds.total == 8 and r.ds.base == 5 and r.ds.multi == 3
    assert r.ds.base_source == "defense:goblin.body"
    assert r.success is success and r.effect == effect
    assert r.stunt.loss == 1 and r.stunt.after == 11


def test_w6_sweep_chances_R_OA_STUNT_3():
    r = rules()
    assert p_success(chart.chart_dice(7, r), 8, r) == Fraction(7, 12)
    assert p_success(chart.chart_dice(6, r), 8, r) == Fraction(17, 36)


def test_w7_wall_R_OA_DS_1_3():
    r = rules()
    assert chart.ds_value("easy", r) == (6, "tier:easy")
    w = check("warheart", "strength", "3,3", mo=True, ds="10", drawback=1)
    assert w.ds.total == 11 and w.ds.drawback == 1


def test_w8_storm_three_drawbacks_R_OA_DS_3():
    r = check("drayac", "coordination", "9", mo=True, ds="moderate", drawback=3)
    assert r.ds.total == 12 and r.ds.base_source == "tier:moderate"


def test_w9_drawback_removed_R_OA_DS_4():
    r = check("drayac", "coordination", "9", mo=True, ds="moderate", drawback=0)
    assert r.ds.total == r.ds.base == 9


def test_w10_familiarity_R_OA_AS_4():
    r = check("warheart", "presence", "7", familiarity=True, ds="moderate")
    assert r.action_score.total == 4 and r.dice == ["d10"] and r.action_score.mo == 2
    assert r.ds.total == 10 and r.ds.familiarity == 1
    with pytest.raises(Refused) as e:
        check("warheart", "presence", "7", familiarity=True, ds="moderate", specializations=("shields",))
    assert e.value.rule == "R-OA-AS-4"


def test_w11_chandelier_mo_or_not_R_OA_AS_2_3():
    r = check("ezarel", "intellect", "2,4", mo=True, ds="9")
    assert r.action_score.total == 8 and r.dice == ["d6", "d10"]
    r = check("ezarel", "intellect", "4", ds="9")
    assert r.action_score.total == 5 and r.dice == ["d12"]


def test_w12_climb_two_benefits_R_OA_AS_5():
    r = check("bloodwind", "coordination", "5", mo=True, ds="9")
    assert r.action_score.total == 5 and r.dice == ["d12"]
    r = check("bloodwind", "coordination", "2,5", mo=True, ds="9", specializations=("Climbing",), benefit=1)
    assert r.action_score.total == 7 and r.dice == ["d6", "d8"]
    assert r.action_score.specializations == 1 and r.action_score.benefit == 1


def test_w13_bow_bonus_R_OA_AS_1():
    r = check("drayac", "coordination", "1,2", mo=True, bonuses=("dragon-bane",), ds="9")
    assert r.action_score.as_dict() == {"total": 8, "attribute": 3, "statblock": None, "mo": 2, "specializations": 0,
                              "benefit": 0, "time": 0, "bonus": 3}


def test_w14_extra_time_R_OA_TIME_1():
    r = rules()
    assert chart.time_benefit("15min", "6s", r) == 2
    assert chart.time_benefit("1mo", "6s", r) == 7
    assert chart.time_benefit("12h", "1h", r) == 1
    with pytest.raises(BadInput):
        chart.time_benefit("1min", "1h", r)
    with pytest.raises(BadInput):
        chart.time_benefit("2min", None, r)
    c = check("laria", "intellect", "3,2", ds="9", time="15 min")
    assert c.action_score.time == 2 and c.action_score.total == 6


def test_w15_net_two_outcomes_R_OA_ACT_3():
    with pytest.raises(Refused) as e:
        check("amicus", "coordination", "5", ds="6", outcomes=2)
    assert e.value.rule == "R-OA-ACT-3"
    r = check("amicus", "coordination", "9", ds="6", outcomes=2, stunt=True)
    assert r.ds.total == 8 and r.ds.multi == 2


def test_w16_portcullis_maintained_R_OA_ACT_5():
    r = rules()
    sheets = {c: cast(c, r) for c in ("warheart", "orc")}
    state = turns.TurnState(encounter="gate", order=turns.order(["warheart", "orc"], {"warheart": 9}, sheets, r))
    for round_no in (1, 2, 3):
        state = turns.start(state, "warheart")
        assert state.round == round_no
        state = turns.spend(state, "warheart")  # holding the portcullis spends the Major Action
        with pytest.raises(Refused) as e:
            turns.spend(state, "warheart")  # any other check this Turn
        assert e.value.rule == "R-OA-ACT-2"
        state = turns.end(state)
        state = turns.end(turns.start(state, "orc"))


def test_w17_lightning_rod_stunt_needs_no_extra_R_OA_STUNT_1():
    r = check("spyder", "strength", "12+2", mo=True, ds="9", stunt=True)
    assert r.ds.multi == 0 and r.ds.total == 9 and r.success and r.stunt.loss == 1


def test_w18_every_row_and_tier_R_OA_DICE_1_DS_1():
    r = rules()
    printed = {1: "none", 2: "d6", 3: "d8", 4: "d10", 5: "d12", 6: "2d6", 7: "d6+d8", 8: "d6+d10",
               9: "d6+d12", 10: "3d6", 11: "2d6+d8", 12: "2d6+d10", 13: "2d6+d12", 14: "4d6",
               15: "3d6+d8", 16: "3d6+d10", 17: "3d6+d12", 18: "5d6"}
    for score, text in printed.items():
        assert chart.printed(chart.chart_dice(score, r)) == text
        if score >= 2:
            assert chart.formula_row(score) == chart.chart_dice(score, r)
    assert {row["tier"]: row["ds"] for row in chart.ladder(r)} == {
        "very-easy": 3, "easy": 6, "moderate": 9, "hard": 12, "very-hard": 15, "nearly-impossible": 20}


W19 = {2: "5/6", 3: "3/4", 4: "7/10", 5: "2/3", 6: "13/18", 7: "11/16", 8: "2/3", 9: "281/432", 10: "287/432",
       11: "563/864", 12: "139/216", 13: "413/648", 14: "2513/3888"}


def test_w19_as_equal_to_ds_golden():
    r = rules()
    for score, text in W19.items():
        assert p_success(chart.chart_dice(score, r), score, r) == Fraction(text)
    for score in range(2, 41):
        assert p_success(chart.chart_dice(score, r), score, r) > Fraction(61, 100)
    assert min(W19, key=lambda s: Fraction(W19[s])) == 13


@pytest.mark.parametrize("score,ds,want", [(7, 9, "137/288"), (14, 15, "2239/3888"), (6, 2, "35/36"),
                                          (2, 8, "5/36"), (3, 8, "1/8"), (4, 12, "9/100"), (5, 12, "1/12")])
def test_w20_golden_odds(score, ds, want):
    r = rules()
    assert p_success(chart.chart_dice(score, r), ds, r) == Fraction(want)


def test_w20_higher_as_can_be_worse():
    r = rules()
    assert p_success(chart.chart_dice(2, r), 8, r) > p_success(chart.chart_dice(3, r), 8, r)
    assert p_success(chart.chart_dice(4, r), 12, r) > p_success(chart.chart_dice(5, r), 12, r)


def test_w21_comparing_scores_R_OA_CMP_1():
    r = check("ezarel", "intellect", mo=True, benefit=1, ds="6", compare=True)
    assert r.method == "compare" and r.total == 9 and r.effect == 3 and r.effect_source == "compare"
    assert r.faces == [] and not r.critical_failure
    r = check("amicus", "strength", mo=True, ds="6", compare=True)
    assert r.success and r.effect == 0
    r = check("amicus", "coordination", ds="6", compare=True)
    assert not r.success and r.shortfall == 1 and r.outcome == "Failure"


def test_w22_door_opposed_R_OA_OPP_1():
    r = check("warheart", "strength", "3,4", mo=True, opposed=("orc", "strength"), other="orc", other_faces="2,5")
    assert r.ds.base == 7 and r.ds.base_source == "opposed:orc" and r.success and r.effect == 0
    assert r.opposed.total == 7 and r.opposed.actor == "orc"
    r = check("warheart", "strength", "3,4", mo=True, opposed=("orc", "strength"), other="orc", other_faces="3,5")
    assert r.ds.total == 8 and not r.success and r.shortfall == 1


def test_w23_npc_attribute_uses_group_R_OA_NPC_1():
    r = check("orc", "strength", "2,2", ds="6")
    assert r.attribute == "strength" and r.group == "body" and r.action_score.attribute == 6
    assert r.dice == ["d6", "d6"] and r.npc
