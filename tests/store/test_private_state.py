"""Private state out of git's reach (G-PRIV-1..5), each defect tried the way it was
found: a real `git clone` of a repository with planted records and symlinks, a writer frozen with
SIGSTOP while it holds the lock, the crash hook at the commit point."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from narateer_cli.store import private, txn
from tests.conftest import ok, run, sh, sheet_dice, snapshot
from tests.store.test_git_trust import git, needs_git, repo

CRASH = {"NARATEER_CRASH_AFTER_MANIFEST": "1"}
EVIL_CONFIG = "[core]\n\tfsmonitor = touch /tmp/narateer-pwned-fsmonitor\n"


def clone_of(origin, tmp_path, name="clone"):
    target = tmp_path / name
    git(tmp_path, "clone", "-q", str(origin), str(target))
    return target


def plant(camp, rel, text):
    path = camp / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    git(camp, "add", "-f", rel)
    git(camp, "commit", "-qm", "a gift")


# ---- G-PRIV-1: where the private folder lives ----------------------------------------------------

def test_outside_git_the_private_folder_stays_at_the_campaign_root(encounter_camp):
    ok(encounter_camp, "wound", "selka")
    assert private.location(encounter_camp) == encounter_camp / ".narateer"
    assert list((encounter_camp / ".narateer" / "undo" / "ambush").glob("*.json"))


@needs_git
def test_in_a_work_tree_it_lives_in_the_git_directory(encounter_camp):
    repo(encounter_camp)
    ok(encounter_camp, "wound", "selka")
    assert not (encounter_camp / ".narateer").exists()
    assert list((encounter_camp / ".git" / "narateer" / "undo" / "ambush").glob("*.json"))
    assert "narateer" not in git(encounter_camp, "status", "--porcelain", "--ignored")


@needs_git
def test_a_campaign_in_a_sub_folder_gets_its_own_folder(tmp_path):
    top = tmp_path / "repo"
    top.mkdir()
    git(top, "init", "-q")
    for name in ("a", "b/c"):
        assert run(None, "init", str(top / name), "--example").code == 0
        ok(top / name, "encounter", "new", "e1", "selka")
    base = top / ".git" / "narateer" / "campaigns"
    assert sorted(p.name for p in base.iterdir()) == ["a", "b%2Fc"]
    assert (base / "b%2Fc" / "undo" / "e1").is_dir()
    assert not (top / "a" / ".narateer").exists() and not (top / "b" / "c" / ".narateer").exists()


@needs_git
def test_a_linked_worktree_uses_its_own_git_directory(encounter_camp, tmp_path):
    repo(encounter_camp)
    other = tmp_path / "wt"
    git(encounter_camp, "worktree", "add", "-q", str(other))
    ok(other, "wound", "selka")
    assert (encounter_camp / ".git" / "worktrees" / "wt" / "narateer" / "undo" / "ambush").is_dir()
    assert not (other / ".narateer").exists()
    assert run(other, "undo").code == 0 and "wounded" not in (other / "characters" / "selka.yaml").read_text()


# ---- a clone carries nothing that writes: undo records, symlinks, manifests (G-PRIV-1, G-PRIV-2) --

@needs_git
def test_a_committed_undo_record_never_writes_git_config_in_a_clone(encounter_camp, tmp_path):
    repo(encounter_camp)
    record = {"seq": 99, "id": None, "parent": None, "before": {".git/config": EVIL_CONFIG}, "after": {}}
    plant(encounter_camp, ".narateer/undo/ambush/00000099.json", json.dumps(record))
    clone = clone_of(encounter_camp, tmp_path)
    config = (clone / ".git" / "config").read_text()
    r = run(clone, "undo")
    assert r.code == 3 and "nothing to undo in encounter ambush" in r.err, r.err
    assert (clone / ".git" / "config").read_text() == config
    # the same record in this machine's own private folder, unsealed: ignored
    own = clone / ".git" / "narateer" / "undo" / "ambush" / "00000099.json"
    own.parent.mkdir(parents=True)
    own.write_text(json.dumps(record))
    r = run(clone, "undo")
    assert r.code == 3 and "not made on this machine" in r.err and r.err.count("\n") == 1
    # sealed here, but naming a file that is not campaign data: refused by full match of the allow-list
    own.write_text(private.sealed(clone, "undo", "ambush/00000099", {**record, "id": "x"}))
    r = run(clone, "undo")
    assert r.code == 3 and "other than the campaign's data files" in r.err
    assert (clone / ".git" / "config").read_text() == config
    problems = run(clone, "--json", "check").json["problems"]
    assert any(p.startswith(".narateer/:1: ") and "never read" in p for p in problems)


@needs_git
def test_a_committed_symlinked_cache_folder_never_leads_outside(encounter_camp, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    repo(encounter_camp)
    (encounter_camp / ".narateer").mkdir(exist_ok=True)
    (encounter_camp / ".narateer" / "sheets").symlink_to(outside)
    git(encounter_camp, "add", "-f", ".narateer/sheets")
    git(encounter_camp, "commit", "-qm", "a link")
    clone = clone_of(encounter_camp, tmp_path)
    assert (clone / ".narateer" / "sheets").is_symlink()
    assert run(clone, "show", "selka").code == 0 and run(clone, "wound", "selka").code == 0
    assert list(outside.iterdir()) == []


def test_a_symlinked_cache_folder_outside_git_is_bad_input(encounter_camp, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.rmtree(encounter_camp / ".narateer", ignore_errors=True)
    (encounter_camp / ".narateer").mkdir()
    (encounter_camp / ".narateer" / "sheets").symlink_to(outside)
    before = snapshot(encounter_camp)
    r = run(encounter_camp, "show", "selka")
    assert r.code == 2 and "symlink" in r.err and r.err.count("\n") == 1
    r = run(encounter_camp, "wound", "selka")
    assert r.code == 2 and list(outside.iterdir()) == [] and snapshot(encounter_camp) == before


def test_a_copied_cache_is_not_used(encounter_camp, tmp_path):
    """A cache from another campaign (a copied folder) fails its seal: it is parsed again, with one line."""
    ok(encounter_camp, "show", "selka")
    other = tmp_path / "other"
    shutil.copytree(encounter_camp, other, symlinks=True)
    cached = other / ".narateer" / "sheets" / "selka.json"
    data = json.loads(cached.read_text())
    data["data"]["sheet"] = "forged"
    cached.write_text(json.dumps(data))
    r = run(other, "show", "selka")
    assert r.code == 0 and "Selka" in r.out and "forged" not in r.out and r.err == ""
    assert json.loads(cached.read_text())["data"].get("sheet") != "forged"  # rebuilt, sealed again


def test_a_set_aside_record_is_printed_escaped(encounter_camp):
    (encounter_camp / ".narateer").mkdir(exist_ok=True)
    evil = {"version": 2, "writes": {"characters/\x1b]0;pwned\x07.yaml": "x"}, "appends": {}, "mac": "0" * 64}
    (encounter_camp / ".narateer" / "txn.json").write_text(json.dumps(evil))
    r = run(encounter_camp, "show", "selka")
    assert r.code == 0 and "set aside" in r.err
    assert "\x1b" not in r.err and "\x07" not in r.err and "\\x1b]0;pwned\\x07" in r.err


# ---- G-PRIV-3: the lock cannot be moved from under a writer ----------------------------------------

FREEZE = """
import os, signal, sys
from pathlib import Path
from narateer_cli.store.txn import Lock
with Lock(Path(sys.argv[1])):
    os.kill(os.getpid(), signal.SIGSTOP)
"""


def _stopped(pid) -> bool:
    with open(f"/proc/{pid}/stat") as fh:
        return fh.read().rsplit(")", 1)[1].split()[0] == "T"


def _freeze(root):
    child = subprocess.Popen([sys.executable, "-c", FREEZE, str(root)])
    deadline = time.monotonic() + 60
    while not _stopped(child.pid):
        assert child.poll() is None and time.monotonic() < deadline, "the writer never took the lock"
        time.sleep(0.02)
    return child


@pytest.mark.parametrize("in_git", [False, True], ids=["plain", "git"])
def test_moving_or_emptying_the_private_folder_admits_no_second_writer(encounter_camp, tmp_path, in_git):
    if in_git:
        if shutil.which("git") is None:
            pytest.skip("git is not installed")
        repo(encounter_camp)
    ok(encounter_camp, "show", "selka")  # the private folder exists, with caches in it
    folder = private.location(encounter_camp)
    child = _freeze(encounter_camp)
    try:
        shutil.move(folder, tmp_path / "moved-away")
        shutil.rmtree(tmp_path / "moved-away")
        folder.mkdir()
        private.forget()
        with pytest.raises(txn.Busy):
            txn.Lock(encounter_camp, wait=False).__enter__()
        writer = subprocess.Popen([sys.executable, "-m", "narateer_cli", "--campaign", str(encounter_camp),
                                   "wound", "selka"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        with pytest.raises(subprocess.TimeoutExpired):
            writer.wait(timeout=1.0)
        assert sheet_dice(encounter_camp, "selka").get("wounded", 0) == 0
    finally:
        child.send_signal(signal.SIGCONT)
        child.wait(timeout=60)
    assert writer.wait(timeout=60) == 0
    assert sheet_dice(encounter_camp, "selka")["wounded"] == 1
    with txn.Lock(encounter_camp, wait=False):
        pass


# ---- G-PRIV-4: settings read after the lock and the replay -----------------------------------------

def test_after_a_crash_the_next_command_plays_in_the_encounter_the_replay_made(camp):
    assert sh(camp, "encounter", "new", "e5", "selka", "mira", env=CRASH).code == 99
    assert "e5" not in (camp / "narateer.yaml").read_text()  # the manifest holds it; nothing applied yet
    ok(camp, "wound", "selka")
    e5 = [json.loads(line[2:]) for line in (camp / "encounters" / "e5.log.yaml").read_text().splitlines()]
    assert [e["command"] for e in e5] == ["encounter new", "wound"]
    assert not (camp / "encounters" / "campaign.log.yaml").exists() or "wound" not in (
        camp / "encounters" / "campaign.log.yaml").read_text()
    assert ok(camp, "verify")["ok"] is True and ok(camp, "check")["ok"] is True


def test_two_crashes_in_a_row_leave_nothing_for_check(camp):
    assert sh(camp, "encounter", "new", "e5", "selka", "mira", env=CRASH).code == 99
    assert sh(camp, "wound", "selka", env=CRASH).code == 99
    assert run(camp, "show", "selka").code == 0  # completes the second action
    assert sheet_dice(camp, "selka")["wounded"] == 1
    assert ok(camp, "check")["ok"] is True
    assert ok(camp, "verify", "e5")["ok"] is True


# ---- git-setup moves this machine's own records out of a .narateer/ in a work tree ------------------

@needs_git
def test_git_setup_moves_this_machines_records_and_leaves_the_rest(encounter_camp):
    ok(encounter_camp, "wound", "selka")  # outside git: a sealed undo record in .narateer/
    ok(encounter_camp, "roll", "--force", "selka", "stealth", "--dr", "3", "--faces", "2", "--secret", "--reaction")
    secret_id = [json.loads(line[2:]) for line in
                 (encounter_camp / "encounters" / "ambush.log.yaml").read_text().splitlines()][-1]["id"]
    stray = encounter_camp / ".narateer" / "undo" / "ambush" / "00009999.json"
    stray.write_text(json.dumps({"seq": 9999, "id": None, "before": {}, "after": {}}))
    repo(encounter_camp, keep_private=True)
    private.forget()
    r = run(encounter_camp, "unveil", secret_id)
    # not read from .narateer/ any more
    assert r.code == 3 and "its private record is lost on this machine" in r.err, r.err
    data = ok(encounter_camp, "git-setup")
    assert data["private"] == {"moved": 3, "left": 1}
    assert stray.exists()
    assert ok(encounter_camp, "unveil", secret_id)
    assert ok(encounter_camp, "verify")["ok"] is True
