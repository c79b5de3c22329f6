"""The one write path: a game computes an `Outcome`, and the host alone applies it.

`apply` runs inside the command's Session (the campaign lock held): it creates
and edits sheets key by key (store/edit.py), rewrites the encounter state and
narateer.yaml, logs one entry with its `changes`, seals a secret roll, keeps
the undo record, commits the transaction, and git-commits when asked. The
games compute; nothing under `systems/` writes.
"""

from __future__ import annotations

from ..errors import BadInput
from ..store.campaign import counters_of


def apply(session, outcome) -> dict:
    """Write every change of one action, all or none; returns the result's JSON shape as logged (each check
    with its exact `chance`, worked out before the roll)."""
    from ..render import plain
    from ..store import encounters
    from .encounter_ops import autocommit, log_action, say_sealed, wants_secret

    from ..store.secrets import public_paths

    o = _carried(session, thawed(outcome))
    result = plain(o.result)
    public = public_paths(o.result, o.public)
    secret = wants_secret(session, o.actor, result, o.secret, public)
    seals = None
    if secret:
        _refuse_visible(o)
        o, seals = _sealed_effects(session, o)
    session.txn.action = f"the {o.command} action"
    _create(session, o.created)
    moves = _edit_sheets(session, o)
    if o.config:
        _edit_config(session, o.config)
    root = session.campaign.root
    state_text = None
    if o.encounter is not None and o.state is not None:
        state_text = encounters.state_text(o.state)
        session.txn.write(encounters.state_path(root, o.encounter), state_text)
    # one entry per action, where verify and undo find it: an action of a character in the running encounter
    # goes to that encounter's log, whether or not the game named it; a change (or a secret roll) outside an
    # encounter goes to the campaign log
    log_id = o.encounter if o.encounter is not None else _running_encounter(session, o.actor)
    if log_id is None and (session.txn.changed() or secret):
        log_id = encounters.CAMPAIGN
    logged = {"declaration": o.declaration, "result": result}
    if log_id is not None and o.log:
        logged = log_action(session, log_id, o.command, o.actor, o.declaration, result, moves, secret, o.entry_id,
                            o.private, o.extra, (public, o.declared_public), seals)
    changed = session.txn.changed()
    session.commit()
    say_sealed(session)
    if state_text is not None:
        encounters.remember_state(root, o.state, state_text)
    # the commit message says only what the log shows (of a secret roll, its public part)
    autocommit(session, changed, o.command, o.actor, logged["declaration"], logged["result"])
    return result


def _running_encounter(session, actor) -> str | None:
    """The id of the running encounter (`--in`, else narateer.yaml's) when `actor` takes part in it, else None:
    where the entry of an Outcome that names no encounter goes."""
    from .encounter_ops import current_encounter, current_encounter_id

    if not isinstance(actor, str) or current_encounter_id(session) is None:
        return None
    enc = current_encounter(session)
    return enc.id if enc is not None and enc.has(actor) else None


def thawed(o):
    """The outcome with its edits as plain data to write: a game may hand back what it read (a read-only
    view)."""
    from ..readonly import thaw

    sheets = {cid: {path: thaw(value) for path, value in edits.items()} for cid, edits in o.sheets.items()}
    return o.replace(sheets=sheets, state=thaw(o.state), config=thaw(o.config),
                     dice=thaw(o.dice) if isinstance(o.dice, dict) else o.dice)


def apply_bare(app, outcome) -> None:
    """A roll with no character (bare dice, a random DR) is logged only when secret: its commitment goes to
    the current encounter's log, else the campaign log. Outside a campaign there is no log: the roll is only
    shown."""
    from .common import Session
    from .encounter_ops import current_encounter_id

    try:
        app.campaign.root
    except BadInput:
        return
    with Session(app) as s:
        enc_id = current_encounter_id(s)
        if enc_id is not None:
            from ..store import encounters

            encounters.load_state(s.campaign.root, enc_id, s.campaign.system)  # it exists, and is this game's
        apply(s, outcome.replace(encounter=enc_id, state=None))


def _refuse_visible(o):
    """The host's backstop for secrecy: a --secret action may move counters (the declared costs its entry
    shows); one that would edit anything else on another character's sheet, which the table sees, is refused
    (exit 3) before anything is written. A game refuses (or defers) its own visible effects first, per verb."""
    from ..errors import Refused

    others = sorted(cid for cid in {*o.sheets, *o.created} if cid != o.actor and (o.sheets.get(cid) or cid in o.created))
    if others:
        raise Refused(f"a secret {o.command} would change {others[0]}'s sheet, which the table sees",
                      rule="S-SYS-8", fix="make it openly: drop --secret")


def _create(session, created: dict):
    for cid, text in created.items():
        path = session.campaign.sheet_path(cid)
        if path.exists() or session.txn.rel(path) in session.txn.writes:
            raise BadInput(f"characters/{cid}.yaml already exists", fix="edit it, or choose another id")
        twins = session.campaign.case_twins(cid)  # ids are matched without case: one id, one character
        if twins:
            raise BadInput(f"characters/{twins[0]}.yaml exists: {cid} would differ from {twins[0]} only by case",
                           fix=f"choose another id, or use {twins[0]}")
        session.txn.write(path, text)


def _edit_sheets(session, o) -> dict | None:
    """Apply the sheet edits and counters; returns the `dice` field's moves {id: (before, after)} (None: the
    entry carries none)."""
    system = session.campaign.system
    block, states = session.campaign.counters
    dice = o.dice or {}
    before = {cid: dict(counters_of(session.sheet(cid))) for cid in {*dice, *o.sheets} if cid not in o.created}
    for cid in dict.fromkeys([*dice, *o.sheets]):
        edits = dict(o.sheets.get(cid, {}))
        if cid in dice and not edits:
            session.set_sheet(cid, dice=dice[cid])  # counters alone: edited where they stand (the fast path)
            continue
        skip = set()
        for state in states if cid in dice else ():
            edits[(block, state)] = dice[cid].get(state, 0)
            skip.add((block, state))
        session.edit_sheet(cid, edits, system.explicit_null, frozenset(skip))
    if o.dice_changed:
        moves = {cid: ({}, counters_of(_parsed(session, cid, text))) for cid, text in o.created.items()}
        after = {cid: _counters_now(session, cid) for cid in before}
        moves.update({cid: (before[cid], after[cid]) for cid in before if after[cid] != before[cid]})
        return moves
    if o.dice is None:
        return None
    return {cid: (before[cid], after) for cid, after in dice.items()}


def _counters_now(session, cid: str) -> dict:
    sf = session.load(cid)
    if sf.text == sf.original:
        return dict(counters_of(sf.sheet))
    return dict(counters_of(session.campaign.system.parse_sheet(cid, sf.plain, sf.label, session.rules)))


def _parsed(session, cid: str, text: str):
    from ..store import yamlio

    label = f"characters/{cid}.yaml"
    return session.campaign.system.parse_sheet(cid, yamlio.to_plain(yamlio.load_rt(text, label)), label,
                                               session.rules)


def _edit_config(session, values: dict):
    """A game's own keys in narateer.yaml, key by key (the game names them, the host writes the file)."""
    from ..store.edit import edit

    camp = session.campaign
    doc, text = camp.config_doc()
    new, _ = edit(text, doc, {(key,): value for key, value in values.items()}, "narateer.yaml",
                  camp.system.explicit_null)
    if new != text:
        session.txn.write(camp.config_path, new)


# ---- sealed effects -------------------------------------------------------------------------------------------


def _before_state(session, enc_id: str):
    """(the state of `enc_id` as its file holds it, {sealed text: value this command read it as}); ({}, {}) for
    an encounter this action begins."""
    from ..store import encounters

    enc = getattr(session, "_encounter", None)
    if enc is not None and enc.id == enc_id:
        return enc.raw, enc.values
    if not encounters.state_path(session.campaign.root, enc_id).exists():
        return {}, {}
    return encounters.load_state(session.campaign.root, enc_id, session.campaign.system), {}


def _carried(session, o):
    """The outcome as it is written: a sealed value the action read and carried along, unchanged, keeps its
    commitment (the state's and each edited sheet's), so only what a secret action seals is ever sealed and
    nothing sealed is written in clear by an action that did not change it (store/sealed.py)."""
    from ..store import sealed

    changes = {}
    if o.encounter is not None and o.state is not None:
        enc = getattr(session, "_encounter", None)  # read with its sealed values applied, or as the file is
        read = enc is not None and enc.id == o.encounter
        state = sealed.resealed(o.state, enc.raw if read else {}, enc.values if read else {})
        if state is not o.state:
            changes["state"] = state
    edited = {}
    for cid, edits in o.sheets.items():
        if cid in o.created or not edits:
            continue
        sf = session.load(cid)
        if sealed.PREFIX in sf.text or any(type(v).__name__ == "Withheld" for v in edits.values()):
            edited[cid] = sealed.resealed_edits(edits, sf.plain, sealed.Opened(session.campaign.root))
    if edited:
        changes["sheets"] = {**o.sheets, **edited}
    return o.replace(**changes) if changes else o


def _sealed_effects(session, o):
    """A secret outcome's changes besides counters, held to what its verb declares (`command(shows=...,
    seals=...)`): one it declares neither shown nor sealed is refused (exit 3) before anything is written,
    naming the game's function; one it declares sealed is written as its commitment, the value kept for the
    private record. Returns the outcome to write and {"seals": {key path: commitment}, "sealed": {commitment:
    {salt, value}}} (None: nothing sealed)."""
    from ..declare import NO_SECRECY
    from ..store.sealed import MISSING

    secrecy = getattr(session.app, "secrecy", None) or NO_SECRECY
    state = _copy(o.state) if o.encounter is not None and o.state is not None else None
    edits = dict(o.sheets.get(o.actor) or {}) if isinstance(o.actor, str) and o.actor not in o.created else {}
    sheet = _edited(session.load(o.actor).plain, edits) if edits else None
    units: list[tuple[str, tuple]] = []  # (where, key path) of each value to seal
    for where, path, after in _secret_changes(session, o, state, sheet):
        full = (where, *(str(k) for k in path))
        kind = secrecy.covers(full)
        if kind is None:
            _undeclared(session, o, full)
        unit = (where, secrecy.sealed_at(full)[1:]) if kind == "seals" and after is not MISSING else None
        if unit is not None and unit not in units:
            units.append(unit)
    if not units:
        return o, None
    return _seal_units(o, units, state, sheet, edits)


def _secret_changes(session, o, state, sheet):
    """("state", "sheet" or "config", key path, value after) of each change of a secret outcome besides
    counters: in the encounter's state (against the state as read), in the settings (narateer.yaml), and on
    the actor's own sheet (its other sheets' edits are refused already)."""
    from ..outcome import REMOVED
    from ..store import sealed

    if state is not None:
        before, _ = _before_state(session, o.encounter)
        for path, _, after in sealed.changes(before, state):
            yield "state", path, after
    for key, value in (o.config or {}).items():
        now = session.campaign.config().get(key, sealed.MISSING)
        if not sealed.same(now, sealed.MISSING if value is REMOVED else value):
            yield "config", (key,), value
    if sheet is not None:
        counters = [tuple(c.split(".")) for c in session.campaign.system.counters]
        for path, _, after in sealed.changes(_copy(session.load(o.actor).plain), sheet):
            if not any(len(c) == len(path) and all(a in ("*", str(b)) for a, b in zip(c, path)) for c in counters):
                yield "sheet", path, after


def _seal_units(o, units: list, state, sheet, edits: dict):
    """The outcome with each sealed value's commitment in its place, and what the log and the private record
    keep of them (`_sealed_effects`); equal values share one commitment."""
    from ..store import loglines, sealed, secrets

    entry_id = o.entry_id or loglines.new_id()
    seals, kept, made = {}, {}, {}
    for where, path in units:
        doc = state if where == "state" else sheet
        value = sealed.get(doc, path)
        key = secrets.canonical(value)
        if key not in made:
            salt = secrets.new_salt()
            made[key] = secrets.commitment(salt, value)
            kept[made[key]] = {"salt": salt.hex(), "value": value}
        seals[f"{where}.{sealed.dotted(path)}"] = made[key]
        sealed.sealed_at(doc, path, sealed.token(entry_id, made[key]))
    changes: dict = {"entry_id": entry_id}
    if any(where == "state" for where, _ in units):
        changes["state"] = state
    if any(where == "sheet" for where, _ in units):
        changes["sheets"] = {**o.sheets, o.actor: _sealed_edits(edits, sheet, [p for w, p in units if w == "sheet"])}
    return o.replace(**changes), {"seals": seals, "sealed": kept}


def _undeclared(session, o, full: tuple):
    from ..errors import Refused
    from ..readonly import function_name

    fn = getattr(session.app, "secrecy_of", None)
    who = function_name(fn) if fn is not None else f"the {o.command} command"
    path = ".".join(full)
    raise Refused(f"{who} makes a secret {o.command} change {path}, which it declares neither shown nor sealed; "
                  "nothing was written", rule="P2-SEAL-4",
                  fix=f"make it openly (drop --secret); the game declares it: command(shows=({path!r},)) when the "
                      f"table perceives it, seals=({path!r},) when it is a secret")


def _copy(value):
    import copy

    from ..readonly import thaw

    out = thaw(value)
    return copy.deepcopy(out) if out is value else out


def _edited(plain, edits: dict) -> dict:
    """The sheet's plain data with the edits made ({key path: value}; REMOVED removes the key)."""
    from ..outcome import REMOVED

    doc = _copy(plain)
    for path, value in edits.items():
        node = doc
        for key in path[:-1]:
            if not isinstance(node.get(key), dict):
                node[key] = {}
            node = node[key]
        if value is REMOVED:
            node.pop(path[-1], None)
        else:
            node[path[-1]] = _copy(value)
    return doc


def _sealed_edits(edits: dict, sheet: dict, units: list) -> dict:
    """The actor's sheet edits with each sealed value's commitment in its place: an edit at or below a sealed
    key becomes the edit of that key, an edit above one takes its value with the commitment inside."""
    from ..store import sealed

    out = {}
    for path, value in edits.items():
        if any(path[:len(u)] == u for u in units):
            continue
        out[path] = sealed.get(sheet, path) if any(u[:len(path)] == path for u in units) else value
    for unit in units:
        if not any(unit[:len(p)] == p for p in out):
            out[unit] = sealed.get(sheet, unit)
    return out
