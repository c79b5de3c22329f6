"""Exact card odds against an outside oracle (icepool): the chance to land, the expected damage and the
whole damage distribution agree as equal Fractions on attacks (plain, advantage, disadvantage, naturals,
Overkill) and saves (none, half, full); and odds asked again redo no counting."""

from __future__ import annotations

from fractions import Fraction

import pytest

from narateer_cli.systems.d20_cards import odds as odds_module
from narateer_cli.systems.d20_cards.odds import odds
from tests.systems.d20_cards.world import RULES, decl, rules, world

icepool = pytest.importorskip("icepool")

MIRA_FIN, BANDIT_AC = 4, 14  # world.py: Mira's Finesse bonus, the bandit's physical AC
SAVE_DC, BANDIT_WIL = 11, 2  # Mira's Mind 6 + Concentration 5; the bandit's better mental save (Wil 2 > Kno 0)


def damage_die(amount):
    if isinstance(amount, int):
        return icepool.Die([amount])
    count, rest = amount.split("d")
    sides, _, bonus = rest.partition("+")
    return int(count) @ icepool.Die(range(1, int(sides) + 1)) + int(bonus or 0)


def attack_oracle(amount, overkill, edge, mod=0, naturals=("none", "none")):
    """R-CARD-ATK-3/6 written out again: d20 (or the kept of two) + Finesse + mod against AC, ties hit,
    Overkill (total - AC) x modifier above the AC; a natural 20 / 1 hits / misses when the knob says so."""
    d20 = icepool.d20 if edge is None else icepool.d20.highest(2) if edge == "advantage" else icepool.d20.lowest(2)

    def hit(face):
        natural = {20: naturals[0], 1: naturals[1]}.get(face, "none")
        return natural == "hit" if natural != "none" else face + MIRA_FIN + mod >= BANDIT_AC

    def dealt(face, damage):
        if not hit(face):
            return 0
        return damage + max(face + MIRA_FIN + mod - BANDIT_AC, 0) * overkill

    return d20.map(hit).probability(True), icepool.map(dealt, d20, damage_die(amount))


def save_oracle(amount, on_save):
    """R-CARD-DC-2: the target's d20 + Wil meets the DC to resist, then takes none, half (down) or all."""
    resists = icepool.d20 + BANDIT_WIL >= SAVE_DC

    def dealt(resisted, damage):
        return {"none": 0, "half": damage // 2, "full": damage}[on_save] if resisted else damage

    return resists.probability(False), icepool.map(dealt, resists, damage_die(amount))


def agree(row, p_lands, dealt):
    assert row.p_lands == Fraction(p_lands)
    assert row.distribution == {k: Fraction(v) for k, v in zip(dealt.outcomes(), dealt.probabilities()) if v}
    assert row.expected_damage == Fraction(dealt.mean())


@pytest.mark.parametrize("amount, overkill, edge, mod", [
    ("2d6+3", 2, "advantage", 0), ("2d6+3", 2, None, 0), ("2d6+3", 2, "disadvantage", 0), ("1d8", 0, "advantage", 3),
    (12, 2, None, -2), ("3d10+1", 1, "disadvantage", 5), ("4d4", 3, "advantage", -6)])
def test_attack_odds_equal_icepool(amount, overkill, edge, mod):
    cards = {"hit": {"name": "Hit", "cost": 1, "atk": "fin", "range": "reach",
                     "damage": {"amount": amount, "overkill": overkill}}}
    w = world(mira={"actions": ["hit"]}, cards=cards)
    options = {"advantage": edge == "advantage", "disadvantage": edge == "disadvantage", "mod": mod}
    agree(odds(w, decl("hit", "bandit", **options), RULES).targets[0], *attack_oracle(amount, overkill, edge, mod))


def test_attack_odds_with_naturals_equal_icepool():
    r = rules(natural={"twenty": "hit", "one": "miss"})
    cards = {"hit": {"name": "Hit", "cost": 1, "atk": "fin", "range": "reach", "damage": {"amount": "2d6", "overkill": 1}}}
    w = world(mira={"actions": ["hit"]}, cards=cards)
    for mod in (-12, 15):  # only a natural 20 hits / a natural 1 misses
        row = odds(w, decl("hit", "bandit", advantage=True, mod=mod), r).targets[0]
        agree(row, *attack_oracle("2d6", 1, "advantage", mod, ("hit", "miss")))


@pytest.mark.parametrize("amount, on_save", [("4d6", "half"), ("2d6+1", "none"), ("1d12", "full"), ("3d8+2", "half")])
def test_save_odds_equal_icepool(amount, on_save):
    cards = {"word": {"name": "Word", "cost": 1, "dc": "mental", "range": "vocal", "damage": {"amount": amount},
                      "on_save": on_save}}
    w = world(mira={"actions": ["word"]}, cards=cards)
    agree(odds(w, decl("word", "bandit"), RULES).targets[0], *save_oracle(amount, on_save))


def test_odds_asked_again_count_no_d20_pairs_and_convolve_no_dice(monkeypatch):
    """The kept d20's ways per edge and the damage dice's ways are counted once per process."""
    cards = {"hit": {"name": "Hit", "cost": 1, "atk": "fin", "range": "reach",
                     "damage": {"amount": "2d6+3", "overkill": 2}}}
    w = world(mira={"actions": ["hit"]}, cards=cards)
    first = odds(w, decl("hit", "bandit", advantage=True), RULES)
    calls = []
    real = odds_module.kept_face
    monkeypatch.setattr(odds_module, "kept_face", lambda faces, mode: calls.append(1) or real(faces, mode))
    monkeypatch.setattr(odds_module, "accumulate", lambda *a, **k: calls.append(2) or [])
    again = odds(w, decl("hit", "bandit", advantage=True), RULES)
    assert calls == []
    assert again.targets[0].distribution == first.targets[0].distribution
