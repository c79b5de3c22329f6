"""Encounter files: a small state file and an append-only log.

`encounters/ID.yaml` holds the state the rules need now; `encounters/ID.log.yaml`
is a YAML sequence that only ever grows, one entry per writing command. A
writing command never parses the log: it appends one entry as text and reads only the
file's tail for the last sequence number, so its cost does not grow with the
log. Undo records (the previous bytes of every file an action replaced) live
in the private folder's `undo/ID/` (store/private.py).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..errors import BadInput, Refused
from ..readonly import view
from . import cache, loglines, yamlio
from .campaign import Campaign, check_id

UNDO_KEEP = 100
CAMPAIGN = "campaign"  # the campaign log's id (edits outside an encounter are logged there); no encounter may take it


def state_path(root: Path, enc_id: str) -> Path:
    return _inside(root, root / "encounters" / f"{check_id(enc_id, 'encounter')}.yaml")


def log_path(root: Path, enc_id: str) -> Path:
    return _inside(root, root / "encounters" / f"{enc_id}.log.yaml")


def _inside(root: Path, path: Path) -> Path:
    """An encounter file linked outside encounters/ would be read or appended to outside the campaign."""
    if path.is_symlink():
        try:
            ok = str(path.resolve()).startswith(str((root / "encounters").resolve()) + os.sep)
        except (OSError, RuntimeError):  # a symlink loop
            ok = False
        if not ok:
            raise BadInput(f"encounters/{path.name} links outside the campaign (or in a loop)",
                           fix="replace the link with the file itself")
    return path


def load_state(root: Path, enc_id: str, system) -> dict:
    """An encounter's state: the host checks the file and the keys every system has (id, participants;
    a round is the game's business, since the host knows no game); the system's `load_state` hook validates the rest."""
    path = state_path(root, enc_id)
    label = f"encounters/{enc_id}.yaml"
    if not path.exists():
        from ..suggest import unknown

        known = sorted(p.stem for p in (root / "encounters").glob("*.yaml") if not p.name.endswith(".log.yaml"))
        raise unknown("encounter", enc_id, known, detail=f" (no {label})", create="narateer encounter new ID CHAR...")
    text, key = yamlio.read_text(path, label, with_key=True)
    data = cache.get(root, "states", enc_id, key)
    fresh = data is None
    if fresh:
        data = yamlio.load_safe(text, label)
    if not isinstance(data, dict):
        raise BadInput(f"{label}: not an encounter state file", fix="restore it from git")
    missing = [k for k in ("id", "participants") if k not in data]
    if missing:
        raise BadInput(f"{label}: missing {', '.join(missing)}", fix="restore it from git")
    _same_system(label, data.get("system"), system)
    data = view(data, f"the state of encounter {enc_id}")  # a game reads it; its changes go in its outcome
    out = view(system.get("load_state")(data, label, checked=not fresh), f"the state of encounter {enc_id}")
    if fresh:
        cache.put(root, "states", enc_id, data, key)
    return out


def _same_system(label: str, named, system):
    """An encounter that names another game is never read (or rewritten) by this campaign's engine."""
    if named is not None and named != system.name:
        raise BadInput(f"{label}: an encounter of {named}, but this campaign plays {system.name}",
                       rule="S-SYS-1", fix=f"play it in a campaign with `system: {named}` in narateer.yaml")


def own_logs(root: Path, system) -> list[str]:
    """The ids of every log this campaign's game can read, sorted: another game's encounters are left out
    (`check` names them)."""
    folder = root / "encounters"
    ids = sorted(p.name[: -len(".log.yaml")] for p in folder.glob("*.log.yaml")) if folder.is_dir() else []
    out = []
    for log_id in ids:
        try:
            require_own_log(root, log_id, system)
        except BadInput:
            continue
        out.append(log_id)
    return out


def require_own_log(root: Path, log_id: str, system):
    """Before reading a log (verify, report, stats): its encounter must be of this campaign's game, or no
    system's check code would judge its entries (a game replays its own). The campaign log belongs to the campaign."""
    path = state_path(root, log_id)
    if log_id == CAMPAIGN or not path.is_file():
        return
    import re

    label = f"encounters/{log_id}.yaml"
    named = re.search(r"^system:[ \t]*['\"]?([\w.-]+)", yamlio.read_text(path, label), re.M)
    _same_system(label, named.group(1) if named else None, system)


def remember_state(root: Path, state: dict, text: str):
    """After a write: keep the state just written (as `text`) for the next command."""
    plain = dict(state)
    cache.put(root, "states", state["id"], plain, path=state_path(root, state["id"]), text=text)


def state_text(state: dict) -> str:
    """The state file's text, headed by a comment naming its system (`narateer` when it names none)."""
    header = f"# {state.get('system') or 'narateer'} encounter state; its log is the .log.yaml beside this file\n"
    return header + yamlio.emit_text(dict(state))


def last_seq(path: Path) -> int:
    """The last entry's sequence number, read from the file's tail only."""
    return loglines.read_tail(path, f"encounters/{path.name}").seq


def log_label(path: Path) -> str:
    return f"encounters/{path.name}"


def new_entry(path: Path, fields: dict, pending: str = "") -> tuple[str, dict]:
    """The text that appends one entry to the log at `path`, one line: the next seq, a fresh id,
    the last entry as parent; a lost final newline comes back first. When git joined
    two branches of play since this machine last wrote, a `merge` entry naming the other tips goes first.
    `pending`: the text the same transaction already appends to this log; the entry chains after it."""
    label = log_label(path)
    tail = loglines.read_tail(path, label)
    root = path.parent.parent
    if pending:
        last = loglines.parse_line(pending.rstrip("\n").rsplit("\n", 1)[-1])
        text, merge, seq, parent = "", None, last["seq"], last["id"]
    else:
        text = "" if tail.newline else "\n"
        merge, parent, seq = _where_play_stands(root, path, label, tail)
    if merge is not None:
        text += loglines.entry_line(merge)
        seq, parent = merge["seq"], merge["id"]
    entry = {"seq": seq + 1, "id": loglines.new_id(), "parent": parent, "at": loglines.now(), **fields}
    text += loglines.entry_line(entry)
    size = tail.size + len((pending + text).encode("utf-8"))
    cache.put(root, "logs", path.name[: -len(".log.yaml")], {"size": size, "tip": entry["id"]}, ["log"])
    # what undoing this entry returns to: its parent, or what the undo entries before it returned to
    resumes = parent if merge is not None or pending or parent != tail.tip else effective_tip(tail)
    return text, {**entry, "resumes": resumes}


def _where_play_stands(root: Path, path: Path, label: str, tail) -> tuple[dict | None, str | None, int]:
    """(the merge entry a forked log needs first, or None; the entry the next one continues from otherwise;
    that entry's seq): the last line, unless it is a copy of an earlier merge entry that git's union merge
    kept where it fell, and then the log's one tip, whose seq the next entry continues (the copy's is older,
    and another branch's lines may later fall between the two)."""
    hist = _joined(root, path, label, tail)
    merge = _merge_entry(root, hist, tail)
    if merge is None and hist is not None and len(hist.tips) == 1:
        return None, hist.tips[0], _seq_of(hist, hist.tips[0], tail.seq)
    return merge, tail.tip, tail.seq


def _seq_of(hist, eid: str, otherwise: int) -> int:
    """The seq of entry `eid` of the history read, or `otherwise` when it is older than the entries kept."""
    step = hist.parents.get(eid)
    return step.seq if step is not None and step.seq else otherwise


def effective_tip(tail) -> str | None:
    """The entry play stands at: the log's tip, or (after undo entries) the entry they returned to."""
    if tail.last and tail.last.get("command") == "undo" and "resumes" in (tail.last.get("declaration") or {}):
        return tail.last["declaration"]["resumes"]
    return tail.tip


def _joined(root: Path, path: Path, label: str, tail):
    """The log read as history when it may fork (two entries with one parent): its last line does not
    continue the line before it, or the log is not as this machine last left it; else None (cheap: the tail
    only). None too when the log has a problem (verify names it)."""
    known = cache.get(root, "logs", path.name[: -len(".log.yaml")], ["log"])
    if not tail.forked() and (tail.last is None or known == {"size": tail.size, "tip": tail.tip}):
        return None
    from . import history

    hist = history.read(path, label, bridge=history.Bridges(root))
    return None if hist.problem else hist


def _merge_entry(root: Path, hist, tail, corrections: dict | None = None) -> dict | None:
    """A merge entry when the log (`hist`, from `_joined`) forks. Each sheet must hold what the branches add up
    to; with `corrections` (the first writer after a merge reconciles the counters) a sheet that holds something else is
    noted there ({id: counters}) and its value is recorded in the entry as `sheet`, else it is refused."""
    if hist is None or len(hist.tips) < 2:
        return None
    last = tail.tip if tail.tip in hist.tips else hist.tips[-1]  # the last line may be a copy of an earlier merge entry
    others = sorted(t for t in hist.tips if t != last)
    moves = hist.merge_moves([last] + others)
    if moves is None:
        return None
    system = _system(root)
    for cid, move in moves.items():
        loaded = _sheet_file(root, cid)
        _refuse_spent_twice(cid, move["after"], system, loaded.plain if loaded is not None else None)
        held = _counters_held(loaded)
        if held is None or held == _held(move["after"]):
            continue
        if corrections is None:
            _refuse_behind(cid, held, move["after"])
        corrections[cid] = move["after"]
        move["sheet"] = held  # what git left on the sheet, beside what the log gives
    # its seq continues its parent's, the one rule that holds wherever git's union merge later places the line
    entry = {"seq": _seq_of(hist, last, tail.seq) + 1, "id": None, "parent": last,
             "at": str((tail.last or {}).get("at") or loglines.now()),
             "command": "merge", "actor": None, "merges": others, "dice": moves}
    entry["id"] = _merge_id(entry, corrected=any("sheet" in move for move in moves.values()))
    return entry


def _merge_id(entry: dict, corrected: bool) -> str:
    """A merge entry that sets no sheet is the same line on every clone that joins the same branches (its
    id a hash of its content, its time the log's last): git's union merge keeps it once, or twice where the
    copies fell apart, and the history reads a copy as the one entry. A merge entry that sets a sheet has an
    id of its own: two clones that both set it make two entries, so the fork stays in sight and the next writer
    sets the sheet once more to what the log adds up to (git's driver added both clones' corrections)."""
    from .history import content_id

    return loglines.new_id() if corrected else content_id(entry)


def pending_merge(root: Path, log_id: str) -> tuple[str, dict] | None:
    """The text of the merge entry a forked log needs, and the counters each sheet must be set to
    ({id: counters}); None when the log does not fork. The entry is appended by the writer that reconciles."""
    path = log_path(root, log_id)
    if not path.exists():
        return None
    label = log_label(path)
    tail = loglines.read_tail(path, label)
    corrections: dict = {}
    merge = _merge_entry(root, _joined(root, path, label, tail), tail, corrections)
    if merge is None:
        return None
    text = ("" if tail.newline else "\n") + loglines.entry_line(merge)
    cache.put(root, "logs", log_id, {"size": tail.size + len(text.encode("utf-8")), "tip": merge["id"]}, ["log"])
    return text, corrections


class Reconciled:
    """The files a writer's merge reconciliations replaced before its command ran, as they were: a command
    refused after them writes nothing, so they are taken back with it (each log cut back to its size, each
    sheet given its bytes again). Cutting the logs first leaves, at every step, a campaign the next writer
    reconciles again."""

    def __init__(self, root: Path):
        self.root = root
        self.sheets: dict[str, str | None] = {}  # relative path -> text before the first reconciliation
        self.logs: dict[str, int] = {}  # relative path -> size before
        self.commits: int | None = None  # actions this process had committed once they were saved

    def keep(self, txn):
        """Before `txn` (a reconciliation) commits: what it replaces, as it is now."""
        for rel, text in txn.before().items():
            self.sheets.setdefault(rel, text)
        for rel in txn.appends:
            self.logs.setdefault(rel, (self.root / rel).stat().st_size)

    def take_back(self):
        from . import txn

        for rel, size in self.logs.items():
            fd = os.open(self.root / rel, os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK)
            try:
                if os.fstat(fd).st_size >= size:
                    os.truncate(fd, size)
                    os.fsync(fd)
            finally:
                os.close(fd)
        for rel, text in self.sheets.items():
            path = self.root / rel
            if text is None:
                path.unlink(missing_ok=True)
            else:
                txn.atomic_write(self.root, path, text)


_held = loglines.held


def _sheet_file(root: Path, cid: str):
    """A character's loaded file (None: no such sheet, or not readable)."""
    try:
        return Campaign(root).load(cid)
    except (BadInput, AttributeError):
        return None


def _counters_held(loaded) -> dict | None:
    """A loaded sheet's counters as the campaign's system reads them (None: no sheet)."""
    if loaded is None:
        return None
    from .campaign import counters_of

    try:
        return _held(counters_of(loaded.sheet))
    except AttributeError:
        return None


def _system(root: Path):
    """The campaign's game (None when its settings cannot be read: the default ranges then)."""
    try:
        return Campaign(root).system
    except (BadInput, AttributeError):
        return None


TAKE_BACK = ("take the merge back (`git reset --hard ORIG_HEAD` on the clone that made it, before it is pushed), "
             "keep one side's actions, and play again")


def spent_twice(cid: str, dice: dict, system=None, doc=None) -> str | None:
    """What is wrong when the merged branches' counters `dice` leave the ranges the game declares:
    both spent what was there once (the sum below its lowest), or both added what was missing once (past its
    highest, which `doc`, the sheet's plain data, may hold); else None. Git's driver keeps such a sum at the
    bound, or never runs when both sides wrote the same bytes: the log, which holds every change once, tells."""
    from . import bounds

    return bounds.broken(cid, dice, system, doc if isinstance(doc, dict) else {})


def _refuse_spent_twice(cid: str, dice: dict, system=None, doc=None):
    """The merged branches left a counter's range: no sheet is right, and the merge must be taken back and
    played again (exit 3, nothing written)."""
    found = spent_twice(cid, dice, system, doc)
    if found:
        raise Refused(found, rule="H2-INV-1", fix=TAKE_BACK)


def _refuse_behind(cid: str, held: dict, dice: dict):
    """A sheet behind its merged log (counters follow the log) where this writer cannot reconcile it."""
    label = f"characters/{cid}.yaml"
    raise Refused(f"{label} holds {held} but its log gives {dice} once its branches are added up: the sheet is "
                  "behind its log", rule="H-2", fix="run `narateer reconcile`, then the command again")


def read_log(root: Path, enc_id: str, last: int | None = None, damaged=None) -> list:
    """The log's entries, streamed (only the last `last` are kept when given); a damaged line is bad input,
    or passed to `damaged` (loglines.warn) and over."""
    from collections import deque

    path = log_path(root, enc_id)
    if last:
        tail = _tail_entries(path, last)  # with a damaged line among them: the full read names or passes it
        if tail is not None:
            return tail
    out = deque(maxlen=last) if last is not None else []
    if last != 0:
        out.extend(loglines.entries(path, log_label(path), damaged=damaged))
    return list(out)


def _tail_entries(path: Path, last: int) -> list | None:
    """The last `last` entries read from the log's end (cost flat in the log's length), or None
    when only a full read can tell (a short log, an old block entry or a broken line among them)."""
    lines = loglines.last_lines(path, log_label(path), last)
    if len(lines) < last:
        return None
    out = []
    for raw in lines:
        entry, problem = loglines._parse_raw(raw)
        if problem is not None:
            return None
        out.append(entry)
    return out


def verify_log_file(root: Path, enc_id: str, entry_problem):
    """Stream a log through store/history.py (ids, parents, forks, merges, dice continuity)."""
    from . import history

    path = log_path(root, enc_id)
    return history.read(path, log_label(path), entry_problem, history.Bridges(root))


def entry_text(entry: dict) -> str:
    """One log entry as one line: `- ` and a JSON object, so the file still reads as a YAML list.

    One line per entry is what lets git's union merge join two branches that
    each appended to the same log: no line is shared between two entries.
    """
    return loglines.entry_line(entry)


def undo_dir(root: Path, enc_id: str) -> Path:
    from . import private

    return private.location(root) / "undo" / enc_id


def digest(data: bytes | None) -> str | None:
    """A cheap fingerprint (length and CRC-32) to notice a file changed after an action."""
    if data is None:
        return None
    import zlib

    return f"{len(data)}:{zlib.crc32(data):08x}"


def undo_record(root: Path, log_id: str, before: dict, writes: dict, seq: int, entry_id: str | None = None,
                parent: str | None = None) -> str:
    """What undo needs: the previous text of each replaced file, a fingerprint of what the action wrote,
    and the id of the entry it logged (undo acts only while that entry is the log's tip);
    sealed with this machine's secret to this campaign and this log, so a forged record is skipped."""
    from . import private

    after = {rel: digest(text.encode("utf-8") if text is not None else None) for rel, text in writes.items()}
    data = {"seq": seq, "id": entry_id, "parent": parent, "before": before, "after": after}
    return private.sealed(root, "undo", f"{log_id}/{seq:08d}", data)


def _records(folder: Path) -> list[str]:
    """The names of a folder's undo records in order (a listing, not a glob: no pattern to compile)."""
    try:
        return sorted(name for name in os.listdir(folder) if name.endswith(".json"))
    except (FileNotFoundError, NotADirectoryError):
        return []


def newest_undo_log(root: Path, log_ids) -> str | None:
    """Of these logs, the one whose newest undo record this machine wrote last (the records are this machine's
    own, so their times order its actions); None when none has one."""
    best, when = None, None
    for log_id in log_ids:
        names = _records(undo_dir(root, log_id))
        if not names:
            continue
        try:
            stamp = os.stat(undo_dir(root, log_id) / names[-1], follow_symlinks=False).st_mtime_ns
        except OSError:
            continue
        if when is None or stamp > when:
            best, when = log_id, stamp
    return best


NO_GIT = ("this campaign is not kept in git, so nothing older can be brought back; change the files by hand "
          "(`git init` then `narateer git-setup` keeps its history from now on)")


def _by_git(root: Path, fix: str, without: str | None = None) -> str:
    """An undo refusal's way out: git's when the campaign is kept in git; else never advice to use a git
    it does not have."""
    from .gitops import git_dir

    if git_dir(root) is not None:
        return fix
    return f"{without}; {NO_GIT}" if without else NO_GIT


def latest_undo(root: Path, enc_id: str) -> tuple[Path, dict]:
    folder = undo_dir(root, enc_id)
    names = _records(folder)
    if not names and enc_id == CAMPAIGN:
        raise Refused("nothing to undo in encounter campaign (the campaign log: no encounter is current)",
                      fix="`narateer undo ID` undoes the last action of encounter ID")
    if not names:
        raise Refused(f"nothing to undo in encounter {enc_id}",
                      fix=_by_git(root, "undo history lives on the machine that made the change; use git to go further"))
    path = folder / names[-1]
    record, reason = _undo_data(root, enc_id, path)
    if record is None:
        raise Refused(f"nothing to undo in encounter {enc_id}: its last undo record {reason}; it is ignored",
                      rule="G-PRIV-2", fix=_by_git(root, "revert the change with git instead"))
    return path, record


def _undo_data(root: Path, enc_id: str, path: Path) -> tuple[dict | None, str | None]:
    """An undo record's content when it is sealed to this machine and campaign and names only the campaign's
    own data files, by full match; else None and why."""
    from . import private
    from .txn import is_data_path

    try:
        text = yamlio.read_text(path, path.name, nofollow=True)
    except (BadInput, OSError):
        return None, "cannot be read"
    record = private.opened(root, "undo", f"{enc_id}/{path.stem}", text, quiet=True)
    if record is None:
        return None, "was not made on this machine for this campaign"
    try:
        if not (isinstance(record["before"], dict) and isinstance(record["after"], dict)
                and all(is_data_path(rel) for rel in (*record["before"], *record["after"]))
                and isinstance(record["seq"], int)
                and all(t is None or isinstance(t, str) for t in record["before"].values())):
            raise ValueError
    except (ValueError, TypeError, KeyError):
        return None, "names something other than the campaign's data files"
    return record, None


def began_log(record: dict, log_id: str) -> bool:
    """The undo record is of the action that created this encounter (its state did not exist before it)
    and began its log (nothing before it stands in the log): undoing it removes the log with the state."""
    state = f"encounters/{log_id}.yaml"
    return (log_id != CAMPAIGN and record.get("parent") is None and state in record["before"]
            and record["before"][state] is None)


def check_undo(root: Path, record: dict, enc_id: str | None = None):
    """Refuse an undo that would overwrite a change made after the action, or whose entry is no
    longer the log's tip (history rewritten by checkout, stash or reset, or a merge)."""
    if enc_id is not None and record.get("id"):
        path = log_path(root, enc_id)
        tail = loglines.read_tail(path, log_label(path))
        tip = effective_tip(tail)  # after undo entries: the entry they returned to
        if tail.forked():
            raise Refused(f"the log of {enc_id} forks after entry {record['id']} (a merge); undo cannot be exact",
                          rule="G-MERGE-4", fix=_by_git(root, "revert it with git instead"))
        if tip != record["id"] and tail.last.get("unveils"):
            raise Refused(f"the last entry ({tip}) publishes secret roll {tail.last['unveils']}; an unveil cannot "
                          "be undone: its salt and result now stand in the log, which only grows (an undo is an "
                          "entry, never an erasure), so nothing can seal the roll again; "
                          f"and undo takes back only the log's last entry, so entry {record['id']} before it stays",
                          rule="H-4",
                          fix=_by_git(root, "play on; to go back before the unveil, revert its commits with git",
                                      "play on"))
        if tip != record["id"]:
            raise Refused(f"the undo record is for entry {record['id']} but the log's last entry is {tip} "
                          "(history changed by checkout, stash, reset or a merge)", rule="G-MERGE-4",
                          fix=_by_git(root, "revert it with git instead"))
    from . import private

    for rel, expected in record["after"].items():
        path = private.untag(root, rel)
        try:
            current = digest(path.read_bytes())
        except FileNotFoundError:
            current = None
        if current != expected:
            raise Refused(f"{rel} changed after entry {record['seq']}; undo would lose that change",
                          fix=_by_git(root, "revert it with git instead"))


def old_undo_records(root: Path, enc_id: str, seq: int | None = None) -> list[Path]:
    """Undo records to delete as an entry of `seq` is logged: those past the limit, and those of a seq after
    it. A seq only grows along a branch, so a record of a later seq is of an entry on another branch (git
    joined branches since, and the log's last line continues a shorter one): never the log's tip again, and
    left there it would stand before the new entry's record as the newest."""
    folder = undo_dir(root, enc_id)
    names = _records(folder)
    later = [name for name in names if seq is not None and name[:-len(".json")].isdigit()
             and int(name[:-len(".json")]) > seq]
    names = [name for name in names if name not in later]
    return [folder / name for name in later + (names[:-UNDO_KEEP] if len(names) > UNDO_KEEP else [])]
