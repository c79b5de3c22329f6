"""verify re-checks logged acts with the engine's own functions: generated entries pass, and an edit
of any attack, save or damage face fails."""

from __future__ import annotations

import copy

import pytest
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
    return {"seq": 1, "command": "act", "actor": "mira", "declaration": decl, "result": result.to_json()}


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


def _logged(card, *targets, w=None, faces=None, **options):
    _, result = perform(w or world(), card, *targets, faces=faces, **options)
    entry = _entry(result, **options)
    assert verify_log([entry], RULES) is None
    return entry


def _hit(entry):
    return entry["result"]["targets"][0]


def _tamper_total(e):
    _hit(e)["attack"]["total"] += 1


def _tamper_kept_face(e):
    a = _hit(e)["attack"]
    a["face"] = min(a["faces"])
    a["total"] = a["face"] + a["bonus"] + a["penalty"] + a["mod"]


def _tamper_overkill(e):
    d = _hit(e)["damage"]
    for key in ("overkill", "dealt", "taken"):
        d[key] += 1
    d["hp_after"] -= 1


def _tamper_dealt(e):
    _hit(e)["damage"]["dealt"] += 1


def _tamper_doubled(e):
    d = _hit(e)["damage"]
    d["taken"] = d["dealt"]
    d["hp_after"] = d["hp_before"] - d["taken"]


def _tamper_hp(e):
    _hit(e)["damage"]["hp_after"] += 1


def _tamper_payment(e):
    e["result"]["resources_after"]["ap"] += 1


def _tamper_charge(e):
    e["result"]["charges"]["after"] += 1


def _tamper_save_total(e):
    _hit(e)["save"]["total"] += 1


def _tamper_resisted(e):
    s = _hit(e)["save"]
    s["resisted"] = not s["resisted"]


def _tamper_damage_total(e):
    e["result"]["damage_roll"]["total"] += 1


def _tamper_lands(e):
    _hit(e)["lands"] = not _hit(e)["lands"]


def _tamper_concentration(e):
    c = _hit(e)["damage"]["concentration_check"]
    c["kept"] = not c["kept"]


def _tamper_extra_face(e):
    _hit(e)["attack"]["faces"].append(3)


SWAN = world(bandit={"conditions": ["swan_song"]})
CONCENTRATING = world(bandit={"concentrating": {"card": "ward"}})
# one tampered claim per rule verify replays (S-SYS-6): (case, tamper, words the problem must hold)
TAMPERS = [
    (("strike", {"faces": {"attack": [15]}}), _tamper_total, "bandit: attack total is 20 in the log; the rules give 19"),
    (("strike", {"faces": {"attack": [15, 5]}, "advantage": True}), _tamper_kept_face,
     "bandit: attack face is 5 in the log; the rules give 15"),
    (("strike", {"faces": {"attack": [15, 5]}, "disadvantage": True}), _tamper_extra_face,
     "bandit: attack: the log holds more attack faces than the rules roll"),
    (("strike", {"faces": {"attack": [19]}}), _tamper_overkill, "bandit: damage overkill is 19 in the log; the rules give 18"),
    (("strike", {"faces": {"attack": [19]}}), _tamper_dealt, "bandit: damage dealt is 31 in the log; the rules give 30"),
    (("strike", {"faces": {"attack": [15]}, "w": SWAN}), _tamper_doubled, "bandit: damage taken is 22 in the log; the rules give 44"),
    (("strike", {"faces": {"attack": [15]}}), _tamper_hp, "bandit: damage hp after is -1 in the log; the rules give -2"),
    (("strike", {"faces": {"attack": [2]}}), _tamper_lands, "bandit: lands is True in the log; the rules give False"),
    (("strike", {"faces": {"attack": [15]}}), _tamper_payment, "ap after payment is 2 in the log; paying 2 from 3 leaves 1"),
    (("stun-word", {"faces": {"save": {"bandit": [3]}}}), _tamper_charge, "charges after is 2 in the log; the rules give 1"),
    (("stun-word", {"faces": {"save": {"bandit": [3]}}}), _tamper_save_total, "bandit: save total is 6 in the log; the rules give 5"),
    (("stun-word", {"faces": {"save": {"bandit": [3]}}}), _tamper_resisted, "bandit: save resisted is True in the log; the rules give False"),
    (("firebolt", {"faces": {"attack": [15]}}), _tamper_damage_total, "damage roll total is 7 in the log; the rules give 6"),
    (("strike", {"faces": {"attack": [15], "concentration": {"bandit": [2]}}, "w": CONCENTRATING}), _tamper_concentration,
     "bandit: damage concentration check kept is True in the log; the rules give False"),
]


@pytest.mark.parametrize("case, tamper, words", TAMPERS, ids=[t[1].__name__[8:] for t in TAMPERS])
def test_a_tampered_claim_is_named_with_what_the_rules_give(case, tamper, words):
    card, options = case
    entry = _logged(card, "bandit", **options)
    tamper(entry)
    problem = verify_log([entry], RULES)
    assert problem is not None and problem.startswith("entry 1 (act): ") and words in problem, problem


def test_a_tampered_evolutionary_roll_is_named():
    entry = _logged("surge", "bandit", faces={"evolutionary": [15], "attack": [15]})
    entry["result"]["evolutionary"]["face"] = 3
    assert "Evolutionary success is True in the log; the rules give False from its face" in verify_log([entry], RULES)


def test_a_damage_entry_is_replayed_from_its_declared_amount():
    """`damage CHAR N` under Swan Song: taken is twice N; a log that deals other than N, or does not double, fails."""
    import random

    from narateer_cli.render import plain
    from narateer_cli.systems.d20_cards.dice import DiceSource
    from narateer_cli.systems.d20_cards.timeflow import damage

    _, result = damage(SWAN, "bandit", 5, RULES, DiceSource(random.Random(0)))
    entry = {"seq": 1, "command": "damage", "actor": "bandit", "declaration": {"amount": 5, "drain": False},
             "result": plain(result)}
    assert entry["result"]["damage"]["taken"] == 10 and verify_log([entry], RULES) is None
    declared = copy.deepcopy(entry)
    declared["declaration"]["amount"] = 4
    assert "bandit: damage base is 5 in the log; the rules give 4" in verify_log([declared], RULES)
    undoubled = copy.deepcopy(entry)
    undoubled["result"]["damage"].update(taken=5, hp_after=15)
    assert "bandit: damage taken is 5 in the log; the rules give 10" in verify_log([undoubled], RULES)


def test_faces_off_their_die_or_too_few_are_named():
    entry = _logged("firebolt", "bandit", faces={"attack": [15]})
    off = copy.deepcopy(entry)
    _hit(off)["attack"].update(faces=[25], face=25)
    assert "bandit: attack: attack face 25 is not a face of a d20" in verify_log([off], RULES)
    short = _logged("strike", "bandit", faces={"attack": [15, 5]}, advantage=True)
    _hit(short)["attack"]["faces"] = [15]
    assert "bandit: attack: the log holds fewer attack faces than the rules roll" in verify_log([short], RULES)
    dice = _logged("word", "bandit", w=world(cards=CARDS, mira={"actions": sorted(CARDS)}),
                   faces={"save": {"bandit": [3]}, "damage": [5]})
    dice["result"]["damage_roll"]["faces"] = [9]
    assert "damage roll: damage face 9 is not a face of a d8" in verify_log([dice], RULES)
