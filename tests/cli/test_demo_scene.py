"""`make demo` plays Narateer's scene first (scripts/demo.sh, up to the loop over the other games' demos): every
command of it runs to the end under `set -e`, so a check the rules now refuse (a hopeless roll asks first) would
stop the demo at the first command of a fresh clone."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MARK = "# Every other rule system plays"


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_the_narateer_demo_scene_plays_to_the_end(tmp_path):
    exe = Path(sys.executable).with_name("narateer")
    if not exe.exists():
        pytest.skip("the narateer script is not installed beside this python")
    text = (REPO / "scripts" / "demo.sh").read_text()
    scene = tmp_path / "scene.sh"
    scene.write_text(text[:text.index(MARK)])
    done = subprocess.run(["bash", str(scene)], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "NARATEER": str(exe)}, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    assert "no chance to succeed" not in done.stdout + done.stderr
    assert done.stdout.count("no problems") >= 4  # each verify the scene runs
    assert "report" in text[:text.index(MARK)] and "Hit Margin" in done.stdout
