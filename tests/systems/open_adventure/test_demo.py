"""`make demo` plays the Open Adventure demo encounter: scripts/demo.sh runs every system's demo.sh, and the encounter
(a Stunt, an opposed check, a Critical Failure with given faces) runs to the end on a scratch campaign."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
DEMO = REPO / "narateer_cli" / "systems" / "open_adventure" / "demo.sh"


def test_the_host_demo_plays_every_system_demo():
    text = (REPO / "scripts" / "demo.sh").read_text()
    assert "narateer_cli/systems/*/demo.sh" in text


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_the_open_adventure_demo_encounter_plays(tmp_path):
    exe = Path(sys.executable).with_name("narateer")
    if not exe.exists():
        pytest.skip("the narateer script is not installed beside this python")
    done = subprocess.run(["bash", str(DEMO)], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "NARATEER": str(exe)}, timeout=300)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Stunt: body points -1: 12 -> 11" in out  # the Stunt
    assert "opposed by orc" in out and "Success: Effect 0" in out  # W-22's tie goes to the actor
    assert "Critical Failure" in out and "the spear snaps" in out
    assert out.count("no problems") == 2
