"""Nothing from git is trusted (G-TRUST-1..5), each defect reproduced the way it
was found: a real git clone and stash, a committed manifest, a FIFO, a deleted lock, a
read-only file and a full disk (`ulimit -f` in a child shell)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from narateer_cli.store import txn
from tests.conftest import ok, run, sh, sheet_dice, snapshot

LOG = "encounters/ambush.log.yaml"
GIT = shutil.which("git")
needs_git = pytest.mark.skipif(GIT is None, reason="git is not installed")
ROOT_USER = hasattr(os, "geteuid") and os.geteuid() == 0


def git(cwd, *args):
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env)
    assert done.returncode == 0, (args, done.stderr)
    return done.stdout


def repo(camp, keep_private=False):
    """The campaign as a git repository. Its `.narateer/` (made while it was played outside git) goes, unless
    `keep_private`: in a work tree the private folder lives in the git directory (G-PRIV-1)."""
    if not keep_private:
        shutil.rmtree(camp / ".narateer", ignore_errors=True)
    git(camp, "init", "-q", "-b", "main")
    git(camp, "add", "-A")
    git(camp, "commit", "-qm", "campaign")
    return camp


@needs_git
def test_a_committed_manifest_in_a_clone_is_never_read(encounter_camp, tmp_path):
    """The manifest wants to write .git/config (git would run its fsmonitor) and a sheet. In a work tree the
    private folder lives in the git directory (G-PRIV-1): a committed `.narateer/` is never read, only reported."""
    repo(encounter_camp)
    evil = {"version": 2, "writes": {".git/config": "[core]\n\tfsmonitor = touch /tmp/narateer-pwned\n",
                                     "characters/selka.yaml": "name: pwned\n"},
            "appends": {LOG: [0, "x", "- {}\n"]}, "campaign": "/elsewhere", "private": 1, "mac": "0" * 64}
    (encounter_camp / ".narateer").mkdir(exist_ok=True)
    (encounter_camp / ".narateer" / "txn.json").write_text(json.dumps(evil))
    git(encounter_camp, "add", "-f", ".narateer/txn.json")
    git(encounter_camp, "commit", "-qm", "a gift")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(encounter_camp), str(clone))
    config_before = (clone / ".git" / "config").read_text()
    r = run(clone, "show", "selka")
    assert r.code == 0 and r.err == ""
    assert (clone / ".git" / "config").read_text() == config_before
    assert "pwned" not in (clone / "characters" / "selka.yaml").read_text()
    assert (clone / ".narateer" / "txn.json").read_text() == json.dumps(evil)  # never touched
    # check names the private folder in the work tree and the tracked private file (G-PRIV-1, G-TRUST-1)
    problems = run(clone, "--json", "check").json["problems"]
    assert any(p.startswith(".narateer/txn.json:1: ") and "tracked" in p for p in problems)
    assert any(p.startswith(".narateer/:1: ") and "never read" in p for p in problems)


def test_a_manifest_planted_outside_git_is_set_aside_never_replayed(encounter_camp):
    evil = {"version": 2, "writes": {"characters/selka.yaml": "name: pwned\n"},
            "appends": {LOG: [0, "x", "- {}\n"]}, "campaign": "/elsewhere", "private": 1, "mac": "0" * 64}
    (encounter_camp / ".narateer").mkdir(exist_ok=True)
    (encounter_camp / ".narateer" / "txn.json").write_text(json.dumps(evil))
    r = run(encounter_camp, "show", "selka")
    assert r.code == 0
    assert r.err.startswith("narateer: set aside an unfinished action") and r.err.count("\n") == 1
    assert "characters/selka.yaml" in r.err
    assert "pwned" not in (encounter_camp / "characters" / "selka.yaml").read_text()
    assert not (encounter_camp / ".narateer" / "txn.json").exists()
    assert any(p.name.startswith("txn-set-aside-") for p in (encounter_camp / ".narateer").iterdir())


def test_a_manifest_from_another_campaign_on_this_machine_is_set_aside(encounter_camp, tmp_path):
    other = tmp_path / "other"
    shutil.copytree(encounter_camp, other)
    r = sh(encounter_camp, "wound", "selka", env={"NARATEER_CRASH_AFTER_MANIFEST": "1"})
    assert r.code == 99
    shutil.copy(encounter_camp / ".narateer" / "txn.json", other / ".narateer" / "txn.json")
    before = snapshot(other)
    r = run(other, "show", "selka")
    assert r.code == 0 and "another campaign" in r.err
    assert snapshot(other) == before
    # in its own campaign it is completed
    assert run(encounter_camp, "show", "selka").err == ""
    assert sheet_dice(encounter_camp, "selka")["wounded"] == 1


def test_a_manifest_naming_a_symlinked_folder_is_set_aside(encounter_camp, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    assert sh(encounter_camp, "wound", "selka", env={"NARATEER_CRASH_AFTER_MANIFEST": "1"}).code == 99
    shutil.move(encounter_camp / "characters", tmp_path / "chars")
    (encounter_camp / "characters").symlink_to(tmp_path / "chars")
    r = run(encounter_camp, "verify")
    assert r.code == 2 and "characters/ is a symlink leading outside" in r.err


@needs_git
def test_recovery_after_git_stash_never_pads_the_log(encounter_camp):
    """A crash, then `git stash` makes the log shorter: replay used to extend it with NUL bytes."""
    ok(encounter_camp, "refresh", "selka")
    repo(encounter_camp)
    ok(encounter_camp, "wound", "sentry")  # uncommitted: the stash takes it away
    assert sh(encounter_camp, "wound", "selka", env={"NARATEER_CRASH_AFTER_MANIFEST": "1"}).code == 99
    git(encounter_camp, "stash", "-q")
    committed = snapshot(encounter_camp)
    r = run(encounter_camp, "show", "selka")
    assert r.code == 0 and "set aside" in r.err and "changed since" in r.err
    assert snapshot(encounter_camp) == committed
    assert b"\0" not in (encounter_camp / LOG).read_bytes()
    assert ok(encounter_camp, "verify")["ok"] is True


def _queued_on_the_lock(pid: int, folder) -> bool:
    """Process `pid` waits for the flock on `folder`: the kernel lists it in /proc/locks, marked `->`."""
    inode = f":{os.stat(folder).st_ino}"
    with open("/proc/locks") as fh:
        return any(f[1] == "->" and f[5] == str(pid) and f[6].endswith(inode)
                   for f in (line.split() for line in fh) if len(f) > 6)


@pytest.mark.skipif(not os.path.exists("/proc/locks"), reason="sees a process wait for a lock in /proc/locks")
def test_deleting_the_lock_file_never_admits_a_second_writer(encounter_camp):
    """G-TRUST-3, G-PRIV-3: the lock is on the campaign folder itself, which cannot vanish while held."""
    with txn.Lock(encounter_camp):
        for name in ("lock",):
            try:
                os.unlink(encounter_camp / ".narateer" / name)
            except FileNotFoundError:
                pass
        proc = subprocess.Popen([sys.executable, "-m", "narateer_cli", "--campaign", str(encounter_camp),
                                 "wound", "selka"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while not _queued_on_the_lock(proc.pid, encounter_camp):  # it reached the lock, and waits there
            assert proc.poll() is None, ("a second writer ran while the lock was held", proc.communicate())
            assert time.monotonic() < deadline, "the second writer never reached the lock"
            time.sleep(0.02)
        assert proc.poll() is None, "a second writer ran while the lock was held"
        assert sheet_dice(encounter_camp, "selka").get("wounded", 0) == 0
    assert proc.wait(timeout=60) == 0
    assert sheet_dice(encounter_camp, "selka")["wounded"] == 1


@pytest.mark.parametrize("option", ["--intent", "--method"])
def test_a_byte_that_is_not_utf8_is_bad_input_before_anything(encounter_camp, option):
    """`resolve --intent $'bad\\xff'` used to rewrite two files but not the log."""
    ok(encounter_camp, "turn", "start", "selka")
    before = snapshot(encounter_camp)
    args = [b"resolve", b"selka", b"--intent", b"door", b"--tier", b"trivial", b"--auto"]
    args[args.index(option.encode()) + 1 if option == "--intent" else len(args):] = (
        [b"bad\xff", b"--tier", b"trivial", b"--auto"] if option == "--intent" else [b"--method", b"bad\xff"])
    proc = subprocess.run([sys.executable.encode(), b"-m", b"narateer_cli", b"--campaign", bytes(encounter_camp), *args],
                          capture_output=True, timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert b"not valid text" in proc.stderr and proc.stderr.count(b"\n") == 1
    assert snapshot(encounter_camp) == before
    assert not (encounter_camp / ".narateer" / "txn.json").exists()
    assert run(encounter_camp, "wound", "selka").code == 0  # nothing blocks the campaign afterwards


def test_a_lone_surrogate_in_new_name_is_bad_input(camp):
    r = run(camp, "new", "zed", "--name", "Z\ud800")
    assert r.code == 2 and "not valid text" in r.err
    assert not (camp / "characters" / "zed.yaml").exists()


@pytest.mark.parametrize("target", ["characters/selka.yaml", LOG, "encounters"])
def test_a_read_only_target_is_bad_input_before_the_commit_point(encounter_camp, target):
    ok(encounter_camp, "refresh", "selka")
    path = encounter_camp / target
    mode = path.stat().st_mode
    path.chmod(0o555 if path.is_dir() else 0o444)
    try:
        before = snapshot(encounter_camp)
        r = run(encounter_camp, "wound", "selka")
        assert r.code == 2 and "read-only" in r.err and "nothing was written" in r.err, r.err
        assert snapshot(encounter_camp) == before
        assert not (encounter_camp / ".narateer" / "txn.json").exists()
    finally:
        path.chmod(mode)


def _limited(camp, kib, *args):
    """A narateer command in a shell whose file size limit is `kib` KiB (a full disk for big files)."""
    argv = " ".join(f"'{a}'" for a in [sys.executable, "-m", "narateer_cli", "--campaign", str(camp), *args])
    return subprocess.run(["bash", "-c", f"ulimit -f {kib} && exec {argv}"], capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash for ulimit")
def test_a_full_disk_after_the_commit_point_says_the_action_is_half_done(encounter_camp):
    ok(encounter_camp, "refresh", "selka")
    log = encounter_camp / LOG
    line = log.read_text()
    log.write_text(line * 200)  # ~100 KiB, beyond the limit below: the append fails, the manifest fits
    r = _limited(encounter_camp, 64, "wound", "selka")
    assert r.returncode == 2, r.stderr
    assert "half-done" in r.stderr and "next narateer command completes it" in r.stderr
    assert "nothing was written" not in r.stderr and r.stderr.count("\n") == 1
    assert (encounter_camp / ".narateer" / "txn.json").exists()
    r = run(encounter_camp, "show", "selka")  # no limit now: the next command completes it, once
    assert r.code == 0 and r.err == ""
    assert sheet_dice(encounter_camp, "selka")["wounded"] == 1
    assert log.read_text().count('"command": "wound"') == 1


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash for ulimit")
def test_a_full_disk_before_the_commit_point_writes_nothing(encounter_camp):
    before = snapshot(encounter_camp)
    r = _limited(encounter_camp, 1, "wound", "selka")
    assert r.returncode == 2 and "nothing was written" in r.stderr, r.stderr
    assert snapshot(encounter_camp) == before
    assert run(encounter_camp, "wound", "selka").code == 0


def test_a_fifo_among_the_sheets_never_hangs_check(encounter_camp):
    os.mkfifo(encounter_camp / "characters" / "ghost.yaml")
    r = sh(encounter_camp, "--json", "check", timeout=30)
    assert r.code == 1 and any(p.startswith("characters/ghost.yaml") for p in json.loads(r.out)["problems"])
    r = sh(encounter_camp, "show", "ghost", timeout=30)
    assert r.code == 2 and "characters/ghost.yaml: not a regular file" in r.err, r.err


def test_a_sheet_linked_to_dev_zero_is_bad_input(encounter_camp):
    (encounter_camp / "characters" / "zero.yaml").symlink_to("/dev/zero")
    r = sh(encounter_camp, "show", "zero", timeout=30)
    assert r.code == 2 and "outside" in r.err


def test_a_symlinked_encounters_folder_leading_outside_is_bad_input(encounter_camp, tmp_path):
    shutil.move(encounter_camp / "encounters", tmp_path / "enc")
    (encounter_camp / "encounters").symlink_to(tmp_path / "enc")
    before = snapshot(tmp_path / "enc")
    r = run(encounter_camp, "wound", "selka")
    assert r.code == 2 and "encounters/ is a symlink" in r.err
    assert snapshot(tmp_path / "enc") == before


def test_a_config_linked_outside_the_campaign_is_bad_input(encounter_camp, tmp_path):
    shutil.move(encounter_camp / "narateer.yaml", tmp_path / "elsewhere.yaml")
    (encounter_camp / "narateer.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    r = run(encounter_camp, "show", "selka")
    assert r.code == 2 and "narateer.yaml is a symlink leading outside" in r.err


def test_seals_and_commitments_keep_their_bytes():
    """G-TRUST-2, P-SECRET-1: a manifest's seal, a private record's mac and a secret roll's commitment are
    the values earlier versions wrote (HMAC-SHA-256 and SHA-256 over the same bytes), so every manifest,
    private record and logged commitment already on disk still checks."""
    from narateer_cli.store import private, secrets

    manifest = {"kind": "roll", "campaign": "/c", "private": 12, "files": {"a": [1, "x\udcff"]}}
    assert txn._mac(b"k" * 32, manifest) == "e5a93de0640a583aff8bc65af06bcb6eabf67d3a61d9879a42adae32e1e86f37"
    assert secrets.commitment(bytes(range(16)), {"faces": [1, 2], "ok": True, "who": "Zo\u00eb"}) == (
        "14aa080f002fda3e9902e5ef3911534c18af6789e4c9a5112c932e29142cfde8")
    saved = private._secret
    private._secret = lambda: b"s" * 32
    try:
        assert private._mac(Path("/nowhere"), "secret", "r1", '{"a": 1}', ident="ident-1") == (
            "3f636d6bdd7fae57e3dfe8fc830d54d15e2e8c00f968d98c3fbbaa1a1040049d")
    finally:
        private._secret = saved
