"""`make demo` plays the d20-cards fight: an Overkill hit, a Concentration drop, a cooldown that ends and a
Swan Song, on a scratch campaign, leaving the checkout clean."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

DEMO = REPO / "narateer_cli" / "systems" / "d20_cards" / "demo.sh"


def test_the_repository_demo_plays_the_d20_fight():
    # scripts/demo.sh plays every system's own demo.sh after the Narateer encounter
    assert "narateer_cli/systems/*/demo.sh" in (REPO / "scripts" / "demo.sh").read_text() and DEMO.is_file()


def test_d20_demo_shows_overkill_concentration_drop_cooldown_end_and_swan_song(tmp_path):
    exe = Path(sys.executable).parent / "narateer"
    env = {**os.environ, "NARATEER": str(exe), "TMPDIR": str(tmp_path)}
    r = subprocess.run(["bash", str(DEMO)], capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = re.sub(r"\x1b\[[0-9;]*m", "", r.stdout)
    assert "12 + Overkill 2 = 14 damage; HP 20 -> 6" in out  # R-CARD-ATK-6: (15 - 14) x 2
    assert "Concentration on ward: d20 3 +5 = 8 vs 10, dropped" in out  # R-CARD-PROP-4
    assert "cooldown of ward ended" in out  # R-CARD-CD-2, R-CARD-CD-3
    assert "12 damage, doubled by Swan Song to 24; HP 0 -> -24" in out  # R-CARD-PROP-9
    assert out.count("entries verified, no problems") == 2
    assert "NO  prepared       tor has not prepared stun-word" in out  # R2-TIER-2
    assert list(tmp_path.iterdir()) == []  # the scratch campaign is removed
