"""Invariants of payment, dice and odds (Hypothesis), and every ruleset knob doing its job.

Properties: a legal payment is never negative; Slowed changes what is paid,
never what is rolled; a refused declaration changes no file; the exact odds
sum to one and agree with seeded sampling. Knobs: each `rules:` override in a
campaign's narateer.yaml changes the result it governs, and an invalid one is
refused at load naming its key path.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from narateer_cli.systems.narateer.engine.check import Declaration, Target, plan, roll
from narateer_cli.systems.narateer.engine.character import Sheet, Skill
from narateer_cli.systems.narateer.engine.dice import DiceSource, pool_weights
from narateer_cli.errors import BadInput, Refused
from narateer_cli.systems.narateer.engine.ruleset import build_ruleset
from narateer_cli.store.campaign import default_rules
from tests.conftest import json_error, run, snapshot

RULES = build_ruleset(default_rules())
FAST = settings(max_examples=60, deadline=None)


def sheet(level=3, ready=50, conditions=(), rules=RULES):
    return Sheet(id="actor", name="Actor", vitals={"might": 3},
                 skills={"melee": Skill("melee", level, "might")},
                 dice={"ready": ready, "used": 0}, conditions=tuple(conditions))


def frac(p):
    return Fraction(p).limit_denominator(100_000)


def set_rules(camp, text):
    config = camp / "narateer.yaml"
    config.write_text(config.read_text() + "rules:\n" + text)


def cli(camp, *args):
    r = run(camp, "--json", *args)
    assert r.code == 0, r.err
    return r.json


def sheet_dice(camp, char):
    from ruamel.yaml import YAML

    return dict(YAML(typ="safe").load((camp / "characters" / f"{char}.yaml").read_text())["action_dice"])


# --- payment --------------------------------------------------------------------------------

declarations = st.builds(
    dict,
    cost=st.integers(0, 6), boost=st.integers(0, 5), bonus_dice=st.integers(0, 4),
    discount_base=st.integers(0, 8), discount_boost=st.integers(0, 8), fee=st.integers(0, 6),
)


@FAST
@given(decl=declarations, slowed=st.booleans(), multiplier=st.integers(1, 10))
def test_R_PAY_payment_is_never_negative(decl, slowed, multiplier):
    rules = build_ruleset(default_rules(), {"conditions": {"slowed": {"pay_multiplier": multiplier}}})
    payment = plan(sheet(level=5, conditions=["slowed"] if slowed else []), Declaration("melee", **decl), rules,
                   check_afford=False)
    assert payment.paid >= 0
    before = max(0, decl["cost"] - decl["discount_base"]) + max(0, decl["boost"] - decl["discount_boost"]) + decl["fee"]
    assert payment.paid == before * (multiplier if slowed else 1)
    if before == 0:
        assert payment.paid == 0  # 0 stays 0 (R-PAY-3)
    # R-PAY-1: roll dice = required (base before discounts) + Boost + bonus, whatever is paid
    assert payment.roll_dice == decl["cost"] + decl["boost"] + decl["bonus_dice"]


@FAST
@given(decl=declarations, seed=st.integers(0, 2**32), advantage=st.booleans(), disadvantage=st.booleans())
def test_R_PAY_3_slowed_never_changes_the_dice_rolled(decl, seed, advantage, disadvantage):
    d = Declaration("melee", advantage=advantage, disadvantage=disadvantage, **decl)
    results = []
    for conditions in ((), ("slowed",)):
        payment = plan(sheet(level=5, conditions=conditions), d, RULES, check_afford=False)
        result = roll(payment, Target(3, "dr", "DR 3"), RULES, DiceSource(random.Random(seed), None, RULES.faces))
        results.append(result)
    plain, slowed = results
    assert slowed.payment.roll_dice == plain.payment.roll_dice
    assert slowed.payment.boost == plain.payment.boost
    assert slowed.faces == plain.faces
    assert slowed.rerolled == plain.rerolled
    assert slowed.final_faces == plain.final_faces
    assert slowed.total == plain.total and slowed.success == plain.success
    assert slowed.payment.paid == 2 * plain.payment.paid


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(char=st.sampled_from(["poor", "poor_slowed"]), cost=st.integers(0, 3), boost=st.integers(0, 6),
       fee=st.integers(0, 4), seed=st.integers(0, 1000))
def test_R_PAY_5_a_refused_declaration_changes_no_file(camp, char, cost, boost, fee, seed):
    """Boost over SL or a payment past Ready: exit 3, one stderr line, every file byte-for-byte the same."""
    for name, conditions in (("poor", "[]"), ("poor_slowed", "[slowed]")):
        path = camp / "characters" / f"{name}.yaml"
        if not path.exists():
            path.write_text("name: Poor\nvitals: {might: 2}\nskills:\n  melee: 3\n"
                            f"action_dice:\n  ready: 2\n  used: 1\nconditions: {conditions}\n")
    paid = (cost + boost + fee) * (2 if char == "poor_slowed" else 1)
    assume(boost > 3 or paid > 2)
    before = snapshot(camp)
    r = run(camp, "--seed", str(seed), "roll", char, "melee", "--dr", "2", "--cost", str(cost),
            "--boost", str(boost), "--fee", str(fee))
    assert r.code == 3, r.err
    assert ("cannot Boost" if boost > 3 else "cannot pay") in r.err, r.err
    assert r.out == ""
    assert r.err.count("\n") == 1
    assert snapshot(camp) == before


# --- exact odds ---------------------------------------------------------------------------------

EDGE_CASES = [("none", "crits"), ("advantage", "crits"), ("disadvantage", "crits"), ("both", "crits"),
              ("disadvantage", "dotted"), ("both", "dotted")]


@FAST
@given(n=st.integers(0, 25), faces=st.lists(st.sampled_from([0, 1, 2]), min_size=1, max_size=8),
       edge=st.sampled_from(EDGE_CASES))
def test_odds_distribution_sums_to_one_exactly(n, faces, edge):
    weights, denominator = pool_weights(n, faces, edge[0], edge[1])
    assert sum(weights) == denominator
    assert all(w >= 0 for w in weights)
    assert len(weights) == 2 * n + 1


@pytest.mark.parametrize("edge, disadvantage, expected", [
    ("none", "crits", [Fraction(1, 3)] * 3),
    # a Miss is rerolled once: P(0) = 1/3 * 1/3; each dotted face gains 1/3 * 1/3
    ("advantage", "crits", [Fraction(1, 9), Fraction(4, 9), Fraction(4, 9)]),
    ("disadvantage", "crits", [Fraction(4, 9), Fraction(4, 9), Fraction(1, 9)]),
    # both (knob): a Miss or a Crit is rerolled once: P(1) = 1/3 + 2/3 * 1/3
    ("both", "crits", [Fraction(2, 9), Fraction(5, 9), Fraction(2, 9)]),
    # dotted: a Hit or a Crit is rerolled once
    ("disadvantage", "dotted", [Fraction(5, 9), Fraction(2, 9), Fraction(2, 9)]),
])
def test_odds_one_die_by_hand(edge, disadvantage, expected):
    weights, denominator = pool_weights(1, RULES.faces, edge, disadvantage)
    assert [Fraction(w, denominator) for w in weights] == expected


@pytest.mark.parametrize("n", [1, 3, 5])
@pytest.mark.parametrize("edge, disadvantage", EDGE_CASES)
def test_odds_agree_with_seeded_engine_rolls(n, edge, disadvantage):
    """20,000 rolls through the engine's own roll path land within 5 sigma of the exact odds."""
    rules = build_ruleset(default_rules(), {"disadvantage": disadvantage, "edge_both": "both"})
    decl = Declaration("melee", boost=n - 1, advantage=edge in ("advantage", "both"),
                       disadvantage=edge in ("disadvantage", "both"))
    payment = plan(sheet(level=10, rules=rules), decl, rules)
    assert payment.edge == edge
    source = DiceSource(random.Random(1000 * n + len(edge)), None, rules.faces)
    samples = 20_000
    counts = [0] * (2 * n + 1)
    target = Target(None, "dr", "")
    for _ in range(samples):
        counts[roll(payment, target, rules, source).total] += 1
    weights, denominator = pool_weights(n, rules.faces, edge, disadvantage)
    for total, w in enumerate(weights):
        p = w / denominator
        sigma = math.sqrt(samples * p * (1 - p))
        assert abs(counts[total] - samples * p) <= 5 * sigma + 1, (total, counts[total], samples * p)


# --- Part 2 knobs through a campaign's narateer.yaml --------------------------------------------

def test_knob_faces(camp):
    assert frac(cli(camp, "odds", "1", "--dr", "0")["p_success"]) == Fraction(2, 3)
    set_rules(camp, "  faces: [0, 0, 0, 1, 1, 2]\n")
    assert frac(cli(camp, "odds", "1", "--dr", "0")["p_success"]) == Fraction(1, 2)
    assert frac(cli(camp, "odds", "1", "--dr", "1")["p_success"]) == Fraction(1, 6)


def test_knob_faces_refuses_a_face_the_dice_lack(camp):
    set_rules(camp, "  faces: [0, 1, 1]\n")
    before = snapshot(camp)
    r = run(camp, "--json", "roll", "--force", "selka", "stealth", "--dr", "2", "--faces", "2")
    assert r.code == 2 and json_error(r, 2)["rule"] == "A-FACES" and "A-FACES" not in r.err
    assert snapshot(camp) == before
    assert cli(camp, "roll", "selka", "stealth", "--dr", "0", "--faces", "1")["success"] is True


def test_knob_disadvantage(camp):
    args = ("dice", "3", "--disadvantage", "--faces", "2,1,0")
    assert cli(camp, *args, "--reroll-faces", "0")["rerolled"] == [0]
    set_rules(camp, "  disadvantage: dotted\n")
    data = cli(camp, *args, "--reroll-faces", "0,0")
    assert data["rerolled"] == [0, 1]
    assert data["total"] == 0


def test_knob_edge_both(camp):
    args = ("dice", "3", "--advantage", "--disadvantage", "--faces", "0,1,2")
    data = cli(camp, *args)
    assert data["edge"] == "none" and data["rerolled"] == [] and data["total"] == 3
    set_rules(camp, "  edge_both: both\n")
    data = cli(camp, *args, "--reroll-faces", "1,1")
    assert data["edge"] == "both" and data["rerolled"] == [0, 2] and data["final_faces"] == [1, 1, 1]


def test_knob_reaction_boost(camp):
    args = ("roll", "selka", "stealth", "--dr", "2", "--reaction", "--boost", "1", "--faces", "1,1")
    assert cli(camp, *args)["paid"] == 2
    run(camp, "refresh", "selka")
    set_rules(camp, "  reaction_boost: false\n")
    r = run(camp, *args)
    assert r.code == 3 and "a Reaction may not Boost under this ruleset" in r.err, r.err


def test_knob_roll_dice(camp):
    args = ("roll", "selka", "stealth", "--dr", "0", "--discount-base", "1", "--boost", "1")
    data = cli(camp, *args, "--faces", "1,1")
    assert data["roll_dice"] == 2 and data["paid"] == 1
    set_rules(camp, "  roll_dice: paid_base\n")
    data = cli(camp, *args, "--faces", "1")
    assert data["roll_dice"] == 1 and data["paid"] == 1


def test_knob_tiers(camp):
    assert cli(camp, "roll", "kaelen", "finesse", "--dr", "1", "--faces", "2")["outcome"] == "Success"
    set_rules(camp, "  tiers:\n    - {from: 1, name: Win}\n    - {from: null, name: Loss}\n")
    assert cli(camp, "roll", "kaelen", "finesse", "--dr", "1", "--faces", "2")["outcome"] == "Win"
    assert cli(camp, "roll", "kaelen", "finesse", "--dr", "1", "--faces", "1")["outcome"] == "Loss"


def test_knob_dr(camp):
    set_rules(camp, "  dr: {routine: 3, legendary: 17}\n")
    assert cli(camp, "dr")["ladder"] == {"routine": 3, "challenging": 5, "hard": 8, "heroic": 11, "mythic": 14,
                                         "legendary": 17}
    data = cli(camp, "roll", "--force", "kaelen", "finesse", "--dr", "routine", "--faces", "2")
    assert data["target"] == 3 and data["success"] is False
    assert cli(camp, "dr", "legendary")["dr"] == 17


def test_knob_random_dr_offset(camp):
    assert cli(camp, "dr", "hard", "--random", "--faces", "1,2,0")["dr"] == 11
    set_rules(camp, "  random_dr_offset: -3\n")
    assert cli(camp, "dr", "hard", "--random", "--faces", "1,2,0")["dr"] == 8


def test_knob_readiness_off(camp):
    assert run(camp, "condition", "sentry", "+unaware").code == 0
    args = ("roll", "kai", "stealth", "--vs", "sentry:observation", "--faces", "2", "--force")
    r = run(camp, *args)
    assert r.code == 3 and "sentry is unaware, so its Readiness is not a target" in r.err, r.err
    set_rules(camp, "  readiness_off: [unconscious]\n")
    data = cli(camp, *args)
    assert data["target"] == 3 and data["success"] is False


def test_knob_skills_link(camp):
    """Kai: Agility 3, Cognition 1, Stealth 2 -> Readiness 3; linked to Cognition instead -> 2."""
    assert cli(camp, "readiness", "kai", "stealth")["readiness"] == {"stealth": 3}
    set_rules(camp, "  skills: {stealth: cognition}\n")
    assert cli(camp, "readiness", "kai", "stealth")["readiness"] == {"stealth": 2}


def test_knob_vitals_and_new_skill(camp):
    (camp / "characters" / "gambler.yaml").write_text(
        "name: Gambler\nvitals: {luck: 4}\nskills:\n  fortune: 2\naction_dice: {ready: 3, used: 0}\n")
    r = run(camp, "readiness", "gambler", "fortune")
    # luck is no vital of the ruleset (so fortune, linked to it, has none either)
    assert r.code == 2 and "unknown vital 'luck' under vitals" in r.err, r.err
    set_rules(camp, "  vitals: [might, agility, cognition, presence, luck]\n  skills: {fortune: luck}\n")
    assert cli(camp, "readiness", "gambler", "fortune")["readiness"] == {"fortune": 4}
    # a skill known to the ruleset but not on the sheet is untrained: SL 0, linked vital
    assert cli(camp, "readiness", "selka", "fortune")["readiness"] == {"fortune": 2}


def test_knob_refresh_amount(camp):
    cli(camp, "roll", "veyra", "stealth", "--dr", "2", "--boost", "2", "--faces", "1,1,1")
    set_rules(camp, "  refresh: {amount: 1}\n")
    data = cli(camp, "refresh", "veyra")
    assert data["moved"] == 1
    assert sheet_dice(camp, "veyra") == {"ready": 3, "used": 2}


def test_knob_refresh_all_by_default(camp):
    cli(camp, "roll", "veyra", "stealth", "--dr", "2", "--boost", "2", "--faces", "1,1,1")
    assert cli(camp, "refresh", "veyra")["moved"] == 3
    assert sheet_dice(camp, "veyra") == {"ready": 5, "used": 0}


def test_knob_refresh_at_activation_start(camp):
    cli(camp, "roll", "mira", "melee", "--dr", "2", "--boost", "2", "--faces", "1,1,1")
    set_rules(camp, "  refresh: {amount: 2}\n")
    cli(camp, "encounter", "new", "duel", "mira", "bandit")
    data = cli(camp, "turn", "start", "mira")
    assert data["refreshed"] == 2
    assert data["dice_after"] == {"ready": 5, "used": 1}


def test_knob_turn_first_round(camp):
    set_rules(camp, "  turn: {first_round: 0}\n")
    cli(camp, "encounter", "new", "duel", "mira", "bandit")
    assert cli(camp, "turn", "start", "mira")["round"] == 0


def test_knob_movement_costs(camp):
    set_rules(camp, "  movement_costs: {modes: {run: 1}}\n")
    cli(camp, "encounter", "new", "chase", "mira", "bandit")
    cli(camp, "turn", "start", "mira")
    data = cli(camp, "move", "mira", "6", "--mode", "run")
    assert data["paid"] == 1 and data["movement_left"] == 12
    assert sheet_dice(camp, "mira") == {"ready": 5, "used": 1}


def test_knob_movement_costs_default_run_is_free(camp):
    cli(camp, "encounter", "new", "chase", "mira", "bandit")
    cli(camp, "turn", "start", "mira")
    data = cli(camp, "move", "mira", "6", "--mode", "run")
    assert data["paid"] == 0
    assert sheet_dice(camp, "mira") == {"ready": 6, "used": 0}


def test_knob_movement_difficult_factor(camp):
    set_rules(camp, "  movement_costs: {difficult: 3}\n")
    cli(camp, "encounter", "new", "chase", "mira", "bandit")
    cli(camp, "turn", "start", "mira")
    data = cli(camp, "move", "mira", "2", "--difficult")
    assert data["cost"] == 6 and data["movement_left"] == 6


def test_knob_exchange_costs(camp):
    data = cli(camp, "exchange", "mira", "bandit", "--response", "guard", "--faces", "1", "--response-faces", "1")
    assert data["attack"]["paid"] == 1 and data["defense"]["paid"] == 1
    set_rules(camp, "  exchange: {attack_cost: 2, guard_cost: 3}\n")
    data = cli(camp, "exchange", "mira", "bandit", "--response", "guard", "--faces", "1,1",
               "--response-faces", "1,1,1")
    assert data["attack"]["paid"] == 2 and data["attack"]["roll_dice"] == 2
    assert data["defense"]["paid"] == 3 and data["defense"]["roll_dice"] == 3
    assert data["lands"] is None  # 2 vs 3: Full Guard holds


@pytest.mark.parametrize("search_pay", [None, "refuse"])
def test_knob_search_pay(camp, search_pay):
    broke = camp / "characters" / "bandit.yaml"
    broke.write_text(broke.read_text().replace("ready: 5\n  used: 0", "ready: 0\n  used: 5"))
    if search_pay:
        set_rules(camp, f"  search_pay: {search_pay}\n")
    cli(camp, "encounter", "new", "alley", "selka", "bandit")
    cli(camp, "turn", "start", "selka")
    args = ("hide", "selka", "--from", "bandit", "--searching", "bandit", "--faces", "2", "--force")
    if search_pay is None:
        data = cli(camp, *args)
        # the bandit cannot pay, so its Observation Readiness 2 stands in: 2 vs 2 is a tie
        row = data["observers"][0]
        assert row["fell_back"] is True and row["target"] == 2 and row["hidden"] is False
        assert sheet_dice(camp, "bandit") == {"ready": 0, "used": 5}
    else:
        before = snapshot(camp)
        r = run(camp, *args)
        assert r.code == 3 and "bandit cannot pay 1 AD with 0 Ready" in r.err, r.err
        assert snapshot(camp) == before


def test_knob_assist_cost(camp):
    args = ("roll", "mira", "melee", "--dr", "1", "--assist", "bandit", "--faces", "2")
    assert cli(camp, *args)["assist"]["paid"] == 1
    set_rules(camp, "  assist: {cost: 2}\n")
    assert cli(camp, *args)["assist"]["paid"] == 2
    assert sheet_dice(camp, "bandit") == {"ready": 2, "used": 3}


def test_knob_wound_from(camp):
    cli(camp, "roll", "--force", "veyra", "stealth", "--dr", "2", "--faces", "1")
    data = cli(camp, "wound", "veyra")
    assert data["dice_after"] == {"ready": 3, "used": 1, "wounded": 1}
    set_rules(camp, "  wound: {from: [used, ready]}\n")
    data = cli(camp, "wound", "veyra", "2")
    assert data["dice_after"] == {"ready": 2, "used": 0, "wounded": 3}


def test_knob_wound_heal_to(camp):
    cli(camp, "wound", "veyra")
    set_rules(camp, "  wound: {heal_to: ready}\n")
    assert cli(camp, "heal", "veyra")["dice_after"] == {"ready": 5, "used": 0, "wounded": 0}


def test_knob_conditions_pay_multiplier(camp):
    assert run(camp, "condition", "veyra", "+slowed").code == 0
    set_rules(camp, "  conditions: {slowed: {pay_multiplier: 3}, burdened: {pay_multiplier: 2}}\n")
    data = cli(camp, "roll", "--force", "veyra", "stealth", "--dr", "2", "--faces", "1")
    assert data["paid"] == 3 and data["roll_dice"] == 1
    assert run(camp, "condition", "veyra", "+burdened").code == 0
    before = snapshot(camp)
    r = run(camp, "roll", "veyra", "stealth", "--dr", "2", "--faces", "1")
    assert r.code == 3 and "veyra cannot pay 6 AD (1 x6) with 2 Ready" in r.err, r.err
    assert snapshot(camp) == before


def test_knob_conditions_reactions(camp):
    set_rules(camp, "  conditions: {dazed: {reactions: false}}\n")
    assert run(camp, "condition", "bandit", "+dazed").code == 0
    r = run(camp, "roll", "mira", "melee", "--dr", "1", "--assist", "bandit", "--faces", "2")
    assert r.code == 3 and "dazed" in r.err


def test_knob_limits(camp):
    set_rules(camp, "  limits: {dice_per_roll: 2}\n")
    before = snapshot(camp)
    r = run(camp, "--json", "roll", "veyra", "stealth", "--dr", "2", "--boost", "2", "--faces", "1,1,1")
    assert r.code == 2 and json_error(r, 2)["rule"] == "A-LIMITS" and "A-LIMITS" not in r.err
    assert snapshot(camp) == before
    assert cli(camp, "roll", "veyra", "stealth", "--dr", "2", "--boost", "1", "--faces", "1,1")["roll_dice"] == 2


def test_knob_limits_dice_per_state(camp):
    set_rules(camp, "  limits: {dice_per_state: 4}\n")
    r = run(camp, "roll", "veyra", "stealth", "--dr", "2", "--faces", "1")
    assert r.code == 2 and "characters/veyra.yaml" in r.err


@pytest.mark.parametrize("override, path", [
    ("  faces: [0, 3]\n", "rules.faces"),
    ("  faces: []\n", "rules.faces"),
    ("  disadvantage: sometimes\n", "rules.disadvantage"),
    ("  edge_both: maybe\n", "rules.edge_both"),
    ("  reaction_boost: perhaps\n", "rules.reaction_boost"),
    ("  roll_dice: lots\n", "rules.roll_dice"),
    ("  tiers: [{from: 1, name: A}, {from: 3, name: B}, {from: null, name: C}]\n", "rules.tiers"),
    ("  dr: {routine: -1}\n", "rules.dr.routine"),
    ("  random_dr_offset: x\n", "rules.random_dr_offset"),
    ("  readiness_off: [sleepy]\n", "rules.readiness_off"),
    ("  skills: {stealth: luck}\n", "rules.skills.stealth"),
    ("  refresh: {amount: -1}\n", "rules.refresh.amount"),
    ("  movement_costs: {modes: {walk: -1}}\n", "rules.movement_costs.modes.walk"),
    ("  exchange: {guard_cost: many}\n", "rules.exchange.guard_cost"),
    ("  search_pay: never\n", "rules.search_pay"),
    ("  assist: {cost: -2}\n", "rules.assist.cost"),
    ("  wound: {from: [sideways]}\n", "rules.wound.from"),
    ("  conditions: {slowed: {pay_multiplier: 0}}\n", "rules.conditions.slowed.pay_multiplier"),
    ("  limits: {dice_per_roll: 0}\n", "rules.limits.dice_per_roll"),
    ("  bogus: 1\n", "rules.bogus"),
])
def test_invalid_override_is_refused_at_load(camp, override, path):
    set_rules(camp, override)
    before = snapshot(camp)
    r = run(camp, "--json", "roll", "selka", "stealth", "--dr", "2", "--faces", "1")
    assert r.code == 2
    json_error(r, 2)
    assert r.err.count("\n") == 1
    assert "narateer.yaml" in r.err and path in r.err
    assert snapshot(camp) == before


def test_invalid_override_engine_names_key_path():
    with pytest.raises(BadInput) as err:
        build_ruleset(default_rules(), {"exchange": {"clash_cost": True}})
    assert "rules.exchange.clash_cost" in err.value.message
    with pytest.raises(BadInput):
        build_ruleset(default_rules(), ["faces"])


def test_default_ruleset_matches_spec_part_2():
    assert RULES.faces == (0, 0, 1, 1, 2, 2)
    assert RULES.disadvantage == "crits" and RULES.edge_both == "cancel" and RULES.reaction_boost is True
    assert RULES.roll_dice == "base_cost"
    assert RULES.dr == {"routine": 2, "challenging": 5, "hard": 8, "heroic": 11, "mythic": 14}
    assert RULES.random_dr_offset == 0 and RULES.random_dr_dice == 3
    assert set(RULES.readiness_off) == {"unconscious", "incapacitated", "unaware"}
    assert RULES.skills["insight"] == "presence" and RULES.skills["observation"] == "cognition"
    assert RULES.refresh_amount is None
    assert RULES.mode_costs == {"walk": 0, "run": 0, "sprint": 1}
    assert RULES.assist_cost == 1 and RULES.wound_from == ("ready", "used") and RULES.heal_to == "used"
    assert RULES.pay_multiplier(["slowed"]) == 2 and RULES.blocks_reactions(["stunned"]) == "stunned"
    assert RULES.max_roll_dice == 1000 and RULES.max_state_dice == 1_000_000
