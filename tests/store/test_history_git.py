"""A history that never lies across clones (H-2, G-MERGE-2, G-MERGE-5): players sharing a
campaign through one bare repository, with real `git clone`, `pull` and `push`."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from tests.conftest import ok, run, sheet_dice
from tests.store.test_git_trust import git, repo

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def players(camp, tmp_path, *names):
    """The campaign pushed to a bare repository, and one set-up clone per player."""
    repo(camp)
    bare = tmp_path / "shared.git"
    git(tmp_path, "clone", "-q", "--bare", str(camp), str(bare))
    out = []
    for name in names:
        clone = tmp_path / name
        git(tmp_path, "clone", "-q", str(bare), str(clone))
        ok(clone, "git-setup")
        out.append(clone)
    return out


def save(clone, message):
    git(clone, "add", "-A")
    git(clone, "commit", "-qm", message)


def pull(clone):
    git(clone, "pull", "-q", "--no-rebase", "origin", "main")


def clean(clone, enc):
    for args in (("verify", enc), ("check",)):
        r = run(clone, *args)
        assert r.code == 0, (args, r.out + r.err)


def play(clone, where, cid, count):
    """One spend of `count` dice by `cid`: a roll in the campaign log, or a wound in encounter `where`."""
    if where == "campaign":
        ok(clone, "roll", "--force", cid, "athletics", "--dr", "2", "--faces", ",".join(["1"] * count))
    else:
        ok(clone, "wound", cid, str(count))


def parallel_play(camp, tmp_path, where):
    """p1 plays selka, p2 plays mira, each commits; p1 pushes and p2 pulls (a clean union merge of the log)."""
    p1, p2 = players(camp, tmp_path, "p1", "p2")
    if where != "campaign":
        ok(p1, "encounter", "new", where, "selka", "mira")
        save(p1, where)
        git(p1, "push", "-q", "origin", "main")
        pull(p2)
    play(p1, where, "selka", 1)
    save(p1, "p1 plays selka")
    git(p1, "push", "-q", "origin", "main")
    play(p2, where, "mira", 1)
    save(p2, "p2 plays mira")
    pull(p2)
    return p1, p2


@pytest.mark.parametrize("where", ["campaign", "duel"])
def test_a_clean_pull_between_two_players_verifies(camp, tmp_path, where):
    """H-2: each player's first entry for a character is on one branch only; the merge entry's base for it
    is its value before that branch's first entry, not 0. In the campaign log (rolls outside an encounter)
    and in a new encounter both players play at once (wounds)."""
    p1, p2 = parallel_play(camp, tmp_path, where)
    clean(p2, where)
    play(p2, where, "mira", 1)
    clean(p2, where)
    merge = run(p2, "--json", "encounter", "log", where).json["entries"][-2]
    assert merge["command"] == "merge" and sum(merge["dice"]["mira"]["before"].values()) == 6
    save(p2, "p2 plays mira again")
    git(p2, "push", "-q", "origin", "main")
    pull(p1)
    clean(p1, where)
    play(p1, where, "selka", 1)
    clean(p1, where)


def test_a_merge_entry_from_before_h2_still_verifies_and_a_false_base_is_caught(camp, tmp_path):
    """A merge entry narateer wrote before H-2 holds {} as the base of a character its parent's branch
    never touched (its sums hold): it verifies. Any other false base is a problem."""
    import json

    p1, p2 = parallel_play(camp, tmp_path, "duel")
    play(p2, "duel", "mira", 1)
    log = p2 / "encounters" / "duel.log.yaml"
    lines = log.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if '"command": "merge"' in line)
    merge = json.loads(lines[at][2:])
    assert merge["dice"]["mira"]["before"] == {"ready": 6, "used": 0}
    for before, code in (({}, 0), ({"ready": 5, "used": 1}, 1)):
        merge["dice"]["mira"]["before"] = before
        lines[at] = "- " + json.dumps(merge)
        log.write_text("\n".join(lines) + "\n")
        r = run(p2, "verify", "duel")
        assert r.code == code, r.out + r.err
    assert "mira's dice before the merge" in r.out + r.err


def test_the_same_character_created_on_two_clones_is_a_conflict(camp, tmp_path):
    """H-2: add/add of a sheet with no base never adds the dice up (ready 8 from two sheets of 4)."""
    p1, p2 = players(camp, tmp_path, "p1", "p2")
    ok(p1, "new", "zed", "--name", "Zed", "--dice", "4")
    save(p1, "p1 makes zed")
    git(p1, "push", "-q", "origin", "main")
    ok(p2, "new", "zed", "--name", "Zed the Second", "--dice", "4")
    save(p2, "p2 makes zed")
    who = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org"}
    pulled = subprocess.run(["git", "pull", "-q", "--no-rebase", "origin", "main"], cwd=p2, capture_output=True,
                            text=True, env={**os.environ, **who})
    assert pulled.returncode != 0 and "characters/zed.yaml" in pulled.stdout + pulled.stderr
    assert "created on both sides" in pulled.stderr
    assert "<<<<<<< ours" in (p2 / "characters" / "zed.yaml").read_text()
    assert "characters/zed.yaml" in git(p2, "ls-files", "-u")
    r = run(p2, "wound", "zed")
    assert r.code == 3 and "finish the merge first" in r.err


def test_the_same_character_created_identically_on_two_clones_merges(camp, tmp_path):
    p1, p2 = players(camp, tmp_path, "p1", "p2")
    for clone in (p1, p2):
        ok(clone, "new", "zed", "--name", "Zed", "--dice", "4")
        save(clone, "zed")
    git(p1, "push", "-q", "origin", "main")
    pull(p2)
    assert sheet_dice(p2, "zed") == {"ready": 4, "used": 0}
    assert run(p2, "check").code == 0
