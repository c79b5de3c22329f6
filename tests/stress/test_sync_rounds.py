"""H2-SCALE-1: merges exact at six clones, played in rounds.

Six clones of one bare repository. Each round a random clone runs one to three legal commands that change
counters outside any encounter (rolls that spend, damage, wounds, heals, points, refreshes), commits, pulls
(`git pull --no-rebase`, or in the other run `git pull --rebase`, which replays the clone's commits one by
one) and pushes. Nobody runs `reconcile` by hand: the next writer in a clone joins what the pull brought.
At the end one more writer runs and every clone pulls until all share one commit. Then:

- no pull of counters conflicted;
- every clone holds the same files, and `verify` and `check` are clean in every one;
- every counter on every sheet equals its start plus the change every command reported when it ran;
- every entry a command wrote is in the shared log.

A command that every clone's changes added up would take out of the range its game declares (two clones each
spending the last die, each healing the same missing hit point) is taken back (`undo`) by its player, as a
table would: crossing a range is H2-INV-1's case, tested below, and no counter here may end out of one.

The random choices are seeded, so every run plays the same game. `make test` plays a short game in each
game and pull mode, and each mechanism the long games found step by step on a few clones; `make soak`
(NARATEER_SOAK=1) plays six clones and at least 500 commands a game (merge and rebase together), checks the
game's invariants in every clone, and prints its figures (commands, conflicts, lost).
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from narateer_cli.api import open_campaign
from narateer_cli.errors import NarateerError

from .soak import amount
from .stats import add, put
from .test_sync import ENV, counters, files, git

CLONES = 6
MERGE_RULES = ("H-2", "H2-INV-1", "G-MERGE-1", "G-MERGE-2", "G-MERGE-3", "G-MERGE-4")
ROUNDS = amount(8, 0)  # `make test`: 8 rounds a game and pull mode
# `make soak`: rounds until each pull mode has played this many commands, so each game plays at least 500 (merge
# and rebase together); about 130 rounds a mode, 1.5 minutes of CPU each on the 2-core machine
SOAK_COMMANDS = amount(0, 250)

# Each game's characters whose counters the rounds change
GAMES = {
    "narateer": ["javi", "selka", "kai", "mira"],
    "open-adventure": ["ezarel", "amicus", "bloodwind", "warheart"],
    "d20-cards": ["mira", "tor", "bandit", "hexer"],
}


def command(game: str, rng: random.Random, char: str) -> str:
    """One command that changes counters of `char` outside any encounter: a roll that spends, damage or a
    wound, a heal, points, a refresh. It may be refused where it runs (no Ready die left): that is the game's."""
    if game == "narateer":
        return rng.choice([f"wound {char} 1", f"heal {char} 1", f"refresh {char}",
                           f"roll {char} athletics --dr 2 --faces {rng.choice('012')}"])
    if game == "open-adventure":
        pool = rng.choice(["body", "mind", "spirit"])
        return rng.choice([f"points {char} {pool} -1", f"points {char} {pool} +1", f"wound {char}", f"heal {char}",
                           f"roll {char} strength --stunt --ds 3 --faces {rng.randint(1, 5)}"])
    return rng.choice([f"damage {char} {rng.randint(1, 2)}", f"heal {char} {rng.randint(1, 2)}", f"refresh {char}"])


def new_entries(root: Path, sizes: dict) -> list[dict]:
    """The entries appended to the clone's logs since `sizes` (bytes per log)."""
    out = []
    for log in sorted((root / "encounters").glob("*.log.yaml")):
        with open(log, "rb") as fh:
            fh.seek(sizes.get(log.name, 0))
            tail = fh.read().decode("utf-8")
        out += [json.loads(line[2:]) for line in tail.splitlines() if line.startswith("- {")]
    return out


def log_sizes(root: Path) -> dict:
    return {log.name: log.stat().st_size for log in (root / "encounters").glob("*.log.yaml")}


class Table:
    """The clones, what each command reported, and the figures."""

    def __init__(self, tmp_path: Path, game: str, rebase: bool, seed: str, cast: int = 4, clones: int = CLONES):
        self.rng = random.Random(seed)
        self.cast = GAMES[game][:cast]
        self.game, self.rebase = game, rebase
        origin = tmp_path / "origin"
        from tests.conftest import run

        done = run(None, "init", str(origin), "--system", game, "--example", "--git", env=ENV)
        assert done.code == 0, done.err
        bare = tmp_path / "shared.git"
        git(tmp_path, "clone", "-q", "--bare", str(origin), str(bare))
        self.clones = []
        for n in range(clones):
            clone = tmp_path / f"clone{n}"
            git(tmp_path, "clone", "-q", str(bare), str(clone))
            open_campaign(clone).run("git-setup")
            self.clones.append(clone)
        from narateer_cli.systems import load_system

        self.system = load_system(game)
        self.start = counters(origin, self.system)
        self.reported: dict[str, dict] = {}  # entry id -> {(char, path): delta} the command reported
        self.problems: list[str] = []
        self.lost = 0  # entries of commands that ran and are not in the shared log at the end
        self.refusals: dict[str, int] = {}  # why commands were refused, how often
        self.figures = {"rounds": 0, "commands": 0, "refused": 0, "merges": 0, "merge entries": 0,
                        "rejected pushes": 0, "conflicts": 0, "taken back": 0}

    def act(self, clone: Path, line: str) -> bool:
        """Run one command in `clone` and keep what it reported (False: it was refused). When the clones'
        changes added up would take a counter out of its bounds, the player takes the command back (`undo`),
        as a table would."""
        self.figures["commands"] += 1
        if not self.run(clone, line):
            self.figures["refused"] += 1
            return False
        if self.out_of_bounds(clone):
            self.figures["taken back"] += 1
            assert self.run(clone, "undo"), f"{clone.name}: undo of {line} refused: {self.refusals}"
        return True

    def run(self, clone: Path, line: str) -> bool:
        """Run `line` in `clone`, keeping each entry's reported changes; False when it was refused (a
        legal refusal, exit 2 or 3, that wrote nothing), its message counted."""
        sizes = log_sizes(clone)
        try:
            open_campaign(clone).run(*line.split())
        except NarateerError as exc:
            assert exc.exit_code in (2, 3), (line, exc.line())
            # a writer never refuses for the merges: it joins them (a sheet behind its log, a merge that lost
            # a change); only the game's own rules refuse (no Ready die to pay with, no Wound to heal)
            if exc.rule in MERGE_RULES or "behind its log" in exc.line():
                self.problems.append(f"{clone.name}: {line}: {exc.line()}")
            self.refusals[exc.line()] = self.refusals.get(exc.line(), 0) + 1
            return False
        for entry in new_entries(clone, sizes):
            if entry.get("command") == "merge":
                self.figures["merge entries"] += 1
                continue
            deltas = {(cid, path): change["delta"] for cid, paths in (entry.get("changes") or {}).items()
                      for path, change in paths.items() if "delta" in change}
            self.reported[entry["id"]] = deltas
        return True

    def out_of_bounds(self, clone: Path) -> bool:
        """Would every clone's changes added up take a counter out of the range its game declares?"""
        from ruamel.yaml import YAML

        from narateer_cli.store import bounds

        table = bounds.declared(self.system)
        for (cid, path), value in self.truth().items():
            low, high = bounds.of(tuple(path.split(".")), table)
            if isinstance(high, str):
                doc = YAML(typ="safe").load((clone / "characters" / f"{cid}.yaml").read_text(encoding="utf-8"))
                high = bounds.highest(high, doc)
            if (low is not None and value < low) or (high is not None and value > high):
                return True
        return False

    def pull(self, clone: Path, where: str):
        mode = "--rebase" if self.rebase else "--no-rebase"
        done = git(clone, "pull", "-q", mode, "origin", "HEAD", check=False)
        if done.returncode != 0:
            self.figures["conflicts"] += 1
            status = git(clone, "status", "--porcelain", check=False).stdout
            self.problems.append(f"{where}: {clone.name}: git pull {mode} stopped: "
                                 f"{(done.stdout + done.stderr).strip()[-400:]} | {status.strip()}")
            git(clone, "rebase" if self.rebase else "merge", "--abort", check=False)
            git(clone, "reset", "-q", "--hard", "FETCH_HEAD")
            return
        self.figures["merges"] += git(clone, "rev-list", "--merges", "--count", "HEAD^!",
                                      check=False).stdout.strip() == "1"

    def push(self, clone: Path, where: str):
        for _ in range(20):
            if git(clone, "push", "-q", "origin", "HEAD", check=False).returncode == 0:
                return
            self.figures["rejected pushes"] += 1
            self.pull(clone, where)
        raise AssertionError(f"{clone.name}: push still rejected after 20 pulls")

    def commit(self, clone: Path, message: str):
        git(clone, "add", "-A")
        if git(clone, "status", "--porcelain").stdout.strip():
            git(clone, "commit", "-qm", message)

    def round(self, n: int):
        clone = self.rng.choice(self.clones)
        lines = [command(self.game, self.rng, self.rng.choice(self.cast))
                 for _ in range(self.rng.randint(1, 3))]
        for line in lines:
            self.act(clone, line)
        self.commit(clone, f"round {n}: {'; '.join(lines)}")
        self.pull(clone, f"round {n}")
        self.push(clone, f"round {n}")
        self.figures["rounds"] += 1
        return clone

    def end(self):
        """One more writer (on the shared campaign as it stands), then every clone pulls until all share one
        commit. A refused command writes nothing, its merge reconciliation included: the player plays another."""
        clone = self.rng.choice(self.clones)
        self.pull(clone, "end")
        for _ in range(20):
            if self.act(clone, command(self.game, self.rng, self.rng.choice(self.cast))):
                break
        self.commit(clone, "the last writer")
        self.push(clone, "end")
        for clone in self.clones:
            self.pull(clone, "end")
        heads = {git(c, "rev-parse", "HEAD").stdout for c in self.clones}
        assert len(heads) == 1, "the clones do not share one commit"

    def invariants(self) -> list[str]:
        """The game's invariants in every clone as it ends: every counter inside the range the game declares,
        on the sheet itself (`verify` and `check`, run by `verdict`, hold the uses per activation and the AP per
        turn the log's entries spent)."""
        from ruamel.yaml import YAML

        from narateer_cli.store import bounds

        table, out = bounds.declared(self.system), []
        for clone in self.clones:
            for (cid, path), value in counters(clone, self.system).items():
                low, high = bounds.of(tuple(path.split(".")), table)
                if isinstance(high, str):
                    sheet = (clone / "characters" / f"{cid}.yaml").read_text(encoding="utf-8")
                    high = bounds.highest(high, YAML(typ="safe").load(sheet))
                if (low is not None and value < low) or (high is not None and value > high):
                    out.append(f"{clone.name}: {cid}.{path} is {value}, outside [{low}, {high}]")
        return out

    def truth(self) -> dict:
        """Every counter's start plus every change a command reported."""
        total = dict(self.start)
        for deltas in self.reported.values():
            for key, delta in deltas.items():
                total[key] = total.get(key, 0) + delta
        return total

    def verdict(self, clones: list | None = None) -> list[str]:
        """What is wrong in `clones` (every clone, which must all hold the same files, by default)."""
        out = list(self.problems)
        if clones is None:
            clones = self.clones
            first = files(clones[0])
            out += [f"{c.name} differs from {clones[0].name}" for c in clones[1:] if files(c) != first]
        for clone in clones:
            camp = open_campaign(clone)
            for log in sorted((clone / "encounters").glob("*.log.yaml")):
                verified = camp.run("verify", log.name[: -len(".log.yaml")]).value
                if verified["ok"] is not True:
                    out.append(f"{clone.name}: verify {log.name}: {verified['problem']}")
            checked = camp.run("check").value
            if checked["ok"] is not True:
                out.append(f"{clone.name}: check: {checked['problems']}")
        logged = set()
        for log in (clones[0] / "encounters").glob("*.log.yaml"):
            logged |= {json.loads(line[2:]).get("id") for line in log.read_text(encoding="utf-8").splitlines()
                       if line.startswith("- {")}
        missing = sorted(set(self.reported) - logged)
        self.lost = len(missing)
        if missing:
            out.append(f"entries of commands that ran are not in the shared log: {missing}")
        now, truth = counters(clones[0], self.system), self.truth()
        off = {f"{c}.{p}": (truth.get((c, p)), v) for (c, p), v in now.items() if truth.get((c, p)) != v}
        if off:
            out.append(f"counters off the commands' sum (should be, is): {off}")
        return out


@pytest.mark.parametrize("rebase", [False, True], ids=["merge", "rebase"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_H2_SCALE_1_six_clones_in_rounds_stay_exact(tmp_path, game, rebase):
    started = time.monotonic()
    table = Table(tmp_path, game, rebase, f"rounds-{game}-{rebase}")
    n = 0
    while n < ROUNDS or table.figures["commands"] < SOAK_COMMANDS:
        n += 1
        table.round(n)
    table.end()
    found = table.verdict() + table.invariants()
    mode = "rebase" if rebase else "merge"
    put(f"sync rounds {game} {mode}: lost", table.lost)
    assert not found, "\n".join(found)
    for key, value in {"clones": CLONES, **table.figures}.items():
        put(f"sync rounds {game} {mode}: {key}", value)
    put(f"sync rounds {game} {mode}: seconds", round(time.monotonic() - started, 1))
    add("sync rounds: runs", 1)
    add(f"sync rounds {game}: commands", table.figures["commands"])


# The mechanisms the rounds found, each played out step by step on four clones (d20-cards: a damage is the
# same change however it is split, so two equal ones leave equal sheets).

def _lost_one(tmp_path: Path, rebase: bool) -> Table:
    """Clones a and b each deal mira 1 damage; b pulls: both sheets say HP 29, so git kept that without its
    driver, and the log's two entries say 28. Clones c and d pull that sheet, behind its log."""
    table = Table(tmp_path, "d20-cards", rebase, "steps", clones=4)
    a, b, c, d = table.clones
    for clone in (a, b):
        table.act(clone, "damage mira 1")
        table.commit(clone, f"{clone.name}: damage mira 1")
        table.pull(clone, "setup")
        table.push(clone, "setup")
    assert "current: 29" in (b / "characters" / "mira.yaml").read_text(encoding="utf-8")
    for clone in (c, d):
        table.pull(clone, "setup")
    return table


def _settle(table: Table) -> list[str]:
    """One more writer on the shared campaign, every clone pulled; what is wrong then."""
    table.end()
    return table.verdict()


@pytest.mark.parametrize("rebase", [False, True], ids=["merge", "rebase"])
def test_H2_SCALE_1_a_sheet_two_clones_both_set_to_the_log_is_looked_at_again(tmp_path, rebase):
    """c's writer sets mira back to 28 for a command on tor; d's does too, for a condition on mira (a change
    to mira's sheet, not to a counter). Joined, git's driver adds both corrections: 27. No branch moved mira's
    counters since the branches parted; the next writer still looks at her, as a merge entry set her sheet."""
    table = _lost_one(tmp_path, rebase)
    a, b, c, d = table.clones
    for clone, line in ((c, "damage tor 1"), (d, "condition mira +prone")):
        table.act(clone, line)
        table.commit(clone, line)
        table.pull(clone, "step")
        table.push(clone, "step")
    found = _settle(table)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("rebase", [False, True], ids=["merge", "rebase"])
def test_H2_SCALE_1_a_correction_counted_twice_below_zero_is_no_conflict(tmp_path, rebase):
    """c's writer sets mira back to 28; d's does too, then deals her 28 (HP 0). Joined, the driver's sum
    is -1 (the correction counted twice) where the commands give 0: no conflict, the sheet holds 0."""
    table = _lost_one(tmp_path, rebase)
    a, b, c, d = table.clones
    for clone, line in ((c, "damage tor 1"), (d, "damage mira 28")):
        table.act(clone, line)
        table.commit(clone, line)
        table.pull(clone, "step")
        table.push(clone, "step")
    assert not table.figures["conflicts"], table.problems
    found = _settle(table)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("rebase", [False, True], ids=["merge", "rebase"])
def test_H2_INV_1_two_heals_of_one_missing_hit_point_are_named_and_writers_refuse(tmp_path, rebase):
    """Mira has 29 of 30 HP; two clones each heal her 1. Each heal is legal where it ran; added up they pass
    the maximum the game declares (`hp.max`). Git kept one 30 (the same bytes on both sides), the log adds up
    to 31: `verify` and `check` name it, every writer and `reconcile` refuse with what to do, and write
    nothing."""
    table = Table(tmp_path, "d20-cards", rebase, "heal", clones=2)
    a, b = table.clones
    table.act(a, "damage mira 1")
    table.commit(a, "damage")
    table.push(a, "setup")
    table.pull(b, "setup")
    for clone in (a, b):
        assert table.run(clone, "heal mira 1")  # no player takes it back: each heal was legal where it ran
        table.commit(clone, "heal")
        table.pull(clone, "heal")
        table.push(clone, "heal")
    assert not table.problems, table.problems
    camp = open_campaign(b)
    verified = camp.run("verify", "campaign").value
    assert verified["ok"] is False and "past its highest, 30 (hp.max)" in str(verified["problem"])
    checked = camp.run("check").value
    assert checked["ok"] is False and any("past its highest" in str(p) for p in checked["problems"])
    before = files(b)
    for line in ("damage tor 1", "reconcile"):
        with pytest.raises(NarateerError) as refused:
            camp.run(*line.split())
        assert refused.value.exit_code == 3 and refused.value.rule == "H2-INV-1", refused.value.line()
        assert "ORIG_HEAD" in (refused.value.fix or "")
    assert files(b) == before


@pytest.mark.parametrize("rebase", [False, True], ids=["merge", "rebase"])
def test_H2_INV_1_proactive_uses_of_two_clones_join_as_counters(tmp_path, rebase):
    """In Selka's activation (3 Stealth uses) one clone makes one Stealth check and another two: the
    encounter state's uses left join as a counter (3 - 1 - 2 = 0), where the pull stopped on a conflict before,
    and a fourth check is refused."""
    table = Table(tmp_path, "narateer", rebase, "uses", clones=2)
    a, b = table.clones
    for line in ("encounter new brawl selka kai", "turn start selka"):
        assert table.run(a, line)
    table.commit(a, "brawl")
    table.push(a, "setup")
    table.pull(b, "setup")
    for clone, checks in ((a, 1), (b, 2)):
        for _ in range(checks):
            assert table.run(clone, "roll selka stealth --dr 2 --faces 2 --force")
        table.commit(clone, f"{checks} checks")
        table.pull(clone, "checks")
        table.push(clone, "checks")
    assert not table.problems, table.problems
    assert "stealth: 0" in (b / "encounters" / "brawl.yaml").read_text(encoding="utf-8")
    with pytest.raises(NarateerError) as refused:
        open_campaign(b).run("roll", "selka", "stealth", "--dr", "2", "--faces", "2")
    assert refused.value.rule == "R-ACT-4", refused.value.line()
    table.commit(b, "the join of the branches its first writer logged")
    found = _settle(table)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("rebase", [False, True], ids=["merge", "rebase"])
def test_H2_INV_1_a_use_past_the_limit_that_two_clones_made_together_is_named(tmp_path, rebase):
    """Two clones each make one Stealth check in Selka's activation (3 uses): the two states are the same
    bytes, so git keeps one count (2 left where 1 is). Two more checks then pass, the fourth past the limit:
    `verify` and `check` name it, as the log holds every branch's checks once."""
    table = Table(tmp_path, "narateer", rebase, "uses", clones=2)
    a, b = table.clones
    for line in ("encounter new brawl selka kai", "turn start selka"):
        assert table.run(a, line)
    table.commit(a, "brawl")
    table.push(a, "setup")
    table.pull(b, "setup")
    for clone in (a, b):
        assert table.run(clone, "roll selka stealth --dr 2 --faces 2 --force")
        table.commit(clone, "a check")
        table.pull(clone, "checks")
        table.push(clone, "checks")
    camp = open_campaign(b)
    assert table.run(b, "roll selka stealth --dr 2 --faces 2 --force")  # its writer joins the branches first
    assert camp.run("verify", "brawl").value["ok"] is True  # three uses of three
    assert table.run(b, "roll selka stealth --dr 2 --faces 2 --force")
    verified = camp.run("verify", "brawl").value
    assert verified["ok"] is False and "proactive stealth use 4 in one activation, where the limit is 3" in str(
        verified["problem"]), verified
    checked = camp.run("check").value
    assert checked["ok"] is False and any("proactive stealth use 4" in str(p) for p in checked["problems"])
