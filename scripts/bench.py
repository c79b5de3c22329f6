"""`make bench`: whole-process timings of narateer as ratios to bare Python startup.

The floor is `python -c "import click, ruamel.yaml"` in the same environment,
with bytecode caching on (a scratch PYTHONPYCACHEPREFIX), so the ratios
measure narateer and not the bytecode compiler. Campaigns are built in a
scratch folder; nothing in the checkout is touched.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = int(os.environ.get("BENCH_RUNS", "21"))
TARGETS = {"roll": 1.3, "help": 1.0, "log10k": 1.2, "scale": 1.2}


def env(scratch: Path) -> dict:
    e = dict(os.environ)
    e.pop("PYTHONDONTWRITEBYTECODE", None)
    e["PYTHONPYCACHEPREFIX"] = str(scratch / "pycache")
    e.pop("NARATEER_CAMPAIGN", None)
    return e


def medians_ms(commands: dict, e, runs=RUNS) -> dict:
    """Median wall time of each command, measured interleaved (one run of each per round), so a
    change in machine load during the benchmark touches every command alike."""
    for argv in commands.values():  # warm the bytecode cache and the page cache
        for _ in range(3):
            subprocess.run(argv, env=e, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    times = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            start = time.perf_counter()
            proc = subprocess.run(argv, env=e, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            times[name].append(time.perf_counter() - start)
            if proc.returncode != 0:
                raise SystemExit(f"bench: {' '.join(map(str, argv))} failed: {proc.stderr.decode().strip()}")
    return {name: statistics.median(ts) * 1000 for name, ts in times.items()}


def narateer(*args) -> list[str]:
    """The installed console script, as users run it."""
    script = Path(sys.executable).parent / "narateer"
    return [str(script), *args] if script.exists() else [sys.executable, "-m", "narateer_cli", *args]


def make_campaign(root: Path, e: dict, characters: int = 0, log_entries: int = 0) -> Path:
    subprocess.run(narateer("init", str(root), "--example"), env=e, check=True, stdout=subprocess.DEVNULL)
    sheet = root / "characters" / "selka.yaml"
    sheet.write_text(sheet.read_text().replace("ready: 5", "ready: 1000000"))
    for i in range(characters):
        (root / "characters" / f"npc{i:03d}.yaml").write_text(
            f"name: NPC {i}\nvitals: {{agility: 2}}\nskills: {{stealth: 1}}\naction_dice: {{ready: 5, used: 0}}\n")
    config = root / "narateer.yaml"
    config.write_text(config.read_text() + "encounter: bench\n")
    participants = ["selka", "sentry"] + [f"npc{i:03d}" for i in range(min(characters, 50))]
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from narateer_cli.store.yamlio import emit_text

    state = {"id": "bench", "round": 1, "actor": None, "next": None, "acted": [], "participants": participants,
             "uses": {}, "mode": None, "movement_left": None, "last_action": None, "hidden": {}, "recorded": {},
             "searches": {}}
    (root / "encounters" / "bench.yaml").write_text(emit_text(state))
    entry = {"seq": 0, "command": "roll", "actor": "sentry",
             "declaration": {"skill": "observation", "boost": 1, "cost": 1},
             "result": {"actor": "sentry", "skill": "observation", "target": 3, "target_source": "dr", "boost": 1,
                        "roll_dice": 2, "paid": 2, "faces": [1, 2], "rerolled": [], "final_faces": [1, 2],
                        "total": 3, "margin": 0, "success": False, "outcome": "Failure",
                        "dice_before": {"ready": 4, "used": 0}, "dice_after": {"ready": 2, "used": 2}},
             "dice": {"sentry": {"before": {"ready": 4, "used": 0}, "after": {"ready": 2, "used": 2}}}}
    with open(root / "encounters" / "bench.log.yaml", "w") as fh:
        for seq in range(1, log_entries + 1):
            entry["seq"] = seq
            fh.write(emit_text([entry]))
    return root


def odds_in_process() -> float:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from narateer_cli.systems.narateer.engine.dice import chance_to_exceed, pool_weights

    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        dist, denom = pool_weights(100, (0, 0, 1, 1, 2, 2), "advantage", "crits")
        chance_to_exceed(dist, denom, 100)
        [w / denom for w in dist]
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main():
    scratch = Path(tempfile.mkdtemp(prefix="narateer-bench-"))
    try:
        e = env(scratch)
        tiny = make_campaign(scratch / "tiny", e)
        tiny_cfg = tiny / "narateer.yaml"
        tiny_cfg.write_text(tiny_cfg.read_text().replace("encounter: bench\n", ""))  # no current encounter
        short = make_campaign(scratch / "short", e, log_entries=10)
        long = make_campaign(scratch / "long", e, log_entries=10_000)
        big = make_campaign(scratch / "big", e, characters=200, log_entries=10_000)
        small = make_campaign(scratch / "small", e, log_entries=0)
        roll = ["roll", "selka", "stealth", "--dr", "3", "--json"]
        enc_roll = ["roll", "selka", "stealth", "--dr", "3", "--reaction", "--json"]
        ms = medians_ms({
            "bare": [sys.executable, "-c", "pass"],
            "floor": [sys.executable, "-c", "import click, ruamel.yaml"],
            "help": narateer("--help"),
            "roll": narateer("--campaign", str(tiny), *roll),
            "short": narateer("--campaign", str(short), *enc_roll),
            "long": narateer("--campaign", str(long), *enc_roll),
            "small": narateer("--campaign", str(small), *enc_roll),
            "big": narateer("--campaign", str(big), *enc_roll),
        }, e)
        floor = ms["floor"]
        help_ms, roll_ms, short_ms, long_ms, small_ms, big_ms = (
            ms["help"], ms["roll"], ms["short"], ms["long"], ms["small"], ms["big"])
        rows = [
            ("python -c pass", ms["bare"], ms["bare"] / floor, None),
            ("import click, ruamel.yaml (floor)", floor, 1.0, None),
            ("narateer --help", help_ms, help_ms / floor, TARGETS["help"]),
            ("narateer roll ... --json", roll_ms, roll_ms / floor, TARGETS["roll"]),
            ("check in encounter, 10-entry log", short_ms, short_ms / floor, None),
            ("check in encounter, 10,000-entry log", long_ms, long_ms / floor, None),
            ("check, tiny campaign", small_ms, small_ms / floor, None),
            ("check, 200 characters + 10,000-entry log", big_ms, big_ms / floor, None),
        ]
        odds_ms = odds_in_process()
        print(f"{'what':<44} {'median ms':>10} {'x floor':>8}  target")
        for name, ms, ratio, target in rows:
            print(f"{name:<44} {ms:>10.1f} {ratio:>8.2f}  {'<= %.1fx' % target if target else ''}")
        print(f"{'log growth ratio (10,000 / 10 entries)':<44} {long_ms / short_ms:>19.2f}  < {TARGETS['log10k']}")
        print(f"{'scale ratio (200 chars + 10k log / tiny)':<44} {big_ms / small_ms:>19.2f}  < {TARGETS['scale']}")
        print(f"{'odds 100 dice with Edge, in process':<44} {odds_ms:>10.2f} ms{'':>7}< 50 ms")
        ok = (help_ms / floor <= TARGETS["help"] and roll_ms / floor <= TARGETS["roll"]
              and long_ms / short_ms < TARGETS["log10k"] and big_ms / small_ms < TARGETS["scale"] and odds_ms < 50)
        print("all targets met" if ok else "SOME TARGETS MISSED")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
