"""Exact odds with exploding dice (R-OA-EXPL-2, R-OA-CRIT-1): properties, sampling and an outside oracle."""

from __future__ import annotations

import math
import random
import time
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from narateer_cli.systems.open_adventure import chart, odds
from narateer_cli.systems.open_adventure.dice import DiceSource, roll_pool

from .helpers import rules

R = rules()


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 40), st.integers(1, 60))
def test_odds_are_probabilities_and_sum_to_one(score, ds):
    o = odds.odds(score, ds, R)
    assert 0 <= o.p_success <= 1
    assert sum(o.distribution.values(), Fraction(0)) + o.tail_above == 1
    assert o.tail_above >= 0
    assert o.p_critical_failure == math.prod(Fraction(1, n) for n in o.dice)
    assert o.expected_total == sum(Fraction(n * (n + 1), 2 * (n - 1)) for n in o.dice)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 40), st.integers(1, 59))
def test_chance_never_rises_with_ds(score, ds):
    dice = chart.chart_dice(score, R)
    assert odds.p_success(dice, ds + 1, R) <= odds.p_success(dice, ds, R)


def test_chance_is_not_monotone_in_as():
    """W-20: the chart is not monotone, so no test may assume it is."""
    chance = {s: odds.p_success(chart.chart_dice(s, R), 8, R) for s in (2, 3)}
    assert chance[2] > chance[3]
    drops = [(s, ds) for s in range(2, 20) for ds in range(1, 30)
             if odds.p_success(chart.chart_dice(s + 1, R), ds, R) < odds.p_success(chart.chart_dice(s, R), ds, R)]
    assert (2, 8) in drops and (4, 12) in drops


def test_distribution_matches_the_chain_formula():
    """R-OA-EXPL-2: a dN chain totals qN + r with chance N^-(q+1), never a multiple of N."""
    for n in (6, 8, 10, 12):
        w, d = odds.weights((n,), R, 5 * n)
        for t in range(1, 5 * n + 1):
            q, r = divmod(t, n)
            want = Fraction(0) if r == 0 else Fraction(1, n ** (q + 1))
            assert Fraction(w[t], d) == want


def test_seeded_rolls_agree_with_exact_odds():
    """20,000 seeded rolls for AS 7 vs DS 9 and AS 11 vs DS 14: within 4 sigma, mean near the exact mean."""
    for score, ds in ((7, 9), (11, 14)):
        dice = chart.chart_dice(score, R)
        exact = odds.odds(score, ds, R)
        source = DiceSource(rng=random.Random(score * 1000 + ds))
        n, wins, crits, total = 20_000, 0, 0, 0
        for _ in range(n):
            roll = roll_pool(dice, score, R, source)
            crits += roll.critical_failure
            wins += roll.total >= ds and not roll.critical_failure
            total += roll.total
        p = float(exact.p_success)
        assert abs(wins / n - p) <= 4 * math.sqrt(p * (1 - p) / n)
        q = float(exact.p_critical_failure)
        assert abs(crits / n - q) <= 4 * math.sqrt(q * (1 - q) / n) + 1 / n
        assert abs(total / n - float(exact.expected_total)) < 0.15


def test_icepool_oracle_for_many_pairs():
    """An outside oracle (icepool) agrees exactly on 120 (AS, DS) pairs."""
    import icepool

    pairs = [(s, ds) for s in range(2, 17) for ds in (1, 2, 3, s - 1, s, s + 3, 2 * s, 3 * s + 1)]
    pairs = sorted(set((s, ds) for s, ds in pairs if ds >= 1))
    assert len(pairs) >= 100
    cache = {}
    for score, ds in pairs:
        dice = chart.chart_dice(score, R)
        depth = math.ceil(ds / 6)
        key = (dice, depth)
        if key not in cache:
            total = icepool.Die([0])
            for n in dice:
                total = total + icepool.Die(range(1, n + 1)).explode(depth=depth)
            cache[key] = total
        p = Fraction(cache[key].probability(">=", ds))
        if ds <= len(dice):
            p -= math.prod(Fraction(1, n) for n in dice)
        assert odds.p_success(dice, ds, R) == p, (score, ds)


def test_odds_timing_as_40_vs_ds_60():
    """The target is under 20 ms in process; the best of five is asserted with room to spare. The time is
    this thread's CPU time, which other processes on a busy machine do not stretch as they stretch the clock."""
    best = min(_cpu_timed(lambda: odds.odds(40, 60, R)) for _ in range(5))
    assert best < 0.1, best


def _cpu_timed(fn) -> float:
    start = time.thread_time()
    fn()
    return time.thread_time() - start


def test_capped_and_plain_dice_are_exact():
    """A-OA-EXPCAP: a cap of 1 extra die and no explosions at all."""
    capped = rules(explode={"cap": 1})
    w, d = odds.weights((6,), capped, 20)
    assert sum(w) == d and Fraction(w[12], d) == Fraction(1, 36) and w[13] == 0
    plain = rules(explode={"dice": "none"})
    o = odds.odds(2, 4, plain)
    assert o.p_success == Fraction(1, 2) and o.expected_total == Fraction(7, 2) and o.tail_above == 0


def test_chain_end_critical_failure_counts_exploded_dice():
    """A-OA-CRIT chain_end: a d6 ending on 1 after explosions is a Critical Failure; it fails the DS it reaches."""
    r = rules(critical_failure={"faces": "chain_end"})
    assert odds.crit_chance((6,), r) == Fraction(1, 5)
    # AS 2 vs DS 7: 1/6 reach it; the chains that explode then end on 1 (1/36 + 1/216 + ... = 1/30) fail
    assert odds.p_success((6,), 7, R) == Fraction(1, 6)
    assert odds.p_success((6,), 7, r) == Fraction(1, 6) - Fraction(1, 30)


def test_opposed_chance_matches_icepool_and_the_w22_tie():
    """R-OA-OPP-1 / A-OA-OPP: P(actor total >= opponent total + drawbacks), the actor's Critical Failure failing."""
    import icepool

    exact = odds.opposed_chance((6, 6), (6, 6), 0, R)
    d6 = icepool.Die(range(1, 7)).explode(depth=14)
    a, b = d6 + d6, d6 + d6
    p = Fraction((a - b).probability(">=", 0)) - Fraction(1, 36) * Fraction(1, 36)  # A = 2 (crit), B = 2
    assert abs(float(exact) - float(p)) < 1e-9  # icepool's explosions stop at depth 14
    # ties go to the opponent under opposed.tie: opponent, so the chance drops by P(A = B) (less the crit case)
    exact_opp = odds.opposed_chance((6, 6), (6, 6), 0, rules(opposed={"tie": "opponent"}))
    tie = Fraction((a - b).probability("==", 0)) - Fraction(1, 36) * Fraction(1, 36)
    assert abs(float(exact - exact_opp) - float(tie)) < 1e-9
    # a Drawback on the actor is one more point to beat: exactly the same as losing ties
    assert odds.opposed_chance((6, 6), (6, 6), 1, R) == exact_opp


# -- opposed checks: the exact chance over both sides' unbounded explosions (R-OA-OPP-1) ------------------

def test_opposed_d6_against_d6_is_137_252():
    """A, B i.i.d. exploding d6: P(A = B) = sum_q 5 * 36^-(q+1) = 1/7, so P(A >= B) = (1 + 1/7)/2 = 4/7;
    the actor's Critical Failure (A = 1, then B = 1 reached it) costs 1/36: 4/7 - 1/36 = 137/252."""
    from narateer_cli.systems.open_adventure.odds import opposed_chance

    assert opposed_chance([6], [6], 0, rules()) == Fraction(137, 252)


@settings(max_examples=40, deadline=None)
@given(a=st.integers(2, 22), b=st.integers(2, 22), c=st.integers(-4, 6), cap=st.sampled_from([None, 2]))
def test_opposed_chance_and_its_complement_sum_to_one_exactly(a, b, c, cap):
    """Without the Critical Failure rule, P(A >= B + c) + P(B >= A - c + 1) = 1: any error in the
    closed-form tail would break the equality of Fractions."""
    from narateer_cli.systems.open_adventure.chart import chart_dice
    from narateer_cli.systems.open_adventure.odds import opposed_chance

    r = rules(critical_failure={"always_fails": False}, explode={"cap": cap})
    da, db = chart_dice(a, r), chart_dice(b, r)
    assert opposed_chance(da, db, c, r) + opposed_chance(db, da, 1 - c, r) == 1


@pytest.mark.parametrize("a,b,extra", [(6, 6, 0), (7, 10, 1), (14, 9, 3), (40, 40, 0)])
def test_opposed_chance_lies_in_the_truncated_bounds(a, b, extra):
    """The exact value is at least the sum over the opponent's totals up to U and at most that plus the
    opponent's mass above U (a tail far below 1e-20 here)."""
    from narateer_cli.systems.open_adventure.chart import chart_dice
    from narateer_cli.systems.open_adventure.odds import crit_chance, opposed_chance, weights

    r = rules()
    da, db = chart_dice(a, r), chart_dice(b, r)
    exact = opposed_chance(da, db, extra, r)
    upto = 60 * max(db)
    wb, d_b = weights(db, r, upto)
    wa, d_a = weights(da, r, upto + extra + 1)
    low = Fraction(0)
    for total, w in enumerate(wb):
        ds = total + extra
        reach = 1 - Fraction(sum(wa[:ds]), d_a) - (crit_chance(da, r) if ds <= len(da) else 0)
        low += Fraction(w, d_b) * reach
    tail = 1 - Fraction(sum(wb), d_b)
    assert tail < Fraction(1, 10**20) and low <= exact <= low + tail


def test_seeded_opposed_rolls_agree_with_the_exact_chance():
    """20,000 seeded opposed checks, AS 7 against AS 10 with one Drawback: within 4 sigma of the Fraction."""
    da, db = chart.chart_dice(7, R), chart.chart_dice(10, R)
    exact = float(odds.opposed_chance(da, db, 1, R))
    source = DiceSource(rng=random.Random(710))
    n, wins = 20_000, 0
    for _ in range(n):
        mine, theirs = roll_pool(da, 7, R, source), roll_pool(db, 10, R, source)
        wins += mine.total >= theirs.total + 1 and not mine.critical_failure
    assert abs(wins / n - exact) <= 4 * math.sqrt(exact * (1 - exact) / n)
