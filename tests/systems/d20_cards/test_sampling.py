"""Seeded sampling agrees with the exact odds that `act --dry-run` and `odds` print.

20,000 seeded performances through the engine's `act` (the path every roll takes), split over four cases
(plain attack, disadvantage, an unseen target, a save against the Action DC), are compared with the exact
Fractions of `dry_run`. The seed is fixed, so the test is deterministic; the bound (6 standard errors, from
the exact distribution itself) is one that any seed passes except with chance about 1 in 10^8, so
changing the seed or the count does not make it flaky either.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from narateer_cli.systems.d20_cards.act import act, dry_run
from narateer_cli.systems.d20_cards.dice import DiceSource

from .world import RULES, decl, world

N = 5_000  # per case; 4 cases = 20,000 rolls
SIGMAS = 6

CASES = {
    "strike": dict(card="strike"),  # W-11: 11/20
    "strike-disadvantage": dict(card="strike", disadvantage=True),  # W-11: 121/400
    "strike-unseen": dict(card="strike", unseen=("bandit",)),  # W-11: 1/20
    "stun-word": dict(card="stun-word"),  # W-6: fails on faces 1..8, 8/20
}


def _bound(var: float) -> float:
    return SIGMAS * math.sqrt(var / N) + 1 / N


@pytest.mark.parametrize("case", sorted(CASES))
def test_seeded_rolls_agree_with_the_exact_odds(case):
    options = dict(CASES[case])
    card = options.pop("card")
    w = world()
    d = decl(card, "bandit", **options)
    exact = dry_run(w, d, RULES)
    assert exact.allowed
    row = exact.odds.targets[0]
    p = row.p_lands
    dist = row.distribution
    assert sum(dist.values()) == 1
    mean = row.expected_damage
    var = sum((k - mean) ** 2 * v for k, v in dist.items())
    rng = random.Random(f"d20-sampling-{case}")
    lands = dealt_total = 0
    seen = {}
    for _ in range(N):
        _, result = act(w, d, RULES, DiceSource(rng))
        target = result.targets[0]
        dealt = target.damage.dealt if target.damage is not None else 0
        lands += bool(target.lands)
        dealt_total += dealt
        seen[dealt] = seen.get(dealt, 0) + 1
    assert set(seen) <= set(dist)  # every sampled damage is one the exact distribution allows
    assert abs(lands / N - float(p)) <= _bound(float(p * (1 - p)))
    assert abs(dealt_total / N - float(mean)) <= _bound(float(var))


def test_the_exact_odds_are_the_worked_cases():
    """The reference the sampling is held to is itself the spec's W-11 and W-6 arithmetic."""
    rows = {case: dry_run(world(), decl(o["card"], "bandit", **{k: v for k, v in o.items() if k != "card"}),
                          RULES).odds.targets[0] for case, o in CASES.items()}
    assert rows["strike"].p_lands == Fraction(11, 20)
    assert rows["strike"].expected_damage == Fraction(242, 20)
    assert rows["strike-disadvantage"].p_lands == Fraction(121, 400)
    assert rows["strike-unseen"].p_lands == Fraction(1, 20)
    assert rows["stun-word"].p_lands == Fraction(8, 20)
