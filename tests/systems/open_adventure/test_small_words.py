"""An opposed check's chance for a person: a percentage, not a 14-digit fraction (`--json` keeps it exact)."""

from __future__ import annotations

from fractions import Fraction

from tests.conftest import ok, run


def test_an_opposed_chance_reads_as_a_percentage(oa):
    r = run(oa, "roll", "warheart", "strength", "--opposed", "orc:strength", "--dry-run")
    assert r.code == 0, r.err
    line = next(line for line in r.out.splitlines() if "chance of success" in line)
    assert line.strip().startswith("chance of success 37.3%;") and "/6046" not in line
    exact = ok(oa, "roll", "warheart", "strength", "--opposed", "orc:strength", "--dry-run")["p_success_exact"]
    assert Fraction(exact).denominator > 10**12


def test_a_short_fraction_stays_beside_its_percentage(oa):
    r = run(oa, "roll", "warheart", "strength", "--ds", "5", "--dry-run")
    assert "chance of success 3/5 = 60.0%" in r.out
