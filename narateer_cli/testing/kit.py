"""The conformance kit's machinery: play a game through its command line, compare bytes.

The kit treats a game as a black box: it runs `narateer` in this process (the real entry point,
`narateer_cli.cli.main`, so exit statuses, stdout and stderr are what a player sees) and git in
subprocesses, and it reads only what lands on disk. A game tells it how to play through a script
(`Script`): commands that are legal in the game's example campaign.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..systems import SHARED

# the shared verbs every game answers, each through its own system (the host's own list)
SHARED_VERBS = tuple(SHARED)
PRIVATE_FOLDER = ".narateer"


@dataclass(frozen=True)
class Script:
    """How to play a game in its example campaign (`narateer init DIR --system NAME --example`).

    setup    commands played once after init, each exits 0 (start an encounter, a turn ...)
    counter  one command that exits 0 and changes a counter on a sheet (a spend, harm, XP)
    secret   one command whose roll is sealed (`--secret`, or a `guide: true` actor); give no
             faces, so that the kit's seeds vary its dice
    refused  commands the rules refuse, each exit 2 or 3
    more     further commands that exit 0 and log an entry
    given    whether the game gave a script: False only for the empty one the kit plays a game without a
             `conformance` hook with (every check that needs a command is skipped, `not provided`)
    Each command is a list of words or one string split as a shell would.
    """

    setup: tuple = ()
    counter: tuple | None = None
    secret: tuple | None = None
    refused: tuple = ()
    more: tuple = ()
    given: bool = True

    @classmethod
    def of(cls, data) -> Script:
        """A Script from a mapping (or a Script); every command as a tuple of words."""
        if isinstance(data, Script):
            return data
        unknown = sorted(set(data) - {"setup", "counter", "secret", "refused", "more"})
        if unknown:
            raise ValueError(f"unknown script key {unknown[0]!r} (known: setup counter secret refused more)")
        one = {k: _words(data[k]) if data.get(k) else None for k in ("counter", "secret")}
        many = {k: tuple(_words(c) for c in data.get(k) or ()) for k in ("setup", "refused", "more")}
        return cls(**one, **many)

    def actions(self) -> list[tuple]:
        """Every command of the script that writes: the counter, the secret and the rest."""
        return [c for c in (self.counter, self.secret) if c] + list(self.more)


def _words(command) -> tuple:
    return tuple(shlex.split(command)) if isinstance(command, str) else tuple(str(w) for w in command)


@dataclass(frozen=True)
class Verdict:
    """One check's answer for one game: status is pass, fail or skip."""

    check: str
    status: str
    message: str = ""

    def line(self, name: str) -> str:
        return f"{name}: {self.check}: {self.status}" + (f": {self.message}" if self.message else "")


class Failed(Exception):
    """A check found a problem; its text is the one line the kit reports."""


class Skipped(Exception):
    """A check cannot run for this game (the script does not provide what it needs)."""


@dataclass
class Ran:
    code: int
    out: str
    err: str

    @property
    def json(self):
        return json.loads(self.out)

    def say(self) -> str:
        """The exit status and the last line said: stderr's whole (narateer's one-line message, what went
        wrong and how to mend it), else stdout's, cut at 300 characters (a JSON answer can be long)."""
        text = (self.err or self.out).strip().splitlines()
        last = (text[-1] if self.err.strip() else text[-1][:300]) if text else ""
        return f"exit {self.code}" + (f" ({last})" if last else "")


def narateer(root: Path | None, *args: str) -> Ran:
    """Run one narateer command in this process, in campaign `root`."""
    from ..cli import main

    argv = (["--campaign", str(root)] if root is not None else []) + [str(a) for a in args]
    out, err, code = io.StringIO(), io.StringIO(), 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    return Ran(code, out.getvalue(), err.getvalue())


def git(cwd: Path, *args: str) -> str:
    """Run git in a subprocess; its merge driver (a narateer subprocess) sees this interpreter's path."""
    env = {**os.environ, "GIT_AUTHOR_NAME": "kit", "GIT_AUTHOR_EMAIL": "kit@example.org",
           "GIT_COMMITTER_NAME": "kit", "GIT_COMMITTER_EMAIL": "kit@example.org",
           "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=120)
    if done.returncode != 0:
        raise Failed(f"git {' '.join(args)} exited {done.returncode}: {done.stderr.strip()[:300]}")
    return done.stdout


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file's bytes under the campaign, leaving out the private folder and git's own."""
    out = {}
    for path in sorted(root.rglob("*")):
        parts = path.relative_to(root).parts
        if path.is_file() and PRIVATE_FOLDER not in parts and parts[0] != ".git":
            out["/".join(parts)] = path.read_bytes()
    return out


def changed(before: dict, after: dict) -> list[str]:
    """Files made, removed or edited between two snapshots."""
    return sorted(name for name in set(before) | set(after) if before.get(name) != after.get(name))


def grown_log(before: dict, after: dict) -> str | None:
    """The log file an action appended to (its old bytes are a prefix of the new)."""
    for name in changed(before, after):
        if name.endswith(".log.yaml") and after.get(name, b"").startswith(before.get(name, b"")):
            return name
    return None


def log_entries(text: str) -> list[tuple[int, dict]]:
    """(line number, entry) for each line of a log: `- {json}`."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("- {"):
            out.append((number, json.loads(line[2:])))
    return out


@dataclass
class Kit:
    """The kit for one installed game; `workdir` holds its campaigns (one fresh copy per check)."""

    name: str
    workdir: Path
    script: Script = field(default=None)
    _template: Path | None = None
    _copies: int = 0

    def __post_init__(self):
        if self.script is None:
            self.script = script_for(self.system())

    def system(self):
        from ..systems import load_system

        return load_system(self.name)

    def fresh(self) -> Path:
        """A new copy of the example campaign with the script's setup played."""
        if self._template is None:
            self._template = self._build(self.workdir / "template")
        self._copies += 1
        root = self.workdir / f"camp{self._copies}"
        shutil.copytree(self._template, root, ignore=shutil.ignore_patterns(PRIVATE_FOLDER))
        return root

    def _build(self, root: Path) -> Path:
        r = narateer(None, "init", str(root), "--system", self.name, "--example")
        if r.code != 0:
            raise Failed(f"init --system {self.name} --example: {r.say()}")
        for command in self.script.setup:
            self.play(root, command, "setup")
        return root

    def play(self, root: Path, command: tuple, what: str, *options: str) -> Ran:
        """Run a script command that must exit 0."""
        r = narateer(root, *options, *command)
        if r.code != 0:
            raise Failed(f"{what} `{' '.join(command)}`: {r.say()}")
        return r


def script_for(system) -> Script:
    """The game's script: its `conformance` hook (a Script, a mapping, or a function returning one), else an
    empty script (the checks that need one say `not provided`)."""
    hooked = system.hook("conformance")
    if hooked is not None:
        return Script.of(hooked() if callable(hooked) else hooked)
    return Script(given=False)
