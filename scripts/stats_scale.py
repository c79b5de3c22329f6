"""`narateer stats` over long generated logs: wall time and peak
memory of one whole process at each size, for Narateer and d20-cards.

    python scripts/stats_scale.py [SIZES...]        (default: 1000 10000 100000)

Each campaign is the system's example; its campaign log is filled with checks as the games log them:
Narateer rolls of 1-6 dice against DRs 0-8 (some with Edge), d20 attacks with modifiers from -4 to +4
against ACs 10-18 (some with advantage) and saves; faces drawn at random (seeded), the success the
faces give, and each check's exact `chance` written by the system's own hook (P-LUCK-1). `write_log`
is importable (the tests build their larger logs with it; `make bench` may call `measure`).
"""

from __future__ import annotations

import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _narateer_check(rng: random.Random, rules) -> dict:
    """A Stealth roll; the success is drawn with the check's own exact chance (an Edge's reroll is not
    played out on the faces: stats reads the success, the chance and the final faces' Criticals)."""
    from narateer_cli.systems.narateer.engine.luck import chance_ratio

    dice, target = rng.randint(1, 6), rng.randint(0, 8)
    edge = rng.choice(["none", "none", "none", "advantage"])
    faces = [rng.choice(rules.faces) for _ in range(dice)]
    result = {"actor": "selka", "skill": "stealth", "target": target, "target_source": "dr",
              "boost": dice - 1, "roll_dice": dice, "paid": dice, "edge": edge, "faces": faces,
              "final_faces": faces, "total": sum(faces), "margin": sum(faces) - target}
    wins, ways = chance_ratio(result, rules)
    result["success"] = rng.randrange(ways) < wins
    return {"command": "roll", "actor": "selka", "declaration": {"skill": "stealth", "dr": target},
            "result": result}


def _d20_check(rng: random.Random, rules) -> dict:
    from narateer_cli.systems.d20_cards.act import hits, resists

    actor = rng.choice(["mira", "tor"])
    if rng.random() < 0.25:
        bonus, dc, face = rng.randint(-1, 5), rng.randint(10, 16), rng.randint(1, 20)
        save = {"attribute": "wil", "bonus": bonus, "face": face, "total": face + bonus, "dc": dc,
                "resisted": resists(face + bonus, dc, rules)}
        target = {"id": "bandit", "attack": None, "save": save}
        decl = {"actor": actor, "card": "stun-word", "targets": ["bandit"]}
    else:
        advantage = rng.random() < 0.2
        faces = [rng.randint(1, 20) for _ in range(2 if advantage else 1)]
        face, bonus, mod, ac = max(faces), rng.randint(2, 6), rng.randint(-4, 4), rng.randint(10, 18)
        attack = {"attribute": "fin", "bonus": bonus, "faces": faces, "face": face, "penalty": 0, "mod": mod,
                  "total": face + bonus + mod, "ac_kind": "physical", "ac": ac,
                  "hit": hits(face, face + bonus + mod, ac, rules)}
        target = {"id": "bandit", "attack": attack, "save": None}
        decl = {"actor": actor, "card": "strike", "targets": ["bandit"], "advantage": advantage}
    return {"command": "act", "actor": actor, "declaration": decl,
            "result": {"system": "d20-cards", "actor": actor, "card": decl["card"], "targets": [target]}}


MAKERS = {"narateer": _narateer_check, "d20-cards": _d20_check}


def write_log(camp: Path, count: int, seed: int = 7) -> Path:
    """Fill the campaign log of `camp` (a campaign of either game) with `count` checks, one JSON line each
    (store/loglines.py), every check's exact chance logged by the system's hook."""
    from narateer_cli.luck import annotate
    from narateer_cli.store.campaign import Campaign
    from narateer_cli.store.loglines import entry_line

    campaign = Campaign(camp)
    system, rules = campaign.system, campaign.rules
    make, rng = MAKERS[system.name], random.Random(seed)
    path = camp / "encounters" / "campaign.log.yaml"
    parent = None
    with open(path, "w", encoding="utf-8") as fh:
        for seq in range(1, count + 1):
            body = make(rng, rules)
            annotate(system, rules, body["result"], body["declaration"])
            entry = {"seq": seq, "id": f"{seq:012x}", "parent": parent, "at": "2026-01-01T00:00:00Z", **body}
            fh.write(entry_line(entry))
            parent = entry["id"]
    return path


def make_campaign(folder: Path, system: str, count: int) -> Path:
    subprocess.run([sys.executable, "-m", "narateer_cli", "init", str(folder), "--system", system, "--example"],
                   check=True, stdout=subprocess.DEVNULL)
    write_log(folder, count)
    return folder


def measure(camp: Path) -> tuple[float, float, dict]:
    """(seconds, peak MiB, the JSON record) of one `narateer stats --json` process over `camp`."""
    probe = ("import json, resource, subprocess, sys, time; t = time.perf_counter(); "
             "out = subprocess.run(sys.argv[1:], capture_output=True, text=True, check=True).stdout; "
             "print(json.dumps([time.perf_counter() - t, "
             "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, json.loads(out)]))")
    argv = [sys.executable, "-m", "narateer_cli", "--campaign", str(camp), "stats", "--json"]
    env = {k: v for k, v in os.environ.items() if k != "NARATEER_CAMPAIGN"}
    done = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True, env=env)
    if done.returncode:
        raise SystemExit(f"stats_scale: {done.stderr.strip()}")
    seconds, kib, record = json.loads(done.stdout)
    return seconds, kib / 1024, record


def main(argv: list[str]) -> None:
    sizes = [int(a) for a in argv] or [1000, 10_000, 100_000]
    print(f"{'system':<10} {'checks':>8} {'seconds':>8} {'peak MiB':>9}  percentile per actor")
    with tempfile.TemporaryDirectory(prefix="narateer-stats-") as scratch:
        for system in ("narateer", "d20-cards"):
            for size in sizes:
                camp = make_campaign(Path(scratch) / f"{system}-{size}", system, size)
                seconds, mib, record = measure(camp)
                pct = ", ".join(f"{r['actor']} {r['percentile']}" for r in record["actors"])
                print(f"{system:<10} {size:>8,} {seconds:>8.2f} {mib:>9.1f}  {pct}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
