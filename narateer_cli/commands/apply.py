"""The one write path (S-SYS-7): the host applies a game's `Outcome`.

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
    with its exact `chance`, P-LUCK-1)."""
    from ..render import plain
    from ..store import encounters
    from .encounter_ops import autocommit, log_action, say_sealed, wants_secret

    from ..store.secrets import public_paths

    o = thawed(outcome)
    result = plain(o.result)
    public = public_paths(o.result, o.public)
    secret = wants_secret(session, o.actor, result, o.secret, public)
    if secret and getattr(session.app, "secret", False):
        _refuse_visible(o)
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
                            o.private, o.extra, (public, o.declared_public))
    changed = session.txn.changed()
    session.commit()
    say_sealed(session)
    if state_text is not None:
        encounters.remember_state(root, o.state, state_text)
    # the commit message says only what the log shows (a secret roll's public part, S-SYS-8)
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
    """The outcome with its edits as plain data to write: a game may hand back what it read (a read-only view,
    K-2)."""
    from ..readonly import thaw

    sheets = {cid: {path: thaw(value) for path, value in edits.items()} for cid, edits in o.sheets.items()}
    return o.replace(sheets=sheets, state=thaw(o.state), config=thaw(o.config),
                     dice=thaw(o.dice) if isinstance(o.dice, dict) else o.dice)


def apply_bare(app, outcome) -> None:
    """P-SECRET-1 for a roll with no character (bare dice, a random DR): its commitment goes to the current
    encounter's log, else the campaign log. Outside a campaign there is no log: the roll is only shown."""
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

            encounters.load_state(s.campaign.root, enc_id, s.campaign.system)  # there, and this game's (S-SYS-1)
        apply(s, outcome.replace(encounter=enc_id, state=None))


def _refuse_visible(o):
    """S-SYS-8, the host's backstop: a --secret action may move counters (the declared costs its entry shows);
    one that would edit anything else on another character's sheet, which the table sees, is refused (exit 3)
    before anything is written. A game refuses (or defers) its own visible effects first, per verb."""
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
    """A game's own keys in narateer.yaml, key by key (the host writes the file, S-SYS-10)."""
    from ..store.edit import edit

    camp = session.campaign
    doc, text = camp.config_doc()
    new, _ = edit(text, doc, {(key,): value for key, value in values.items()}, "narateer.yaml",
                  camp.system.explicit_null)
    if new != text:
        session.txn.write(camp.config_path, new)
