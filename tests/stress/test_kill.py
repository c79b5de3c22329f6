"""A writer killed at random points, 100 times (atomic writes).

Each round starts a real `python -m narateer_cli` writing command and kills
it with SIGKILL: after a random delay from its start, a random delay after it
took the campaign lock (seen in /proc/PID/fd), or a random 0-4 ms after its
first temporary file appeared under .narateer/ (the manifest being written,
then applied), so many kills land inside the commit. Every fifth round instead sets
NARATEER_CRASH_AFTER_MANIFEST, which makes the process die exactly at the
commit point. The commands touch one or two sheets, the encounter state, the
log and an undo record (Reaction rolls, a contested roll, an assisted roll,
wound, heal, undo).

After every kill:
- every sheet, the encounter state and narateer.yaml parse, and every
  character's dice total (ready + used + wounded) is what it was;
- the next command (a read, which finishes an interrupted action) works,
  and then the log has only grown by whole entries: its old bytes are
  untouched, the new tail parses, seq numbers continue by one, and each
  character's dice continue from the log's last entry to the sheet, so the
  action is on every file or on none;
- a crash at the commit point is always applied by the next command;
- a following writing command works and leaves no manifest or temp file.

The figures (kills, actions applied/discarded, kills inside the commit,
corrupt files) are printed in the stress figures.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from ruamel.yaml import YAML

from tests.conftest import run

from . import soak, stats
from .helpers import norm, sheet_dice, total, wait_for_commit, wait_for_lock

ROUNDS = soak.amount(20, 300)  # make soak: NARATEER_SOAK=1
ROUND_LIMIT = 30  # seconds a round may take on average: a guard against a hang, never against a busy machine
                  # (a round takes ~0.3-1 s on an idle one, several times that beside another test worker)
CHARS = ("selka", "sentry", "mira", "bandit")
COMMANDS = [
    ("roll", "--force", "selka", "stealth", "--dr", "2", "--reaction", "--faces", "1"),
    ("roll", "mira", "melee", "--contested", "bandit:melee", "--reaction", "--faces", "1", "--other-faces", "1"),
    ("roll", "--force", "selka", "stealth", "--dr", "2", "--reaction", "--faces", "1", "--assist", "sentry"),
    ("wound", "sentry", "1"),
    ("heal", "sentry", "1"),
    ("wound", "mira", "2"),
    ("heal", "mira", "2"),
    ("undo",),
]
FOLLOW_UP = ("roll", "--force", "bandit", "melee", "--dr", "2", "--reaction", "--faces", "1")
SAFE = YAML(typ="safe", pure=True)


def _spawn(root: Path, argv, env=None):
    return subprocess.Popen([sys.executable, "-m", "narateer_cli", "--campaign", str(root), *argv],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, **(env or {})})


def _calibrate(root: Path) -> tuple[float, float]:
    """(whole run, time after taking the lock) of one unkilled command, in seconds."""
    t0 = time.monotonic()
    proc = _spawn(root, COMMANDS[0])
    locked = wait_for_lock(proc, 10)
    proc.wait(30)
    whole = time.monotonic() - t0
    assert proc.returncode == 0, proc.stderr.read()
    after_lock = whole - (locked if locked is not None else whole * 0.7)
    return whole, max(after_lock, 0.005)


def _parse_files(root: Path):
    """Every sheet, the encounter state and narateer.yaml parse (raises if not)."""
    for path in [root / "narateer.yaml", root / "encounters" / "ambush.yaml",
                 *sorted((root / "characters").glob("*.yaml"))]:
        data = SAFE.load(path.read_text(encoding="utf-8"))
        assert isinstance(data, dict), path


def _tail_entries(data: bytes) -> list:
    return SAFE.load(data.decode("utf-8")) or [] if data else []


def test_sigkill_at_random_points(encounter_camp):
    root = encounter_camp
    for char in CHARS:
        sheet = root / "characters" / f"{char}.yaml"
        sheet.write_text(re.sub(r"ready: \d+", "ready: 100000", sheet.read_text()))
    totals = {c: total(sheet_dice(root, c)) for c in CHARS}
    log = root / "encounters" / "ambush.log.yaml"
    manifest = root / ".narateer" / "txn.json"
    rng = random.Random(6)
    whole, after_lock = _calibrate(root)
    stats.put("kill: calibrated command seconds (whole, after lock)", f"{whole:.3f}, {after_lock:.3f}")

    last = {c: sheet_dice(root, c) for c in CHARS}  # dice as the log's last entry (or the start) leaves them
    seq = len(SAFE.load(log.read_text(encoding="utf-8")) or [])  # the calibration run's entry
    applied = discarded = inside_commit = corrupt = crash_hook = killed = 0
    t_start = time.monotonic()
    for i in range(ROUNDS):
        elapsed = time.monotonic() - t_start
        assert elapsed < ROUND_LIMIT * (i + 1), f"{i} rounds took {elapsed:.0f} s"
        old_log = log.read_bytes() if log.exists() else b""
        argv = COMMANDS[rng.randrange(len(COMMANDS))]
        mode = ("hook", "start", "commit", "lock", "commit")[i % 5]
        if mode == "hook":
            crash_hook += 1
            proc = _spawn(root, argv, env={"NARATEER_CRASH_AFTER_MANIFEST": "1"})
            proc.wait(30)
            assert proc.returncode in (99, 3), (proc.returncode, proc.stderr.read())
            expect_applied = proc.returncode == 99
        else:
            proc = _spawn(root, argv)
            if mode == "lock":  # somewhere in the locked read-modify-write
                if wait_for_lock(proc, 10) is not None:
                    time.sleep(rng.uniform(0, after_lock * 0.7))
            elif mode == "commit":  # from the manifest's temp file through apply
                if wait_for_commit(proc, root / ".narateer", 10):
                    time.sleep(rng.uniform(0, 0.004))
            else:  # anywhere from start-up on
                time.sleep(rng.uniform(0.2 * whole, 1.1 * whole))
            proc.send_signal(signal.SIGKILL)
            proc.wait(30)
            assert proc.returncode in (-signal.SIGKILL, 0, 3), (proc.returncode, proc.stderr.read())
            killed += proc.returncode == -signal.SIGKILL
            expect_applied = None
        proc.stderr.close()
        if manifest.exists():
            inside_commit += 1

        # right after the kill: every file a reader might open parses, dice are conserved
        try:
            _parse_files(root)
        except Exception:
            corrupt += 1
            raise
        for c in CHARS:
            assert total(sheet_dice(root, c)) == totals[c], f"round {i}: {c}'s dice total changed after the kill"

        # the next command finishes or forgets the interrupted action, as a whole
        r = run(root, "--json", "encounter", "show")
        assert r.code == 0, f"round {i}: {r.err}"
        assert not manifest.exists()
        new_log = log.read_bytes() if log.exists() else b""
        assert new_log.startswith(old_log), f"round {i}: the log's old bytes changed"
        try:
            entries = _tail_entries(new_log[len(old_log):])
        except Exception:
            corrupt += 1
            raise
        assert len(entries) <= 1, f"round {i}: {len(entries)} entries from one killed command"
        if expect_applied is not None:
            assert len(entries) == int(expect_applied), f"round {i}: a crash at the commit point was not applied"
        applied += len(entries)
        discarded += 1 - len(entries)
        for entry in entries:
            seq += 1
            assert entry["seq"] == seq, f"round {i}: seq {entry['seq']} after {seq - 1}"
            for c, move in (entry.get("dice") or {}).items():
                assert norm(move["before"]) == last[c], f"round {i}: {c}'s logged dice do not continue"
                last[c] = norm(move["after"])
        for c in CHARS:
            assert sheet_dice(root, c) == last[c], f"round {i}: {c}'s sheet and the log disagree (half an action)"
            assert total(last[c]) == totals[c]

        # and a following writing command works, leaving nothing behind
        r = run(root, "--json", *FOLLOW_UP)
        assert r.code == 0, f"round {i}: {r.err}"
        seq += 1
        data = r.json
        assert norm(data["dice_before"]) == last["bandit"]
        last["bandit"] = norm(data["dice_after"])
        leftovers = sorted(p.name for p in (root / ".narateer").iterdir() if p.name.endswith(".tmp"))
        assert leftovers == [] and not manifest.exists(), leftovers

    r = run(root, "--json", "verify")
    assert r.code == 0 and r.json["ok"], r.out + r.err
    entries = SAFE.load(log.read_text(encoding="utf-8"))
    assert [e["seq"] for e in entries] == list(range(1, seq + 1))
    for c in CHARS:
        assert sheet_dice(root, c) == last[c]
    stats.put("kill: rounds (SIGKILL + crash at the commit point)", f"{ROUNDS - crash_hook} + {crash_hook}")
    stats.put("kill: actions applied / discarded by recovery", f"{applied} / {discarded}")
    stats.put("kill: SIGKILLs that landed before the command ended", killed)
    stats.put("kill: kills that left a manifest (inside the commit)", inside_commit)
    stats.put("kill: corrupt files after kills", corrupt)
    stats.put("kill: seconds", round(time.monotonic() - t_start, 1))
