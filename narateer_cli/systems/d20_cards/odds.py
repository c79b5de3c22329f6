"""Exact odds of a card against its targets, as Fractions (never sampled).

For an attack: each kept d20 face (20 faces, or 400 ordered pairs under an
uncancelled edge) decides hit and Overkill through the same `hits` and
`overkill` as `act`; for a DC card: each of the target's 20 save faces.
Damage dice are combined by integer convolution. No AP, cooldown or charge
gate applies; range and sight do (they set the blind penalty).
"""

from __future__ import annotations

from collections import Counter
from itertools import accumulate
from fractions import Fraction

from .act import _dc, hits, on_save_damage, on_save_mode, overkill, resists, save_attribute
from .dice import D20, edge_mode, kept_face
from .gates import geometry, prepare, refusal, target_gate
from .results import AttackRoll, OddsResult, TargetOdds


def dice_counts(dice) -> Counter:
    """Ways to roll each total of `count`d`sides` + bonus: one running-sum pass per die, so the largest
    dice a card may hold (G-PRIV-6: `schema.MAX_DICE`d`schema.MAX_FACES`) take a fraction of a second."""
    ways = [1]
    for _ in range(dice.count):
        prefix, last = list(accumulate(ways, initial=0)), len(ways)
        ways = [prefix[min(t + 1, last)] - prefix[max(t + 1 - dice.sides, 0)]
                for t in range(last + dice.sides - 1)]
    return Counter({dice.count + dice.bonus + i: n for i, n in enumerate(ways)})


def kept_faces(mode) -> Counter:
    """How many ways each kept d20 face comes up: 1 of 20, or out of 400 pairs under an edge."""
    if mode is None:
        return Counter({f: 1 for f in range(1, D20 + 1)})
    return Counter(kept_face((a, b), mode) for a in range(1, D20 + 1) for b in range(1, D20 + 1))


def _base(card) -> tuple[Counter, int]:
    """The card's damage as whole-number ways out of a whole (Fractions only at the end, for speed)."""
    if card.damage is None:
        return Counter({0: 1}), 1
    ways = dice_counts(card.damage)
    return ways, sum(ways.values())


def _add(dist, ways, weight, shift=0, scale=None):
    for value, n in ways.items():
        dist[(value if scale is None else scale(value)) + shift] += n * weight


def _exact(dist, whole) -> dict:
    return {k: Fraction(n, whole) for k, n in sorted(dist.items()) if n}


def _attack_odds(perf, target, card, geo, decl, rules, base):
    mode = edge_mode(decl.advantage, decl.disadvantage, rules.edge)
    faces = kept_faces(mode)
    ways, whole = base
    dist, lands, need = Counter(), 0, None
    bonus = perf.bonus(card.atk)
    ac_kind = rules.ac_kind(card.atk)
    ac = target.ac[ac_kind]
    for face, n in sorted(faces.items()):
        total = face + bonus + geo.penalty + decl.mod
        if not hits(face, total, ac, rules):
            dist[0] += n * whole
            continue
        need = face if need is None else need
        lands += n
        roll = AttackRoll(card.atk, bonus, [face], face, geo.penalty, decl.mod, total, ac_kind, ac, True)
        _add(dist, ways, n, overkill(card, roll))
    every = sum(faces.values())
    return need, Fraction(lands, every), _exact(dist, every * whole)


def _save_odds(perf, target, card, rules, base):
    attribute = save_attribute(target, card, rules)
    bonus = target.bonus(attribute) if attribute else 0
    dc = _dc(perf, card).value
    mode = on_save_mode(card, rules)
    ways, whole = base
    dist, lands, need = Counter(), 0, None
    for face in range(1, D20 + 1):
        if resists(face + bonus, dc, rules):
            need = face if need is None else need
            _add(dist, ways, 1, 0, lambda v: on_save_damage(v, mode))
        else:
            lands += 1
            _add(dist, ways, 1)
    return need, Fraction(lands, D20), _exact(dist, D20 * whole)


def odds(world, decl, rules) -> OddsResult:
    """`odds CHAR CARD --target T`: chance to land, expected damage and its distribution per target."""
    plan = prepare(world, decl, rules)
    perf, card = plan.performer or plan.owner, plan.card
    placed = []
    for name in plan.targets:
        gate, geo = target_gate(plan, geometry(world, plan, decl, rules, name), rules)
        if not gate.ok:
            raise refusal(gate, plan)
        placed.append((name, geo))
    rows, base = [], _base(card)
    for name, geo in placed:
        target = world.chars[name]
        if card.kind == "attack":
            need, lands, dist = _attack_odds(perf, target, card, geo, decl, rules, base)
        elif card.kind == "dc":
            need, lands, dist = _save_odds(perf, target, card, rules, base)
        else:
            need, lands, dist = None, Fraction(1), _exact(base[0], base[1])
        expected = sum((k * v for k, v in dist.items()), Fraction(0))
        rows.append(TargetOdds(name, need, lands, expected, dist, geo.penalty, geo.in_range))
    mode = edge_mode(decl.advantage, decl.disadvantage, rules.edge) if card.kind == "attack" else None
    return OddsResult(perf.id, card.id, card.kind, mode, tuple(rows))
