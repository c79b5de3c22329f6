"""The shape of a log as history (old logs without ids included): ids, parents, forks, merge entries
and the continuity of every character's dice along each branch.

A log is read one line at a time (store/loglines.py). Each entry continues
from its parent: normally the line before it, but after git joined two
branches of play two entries share a parent (a fork), and a `merge` entry
later names the other branch tips and the dice every character holds once
the branches are added together: its dice at the parent plus the change of
every entry the merged tips hold and the parent does not, each entry's change
counted once however many branches and earlier merges hold it.
What this module keeps grows with the number of entries only by the set of ids
(8 bytes an id, `Ids`); parent links and dice snapshots are kept for the newest
entries only, so memory stays flat however long a log grows.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from pathlib import Path
from typing import NamedTuple

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


class Step(NamedTuple):
    """What the history keeps of one of its newest entries: its place in the file, the entries it continues
    from (its parent, then for a merge entry the tips it merges) and its own change per character
    ({cid: (dice after it, dice it started from)}; {} for a merge entry, which changes nothing; None when its
    parent is too old to tell)."""

    index: int
    links: tuple
    moves: dict | None
    digest: str | None = None  # a merge entry's content, to know a copy of it
    seq: int = 0  # its seq, which the entries that continue it continue
    set: tuple = ()  # the characters whose sheets a merge entry set to what the log adds up to


def content_id(entry: dict) -> str:
    """12 hex digits of a hash of an entry without its id: the id of a merge entry that changes no sheet, so
    that every clone which joins the same branches writes the same line."""
    import hashlib
    body = json.dumps({k: v for k, v in entry.items() if k != "id"}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:12]


class History:
    """Walks a log's entries in order; `problem` is the first thing wrong (with its line)."""

    def __init__(self, label: str, entry_problem=None, continuity: bool = True, bridge=None):
        self.label = label
        self.continuity = continuity
        # a character's counters move in the log of the encounter it takes part in, else in the
        # campaign log; a gap between two of its entries here is whole when the other logs' entries fill it
        self.bridge = bridge
        self.entry_problem = entry_problem  # the rule system's own per-entry check
        self.count = 0
        self.ids = Ids()  # every id read
        self.parents: OrderedDict = OrderedDict()  # id -> Step, for the newest SNAPSHOTS entries
        self.snapshots: OrderedDict = OrderedDict()
        self.tips: list[str] = []
        self.previous: str | None = None
        self.previous_seq = 0
        self.problem = None  # a store.schema.Problem: file, line, entry id, message
        self.entry = ""  # the id of the entry being read
        self.copies = 0  # merge entries read twice (git's union merge keeps a line two clones both wrote)
        self.last_after: dict[str, tuple] = {}  # char -> (dice, line, entry id, at)
        self.with_ids = False  # an entry with an id was read: every later one has one

    def fail(self, line: int, text: str):
        if self.problem is None:
            from .schema import Problem

            self.problem = Problem(self.label, line, self.entry, text)

    def add(self, line: int, entry: dict):
        self.count += 1
        eid = self.entry = loglines.entry_id(entry)
        where = f"entry {entry.get('seq')} ({entry.get('command')})"
        if eid in self.ids:
            if self._copy(eid, entry):
                self.copies += 1
                return None
            return self.fail(line, f"{where}: id {eid} appears twice")
        if "parent" in entry:
            parent = entry["parent"]
            if parent is not None and parent not in self.ids:
                return self.fail(line, f"parent: {parent} is not an earlier entry ({where})")
            base = self._snapshot(parent)
        else:  # from before ids: the line before it, unless git's union merge joined two branches
            parent = self.previous
            old_fork = isinstance(entry.get("seq"), int) and entry["seq"] <= self.previous_seq
            base = {} if old_fork else self._snapshot(parent)
        found = self._seq_problem(entry, parent)
        if found:
            return self.fail(line, found)
        if entry.get("id") is None and self.with_ids:
            return self.fail(line, f"id: missing ({where}; only a log from before ids has entries without one)")
        self.with_ids = self.with_ids or entry.get("id") is not None
        found = self._game_problem(entry, where)
        if found:
            return self.fail(line, found)
        if entry.get("command") == "merge":
            after, moves = self._merge(line, where, entry, parent, base), {}
        else:
            after, moves = self._continue(line, where, entry, base)
        self._advance(eid, parent, entry, after, moves)

    def _game_problem(self, entry: dict, where: str) -> str | None:
        """The game's own check of the entry; a value it cannot read is this line's problem, not a crash."""
        if self.entry_problem is None:
            return None
        try:
            return self.entry_problem(entry)
        except NarateerError:
            raise
        except Exception as exc:  # noqa: BLE001 - a value the game's check cannot read is this line's problem
            return f"{where}: the game's check cannot read it ({type(exc).__name__}: {exc})"

    def _seq_problem(self, entry: dict, parent) -> str | None:
        """An entry's seq continues the entry it follows: its parent's seq + 1 (a branch that git's
        union merge placed after another), or the line before it + 1 (a merge entry, or an entry after a copy
        of one). An entry from before ids continues the line before it, or forks back (seq at most that + 1);
        where the parent is too old to tell, the seq may not run ahead of the line before it."""
        seq = entry["seq"]
        if "parent" in entry and parent is None:
            return None if seq == 1 else f"seq: {seq} in an entry without a parent (a log's first), which is 1"
        if "parent" in entry and parent in self.parents:
            wanted = (self.parents[parent].seq + 1, self.previous_seq + 1)
        elif seq <= self.previous_seq + 1:
            return None
        else:
            wanted = (self.previous_seq + 1,)
        if seq in wanted:
            return None
        after = f"the entry it continues ({wanted[0] - 1})" if "parent" in entry else f"the line before it ({wanted[-1] - 1})"
        return f"seq: {seq} does not continue {after}; it should be {wanted[0]}"

    def _copy(self, eid: str, entry: dict) -> bool:
        """A merge entry that two clones both wrote (the same branches joined, so the same line) may stand
        twice once git's union merge kept both copies where they fell; it is one entry. Any other repeated id is
        a problem."""
        if entry.get("command") != "merge":
            return False
        digest = content_id(entry)
        step = self.parents.get(eid)
        return digest == eid or (step is not None and step.digest == digest)

    def _advance(self, eid: str, parent, entry: dict, after, moves):
        """Record entry `eid` as read: it replaces the tips it continues or merges, and its dice snapshot is kept."""
        self.ids.add(eid)
        merged = tuple(self._merged(entry))
        digest = content_id(entry) if entry.get("command") == "merge" else None
        self.parents[eid] = Step(self.count, (parent, *merged), moves, digest, entry.get("seq") or 0,
                                 _sheets_set(entry) if digest is not None else ())
        if len(self.parents) > SNAPSHOTS:
            self.parents.popitem(last=False)
        for tip in (parent, *merged):
            if tip in self.tips:
                self.tips.remove(tip)
        self.tips.append(eid)
        self.snapshots[eid] = after
        if len(self.snapshots) > SNAPSHOTS:
            self.snapshots.popitem(last=False)
        self.previous, self.previous_seq = eid, entry.get("seq") if isinstance(entry.get("seq"), int) else 0

    @staticmethod
    def _merged(entry: dict) -> list:
        """The other branch tips a merge entry joins."""
        found = entry.get("merges") if entry.get("command") == "merge" else None
        return [t for t in found if isinstance(t, str)] if isinstance(found, list) else []

    def _snapshot(self, eid):
        if eid is None:
            return {}
        return self.snapshots.get(eid)  # None: too old to check continuity from

    def _continue(self, line, where, entry, base):
        """An entry's dice after it, and its own change per character (after a merge, a character its parent never held
        starts from the entry's `before`)."""
        moves = entry.get("dice") or {}
        if not isinstance(moves, dict):
            self.fail(line, f"{where}: dice must be a mapping")
            return base, None
        after = dict(base) if base is not None else None
        own = {} if base is not None else None
        for cid, move in moves.items():
            if not isinstance(move, dict):
                self.fail(line, f"{where}: dice of {cid} must be a mapping")
                continue
            before, now = move.get("before") or {}, move.get("after") or {}
            if self.continuity and base is not None and cid in base and not self._continues(cid, base[cid], before):
                self.fail(line, f"{where}: {cid}'s dice before {before} do not continue from {base[cid]}")
            if after is not None:
                after[cid] = now
                own[cid] = (now, base.get(cid, before))
            self.last_after[cid] = (now, line, loglines.entry_id(entry), str(entry.get("at") or ""))
        return after, own

    def _continues(self, cid: str, last: dict, before: dict) -> bool:
        """A character's dice before an entry are its dice after its last entry in this log, or what the
        other logs' entries lead to from there (it moved in another log meanwhile)."""
        return _held(last) == _held(before) or (self.bridge is not None and self.bridge(cid, last, before, self.label))

    def _merge(self, line, where, entry, parent, base):
        """Each character's dice after the merge are its dice at the parent plus the change of every
        entry the merged tips hold that the parent does not."""
        tips = self._merge_tips(line, where, entry, parent)
        if tips is None:
            return base
        joined = self._join(tips)
        expected = joined[0] if joined is not None else None
        # play continues from every branch's characters, not only the parent's
        after = {**base, **(expected or {})} if base is not None else None
        moves = self._moves(tips, joined) if joined is not None else None
        for cid, move in (entry.get("dice") or {}).items():
            now = (move or {}).get("after") or {}
            self._merge_after(line, where, cid, now, expected)
            self._merge_before(line, where, cid, (move or {}).get("before") or {}, moves, base)
            if after is not None:
                after[cid] = now
            self.last_after[cid] = (now, line, loglines.entry_id(entry), str(entry.get("at") or ""))
        return after

    def _merge_tips(self, line, where, entry, parent) -> list | None:
        """The tips a merge entry joins, its parent first; None (and the problem) when one is not an earlier entry."""
        tips = [parent] + self._merged(entry)
        if len(tips) - 1 != len(entry.get("merges") or []):
            return self.fail(line, f"{where}: merges must be a list of entry ids")
        for tip in tips[1:]:
            if tip not in self.ids:
                return self.fail(line, f"{where}: merges {tip}, which is not an earlier entry")
        return tips

    def _merge_after(self, line, where, cid, now, expected):
        if expected is not None and cid in expected and _held(expected[cid]) != _held(now):
            self.fail(line, f"{where}: {cid}'s dice after the merge {now} should be {expected[cid]} "
                            "(its dice at the parent plus every change the merged branches hold): the merge lost a change")

    def _merge_before(self, line, where, cid, before, moves, base):
        """A merge entry's `before` is the character's dice at its parent, or its base when the parent's
        branch never touched it (narateer before merge entries held old values wrote {} there; that entry's sums still hold)."""
        if not moves or cid not in moves or _held(before) == _held(moves[cid]["before"]):
            return
        if not before and base is not None and cid not in base:
            return
        self.fail(line, f"{where}: {cid}'s dice before the merge {before} should be {moves[cid]['before']} "
                        "(its dice where the merge entry continues from)")

    def sides(self, tips: list) -> tuple[list, list] | None:
        """The entries only `tips[0]` holds and those only the other tips hold (each in log order), following
        every entry's parent and a merge entry's merged tips back to where all the branches share their
        history; None when that lies beyond the entries kept (too old to tell)."""
        return _Walk(self.parents, tips).sides()

    def combine(self, tips: list) -> dict | None:
        """Dice per character when the branches ending at `tips` are joined: the dice at the
        first tip plus the change of every entry the other tips hold and it does not, each entry's change counted
        once however many branches or earlier merges hold it. A character the first tip never held starts from
        its dice before the first such entry for it (never 0)."""
        if len(tips) == 1:
            return self._snapshot(tips[0])
        joined = self._join(tips)
        return None if joined is None else joined[0]

    def _join(self, tips: list) -> tuple[dict, list] | None:
        """(dice per character once `tips` are joined, the entries after the branches parted: those only the
        first tip holds, then those only the others hold); None when the history is too old to tell."""
        first, found = self._snapshot(tips[0]), self.sides(tips)
        if first is None or found is None:
            return None
        mine, theirs = found
        total = {cid: dict(dice) for cid, dice in first.items()}
        for eid in theirs:
            moves = self.parents[eid].moves
            if moves is None:
                return None
            for cid, (now, own) in moves.items():
                _add(total.setdefault(cid, dict(own)), now, own)
        return total, mine + theirs

    def merge_moves(self, tips: list) -> dict | None:
        """A merge entry's `dice` for the branches ending at `tips` (the first is its parent):
        each character some branch moved since they parted, with its dice at the parent (where the join starts
        it when the parent never held it) and after the merge. None when the history is too old to tell."""
        joined = self._join(tips)
        return None if joined is None else self._moves(tips, joined)

    def _moves(self, tips: list, joined: tuple) -> dict:
        """Each character a branch moved since they parted, or whose sheet a merge entry on a branch set: git's
        driver adds a sheet's change on each side, so two branches that both set it to the same sum leave it
        off by that correction, and the join looks at it again."""
        total, parted = joined
        first, moved, starts = self._snapshot(tips[0]) or {}, set(), {}
        for eid in parted:
            step = self.parents[eid]
            moved.update(step.set)
            for cid, (now, own) in (step.moves or {}).items():
                starts.setdefault(cid, own)
                if _held(now) != _held(own):
                    moved.add(cid)
        return {cid: {"before": first.get(cid, starts.get(cid)), "after": total[cid]} for cid in sorted(moved)
                if cid in total}

    def final_dice(self) -> dict | None:
        """What every character's sheet should hold now (all open branches joined)."""
        return self.combine(list(self.tips)) if self.tips else {}


class _Walk:
    """Entries painted back from a join's tips (1: reached from the first tip, 2: from the others, 3: from
    both), newest first. A parent (or merged tip) always stands earlier in the log than the entries that name
    it, so an entry's paint is final when the walk reaches it, and the walk ends when every entry still to
    visit is shared: its cost follows the entries since the branches parted, not the log's length."""

    def __init__(self, steps, tips: list):
        self.steps, self.paint, self.todo, self.open = steps, {}, [], 0
        for n, tip in enumerate(tips):
            self.mark(tip, 1 if n == 0 else 2)

    def mark(self, eid, flag: int):
        import heapq

        if eid is None:  # before the log's first entry: nothing there
            return
        old = self.paint.get(eid)
        new = self.paint[eid] = (old or 0) | flag
        if old is None:
            step = self.steps.get(eid)  # an entry beyond the kept ones is older than every kept one
            heapq.heappush(self.todo, (-(step.index if step is not None else -1), eid))
            self.open += new != 3
        elif old != 3 and new == 3:
            self.open -= 1

    def sides(self) -> tuple[list, list] | None:
        import heapq

        found = {1: [], 2: [], 3: []}
        while self.todo and self.open:
            eid = heapq.heappop(self.todo)[1]
            flag, step = self.paint[eid], self.steps.get(eid)
            self.open -= flag != 3
            if step is None and flag != 3:
                return None  # a branch reaches past the entries kept
            found[flag].append(eid)
            for link in step.links if step is not None else ():
                self.mark(link, flag)
        return found[1][::-1], found[2][::-1]


def _sheets_set(entry: dict) -> tuple:
    """The characters a merge entry set the sheets of (their `sheet` is what git had left there)."""
    dice = entry.get("dice")
    return tuple(cid for cid, move in dice.items() if isinstance(move, dict) and "sheet" in move) \
        if isinstance(dice, dict) else ()


def _add(total: dict, now: dict, own: dict):
    """Add one entry's change (from `own` to `now`) to a character's dice."""
    for state in set(now) | set(own):
        total[state] = total.get(state, 0) + now.get(state, 0) - own.get(state, 0)


def is_campaign_log(label) -> bool:
    """The campaign log, where edits of characters in no running encounter are logged."""
    return str(label).endswith("/campaign.log.yaml")


class Bridges:
    """A character's counters move in the current encounter's log while it takes part in it,
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
        return any(where != label for _, where in self.moves.get(cid, {}).get(_key(counters), ()))

    def _read(self) -> dict:
        moves: dict = {}
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
            except (OSError, NarateerError):
                continue
        return moves


def _key(counters) -> str:
    return json.dumps(_held(counters if isinstance(counters, dict) else {}), sort_keys=True)


def read(path, label: str, entry_problem=None, bridge=None) -> History:
    """Stream a log through History; a line that is not an entry is its problem, at its line. `bridge`: the
    campaign's `Bridges`, without which a character's entries must continue within this log alone."""
    hist = start(label, entry_problem, bridge)
    walk(hist, loglines.iter_lines(path, label))
    return hist


def start(label: str, entry_problem=None, bridge=None) -> History:
    """A History for a log read from its start (`read`'s, before its first line)."""
    return History(label, entry_problem, continuity=bridge is not None or not is_campaign_log(label), bridge=bridge)


def walk(hist: History, lines) -> int:
    """Feed `lines` ((line number, entry, problem), store/loglines.py) to `hist` up to the first problem; the
    number of the last line it read (0: none)."""
    line = 0
    for line, entry, problem in lines:
        if problem:
            hist.entry = ""  # a line that is no entry has no id to name
            hist.fail(line, problem)
            break
        hist.add(line, entry)
        if hist.problem:
            break
    return line
