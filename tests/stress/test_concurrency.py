"""Many writers at once on one character and one encounter: no lost update.

8 worker processes (multiprocessing 'spawn', so each is a fresh Python that
imports narateer once) x 25 commands each, all on selka inside the current
encounter: Reaction rolls that pay 1 AD, wounds and heals. Every command
holds the campaign lock for its read-modify-write, so:

- every command succeeds and appends exactly one log entry: 200 entries,
  seq 1..200 without gaps or repeats, the log parses;
- the entries form one chain (each entry's dice "before" is the previous
  entry's "after") ending at the sheet's dice;
- the sheet's final dice are the start plus the sum of every command's own
  change, as each command reported it (a lost update would show here);
- `verify` accepts the log.

A smaller second test does the same with real `python -m narateer_cli`
processes started at once.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import run

from . import soak, stats
from .helpers import STATES, check_log_against_sheets, log_entries, norm, sheet_dice, total

WORKERS = 8
PER_WORKER = soak.amount(12, 100)  # make soak: NARATEER_SOAK=1
START_READY = 1_000_000
TIME_LIMIT = 150 * max(1, PER_WORKER / 25)  # seconds for the whole pool; far above the few seconds it takes


def _prepare(root: Path) -> dict:
    sheet = root / "characters" / "selka.yaml"
    sheet.write_text(sheet.read_text().replace("ready: 5", f"ready: {START_READY}"))
    start = sheet_dice(root, "selka")
    assert start["ready"] == START_READY
    return start


def _check(root: Path, start: dict, reports: list[tuple[str, int, str, str]], label: str):
    failures = [(kind, code, err) for kind, code, _, err in reports if code != 0]
    assert not failures, failures[:5]
    moves = [json.loads(out) for _, _, out, _ in reports]
    expected = dict(start)
    for data in moves:
        before, after = norm(data["dice_before"]), norm(data["dice_after"])
        for state in STATES:
            expected[state] += after[state] - before[state]
    final = sheet_dice(root, "selka")
    entries = check_log_against_sheets(root, ["selka"], initial={"selka": start})
    lost = len(reports) - len(entries) + sum(abs(final[s] - expected[s]) for s in STATES)
    stats.add(f"{label}: commands run", len(reports))
    stats.add(f"{label}: updates lost", lost)
    assert len(entries) == len(reports), f"{len(reports)} commands but {len(entries)} log entries"
    assert final == expected, f"sheet {final} but the commands' own changes add up to {expected}"
    assert total(final) == total(start)
    logged = sorted((json.dumps(e["dice"]["selka"]["before"], sort_keys=True),
                     json.dumps(e["dice"]["selka"]["after"], sort_keys=True)) for e in entries)
    reported = sorted((json.dumps(m["dice_before"], sort_keys=True), json.dumps(m["dice_after"], sort_keys=True))
                      for m in moves)
    assert logged == reported, "the log's dice moves are not the moves the commands reported"
    assert not (root / ".narateer" / "txn.json").exists()
    leftovers = [p.name for p in (root / ".narateer").iterdir() if p.name.endswith(".tmp")]
    assert leftovers == [], leftovers
    r = run(root, "--json", "verify")
    assert r.code == 0 and r.json["ok"], r.out + r.err


def test_eight_processes_no_lost_update(encounter_camp):
    from .workers import hammer

    start = _prepare(encounter_camp)
    ctx = multiprocessing.get_context("spawn")
    gate = ctx.Event()
    results = ctx.Queue()
    procs = [ctx.Process(target=hammer, args=(str(encounter_camp), w, PER_WORKER, "selka", gate, results))
             for w in range(WORKERS)]
    t0 = time.monotonic()
    for p in procs:
        p.start()
    gate.set()
    reports, seen = [], set()
    try:
        while len(seen) < WORKERS:
            left = TIME_LIMIT - (time.monotonic() - t0)
            assert left > 0, f"workers still running after {TIME_LIMIT} s"
            worker, done = results.get(timeout=left)
            seen.add(worker)
            reports.extend(done)
    finally:
        for p in procs:
            p.join(timeout=5)
            if p.is_alive():
                p.kill()
    stats.put("concurrency (8 x 25 in-process workers): seconds", round(time.monotonic() - t0, 1))
    assert len(reports) == WORKERS * PER_WORKER
    _check(encounter_camp, start, reports, "concurrency (8 x 25 in-process workers)")
    assert sorted(e["seq"] for e in log_entries(encounter_camp)) == list(range(1, WORKERS * PER_WORKER + 1))


def test_real_processes_at_once(encounter_camp):
    """4 x 5 real `python -m narateer_cli` processes launched together, 4 at a time."""
    start = _prepare(encounter_camp)
    argv = [sys.executable, "-m", "narateer_cli", "--campaign", str(encounter_camp), "--json"]
    kinds = ["roll", "wound", "heal", "roll", "wound"]
    reports = []
    t0 = time.monotonic()
    for kind in kinds:
        extra = (["roll", "--force", "selka", "stealth", "--dr", "2", "--reaction", "--faces", "1"] if kind == "roll"
                 else [kind, "selka", "1"])
        procs = [subprocess.Popen(argv + extra, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  env={**os.environ}) for _ in range(4)]
        for p in procs:
            out, err = p.communicate(timeout=60)
            reports.append((kind, p.returncode, out, err))
    stats.put("concurrency (4 x 5 real processes): seconds", round(time.monotonic() - t0, 1))
    _check(encounter_camp, start, reports, "concurrency (4 x 5 real processes)")
