"""Long encounter logs for memory and scale checks, in each game.

A short real log is played with the game's own commands; its last entries form
a cycle that leaves every counter where it found it (a roll or an act, then
what readies the dice or AP again). `grow` repeats that cycle, each copy with
its own seq, id and parent, so a log of any length verifies like a played one.
"""

from __future__ import annotations

import json
from pathlib import Path

from narateer_cli.store.loglines import entry_line

from .conftest import ok, run

# (init arguments, commands played before the cycle, commands of the cycle); the cycle ends as it began
PLAYS = {
    "narateer": (
        ["--example"],
        [("encounter", "new", "fight", "selka", "sentry"), ("turn", "start", "selka")],
        [("--seed", "1", "roll", "selka", "observation", "--dr", "3", "--force"), ("turn", "end"), ("turn", "start", "sentry"),
         ("turn", "end"), ("turn", "start", "selka")],
    ),
    "open-adventure": (
        ["--system", "open-adventure", "--example"],
        [("encounter", "new", "fight", "amicus", "goblin", "--reaction", "amicus=10")],
        [("turn", "start", "amicus"), ("--seed", "1", "roll", "amicus", "strength", "--ds", "9"), ("turn", "end"),
         ("turn", "start", "goblin"), ("turn", "end")],
    ),
    "d20-cards": (
        ["--system", "d20-cards", "--example"],
        [("encounter", "new", "fight", "mira", "bandit"), ("turn", "start", "mira")],
        [("act", "mira", "strike", "--target", "bandit", "--faces", "2"), ("refresh", "mira")],
    ),
}
LOG = "encounters/fight.log.yaml"


class BigLog:
    """A fresh example campaign of `system` at `root` with encounter `fight` current, played up to the end of
    one cycle; `grow(count)` then gives its log `count` entries."""

    def __init__(self, root: Path, system: str):
        init, before, cycle = PLAYS[system]
        result = run(None, "init", str(root), *init)
        assert result.code == 0, result.err
        for args in before + cycle:
            ok(root, *args)
        self.root, self.path, self.size = root, root / LOG, len(cycle)
        self.lines = self.path.read_text(encoding="utf-8").splitlines()

    def grow(self, count: int) -> Path:
        """The log rewritten to hold `count` entries: its head, then its last cycle repeated; every entry
        gets a fresh seq, id and parent, as if each had been appended in turn."""
        head = self.lines[:-self.size]
        cycle = [json.loads(line[2:]) for line in self.lines[-self.size:]]
        parent = None
        with open(self.path, "w", encoding="utf-8") as fh:
            for seq in range(1, count + 1):
                if seq <= len(head):
                    entry = json.loads(head[seq - 1][2:])
                else:
                    entry = cycle[(seq - len(head) - 1) % self.size]
                entry = {**entry, "seq": seq, "id": f"{seq:012x}", "parent": parent}
                fh.write(entry_line(entry))
                parent = entry["id"]
        return self.path
