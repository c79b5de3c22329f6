"""Exact odds of a card against its targets, as Fractions (never sampled).

For an attack: each kept d20 face (20 faces, or 400 ordered pairs under an
uncancelled edge) decides hit and Overkill through the same `hits` and
`overkill` as `act`; for a DC card: each of the target's 20 save faces.
Damage dice are combined by integer convolution. No AP, cooldown or charge
gate applies; range and sight do (they set the blind penalty).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from .act import _dc, hits, on_save_damage, on_save_mode, overkill, resists, save_attribute
from .dice import D20, edge_mode, kept_face
from .gates import geometry, prepare, refusal, target_gate
from .results import AttackRoll, OddsResult, TargetOdds


def dice_counts(dice) -> Counter:
    """Ways to roll each total of `count`d`sides` + bonus (integer convolution)."""
    ways = Counter({dice.bonus: 1})
    for _ in range(dice.count if dice else 0):
        step = Counter()
        for total, n in ways.items():
            for face in range(1, dice.sides + 1):
                step[total + face] += n
        ways = step
    return ways


def kept_faces(mode) -> Counter:
    """How many ways each kept d20 face comes up: 1 of 20, or out of 400 pairs under an edge."""
    if mode is None:
        return Counter({f: 1 for f in range(1, D20 + 1)})
    return Counter(kept_face((a, b), mode) for a in range(1, D20 + 1) for b in range(1, D20 + 1))


def _base(card) -> dict:
    if card.damage is None:
        return {0: Fraction(1)}
    ways = dice_counts(card.damage)
    whole = sum(ways.values())
    return {total: Fraction(n, whole) for total, n in ways.items()}


def _add(dist, base, shift, weight, scale=None):
    for value, p in base.items():
        amount = (value if scale is None else scale(value)) + shift
        dist[amount] = dist.get(amount, 0) + p * weight


def _attack_odds(perf, target, card, geo, decl, rules):
    mode = edge_mode(decl.advantage, decl.disadvantage, rules.edge)
    faces = kept_faces(mode)
    whole = sum(faces.values())
    base, dist, lands, need = _base(card), {}, Fraction(0), None
    bonus = perf.bonus(card.atk)
    ac_kind = rules.ac_kind(card.atk)
    ac = target.ac[ac_kind]
    for face, n in sorted(faces.items()):
        total = face + bonus + geo.penalty + decl.mod
        hit = hits(face, total, ac, rules)
        weight = Fraction(n, whole)
        if not hit:
            dist[0] = dist.get(0, 0) + weight
            continue
        need = face if need is None else need
        lands += weight
        roll = AttackRoll(card.atk, bonus, [face], face, geo.penalty, decl.mod, total, ac_kind, ac, True)
        _add(dist, base, overkill(card, roll), weight)
    return need, lands, dist


def _save_odds(perf, target, card, rules):
    attribute = save_attribute(target, card, rules)
    bonus = target.bonus(attribute) if attribute else 0
    dc = _dc(perf, card).value
    mode = on_save_mode(card, rules)
    base, dist, lands, need = _base(card), {}, Fraction(0), None
    for face in range(1, D20 + 1):
        total = face + bonus
        resisted = resists(total, dc, rules)
        weight = Fraction(1, D20)
        if resisted:
            need = face if need is None else need
            _add(dist, base, 0, weight, lambda v: on_save_damage(v, mode))
        else:
            lands += weight
            _add(dist, base, 0, weight)
    return need, lands, dist


def odds(world, decl, rules) -> OddsResult:
    """`odds CHAR CARD --target T`: chance to land, expected damage and its distribution per target."""
    plan = prepare(world, decl, rules)
    perf, card = plan.performer or plan.owner, plan.card
    rows = []
    for name in plan.targets:
        gate, geo = target_gate(plan, geometry(world, plan, decl, rules, name), rules)
        if not gate.ok:
            raise refusal(gate, plan)
        target = world.chars[name]
        if card.kind == "attack":
            need, lands, dist = _attack_odds(perf, target, card, geo, decl, rules)
        elif card.kind == "dc":
            need, lands, dist = _save_odds(perf, target, card, rules)
        else:
            need, lands, dist = None, Fraction(1), {k: v for k, v in _base(card).items()}
        dist = {k: v for k, v in sorted(dist.items()) if v}
        expected = sum((k * v for k, v in dist.items()), Fraction(0))
        rows.append(TargetOdds(name, need, lands, expected, dist, geo.penalty, geo.in_range))
    mode = edge_mode(decl.advantage, decl.disadvantage, rules.edge) if card.kind == "attack" else None
    return OddsResult(perf.id, card.id, card.kind, mode, tuple(rows))
