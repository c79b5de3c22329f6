"""Each A-CARD knob's other value flips its case; the ruleset refuses unknown or ill-typed keys."""

from __future__ import annotations

from fractions import Fraction

import pytest

from narateer_cli.errors import BadInput, Refused
from narateer_cli.systems.d20_cards import timeflow
from narateer_cli.systems.d20_cards.dice import DiceSource
from narateer_cli.systems.d20_cards.odds import odds

from .world import CARDS, RULES, decl, perform, rules, world


def test_a_card_tie_miss_flips_w2():
    _, r = perform(world(), "strike", "bandit", faces={"attack": [10]}, rules_=rules(attack_ties="miss"))
    assert r.targets[0].attack.hit is False and "attack_ties" in r.rules_used


def test_a_card_nat_makes_20_hit_and_1_miss():
    r_ = rules(natural={"twenty": "hit", "one": "miss"})
    _, r = perform(world(), "strike", "bandit", faces={"attack": [20]}, unseen=("bandit",), distance=1,
                   rules_=r_, mod=-10)
    assert r.targets[0].attack.total == 4 and r.targets[0].attack.hit is True
    assert r.targets[0].damage.overkill == 0  # Overkill only counts a total above AC
    _, r = perform(world(bandit={"ac": {"physical": 1, "mental": 1}}), "strike", "bandit",
                   faces={"attack": [1]}, rules_=r_)
    assert r.targets[0].attack.hit is False


def test_a_card_savetie_fail_flips_w6():
    _, r = perform(world(), "stun-word", "bandit", faces={"save": {"bandit": [9]}}, rules_=rules(save_ties="fail"))
    assert r.targets[0].save.resisted is False and r.targets[0].damage.dealt == 6


@pytest.mark.parametrize("knob,attribute,bonus", [
    ("best_of_pair", "wil", 2), ("card_only", None, 0), ({"mental": "kno", "physical": "phy"}, "kno", 0)])
def test_a_card_save_bonus(knob, attribute, bonus):
    _, r = perform(world(), "stun-word", "bandit", faces={"save": {"bandit": [9]}}, rules_=rules(save_bonus=knob))
    assert (r.targets[0].save.attribute, r.targets[0].save.bonus) == (attribute, bonus)


@pytest.mark.parametrize("mode,penalty", [("penalty", -10), ("stack", -20)])
def test_a_card_blindboth(mode, penalty):
    _, r = perform(world(), "firebolt", "bandit", faces={"attack": [20]}, distance=12, unseen=("bandit",),
                   rules_=rules(blind_both=mode))
    assert r.targets[0].attack.penalty == penalty


def test_a_card_beyond_reach_allows_blind_reach_attack():
    _, r = perform(world(), "strike", "bandit", faces={"attack": [20]}, distance=2,
                   rules_=rules(beyond_range=["meter", "reach"]))
    assert (r.targets[0].in_range, r.targets[0].attack.penalty) == ("beyond", -10)


def test_a_card_dist_requires_distance():
    with pytest.raises(BadInput) as exc:
        perform(world(), "strike", "bandit", rules_=rules(range={"require_distance": True}))
    assert "--distance bandit=M" in exc.value.line()
    _, r = perform(world(), "strike", "bandit", faces={"attack": [10]})
    assert r.targets[0].in_range == "assumed"


def test_a_card_ap_outside_encounter_free_or_spent():
    w = world(encounter=False)
    w2, r = perform(w, "strike", "bandit", faces={"attack": [10]})
    assert w2.chars["mira"].ap() == 3 and r.paid == {}
    w2, r = perform(w, "strike", "bandit", faces={"attack": [10]}, rules_=rules(ap={"outside_encounter": "spend"}))
    assert w2.chars["mira"].ap() == 1 and r.paid == {"ap": 2}


def test_a_card_conc_ties_drop():
    w, _ = perform(world(), "ward")
    w, res = timeflow.damage(w, "mira", 3, rules(concentration={"ties": "drop"}),
                             DiceSource(faces={"concentration": {"mira": [5]}}))
    assert res.damage.concentration_check.kept is False and w.chars["mira"].concentrating is None


def test_a_card_conc_on_second_replace():
    w, _ = perform(world(), "ward")
    w, r = perform(w, "focus", rules_=rules(concentration={"on_second": "replace"}))
    assert w.chars["mira"].concentrating == {"card": "focus"}


@pytest.mark.parametrize("face,success", [(12, True), (13, False)])
def test_a_card_evo_roll_under(face, success):
    _, r = perform(world(), "surge", "bandit", faces={"evolutionary": [face], "attack": [10]},
                   rules_=rules(evolutionary="roll_under"))
    assert r.evolutionary.success is success


def test_a_card_dying_auto_and_hp_floor():
    w, res = timeflow.damage(world(), "bandit", 25, rules(dying={"auto_hp_at_most": 0}), DiceSource())
    assert res.conditions_added == ("dying",) and w.chars["bandit"].hp == -5
    w, res = timeflow.damage(world(), "bandit", 25, rules(hp={"floor": 0}), DiceSource())
    assert w.chars["bandit"].hp == 0


def test_a_card_null_every_card():
    w = world(mira={"conditions": ["nullified:1"]})
    with pytest.raises(Refused) as exc:
        perform(w, "strike", "bandit", rules_=rules(nullification="every_card"))
    assert exc.value.rule == "R-CARD-PROP-1"


def test_a_card_known_false_opens_every_card():
    w = world(mira={"actions": []})
    perform(w, "strike", "bandit", faces={"attack": [3]}, rules_=rules(known_only=False))


def test_a_card_react_own_turn_allowed():
    perform(world(), "parry", rules_=rules(reaction={"own_turn": True}))
    _, r = perform(world(turn="bandit"), "parry", trigger="bandit swings")
    assert r.reaction is True and r.trigger == "bandit swings"


def test_a_card_discreet_reveal_by_default():
    w = world(mira={"conditions": ["hidden"]})
    w2, r = perform(w, "strike", "bandit", faces={"attack": [3]})
    assert r.revealed and "hidden" not in w2.chars["mira"].conditions
    w2, r = perform(w, "strike", "bandit", faces={"attack": [3]}, reveal=True, rules_=rules(discreet="refuse"))
    assert r.revealed


def test_a_card_mobility_blocked_by():
    w = world(mira={"conditions": ["grappled"]})
    with pytest.raises(Refused):
        perform(w, "strike", "bandit", rules_=rules(mobility_blocked_by=["grappled"]))
    perform(w, "strike", "bandit", faces={"attack": [3]})


def test_a_card_dmg_on_save_half_and_card_wins():
    _, r = perform(world(), "stun-word", "bandit", faces={"save": {"bandit": [20]}},
                   rules_=rules(damage={"on_save": "half"}))
    assert r.targets[0].damage.dealt == 3 and r.targets[0].lands is False
    cards = {"stun-word": {"name": "S", "cost": 2, "dc": "mental", "range": "vocal", "damage": {"amount": 6},
                           "on_save": "full"}}
    _, r = perform(world(cards=cards), "stun-word", "bandit", faces={"save": {"bandit": [20]}},
                   rules_=rules(damage={"on_save": "half"}))
    assert r.targets[0].damage.dealt == 6


def test_a_card_dmg_per_target_rolls_each():
    cards = {"aura": {"name": "Aura", "cost": 1, "range": "self", "area": 3, "damage": {"amount": "1d6"}}}
    extra = {"thug": {"name": "Thug", "ac": {"physical": 10, "mental": 10}, "hp": {"current": 9, "max": 9}}}
    _, r = perform(world(cards=cards, extra=extra), "aura", "bandit", "thug", faces={"damage": [2, 5]},
                   rules_=rules(damage={"roll": "per_target"}))
    assert [t.damage.dealt for t in r.targets] == [2, 5]
    with pytest.raises(BadInput):
        perform(world(cards=cards, extra=extra), "aura", "bandit", "thug", faces={"damage": [2, 5]})


def test_a_card_time_round_seconds_converts_rounds():
    w = world(mira={"cooldowns": {"firebolt": {"rounds": 3}}})
    w2, _ = timeflow.elapse(w, 12, rules(time={"round_seconds": 6}))
    assert w2.chars["mira"].cooldowns == {"firebolt": {"rounds": 1}}
    w2, res = timeflow.elapse(w, 60, rules())
    assert w2.chars["mira"].cooldowns == {} and res.actors[0].cooldowns_ended == ("firebolt",)
    w2, _ = timeflow.elapse(w, 30, rules())
    assert w2.chars["mira"].cooldowns == {"firebolt": {"rounds": 3}}


def test_a_card_rest_policy():
    w = world(mira={"cooldowns": {"firebolt": {"rounds": 3}}, "resources": {"ap": {"current": 0, "max": 3}}},
              encounter=False)
    w2, res = timeflow.rest(w, ["mira"], "proper", rules())
    assert w2.chars["mira"].cooldowns == {} and w2.chars["mira"].ap() == 3
    w2, res = timeflow.rest(w, ["mira"], "proper", rules(rest={"proper": {"cooldowns": "keep", "ap": "keep"}}))
    assert w2.chars["mira"].cooldowns == {"firebolt": {"rounds": 3}} and w2.chars["mira"].ap() == 0


def test_a_card_edge_both_disadvantage():
    row = odds(world(), decl("strike", "bandit", advantage=True, disadvantage=True),
               rules(edge={"both": "disadvantage"})).targets[0]
    assert row.p_lands == Fraction(121, 400)


@pytest.mark.parametrize("overrides,words", [
    ({"attack_tie": "hit"}, "did you mean attack_ties?"),
    ({"attack_ties": "hti"}, "did you mean hit?"),
    ({"concentration": {"dc": "ten"}}, "rules.concentration.dc"),
    ({"limits": {"targets": 0}}, "rules.limits.targets"),
])
def test_ruleset_override_errors_name_the_key(overrides, words):
    with pytest.raises(BadInput) as exc:
        rules(**overrides)
    assert words in exc.value.line()


def test_nested_override_replaces_only_itself():
    r = rules(ap={"outside_encounter": "spend"})
    assert r.ap == {"refresh": "max", "timing": "turn_start", "outside_encounter": "spend", "default_max": 3}


def test_a_card_tier_build_table_shows_in_card_status():
    from narateer_cli.systems.d20_cards.gates import card_status

    r_ = rules(tiers={1: {"level": 2, "focus_slots": 1}})  # `level`: the older name of `prerequisite`
    w = world(mira={"level": 1, "focus_slots": 1}, rules_=r_,
              cards={"strike": {**CARDS["strike"], "source": "Blade Discipline"}})
    status = card_status(w, "mira", "strike", r_)
    assert status == "blocked: strike is tier 1 of Blade Discipline: it needs level 2 in Blade Discipline and mira has 1"
    assert status.rule == "R2-TIER-1"
    assert card_status(w, "mira", "strike", RULES) == "ready"


def test_a_card_crit_mark_moves():
    w = world(mira={"hp": {"current": 5, "max": 30}})
    _, r = perform(w, "last-stand", "bandit", faces={"attack": [2]}, rules_=rules(critical={"hp_at_most": 5}))
    assert r.conditions_added == ("swan_song",)
    perform(world(mira={"conditions": ["critical"]}), "last-stand", "bandit", faces={"attack": [2]})


def test_a_card_senses_names():
    w = world(bandit={"conditions": ["shadowed"]})
    _, r = perform(w, "strike", "bandit", faces={"attack": [15]}, rules_=rules(senses={"unseen": ["shadowed"]}))
    assert r.targets[0].seen is False and r.targets[0].attack.penalty == -10
    _, r = perform(w, "strike", "bandit", faces={"attack": [15]})
    assert r.targets[0].seen is True


def test_a_card_attr_pairs_decide_the_ac():
    r_ = rules(attributes={"mind": ["kno", "wil", "fin"], "body": ["phy"]})
    _, r = perform(world(), "strike", "bandit", faces={"attack": [10]}, rules_=r_)
    assert (r.targets[0].attack.ac_kind, r.targets[0].attack.ac) == ("mental", 11)


def test_a_card_comp_turn_own():
    pip = {"pip": {"name": "Pip", "owner": "mira", "attributes": {"fin": 3}, "ac": {"physical": 12, "mental": 10},
                   "hp": {"current": 6, "max": 6}}}
    w = world(mira={"companions": ["pip"]}, extra=pip)
    w = w.replace(encounter=w.encounter.replace(participants=("mira", "bandit")))
    perform(w, "peck", "bandit", faces={"attack": [11]})
    with pytest.raises(Refused) as exc:
        perform(w, "peck", "bandit", rules_=rules(companion={"turn": "own"}))
    assert exc.value.rule == "R-CARD-ACT-1"


def test_a_card_ap_timing_manual_and_limits():
    w = world(mira={"resources": {"ap": {"current": 1, "max": 3}}})
    w2, t = timeflow.turn_start(w, "mira", rules(ap={"timing": "manual"}), DiceSource())
    assert t.ap is None and w2.chars["mira"].ap() == 1
    with pytest.raises(BadInput):
        perform(world(), "aura", "mira", "bandit", rules_=rules(limits={"targets": 1}))
