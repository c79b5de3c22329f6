"""Encounter commands every system shares: encounter new/show/log, undo and verify.

They reach the game only through its SYSTEM hooks: `new_state` for a new
encounter, `parse_sheet` for the counters an undo restores, `verify_log` to
re-check a log. There is one `encounter` group, made by `encounter_group`: it
holds the host's subcommands (new, show, log, end), and a system with more to
say (Narateer's `encounter show` and `join`) takes a group from it and adds its
own subcommands, a name the host has already replacing the host's.
"""

from __future__ import annotations

import contextlib

import click

from .common import Session, command, emit, nonneg
from ..outcome import Outcome
from ..store.campaign import counters_of
from .encounter_ops import Encounter, current_encounter, log_undo, restore_last


ENCOUNTER_HELP = """Create, show and read encounters.

\b
Examples:
  narateer encounter new skirmish selka sentry
  narateer encounter show
  narateer encounter log --last 5"""


@command(name="new", help="""Create encounter ID with these participants and make it current.

\b
Example:
  narateer encounter new skirmish selka sentry mira bandit""")
@click.argument("enc_id")
@click.argument("chars", nargs=-1)
def encounter_new(app, enc_id, chars):
    from ..errors import BadInput
    from ..store import encounters
    from .apply import apply

    with Session(app) as s:
        if enc_id == encounters.CAMPAIGN:
            raise BadInput(f"the encounter id {enc_id!r} is reserved for the campaign log", rule="G-LOG-5",
                           fix="pick another id")
        path = encounters.state_path(s.campaign.root, enc_id)
        if path.exists():
            raise BadInput(f"encounter {enc_id} already exists", fix=f"use it with --in {enc_id}, or pick another id")
        if len(set(chars)) != len(chars):
            raise BadInput("a participant is named twice", fix="name each character once")
        for char in chars:
            s.sheet(char)
        state = s.campaign.system.get("new_state")(enc_id, list(chars), s.rules)
        apply(s, Outcome("encounter new", None, {"participants": list(chars)}, {"id": enc_id}, dice={},
                         config={"encounter": enc_id}, encounter=enc_id, state=state))
    from ..render import HostKind

    emit(app, HostKind.encounter_new, {"id": enc_id, "participants": list(chars), "current": True})


def _behind(session, hist, log_id: str) -> str | None:
    """Counters follow the log: after git joined branches of this log and before any writer reconciled
    them, a sheet that does not hold the log's sum (git kept one side's bytes) is behind its log."""
    if len(hist.tips) < 2:
        return None
    from ..errors import NarateerError
    from ..store.encounters import TAKE_BACK, spent_twice
    from ..store.loglines import held as nonzero

    final = hist.final_dice() or {}
    for cid, dice in sorted(final.items()):
        try:
            loaded = session.load(cid)
        except NarateerError:  # a sheet that is gone or broken is check's to report
            loaded = None
        twice = spent_twice(cid, dice, session.campaign.system, loaded.plain if loaded is not None else None)
        if twice:  # no sheet is right: reconcile refuses it too
            return f"encounters/{log_id}.log.yaml: {twice}; {TAKE_BACK}"
        if loaded is None:
            continue
        held = counters_of(loaded.sheet)
        if nonzero(held) != nonzero(dice):
            return (f"characters/{cid}.yaml holds {held} but encounters/{log_id}.log.yaml gives {dice} once its "
                    "merged branches are added up: the sheet is behind its log; run `narateer reconcile`")
    return None


def _undo_log_id(session, enc_id):
    """The log `undo` works on: the one named; else whichever of the current encounter's log and the campaign
    log holds this machine's last action (a character outside the encounter logs to the campaign log)."""
    from ..store import encounters
    from .encounter_ops import current_encounter_id

    current = current_encounter_id(session)
    if enc_id is not None or current is None:
        return _log_id(session, enc_id)
    pick(session, current)  # the current encounter is there, and this game's
    newest = encounters.newest_undo_log(session.campaign.root, [current, encounters.CAMPAIGN])
    return newest or current


def _log_id(session, enc_id):
    """The log `undo` and `verify` work on: the one named (`campaign` is the campaign log),
    else the current encounter's, else the campaign log."""
    from ..store.encounters import CAMPAIGN
    from .encounter_ops import current_encounter_id

    if enc_id == CAMPAIGN or (enc_id is None and current_encounter_id(session) is None):
        return CAMPAIGN
    return pick(session, enc_id).id


@command(name="end", help="""Close encounter ID (default: the current one).

It is no longer current, its files stay, and an entry is logged; changes
after it go to the campaign log. Each timed condition still running in it
(`condition CHAR +NAME --rounds N`) ends with it and is named, unless
--keep-conditions keeps them on the sheets, each with the rounds it has left.

\b
Examples:
  narateer encounter end        (the current one)
  narateer encounter end --keep-conditions""")
@click.argument("enc_id", required=False)
@click.option("--keep-conditions", "keep", is_flag=True,
              help="Leave the timed conditions on the sheets, with their rounds left, in place of ending them.")
def encounter_end(app, enc_id, keep):
    from .apply import apply

    with Session(app) as s:
        enc = pick(s, enc_id)
        current = s.campaign.config().get("encounter")
        made = ended_outcome(s, enc, current is not None and str(current) == enc.id, keep)
        apply(s, made)
    from ..render import HostKind

    emit(app, HostKind.encounter_end, made.result)


def ended_outcome(s, enc, current: bool, keep: bool) -> Outcome:
    """The Outcome of ending `enc`: not current any more (when it was), and each timed condition still
    running in it ended (the game's `end_conditions` takes them off the sheets) or, kept, named with its
    rounds left. A game that gives no way to end them is refused unless the Guide keeps them."""
    from .. import durations
    from ..errors import Refused
    from ..outcome import REMOVED

    timers = durations.running(enc.state)
    result: dict = {"id": enc.id, "current": False}
    declaration = {"keep_conditions": True} if keep else {}
    config = {"encounter": REMOVED} if current else None
    edits = None
    if timers and keep:
        result["kept"] = [{"char": cid, "condition": name, "rounds_left": rounds}
                          for cid, names in timers.items() for name, rounds in names.items()]
    elif timers:
        hook = s.campaign.system.hook("end_conditions")
        if hook is None:
            first = next(iter(timers))
            raise Refused(f"{first}'s {', '.join(timers[first])} would outlive encounter {enc.id}, and this game "
                          "cannot take timed conditions off a sheet", rule="T3-END",
                          fix=f"narateer encounter end {enc.id} --keep-conditions, then remove them with `condition`")
        from .common import _called
        from ..readonly import is_game

        edits = _called(hook, is_game(hook), s, {"ended": {cid: tuple(names) for cid, names in timers.items()}})
        result["ended"] = [{"char": cid, "condition": name} for cid, names in timers.items() for name in names]
    state = durations.cleared(enc.state) if timers and not keep else enc.state
    made = Outcome("encounter end", None, declaration, result, dice={}, config=config, encounter=enc.id, state=state)
    if edits is not None:
        made = made.replace(sheets=edits.sheets, dice=edits.dice if edits.dice is not None else {},
                            dice_changed=edits.dice_changed, extra=edits.extra)
    return made


def pick(session, enc_id: str | None) -> Encounter:
    """The encounter a command names (or the current one)."""
    if enc_id is not None:
        session.app.encounter_id = enc_id
    return current_encounter(session, required=True)


@command(name="show", help="""The encounter's state and each participant's counters.

\b
Example:
  narateer encounter show""")
@click.argument("enc_id", required=False)
def encounter_show(app, enc_id):
    with Session(app, write=False) as s:
        enc = pick(s, enc_id)
        status = {cid: {"dice": counters_of(s.sheet(cid))} for cid in enc.state["participants"]}
    from ..render import HostKind

    emit(app, HostKind.encounter_show, {**enc.state, "status": status})


@command(name="log", help="""Print an encounter's log: seq, id, time, actor, what happened.

\b
Examples:
  narateer encounter log --last 5
  narateer encounter log --since 3 --json""")
@click.argument("enc_id", required=False)
@click.option("--last", type=int, help="Only the last N entries (after the other filters).")
@click.option("--actor", "actors", multiple=True, metavar="CHAR", help="Only entries whose actor is CHAR (repeatable).")
@click.option("--since", metavar="SEQ|TIME", help="Only entries from seq N on, or from a time on (13:05, or 2026-11-30T13:05).")
def encounter_log(app, enc_id, last, actors, since):
    from ..render import out_log

    with Session(app, write=False) as s:
        log_id = _log_id(s, enc_id)
        nonneg("--last", last)
        keep = log_filter(actors, since)
        every = not actors and since is None
        with _log_entries(s.campaign.root, log_id, None if every else keep, last) as entries:
            shown = entries if app.as_json else _read_sealed_here(s.campaign.root, entries)
            out_log(log_id, shown, app.as_json, app.system, color=app.use_color(), seeded=app.seeded,
                    sink=app.sink)


def _read_sealed_here(root, entries):
    """The entries in words as the machine that holds their sealed records reads them: a secret entry whose
    record is in this private folder (the Guide's) carries its sealed result for its words; elsewhere (a
    player's clone) it stays a commitment."""
    from ..render import SEALED_HERE
    from ..store import secrets

    def read():
        for entry in entries():
            if entry.get("commitment") is not None and "unveils" not in entry and isinstance(entry.get("id"), str):
                record = secrets.read_record(root, entry["id"])
                if record is not None and isinstance(record.get("result"), dict):
                    entry = {**entry, SEALED_HERE: record["result"]}
            yield entry
    return read


@contextlib.contextmanager
def _log_entries(root, log_id, keep, last):
    """The entries `encounter log` prints (those `keep` keeps, the last `last` of them), as a function
    that streams them afresh on each call. With --last N at most N are held, and a plain --last reads only
    the log's end; without it no entry is held, so memory stays flat however long the log."""
    from collections import deque

    from ..report import undone_ids
    from ..store import encounters, loglines

    path = encounters.log_path(root, log_id)
    label = encounters.log_label(path)
    if last and keep is None:  # an undo comes after what it undoes: the log's end names all it shows
        kept = encounters.read_log(root, log_id, last=last, damaged=loglines.warn(label))
        undone = undone_ids(kept)
    elif last is not None:
        kept = list(deque(filter(keep, loglines.entries(path, label, damaged=loglines.warn(label))), maxlen=last))
        undone = undone_ids(loglines.entries(path, label, UNDO_MARKS, damaged=loglines.quiet))
    if last is not None:
        yield _marked(lambda: iter(kept), undone)
        return
    # a damaged line is named once on stderr (the first pass) and passed over; the log is still shown
    warned = []

    def damaged(number, problem):
        if number not in warned:
            warned.append(number)
            loglines.warn(label)(number, problem)

    with loglines.Snapshot(path, label) as log:
        undone = undone_ids(log.entries(UNDO_MARKS, damaged=loglines.quiet))
        every = lambda: log.entries(damaged=damaged)  # noqa: E731
        yield _marked(every if keep is None else lambda: filter(keep, every()), undone)


UNDO_MARKS = (b'"undo"',)  # every log line of an undo holds its command's name


def _marked(entries, undone: set):
    """`entries` with `"undone": true` on each entry a later `undo` took back: `encounter log` marks
    its row, and its --json holds the key (absent on every other entry)."""
    if not undone:
        return entries

    def marked():
        for entry in entries():
            if str(entry.get("id")) in undone or str(entry.get("seq")) in undone:
                entry = {**entry, "undone": True}
            yield entry
    return marked


def encounter_group(help: str = ENCOUNTER_HELP, shared: tuple[str, ...] = ("new", "show", "log", "end")) -> click.Group:
    """A fresh `encounter` group holding the host's subcommands named in `shared`, the same in every game.

    A system extends it with `@command(group=its_group, name=...)`; a name the host has already is
    replaced, so every system's group has the host's rows, filters and words wherever it adds nothing."""
    from ..cli import Group

    group = Group(name="encounter", help=help)
    for name in shared:
        group.add_command(HOST_SUBCOMMANDS[name])
    return group


HOST_SUBCOMMANDS = {"new": encounter_new, "show": encounter_show, "log": encounter_log, "end": encounter_end}
encounter_cmd = encounter_group()  # the host's own, for a system that lists no `encounter` verb

def real_time(text: str) -> bool:
    """A date (YYYY-MM-DD), a date-time or a clock time (HH:MM[:SS]) that exists: 2026-02-30 and 99:99 do not."""
    from datetime import date, time

    day, _, clock = text.rstrip("Z").replace(" ", "T").partition("T")
    try:
        if "-" in day:
            date.fromisoformat(day)
        else:
            clock = day
        if clock:
            time.fromisoformat(clock)
    except ValueError:
        return False
    return True


def log_filter(actors, since):
    """Which entries `encounter log --actor` and `--since` keep (a seq number, a clock time, or a date-time)."""
    from ..errors import BadInput

    at_least = None
    if since is not None:
        text = since.strip()
        if text.isdigit():
            at_least = ("seq", int(text))
        elif len(text) >= 4 and text[:2].isdigit() and ":" in text[:3]:
            at_least = ("time of day", text if len(text) > 5 else text + ":00")
        elif len(text) >= 10 and text[4] == "-":
            at_least = ("at", text.replace(" ", "T"))
        if at_least is None or (at_least[0] != "seq" and not real_time(text)):
            raise BadInput(f"--since {since!r} is neither a seq number nor a time",
                           fix="give --since 12 (from entry 12), --since 13:05 or --since 2026-11-30T13:05")

    def keep(entry) -> bool:
        if actors and entry.get("actor") not in actors:
            return False
        if at_least is None:
            return True
        kind, value = at_least
        if kind == "seq":
            return (entry.get("seq") or 0) >= value
        at = str(entry.get("at") or "")
        return (at[11:19] if kind == "time of day" else at) >= value

    return keep


@command(help="""Revert the last logged action: every file it replaced gets its previous bytes back.

The undo itself is appended to the log.

\b
Example:
  narateer undo""")
@click.argument("enc_id", required=False)
def undo_cmd(app, enc_id):
    from ..store import encounters

    with Session(app) as s:
        log_id = _undo_log_id(s, enc_id)
        record, sheets = restore_last(s, log_id)
        gone = [f"encounters/{log_id}.log.yaml"] if encounters.began_log(record, log_id) else []  # its log goes too
        undone = _undone_entry(s.campaign.root, log_id, record)
        if undone is not None and undone.get("commitment") is not None:  # a secret action taken back: its sealed
            from ..store import secrets                                   # record goes with it, nothing to unveil

            s.txn.write(secrets.record_path(s.campaign.root, str(undone.get("id"))), None)
        data = {"encounter": log_id, "undone": record["seq"], "files": sorted([*record["before"], *gone]),
                "undid": _undone_words(undone, s.campaign.system)}
        own = s.campaign.system.hook("undo_fields")  # a system that logs its own fields beside `dice`
        moves = {cid: (counters_of(now), counters_of(back)) for cid, (now, back) in sheets.items()}
        log_undo(s, log_id, record, data, moves, extra=own(sheets) if own else None)
    from ..render import HostKind

    emit(app, HostKind.undo, data)


def _undone_words(found, system) -> str | None:
    """What the undone entry did, in words, so the undo's own entry names it."""
    from ..render import summary

    return None if found is None else f"{found.get('command')}: {summary(found, system)}"


def _undone_entry(root, log_id, record) -> dict | None:
    """The log entry an undo record takes back, or None when the log no longer holds it."""
    from ..store import encounters

    def undone(entry) -> bool:
        return entry.get("seq") == record["seq"] and (record.get("id") is None or entry.get("id") == record.get("id"))

    # Mostly the undone entry is the log's tip (undo takes the last entry); after n earlier undos it lies
    # about 2n back, so the read grows from the end until it holds it (the cost follows n, not the log size).
    last = 1
    while True:
        entries = encounters.read_log(root, log_id, last=last)
        found = next((e for e in reversed(entries) if undone(e)), None)
        if found is not None:
            return found
        if len(entries) < last:  # the whole log was read
            return None
        last *= 8


@command(help="""Re-check an encounter log: totals, margins, outcomes, payments, dice before/after.

Reports the first inconsistency with its entry and exits 1.

\b
Examples:
  narateer verify               (the current encounter, else the campaign log)
  narateer verify campaign""")
@click.argument("enc_id", required=False)
def verify_cmd(app, enc_id):
    from ..store import encounters, secrets

    with Session(app, write=False) as s:
        log_id = _log_id(s, enc_id)
        audit, entry_problem = secrets.checker(s.campaign.root, s.campaign.system, s.rules,
                                               campaign_log=log_id == encounters.CAMPAIGN)
        hist = encounters.verify_log_file(s.campaign.root, log_id, entry_problem)
        problem = hist.problem or _behind(s, hist, log_id)
        lost = audit.lost()  # a secret whose private record is lost: listed, never an error
    data = {"encounter": log_id, "entries": hist.count, "ok": problem is None, "problem": problem,
            "secret": audit.still_secret(), "lost": lost}
    from ..render import HostKind

    emit(app, HostKind.verify, data)
    if problem:
        raise click.exceptions.Exit(1)


def host_command(name: str, help: str) -> click.Command:
    """A copy of one of the host's encounter commands (`encounter_new` ...) with a game's own help text."""
    import copy

    cmd = copy.copy(globals()[name])
    cmd.help = help
    return cmd
