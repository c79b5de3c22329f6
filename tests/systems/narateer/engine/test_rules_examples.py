"""The worked examples of the rules and core rules, played through the engine.

Every example uses the physical faces the chapters describe, fed through a
`DiceSource`, and asserts the numbers the rules give (payment, dice rolled,
rerolls, total, margin, tier). Nothing here touches a file.
"""

from __future__ import annotations

import pytest

from narateer_cli.systems.narateer.engine import actions
from narateer_cli.systems.narateer.engine.actions import TargetSpec
from narateer_cli.systems.narateer.engine.character import Sheet, Skill
from narateer_cli.systems.narateer.engine.check import Declaration, behind, plan, roll, Target
from narateer_cli.systems.narateer.engine.dice import DiceSource, parse_faces
from narateer_cli.errors import BadInput, Refused
from narateer_cli.systems.narateer.engine.ruleset import build_ruleset
from narateer_cli.store.campaign import default_rules

RULES = build_ruleset(default_rules())

MISS, HIT, CRIT = 0, 1, 2


def rules_with(**overrides):
    return build_ruleset(default_rules(), overrides)


def make_sheet(char_id, vitals, skills, ready=5, used=0, conditions=(), rules=RULES):
    """A sheet as the store would build it: short-form skills take the ruleset's linked vital."""
    return Sheet(
        id=char_id, name=char_id.title(), vitals=dict(vitals),
        skills={name: Skill(name, level, rules.skills[name]) for name, level in skills.items()},
        dice={"ready": ready, "used": used}, conditions=tuple(conditions),
    )


def faces(text):
    return parse_faces(text)


def physical(initial, reroll=None, power=None, rules=RULES):
    streams = {"faces": faces(initial)}
    if reroll is not None:
        streams["reroll"] = faces(reroll)
    if power is not None:
        streams["power"] = faces(power)
    return DiceSource(None, streams, rules.faces)


def dr(value):
    return TargetSpec("dr", value, f"DR {value}")


def vs(other, skill):
    return TargetSpec("vs", other=other, other_skill=skill)


# --- the characters of the chapters' examples ------------------------------------------

VEYRA = dict(vitals={"agility": 3, "cognition": 2}, skills={"stealth": 2})
SOLDIERS = dict(vitals={"cognition": 4}, skills={"observation": 3})  # Observation Readiness 4
TARIN = dict(vitals={"might": 3}, skills={"athletics": 2})
RIKA = dict(vitals={"might": 2}, skills={"athletics": 2})
KAI = dict(vitals={"agility": 3}, skills={"stealth": 2})
SENTRY = dict(vitals={"cognition": 2}, skills={"observation": 2})  # Observation Readiness 3
JAVI = dict(vitals={"might": 2}, skills={"athletics": 1})
RAELINE = dict(vitals={"agility": 4}, skills={"stealth": 3})
BEAST = dict(vitals={"cognition": 3}, skills={"observation": 4})  # Observation Readiness 4
KAELEN = dict(vitals={"agility": 3}, skills={"finesse": 2})
KAELIN = dict(vitals={"presence": 3}, skills={"insight": 2})  # Insight Readiness 3
THIEF = dict(vitals={"agility": 3}, skills={"finesse": 2})
ELIRA = dict(vitals={"cognition": 3}, skills={"observation": 2})
TORREN = dict(vitals={"cognition": 3}, skills={"observation": 2})


# --- R-PAY: Slowed payments ---------------------------------------------------------------

def test_R_PAY_3_slowed_doubles_payment_not_roll_dice():
    """Slowed, base 1: Boost 0 pays 2 and rolls 1; Boost 1 pays 4 and rolls 2."""
    attacker = make_sheet("attacker", {"might": 2}, {"melee": 1}, ready=6, conditions=["slowed"])

    out = actions.skill_check(attacker, Declaration("melee", boost=0), dr(2), RULES, physical("hit"))
    assert (out.result.payment.paid, out.result.payment.roll_dice, out.result.payment.boost) == (2, 1, 0)
    assert out.result.faces == (HIT,)
    assert out.dice_after["attacker"] == {"ready": 4, "used": 2}

    out = actions.skill_check(attacker, Declaration("melee", boost=1), dr(2), RULES, physical("hit,crit"))
    assert (out.result.payment.paid, out.result.payment.roll_dice, out.result.payment.boost) == (4, 2, 1)
    assert out.result.final_faces == (HIT, CRIT) and out.result.total == 3
    assert out.dice_after["attacker"] == {"ready": 2, "used": 4}


def test_R_PAY_5_slowed_with_three_ready_first_legal_second_refused():
    """With 3 Ready, the unboosted Slowed attack (pay 2) is legal; the Boost-1 one (pay 4) is refused."""
    attacker = make_sheet("attacker", {"might": 2}, {"melee": 1}, ready=3, conditions=["slowed"])

    legal = actions.skill_check(attacker, Declaration("melee", boost=0), dr(2), RULES, physical("miss"))
    assert legal.result.payment.paid == 2
    assert legal.dice_after["attacker"] == {"ready": 1, "used": 2}

    dice = physical("hit,hit")
    with pytest.raises(Refused) as err:
        actions.skill_check(attacker, Declaration("melee", boost=1), dr(2), RULES, dice)
    assert err.value.rule == "R-PAY-5"
    assert "4" in err.value.message and "3 Ready" in err.value.message
    # nothing was rolled: the faces given are still unused
    assert dice.physical["faces"] == [HIT, HIT]


def test_R_PAY_6_slowed_extra_dice_are_not_boost_and_not_rolled():
    attacker = make_sheet("attacker", {"might": 2}, {"melee": 2}, ready=10, conditions=["slowed"])
    payment = plan(attacker, Declaration("melee", boost=2), RULES)
    assert payment.paid == 6
    assert payment.roll_dice == 3
    assert payment.boost == 2
    assert payment.multiplier == 2


def test_R_PAY_3_zero_cost_stays_zero_when_slowed():
    attacker = make_sheet("attacker", {"might": 2}, {"melee": 1}, ready=0, conditions=["slowed"])
    out = actions.skill_check(attacker, Declaration("melee", cost=0), dr(0), RULES, physical(""))
    assert out.result.payment.paid == 0
    assert out.result.payment.roll_dice == 0
    assert out.dice_after["attacker"] == {"ready": 0, "used": 0}


def test_R_PAY_2_R_PAY_3_discounts_first_then_slowed_doubles_base_boost_and_fee():
    """base 2 - 1, Boost 2 - 1, fee 1 -> 3 before Slowed, 6 after; roll dice are base + Boost (4)."""
    actor = make_sheet("actor", {"might": 2}, {"melee": 3}, ready=6, conditions=["slowed"])
    decl = Declaration("melee", cost=2, boost=2, discount_base=1, discount_boost=1, fee=1)
    payment = plan(actor, decl, RULES)
    assert payment.subtotal == 3
    assert payment.paid == 6
    assert payment.roll_dice == 4


def test_R_PAY_2_discount_never_takes_a_cost_below_zero():
    actor = make_sheet("actor", {"might": 2}, {"melee": 1}, ready=5)
    payment = plan(actor, Declaration("melee", cost=1, boost=1, discount_base=3, discount_boost=5, fee=0), RULES)
    assert payment.paid == 0
    assert payment.roll_dice == 2  # A-ROLLDICE: required roll dice are the base cost before discounts


def test_R_PAY_4_a_condition_listed_twice_doubles_once():
    """Each modifier applies once per payment, even when a hand-edited sheet lists Slowed twice."""
    actor = make_sheet("actor", {"might": 2}, {"melee": 1}, ready=9, conditions=["slowed", "slowed"])
    assert plan(actor, Declaration("melee", boost=1), RULES).paid == 4


def test_R_PAY_1_bonus_dice_are_rolled_not_paid():
    actor = make_sheet("actor", {"might": 2}, {"athletics": 1}, ready=2)
    out = actions.skill_check(actor, Declaration("athletics", bonus_dice=2), dr(2), RULES, physical("hit,hit,miss"))
    assert out.result.payment.paid == 1
    assert out.result.payment.roll_dice == 3
    assert out.result.total == 2 and out.result.success is False


# --- R-EDGE / R-CHK examples --------------------------------------------------------------

def test_R_EDGE_2_veyra_advantage_rerolls_the_miss_and_ties_readiness_4():
    """Veyra: 3 dice Miss|Hit|Crit, Advantage turns the Miss into a Hit: 4 vs Readiness 4 fails."""
    veyra = make_sheet("veyra", **VEYRA)
    soldiers = make_sheet("soldiers", **SOLDIERS)
    assert soldiers.readiness("observation", RULES) == 4
    out = actions.skill_check(veyra, Declaration("stealth", boost=2, advantage=True), vs(soldiers, "observation"),
                              RULES, physical("miss,hit,crit", reroll="hit"))
    r = out.result
    assert r.payment.roll_dice == 3 and r.payment.paid == 3
    assert r.faces == (MISS, HIT, CRIT)
    assert r.rerolled == (0,)
    assert r.final_faces == (HIT, HIT, CRIT)
    assert r.total == 4
    assert r.target.value == 4 and r.target.source == "readiness"
    assert r.margin == 0
    assert r.success is False
    assert r.outcome == "Failure"
    assert out.dice_after["veyra"] == {"ready": 2, "used": 3}


def test_R_CHK_9_tarin_three_dice_against_challenging_no_reroll():
    """Tarin: Hit|Miss|Miss vs DR 5; Skill Level gives no default reroll."""
    tarin = make_sheet("tarin", **TARIN)
    out = actions.skill_check(tarin, Declaration("athletics", boost=2), dr(RULES.dr["challenging"]), RULES,
                              physical("hit,miss,miss"))
    r = out.result
    assert r.target.value == 5
    assert r.payment.roll_dice == 3
    assert r.rerolled == ()
    assert r.final_faces == r.faces == (HIT, MISS, MISS)
    assert r.total == 1
    assert r.margin == -4
    assert r.success is False
    assert r.outcome == "Serious Failure"


def test_R_CHK_6_rika_raised_dr_5_boost_1_fails():
    """Rika: DR raised from 2 to 5 (one tier), Boost 1, Hit|Miss = 1 fails."""
    rika = make_sheet("rika", **RIKA)
    out = actions.skill_check(rika, Declaration("athletics", boost=1), dr(2 + 3), RULES, physical("hit,miss"))
    r = out.result
    assert r.payment.paid == 2 and r.payment.roll_dice == 2
    assert r.total == 1
    assert r.margin == -4
    assert r.success is False
    assert out.dice_after["rika"] == {"ready": 3, "used": 2}


def test_R_EDGE_1_kai_advantage_rerolls_both_misses_and_fails_vs_readiness_3():
    """Kai: Miss|Hit|Miss, both Misses rerolled to Hit and Miss: 2 vs the sentry's 3 fails."""
    kai = make_sheet("kai", **KAI)
    sentry = make_sheet("sentry", **SENTRY)
    assert sentry.readiness("observation", RULES) == 3
    dice = physical("miss,hit,miss", reroll="hit,miss")
    out = actions.skill_check(kai, Declaration("stealth", boost=2, advantage=True), vs(sentry, "observation"),
                              RULES, dice)
    r = out.result
    assert r.faces == (MISS, HIT, MISS)
    assert r.rerolled == (0, 2)
    assert r.edge_faces == (HIT, MISS)
    # the second Miss stays a Miss: each die is rerolled at most once in the Edge Phase
    assert r.final_faces == (HIT, HIT, MISS)
    assert r.total == 2
    assert r.margin == -1
    assert r.success is False


def test_R_CHK_6_javi_one_die_miss_against_routine_fails():
    javi = make_sheet("javi", **JAVI, ready=3)
    out = actions.skill_check(javi, Declaration("athletics"), dr(RULES.dr["routine"]), RULES, physical("miss"))
    r = out.result
    assert r.payment.paid == 1 and r.payment.roll_dice == 1
    assert r.total == 0
    assert r.margin == -2
    assert r.success is False
    assert r.outcome == "Failure"
    assert out.dice_after["javi"] == {"ready": 2, "used": 1}


def test_R_TIER_1_raeline_seven_against_readiness_4_is_strong_success():
    """Raeline scores 7 against the beast's Readiness 4: margin +3, Strong Success."""
    raeline = make_sheet("raeline", **RAELINE, ready=6)
    beast = make_sheet("beast", **BEAST)
    assert beast.readiness("observation", RULES) == 4
    out = actions.skill_check(raeline, Declaration("stealth", boost=3), vs(beast, "observation"), RULES,
                              physical("crit,crit,crit,hit"))
    r = out.result
    assert r.payment.roll_dice == 4 and r.payment.paid == 4
    assert r.total == 7
    assert r.margin == 3
    assert r.success is True
    assert r.outcome == "Strong Success"


def test_R_TIER_1_kaelen_six_against_routine_is_strong_success():
    kaelen = make_sheet("kaelen", **KAELEN, ready=4)
    out = actions.skill_check(kaelen, Declaration("finesse", boost=2), dr(RULES.dr["routine"]), RULES,
                              physical("crit,crit,crit"))
    r = out.result
    assert r.total == 6
    assert r.margin == 4
    assert r.success is True
    assert r.outcome == "Strong Success"


def test_R_RDY_1_kaelin_insight_readiness_3_and_the_thiefs_3_fails():
    kaelin = make_sheet("kaelin", **KAELIN)
    thief = make_sheet("thief", **THIEF, ready=4)
    assert kaelin.readiness("insight", RULES) == 3
    out = actions.skill_check(thief, Declaration("finesse", boost=1), vs(kaelin, "insight"), RULES,
                              physical("hit,crit"))
    r = out.result
    assert r.target.value == 3 and r.target.source == "readiness"
    assert r.total == 3
    assert r.margin == 0
    assert r.success is False
    # the target's own dice are untouched: Readiness costs nothing
    assert "kaelin" not in out.dice_after


def test_R_RDY_3_elira_readiness_3_beats_routine_behind_the_screen():
    elira = make_sheet("elira", **ELIRA)
    data = behind(elira, "observation", RULES.dr["routine"], RULES)
    assert data.readiness == 3
    assert data.target == 2
    assert data.success is True


def test_R_RDY_3_torren_readiness_3_against_dr_4_fails():
    torren = make_sheet("torren", **TORREN)
    data = behind(torren, "observation", 4, RULES)
    assert data.readiness == 3
    assert data.success is False


def test_R_RDY_3_behind_tie_fails_and_edge_shifts_target_one_tier():
    torren = make_sheet("torren", **TORREN)
    assert behind(torren, "observation", 3, RULES).success is False
    adv = behind(torren, "observation", 4, RULES, advantage=True)
    assert adv.target == 1 and adv.success is True
    dis = behind(torren, "observation", 2, RULES, disadvantage=True)
    assert dis.target == 5 and dis.success is False
    both = behind(torren, "observation", 2, RULES, advantage=True, disadvantage=True)
    assert both.target == 2 and both.success is True


def test_A_RDYOFF_behind_the_screen_fails_for_an_unconscious_creature():
    elira = make_sheet("elira", **ELIRA, conditions=["unconscious"])
    data = behind(elira, "observation", 0, RULES)
    assert data.success is False


def test_A_RDYOFF_unconscious_readiness_is_not_a_target():
    kai = make_sheet("kai", **KAI)
    sentry = make_sheet("sentry", **SENTRY, conditions=["unconscious"])
    dice = physical("hit")
    with pytest.raises(Refused) as err:
        actions.skill_check(kai, Declaration("stealth"), vs(sentry, "observation"), RULES, dice)
    assert err.value.rule == "A-RDYOFF"


def test_R_RDY_2_an_alert_but_not_searching_creature_keeps_its_readiness():
    kai = make_sheet("kai", **KAI)
    sentry = make_sheet("sentry", **SENTRY)  # no condition: Readiness is exactly the target
    out = actions.skill_check(kai, Declaration("stealth"), vs(sentry, "observation"), RULES, physical("crit"))
    assert out.result.target.value == 3


# --- R-TIER-1 / A-TIERS bands at every boundary ----------------------------------------------

@pytest.mark.parametrize("margin, tier", [
    (100, "Legendary Triumph"), (9, "Legendary Triumph"),
    (8, "Exceptional Success"), (6, "Exceptional Success"),
    (5, "Strong Success"), (3, "Strong Success"),
    (2, "Success"), (1, "Success"),
    (0, "Failure"), (-2, "Failure"),
    (-3, "Serious Failure"), (-5, "Serious Failure"),
    (-6, "Severe Failure"), (-8, "Severe Failure"),
    (-9, "Catastrophic Failure"), (-100, "Catastrophic Failure"),
])
def test_R_TIER_1_bands(margin, tier):
    assert RULES.tier_for(margin) == tier


@pytest.mark.parametrize("target, success, tier", [
    (1, True, "Success"),    # total 2: margin +1, the first success
    (2, False, "Failure"),   # a tie fails (R-CHK-6)
    (3, False, "Failure"),
    (-1, True, "Strong Success"),
])
def test_R_CHK_6_success_only_when_total_exceeds_target(target, success, tier):
    actor = make_sheet("actor", {"might": 2}, {"athletics": 1})
    out = actions.skill_check(actor, Declaration("athletics", boost=1), dr(target), RULES, physical("hit,hit"))
    assert out.result.total == 2
    assert out.result.success is success
    assert out.result.outcome == tier


# --- R-RDY-1 ------------------------------------------------------------------------------

@pytest.mark.parametrize("vital, level, readiness", [
    (0, 0, 2), (1, 0, 2), (2, 0, 2), (1, 1, 2), (2, 1, 2), (3, 0, 2),
    (3, 1, 3), (2, 2, 3), (3, 2, 3), (4, 3, 4), (3, 4, 4), (5, 4, 5), (10, 10, 11),
])
def test_R_RDY_1_readiness_formula_with_minimum_2(vital, level, readiness):
    sheet = make_sheet("x", {"cognition": vital}, {"observation": level})
    assert sheet.readiness("observation", RULES) == readiness


def test_R_RDY_1_untrained_skill_uses_its_linked_vital_at_sl_0():
    sheet = make_sheet("x", {"might": 5}, {})
    assert sheet.readiness("athletics", RULES) == 1 + 5 // 2
    assert sheet.skill("athletics", RULES).level == 0


def test_A_VITALS_unknown_skill_is_bad_input():
    sheet = make_sheet("x", {"might": 5}, {})
    with pytest.raises(BadInput):
        sheet.readiness("juggling", RULES)


# --- R-CHK-9, R-EDGE, A-DISADV, A-EDGEBOTH ----------------------------------------------------

def test_R_CHK_9_no_reroll_without_edge_even_with_high_skill():
    actor = make_sheet("actor", {"agility": 5}, {"stealth": 5}, ready=6)
    out = actions.skill_check(actor, Declaration("stealth", boost=5), dr(2), RULES,
                              physical("miss,miss,miss,miss,miss,miss"))
    assert out.result.rerolled == ()
    assert out.result.total == 0
    # a reroll face offered without Edge is a face too many, not a reroll
    with pytest.raises(BadInput):
        actions.skill_check(actor, Declaration("stealth"), dr(2), RULES, physical("miss", reroll="crit"))


def test_R_EDGE_1_advantage_rerolls_bonus_dice_too():
    actor = make_sheet("actor", {"might": 2}, {"athletics": 1})
    out = actions.skill_check(actor, Declaration("athletics", bonus_dice=1, advantage=True), dr(1), RULES,
                              physical("hit,miss", reroll="crit"))
    assert out.result.rerolled == (1,)
    assert out.result.final_faces == (HIT, CRIT)
    assert out.result.total == 3


def test_A_DISADV_default_rerolls_only_criticals():
    actor = make_sheet("actor", {"might": 2}, {"athletics": 2})
    out = actions.skill_check(actor, Declaration("athletics", boost=2, disadvantage=True), dr(2), RULES,
                              physical("crit,hit,miss", reroll="miss"))
    assert out.result.rerolled == (0,)
    assert out.result.final_faces == (MISS, HIT, MISS)
    assert out.result.total == 1


def test_A_DISADV_dotted_rerolls_every_die_with_dots():
    rules = rules_with(disadvantage="dotted")
    actor = make_sheet("actor", {"might": 2}, {"athletics": 2}, rules=rules)
    out = actions.skill_check(actor, Declaration("athletics", boost=2, disadvantage=True), dr(2), rules,
                              physical("crit,hit,miss", reroll="miss,crit", rules=rules))
    assert out.result.rerolled == (0, 1)
    assert out.result.final_faces == (MISS, CRIT, MISS)


def test_A_EDGEBOTH_cancel_by_default():
    actor = make_sheet("actor", {"might": 2}, {"athletics": 2})
    out = actions.skill_check(actor, Declaration("athletics", boost=2, advantage=True, disadvantage=True), dr(2),
                              RULES, physical("crit,hit,miss"))
    assert out.result.payment.edge == "none"
    assert out.result.rerolled == ()
    assert out.result.total == 3


def test_A_EDGEBOTH_both_rerolls_misses_and_crits_each_once():
    rules = rules_with(edge_both="both")
    actor = make_sheet("actor", {"might": 2}, {"athletics": 2}, rules=rules)
    out = actions.skill_check(actor, Declaration("athletics", boost=2, advantage=True, disadvantage=True), dr(2),
                              rules, physical("crit,hit,miss", reroll="miss,crit", rules=rules))
    assert out.result.rerolled == (0, 2)
    # the Miss that a Crit became is not rerolled again, nor the Crit a Miss became
    assert out.result.final_faces == (MISS, HIT, CRIT)
    assert out.result.total == 3


def test_R_CHK_5_power_reroll_comes_after_edge():
    actor = make_sheet("actor", {"agility": 3}, {"finesse": 1})
    out = actions.skill_check(actor, Declaration("finesse", boost=1, advantage=True, power_reroll=(0,)), dr(2),
                              RULES, physical("miss,hit", reroll="miss", power="crit"))
    assert out.result.rerolled == (0,)
    assert out.result.power_rerolled == (0,)
    assert out.result.faces == (MISS, HIT)
    assert out.result.final_faces == (CRIT, HIT)
    assert out.result.total == 3 and out.result.success is True


# --- R-CHK-2, R-CHK-10, A-ASSIST, A-REACTBOOST ------------------------------------------------

def test_R_CHK_2_boost_over_skill_level_is_refused():
    veyra = make_sheet("veyra", **VEYRA)
    with pytest.raises(Refused) as err:
        plan(veyra, Declaration("stealth", boost=3), RULES)
    assert err.value.rule == "R-CHK-2"


def test_R_CHK_10_contested_tie_fails_for_the_initiator():
    a = make_sheet("a", {"presence": 3}, {"insight": 2})
    b = make_sheet("b", {"presence": 3}, {"insight": 2})
    dice = DiceSource(None, {"faces": [HIT, HIT], "other": [CRIT]}, RULES.faces)
    spec = TargetSpec("contested", other=b, other_skill="insight", other_decl=Declaration("insight"))
    out = actions.skill_check(a, Declaration("insight", boost=1), spec, RULES, dice)
    assert out.opponent.total == 2
    assert out.result.total == 2
    assert out.result.success is False
    assert out.dice_after == {"a": {"ready": 3, "used": 2}, "b": {"ready": 4, "used": 1}}


def test_A_ASSIST_helper_pays_one_and_grants_advantage():
    actor = make_sheet("actor", {"might": 3}, {"melee": 1})
    helper = make_sheet("helper", {"might": 3}, {"melee": 1}, ready=2)
    out = actions.skill_check(actor, Declaration("melee"), dr(1), RULES, physical("miss", reroll="crit"), helper)
    assert out.result.payment.edge == "advantage"
    assert out.result.total == 2 and out.result.success is True
    assert out.dice_after["helper"] == {"ready": 1, "used": 1}
    assert out.dice_after["actor"] == {"ready": 4, "used": 1}


def test_A_REACTBOOST_false_refuses_a_reaction_boost_unless_allowed():
    rules = rules_with(reaction_boost=False)
    actor = make_sheet("actor", {"might": 3}, {"melee": 2}, rules=rules)
    with pytest.raises(Refused) as err:
        plan(actor, Declaration("melee", boost=1, reaction=True), rules)
    assert err.value.rule == "A-REACTBOOST"
    assert plan(actor, Declaration("melee", boost=1, reaction=True, allow_boost=True), rules).paid == 2
    assert plan(actor, Declaration("melee", boost=1, reaction=True), RULES).paid == 2
