"""The worked-case table of the d20-cards rules (mira, bandit and five cards) as engine values."""

from __future__ import annotations

import copy

from narateer_cli.systems.d20_cards import ruleset
from narateer_cli.systems.d20_cards.act import act
from narateer_cli.systems.d20_cards.cards import parse_card
from narateer_cli.systems.d20_cards.dice import DiceSource
from narateer_cli.systems.d20_cards.results import Declaration, Encounter, World
from narateer_cli.systems.d20_cards.sheet import parse_sheet

MIRA = {
    "name": "Mira", "attributes": {"kno": 1, "wil": 2, "fin": 4, "phy": 3, "mind": 6, "body": 7},
    "concentration": 5, "augmentor": 12, "ac": {"physical": 14, "mental": 12},
    "hp": {"current": 30, "max": 30}, "reach": 1, "resources": {"ap": {"current": 3, "max": 3}},
    "actions": ["strike", "firebolt", "stun-word", "ward", "last-stand", "focus", "surge", "parry", "peck",
                "far-sight", "aura", "pinch"],
    "conditions": [],
}
BANDIT = {
    "name": "Bandit", "attributes": {"kno": 0, "wil": 2, "fin": 2, "phy": 3},
    "ac": {"physical": 14, "mental": 11}, "hp": {"current": 20, "max": 20},
    "resources": {"ap": {"current": 3, "max": 3}}, "actions": [], "conditions": [],
}
CARDS = {
    "strike": {"name": "Strike", "cost": 2, "tier": 1, "atk": "fin", "range": "reach",
               "properties": ["mobility"], "damage": {"amount": 12, "overkill": 2}},
    "firebolt": {"name": "Firebolt", "cost": 2, "tier": 1, "atk": "kno", "range": 10, "cooldown": {"rounds": 1},
                 "properties": ["arcane"], "damage": {"amount": 6, "overkill": 1}},
    "stun-word": {"name": "Stun Word", "cost": 2, "dc": "mental", "range": "vocal", "charges": {"max": 2},
                  "damage": {"amount": 6}},
    "ward": {"name": "Ward", "cost": 1, "tier": 1, "range": "self", "properties": ["arcane", "concentration"],
             "max_duration": {"rounds": 2}, "cooldown": {"rounds": 1}},
    "last-stand": {"name": "Last Stand", "cost": 3, "atk": "phy", "range": "reach", "properties": ["swan_song"],
                   "damage": {"amount": 20, "overkill": 3}},
    # cards beyond the five of the table, for the other rules
    "focus": {"name": "Focus", "cost": 1, "range": "self", "properties": ["concentration"]},
    "surge": {"name": "Surge", "cost": 1, "atk": "kno", "range": 10, "properties": ["evolutionary"],
              "evolutionary": {"on_success": "obeys", "on_failure": "fizzles", "failure_stops": True},
              "damage": {"amount": 4}},
    "parry": {"name": "Parry", "cost": 1, "range": "self", "properties": ["reaction"], "trigger": "an attack"},
    "peck": {"name": "Peck", "cost": 1, "atk": "fin", "range": "reach", "properties": ["companionship"],
             "damage": {"amount": 3}},
    "far-sight": {"name": "Far Sight", "cost": 1, "atk": "wil", "range": "sight", "damage": {"amount": 2}},
    "aura": {"name": "Aura", "cost": 1, "range": "self", "area": 3, "damage": {"amount": 1}},
    "pinch": {"name": "Pinch", "cost": 1, "dc": "physical", "range": "reach", "properties": ["touch"],
              "damage": {"amount": 4}},
}

RULES = ruleset()


def rules(**overrides):
    return ruleset(overrides) if overrides else RULES


def world(mira=None, bandit=None, cards=None, encounter=True, turn="mira", round_no=1, extra=None, clock=0,
          rules_=None):
    """The table's world; `mira`/`bandit` are dict updates to the sheets."""
    r = rules_ or RULES
    docs = {"mira": {**copy.deepcopy(MIRA), **(mira or {})}, "bandit": {**copy.deepcopy(BANDIT), **(bandit or {})}}
    docs.update(copy.deepcopy(extra or {}))
    chars = {cid: parse_sheet(cid, doc, f"characters/{cid}.yaml", r) for cid, doc in docs.items()}
    card_docs = {**copy.deepcopy(CARDS), **(cards or {})}
    parsed = {cid: parse_card(cid, doc, f"actions/{cid}.yaml") for cid, doc in card_docs.items()}
    enc = Encounter("fight", round_no, turn, tuple(chars)) if encounter else None
    return World(chars, parsed, enc, clock)


def decl(card, *targets, actor="mira", **options):
    return Declaration(actor=actor, card=card, targets=tuple(targets), **options)


def perform(w, card, *targets, faces=None, rules_=None, seed=0, **options):
    import random

    return act(w, decl(card, *targets, **options), rules_ or RULES, DiceSource(random.Random(seed), faces or {}))
