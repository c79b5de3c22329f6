"""Hypothesis: random card sequences over several rounds keep AP, charges and cooldowns equal to a
simple model; refused performances change nothing; exact odds equal counting every face through `act`."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from narateer_cli.errors import BadInput, Refused
from narateer_cli.systems.d20_cards import timeflow
from narateer_cli.systems.d20_cards.act import act
from narateer_cli.systems.d20_cards.dice import DiceSource
from narateer_cli.systems.d20_cards.odds import odds

from .world import RULES, decl, world

CARDS = {
    "strike": {"name": "Strike", "cost": 2, "atk": "fin", "range": "reach", "damage": {"amount": 12, "overkill": 2}},
    "firebolt": {"name": "Firebolt", "cost": 2, "atk": "kno", "range": 10, "cooldown": {"rounds": 1},
                 "damage": {"amount": 6, "overkill": 1}},
    "stun-word": {"name": "Stun Word", "cost": 2, "dc": "mental", "range": "vocal", "charges": {"max": 2},
                  "damage": {"amount": 6}},
    "ward": {"name": "Ward", "cost": 1, "range": "self", "properties": ["concentration"],
             "max_duration": {"rounds": 2}, "cooldown": {"rounds": 1}},
    "jab": {"name": "Jab", "cost": 1, "atk": "fin", "range": "reach", "cooldown": {"rounds": 2},
            "charges": {"max": 3}, "damage": {"amount": 1}},
    "focus": {"name": "Focus", "cost": 0, "range": "self", "properties": ["concentration"], "cooldown": {"rounds": 3}},
}
COST = {k: v["cost"] for k, v in CARDS.items()}
CHARGES = {k: v["charges"]["max"] for k, v in CARDS.items() if "charges" in v}
COOLDOWN = {k: v["cooldown"]["rounds"] for k, v in CARDS.items() if "cooldown" in v}
MAXDUR = {"ward": 2}

steps = st.lists(st.one_of(
    st.tuples(st.just("act"), st.sampled_from(sorted(CARDS)), st.booleans(), st.integers(1, 20)),
    st.tuples(st.just("turn")),
    st.tuples(st.just("hurt"), st.integers(1, 9), st.integers(1, 20)),
    st.tuples(st.just("rest")),
), min_size=1, max_size=40)


BAD = "bad input"


class Model:
    """AP, charges, cooldowns and Concentration as the chapter describes them, nothing more."""

    def __init__(self):
        self.ap, self.charges, self.cooldowns, self.conc = 3, dict(CHARGES), {}, None

    def drop(self):
        card, self.conc = self.conc[0], None
        if card in COOLDOWN:
            self.cooldowns[card] = COOLDOWN[card]

    def act(self, card, drop_flag):
        """True (runs), False (refused, exit 3) or BAD (`--drop-concentration` on a card without it, exit 2)."""
        concentration = card in ("ward", "focus")
        if drop_flag and not concentration:
            return BAD
        if concentration and self.conc and not drop_flag:
            return False
        if card in self.cooldowns or self.charges.get(card, 1) == 0 or self.ap < COST[card]:
            return False
        self.ap -= COST[card]
        if card in CHARGES:
            self.charges[card] -= 1
        if concentration:
            if self.conc and drop_flag:
                self.drop()
            self.conc = (card, MAXDUR.get(card))
        elif card in COOLDOWN:
            self.cooldowns[card] = COOLDOWN[card]
        return True

    def turn(self):
        self.ap = 3
        self.cooldowns = {k: v - 1 for k, v in self.cooldowns.items() if v > 1}
        if self.conc and self.conc[1] is not None:
            if self.conc[1] <= 1:
                self.drop()
            else:
                self.conc = (self.conc[0], self.conc[1] - 1)

    def hurt(self, face):
        if self.conc and face + 5 < 10:
            self.drop()

    def rest(self):
        self.charges, self.ap, self.cooldowns = dict(CHARGES), 3, {}


def observed(w):
    m = w.chars["mira"]
    charges = {k: m.charges.get(k, n) for k, n in CHARGES.items()}
    cooldowns = {k: v["rounds"] for k, v in m.cooldowns.items()}
    conc = (m.concentrating["card"], m.concentrating.get("rounds")) if m.concentrating else None
    return m.ap(), charges, cooldowns, conc


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps, st.integers(0, 2**16))
def test_random_card_sequences_match_the_model(sequence, seed):
    w = world(mira={"actions": sorted(CARDS), "hp": {"current": 1000, "max": 1000}}, cards=CARDS)
    model, rng, round_no = Model(), random.Random(seed), 1
    for step in sequence:
        if step[0] == "act":
            _, card, drop_flag, face = step
            targets = () if card in ("ward", "focus") else ("bandit",)
            faces = {"attack": [face]} if CARDS[card].get("atk") else {}
            before = repr(w)
            allowed = model.act(card, drop_flag)
            try:
                w, r = act(w, decl(card, *targets, drop_concentration=drop_flag), RULES, DiceSource(rng, faces))
                assert allowed, f"{card} ran but the model refuses it"
                assert r.resources_after["ap"] >= 0
                for t in r.targets:
                    if t.damage:
                        assert t.damage.overkill >= 0 and t.damage.taken in (t.damage.dealt, 2 * t.damage.dealt)
            except Refused:
                assert allowed is False, f"{card} refused but the model allows it"
                assert repr(w) == before
            except BadInput:
                assert allowed == BAD, f"{card} is bad input but the model runs it"
                assert repr(w) == before
        elif step[0] == "turn":
            round_no += 1
            w = w.replace(encounter=w.encounter.replace(round=round_no))
            w, _ = timeflow.turn_start(w, "mira", RULES, DiceSource(rng))
            model.turn()
        elif step[0] == "hurt":
            w, _ = timeflow.damage(w, "mira", step[1], RULES, DiceSource(rng, {"concentration": {"mira": [step[2]]}}))
            model.hurt(step[2])
        else:
            w, _ = timeflow.rest(w, ["mira"], "proper", RULES, mid_encounter=True)
            model.rest()
        assert observed(w) == (model.ap, model.charges, model.cooldowns, model.conc)
        charges = observed(w)[1]
        assert all(0 <= charges[k] <= CHARGES[k] for k in CHARGES)


def _counted_by_act(w, card_id, options, d20_per_target, sides):
    """Run `act` on every combination of faces and count landings and damage."""
    card = w.cards[card_id]
    dmg = card.damage
    dice_faces = list(itertools.product(range(1, dmg.sides + 1), repeat=dmg.count)) if dmg and dmg.count else [()]
    d20s = list(itertools.product(range(1, 21), repeat=d20_per_target))
    whole = len(dice_faces) * len(d20s)
    lands = Fraction(0)
    expected = Fraction(0)
    for rolled in d20s:
        for dfaces in dice_faces:
            faces = {"damage": list(dfaces)} if dfaces else {}
            if card.kind == "attack":
                faces["attack"] = list(rolled)
            else:
                faces["save"] = {"bandit": list(rolled)}
            _, r = act(w, decl(card_id, "bandit", **options), RULES, DiceSource(random.Random(0), faces))
            t = r.targets[0]
            lands += Fraction(t.lands, whole)
            expected += Fraction(t.damage.dealt if t.damage else 0, whole)
    return lands, expected


@settings(max_examples=25, deadline=None)
@given(bonus=st.integers(-3, 8), ac=st.integers(5, 25), overkill=st.integers(0, 3), sides=st.sampled_from([0, 3, 4]),
       edge=st.sampled_from([None, "advantage", "disadvantage"]), mod=st.integers(-5, 5), unseen=st.booleans())
def test_attack_odds_equal_counting_every_face_through_act(bonus, ac, overkill, sides, edge, mod, unseen):
    amount = f"1d{sides}+1" if sides else 5
    cards = {"hit": {"name": "Hit", "cost": 0, "atk": "fin", "range": "reach",
                     "damage": {"amount": amount, "overkill": overkill}}}
    w = world(mira={"attributes": {"fin": bonus}, "actions": ["hit"]}, bandit={"ac": {"physical": ac, "mental": ac}},
              cards=cards)
    options = {"mod": mod, "unseen": ("bandit",) if unseen else (), "advantage": edge == "advantage",
               "disadvantage": edge == "disadvantage"}
    row = odds(w, decl("hit", "bandit", **options), RULES).targets[0]
    lands, expected = _counted_by_act(w, "hit", options, 2 if edge else 1, sides)
    assert (row.p_lands, row.expected_damage) == (lands, expected)
    assert sum(row.distribution.values()) == 1


@settings(max_examples=25, deadline=None)
@given(mind=st.integers(0, 10), conc=st.integers(0, 6), wil=st.integers(-2, 6),
       on_save=st.sampled_from(["none", "half", "full"]))
def test_save_odds_equal_counting_every_face_through_act(mind, conc, wil, on_save):
    cards = {"word": {"name": "Word", "cost": 0, "dc": "mental", "range": "vocal", "damage": {"amount": "1d4+2"},
                      "on_save": on_save}}
    w = world(mira={"attributes": {"mind": mind}, "concentration": conc, "actions": ["word"]},
              bandit={"attributes": {"kno": 0, "wil": wil}}, cards=cards)
    row = odds(w, decl("word", "bandit"), RULES).targets[0]
    lands, expected = _counted_by_act(w, "word", {}, 1, 4)
    assert (row.p_lands, row.expected_damage) == (lands, expected)
