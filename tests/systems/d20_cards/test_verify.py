"""verify re-checks logged acts with the engine's own functions: generated entries pass, and an edit
of any attack, save or damage face fails."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from narateer_cli.systems.d20_cards import render
from narateer_cli.systems.d20_cards.verify import verify_log

from .world import RULES, perform, world

CARDS = {
    "dice-strike": {"name": "Dice Strike", "cost": 0, "atk": "fin", "range": "reach",
                    "damage": {"amount": "2d6+1", "overkill": 2}},
    "word": {"name": "Word", "cost": 0, "dc": "mental", "range": "vocal", "damage": {"amount": "1d8"}, "on_save": "half"},
}


def _entry(result, **decl):
    return {"seq": 1, "command": "act", "actor": "mira", "declaration": decl, "result": render.act_json(result)}


@settings(max_examples=60, deadline=None)
@given(card=st.sampled_from(sorted(CARDS)), seed=st.integers(0, 10**6), edge=st.sampled_from([None, "advantage", "disadvantage"]),
       which=st.integers(0, 10), delta=st.sampled_from([-1, 1]))
def test_logged_acts_verify_and_any_face_edit_fails(card, seed, edge, which, delta):
    options = {"advantage": edge == "advantage", "disadvantage": edge == "disadvantage"} if card == "dice-strike" else {}
    w = world(cards=CARDS, mira={"actions": sorted(CARDS)})
    _, result = perform(w, card, "bandit", seed=seed, **options)
    entry = _entry(result, **options)
    assert verify_log([entry], RULES) is None
    edited = copy.deepcopy(entry)
    res = edited["result"]
    t = res["targets"][0]
    spots = []
    if t["attack"]:  # the kept face (a discarded die may change without changing anything)
        spots.append(("attack", t["attack"]["faces"].index(t["attack"]["face"])))
    if t["save"]:
        spots.append(("save", 0))
    spots += [("damage", i) for i in range(len(res["damage_roll"]["faces"]))]
    kind, i = spots[which % len(spots)]
    if kind == "attack":
        faces = t["attack"]["faces"]
        faces[i] = faces[i] + delta if 1 <= faces[i] + delta <= 20 else faces[i] - delta
        t["attack"]["face"] = faces[i]
    elif kind == "save":
        f = t["save"]["face"]
        t["save"]["face"] = f + delta if 1 <= f + delta <= 20 else f - delta
    else:
        faces = res["damage_roll"]["faces"]
        faces[i] = faces[i] + delta if 1 <= faces[i] + delta <= 6 else faces[i] - delta
        if card == "word":
            faces[i] = faces[i] if faces[i] <= 8 else 7
    assert edited != entry
    assert verify_log([edited], RULES) is not None
