"""The luck percentile of `stats` in time and memory that do not grow with the log.

A character's checks are independent yes/no events, each with its exact chance; S, the number of
successes, has the Poisson-binomial distribution, and the percentile of k successes is
P(S < k) + P(S = k)/2 in percent. Checks that share a chance form one group, so everything here reads
`groups`, {chance (a Fraction): how many checks had it}: its size is the number of distinct chances
the game's dice can give, not the length of the log.

Three ways, by what each costs (docs/luck.md):

- `exact`: integer weights over one denominator while the exact numbers stay small (at most
  EXACT_BITS bits in all); the printed value is the exact one.
- `window`: while the variance is under EDGEWORTH_VARIANCE, S lies within `half` of its mean except
  with probability under TAIL (Bernstein's inequality), so its distribution folded onto a window of
  that width is read off the characteristic function at as many frequencies (a discrete Fourier
  transform in floats). Error: TAIL plus float rounding, far below 1e-9 points; cost: the window's
  width (under 150) times the number of distinct chances.
- `edgeworth`: from that variance up, the Edgeworth expansion to order 1/variance (skewness and
  kurtosis of the sum), with the continuity correction of a whole-number total and Sheppard's
  correction of its variance. Its error shrinks as variance^(-3/2); the largest seen against the exact
  value is 0.003 points at variance 50 (tests/cli/test_stats_scale.py checks 0.05 over random cases).
  Cost: one pass over the groups.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fractions import Fraction

EXACT_BITS = 1 << 17  # the exact weights as one integer of at most this many bits: tens of milliseconds at most
EDGEWORTH_VARIANCE = 50.0
TAIL = 1e-15  # the probability a window may leave out


def percentile(groups: dict, successes: int) -> float:
    """P(S < k) + P(S = k)/2 in percent: exact while that is cheap, else within 0.05 points of it."""
    if exact_bits(groups) <= EXACT_BITS:
        return float(exact(groups, successes))
    if moments(groups)[1] < EDGEWORTH_VARIANCE:
        return window(groups, successes)
    return edgeworth(groups, successes)


def exact_bits(groups: dict) -> int:
    """The size of the integer `weights` builds: (checks + 1) coefficients of the denominator's size."""
    checks = sum(groups.values())
    return (checks + 1) * (sum(m * p.denominator.bit_length() for p, m in groups.items()) + 8)


def weights(groups: dict) -> tuple[list[int], int]:
    """P(S = j) = weights[j] / denominator, exactly. The generating polynomial, product over the groups of
    ((d - a) + a x)^m for a chance a/d, is evaluated at x = 2^B with B wider than any coefficient, so one
    integer power per group and one product hold every coefficient side by side (Kronecker substitution)."""
    checks = sum(groups.values())
    denominator = math.prod(p.denominator ** m for p, m in groups.items())
    step = denominator.bit_length() // 8 + 1  # bytes per coefficient: each is at most the denominator
    value = 1
    for p, m in groups.items():
        value *= (p.denominator - p.numerator + (p.numerator << 8 * step)) ** m
    raw = value.to_bytes((checks + 1) * step, "little")
    return [int.from_bytes(raw[j * step:(j + 1) * step], "little") for j in range(checks + 1)], denominator


def exact(groups: dict, successes: int) -> Fraction:
    from fractions import Fraction

    dist, denominator = weights(groups)
    below = sum(dist[:max(0, successes)])
    at = dist[successes] if 0 <= successes < len(dist) else 0
    return Fraction(100 * (2 * below + at), 2 * denominator)


def moments(groups: dict) -> tuple[float, float, float, float]:
    """The mean, variance, third and fourth cumulants of S, in floats."""
    mean = var = third = fourth = 0.0
    for chance, m in groups.items():
        p = float(chance)
        q = p * (1 - p)
        mean += m * p
        var += m * q
        third += m * q * (1 - 2 * p)
        fourth += m * q * (1 - 6 * q)
    return mean, var, third, fourth


def window(groups: dict, successes: int) -> float:
    """The percentile from the characteristic function on a window around the mean (see the module)."""
    import cmath

    live = [(float(p), m) for p, m in groups.items() if 0 < p < 1]
    k = successes - sum(m for p, m in groups.items() if p >= 1)  # certain successes shift S
    mean, var = sum(p * m for p, m in live), sum(m * p * (1 - p) for p, m in live)
    log = math.log(2 / TAIL)  # Bernstein: P(|S - mean| >= t) <= 2 exp(-t^2 / (2 (var + t/3)))
    half = math.ceil(log / 3 + math.sqrt(log * log / 9 + 2 * log * var))
    low, high = max(0, math.floor(mean) - half), min(sum(m for _, m in live), math.ceil(mean) + half)
    if k < low:
        return 0.0
    if k > high:
        return 100.0
    size = (high - low + 1) | 1  # odd: frequencies pair off as l and size - l, conjugates of each other
    total = k - low + 0.5  # frequency 0: the characteristic function is 1
    for l in range(1, size // 2 + 1):
        w = 2 * math.pi * l / size
        step = cmath.exp(1j * w)
        phi = cmath.exp(sum(m * cmath.log(1 - p + p * step) for p, m in live))
        # sum of exp(-i w s) for s = low .. k-1, and half of exp(-i w k)
        terms = (cmath.exp(-1j * w * low) - cmath.exp(-1j * w * k)) / (1 - 1 / step) + cmath.exp(-1j * w * k) / 2
        total += 2 * (phi * terms).real
    return min(100.0, max(0.0, 100 * total / size))


def edgeworth(groups: dict, successes: int) -> float:
    """The Edgeworth expansion of P(S <= x) to order 1/variance, averaged at k - 1/2 and k + 1/2 (the
    continuity correction of a whole-number S), its variance less 1/12 (Sheppard's correction)."""
    mean, var, third, fourth = moments(groups)
    sd = math.sqrt(var - 1 / 12)
    skew, kurt = third / sd ** 3, fourth / sd ** 4

    def cdf(x):
        z = (x - mean) / sd
        density = math.exp(-z * z / 2) / math.sqrt(2 * math.pi)
        terms = skew / 6 * (z * z - 1) + kurt / 24 * (z ** 3 - 3 * z) + skew * skew / 72 * (z ** 5 - 10 * z ** 3 + 15 * z)
        return 0.5 * (1 + math.erf(z / math.sqrt(2))) - density * terms
    return min(100.0, max(0.0, 50 * (cdf(successes - 0.5) + cdf(successes + 0.5))))
