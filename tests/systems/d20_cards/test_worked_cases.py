"""d20-cards worked cases W-1..W-15 through the engine, with the physical faces of each case."""

from __future__ import annotations

from fractions import Fraction

import pytest

from narateer_cli.errors import Refused
from narateer_cli.systems.d20_cards import timeflow
from narateer_cli.systems.d20_cards.act import _dc
from narateer_cli.systems.d20_cards.dice import DiceSource
from narateer_cli.systems.d20_cards.effects import critical
from narateer_cli.systems.d20_cards.odds import odds

from .world import RULES, decl, perform, world


def test_w1_strike_overkill_12_plus_2():
    w, r = perform(world(), "strike", "bandit", faces={"attack": [15]})
    t = r.targets[0]
    assert (t.attack.total, t.attack.ac, t.attack.hit) == (19, 14, True)
    assert (t.damage.base, t.damage.overkill, t.damage.dealt) == (12, 10, 22)
    assert w.chars["bandit"].hp == -2 and critical(w.chars["bandit"], RULES)
    assert (r.resources_before["ap"], r.resources_after["ap"]) == (3, 1) and w.chars["mira"].ap() == 1


def test_w2_equal_total_hits_without_overkill():
    w, r = perform(world(), "strike", "bandit", faces={"attack": [10]})
    t = r.targets[0]
    assert (t.attack.total, t.attack.hit, t.damage.overkill, t.damage.dealt) == (14, True, 0, 12)


def test_w3_miss_deals_nothing_but_pays():
    w, r = perform(world(), "strike", "bandit", faces={"attack": [9]})
    assert r.targets[0].attack.hit is False and r.targets[0].damage is None
    assert w.chars["bandit"].hp == 20 and w.chars["mira"].ap() == 1


@pytest.mark.parametrize("face,total,hit", [(19, 13, False), (20, 14, True)])
def test_w4_unseen_target_in_range_takes_blind_penalty(face, total, hit):
    w, r = perform(world(), "strike", "bandit", faces={"attack": [face]}, unseen=("bandit",))
    t = r.targets[0]
    assert (t.attack.penalty, t.attack.total, t.attack.hit, t.seen) == (-10, total, hit, False)
    assert (t.damage.dealt if hit else None) == (12 if hit else None)


@pytest.mark.parametrize("face,total,hit", [(18, 9, False), (20, 11, True)])
def test_w5_firebolt_beyond_range_seen_at_blind_penalty(face, total, hit):
    w, r = perform(world(), "firebolt", "bandit", faces={"attack": [face]}, distance=12)
    t = r.targets[0]
    assert (t.in_range, t.attack.penalty, t.attack.total, t.attack.ac_kind, t.attack.hit) == \
        ("beyond", -10, total, "mental", hit)
    assert (t.damage.dealt if hit else 0) == (6 if hit else 0)


def test_w5_ranges():
    _, r = perform(world(), "firebolt", "bandit", faces={"attack": [18]}, distance=10)
    assert r.targets[0].attack.penalty == 0 and r.targets[0].in_range is True
    with pytest.raises(Refused) as exc:
        perform(world(), "firebolt", "bandit", distance=12, unseen=("bandit",))
    assert exc.value.rule == "R-CARD-RANGE-2"
    with pytest.raises(Refused) as exc:
        perform(world(), "strike", "bandit", distance=1.5)
    assert exc.value.rule == "R-CARD-RANGE-4"
    longer = world(mira={"cards": {"strike": {"name": "Strike", "cost": 2, "atk": "fin", "range": "reach",
                                              "reach_bonus": 1, "damage": {"amount": 12, "overkill": 2}}}})
    _, r = perform(longer, "strike", "bandit", faces={"attack": [10]}, distance=1.5)
    assert r.targets[0].in_range is True
    _, r = perform(world(), "firebolt", "mira", faces={"attack": [11]})
    t = r.targets[0]
    assert (t.distance, t.seen, t.attack.total, t.attack.ac, t.attack.hit) == (0, True, 12, 12, True)


def test_w6_action_dc_and_saves():
    w = world()
    mira = w.chars["mira"]
    assert _dc(mira, w.cards["stun-word"]).value == 11
    assert _dc(mira, w.cards["stun-word"].replace(dc="physical")).value == 12
    _, r = perform(w, "stun-word", "bandit", faces={"save": {"bandit": [9]}})
    s = r.targets[0].save
    assert (s.attribute, s.bonus, s.total, s.dc, s.resisted) == ("wil", 2, 11, 11, True)
    assert r.targets[0].damage is None and r.targets[0].lands is False
    w2, r = perform(w, "stun-word", "bandit", faces={"save": {"bandit": [8]}})
    assert (r.targets[0].save.total, r.targets[0].lands, r.targets[0].damage.dealt) == (10, True, 6)
    assert w2.chars["bandit"].hp == 14


@pytest.mark.parametrize("face,kept", [(5, True), (4, False)])
def test_w7_concentration_check_on_damage(face, kept):
    w, _ = perform(world(), "ward")
    assert w.chars["mira"].concentrating == {"card": "ward", "rounds": 2}
    w, res = timeflow.damage(w, "mira", 7, RULES, DiceSource(faces={"concentration": {"mira": [face]}}))
    c = res.damage.concentration_check
    assert (c.face, c.total, c.dc, c.kept) == (face, face + 5, 10, kept)
    mira = w.chars["mira"]
    assert (mira.concentrating is not None) == kept
    assert mira.cooldowns == ({} if kept else {"ward": {"rounds": 1}})


def _turn(w, round_no, actor="mira"):
    w = w.replace(encounter=w.encounter.replace(round=round_no, turn=actor))
    return timeflow.turn_start(w, actor, RULES, DiceSource())


def test_w8_rounds_tick_at_own_turn_start():
    w, _ = perform(world(), "ward")
    w, _ = perform(w, "firebolt", "bandit", faces={"attack": [2]})
    assert w.chars["mira"].cooldowns == {"firebolt": {"rounds": 1}}
    w, t = _turn(w, 2)
    assert t.cooldowns_ended == ("firebolt",) and w.chars["mira"].concentrating["rounds"] == 1
    perform(w, "firebolt", "bandit", faces={"attack": [2]})  # allowed again in round 2
    w, t = _turn(w, 3)
    assert t.concentration_ended == "ward" and w.chars["mira"].cooldowns == {"ward": {"rounds": 1}}
    with pytest.raises(Refused) as exc:
        perform(w, "ward")
    assert exc.value.rule == "R-CARD-CD-1" and "ward: 1 round left" in exc.value.message
    w, t = _turn(w, 4)
    assert t.cooldowns_ended == ("ward",)
    perform(w, "ward")


def test_w9_charges_run_out_and_proper_rest_refills():
    w = world()
    w, r = perform(w, "stun-word", "bandit", faces={"save": {"bandit": [20]}})
    assert r.charges.as_dict() == {"before": 2, "after": 1}
    w, _ = _turn(w, 2)
    w, r = perform(w, "stun-word", "bandit", faces={"save": {"bandit": [20]}})
    assert r.charges.as_dict() == {"before": 1, "after": 0}
    w, _ = _turn(w, 3)
    with pytest.raises(Refused) as exc:
        perform(w, "stun-word", "bandit")
    assert exc.value.rule == "R-CARD-CD-4" and exc.value.fix == "once the encounter ends: narateer rest mira --proper"
    assert w.chars["mira"].ap() == 3
    w, rest = timeflow.rest(w.replace(encounter=None), ["mira"], "proper", RULES)  # the encounter over
    assert rest.actors[0].charges == {"stun-word": [0, 2]} and w.chars["mira"].charges["stun-word"] == 2


def test_w10_swan_song_doubles_damage_until_stabilized():
    w = world(mira={"hp": {"current": 0, "max": 30}})
    w, r = perform(w, "last-stand", "bandit", faces={"attack": [2]})
    assert "swan_song" in w.chars["mira"].conditions and r.conditions_added == ("swan_song",)
    w, res = timeflow.damage(w, "mira", 12, RULES, DiceSource())
    assert (res.damage.dealt, res.damage.doubled, res.damage.taken, w.chars["mira"].hp) == (12, True, 24, -24)
    w, _ = timeflow.condition(w, "mira", "+dying")
    w, t = _turn(w, 2)
    assert (t.drain.dealt, t.drain.taken, w.chars["mira"].hp) == (1, 2, -26)
    w, c = timeflow.condition(w, "mira", "+stabilized")
    assert set(c.conditions_removed) == {"dying", "swan_song"}
    w, res = timeflow.damage(w, "mira", 12, RULES, DiceSource())
    assert res.damage.taken == 12
    with pytest.raises(Refused) as exc:
        perform(world(mira={"hp": {"current": 5, "max": 30}}), "last-stand", "bandit")
    assert exc.value.rule == "R-CARD-PROP-9"


def test_w11_odds_strike_against_bandit():
    row = odds(world(), decl("strike", "bandit"), RULES).targets[0]
    assert (row.need_face, row.p_lands, row.expected_damage) == (10, Fraction(11, 20), Fraction(242, 20))
    assert odds(world(), decl("strike", "bandit", unseen=("bandit",)), RULES).targets[0].p_lands == Fraction(1, 20)
    assert odds(world(), decl("strike", "bandit", disadvantage=True), RULES).targets[0].p_lands == Fraction(121, 400)
    assert odds(world(), decl("strike", "bandit", disadvantage=True, advantage=True), RULES).targets[0].p_lands \
        == Fraction(11, 20)


@pytest.mark.parametrize("face,success", [(12, True), (11, False)])
def test_w12_evolutionary_against_augmentor_12(face, success):
    w, r = perform(world(), "surge", "bandit", faces={"evolutionary": [face], "attack": [20]})
    assert (r.evolutionary.face, r.evolutionary.augmentor, r.evolutionary.success) == (12 if success else 11, 12, success)
    assert len(r.targets) == (1 if success else 0)  # failure_stops: no target resolves
    assert w.chars["mira"].ap() == 2  # costs stay spent either way


def test_w13_ap_runs_out_then_refills_at_turn_start():
    w, _ = perform(world(), "strike", "bandit", faces={"attack": [2]})
    with pytest.raises(Refused) as exc:
        perform(w, "strike", "bandit")
    assert exc.value.rule == "R-CARD-2" and exc.value.message == "mira has 1 AP; strike costs 2"
    w, t = _turn(w, 2)
    assert t.ap.as_dict() == {"before": 1, "after": 3} and w.chars["mira"].ap() == 3


@pytest.mark.parametrize("cond,firebolt_ok,strike_ok", [
    ("nullified", False, True), ("nullified:1", False, True), ("nullified:0", True, True),
    ("immobilized", True, False),
])
def test_w14_nullification_and_mobility(cond, firebolt_ok, strike_ok):
    w = world(mira={"conditions": [cond]})
    for card, ok, rule in (("firebolt", firebolt_ok, "R-CARD-PROP-1"), ("strike", strike_ok, "R-CARD-PROP-7")):
        if ok:
            perform(w, card, "bandit", faces={"attack": [10]})
        else:
            with pytest.raises(Refused) as exc:
                perform(w, card, "bandit")
            assert exc.value.rule == rule


def test_w15_second_concentration_and_self_only():
    w, _ = perform(world(), "ward")
    with pytest.raises(Refused) as exc:
        perform(w, "focus")
    assert exc.value.rule == "R-CARD-PROP-3" and exc.value.fix == "add --drop-concentration"
    w2, r = perform(w, "focus", drop_concentration=True)
    assert r.dropped == "ward" and w2.chars["mira"].cooldowns == {"ward": {"rounds": 1}}
    assert w2.chars["mira"].concentrating == {"card": "focus"}
    with pytest.raises(Refused) as exc:
        perform(world(), "ward", "bandit")
    assert exc.value.rule == "R-CARD-RANGE-6"
