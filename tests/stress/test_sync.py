"""H-3: sync at scale. For each game, clones of one bare repository play random legal commands that change
counters, commit, pull (the merge driver in use) and push, retrying a rejected push. After a last pull
round every clone holds identical files, `verify` and `check` are clean everywhere, and every counter
equals its start plus the sum of every logged change (H-2: the log is the truth for counters). Two sides
that spend what was there once (a counter below 0) conflict, never sum in silence: that player drops their
unpushed actions, as a table would.

About half the pulls are reconciled before the clone pushes, as the README says; the others are a plain
`git pull && git push`, so forks go out unreconciled and other clones reconcile them later, several at once,
inside larger forks (H-2: each entry's change counts once however many merges hold it). A plain pull whose
merge spent the same dice twice without a conflict (both sides wrote the same sheet bytes, so git never ran
the driver) is what `narateer check` names; that player takes the merge back, as a table would. The random
choices are seeded: every run plays the same game. `make test` plays 3 clones a few rounds; `make soak` plays
6 clones and hundreds of commands and prints its figures (clones, commands, merges, forks pushed
unreconciled, conflicts, seconds, lost).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from narateer_cli.api import open_campaign
from narateer_cli.errors import NarateerError

from .soak import amount
from .stats import add, put

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

CLONES = amount(3, 6)
COMMANDS = {"narateer": amount(32, 500), "open-adventure": amount(24, 250), "d20-cards": amount(24, 250)}
# legal counter changes on each game's example sheets (a refusal, exit 3, changes nothing and is skipped)
PLAYS = {
    "narateer": (["selka", "mira", "kai", "sentry"], ["wound {c} 1", "heal {c} 1", "refresh {c}"]),
    "open-adventure": (["amicus", "bloodwind", "warheart"],
                       ["points {c} body -1", "points {c} mind +1", "points {c} spirit -1", "wound {c}", "heal {c}"]),
    "d20-cards": (["mira", "tor", "bandit"], ["damage {c} 1", "heal {c} 1", "refresh {c}"]),
}
ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
       "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_TERMINAL_PROMPT": "0"}


def git(cwd: Path, *args, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env={**os.environ, **ENV},
                          timeout=120)
    assert not check or done.returncode == 0, (cwd.name, args, done.stdout, done.stderr)
    return done


def play(root: Path, line: str) -> bool:
    """Run one command in process (the CLI's path); False when it was refused (nothing written)."""
    try:
        open_campaign(root).run(*line.split())
        return True
    except NarateerError as exc:
        assert exc.exit_code in (2, 3), (line, exc.line())  # a heal past 0 Wounds is bad input in one game
        return False


def commit(root: Path, message: str) -> bool:
    git(root, "add", "-A")
    if not git(root, "status", "--porcelain").stdout.strip():
        return False
    git(root, "commit", "-qm", message)
    return True


def pull(root: Path, figures: dict, reconcile: bool = True):
    """`git pull`, then `narateer reconcile` and a commit of what it wrote; or, when not `reconcile`, nothing
    more (a plain `git pull && git push`): the fork goes out as git left it and another clone's first writer
    reconciles it (H-2), maybe several clones at once, maybe inside a larger fork."""
    done = git(root, "pull", "-q", "--no-rebase", "origin", "HEAD", check=False)
    if done.returncode != 0:
        # two sides spent what was there once (a counter below 0): the driver conflicts, never sums in
        # silence; this player drops their unpushed actions and takes the shared campaign (G-MERGE-1)
        assert "CONFLICT" in done.stdout + done.stderr, (root.name, done.stdout, done.stderr)
        figures["conflicts"] += 1
        figures["dropped commits"] += int(git(root, "rev-list", "--count", "MERGE_HEAD..HEAD").stdout)
        git(root, "merge", "--abort")
        git(root, "reset", "-q", "--hard", "FETCH_HEAD")
    merged = git(root, "rev-list", "--merges", "--count", "HEAD^!", check=False).stdout.strip() == "1"
    figures["merges"] += merged
    if not reconcile:
        if merged and spent_twice(root):
            take_back(root, figures)
        elif merged:
            figures["forks pushed unreconciled"] += 1
        return
    if not play(root, "reconcile"):  # both sides spent the same last die, and git saw identical sheets
        take_back(root, figures)
        return
    if commit(root, "reconcile"):  # H-2, as the README says: pull, then reconcile
        figures["merge entries"] += 1


def spent_twice(root: Path) -> bool:
    """What `narateer check` (it writes nothing) says of a merge git made without a word: both sides spent
    what was there once, and wrote the same sheet bytes, so git never ran the driver (G-MERGE-1). Nothing can
    reconcile it, so it is not pushed."""
    problems = open_campaign(root).run("check").value["problems"]
    return any("both spent" in str(problem) for problem in problems)


def take_back(root: Path, figures: dict):
    """G-MERGE-1: no sheet is right after the merge: the player takes it back, drops their unpushed actions
    and takes the shared campaign, as a table would."""
    figures["conflicts"] += 1
    git(root, "reset", "-q", "--hard", "ORIG_HEAD")
    figures["dropped commits"] += int(git(root, "rev-list", "--count", "FETCH_HEAD..HEAD").stdout)
    git(root, "reset", "-q", "--hard", "FETCH_HEAD")


def push(root: Path, figures: dict, reconcile: bool = True):
    for _ in range(20):
        if git(root, "push", "-q", "origin", "HEAD", check=False).returncode == 0:
            return
        figures["rejected pushes"] += 1
        pull(root, figures, reconcile)
    raise AssertionError(f"{root.name}: push still rejected after 20 pulls")


def counters(root: Path, system) -> dict:
    """{(character, key path): value} of every counter on every sheet."""
    from ruamel.yaml import YAML

    out = {}
    for sheet in sorted((root / "characters").glob("*.yaml")):
        doc = YAML(typ="safe").load(sheet.read_text(encoding="utf-8"))
        for path in system.counters:
            keys = path.split(".")
            node = doc
            for key in keys[:-1]:
                node = node.get(key) if isinstance(node, dict) else None
            if isinstance(node, dict):
                found = node.items() if keys[-1] == "*" else [(keys[-1], node.get(keys[-1]))]
                for key, value in found:
                    if isinstance(value, int) and not isinstance(value, bool):
                        out[(sheet.stem, ".".join([*keys[:-1], key]))] = value
    return out


def logged_deltas(root: Path) -> dict:
    """The sum of every logged counter change, {(character, key path): delta}, from each entry's `changes`."""
    total = {}
    for log in sorted((root / "encounters").glob("*.log.yaml")):
        for line in log.read_text(encoding="utf-8").splitlines():
            if not line.startswith("- {"):
                continue
            for cid, paths in (json.loads(line[2:]).get("changes") or {}).items():
                for path, change in paths.items():
                    if "delta" in change:
                        total[(cid, path)] = total.get((cid, path), 0) + change["delta"]
    return total


def shapes(root: Path) -> dict:
    """What the merges came to in the logs: merge entries that join three tips or more, merge entries whose
    branches hold an earlier merge entry the parent's branch does not (forks within forks), and merge lines
    git's union merge kept twice (two clones wrote the same line)."""
    out = {"merge entries joining 3+ tips": 0, "merge entries over earlier merges": 0, "merge lines kept twice": 0}
    for log in sorted((root / "encounters").glob("*.log.yaml")):
        entries, seen = {}, set()
        for line in log.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line[2:]) if line.startswith("- {") else {}
            if entry.get("command") != "merge":
                entries[entry.get("id")] = entry
                continue
            if entry["id"] in seen:
                out["merge lines kept twice"] += 1
                continue
            seen.add(entry["id"])
            out["merge entries joining 3+ tips"] += len(entry["merges"]) >= 2
            out["merge entries over earlier merges"] += any(entries.get(t, {}).get("command") == "merge"
                                                            for t in entry["merges"])
            entries[entry["id"]] = entry
    return out


def files(root: Path) -> dict:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".git" not in p.parts}


@pytest.mark.parametrize("game", sorted(PLAYS))
def test_H_3_clones_that_push_and_pull_end_identical_and_exact(tmp_path, game):
    from narateer_cli.systems import load_system

    started = time.monotonic()
    rng = random.Random(f"sync-{game}")
    origin = tmp_path / "origin"
    assert play_init(origin, game)
    bare = tmp_path / "shared.git"
    git(tmp_path, "clone", "-q", "--bare", str(origin), str(bare))
    clones = []
    for n in range(CLONES):
        clone = tmp_path / f"clone{n}"
        git(tmp_path, "clone", "-q", str(bare), str(clone))
        open_campaign(clone).run("git-setup")
        clones.append(clone)
    system = load_system(game)
    start = counters(origin, system)
    figures = {"merges": 0, "merge entries": 0, "forks pushed unreconciled": 0, "conflicts": 0,
               "dropped commits": 0, "rejected pushes": 0, "commands": 0, "refused": 0}
    chars, verbs = PLAYS[game]
    for step in range(COMMANDS[game]):
        clone = rng.choice(clones)
        line = rng.choice(verbs).format(c=rng.choice(chars))
        figures["commands"] += 1
        if not play(clone, line):
            figures["refused"] += 1
        commit(clone, f"{clone.name}: {line}")
        if rng.random() < 0.35:
            reconcile = rng.random() < 0.5  # else a plain `git pull && git push`
            pull(clone, figures, reconcile)
            push(clone, figures, reconcile)
    for _ in range(2):  # the last rounds: everyone pulls, reconciles and pushes what that made
        for clone in clones:
            pull(clone, figures)
            push(clone, figures)
    for clone in clones:
        pull(clone, figures)
    first = files(clones[0])
    for clone in clones[1:]:
        assert files(clone) == first, f"{clone.name} differs from {clones[0].name}"
    for clone in clones:
        camp = open_campaign(clone)
        for log in sorted((clone / "encounters").glob("*.log.yaml")):
            enc = log.name[: -len(".log.yaml")]
            verified = camp.run("verify", enc).value
            assert verified["ok"] is True, (clone.name, enc, verified["problem"])
        checked = camp.run("check").value
        assert checked["ok"] is True, (clone.name, checked["problems"])
    now, deltas = counters(clones[0], system), logged_deltas(clones[0])
    lost = {key: (start.get(key, 0), deltas.get(key, 0), value) for key, value in now.items()
            if start.get(key, 0) + deltas.get(key, 0) != value}
    assert not lost, f"counters that are not start + every logged change: {lost}"
    assert figures["forks pushed unreconciled"], "the seeded game pushed no fork unreconciled: it tests less than it says"
    seconds = time.monotonic() - started
    for key, value in {"clones": CLONES, **figures, **shapes(clones[0]), "lost": len(lost)}.items():
        put(f"sync {game}: {key}", value)
    put(f"sync {game}: seconds", round(seconds, 1))
    add("sync: games", 1)


def play_init(root: Path, game: str) -> bool:
    from tests.conftest import run

    r = run(None, "init", str(root), "--system", game, "--example", "--git", env=ENV)
    assert r.code == 0, r.err
    return True
