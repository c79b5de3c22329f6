"""The shape of a log as history (G-LOG-2, G-MERGE-2): ids, parents, forks, merge entries
and the continuity of every character's dice along each branch.

A log is read one line at a time (store/loglines.py). Each entry continues
from its parent: normally the line before it, but after git joined two
branches of play two entries share a parent (a fork), and a `merge` entry
later names the other branch tips and the dice every character holds once
the branches are added together (the fork's base plus each branch's change).
What this module keeps grows with the number of entries only by the set of ids
(8 bytes an id, `Ids`); parent links and dice snapshots are kept for the newest
entries only (G-LOG-3).
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

from ..errors import NarateerError
from . import loglines

SNAPSHOTS = 4096  # dice snapshots kept for the newest entries (a fork's base is normally near the tips)


class Ids:
    """Every entry id of a log, exactly, in about 8 bytes an id: an id of 12 hex digits (every id narateer
    writes) as its number, in sorted arrays that merge as they double (membership by bisection); any
    other id (`seq-N` from before ids, a hand-written one) as text."""

    RUN = 4096

    def __init__(self):
        self.runs: list = []  # array("Q")s, sorted, each at most half the size of the one before it
        self.recent: set = set()
        self.other: set = set()

    @staticmethod
    def _number(eid):
        if isinstance(eid, str) and len(eid) == 12 and not eid.strip("0123456789abcdef"):
            return int(eid, 16)
        return None

    def add(self, eid):
        key = self._number(eid)
        if key is None:
            self.other.add(eid)
            return
        self.recent.add(key)
        if len(self.recent) >= self.RUN:
            from array import array
            from heapq import merge

            run = array("Q", sorted(self.recent))
            self.recent.clear()
            while self.runs and len(self.runs[-1]) <= len(run):
                run = array("Q", merge(self.runs.pop(), run))
            self.runs.append(run)

    def __contains__(self, eid) -> bool:
        key = self._number(eid)
        if key is None:
            return eid in self.other
        if key in self.recent:
            return True
        from bisect import bisect_left

        for run in self.runs:
            at = bisect_left(run, key)
            if at < len(run) and run[at] == key:
                return True
        return False


_held = loglines.held


class History:
    """Walks a log's entries in order; `problem` is the first thing wrong (with its line)."""

    def __init__(self, label: str, entry_problem=None, continuity: bool = True, bridge=None):
        self.label = label
        self.continuity = continuity
        # G-LOG-5: a character's counters move in the log of the encounter it takes part in, else in the
        # campaign log; a gap between two of its entries here is whole when the other logs' entries fill it
        self.bridge = bridge
        self.entry_problem = entry_problem  # the rule system's own per-entry check
        self.count = 0
        self.ids = Ids()  # every id read
        self.parents: OrderedDict = OrderedDict()  # id -> parent id, for the newest SNAPSHOTS entries
        self.snapshots: OrderedDict = OrderedDict()
        self.tips: list[str] = []
        self.previous: str | None = None
        self.previous_seq = 0
        self.problem = None  # a store.schema.Problem: file, line, entry id, message
        self.entry = ""  # the id of the entry being read
        self.first_before: dict[str, dict] = {}  # each character's dice before the log first touched them
        # H-2: each character's first entries along each branch: [(entry id, dice before)], one per branch that
        # touched it first after the entry it forked from (a short list: it grows with forks, not with entries)
        self.firsts: dict[str, list] = {}
        self.last_after: dict[str, tuple] = {}  # char -> (dice, line, entry id, at)

    def fail(self, line: int, text: str):
        if self.problem is None:
            from .schema import Problem

            self.problem = Problem(self.label, line, self.entry, text)

    def add(self, line: int, entry: dict):
        self.count += 1
        eid = self.entry = loglines.entry_id(entry)
        where = f"entry {entry.get('seq')} ({entry.get('command')})"
        if eid in self.ids:
            return self.fail(line, f"{where}: id {eid} appears twice")
        if "parent" in entry:
            parent = entry["parent"]
            if parent is not None and parent not in self.ids:
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
        self.ids.add(eid)
        self.parents[eid] = parent
        if len(self.parents) > SNAPSHOTS:
            self.parents.popitem(last=False)
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
            if self.continuity and base is not None and cid in base and not self._continues(cid, base[cid], before):
                self.fail(line, f"{where}: {cid}'s dice before {before} do not continue from {base[cid]}")
            if after is not None:
                after[cid] = now
            if base is not None and cid not in base:
                self.firsts.setdefault(cid, []).append((loglines.entry_id(entry), before))
            self.first_before.setdefault(cid, before)
            self.last_after[cid] = (now, line, loglines.entry_id(entry), str(entry.get("at") or ""))
        return after

    def _continues(self, cid: str, last: dict, before: dict) -> bool:
        """A character's dice before an entry are its dice after its last entry in this log, or what the
        other logs' entries lead to from there (G-LOG-5)."""
        return _held(last) == _held(before) or (self.bridge is not None and self.bridge(cid, last, before, self.label))

    def _merge(self, line, where, entry, parent, base):
        """G-MERGE-2: each character's dice after the merge are the fork's base plus every branch's change."""
        tips = [parent] + [t for t in entry.get("merges") or []]
        for tip in tips[1:]:
            if tip not in self.ids:
                self.fail(line, f"{where}: merges {tip}, which is not an earlier entry")
                return base
        expected = self.combine(tips)
        # play continues from every branch's characters, not only the parent's (H-2)
        after = {**base, **(expected or {})} if base is not None else None
        moves = self.merge_moves(tips) if expected is not None else None
        for cid, move in (entry.get("dice") or {}).items():
            now = (move or {}).get("after") or {}
            self._merge_after(line, where, cid, now, expected)
            self._merge_before(line, where, cid, (move or {}).get("before") or {}, moves, base)
            if after is not None:
                after[cid] = now
            self.last_after[cid] = (now, line, loglines.entry_id(entry), str(entry.get("at") or ""))
        return after

    def _merge_after(self, line, where, cid, now, expected):
        if expected is not None and cid in expected and _held(expected[cid]) != _held(now):
            self.fail(line, f"{where}: {cid}'s dice after the merge {now} should be {expected[cid]} "
                            "(the fork's base plus both branches' changes): the merge lost a change")

    def _merge_before(self, line, where, cid, before, moves, base):
        """H-2: a merge entry's `before` is the character's dice at its parent, or its base when the parent's
        branch never touched it (narateer before H-2 wrote {} there; that entry's sums still hold)."""
        if not moves or cid not in moves or _held(before) == _held(moves[cid]["before"]):
            return
        if not before and base is not None and cid not in base:
            return
        self.fail(line, f"{where}: {cid}'s dice before the merge {before} should be {moves[cid]['before']} "
                        "(its dice where the merge entry continues from)")

    def ancestors(self, eid, limit=1_000_000) -> tuple[list, bool]:
        """The ids from `eid` back along its parents, and whether the walk reached the log's first entry
        (False: it stopped where the parent links kept for the newest entries end)."""
        out = []
        while eid is not None and len(out) < limit:
            out.append(eid)
            if eid not in self.parents:
                return out, False
            eid = self.parents[eid]
        return out, eid is None

    def fork_base(self, tips: list) -> dict | None:
        """The dice snapshot where the branches ending at `tips` last had one history (None: too far back)."""
        first, whole = self.ancestors(tips[0])
        common = set(first)
        for tip in tips[1:]:
            line, complete = self.ancestors(tip)
            common &= set(line)
            whole = whole and complete
        base_id = next((a for a in first if a in common), None)
        if base_id is None:
            return {} if whole else None  # branches from before the log's first entry, or a base too old
        return self._snapshot(base_id)

    def combine(self, tips: list) -> dict | None:
        """Dice per character when the branches ending at `tips` are joined: each branch's change from its own
        base added to the first base (H-2: a character first logged after the fork has as base its value
        before that branch's first entry for it, never 0)."""
        if len(tips) == 1:
            return self._snapshot(tips[0])
        joined = self._join(tips)
        return None if joined is None else {cid: _total(*found) for cid, found in joined.items()}

    def _join(self, tips: list) -> dict | None:
        """Per character touched on the branches ending at `tips`: (its base, [(its dice at each tip or None
        when that branch never touched it, that branch's base)]); None when the history is too old to tell."""
        base = self.fork_base(tips)
        snaps = [self._snapshot(t) for t in tips]
        if base is None or any(s is None for s in snaps):
            return None
        lines = [set(self.ancestors(t)[0]) for t in tips]
        out = {}
        for cid in set().union(*snaps):
            starts = [self.branch_base(cid, base, line) for line in lines]
            start = next((s for s in starts if s is not None), None) or {}
            out[cid] = (start, [(snap.get(cid), start if own is None else own) for snap, own in zip(snaps, starts)])
        return out

    def branch_base(self, cid: str, base: dict, line: set) -> dict | None:
        """H-2: a character's dice where the branch whose entries are `line` started from: the fork's base,
        else its dice before that branch's first entry for it (None when the branch never touched it)."""
        if cid in base:
            return base[cid]
        records = self.firsts.get(cid)
        if not records:  # first seen where no snapshot was kept: the log's first value for it
            return self.first_before.get(cid)
        return next((before for eid, before in records if eid in line), None)

    def merge_moves(self, tips: list) -> dict | None:
        """G-MERGE-2, H-2: a merge entry's `dice` for the branches ending at `tips` (the first is its parent):
        each character some branch moved from its base, with its dice at the parent (its base when the
        parent's branch never touched it) and after the merge. None when the history is too old to tell."""
        joined = self._join(tips)
        if joined is None:
            return None
        out = {}
        for cid in sorted(joined):
            start, pairs = joined[cid]
            if all(now is None or _held(now) == _held(own) for now, own in pairs):
                continue
            here = pairs[0][0]
            out[cid] = {"before": here if here is not None else start, "after": _total(start, pairs)}
        return out

    def final_dice(self) -> dict | None:
        """What every character's sheet should hold now (all open branches joined)."""
        return self.combine(list(self.tips)) if self.tips else {}


def _total(start: dict, pairs: list) -> dict:
    """A character's dice after a merge: its base plus each branch's change from that branch's own base."""
    total = dict(start)
    for now, own in pairs:
        if now is None:
            continue
        for state in set(now) | set(own):
            total[state] = total.get(state, 0) + now.get(state, 0) - own.get(state, 0)
    return total


def is_campaign_log(label) -> bool:
    """The campaign log (G-LOG-5)."""
    return str(label).endswith("/campaign.log.yaml")


class Bridges:
    """H-1, G-LOG-5: a character's counters move in the current encounter's log while it takes part in it,
    else in the campaign log (an exchange with someone outside the encounter, a turn played `--in` another
    encounter), so between two of its entries in one log it may have moved in others. A gap from A to B in
    one log is whole when the other logs' entries for that character lead from A to B; any other gap is a
    lost change. The other logs are read once, and only when some log has a gap (cost linear in them)."""

    def __init__(self, root):
        self.folder = Path(root) / "encounters"
        self.moves = None  # cid -> {state: [(state after, log label)]}

    def __call__(self, cid: str, start: dict, end: dict, label: str) -> bool:
        if self.moves is None:
            self.moves = self._read()
        edges, goal = self.moves.get(cid, {}), _key(end)
        seen, todo = {_key(start)}, [_key(start)]
        while todo:
            for after, where in edges.get(todo.pop(), ()):
                if where == label or after in seen:
                    continue
                if after == goal:
                    return True
                seen.add(after)
                todo.append(after)
        return False

    def continued(self, cid: str, counters: dict, label: str) -> bool:
        """Does an entry of another log continue from these counters of `cid` (its `before`)?"""
        if self.moves is None:
            self.moves = self._read()
        return any(where != label for where in self.starts.get(cid, {}).get(_key(counters), ()))

    def _read(self) -> dict:
        moves: dict = {}
        self.starts: dict = {}  # cid -> {state before: {log labels}}
        for path in sorted(self.folder.glob("*.log.yaml")) if self.folder.is_dir() else []:
            label = f"encounters/{path.name}"
            try:
                for _, entry, problem in loglines.iter_lines(path, label):
                    if problem:
                        break
                    for cid, move in (entry.get("dice") or {}).items() if isinstance(entry.get("dice"), dict) else ():
                        if isinstance(move, dict):
                            edge, before = (_key(move.get("after")), label), _key(move.get("before"))
                            moves.setdefault(cid, {}).setdefault(before, []).append(edge)
                            self.starts.setdefault(cid, {}).setdefault(before, set()).add(label)
            except (OSError, NarateerError):
                continue
        return moves


def _key(counters) -> str:
    import json

    return json.dumps(_held(counters if isinstance(counters, dict) else {}), sort_keys=True)


def read(path, label: str, entry_problem=None, bridge=None) -> History:
    """Stream a log through History; a line that is not an entry is its problem (G-LOG-4). `bridge`: the
    campaign's `Bridges`, without which a character's entries must continue within this log alone."""
    hist = History(label, entry_problem, continuity=bridge is not None or not is_campaign_log(label), bridge=bridge)
    for line, entry, problem in loglines.iter_lines(path, label):
        if problem:
            hist.fail(line, problem)
            break
        hist.add(line, entry)
        if hist.problem:
            break
    return hist
