"""`stats` at any log length (P-LUCK-2): the percentile within 0.05
points of the exact value, running sums whose memory does not grow with the log, and a long generated
log through the CLI counted right. The exact values here come from independent computations: the
host's exact integer weights, or a binomial summed term by term with math.comb."""

from __future__ import annotations

import importlib.util
import json
import math
import random
import tracemalloc
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from narateer_cli import luck, luck_percentile
from narateer_cli.luck_percentile import EDGEWORTH_VARIANCE, edgeworth, exact, moments, percentile, window
from tests.conftest import REPO, ok

BOUND = 0.05  # percentage points (Part 9)
DENOMINATORS = [2, 3, 4, 5, 6, 10, 12, 20, 36]


def chances(low=0.0, high=1.0):
    return st.builds(lambda d, x: Fraction(round(low * d + x * (high - low) * d), d),
                     st.sampled_from(DENOMINATORS), st.floats(0, 1))


@settings(max_examples=80, deadline=None)
@given(st.dictionaries(chances(), st.integers(1, 40), min_size=1, max_size=6), st.floats(0, 1))
def test_the_window_method_against_the_exact_value(groups, where):
    k = round(where * sum(groups.values()))
    assert abs(window(groups, k) - float(exact(groups, k))) <= 1e-6  # float rounding only: far inside BOUND


@settings(max_examples=15, deadline=None)
@given(st.dictionaries(chances(0.25, 0.75), st.integers(70, 105), min_size=3, max_size=4), st.floats(0, 1))
def test_the_edgeworth_expansion_against_the_exact_value(groups, where):
    mean, var, _, _ = moments(groups)
    assume(var >= EDGEWORTH_VARIANCE and sum(groups.values()) <= 420)
    k = round(mean + (where - 0.5) * 6 * math.sqrt(var))  # within three standard deviations
    assert abs(edgeworth(groups, k) - float(exact(groups, k))) <= BOUND


def binomial_percentile(m: int, p: Fraction, k: int) -> float:
    """P(S < k) + P(S = k)/2 for one binomial, each term an exact integer (math.comb), independent of
    `weights`; divided in integers to 2^-64 (no gcd of the huge denominator)."""
    a, b, d = p.numerator, p.denominator - p.numerator, p.denominator
    base = b ** (m - k)
    term = [math.comb(m, j) * a ** j * b ** (k - j) * base for j in range(k + 1)]
    return (100 * (2 * sum(term[:k]) + term[k]) << 64) // (2 * d ** m) / 2 ** 64


@pytest.mark.parametrize("m, p", [(1200, Fraction(1, 20)), (2000, Fraction(1, 36)), (400, Fraction(1, 2)),
                                  (900, Fraction(19, 20))])
def test_skewed_and_long_single_chances_against_the_exact_binomial(m, p):
    """Few successes expected among many checks (a Poisson-like, skewed sum) is where the expansion
    is worst; the window method takes the small variances."""
    groups = {p: m}
    mean, var, _, _ = moments(groups)
    for k in {max(0, round(mean + z * math.sqrt(var))) for z in (-3, -1.5, -0.5, 0, 0.5, 1.5, 3)}:
        truth = binomial_percentile(m, p, min(k, m))
        assert abs(percentile(groups, k) - truth) <= BOUND
        if var >= EDGEWORTH_VARIANCE:
            assert abs(edgeworth(groups, k) - truth) <= BOUND
        assert abs(window(groups, k) - truth) <= 1e-6


def test_a_long_log_of_rare_successes_uses_a_small_window():
    """100,000 checks at 1 in 10,000: variance 10, so the window method, over a window of ~100 totals."""
    groups = {Fraction(1, 10_000): 100_000}
    for k in (3, 10, 18):
        assert abs(percentile(groups, k) - binomial_percentile(100_000, Fraction(1, 10_000), k)) <= 1e-6


def test_a_short_log_is_exact():
    groups = {Fraction(11, 20): 30, Fraction(137, 288): 12, Fraction(0): 2, Fraction(1): 3}
    assert luck_percentile.exact_bits(groups) <= luck_percentile.EXACT_BITS
    for k in range(48):
        assert percentile(groups, k) == float(exact(groups, k)) == float(luck.percentile(
            [c for c, m in groups.items() for _ in range(m)], k))


def test_certain_checks_only():
    assert percentile({Fraction(1): 5000, Fraction(0): 5000}, 5000) == 50.0
    assert window({Fraction(1): 5000, Fraction(0): 5000}, 4999) == 0.0
    assert window({Fraction(1): 5000, Fraction(0): 5000}, 5001) == 100.0


# ---- running sums: memory flat in the number of checks ----

def _entries(count: int, seed: int = 3):
    """(log id, entry) pairs of Narateer rolls, each with the logged chance of its pool size and DR."""
    rng = random.Random(seed)
    pools = [(dice, dr, rng.randint(1, 6 ** dice - 1)) for dice in range(1, 5) for dr in range(0, 5)]
    for seq in range(1, count + 1):
        dice, dr, ways = pools[seq % len(pools)]
        yield "campaign", {"seq": seq, "id": f"{seq:012x}", "command": "roll", "actor": "selka", "result": {
            "actor": "selka", "skill": "stealth", "target": dr, "target_source": "dr", "roll_dice": dice,
            "paid": dice, "final_faces": [rng.choice((0, 0, 1, 1, 2, 2)) for _ in range(dice)],
            "success": rng.random() < 0.5, "chance": f"{ways}/{6 ** dice}"}}


def _peak(count: int, system, rules) -> int:
    tracemalloc.start()
    try:
        luck.stats_record(_entries(count), system, rules)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_does_not_grow_with_the_number_of_checks(camp, monkeypatch):
    """Ten times the checks, the same peak within 64 KiB: running sums, grouped chances, and the counts of
    the last RECENT entries (an undo's reach), made small here so both runs fill it."""
    from narateer_cli.store.campaign import Campaign

    campaign = Campaign(camp)
    monkeypatch.setattr(luck, "RECENT", 64)
    _peak(500, campaign.system, campaign.rules)  # the die model's caches filled
    small, large = _peak(2_000, campaign.system, campaign.rules), _peak(20_000, campaign.system, campaign.rules)
    assert large - small < 64 * 1024, (small, large)


# ---- a long generated log through the CLI ----

def _generator():
    spec = importlib.util.spec_from_file_location("stats_scale", REPO / "scripts" / "stats_scale.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_long_generated_log_through_the_cli(camp):
    """5,000 Narateer checks: every count recounted from the log, the percentile as the window method
    gives it (itself within 1e-6 points of exact above) to 0.05 points."""
    path = _generator().write_log(camp, 5_000)
    groups, successes, spent, crits = {}, 0, 0, 0
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            check = json.loads(line[2:])["result"]
            chance = Fraction(check["chance"])
            groups[chance] = groups.get(chance, 0) + 1
            successes += check["success"]
            spent += check["paid"]
            crits += check["final_faces"].count(2)
    [row] = ok(camp, "stats")["actors"]
    expected = sum(p * m for p, m in groups.items())
    assert (row["checks"], row["successes"], row["dice_spent"], row["crits"]) == (5_000, successes, spent, crits)
    assert row["expected_exact"] == f"{expected.numerator}/{expected.denominator}"
    assert abs(row["percentile"] - window(groups, successes)) <= BOUND + 0.05  # printed to 0.1


# ---- the walk over a logged result ----

def _every_mapping(node, out):
    """The plain definition `luck.mappings` must keep: every mapping, outermost first, depth first, in order."""
    if isinstance(node, dict):
        out.append(node)
        for value in node.values():
            _every_mapping(value, out)
    elif isinstance(node, list):
        for value in node:
            _every_mapping(value, out)
    return out


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=3),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner,
                                                                                       max_size=4), max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES)
def test_mappings_are_every_mapping_in_order(node):
    found = luck.mappings(node)
    assert [id(m) for m in found] == [id(m) for m in _every_mapping(node, [])]
