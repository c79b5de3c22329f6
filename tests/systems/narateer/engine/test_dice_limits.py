"""G-PRIV-6 for Narateer: narateer.yaml arrives by git, and `odds N` convolves every die, so a campaign may
lower `limits.dice_per_roll` but not raise it past 1,000, nor give a die more than 100 faces."""

from __future__ import annotations

import pytest

from tests.conftest import children_cpu, run, sh, snapshot


@pytest.mark.parametrize("rules, key", [
    ("limits: {dice_per_roll: 10000, dice_per_state: 1000000}", "rules.limits.dice_per_roll"),
    ("faces: [" + ", ".join(["2"] * 101) + "]", "rules.faces"),
])
def test_g_priv_6_a_campaign_cannot_raise_the_dice_limits(tmp_path, rules, key):
    root = tmp_path / "c"
    assert run(None, "init", str(root), "--example").code == 0
    config = root / "narateer.yaml"
    config.write_text(config.read_text() + f"rules:\n  {rules}\n")
    before = snapshot(root)
    spent = children_cpu()
    r = sh(root, "odds", "5000", "--dr", "50")
    assert children_cpu() - spent < 10  # refused before the convolution (a fraction of a second of CPU)
    assert r.code == 2 and key in r.err and len(r.err.strip().splitlines()) == 1, r.err
    assert snapshot(root) == before
    assert any(key in p for p in run(root, "--json", "check").json["problems"])
