"""Glue between Open Adventure's commands and a campaign: one check inside or outside an encounter."""

from __future__ import annotations

from narateer_cli.errors import BadInput


def encounter_for(s, cid: str):
    """(encounter id, TurnState) when CHAR takes part in the current encounter, else (None, None)."""
    from .files import current_encounter, load_state

    enc_id = current_encounter(s)
    if enc_id is None:
        return None, None
    state = load_state(s, enc_id)
    if cid in state.order:
        return enc_id, state
    if getattr(s.app, "encounter_id", None):
        raise BadInput(f"{cid} is not in encounter {enc_id}", fix=f"add it with `encounter new`, or drop --in")
    return None, None


def declaration_json(decl) -> dict:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in decl.as_dict().items()}


def check_in_encounter(s, char, decl, source):
    """Resolve one Action Check; in an encounter it spends the actor's Major Action (R-OA-ACT-2).
    Returns (check JSON, encounter id, new state); the Stunt loss is put in the transaction."""
    from . import turns
    from .check import resolve
    from .files import load, write_sheet
    from .render import check_json

    rules = s.rules
    actor = load(s, char).sheet
    target = load(s, decl.vs[0]).sheet if decl.vs else None
    other = load(s, decl.opposed[0]).sheet if decl.opposed else None
    enc_id, state = encounter_for(s, actor.id)
    result = resolve(actor, decl, rules, source, target, other)
    state = turns.spend(state, actor.id)
    if other is not None and rules.opp_uses_major:
        state = turns.spend_opponent(state, other.id)
    stunt = result.stunt
    if stunt and stunt["before"] is not None:
        changes = {("points", stunt["pool"]): stunt["after"]}
        if stunt["wounds_after"] != (actor.wounds or 0):
            changes[("wounds",)] = stunt["wounds_after"]
        write_sheet(s, load(s, actor.id), changes)
    return check_json(result), enc_id, state


def roll_in_encounter(s, char, decl, source, dry_run: bool):
    from .files import finish, load

    if dry_run:
        from .check import dry_run as dry
        from .render import dry_run_json

        target = load(s, decl.vs[0]).sheet if decl.vs else None
        other = load(s, decl.opposed[0]).sheet if decl.opposed else None
        return dry_run_json(dry(load(s, char).sheet, decl, s.rules, source, target, other)), "dry-run"
    data, enc_id, state = check_in_encounter(s, char, decl, source)
    finish(s, "roll", data["actor"], declaration_json(decl), data, enc_id, state)
    return data, "check"
