"""Magic Dice and a trait's uses are counters: two real git clones that each cast and use a trait merge to the
start plus both clones' spends, with no conflict, and `verify` and `check` are clean after (R2-SPELL-7).

The example's wren starts with 5 Ready AD and 3 Ready Magic Dice (`spark`: 1 MD, no check; `veil`: 1 AD + 1 MD,
an Arcana check at DR 3); bandit's `iron-wall` has 2 uses of 2 and modifies its Full Guard.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from tests.conftest import git_config, ok, run

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


def sheet(root: Path, cid: str) -> dict:
    return YAML(typ="safe").load((root / "characters" / f"{cid}.yaml").read_text())


@pytest.fixture
def clones(tmp_path, monkeypatch):
    git_config(tmp_path, monkeypatch)
    origin = tmp_path / "origin"
    assert run(None, "init", str(origin), "--example").code == 0
    git(origin, "init", "-q", "-b", "main")
    git(origin, "add", "-A")
    git(origin, "commit", "-qm", "campaign")
    out = []
    for side in ("left", "right"):
        clone = tmp_path / side
        git(tmp_path, "clone", "-q", str(origin), str(clone))
        ok(clone, "git-setup")
        out.append(clone)
    return out


def guard_with_trait(root: Path):
    """mira attacks bandit, whose Full Guard takes iron-wall: one of its uses."""
    data = ok(root, "exchange", "mira", "bandit", "--response", "guard", "--trait", "iron-wall", "--faces", "2",
              "--response-faces", "1,1", "--force")
    assert (data["trait"]["name"], data["trait"]["spent"], data["trait"]["reaction"]) == ("iron-wall", 1, False)


def test_r2_spell_7_two_clones_casts_and_trait_uses_add_up_in_the_merge(clones):
    left, right = clones
    start_magic = sheet(left, "wren")["magic_dice"]
    start_uses = sheet(left, "bandit")["traits"]["iron-wall"]["uses"]
    assert start_magic == {"ready": 3, "used": 0} and start_uses == {"left": 2, "max": 2}

    ok(left, "cast", "wren", "spark")  # 1 MD
    guard_with_trait(left)
    ok(right, "cast", "wren", "veil", "--faces", "2,1")  # 1 AD + 1 MD
    guard_with_trait(right)
    ok(right, "wound", "bandit", "1")  # the clones' bandit sheets differ, so git hands them to the driver
    for clone, what in ((left, "left"), (right, "right")):
        assert sheet(clone, "wren")["magic_dice"] == {"ready": 2, "used": 1}
        assert sheet(clone, "bandit")["traits"]["iron-wall"]["uses"]["left"] == 1
        git(clone, "add", "-A")
        git(clone, "commit", "-qm", what)

    git(left, "pull", "-q", "--no-rebase", str(right), "main")
    texts = [p.read_text() for p in left.rglob("*.yaml") if ".git" not in p.parts]
    assert not any("<<<<<<<" in text for text in texts)
    # each clone paid 1 Magic Die and spent 1 use: the merge keeps both
    assert sheet(left, "wren")["magic_dice"] == {"ready": 1, "used": 2}
    assert sheet(left, "bandit")["traits"]["iron-wall"]["uses"] == {"left": 0, "max": 2}

    assert run(left, "reconcile").code == 0  # the first writer after a merge joins the log's branches
    assert sheet(left, "wren")["magic_dice"] == {"ready": 1, "used": 2}
    assert sheet(left, "wren")["action_dice"] == {"ready": 4, "used": 1}  # veil's 1 AD, once
    assert sheet(left, "bandit")["traits"]["iron-wall"]["uses"]["left"] == 0
    assert sheet(left, "bandit")["action_dice"] == {"ready": 2, "used": 2, "wounded": 1}
    for verb in ("verify", "check"):
        r = run(left, verb)
        assert r.code == 0, (verb, r.out, r.err)


def test_r2_spell_7_a_third_cast_on_the_merged_sheet_is_refused_past_the_magic_dice_both_clones_left(clones):
    left, right = clones
    ok(left, "cast", "wren", "spark")
    ok(left, "cast", "wren", "spark")
    ok(right, "cast", "wren", "spark")
    for clone, what in ((left, "left"), (right, "right")):
        git(clone, "add", "-A")
        git(clone, "commit", "-qm", what)
    git(left, "pull", "-q", "--no-rebase", str(right), "main")
    assert sheet(left, "wren")["magic_dice"] == {"ready": 0, "used": 3}
    assert run(left, "reconcile").code == 0
    r = run(left, "cast", "wren", "spark")
    assert r.code == 3 and "cannot pay 1 Magic Dice" in r.err, r.err
    assert run(left, "verify").code == 0


@pytest.mark.xfail(strict=True, reason="two clones that write byte-identical sheets leave git nothing to merge: "
                   "the log restores Action Dice, but Magic Dice and trait uses are not in its dice field yet")
def test_r2_spell_7_the_same_cast_on_both_clones_still_counts_twice(clones):
    left, right = clones
    for clone, what in ((left, "left"), (right, "right")):
        ok(clone, "cast", "wren", "spark")
        git(clone, "add", "-A")
        git(clone, "commit", "-qm", what)
    git(left, "pull", "-q", "--no-rebase", str(right), "main")
    run(left, "reconcile")
    assert sheet(left, "wren")["magic_dice"] == {"ready": 1, "used": 2}
