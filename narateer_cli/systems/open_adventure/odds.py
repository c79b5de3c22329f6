"""Exact odds of an Action Check with exploding dice, as Fractions (never sampling).

Each die is a generating function. An unbounded exploding dN chain is
P(x) / (N - x^N) with P = x + ... + x^(N-1): a chain totals
qN + r with chance N^-(q+1). A pool multiplies its dice's functions; the
geometric part 1/(1 - x^N/N)^m expands as sum C(m+j-1, j) (x^N/N)^j. All
coefficients are integers over one common denominator, truncated at the
largest total asked for, so the distribution up to U is exact and the rest
is the tail. Capped or non-exploding dice (the `explode` knob) are finite polynomials.
"""

from __future__ import annotations

from typing import Any

from fractions import Fraction
from math import comb

from narateer_cli.kit import BadInput, Refused

from .chart import chart_dice
from narateer_cli.kit import Record, computed, field

def _frac(p):
    """An exact probability in its JSON spelling (`137/288`), from the render layer when first needed."""
    from .render import frac

    return frac(p)


class Odds(Record):
    """`odds AS --ds N`: exact Fractions; the render layer writes them as text."""
    action_score: Any
    dice: Any = field(dump=lambda sizes: [f"d{n}" for n in sizes])
    ds: Any
    p_success: Any = field(dump=float)
    p_critical_failure: Any = field(dump=_frac)
    expected_total: Any = field(dump=_frac)
    distribution: Any = field(dump=lambda d: {str(t): _frac(p) for t, p in d.items()})
    tail_above: Any = field(dump=_frac)
    upto: Any

    system = computed(lambda o: "open-adventure")
    p_success_exact = computed(lambda o: _frac(o.p_success))
    _json_order = ("system", "action_score", "dice", "ds", "p_success", "p_success_exact")


def die_factor(size: int, rules, crit: bool = False) -> tuple[list[int], int, bool]:
    """(integer polynomial, denominator, geometric?) for one die, or for its Critical Failure part."""
    if not rules.explode_all:
        return ([0, 1] if crit else [0] + [1] * size), size, False
    cap = rules.explode_cap
    if crit and rules.crit_faces == "first":
        return [0, 1], size, False
    if cap is None:
        return ([0, 1] if crit else [0] + [1] * (size - 1)), size, True
    poly = [0] * (cap * size + size + 1)
    for q in range(cap + 1):
        weight = size ** (cap - q)
        faces = (1,) if crit else range(1, size if q < cap else size + 1)
        for f in faces:
            poly[q * size + f] += weight
    return poly, size ** (cap + 1), False


def _mul(a: list[int], b: list[int], upto: int) -> list[int]:
    out = [0] * min(len(a) + len(b) - 1, upto + 1)
    bs = [(j, w) for j, w in enumerate(b) if w]
    for i, wa in enumerate(a):
        if not wa or i > upto:
            continue
        for j, wb in bs:
            if i + j > upto:
                break
            out[i + j] += wa * wb
    return out


def weights(dice, rules, upto: int, crit: bool = False) -> tuple[list[int], int]:
    """Integer weights W[0..upto] and denominator D: P(total = t [and crit]) = W[t] / D."""
    poly, denom = [1], 1
    geometric: dict[int, int] = {}  # die size -> how many of the pool's dice of that size explode unbounded
    for size in dice:
        p, d, geo = die_factor(size, rules, crit)
        poly = _mul(poly, p, upto)
        denom *= d
        if geo:
            geometric[size] = geometric.get(size, 0) + 1
    for size, m in sorted(geometric.items()):
        top = upto // size
        series = [0] * (top * size + 1)
        for j in range(top + 1):
            series[j * size] = comb(m + j - 1, j) * size ** (top - j)
        poly = _mul(poly, series, upto)
        denom *= size ** top
    return poly + [0] * (upto + 1 - len(poly)), denom


def die_mean(size: int, rules) -> Fraction:
    """The mean of one die's chain: N(N+1)/(2(N-1)) when unbounded."""
    poly, denom, geo = die_factor(size, rules)
    if geo:
        return Fraction(size * (size + 1), 2 * (size - 1))
    return Fraction(sum(t * w for t, w in enumerate(poly)), denom)


def crit_chance(dice, rules) -> Fraction:
    """Critical Failure: the product over dice of each one's Critical Failure mass (1/N each, by default)."""
    out = Fraction(1)
    for size in dice:
        poly, denom, geo = die_factor(size, rules, crit=True)
        mass = Fraction(sum(poly), denom)
        out *= mass * Fraction(size, size - 1) if geo else mass
    return out


def p_success(dice, ds: int, rules) -> Fraction:
    """P(total >= DS) less the Critical Failures that reach it (a Critical Failure always fails)."""
    if not dice:
        return Fraction(0)
    w, d = weights(dice, rules, max(ds - 1, 0))
    p = 1 - Fraction(sum(w[:ds]), d)
    if rules.crit_always_fails:
        cw, cd = weights(dice, rules, max(ds - 1, 0), crit=True)
        p -= crit_chance(dice, rules) - Fraction(sum(cw[:ds]), cd)
    return p


def check_action_score(action_score: int, rules, what: str = "an Action Check"):
    if action_score > rules.limits["action_score"]:
        raise BadInput(f"AS {action_score} is over the limit", fix=f"give an AS up to {rules.limits['action_score']}")
    if action_score < rules.min_as:
        raise Refused(f"AS {action_score} is below {rules.min_as}: no {what}", rule="R-OA-AS-6",
                      fix=f"raise the AS to {rules.min_as} with Benefits or bonuses")


def odds(action_score: int, ds: int, rules, upto: int | None = None) -> Odds:
    """The exact odds of AS against DS: success, Critical Failure, mean, distribution and tail."""
    check_action_score(action_score, rules, "dice to roll")
    dice = chart_dice(action_score, rules)
    if upto is None:
        upto = max(ds, 2 * sum(dice))
    if upto < 1 or upto > rules.limits["ds"]:
        raise BadInput(f"--upto {upto} is out of range", fix=f"give 1..{rules.limits['ds']}")
    w, d = weights(dice, rules, upto)
    dist = {t: Fraction(x, d) for t, x in enumerate(w) if x}
    return Odds(action_score=action_score, dice=dice, ds=ds, p_success=p_success(dice, ds, rules),
                p_critical_failure=crit_chance(dice, rules),
                expected_total=sum((die_mean(n, rules) for n in dice), Fraction(0)),
                distribution=dist, tail_above=1 - sum(dist.values(), Fraction(0)), upto=upto)


def opposed_chance(actor_dice, other_dice, extra: int, rules) -> Fraction:
    """An opposed check, exactly: P(actor succeeds) when the opponent's total plus `extra` is the DS.

    S = sum over the opponent's totals b of P(B = b) P(A >= b + c), c = extra (+1 when a tie does not go
    to the actor), less the actor's Critical Failures that reach their DS. When
    either side cannot explode for ever the sum is finite. Otherwise split b by its residue v mod L (the
    lcm of every die size): along b = L*u + v, each die of size N multiplies the chance by
    N^(-L/N) per step (a chain is memoryless), so P(B = Lu + v) and P(A >= Lu + v + c) are sums of
    polynomial(u) x rho^u over rational rho, and so is their product summed over v: a sequence with a
    known rational characteristic polynomial Q. The head is summed term by term; the tail of such a
    sequence is N(1)/Q(1), N read off its first deg Q terms. Every step is a Fraction: exact.
    """
    if not actor_dice or not other_dice:
        return Fraction(0)
    c = extra + (0 if rules.opp_tie == "actor" else 1)
    top_b = finite_top(other_dice, rules)
    top_a = finite_top(actor_dice, rules)
    if top_b is None and top_a is not None:
        top_b = max(top_a - c, 0)  # beyond it the actor cannot reach the DS: every term is 0
    if top_b is not None:
        return _opposed_head(actor_dice, other_dice, c, rules, top_b + 1)
    step = _lcm(list(actor_dice) + list(other_dice))
    roots = _product_roots(_roots(actor_dice, step), _roots(other_dice, step))
    degree = sum(roots.values())
    start = max(0, -(-(len(actor_dice) + 1 - c) // step)) + 1  # past every Critical Failure and t <= 0
    head = _opposed_head(actor_dice, other_dice, c, rules, start * step)
    seq = _opposed_terms(actor_dice, other_dice, c, rules, start * step, step, degree)
    q = [Fraction(1)]
    for root, mult in roots.items():
        for _ in range(mult):
            q = [a - root * b for a, b in zip(q + [Fraction(0)], [Fraction(0)] + q)]
    num = [sum(q[j] * seq[k - j] for j in range(min(k, len(q) - 1) + 1)) for k in range(degree)]
    return head + sum(num, Fraction(0)) / sum(q, Fraction(0))


def finite_top(dice, rules) -> int | None:
    """The largest total a pool can roll, or None when its explosions are unbounded."""
    if rules.explode_all and rules.explode_cap is None:
        return None
    return sum(len(die_factor(n, rules)[0]) - 1 for n in dice)


def _lcm(sizes) -> int:
    from math import lcm

    return lcm(*sizes)


def _roots(dice, step) -> dict:
    """Each die size's ratio per `step` of total, N^(-step/N), with how many dice share it."""
    out: dict[Fraction, int] = {}
    for n in dice:
        rho = Fraction(1, n ** (step // n))
        out[rho] = out.get(rho, 0) + 1
    return out


def _product_roots(a: dict, b: dict) -> dict:
    """Roots of the product of two such sequences: rho*sigma, multiplicity k + l - 1 (the largest wins)."""
    out: dict[Fraction, int] = {}
    for rho, k in a.items():
        for sigma, m in b.items():
            out[rho * sigma] = max(out.get(rho * sigma, 0), k + m - 1)
    return out


def _actor_reach(actor_dice, c, rules, upto):
    """reach(b) = P(actor total >= b + c), less its Critical Failure when that reaches the DS."""
    wa, da = weights(actor_dice, rules, max(upto + c, 0))
    below = [0]
    for x in wa:
        below.append(below[-1] + x)
    crit = crit_chance(actor_dice, rules) if rules.crit_always_fails else Fraction(0)

    def reach(b: int) -> Fraction:
        ds = max(b + c, 0)
        p = 1 - Fraction(below[min(ds, len(below) - 1)], da)
        return p - crit if crit and ds <= len(actor_dice) else p
    return reach


def _opposed_head(actor_dice, other_dice, c, rules, stop: int) -> Fraction:
    """The sum over the opponent's totals b < stop, term by term."""
    wb, db = weights(other_dice, rules, stop)
    reach = _actor_reach(actor_dice, c, rules, stop)
    return sum((Fraction(w, db) * reach(b) for b, w in enumerate(wb[:stop]) if w), Fraction(0))


def _opposed_terms(actor_dice, other_dice, c, rules, first: int, step: int, count: int) -> list:
    """The sequence's terms u = 0..count-1: the sum over b in [first + u*step, first + (u+1)*step)."""
    last = first + step * count
    wb, db = weights(other_dice, rules, last)
    reach = _actor_reach(actor_dice, c, rules, last)
    return [sum((Fraction(wb[b], db) * reach(b) for b in range(first + u * step, first + (u + 1) * step)
                 if wb[b]), Fraction(0)) for u in range(count)]
