"""H-2, H-3, G-MERGE-2: a fork pushed as git left it (a plain `git pull && git push`, no narateer command in
between) is reconciled later, by other clones, maybe by several at once and maybe inside a larger fork; the
counters stay exact and verify and check stay clean. Real `git clone`, `pull` and `push` through one bare
repository."""

from __future__ import annotations

import shutil

import pytest

from tests.conftest import ok, run
from tests.store.test_git_trust import git
from tests.store.test_history_git import players, save

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def pull(clone):
    git(clone, "pull", "-q", "--no-rebase", "origin", "main")


def push(clone):
    git(clone, "push", "-q", "origin", "main")


def wound(clone, cid, message):
    ok(clone, "wound", cid, "1")
    save(clone, message)


def reconcile(clone):
    ok(clone, "reconcile")
    git(clone, "add", "-A")
    if git(clone, "status", "--porcelain").strip():
        git(clone, "commit", "-qm", "reconcile")


def exact(clones, start, wounds):
    """Every clone holds the same files, verifies and checks clean, and each sheet's wounds are its start
    plus every logged change."""
    from tests.stress.test_sync import counters, files, logged_deltas
    from narateer_cli.systems import load_system

    system = load_system("narateer")
    first = files(clones[0])
    for clone in clones:
        assert files(clone) == first, clone.name
        for args in (("verify", "campaign"), ("check",)):
            r = run(clone, *args)
            assert r.code == 0, (clone.name, args, r.out + r.err)
    now, deltas = counters(clones[0], system), logged_deltas(clones[0])
    assert {k: v for k, v in now.items() if start.get(k, 0) + deltas.get(k, 0) != v} == {}
    for cid, count in wounds.items():
        assert now[(cid, "action_dice.wounded")] - start.get((cid, "action_dice.wounded"), 0) == count


def test_two_clones_reconcile_one_pushed_fork_each_inside_another(camp, tmp_path):
    from tests.stress.test_sync import counters
    from narateer_cli.systems import load_system

    p1, p2, p3, p4 = players(camp, tmp_path, "p1", "p2", "p3", "p4")
    start = counters(p1, load_system("narateer"))
    wound(p1, "selka", "p1")
    push(p1)
    wound(p2, "mira", "p2")
    pull(p2)  # a fork of the campaign log, pushed as git left it
    push(p2)
    wound(p3, "kai", "p3")
    pull(p3)  # three tips
    reconcile(p3)
    pull(p4)  # the two-tip fork, reconciled on its own
    reconcile(p4)
    push(p4)
    pull(p3)  # p3's merge of three tips meets p4's merge of two of them
    reconcile(p3)
    push(p3)
    for clone in (p1, p2, p4):
        pull(clone)
    exact([p1, p2, p3, p4], start, {"selka": 1, "mira": 1, "kai": 1})


def test_two_clones_that_set_the_same_sheet_after_a_pushed_fork_are_set_right_once_more(camp, tmp_path):
    """Both players wound selka from the same sheet: identical bytes, so git never runs the driver and the
    merged sheet holds one wound; pushed as it is. p3 and p4 each reconcile it (the sheet gets its second wound
    on both), and p3 wounds selka again: git's driver adds both corrections. Each correction's merge entry is
    its own, so the log still forks where they meet and the next writer sets the sheet to what the log adds
    up to (H-2)."""
    from tests.stress.test_sync import counters
    from narateer_cli.systems import load_system

    p1, p2, p3, p4 = players(camp, tmp_path, "p1", "p2", "p3", "p4")
    start = counters(p1, load_system("narateer"))
    wound(p1, "selka", "p1")
    push(p1)
    wound(p2, "selka", "p2")
    pull(p2)
    push(p2)
    for clone in (p3, p4):
        pull(clone)
        r = run(clone, "check")
        assert r.code == 1 and "run `narateer reconcile`" in r.out, r.out + r.err
        reconcile(clone)
    wound(p3, "selka", "p3")
    push(p4)
    pull(p3)
    reconcile(p3)
    push(p3)
    for clone in (p1, p2, p4):
        pull(clone)
    exact([p1, p2, p3, p4], start, {"selka": 3})


def test_a_fork_pushed_unreconciled_that_spent_a_die_twice_is_refused_everywhere(camp, tmp_path):
    """G-MERGE-1: both players spend selka's last ready die from the same sheet: the same bytes, so git never
    runs the driver, which would have conflicted, and a plain `git pull && git push` shares the merge. No sheet
    is right: verify, check and every writer say so (exit 1, exit 3), none writes a thing, nothing is lost in
    silence."""
    p1, p2, p3 = players(camp, tmp_path, "p1", "p2", "p3")
    for clone in (p1, p2):
        ok(clone, "wound", "selka", "5")
        save(clone, clone.name)
    push(p1)
    pull(p2)
    push(p2)
    pull(p3)
    from tests.conftest import snapshot

    before = snapshot(p3)
    for args, code in ((("verify", "campaign"), 1), (("check",), 1), (("reconcile",), 3), (("wound", "mira", "1"), 3)):
        r = run(p3, *args)
        assert r.code == code and "both spent selka's ready" in r.out + r.err, (args, r.out + r.err)
        assert "take the merge back" in r.out + r.err
    assert snapshot(p3) == before
