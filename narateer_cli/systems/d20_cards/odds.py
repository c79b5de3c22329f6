"""Exact odds of a card against its targets, as Fractions (never sampled).

For an attack: each kept d20 face (20 faces, or 400 ordered pairs under an
uncancelled edge) decides hit and Overkill through the same `hits` and
`overkill_amount` as `act`; for a DC card: each of the target's 20 save faces.
Damage dice are combined by integer convolution. Everything is counted in
whole-number ways, with one Fraction per value at the end; the ways of the
kept d20 per edge and of each (count, sides) of damage dice are kept for the
process, so odds asked again (the page, a shell) redo neither. No AP,
cooldown or charge gate applies; range and sight do (they set the blind
penalty).
"""

from __future__ import annotations

from collections import Counter
from itertools import accumulate
from fractions import Fraction
from functools import lru_cache

from .act import _dc, hits, on_save_damage, on_save_mode, overkill_amount, resists, save_attribute
from .dice import D20, edge_mode, kept_face, kept_ways
from .gates import geometry, prepare, refusal, target_gate
from .results import OddsResult, TargetOdds


def dice_counts(dice) -> Counter:
    """Ways to roll each total of `count`d`sides` + bonus (a new Counter: callers may change it)."""
    low, ways = _dice_ways(dice.count, dice.sides)
    return Counter({low + dice.bonus + i: n for i, n in enumerate(ways)})


@lru_cache(maxsize=64)
def _dice_ways(count: int, sides: int) -> tuple[int, tuple]:
    """(lowest sum, ways to roll each sum from it) of `count`d`sides`: one running-sum pass per die, so the
    largest dice a card may hold (the cap, `schema.MAX_DICE`d`schema.MAX_FACES`) take a fraction of a
    second; kept per (count, sides), as a card's damage is asked for again and again."""
    ways = [1]
    for _ in range(count):
        prefix, last = list(accumulate(ways, initial=0)), len(ways)
        ways = [prefix[min(t + 1, last)] - prefix[max(t + 1 - sides, 0)] for t in range(last + sides - 1)]
    return count, tuple(ways)


def _base(card) -> tuple[int, tuple, int]:
    """The card's damage as whole-number ways (Fractions only at the end, for speed): (lowest total, ways to
    roll each total from it, all ways)."""
    if card.damage is None:
        return 0, (1,), 1
    low, ways = _dice_ways(card.damage.count, card.damage.sides)
    return low + card.damage.bonus, ways, card.damage.sides ** card.damage.count


def _spread(dist: dict, base, weight: int, shift=0, scale=None) -> dict:
    """Add the damage ways, each times `weight`, at its total (`scale`d, then moved by `shift`)."""
    low, ways, _ = base
    for i, n in enumerate(ways):
        value = low + i if scale is None else scale(low + i)
        dist[value + shift] = dist.get(value + shift, 0) + n * weight
    return dist


def _exact(dist: dict, whole: int) -> tuple[dict, Fraction]:
    """The distribution and its mean as Fractions of `whole`: one Fraction per value, one for the mean."""
    total = sum(k * n for k, n in dist.items())
    return {k: Fraction(n, whole) for k, n in sorted(dist.items()) if n}, Fraction(total, whole)


def _attack_odds(perf, target, card, geo, decl, rules, base):
    """Faces that hit are grouped by the Overkill they add, so the damage ways are spread once per group."""
    mode = edge_mode(decl.advantage, decl.disadvantage, rules.edge)
    bonus, ac_kind = perf.bonus(card.atk), rules.ac_kind(card.atk)
    ac = target.ac[ac_kind]
    misses, lands, need = 0, 0, None
    shifts: dict[int, int] = {}  # Overkill added -> how many ways of the d20 add it
    for face, n in kept_ways(mode):
        total = face + bonus + geo.penalty + decl.mod
        if not hits(face, total, ac, rules):
            misses += n
            continue
        need = face if need is None else need
        lands += n
        shift = overkill_amount(True, total, ac, card.overkill)
        shifts[shift] = shifts.get(shift, 0) + n
    whole = base[2]
    dist = {0: misses * whole} if misses else {}
    for shift, n in shifts.items():
        _spread(dist, base, n, shift)
    every = D20 * D20 if mode is not None else D20
    return need, Fraction(lands, every), *_exact(dist, every * whole)


def _save_odds(perf, target, card, rules, base):
    attribute = save_attribute(target, card, rules)
    bonus = target.bonus(attribute) if attribute else 0
    dc = _dc(perf, card).value
    mode = on_save_mode(card, rules)
    resisted = [face for face in range(1, D20 + 1) if resists(face + bonus, dc, rules)]
    need, lands = (resisted[0] if resisted else None), D20 - len(resisted)
    dist: dict[int, int] = {}  # damage -> ways
    if resisted:
        _spread(dist, base, len(resisted), 0, lambda v: on_save_damage(v, mode))
    if lands:
        _spread(dist, base, lands)
    return need, Fraction(lands, D20), *_exact(dist, D20 * base[2])


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
            need, lands, dist, expected = _attack_odds(perf, target, card, geo, decl, rules, base)
        elif card.kind == "dc":
            need, lands, dist, expected = _save_odds(perf, target, card, rules, base)
        else:
            need, lands = None, Fraction(1)
            dist, expected = _exact(_spread({}, base, 1), base[2])
        rows.append(TargetOdds(name, need, lands, expected, dist, geo.penalty, geo.in_range))
    mode = edge_mode(decl.advantage, decl.disadvantage, rules.edge) if card.kind == "attack" else None
    return OddsResult(perf.id, card.id, card.kind, mode, tuple(rows))
