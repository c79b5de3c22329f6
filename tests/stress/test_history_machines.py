"""H-1: after any sequence of commands that exited 0, in any game, `verify` and `check` report nothing; and
a hand edit of a logged value is caught.

One Hypothesis state machine per game drives random commands through the CLI in process (checks,
`--apply`, reactions, conditions, turns, undo, secret rolls and unveil, encounter new and end), accepting
whatever the rules say (0, or a refusal: 2 or 3, which changes nothing). After every step every log
verifies and `check` is clean. At the end the newest logged counter is edited by hand, and verify or
check catches it. `make test` plays a few short sequences; `make soak` many longer ones.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, Phase, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, rule

from tests.conftest import run

from . import soak, stats

PHASES = [p for p in Phase if p is not Phase.shrink or os.environ.get("NARATEER_SHRINK")]
SETTINGS = settings(max_examples=soak.amount(3, 30), stateful_step_count=soak.amount(12, 30), deadline=None,
                    database=None, phases=PHASES, derandomize=soak.DERANDOMIZE,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

GAMES = {
    "narateer": {
        "chars": ["selka", "sentry", "mira", "bandit"],
        "setup": ["encounter new brawl selka sentry mira bandit"],
        "plays": ["turn start {c}", "turn end", "turn end --next {d}", "roll {c} stealth --dr 2 --force",
                  "roll {c} melee --dr 3 --boost 1 --force", "roll {c} observation --dr 2 --reaction --force",
                  "exchange {c} {d} --response guard --apply", "exchange {c} {d} --response clash --apply",
                  "exchange {c} {d} --response none", "wound {c} 1", "heal {c} 1", "refresh {c}",
                  "condition {c} +slowed", "condition {c} -slowed", "hide {c} --from {d}", "search {c} --for {d}",
                  "move {c} 2", "roll {c} stealth --dr 2 --secret --force", "unveil --all", "undo", "undo",
                  "encounter end", "encounter new e{n} {c} {d}"],
    },
    "open-adventure": {
        "chars": ["amicus", "bloodwind", "warheart", "orc", "goblin"],
        "setup": ["encounter new gate warheart amicus orc goblin --reaction warheart=9 --reaction amicus=7"],
        "plays": ["turn start", "turn start {c}", "turn end", "turn end --next {c}", "turn minor",
                  "roll {c} strength --ds 7", "roll {c} body --ds 5", "roll {c} spear --vs {d}:body",
                  "points {c} body -1", "points {c} mind +1", "wound {c}", "heal {c}", "condition {c} +prone",
                  "condition {c} -prone", "resolve {c} --intent x --auto", "roll {c} strength --ds 9 --secret",
                  "unveil --all", "undo", "undo", "encounter end"],
    },
    "d20-cards": {
        "chars": ["mira", "tor", "bandit", "hexer"],
        "setup": ["encounter new fight mira tor bandit hexer"],
        "plays": ["turn start {c}", "turn end", "turn end --next {c}", "act {c} strike --target {d}",
                  "act {c} quiet-knife --target {d}", "damage {c} 2", "heal {c} 2", "refresh {c}",
                  "condition {c} +slowed", "condition {c} -slowed", "rest {c} --proper", "elapse 10m", "drop {c}",
                  "dice 2d6 --secret", "unveil --all", "undo", "undo", "encounter end"],
    },
}


def machine(game: str):
    spec = GAMES[game]

    class HistoryMachine(RuleBasedStateMachine):
        def __init__(self):
            super().__init__()
            self.tmp = Path(tempfile.mkdtemp(prefix="narateer-h1-"))
            self.root = self.tmp / "camp"
            r = run(None, "init", str(self.root), "--system", game, "--example")
            assert r.code == 0, r.err
            for line in spec["setup"]:
                assert run(self.root, *line.split()).code == 0, line
            self.played = []

        @rule(play=st.sampled_from(spec["plays"]), c=st.sampled_from(spec["chars"]),
              d=st.sampled_from(spec["chars"]), seed=st.integers(0, 99), n=st.integers(1, 9))
        def one_command(self, play, c, d, seed, n):
            line = play.format(c=c, d=d, n=n)
            argv = line.split()
            if argv[0] not in ("undo", "unveil", "encounter", "turn"):
                argv += ["--seed", str(seed)]
            r = run(self.root, *argv)
            self.played.append((" ".join(argv), r.code))
            stats.add(f"history machine {game}: commands run")
            assert "Traceback" not in r.err and "internal error" not in r.err, (self.played, r.err)
            assert r.code in (0, 2, 3), (self.played, r.err)
            if r.code:
                stats.add(f"history machine {game}: refused")
                return
            self.clean()

        def clean(self):
            """H-1: every log verifies and check reports nothing."""
            for log in sorted((self.root / "encounters").glob("*.log.yaml")):
                r = run(self.root, "--json", "verify", log.name[: -len(".log.yaml")])
                if not (r.code == 0 and r.json["ok"]):
                    self.dump()
                assert r.code == 0 and r.json["ok"], (self.played, r.out, r.err, log.name)
            r = run(self.root, "--json", "check")
            if r.code:
                self.dump()
            assert r.code == 0, (self.played, r.out)

        def dump(self):
            """The sequence that broke the history, whole, for a reproduction (`narateer-h1-<game>.txt`)."""
            out = Path(tempfile.gettempdir()) / f"narateer-h1-{game}.txt"
            out.write_text("\n".join(f"{code} {line}" for line, code in self.played) + "\n", encoding="utf-8")

        def teardown(self):
            try:
                if self.played and any(code == 0 for _, code in self.played):
                    self.stats_read_every_check()
                    self.edited_value_is_caught()
            finally:
                shutil.rmtree(self.tmp, ignore_errors=True)

        def stats_read_every_check(self):
            """`stats` parses only the lines that hold one of the game's `check_marks` (or the host's), and
            on two cores cuts the logs in two: both give what one pass over every line gives."""
            from narateer_cli import luck, luck_scan
            from narateer_cli.store.campaign import Campaign

            camp = Campaign(self.root)
            every_line = luck.stats_record(luck.campaign_entries(self.root, None, camp.system), camp.system, camp.rules)
            r = run(self.root, "--json", "stats")
            assert r.code == 0 and r.json == every_line, (self.played, r.out)
            saved = luck_scan.MIN_BYTES
            luck_scan.MIN_BYTES = 0
            try:
                assert luck_scan.campaign_stats(self.root, camp.system, camp.rules) == every_line, self.played
            finally:
                luck_scan.MIN_BYTES = saved

        def edited_value_is_caught(self):
            """A hand edit of the newest logged counter (one number in the last entry's `dice` after) is a
            problem verify or check names."""
            logs = sorted((self.root / "encounters").glob("*.log.yaml"), key=lambda p: p.stat().st_mtime_ns)
            if not logs:
                return
            log = logs[-1]
            lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
            entry = json.loads(lines[-1][2:]) if lines and lines[-1].startswith("- {") else {}
            moved = [(cid, m) for cid, m in (entry.get("dice") or {}).items() if isinstance(m, dict)
                     and m.get("after") != m.get("before")
                     and any(isinstance(v, int) for v in (m.get("after") or {}).values())]
            if not moved or "commitment" in entry or entry.get("command") in ("undo", "merge"):
                return
            cid, move = moved[0]
            key = next(k for k, v in move["after"].items() if isinstance(v, int))
            move["after"][key] += 7
            lines[-1] = "- " + json.dumps(entry, ensure_ascii=False) + "\n"
            log.write_text("".join(lines), encoding="utf-8")
            enc = log.name[: -len(".log.yaml")]
            caught = run(self.root, "verify", enc).code == 1 or run(self.root, "check").code == 1
            assert caught, (self.played, log.name)
            stats.add(f"history machine {game}: hand edits caught")

    HistoryMachine.TestCase.settings = SETTINGS
    return HistoryMachine


NarateerHistory = machine("narateer")
OpenAdventureHistory = machine("open-adventure")
D20History = machine("d20-cards")

TestNarateerHistory = NarateerHistory.TestCase
TestOpenAdventureHistory = OpenAdventureHistory.TestCase
TestD20History = D20History.TestCase
