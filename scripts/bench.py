"""`make bench`: whole-process timings of narateer as ratios to bare Python startup,
and how the commands that read a whole log grow with it (G-LOG-3), for all three games
(a MISS marks a target not met). The everyday section is
SP4-5's one start-up budget: every everyday command of every game at most 1.2x the floor,
in a regular install, printed as PASS or FAIL per command. Memory columns are each
command's own peak (own_run), never the bench's.

The floor is `python -c "import click, ruamel.yaml"` in the same environment,
with bytecode caching on (a scratch PYTHONPYCACHEPREFIX), so the ratios
measure narateer and not the bytecode compiler. Campaigns are built in a
scratch folder; nothing in the checkout is touched.

The roll timed against its target is a real one: a Reaction roll in
the campaign's current encounter, each run appending its entry to a log that
already holds 10 (the bench checks afterwards that every run wrote one).
Ratios are given twice: in this venv (the editable install `make install`
makes, whose start-up hook imports pathlib and importlib.util into every
process, the floor's too) and in a regular-install layout (a scratch venv
that sees the same packages without that hook, as `pip install narateer`
gives users). The targets must hold in both.
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

RUNS = int(os.environ.get("BENCH_RUNS", "21"))  # BENCH_ONLY=everyday,scale: some sections only
TARGETS = {"roll": 1.15, "help": 0.95, "log10k": 1.2, "scale": 1.2, "stats": 20.0}  # roll <= 1.15x, help <= 0.95x
ENC_ROLL = ["roll", "selka", "stealth", "--dr", "3", "--reaction", "--json"]  # a Reaction: repeatable within a round


def env(scratch: Path) -> dict:
    e = dict(os.environ)
    e.pop("PYTHONDONTWRITEBYTECODE", None)
    e["PYTHONPYCACHEPREFIX"] = str(scratch / "pycache")
    e.pop("NARATEER_CAMPAIGN", None)
    return e


def medians_ms(commands: dict, e, runs=RUNS, warm=3, cpu: dict | None = None) -> dict:
    """Median wall time of each command, measured interleaved (one run of each per round), so a
    change in machine load during the benchmark touches every command alike. `cpu`, when given, gets
    each command's median CPU time (user + system): steadier than wall time on a busy machine."""
    for argv in commands.values():  # warm the bytecode cache and the page cache
        for _ in range(warm):
            subprocess.run(argv, env=e, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    times = {name: [] for name in commands}
    cpus = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            start = time.perf_counter()
            proc = subprocess.Popen(argv, env=e, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            _, status, usage = os.wait4(proc.pid, 0)
            times[name].append(time.perf_counter() - start)
            cpus[name].append(usage.ru_utime + usage.ru_stime)
            err = proc.stderr.read()
            proc.stderr.close()
            if os.waitstatus_to_exitcode(status) != 0:
                raise SystemExit(f"bench: {' '.join(map(str, argv))} failed: {err.decode().strip()}")
    if cpu is not None:
        cpu.update({name: statistics.median(ts) * 1000 for name, ts in cpus.items()})
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
    write_log(root / "encounters" / "bench.log.yaml", log_entries)
    return root


ROLL_ENTRY = {"command": "roll", "actor": "sentry",
              "declaration": {"skill": "observation", "boost": 1, "cost": 1},
              "result": {"actor": "sentry", "skill": "observation", "target": 3, "target_source": "dr", "boost": 1,
                         "roll_dice": 2, "paid": 2, "faces": [1, 2], "rerolled": [], "final_faces": [1, 2],
                         "total": 3, "margin": 0, "success": False, "outcome": "Failure",
                         "dice_before": {"ready": 4, "used": 0}, "dice_after": {"ready": 2, "used": 2}},
              "dice": {"sentry": {"before": {"ready": 4, "used": 0}, "after": {"ready": 2, "used": 2}}}}
TURN_ENTRY = {"command": "turn start", "actor": "sentry", "declaration": {},
              "result": {"encounter": "bench", "round": 1, "actor": "sentry", "uses": {}, "refreshed": 2,
                         "dice_before": {"ready": 2, "used": 2}, "dice_after": {"ready": 4, "used": 0}},
              "dice": {"sentry": {"before": {"ready": 2, "used": 2}, "after": {"ready": 4, "used": 0}}}}


def write_log(path: Path, count: int):
    """A log exactly as narateer writes it (store/loglines.py): one JSON line per entry, ids and parents,
    sentry's dice continuing from entry to entry (a roll, then a turn start that readies them again)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from narateer_cli.store.loglines import entry_line

    parent = None
    with open(path, "w", encoding="utf-8") as fh:
        for seq in range(1, count + 1):
            body = ROLL_ENTRY if seq % 2 else TURN_ENTRY
            entry = {"seq": seq, "id": f"{seq:012x}", "parent": parent, "at": "2026-01-01T00:00:00Z", **body}
            fh.write(entry_line(entry))
            parent = entry["id"]
    if count % 2:  # end on a turn start, so sentry's sheet (4 ready) agrees with the log
        write_log(path, count + 1)


# A command's own peak memory. Linux carries the resident high-water mark of the process that calls exec
# into the new program's ru_maxrss, so a child started by the bench (tens of MiB once it has built campaigns)
# reports the bench's peak whenever its own is lower. Each measured run is therefore started by a launcher
# that imports nothing but `os` (python -I -S): what it carries is LAUNCHER_MIB, below any narateer command's
# own peak, and it times the run around posix_spawn and wait4 alone, so its own start-up is not counted.
LAUNCH = """
import os, sys, time
start = time.perf_counter()
pid = os.posix_spawnp(sys.argv[1], sys.argv[1:], os.environ,
                      file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])
_, status, usage = os.wait4(pid, 0)
print((time.perf_counter() - start) * 1000, usage.ru_maxrss, os.waitstatus_to_exitcode(status))
"""


def own_run(argv, e) -> tuple[float, float]:
    """(wall ms, the command's own peak resident MiB) of one run of `argv`, through the launcher."""
    out = subprocess.run([sys.executable, "-I", "-S", "-c", LAUNCH, *map(str, argv)], env=e,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    fields = out.stdout.split()
    if out.returncode != 0 or len(fields) != 3 or fields[2] != b"0":
        raise SystemExit(f"bench: {' '.join(map(str, argv))} failed: {out.stderr.decode().strip()}")
    return float(fields[0]), int(fields[1]) / 1024


def launcher_mib(e) -> float:
    """The high-water mark the launcher carries into every run (a run of `python -c pass` through it
    reports this or Python's own, whichever is higher): the lowest peak the memory columns can show."""
    return own_run([sys.executable, "-I", "-S", "-c", "pass"], e)[1]


def peak_mib(argv, e) -> float:
    """The peak resident memory of one run of `argv`, in MiB: the command's own (own_run)."""
    return own_run(argv, e)[1]


def log_growth(scratch: Path, e: dict, floor: float) -> bool:
    """verify, check, encounter log, undo and a roll in the encounter at 1k, 10k, 20k and 100k entries."""
    sizes = [int(n) for n in os.environ.get("BENCH_LOG_SIZES", "1000,10000,20000,100000").split(",")]
    roll = ["roll", "selka", "stealth", "--dr", "3", "--reaction", "--json"]
    print(f"\n{'log entries':>11} {'verify':>9} {'check':>9} {'log --last 10':>14} {'roll':>8} {'undo':>8}"
          f" {'verify MiB':>11} {'check MiB':>10}   (ms, medians)")
    results = {}
    for size in sizes:
        camp = make_campaign(scratch / f"log{size}", e, log_entries=size)
        where = ["--campaign", str(camp)]
        runs = 3 if size >= 50_000 else 5
        # the roll is cheap: as many runs as the start-up rows, so the 100k / 10k ratio is not the noise of
        # three runs; its entries are what the undo runs below take back
        ms = medians_ms({"roll": narateer(*where, *roll)}, e, runs=RUNS, warm=2)
        ms.update(medians_ms({"verify": narateer(*where, "verify", "--json"),
                              "check": narateer(*where, "check", "--json"),
                              "log": narateer(*where, "encounter", "log", "--last", "10", "--json"),
                              "undo": narateer(*where, "undo", "--json")},
                             e, runs=runs, warm=1))
        mem = {name: peak_mib(narateer(*where, name, "--json"), e) for name in ("verify", "check")}
        results[size] = (ms, mem)
        print(f"{size:>11,} {ms['verify']:>9.0f} {ms['check']:>9.0f} {ms['log']:>14.0f} {ms['roll']:>8.0f}"
              f" {ms['undo']:>8.0f} {mem['verify']:>11.1f} {mem['check']:>10.1f}")
    ok = True
    if 20_000 in results:
        ratio = results[20_000][0]["verify"] / floor
        ok &= ratio < 60
        print(f"verify of a 20,000-entry log: {ratio:.1f}x the floor (target < 60x)")
    if 100_000 in results:
        peak = results[100_000][1]["verify"]
        ok &= peak < 100
        print(f"verify of a 100,000-entry log: peak {peak:.1f} MiB (target < 100 MiB)")
    if 10_000 in results and 100_000 in results:
        flat = results[100_000][0]["roll"] / results[10_000][0]["roll"]
        ok &= flat <= 1.1
        print(f"roll in the encounter, 100,000 / 10,000 entries: {flat:.2f}x (target <= 1.1x)")
    return ok


def serve_data_ms(camp: Path, e: dict, runs: int = 21) -> dict | None:
    """V-1, V-6: `narateer serve`'s /data for a campaign whose current encounter has a 10,000-entry log,
    over HTTP on loopback, every request on one kept-alive connection, as a page's fetches are. Median ms of
    `rebuilt` (before each request narateer.yaml's mtime moves, so the server rebuilds the view model) and
    `cached` (nothing changed). None when the serve extra is not installed."""
    import http.client

    proc = subprocess.Popen(narateer("--campaign", str(camp), "serve", "--port", "0"), env=e,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        if "party view " not in line:
            return None
        port = int(line.split("party view ", 1)[1].split()[0].rstrip("/").rsplit(":", 1)[1])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        times = {"rebuilt": [], "cached": []}
        for i in range(2 * (runs + 3)):
            kind = "rebuilt" if i % 2 == 0 else "cached"
            if kind == "rebuilt":
                stamp = time.time() + i
                os.utime(camp / "narateer.yaml", (stamp, stamp))
            start = time.perf_counter()
            conn.request("GET", "/data")
            resp = conn.getresponse()
            resp.read()
            times[kind].append(time.perf_counter() - start)
        conn.close()
        return {kind: statistics.median(ts[3:]) * 1000 for kind, ts in times.items()}
    finally:
        from bench_act import stop

        stop(proc)


def serve_bench(camp: Path, e: dict) -> bool:
    data_ms = serve_data_ms(camp, e)
    if data_ms is None:
        print("serve /data: not measured (install the extra: pip install 'narateer[serve]')")
        return True
    # /data on a kept-alive connection under 5 ms with a 10,000-entry log, rebuilt or not
    print(f"{'serve /data, 10,000-entry log, kept-alive':<44} {data_ms['rebuilt']:>10.2f} ms{'':>7}< 5 ms")
    print(f"{'  the same, nothing changed (cached)':<44} {data_ms['cached']:>10.2f} ms{'':>7}< 5 ms")
    return data_ms["rebuilt"] < 5 and data_ms["cached"] < 5


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


CONSOLE_SCRIPT = """#!{python}
# -*- coding: utf-8 -*-
import re
import sys
from narateer_cli import run
if __name__ == '__main__':
    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])
    sys.exit(run())
"""


def regular_install(scratch: Path) -> tuple[str, list[str]] | None:
    """A venv laid out as a regular (non-editable) install: its python, and the `narateer` console script
    pip would write. It sees this venv's packages and the checkout through a plain .pth path list, so no
    start-up hook runs. None when no venv can be made here."""
    import site

    folder = scratch / "regular"
    try:
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except (OSError, subprocess.CalledProcessError):
        return None
    python = folder / "bin" / "python"
    where = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                           capture_output=True, text=True).stdout.strip()
    checkout = Path(__file__).resolve().parent.parent
    Path(where, "narateer-bench.pth").write_text("\n".join([*site.getsitepackages(), str(checkout)]) + "\n")
    script = folder / "bin" / "narateer"
    script.write_text(CONSOLE_SCRIPT.format(python=python))
    script.chmod(0o755)
    return str(python), [str(script)]


def log_lines(camp: Path) -> int:
    with open(camp / "encounters" / "bench.log.yaml", "rb") as fh:
        return sum(1 for line in fh if line.startswith(b"- {"))


def check_rolls(camp: Path, before: int, expected: int) -> str:
    """Every timed roll was a real one: it appended one roll entry by selka to the encounter's log."""
    import json

    with open(camp / "encounters" / "bench.log.yaml", encoding="utf-8") as fh:
        entries = [json.loads(line[2:]) for line in fh if line.startswith("- {")][before:]
    rolls = [e for e in entries if e.get("command") == "roll" and e.get("actor") == "selka"]
    if len(entries) != expected or len(rolls) != expected:
        raise SystemExit(f"bench: {expected} rolls in the encounter should have logged {expected} entries, "
                         f"found {len(entries)} ({len(rolls)} rolls)")
    ready = [e["dice"]["selka"]["after"]["ready"] for e in rolls]
    if any(b >= a for a, b in zip(ready, ready[1:])):
        raise SystemExit("bench: the logged rolls did not spend selka's dice")
    return f"{expected} rolls, each logged (seq up to {entries[-1]['seq']}) and paid"


ROWS = [  # (label, key in the timings, target)
    ("python -c pass", "bare", None),
    ("import click, ruamel.yaml (floor)", "floor", None),
    ("narateer --help", "help", TARGETS["help"]),
    ("narateer roll in an encounter --json", "roll", TARGETS["roll"]),
    ("roll outside encounters (campaign log)", "outside", None),
    ("roll in encounter, 10,000-entry log", "long", None),
    ("roll in encounter, tiny campaign", "small", None),
    ("roll, 200 characters + 10,000-entry log", "big", None),
    ("stats over a 10,000-entry log", "stats", TARGETS["stats"]),
]
REGULAR_ROWS = [("import click, ruamel.yaml (floor)", "floor_reg", None),
                ("narateer --help", "help_reg", TARGETS["help"]),
                ("narateer roll in an encounter --json", "roll_reg", TARGETS["roll"])]


def campaigns(scratch: Path, e: dict) -> dict:
    tiny = make_campaign(scratch / "tiny", e)
    tiny_cfg = tiny / "narateer.yaml"
    tiny_cfg.write_text(tiny_cfg.read_text().replace("encounter: bench\n", ""))  # no current encounter
    return {"tiny": tiny, "short": make_campaign(scratch / "short", e, log_entries=10),
            "short_reg": make_campaign(scratch / "short-regular", e, log_entries=10),
            "long": make_campaign(scratch / "long", e, log_entries=10_000),
            "big": make_campaign(scratch / "big", e, characters=200, log_entries=10_000),
            "small": make_campaign(scratch / "small", e, log_entries=0)}


def start_up_commands(camps: dict, regular) -> dict:
    commands = {
        "bare": [sys.executable, "-c", "pass"],
        "floor": [sys.executable, "-c", "import click, ruamel.yaml"],
        "help": narateer("--help"),
        "roll": narateer("--campaign", str(camps["short"]), *ENC_ROLL),
        "outside": narateer("--campaign", str(camps["tiny"]), "roll", "selka", "stealth", "--dr", "3", "--json"),
        "stats": narateer("--campaign", str(camps["long"]), "stats", "--json"),
    }
    commands.update({key: narateer("--campaign", str(camps[key]), *ENC_ROLL) for key in ("long", "small", "big")})
    if regular is not None:
        python, script = regular
        commands.update({"floor_reg": [python, "-c", "import click, ruamel.yaml"], "help_reg": [*script, "--help"],
                         "roll_reg": [*script, "--campaign", str(camps["short_reg"]), *ENC_ROLL]})
    return commands


def table(rows, ms: dict, cpu: dict, floor: str, indent: str = "") -> bool:
    """Print rows of (label, key, target) as wall ms, wall and CPU ratios to `floor`; True when every target holds."""
    ok = True
    for name, key, target in rows:
        ratio = ms[key] / ms[floor]
        print(f"{indent}{name:<{44 - len(indent)}} {ms[key]:>10.1f} {ratio:>8.2f} {cpu[key] / cpu[floor]:>6.2f}  "
              f"{'<= %.2fx' % target if target else ''}")
        ok = ok and (target is None or ratio <= target)
    return ok


def start_up(scratch: Path, e: dict, camps: dict, regular) -> tuple[bool, float]:
    """Issue 10's start-up targets and the log-growth ratios; (every target held, the floor in ms)."""
    before = {key: log_lines(camps[key]) for key in ("short", "short_reg")}
    cpu = {}
    ms = medians_ms(start_up_commands(camps, regular), e, cpu=cpu)
    rolled = check_rolls(camps["short"], before["short"], RUNS + 3)
    if regular is not None:
        check_rolls(camps["short_reg"], before["short_reg"], RUNS + 3)
    print(f"load average {os.getloadavg()[0]:.2f}, {RUNS} runs each, interleaved")
    print(f"{'what':<44} {'median ms':>10} {'x floor':>8} {'cpu x':>6}  target")
    ok = table(ROWS, ms, cpu, "floor")
    print(f"  ({rolled})")
    if regular is not None:
        print("regular-install layout (no editable start-up hook):")
        ok = table(REGULAR_ROWS, ms, cpu, "floor_reg", indent="  ") and ok
    odds_ms = odds_in_process()
    growth, scale = ms["long"] / ms["roll"], ms["big"] / ms["small"]
    print(f"{'log growth ratio (10,000 / 10 entries)':<44} {growth:>19.2f}  < {TARGETS['log10k']}")
    print(f"{'scale ratio (200 chars + 10k log / tiny)':<44} {scale:>19.2f}  < {TARGETS['scale']}")
    print(f"{'odds 100 dice with Edge, in process':<44} {odds_ms:>10.2f} ms{'':>7}< 50 ms")
    card_ms, icepool_ms = d20_odds_against_icepool()
    versus = "icepool not installed" if icepool_ms is None else f"<= icepool's {icepool_ms:.3f} ms"
    faster = icepool_ms is None or card_ms <= icepool_ms
    print(f"{'d20 card odds (attack, advantage, 2d6+3)':<44} {card_ms:>10.3f} ms{'':>7}{versus}"
          f"{'' if faster else '  MISS'}")
    ok = ok and faster
    return ok and growth < TARGETS["log10k"] and scale < TARGETS["scale"] and odds_ms < 50, ms["floor"]


# -- every game: its everyday commands at the floor, and the commands that read a whole log at scale ------

EVERYDAY_BUDGET = 1.2  # SP4-5: every everyday command of every game, whole process, at most 1.2x the floor
SCALE_MIB, STATS_S = 100, 1.0
GAMES = {  # per game: its example's setup, one cycle of real commands (repeated to grow the log), everyday commands
    "narateer": {
        "setup": [], "cycle": [],
        "everyday": {"roll": ENC_ROLL, "odds": ["odds", "5", "--dr", "3"], "show": ["show", "selka"],
                     "readiness": ["readiness", "selka"], "encounter show": ["encounter", "show"],
                     "encounter log --last 10": ["encounter", "log", "--last", "10"], "check": ["check"]}},
    "open-adventure": {
        "setup": [["encounter", "new", "bench", "bloodwind", "amicus", "orc", "--reaction", "bloodwind=9",
                   "--reaction", "amicus=7"]],
        "cycle": [["turn", "start", "bloodwind"], ["roll", "bloodwind", "strength", "--ds", "9", "--seed", "3"],
                  ["turn", "end"], ["turn", "start", "amicus"], ["turn", "end"], ["turn", "start", "orc"],
                  ["turn", "end"]],
        "everyday": {"roll": ["roll", "bloodwind", "strength", "--ds", "9"], "odds": ["odds", "7", "--ds", "9"],
                     "show": ["show", "bloodwind"], "encounter show": ["encounter", "show", "--in", "bench"],
                     "encounter log --last 10": ["encounter", "log", "--last", "10", "--in", "bench"],
                     "check": ["check"]}},
    "d20-cards": {
        "sheets": {"mira.yaml": ("ap: {current: 3, max: 3}", "ap: {current: 1000000, max: 1000000}"),
                   "bandit.yaml": ("hp: {current: 20, max: 20}", "hp: {current: 1000000, max: 1000000}")},
        "setup": [["encounter", "new", "bench", "mira", "bandit"]],
        "cycle": [["turn", "start", "mira"], ["act", "mira", "strike", "--target", "bandit", "--faces", "2"],
                  ["turn", "end"], ["turn", "start", "bandit"], ["turn", "end"]],
        "everyday": {"act": ["act", "mira", "strike", "--target", "bandit"],
                     "odds": ["odds", "mira", "strike", "--target", "bandit"], "show": ["show", "mira"],
                     "encounter show": ["encounter", "show", "--in", "bench"],
                     "encounter log --last 10": ["encounter", "log", "--last", "10", "--in", "bench"],
                     "check": ["check"]}},
}


def game_campaign(root: Path, game: str, e: dict, entries: int, current: bool = True, spec: dict | None = None) -> Path:
    """The game's example campaign (`init --system GAME --example`) with an encounter `bench` whose log holds
    `entries` entries: its cycle of real commands run twice (the second starts where a cycle leaves the sheets:
    AP spent, then refreshed), then the second repeated in the log (new seq, id and parent), so the history
    stays one that `verify` accepts. Unless `current`, the campaign has no current encounter afterwards, so
    a roll or act is the everyday one outside a fight. Narateer's is the bench's own (make_campaign)."""
    if game == "narateer" and spec is None:
        return make_campaign(root, e, log_entries=entries)
    spec = spec or GAMES[game]
    subprocess.run(narateer("init", str(root), "--system", game, "--example"), env=e, check=True,
                   stdout=subprocess.DEVNULL)
    for name, (old, new) in spec.get("sheets", {}).items():
        sheet = root / "characters" / name
        sheet.write_text(sheet.read_text().replace(old, new))
    for argv in spec["setup"] + spec["cycle"] + spec["cycle"]:
        subprocess.run(narateer("--campaign", str(root), *argv), env=e, check=True, stdout=subprocess.DEVNULL)
    grow_log(root / "encounters" / "bench.log.yaml", entries)
    if not current:
        config = root / "narateer.yaml"
        config.write_text("".join(line for line in config.read_text().splitlines(True)
                                  if line != "encounter: bench\n"))
    return root


def grow_log(path: Path, count: int):
    """The log's first entry and first cycle, then its second cycle repeated until the log holds `count` (at
    least the two cycles; whole cycles only), each renumbered as narateer writes them (store/loglines.py)."""
    import json

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from narateer_cli.store.loglines import entry_line

    lines = [json.loads(line[2:]) for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("- {")]
    size = (len(lines) - 1) // 2
    head, cycle = lines[:1 + size], lines[1 + size:]
    total = max(count, len(lines))
    total -= (total - len(head)) % size  # whole cycles only: the sheets end where the log says
    with open(path, "w", encoding="utf-8") as fh:
        for entry in head:
            fh.write(entry_line(entry))
        parent = head[-1]["id"]
        for seq in range(len(head) + 1, total + 1):
            entry = {**cycle[(seq - len(head) - 1) % size], "seq": seq, "id": f"{seq:012x}", "parent": parent}
            fh.write(entry_line(entry))
            parent = entry["id"]


def run_peak(argv, e) -> tuple[float, float]:
    """(wall ms, the command's own peak resident MiB) of one run of `argv` (own_run)."""
    return own_run(argv, e)


def everyday(scratch: Path, e: dict, regular) -> bool:
    """SP4-5: each game's everyday commands on its example, as ratios to the floor, in the regular-install
    layout (this venv's when no regular layout could be made), interleaved; each must be at most
    EVERYDAY_BUDGET times the floor. Then one more run of each gives its own peak memory (own_run).

    What start-up measures were worth, measured whole-process (regular install, bytecode cached; CPU time,
    or instructions under callgrind, as a share of the floor's): pausing the collector while modules load
    0.09-0.31x of the floor; the stand-ins for inspect, dataclasses and html while click and tabulate import
    (about 0.07x on a command without a table, 0.14x with one), the stand-in urllib.parse (0.05x), the
    hand-written HMAC (0.02x, but loading OpenSSL adds about 5 MiB to every command's peak), gettext's locale,
    shutil and signal's wrappers (0.05x), unseeded dice without `random` (0.02-0.05x). All of them went for
    plain code. Laying tables out without importing tabulate (narateer_cli.columns) saves 0.12x on every
    command that prints one, and stays."""
    python, script = regular if regular is not None else (sys.executable, narateer())
    commands, rows = {"floor": [python, "-c", "import click, ruamel.yaml"]}, []
    for game, spec in GAMES.items():
        camp = game_campaign(scratch / f"everyday-{game}", game, e, entries=10, current=game == "narateer")
        for what, argv in spec["everyday"].items():
            commands[(game, what)] = [*script, "--campaign", str(camp), *argv]
            rows.append((game, what))
    cpu = {}
    ms = medians_ms(commands, e, cpu=cpu)
    mib = {key: own_run(argv, e)[1] for key, argv in commands.items()}
    layout = "regular-install layout" if regular is not None else "this venv (no regular layout could be made)"
    print(f"\neveryday commands on each game's example, {layout}, {RUNS} runs each, interleaved;"
          f" floor {ms['floor']:.1f} ms, load average {os.getloadavg()[0]:.2f}")
    print(f"budget: every everyday command of every game at most {EVERYDAY_BUDGET:.2f}x the floor (SP4-5); "
          f"MiB is the command's own peak (the launcher carries {launcher_mib(e):.1f} MiB)")
    print(f"{'game':<15} {'command':<24} {'median ms':>10} {'x floor':>8} {'cpu x':>6} {'MiB':>6}  budget")
    failed = []
    for game, what in rows:
        ratio = ms[(game, what)] / ms["floor"]
        if ratio > EVERYDAY_BUDGET:
            failed.append(f"{game} {what}")
        print(f"{game:<15} {what:<24} {ms[(game, what)]:>10.1f} {ratio:>8.2f} {cpu[(game, what)] / cpu['floor']:>6.2f}"
              f" {mib[(game, what)]:>6.1f}  {'FAIL' if ratio > EVERYDAY_BUDGET else 'PASS'}")
    print(f"{'(floor)':<15} {'import click, ruamel.yaml':<24} {ms['floor']:>10.1f} {1:>8.2f} {1:>6.2f}"
          f" {mib['floor']:>6.1f}")
    print(f"everyday budget: {'PASS' if not failed else 'FAIL (' + ', '.join(failed) + ')'}"
          f" ({len(rows) - len(failed)} of {len(rows)} commands at most {EVERYDAY_BUDGET:.2f}x the floor)")
    return not failed


SCALE_COMMANDS = {"stats": ["stats"], "report": ["report"], "encounter log": ["encounter", "log", "--in", "bench"],
                  "verify": ["verify", "--in", "bench"]}


def scale(scratch: Path, e: dict, regular) -> bool:
    """stats, report, a full encounter log and verify over 1k/10k/100k-entry logs in every game: wall time and
    the peak memory of each run (BENCH_SCALE_SIZES, e.g. "1000,10000" to leave out 100k)."""
    script = regular[1] if regular is not None else narateer()
    sizes = [int(n) for n in os.environ.get("BENCH_SCALE_SIZES", "1000,10000,100000").split(",")]
    print(f"\n{'game':<15} {'command':<14}" + "".join(f" {f'{n:,} ms':>11} {'MiB':>6}" for n in sizes)
          + "   targets at 100,000: < 100 MiB, time linear; stats < 1 s")
    ok = True
    for game in GAMES:
        camps = {n: game_campaign(scratch / f"scale-{game}-{n}", game, e, entries=n) for n in sizes}
        for what, argv in SCALE_COMMANDS.items():
            got = {}
            for n in sizes:
                runs = [run_peak([*script, "--campaign", str(camps[n]), *argv], e)
                        for _ in range(5 if n <= 1000 else 3 if n <= 10_000 else 1)]
                got[n] = (statistics.median(r[0] for r in runs), max(r[1] for r in runs))
            misses = scale_misses(what, got)
            ok &= not misses
            print(f"{game:<15} {what:<14}" + "".join(f" {got[n][0]:>11.0f} {got[n][1]:>6.1f}" for n in sizes)
                  + (f"  MISS: {', '.join(misses)}" if misses else ""))
    return ok


CHECK_AFTER_WRITE_S = 0.5  # SP4-1: check right after a write, at 100,000 entries, in every game
PLAYED = {"narateer": {"setup": [["encounter", "new", "bench", "selka", "sentry"]],
                       "cycle": [["turn", "start", "selka"], ["roll", "selka", "observation", "--dr", "3", "--seed", "1"],
                                 ["turn", "end"], ["turn", "start", "sentry"], ["turn", "end"]]}}


def check_after_write(scratch: Path, e: dict, regular) -> bool:
    """SP4-1: `check` right after a write, on a log of BENCH_RESUME_SIZE (100,000) entries in every game. Each
    round runs `check` (it keeps its state), then the game's next cycle command (a real write: it appends to
    the log and may change a sheet), then the timed `check`; medians of BENCH_RESUME_RUNS (5) rounds, beside
    the first check of the campaign (nothing kept: a full one). Every game plays its own cycle (Narateer's
    played, not the bench's hand-made log), so each check finds the campaign clean."""
    script = regular[1] if regular is not None else narateer()
    size = int(os.environ.get("BENCH_RESUME_SIZE", "100000"))
    runs = int(os.environ.get("BENCH_RESUME_RUNS", "5"))
    print(f"\ncheck right after a write, {size:,}-entry log, {runs} rounds (target <= {CHECK_AFTER_WRITE_S} s, SP4-1);"
          f" load average {os.getloadavg()[0]:.2f}")
    print(f"{'game':<15} {'full check s':>12} {'after a write s':>16} {'cpu s':>6} {'MiB':>6}  target")
    ok = True
    for game in GAMES:
        spec = PLAYED.get(game) or GAMES[game]
        camp = game_campaign(scratch / f"resume-{game}", game, e, entries=size, spec=spec)
        check = [*script, "--campaign", str(camp), "check"]
        full, _ = own_run(check, e)
        walls, cpus, mib = [], [], 0.0
        for r in range(runs):
            own_run(check, e)
            subprocess.run([*script, "--campaign", str(camp), *spec["cycle"][r % len(spec["cycle"])]], env=e,
                           check=True, stdout=subprocess.DEVNULL)
            start = os.times()
            wall, peak = own_run(check, e)
            end = os.times()
            walls.append(wall / 1000)
            cpus.append(end.children_user + end.children_system - start.children_user - start.children_system)
            mib = max(mib, peak)
        after = statistics.median(walls)
        ok &= after <= CHECK_AFTER_WRITE_S
        print(f"{game:<15} {full / 1000:>12.2f} {after:>16.2f} {statistics.median(cpus):>6.2f} {mib:>6.1f}  "
              f"{'PASS' if after <= CHECK_AFTER_WRITE_S else 'MISS'}")
    return ok


def scale_misses(what: str, got: dict) -> list[str]:
    """The Part 9 targets a command's row misses: memory at its largest size, stats' time, and linear time
    (ten times the entries may cost at most 13 times the time, start-up included)."""
    largest = max(got)
    ms, mib = got[largest]
    misses = [f"{mib:.0f} MiB"] if largest >= 100_000 and mib >= SCALE_MIB else []
    if what == "stats" and largest >= 100_000 and ms >= STATS_S * 1000:
        misses.append(f"{ms / 1000:.1f} s")
    for small, big in zip(sorted(got), sorted(got)[1:]):
        if got[big][0] / got[small][0] > 1.3 * big / small:
            misses.append(f"{big // small}x entries: {got[big][0] / got[small][0]:.0f}x time")
    return misses


def d20_odds_against_icepool() -> tuple[float, float | None]:
    """Best-of-five in-process ms of one card's exact odds (an attack with advantage, 2d6+3 with Overkill 2,
    chance, mean and distribution) by d20-cards and by icepool (None when icepool is not installed)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from narateer_cli.systems.d20_cards import ruleset
    from narateer_cli.systems.d20_cards.cards import parse_card
    from narateer_cli.systems.d20_cards.odds import odds
    from narateer_cli.systems.d20_cards.results import Declaration, World
    from narateer_cli.systems.d20_cards.sheet import parse_sheet

    rules = ruleset()
    sheets = {"mira": {"name": "Mira", "attributes": {"kno": 1, "wil": 2, "fin": 4, "phy": 3, "mind": 6, "body": 7},
                       "ac": {"physical": 14, "mental": 12}, "hp": {"current": 30, "max": 30}, "reach": 1,
                       "resources": {"ap": {"current": 3, "max": 3}}, "actions": ["hit"], "conditions": []},
              "bandit": {"name": "Bandit", "attributes": {"kno": 0, "wil": 2, "fin": 2, "phy": 3},
                         "ac": {"physical": 14, "mental": 11}, "hp": {"current": 20, "max": 20},
                         "resources": {"ap": {"current": 3, "max": 3}}, "actions": [], "conditions": []}}
    chars = {cid: parse_sheet(cid, doc, f"characters/{cid}.yaml", rules) for cid, doc in sheets.items()}
    card = parse_card("hit", {"name": "Hit", "cost": 1, "atk": "fin", "range": "reach",
                              "damage": {"amount": "2d6+3", "overkill": 2}}, "actions/hit.yaml")
    world = World(chars, {"hit": card}, None, 0)
    decl = Declaration(actor="mira", card="hit", targets=("bandit",), advantage=True)
    ours = best_ms(lambda: odds(world, decl, rules))
    try:
        import icepool
    except ImportError:
        return ours, None

    def theirs():
        d20 = icepool.d20.highest(2)

        def dealt(face, damage):
            hit = face + 4 >= 14
            return damage + max(face + 4 - 14, 0) * 2 if hit else 0

        lands = d20.map(lambda face: face + 4 >= 14)
        out = icepool.map(dealt, d20, 2 @ icepool.d6 + 3)
        return lands.probability(True), out.mean(), out.probabilities()

    return ours, best_ms(theirs)


def best_ms(fn, rounds: int = 5, number: int = 50) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best * 1000


def main():
    scratch = Path(tempfile.mkdtemp(prefix="narateer-bench-"))
    try:
        e = env(scratch)
        regular = regular_install(scratch)
        wanted = set(os.environ.get("BENCH_ONLY", "start-up,everyday,scale,resume,growth,serve,act").split(","))
        ok, floor = True, None
        if wanted & {"start-up", "growth", "serve"}:
            camps = campaigns(scratch, e)
            ok, floor = start_up(scratch, e, camps, regular)
        if "everyday" in wanted:
            ok = everyday(scratch, e, regular) and ok
        if "scale" in wanted:
            ok = scale(scratch, e, regular) and ok
        if "resume" in wanted:
            ok = check_after_write(scratch, e, regular) and ok
        if "growth" in wanted:
            ok = log_growth(scratch, e, floor) and ok
        if "serve" in wanted:
            ok = serve_bench(camps["long"], e) and ok
        if "act" in wanted:
            from bench_act import act_bench

            ok = act_bench(scratch, narateer(), e) and ok
        print("all targets met" if ok else "SOME TARGETS MISSED")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
