"""Ctrl-C (SIGINT) during a command (no traceback, Ctrl-C included).

Real processes get SIGINT at three kinds of moments: while narateer and
click are being imported (the second half of the time before the command
takes its lock), inside the locked read-modify-write, and right at the
commit (0-4 ms after its first temporary file appears under .narateer/).
Each time, before any other command runs:

- no "Traceback" anywhere; the status is non-zero, unless the command had
  already finished; stderr holds one message line ("narateer: interrupted
  ..."; click may add an empty line first, to close the terminal's ^C);
- the message tells the truth: "nothing was written" only when the log did
  not grow, "saved whole" when it did;
- nothing is half-written: no manifest left for the next command to finish,
  no temporary file, every file parses, dice totals are conserved and the
  log agrees with every sheet.

SIGINT arriving during the interpreter's own start-up (`site`, before any
narateer code runs) is outside narateer's reach: such a round (the process
killed by the signal with nothing said, or a KeyboardInterrupt traceback with
no narateer frame) is not counted, and must not have written anything.

Two in-process tests pin the commit's deferral exactly: a SIGINT raised at
the start of apply is held until the action is complete, and an ignored
SIGINT stays ignored.
"""

from __future__ import annotations

import os
import random
import re
import signal
import statistics
import subprocess
import sys
import time

import pytest

from tests.conftest import run

from . import soak, stats
from .helpers import check_log_against_sheets, load_yaml, log_entries, sheet_dice, total, wait_for_commit, wait_for_lock

CHARS = ("selka", "sentry", "mira", "bandit")
COMMANDS = [
    ("roll", "--force", "selka", "stealth", "--dr", "2", "--reaction", "--faces", "1", "--assist", "sentry"),
    ("roll", "mira", "melee", "--contested", "bandit:melee", "--reaction", "--faces", "1", "--other-faces", "1"),
    ("wound", "sentry", "1"),
    ("heal", "sentry", "1"),
]
ROUNDS = soak.amount(12, 120)  # make soak: NARATEER_SOAK=1
# A signal that lands after the command ended tests nothing: rounds go on past ROUNDS until INTERRUPTED of
# them (a third of ROUNDS) were interrupted mid-command, at most MAX_ROUNDS in all. On a busy machine more
# land late (this watcher is descheduled while the command runs on), so the test counts events, not time.
INTERRUPTED = ROUNDS // 3
MAX_ROUNDS = 4 * ROUNDS
ROUND_LIMIT = 30  # seconds a round may take on average: a guard against a hang, never against a busy machine


def _prepare(root):
    for char in CHARS:
        sheet = root / "characters" / f"{char}.yaml"
        sheet.write_text(re.sub(r"ready: \d+", "ready: 100000", sheet.read_text()))
    return {c: total(sheet_dice(root, c)) for c in CHARS}


def _default_sigint():
    """In the child before exec: Ctrl-C as at a terminal, even when the test run itself ignores SIGINT
    (a job started in the background by a non-interactive shell inherits SIG_IGN)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _spawn(root, argv):
    return subprocess.Popen([sys.executable, "-m", "narateer_cli", "--campaign", str(root), *argv],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_default_sigint)


@pytest.fixture(autouse=True)
def _python_sigint_handler():
    """The in-process tests need Python's own SIGINT handler, whatever this run inherited."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)


def _time_to_lock(root) -> tuple[float, float]:
    """Median (seconds until the lock is taken, seconds the whole run takes) over three runs."""
    to_lock, whole = [], []
    for _ in range(3):
        t0 = time.monotonic()
        proc = _spawn(root, COMMANDS[2])
        locked = wait_for_lock(proc, 10)
        proc.communicate(timeout=30)
        assert proc.returncode == 0
        whole.append(time.monotonic() - t0)
        to_lock.append(locked if locked is not None else whole[-1] * 0.6)
    return statistics.median(to_lock), statistics.median(whole)


_NARATEER_FRAME = re.compile(r'File "[^"]*narateer_cli[/\\]')


def _during_startup(code: int, err: str) -> bool:
    """Did SIGINT land before narateer's own code ran? Then Python's default action (killed by the
    signal, nothing on stderr) or a KeyboardInterrupt traceback from `site` is all there is."""
    if code == -signal.SIGINT and not err.strip():
        return True
    return "Traceback" in err and "KeyboardInterrupt" in err and not _NARATEER_FRAME.search(err)


def test_sigint_at_random_points(encounter_camp):
    root = encounter_camp
    totals = _prepare(root)
    to_lock, whole = _time_to_lock(root)
    rng = random.Random(2)
    private = root / ".narateer"
    outcomes = {"finished first": 0, "interrupted, nothing written": 0, "interrupted, action saved whole": 0,
                "signal during interpreter start-up (not counted)": 0}
    t_start = time.monotonic()
    rounds = 0
    while rounds < ROUNDS or (interrupted(outcomes) < INTERRUPTED and rounds < MAX_ROUNDS):
        i, rounds = rounds, rounds + 1
        elapsed = time.monotonic() - t_start
        assert elapsed < ROUND_LIMIT * rounds, f"{i} rounds took {elapsed:.0f} s"
        before = len(log_entries(root))
        mode = ("import", "lock", "commit")[i % 3]
        proc = _spawn(root, COMMANDS[rng.randrange(len(COMMANDS))])
        if mode == "import":
            time.sleep(rng.uniform(0.5, 1.0) * to_lock)
        elif mode == "lock":
            if wait_for_lock(proc, 10) is not None:
                time.sleep(rng.uniform(0, 0.5) * (whole - to_lock))
        else:
            if wait_for_commit(proc, private, 10):
                time.sleep(rng.uniform(0, 0.004))
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        code = proc.returncode

        if _during_startup(code, err):
            # the signal came while the interpreter itself was starting (before any narateer code
            # could run): not counted, but it must not have written anything either
            assert len(log_entries(root)) == before, f"round {i} ({mode}): {err}"
            outcomes["signal during interpreter start-up (not counted)"] += 1
            continue
        assert "Traceback" not in err, f"round {i} ({mode}): {err}"
        lines = [line for line in err.splitlines() if line.strip()]
        after = len(log_entries(root))
        assert after in (before, before + 1)
        if code == 0:
            assert lines == [] and after == before + 1, (mode, err)
            outcomes["finished first"] += 1
        else:
            assert code in (130, -signal.SIGINT), (mode, code, err)
            assert len(lines) == 1 and lines[0].startswith("narateer: interrupted"), (mode, err)
            if after == before:
                assert "nothing was written" in lines[0], (mode, err)
                outcomes["interrupted, nothing written"] += 1
            else:
                assert "saved whole" in lines[0], f"round {i} ({mode}): the action was saved but stderr says {err!r}"
                outcomes["interrupted, action saved whole"] += 1

        # nothing half-written, checked before any other command can repair anything
        assert not (private / "txn.json").exists(), f"round {i} ({mode}): an action was left half-applied"
        leftovers = [p.name for p in private.iterdir() if p.name.endswith(".tmp")]
        assert leftovers == [], f"round {i} ({mode}): {leftovers}"
        for path in [root / "narateer.yaml", root / "encounters" / "ambush.yaml", *(root / "characters").glob("*.yaml")]:
            assert isinstance(load_yaml(path), dict), path
        for c in CHARS:
            assert total(sheet_dice(root, c)) == totals[c]
        check_log_against_sheets(root, CHARS)

    r = run(root, "--json", "verify")
    assert r.code == 0 and r.json["ok"], r.out + r.err
    for key, count in outcomes.items():
        stats.put(f"sigint: {key}", count)
    stats.put("sigint: rounds", rounds)
    # enough signals landed while the command ran for the rounds to have tested something
    assert interrupted(outcomes) >= INTERRUPTED, (rounds, outcomes)


def interrupted(outcomes: dict) -> int:
    return outcomes["interrupted, nothing written"] + outcomes["interrupted, action saved whole"]


@pytest.fixture
def interrupt_apply(monkeypatch):
    """Make apply() signal this very process with SIGINT as it starts."""
    from narateer_cli.store import txn

    real = txn.apply

    def apply(root, manifest, *staged):
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):  # give Python every chance to run its handler here, mid-commit
            pass
        return real(root, manifest, *staged)

    monkeypatch.setattr(txn, "apply", apply)


def test_sigint_during_commit_is_held_until_the_action_is_whole(encounter_camp, interrupt_apply):
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    before = sheet_dice(encounter_camp, "selka")
    r = run(encounter_camp, "wound", "selka", "2")
    assert r.code == 130
    assert r.err.split() and r.err.strip().splitlines() == ["narateer: interrupted after the action was saved whole"], r.err
    after = sheet_dice(encounter_camp, "selka")
    assert after["wounded"] == before["wounded"] + 2
    assert not (encounter_camp / ".narateer" / "txn.json").exists()
    entries = check_log_against_sheets(encounter_camp, ["selka"])
    assert [e["command"] for e in entries] == ["wound"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # the handler is put back


def test_ignored_sigint_stays_ignored_during_commit(encounter_camp, interrupt_apply):
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        r = run(encounter_camp, "wound", "selka", "1")
    finally:
        signal.signal(signal.SIGINT, old)
    assert r.code == 0 and r.err == "", r.err
    assert sheet_dice(encounter_camp, "selka")["wounded"] == 1
