"""G-PRIV-6: the merge driver refuses a hostile size before it reads or parses anything.

A 9 MB sheet once took 75 s and 643 MB inside `git merge`. A side over the limit (256 KiB;
no sheet or state comes near it) is a conflict at once: exit 1, one stderr line naming the
file and the limit, `ours` left byte for byte as it was.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time

import pytest

from narateer_cli.store.merge import SIZE_LIMIT, run_driver
from tests.conftest import children_cpu, ok
from tests.store.test_git_trust import git, repo

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
SHEET = "name: Selka\naction_dice: {ready: 5, used: 0}\n"


def _junk(size: int) -> str:
    """A key of about `size` bytes that is slow to parse: one long list of small mappings."""
    row = "  - {a: 1, b: [x, y], c: 'z'}\n"
    return "junk:\n" + row * (size // len(row) + 1)


def _hostile(size: int) -> str:
    return SHEET + _junk(size)


def _sides(tmp_path, **texts):
    paths = {}
    for side in ("base", "ours", "theirs"):
        paths[side] = tmp_path / side
        paths[side].write_text(texts.get(side, SHEET))
    return paths


@pytest.mark.parametrize("side", ["base", "ours", "theirs"])
def test_a_side_over_the_limit_is_a_conflict_at_once(tmp_path, capfd, side):
    paths = _sides(tmp_path, **{side: _hostile(3 * SIZE_LIMIT)})
    before = paths["ours"].read_bytes()
    started = time.thread_time()  # CPU time: a busy machine stretches the clock, not this
    code = run_driver(str(paths["base"]), str(paths["ours"]), str(paths["theirs"]), "characters/selka.yaml")
    assert code == 1 and time.thread_time() - started < 5.0  # reads 256 KiB at most: milliseconds
    assert paths["ours"].read_bytes() == before
    err = capfd.readouterr().err
    assert len(err.splitlines()) == 1 and "characters/selka.yaml" in err and f"({side})" in err
    assert "256 KiB" in err and "G-PRIV-6" not in err  # T2-RULES: no rule id in the line a person reads


def test_a_side_at_the_limit_is_still_merged(tmp_path):
    big = SHEET + "notes: " + "x" * (SIZE_LIMIT - len(SHEET) - 8) + "\n"
    assert len(big.encode()) <= SIZE_LIMIT
    paths = _sides(tmp_path, ours=big, theirs=SHEET.replace("ready: 5, used: 0", "ready: 4, used: 1"))
    assert run_driver(str(paths["base"]), str(paths["ours"]), str(paths["theirs"]), "characters/selka.yaml") == 0
    assert "ready: 4" in paths["ours"].read_text() and "xxxx" in paths["ours"].read_text()


def test_the_driver_stays_small_on_a_20_mb_side(tmp_path):
    """The driver as git runs it, in a child whose peak memory is measured alone."""
    paths = _sides(tmp_path, theirs=_hostile(20 * 1024 * 1024))
    probe = ("import resource, subprocess, sys; "
             "done = subprocess.run(sys.argv[1:], capture_output=True); "
             "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    argv = [sys.executable, "-c", probe, sys.executable, "-m", "narateer_cli", "merge-driver",
            str(paths["base"]), str(paths["ours"]), str(paths["theirs"]), "characters/selka.yaml"]
    code, peak_kib = map(int, subprocess.run(argv, capture_output=True, text=True, timeout=60).stdout.split())
    assert code == 1 and peak_kib < 100 * 1024, peak_kib


@needs_git
def test_git_merge_of_a_20_mb_sheet_is_a_quick_conflict(camp):
    """Two branches each change a 20 MB sheet; `git merge` ends at once with the sheet in conflict."""
    repo(camp)
    ok(camp, "git-setup")
    sheet = camp / "characters" / "selka.yaml"
    sheet.write_text(sheet.read_text() + _junk(20 * 1024 * 1024))
    git(camp, "add", "-A")
    git(camp, "commit", "-qm", "a big sheet")
    git(camp, "checkout", "-qb", "other")
    sheet.write_text(sheet.read_text().replace("name: Selka", "name: Selka the Quiet", 1))
    git(camp, "commit", "-qam", "other renames")
    git(camp, "checkout", "-q", "main")
    sheet.write_text(sheet.read_text().replace("stealth: 2", "stealth: 3", 1))
    git(camp, "commit", "-qam", "main trains")
    ours = sheet.read_bytes()
    spent = children_cpu()  # git's and the driver's CPU time: a busy machine stretches the clock, not this
    done = subprocess.run(["git", "merge", "-q", "other"], cwd=camp, capture_output=True, text=True, timeout=120)
    cpu = children_cpu() - spent
    assert done.returncode != 0 and cpu < 15, (cpu, done.stderr)
    assert "characters/selka.yaml" in git(camp, "diff", "--name-only", "--diff-filter=U")
    assert "larger than 256 KiB" in done.stderr + done.stdout
    assert sheet.read_bytes() == ours  # ours as it was: no markers around 40 MB
