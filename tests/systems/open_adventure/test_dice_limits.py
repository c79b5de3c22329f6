"""G-PRIV-6: narateer.yaml arrives by git; a campaign may lower Open Adventure's dice limits, never raise them
past what exact odds work out quickly. Each command runs in a subprocess with a timeout, so a regression
fails instead of hanging; its CPU time, not the clock, says it refused at once."""

from __future__ import annotations

import pytest

from tests.conftest import children_cpu, run, sh, snapshot

PRIMES = "{1: [], 2: [6], 3: [97, 89], 4: [83, 79], 5: [73, 71], 6: [67, 61], 7: [59, 53], 8: [47, 43]}"


@pytest.fixture
def oa(tmp_path):
    root = tmp_path / "oa"
    assert run(None, "init", str(root), "--system", "open-adventure", "--example").code == 0
    return root


@pytest.mark.parametrize("rules, why", [
    (f"chart: {{rows: {PRIMES}}}", "rules.chart.rows.3 must be a whole number from 2 to 20"),
    ("chart: {rows: {1: [], 2: [" + ", ".join(["6"] * 26) + "]}}", "rules.chart.rows.2 must be at most 25 dice"),
    ("explode: {cap: 1000}", "rules.explode.cap must be a whole number from 0 to 10"),
    ("limits: {action_score: 1000000000}", "rules.limits.action_score must be a whole number from 1 to 100"),
    ("limits: {ds: 100000}", "rules.limits.ds must be a whole number from 1 to 1000"),
])
def test_g_priv_6_a_campaign_cannot_raise_the_dice_limits(oa, rules, why):
    config = oa / "narateer.yaml"
    config.write_text(config.read_text() + f"rules:\n  {rules}\n")
    before = snapshot(oa)
    for args in (("check",), ("roll", "warheart", "strength", "--opposed", "orc:strength", "--dry-run")):
        spent = children_cpu()
        r = sh(oa, *args)
        assert children_cpu() - spent < 10  # about 0.3 s of CPU: the limit is checked before any odds
        assert r.code in (1, 2) and why in (r.out + r.err), (args, r.out, r.err)
    assert snapshot(oa) == before


def test_g_priv_6_the_shipped_limits_still_play(oa):
    config = oa / "narateer.yaml"
    config.write_text(config.read_text() + "rules:\n  limits: {action_score: 50, ds: 500}\n  explode: {cap: 10}\n")
    assert run(oa, "odds", "7", "--ds", "9").code == 0
