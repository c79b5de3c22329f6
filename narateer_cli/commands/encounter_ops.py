"""Glue between a command's Session and the current encounter.

`Encounter` is the current encounter as one command reads it: its id and its
state, read-only. A game that changes the state builds the new state on a copy
and returns it in its Outcome (`encounter=enc.id, state=new`); the host writes
it with the sheets, one log entry and the undo record in one Transaction.
"""

from __future__ import annotations

from typing import Any, Literal, NoReturn, overload

from ..errors import BadInput


class Encounter:
    """The current encounter: `id`, `state` (a read-only view) and `has(char)`. Nothing is set on it
    after it is made: a game that tries is refused at once, naming its function, with nothing written;
    its new state reaches the host only as `Outcome(..., state=...)`.

    The state is read with its sealed values applied (store/sealed.py): on the machine that holds a secret
    action's record, the value itself; elsewhere a value that refuses to be read. `sealed` names the key
    paths that held one (`("recorded", "selka") in enc.sealed`), so a game can tell that what it compares
    with is a secret; `raw` is the state as the file holds it."""

    __slots__ = ("session", "id", "state", "raw", "sealed", "values")
    session: Any
    id: str
    state: dict
    raw: dict
    sealed: frozenset
    values: dict

    def __init__(self, session, enc_id: str):
        from ..readonly import view
        from ..store import encounters, sealed

        made = object.__setattr__
        made(self, "session", session)
        made(self, "id", enc_id)
        raw = encounters.load_state(session.campaign.root, enc_id, session.campaign.system)
        state, paths, values = sealed.applied(raw, sealed.Opened(session.campaign.root))
        made(self, "raw", raw)
        made(self, "state", raw if state is raw else view(state, f"the state of encounter {enc_id}"))
        made(self, "sealed", paths)
        made(self, "values", values)

    def __setattr__(self, key, value):
        self._refuse(key)

    def __delattr__(self, key):
        self._refuse(key)

    def _refuse(self, key: str) -> NoReturn:
        from ..readonly import ReadOnly, game_caller

        raise ReadOnly(f"{game_caller()} sets encounter {self.id}'s {key} in memory, which reaches no file",
                       rule="K-2", fix="build the new state on a copy (dict(enc.state)) and return it: "
                                       "Outcome(..., encounter=enc.id, state=new)")

    def has(self, char_id: str) -> bool:
        return char_id in self.state["participants"]


def current_encounter_id(session) -> str | None:
    app = session.app
    if getattr(app, "encounter_id", None) is not None:  # `--in ""` is an empty id, not "no --in"
        return app.encounter_id
    value = session.campaign.config().get("encounter")
    return str(value) if value else None


@overload
def current_encounter(session, required: Literal[True]) -> Encounter: ...
@overload
def current_encounter(session, required: bool = False) -> Encounter | None: ...


def current_encounter(session, required: bool = False) -> Encounter | None:
    """The current encounter (from --in or narateer.yaml), loaded once per command."""
    if getattr(session, "_encounter", None) is None:
        enc_id = current_encounter_id(session)
        if enc_id is None:
            if required:
                raise BadInput("no current encounter", fix="create one with `narateer encounter new ID CHAR...` or pass --in ID")
            return None
        session._encounter = Encounter(session, enc_id)
    return session._encounter


def encounter_for(session, char_id: str) -> Encounter | None:
    """The current encounter if CHAR takes part in it; checks outside encounters have no use limits."""
    enc = current_encounter(session)
    if enc is not None and enc.has(char_id):
        return enc
    if enc is not None and getattr(session.app, "encounter_id", None):
        raise BadInput(f"{char_id} is not in encounter {enc.id}",
                       fix="participants: " + ", ".join(enc.state["participants"]))
    return None


def reconcile(session) -> list[str]:
    """The first writer after a merge reconciles, so counters follow the log. For the current encounter's
    log and the campaign log, when git joined branches of play, every counter a branch changed is set to the
    fork's base plus every branch's logged change (git may have left one side's bytes: both sides wrote the
    same sheet and the driver never ran), and the `merge` entry records the log's value and the sheet's.
    Committed as its own action before the command computes from the sheets. Returns the ids of the sheets it
    set."""
    from ..store import encounters, txn
    from ..store.txn import Transaction

    root, fixed = session.campaign.root, []
    for log_id in dict.fromkeys([current_encounter_id(session), encounters.CAMPAIGN]):
        if log_id is None or (log_id != encounters.CAMPAIGN and not encounters.log_path(root, log_id).exists()):
            continue
        found = encounters.pending_merge(root, log_id)
        if found is None:
            continue
        text, corrections = found
        session.txn.action = "the merge reconciliation"
        for cid, dice in corrections.items():
            session.edit_sheet(cid, counter_paths(session.campaign, dice), session.campaign.system.explicit_null,
                               skip_zero=frozenset(counter_paths(session.campaign, dict.fromkeys(dice, 0))))
            fixed.append(cid)
        session.txn.append(encounters.log_path(root, log_id), text)
        if session.reconciled_files is None:
            session.reconciled_files = encounters.Reconciled(root)
        session.reconciled_files.keep(session.txn)
        session.commit()
        session.reconciled_files.commits = txn.COMMITS
        txn.RECONCILED += 1  # its own action: an error in the command after it does not mean the command was written
        session.sheets, session.first_plain, session.rendered = {}, {}, {}  # read again, as reconciled
        session.txn = Transaction(root)
    return fixed


def counter_paths(campaign, dice: dict) -> dict:
    """A sheet's counters as its record names them (`.counters`), as key paths: a dotted name is its own
    path (`points.body`, `charges.stun-word`), a bare one is the SYSTEM.counters path it ends (`ready` ->
    action_dice.ready, `wounds` -> wounds)."""
    counters = campaign.system.counters
    out = {}
    for key, value in dice.items():
        full = key if key in counters or "." in key else next((c for c in counters if c.endswith("." + key)), key)
        out[tuple(full.split("."))] = value
    return out


def say_sealed(session):
    """Asked for with --secret: say on stderr where the commitment went (a random DR is always secret)."""
    app = session.app
    if getattr(session, "secret_entry", None) and getattr(app, "secret", False) and not getattr(app, "as_json", False):
        app.sink.note(f"narateer: secret roll: the log holds only its commitment (entry {session.secret_entry}); "
                         f"publish it with `narateer unveil {session.secret_entry}`\n")


def log_action(session, log_id: str, command: str, actor, declaration: dict, result: dict, moves: dict | None,
               secret: bool = False, entry_id: str | None = None, private=(), extra: dict | None = None,
               public=None, seals: dict | None = None) -> dict:
    """Log one action in the transaction: its entry, and the undo record of every file it replaces (the
    previous text, bound to the entry's id, so undo restores only that entry); older undo records past the
    limit go. Returns the entry.
    `secret`, `entry_id`, `private`, `extra`, `seals`: as `append_entry` (a secret entry logs a commitment)."""
    from ..store import encounters

    root = session.campaign.root
    writes = dict(session.txn.writes)
    before = session.txn.before()
    entry = append_entry(session, log_id, command, actor, declaration, result, moves, secret, entry_id, private,
                         extra, public, seals)
    session.txn.write(encounters.undo_dir(root, log_id) / f"{entry['seq']:08d}.json",
                      encounters.undo_record(root, log_id, before, writes, entry["seq"], entry["id"], entry["resumes"]))
    for old in encounters.old_undo_records(root, log_id, entry["seq"]):
        session.txn.write(old, None)
    return entry


def restore_last(session, log_id: str) -> tuple[dict, dict]:
    """Undo's file half: give every file the log's last action replaced its previous bytes (its undo record
    is bound to that entry) and drop the record. Returns the record and, per restored sheet, (sheet now, sheet restored)."""
    from ..store import encounters, yamlio

    root = session.campaign.root
    path, record = encounters.latest_undo(root, log_id)
    encounters.check_undo(root, record, log_id)
    sheets = {}
    from ..store import private

    for rel, text in record["before"].items():
        session.txn.write(private.untag(root, rel), text)
        if rel.startswith("characters/") and text is not None:
            cid = rel[len("characters/"):-len(".yaml")]
            back = session.campaign.system.parse_sheet(cid, yamlio.load_rt(text, rel), rel, session.rules)
            sheets[cid] = (session.sheet(cid), back)
    session.txn.write(path, None)
    return record, sheets


def log_undo(session, log_id: str, record: dict, data: dict, moves: dict | None, extra: dict | None = None):
    """Undo's log half: the entry naming the id it undoes and where play resumes, then commit."""
    from ..store import encounters

    if encounters.began_log(record, log_id):  # undoing `encounter new` removes its log with its state
        session.txn.write(encounters.log_path(session.campaign.root, log_id), None)
    else:
        undoes = {"undoes": record.get("id") or record["seq"], "resumes": record.get("parent")}
        append_entry(session, log_id, "undo", None, undoes, data, moves, extra=extra)
    changed = session.txn.changed()
    session.commit()
    autocommit(session, changed, "undo", None, {}, data)


def append_entry(session, enc_id: str, command: str, actor, declaration: dict, result: dict, moves: dict | None,
                 secret: bool = False, entry_id: str | None = None, private=(), extra: dict | None = None,
                 public=None, seals: dict | None = None) -> dict:
    """Add one log entry (seq, id and parent from the log's tail) to the transaction; returns it.
    `moves` maps each character whose dice moved to (dice before, dice after) (None: the system tracks no
    dice in its entries); `extra` adds a system's own entry fields after them (d20-cards' `state`); `seals`:
    a secret action's sealed effects (its `seals` field, and the values its private record keeps)."""
    from ..store import encounters

    fields = {"command": command, "actor": actor, "declaration": declaration, "result": result}
    if moves is not None:
        fields["dice"] = {cid: {"before": dict(b), "after": dict(a)} for cid, (b, a) in moves.items()}
    fields.update(extra or {})
    fields["changes"] = sheet_changes(session)
    fields = logged_fields(session, enc_id, fields, secret, entry_id, private, public, seals)
    log = encounters.log_path(session.campaign.root, enc_id)
    text, entry = encounters.new_entry(log, fields, session.txn.pending(log))
    session.txn.append(log, text)
    if "commitment" in fields:
        session.secret_entry = entry["id"]
    return entry


def sheet_changes(session) -> dict:
    """Every sheet this transaction replaces, as {character: {key path: before/after (delta)}}, the same
    shape in every game (store/changes.py): the game computes, the host writes. Parses come from the session where it has them."""
    from ..store import changes, yamlio

    known = {}
    for sf in session.sheets.values():
        if getattr(sf, "plain", None) is not None:
            known[sf.text] = sf.plain
        if session.first_plain.get(sf.id) is not None:
            known[sf.original] = session.first_plain[sf.id]

    def plain_of(text, label):
        if text is None:
            return None
        if text not in known:
            known[text] = yamlio.to_plain(yamlio.load_rt(text, label))  # tags kept as data, as sheets are read
        return known[text]

    return changes.of_transaction(session.txn, session.campaign.system.counters, plain_of)


def logged_fields(session, log_id: str, fields: dict, secret: bool = False, entry_id: str | None = None,
                  private=(), public=None, seals: dict | None = None) -> dict:
    """An entry's fields as they go into the log: each check of the result with its exact `chance`
    (recorded before the roll); a secret roll as its commitment and public part, the salt and whole result
    kept in the private folder's `secrets/`. The public part (what its types declare public): `public`, the
    (result paths, declaration paths) its types declare, less the `private` keys this entry also hides."""
    from ..luck import annotate

    result = fields.get("result")
    if isinstance(result, dict):
        annotate(session.campaign.system, session.rules, result, fields.get("declaration"))
    if not secret:
        return fields
    from ..store import loglines, secrets

    out = dict(fields)
    if isinstance(out.get("changes"), dict):  # of a secret roll only the declared cost (counters) is public
        from ..store.changes import public as public_changes

        out["changes"] = public_changes(out["changes"], session.campaign.system.counters)
    out["id"] = entry_id or loglines.new_id()
    out["commitment"] = secrets.seal(session.campaign.root, out["id"], result, log_id,
                                     seals["sealed"] if seals else None)
    if seals:  # each sealed effect's commitment, its value in the private record
        out["seals"] = seals["seals"]
    paths, declared = public or (frozenset(), None)
    if paths != secrets.ALL:
        paths = frozenset(p for p in paths if not set(p.split(".")) & set(private))
    out["result"] = secrets.shown(result, paths)
    if isinstance(fields.get("declaration"), dict) and declared is not None:  # faces typed at the table
        out["declaration"] = secrets.shown(fields["declaration"], frozenset(declared))
    return out


def secret_asked(session, actor) -> bool:
    """Will a roll by `actor` be secret: --secret, or a `guide: true` sheet (every roll of it is secret)?"""
    if getattr(session.app, "secret", False):
        return True
    return is_guide(session.load(actor) if isinstance(actor, str) else None)


def wants_secret(session, actor, result, secret: bool, public=frozenset()) -> bool:
    """--secret, a roll the command always keeps secret (a random DR), or any roll of a `guide: true` sheet.
    A roll: a command that `rolls` (its declaration) whose result holds anything not `public`. An
    outcome the game makes secret itself (`Outcome(secret=True)`: a random DR, a result compared with a
    sealed value) is secret whatever the command, when its result holds anything not public."""
    from ..errors import BadInput
    from ..store.secrets import hides

    rolls = bool(getattr(session.app, "rolls", False)) and hides(result, public)
    if secret and not getattr(session.app, "secret", False):  # the game's own: a result that compares with a
        return hides(result, public)                            # sealed value is as secret as that value
    if secret or getattr(session.app, "secret", False):
        if not rolls and getattr(session.app, "secret", False):
            raise BadInput("--secret hides a roll, and this command rolls nothing", rule="P-SECRET-1",
                           fix="drop --secret")
        return rolls
    return rolls and is_guide(session.sheets.get(actor) if isinstance(actor, str) else None)


def is_guide(sheet_file) -> bool:
    """Does this loaded sheet say `guide: true` (every roll of it is secret)?"""
    if sheet_file is None:
        return False
    plain = sheet_file.plain
    if plain is None:
        from ..store.yamlio import to_plain

        plain = to_plain(sheet_file.doc)
    return isinstance(plain, dict) and plain.get("guide") is True


def autocommit(session, changed: list[str], command: str, actor, declaration: dict, result: dict):
    """--commit (or `autocommit: true`): commit this action's files with a message for the table."""
    if not wants_commit(session):
        return
    from ..render import summary as words

    summary = words({"command": command, "actor": actor, "declaration": declaration, "result": result},
                    session.campaign.system)
    import subprocess

    from ..store import private

    files = [f for f in changed if not f.startswith(private.TAG)]
    if not files:
        return
    root = session.campaign.root
    try:
        subprocess.run(["git", "add", "--", *files], cwd=root, check=True, capture_output=True)
        subprocess.run(["git", "commit", "-q", "-m", summary, "--", *files], cwd=root, check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        # the action is saved: say so, but keep the exit status of a command that was done
        from ..safetext import printable

        err = (getattr(exc, "stderr", b"") or b"").decode(errors="replace").strip() or str(exc)
        session.app.sink.note(f"narateer: warning: saved, but git commit failed ({printable(' '.join(err.split()))}); "
                              "commit the files by hand\n")


def wants_commit(session) -> bool:
    return bool(getattr(session.app, "git_commit", False) or session.campaign.config().get("autocommit") is True)


def require_git(session):
    """--commit (or autocommit) needs a git work tree: bad input, found before anything is written."""
    if not wants_commit(session):
        return
    import subprocess

    try:
        inside = subprocess.run(["git", "rev-parse", "--is-inside-work-tree"], cwd=session.campaign.root,
                                capture_output=True, text=True).stdout.strip() == "true"
    except OSError:
        inside = False
    if not inside:
        raise BadInput("--commit (or autocommit: true) needs the campaign to be in a git repository",
                       fix="run `git init` in the campaign folder, or drop --commit / set autocommit: false")
