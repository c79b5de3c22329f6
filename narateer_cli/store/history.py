"""The shape of a log as history (G-LOG-2, G-MERGE-2): ids, parents, forks, merge entries
and the continuity of every character's dice along each branch.

A log is read one line at a time (store/loglines.py). Each entry continues
from its parent: normally the line before it, but after git joined two
branches of play two entries share a parent (a fork), and a `merge` entry
later names the other branch tips and the dice every character holds once
the branches are added together (the fork's base plus each branch's change).
What this module keeps grows with the number of entries only by a set of ids
and a parent map; dice snapshots are kept for the newest entries only.
"""

from __future__ import annotations

from collections import OrderedDict

from . import loglines

SNAPSHOTS = 4096  # dice snapshots kept for the newest entries (a fork's base is normally near the tips)


def _held(dice: dict) -> dict:
    return {state: count for state, count in (dice or {}).items() if count}


class History:
    """Walks a log's entries in order; `problem` is the first thing wrong (with its line)."""

    def __init__(self, label: str, entry_problem=None, continuity: bool = True):
        self.label = label
        self.continuity = continuity  # off for the campaign log: characters also change in encounters between its entries
        self.entry_problem = entry_problem  # the rule system's own per-entry check
        self.count = 0
        self.parents: dict[str, str | None] = {}
        self.snapshots: OrderedDict = OrderedDict()
        self.tips: list[str] = []
        self.previous: str | None = None
        self.previous_seq = 0
        self.problem = None  # a store.schema.Problem: file, line, entry id, message
        self.entry = ""  # the id of the entry being read
        self.first_before: dict[str, dict] = {}  # each character's dice before the log first touched them
        self.last_after: dict[str, tuple] = {}  # char -> (dice, line, entry id, at)

    def fail(self, line: int, text: str):
        if self.problem is None:
            from .schema import Problem

            self.problem = Problem(self.label, line, self.entry, text)

    def add(self, line: int, entry: dict):
        self.count += 1
        eid = self.entry = loglines.entry_id(entry)
        where = f"entry {entry.get('seq')} ({entry.get('command')})"
        if eid in self.parents:
            return self.fail(line, f"{where}: id {eid} appears twice")
        if "parent" in entry:
            parent = entry["parent"]
            if parent is not None and parent not in self.parents:
                return self.fail(line, f"{where}: parent {parent} is not an earlier entry")
            base = self._snapshot(parent)
        else:  # from before ids: the line before it, unless git's union merge joined two branches
            parent = self.previous
            old_fork = isinstance(entry.get("seq"), int) and entry["seq"] <= self.previous_seq
            base = {} if old_fork else self._snapshot(parent)
        if self.entry_problem is not None:
            found = self.entry_problem(entry)
            if found:
                return self.fail(line, found)
        if entry.get("command") == "merge":
            after = self._merge(line, where, entry, parent, base)
        else:
            after = self._continue(line, where, entry, base)
        self._advance(eid, parent, entry, after)

    def _advance(self, eid: str, parent, entry: dict, after):
        """Record entry `eid` as read: it replaces the tips it continues or merges, and its dice snapshot is kept."""
        self.parents[eid] = parent
        if parent in self.tips:
            self.tips.remove(parent)
        for tip in (entry.get("merges") or []) if entry.get("command") == "merge" else []:
            if tip in self.tips:
                self.tips.remove(tip)
        self.tips.append(eid)
        self.snapshots[eid] = after
        if len(self.snapshots) > SNAPSHOTS:
            self.snapshots.popitem(last=False)
        self.previous, self.previous_seq = eid, entry.get("seq") if isinstance(entry.get("seq"), int) else 0

    def _snapshot(self, eid):
        if eid is None:
            return {}
        return self.snapshots.get(eid)  # None: too old to check continuity from

    def _continue(self, line, where, entry, base):
        moves = entry.get("dice") or {}
        if not isinstance(moves, dict):
            self.fail(line, f"{where}: dice must be a mapping")
            return base
        after = dict(base) if base is not None else None
        for cid, move in moves.items():
            if not isinstance(move, dict):
                self.fail(line, f"{where}: dice of {cid} must be a mapping")
                continue
            before, now = move.get("before") or {}, move.get("after") or {}
            if self.continuity and base is not None and cid in base and _held(base[cid]) != _held(before):
                self.fail(line, f"{where}: {cid}'s dice before {before} do not continue from {base[cid]}")
            if after is not None:
                after[cid] = now
            self.first_before.setdefault(cid, before)
            self.last_after[cid] = (now, line, loglines.entry_id(entry), str(entry.get("at") or ""))
        return after

    def _merge(self, line, where, entry, parent, base):
        """G-MERGE-2: each character's dice after the merge are the fork's base plus every branch's change."""
        tips = [parent] + [t for t in entry.get("merges") or []]
        for tip in tips[1:]:
            if tip not in self.parents:
                self.fail(line, f"{where}: merges {tip}, which is not an earlier entry")
                return base
        expected = self.combine(tips)
        after = dict(base) if base is not None else None
        for cid, move in (entry.get("dice") or {}).items():
            now = (move or {}).get("after") or {}
            if expected is not None and cid in expected and _held(expected[cid]) != _held(now):
                self.fail(line, f"{where}: {cid}'s dice after the merge {now} should be {expected[cid]} "
                                "(the fork's base plus both branches' changes): the merge lost a change")
            if after is not None:
                after[cid] = now
            self.last_after[cid] = (now, line, loglines.entry_id(entry), str(entry.get("at") or ""))
        return after

    def ancestors(self, eid, limit=1_000_000) -> list:
        out = []
        while eid is not None and len(out) < limit:
            out.append(eid)
            eid = self.parents.get(eid)
        return out

    def fork_base(self, tips: list) -> dict | None:
        """The dice snapshot where the branches ending at `tips` last had one history."""
        common = set(self.ancestors(tips[0]))
        for tip in tips[1:]:
            common &= set(self.ancestors(tip))
        base_id = next((a for a in self.ancestors(tips[0]) if a in common), None)
        return self._snapshot(base_id) if base_id is not None else {}

    def combine(self, tips: list) -> dict | None:
        """Dice per character when the branches ending at `tips` are joined: base + each branch's change."""
        if len(tips) == 1:
            return self._snapshot(tips[0])
        base = self.fork_base(tips)
        snaps = [self._snapshot(t) for t in tips]
        if base is None or any(s is None for s in snaps):
            return None
        out = {}
        for cid in set().union(*snaps):
            start = base.get(cid, self.first_before.get(cid))
            total = dict(start or {})
            for snap in snaps:
                if cid in snap and start is not None:
                    for state in set(snap[cid]) | set(start):
                        total[state] = total.get(state, 0) + snap[cid].get(state, 0) - start.get(state, 0)
                elif cid in snap:
                    total = dict(snap[cid])
            out[cid] = total
        return out

    def final_dice(self) -> dict | None:
        """What every character's sheet should hold now (all open branches joined)."""
        return self.combine(list(self.tips)) if self.tips else {}


def is_campaign_log(label) -> bool:
    """The campaign log (G-LOG-5): its characters also change in encounters between its entries, so no
    value is expected to continue from its previous entry."""
    return str(label).endswith("/campaign.log.yaml")


def read(path, label: str, entry_problem=None) -> History:
    """Stream a log through History; a line that is not an entry is its problem (G-LOG-4)."""
    hist = History(label, entry_problem, continuity=not is_campaign_log(label))
    for line, entry, problem in loglines.iter_lines(path, label):
        if problem:
            hist.fail(line, problem)
            break
        hist.add(line, entry)
        if hist.problem:
            break
    return hist
