"""Glue between Open Adventure's commands and a campaign: load what an engine call needs (sheets, the
current encounter's state), make the call, and say what changed.

Each function returns the command's Outcome (`files.outcome`), which the host writes and logs, or the
result record when nothing is written.
"""

from __future__ import annotations

from narateer_cli.kit import BadInput


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
        raise BadInput(f"{cid} is not in encounter {enc_id}", fix="add it with `encounter new`, or drop --in")
    return None, None


def current(s, enc_id=None):
    """(id, TurnState) of the encounter named, else the current one (exit 2 when there is none)."""
    from .files import current_encounter, load_state

    enc_id = enc_id or current_encounter(s)
    if enc_id is None:
        raise BadInput("no current encounter", fix="create one with `narateer encounter new ID CHAR...` or pass --in ID")
    return enc_id, load_state(s, enc_id)


def show_encounter(s, enc_id=None):
    """`encounter show`: the turn report with each participant's row read from its sheet."""
    from .files import load
    from .turns import participants, report

    _, state = current(s, enc_id)
    return report(state).replace(participants=participants(state, {cid: load(s, cid).sheet for cid in state.order}))


def _parties(s, decl):
    """The sheets a declaration names besides the actor: the --vs target and the --opposed opponent."""
    from .files import load

    target = load(s, decl.vs[0]).sheet if decl.vs else None
    other = load(s, decl.opposed[0]).sheet if decl.opposed else None
    return target, other


def _challenged(s, decl, target, other, apply: bool):
    """Whose Challenge Points a check's Effect lowers: the --vs target, else the --opposed opponent, when it has
    them (None otherwise). With --apply a check that names no such creature is bad input, before any roll."""
    who = next((c for c in (target, other) if c is not None and c.challenge_points is not None), None)
    if apply and who is None:
        named = [c.id for c in (target, other) if c is not None]
        raise BadInput(f"--apply lowers Challenge Points, and {' or '.join(named)} has none" if named else
                       "--apply lowers the target's Challenge Points: name the target",
                       fix="name an NPC with challenge_points by --vs TARGET:DEFENSE, or drop --apply")
    return who


def _effect_on(s, result, who, apply: bool):
    """The Effect of a success on `who`'s Challenge Points: applied (its edit in the transaction) or the
    command that applies it."""
    from .files import load, note_edits
    from .pools import change_points

    if who is None or not result.success or not result.effect:
        return result
    if not apply:
        return result.replace(not_applied={"target": who.id, "effect": result.effect,
                                           "command": f"narateer points {who.id} challenge -{result.effect}"})
    moved = change_points(who, "challenge", -result.effect, s.rules)
    note_edits(s, load(s, who.id), moved.sheet_changes(who.wounds or 0))
    return result.replace(applied={"target": who.id, "pool": "challenge", "before": moved.before,
                                   "after": moved.after})


def check_in_encounter(s, char, decl, source, apply: bool = False):
    """Resolve one Action Check; in an encounter it spends the actor's Major Action.
    Returns (CheckResult, encounter id, new state); the Stunt loss is put in the transaction, and with
    `apply` the Effect on the target's Challenge Points."""
    from . import turns
    from .check import resolve
    from .files import load, note_edits
    from .pools import sheet_changes

    rules = s.rules
    actor = load(s, char).sheet
    target, other = _parties(s, decl)
    enc_id, state = encounter_for(s, actor.id)
    who = _challenged(s, decl, target, other, apply)
    result = resolve(actor, decl, rules, source, target, other)
    state = turns.spend(state, actor.id)
    if other is not None and rules.opp_uses_major:
        state = turns.spend_opponent(state, other.id)
    stunt = result.stunt
    if stunt and stunt.before is not None:  # a Stunt: the pool pays
        note_edits(s, load(s, actor.id), sheet_changes(stunt.pool, stunt.after, stunt.wounds_after,
                                                        actor.wounds or 0))
    return _effect_on(s, result, who, apply), enc_id, state


def roll_in_encounter(s, char, decl, source, dry_run: bool, apply: bool = False):
    """`roll`: the dry run's record, or the logged check's Outcome."""
    from .files import load, outcome
    from .render import declared

    if dry_run:
        from .check import dry_run as dry

        return dry(load(s, char).sheet, decl, s.rules, source, *_parties(s, decl))
    result, enc_id, state = check_in_encounter(s, char, decl, source, apply)
    return outcome(s, "roll", result.actor, declared(decl), result, _check_log(enc_id), state)


def _check_log(enc_id):
    """Where a check is logged: its encounter, else the campaign log, even when it changed no file,
    so `stats` counts every check made at the table."""
    from narateer_cli.kit import CAMPAIGN_LOG, encounter_state_path

    return enc_id if enc_id is not None else CAMPAIGN_LOG


def resolve_in_encounter(s, char, intent: str, path: str, reason=None, decl=None, source=None, apply: bool = False):
    """`resolve` by its path (automatic, impossible, maintained): an impossible action writes nothing."""
    from .actions import ResolveResult, resolve_path
    from .files import load, outcome
    from .render import declared

    actor = load(s, char).sheet
    if path == "impossible":
        return resolve_path(actor.id, intent, path, reason, None)[1]
    if path == "check":
        check, enc_id, state = check_in_encounter(s, char, decl, source, apply)
        result = ResolveResult(system="open-adventure", actor=actor.id, intent=intent, path=path, check=check)
        return outcome(s, "resolve", actor.id, declared(decl, intent=intent, path=path), result, _check_log(enc_id),
                       state)
    enc_id, state = encounter_for(s, actor.id)
    state, result = resolve_path(actor.id, intent, path, reason, state)
    return outcome(s, "resolve", actor.id, {"intent": intent, "path": path}, result, enc_id, state)


def log_sheet_change(s, command_name, actor_id, declaration, result):
    """A sheet change logs to the encounter CHAR takes part in, else to the campaign log."""
    from .files import outcome

    enc_id, _ = encounter_for(s, actor_id)
    return outcome(s, command_name, actor_id, declaration, result, enc_id, None)


def change_points(s, char, pool: str, delta: int):
    """`points`: the pool moves (a Wound when it reaches 0); logged."""
    from .files import load, note_edits
    from .pools import change_points as change

    sf = load(s, char)
    result = change(sf.sheet, pool, delta, s.rules)
    note_edits(s, sf, result.sheet_changes(sf.sheet.wounds or 0))
    return log_sheet_change(s, "points", sf.id, {"pool": result.pool, "delta": delta}, result)


def change_wounds(s, char, n: int, sign: int, name: str):
    """`wound` / `heal`: the Wound count moves by n; logged."""
    from .files import load, note_edits
    from .pools import change_wounds as change

    sf = load(s, char)
    result = change(sf.sheet, sign * n, s.rules)
    note_edits(s, sf, {("wounds",): result.after})
    return log_sheet_change(s, name, sf.id, {"count": n}, result)


def change_conditions(s, char, changes, rounds):
    """`condition`: the sheet's conditions, and their timers in the encounter state; logged."""
    from .files import load, note_edits, outcome
    from .pools import condition_change

    sf = load(s, char)
    enc_id, state = encounter_for(s, sf.id)
    timed, result = condition_change(sf.sheet, state, changes, rounds)
    note_edits(s, sf, {}, {"conditions": result.conditions})
    declaration = {"changes": list(changes), **({"rounds": rounds} if rounds is not None else {})}
    return outcome(s, "condition", sf.id, declaration, result, enc_id, timed)


def end_conditions(s, ended):
    """`encounter end` (the host's command): the timed conditions that end with the encounter leave the sheets
    (in the transaction); their timers leave the state with the host."""
    from .files import load, note_edits, outcome

    for cid, names in ended.items():
        sf = load(s, cid)
        kept = [c for c in sf.sheet.conditions or () if c not in names]
        if kept != list(sf.sheet.conditions or ()):
            note_edits(s, sf, {}, {"conditions": kept})
    return outcome(s, "encounter end", None, {}, {})


def start_turn(s, who):
    """`turn start`: the actor's timed conditions that end now leave its sheet; logged."""
    from . import turns
    from .files import outcome

    enc_id, state = current(s, s.app.encounter_id)
    state, report = turns.start_turn(state, who)
    _drop_expired(s, state, report)
    return outcome(s, "turn start", state.actor, {}, report, enc_id, state)


def _drop_expired(s, state, report):
    """The new actor's timed conditions that ended leave its sheet (in the transaction)."""
    from .files import load, note_edits

    if report.expired:
        sf = load(s, state.actor)
        note_edits(s, sf, {}, {"conditions": [c for c in sf.sheet.conditions if c not in report.expired]})


def end_turn(s, next_id=None):
    """`turn end [--next CHAR]`; with CHAR, CHAR's Turn starts too: one log entry, so one undo restores both."""
    from . import turns
    from .files import outcome

    enc_id, state = current(s, s.app.encounter_id)
    ended = state.actor
    state, report = turns.end_turn(state, next_id)
    if next_id is None:
        return outcome(s, "turn end", state.actor, {}, report, enc_id, state)
    _drop_expired(s, state, report)
    return outcome(s, "turn end", ended, {"next": next_id}, report, enc_id, state)


def minor_action(s, char, what):
    """`turn minor`: the actor's Minor Action spent; logged like the other turn commands."""
    from . import turns
    from .files import outcome

    enc_id, state = current(s, s.app.encounter_id)
    state, result = turns.spend_minor(state, char, what)
    return outcome(s, "turn minor", result.actor, {"what": what} if what else {}, result, enc_id, state)


def join_encounter(s, char, reaction):
    """`encounter join`: CHAR takes its place in the Reaction order; logged."""
    from . import turns
    from .files import load, outcome

    enc_id, state = current(s, s.app.encounter_id)
    sheets = {cid: load(s, cid).sheet for cid in (*state.order, char)}
    state, report = turns.join_turns(state, char, reaction, sheets, s.rules)
    return outcome(s, "encounter join", char, {"reaction": reaction}, report, enc_id, state)


def new_encounter(s, enc_id: str, chars, reactions: dict):
    """`encounter new`: the state in Reaction order, the campaign's current encounter set; logged."""
    from narateer_cli.kit import CAMPAIGN_LOG, encounter_state_path

    from . import turns
    from .files import load, outcome

    if enc_id == CAMPAIGN_LOG:
        raise BadInput(f"the encounter id {enc_id!r} is reserved for the campaign log", rule="G-LOG-5",
                       fix="pick another id")
    if encounter_state_path(s.campaign.root, enc_id).exists():
        raise BadInput(f"encounter {enc_id} already exists", fix=f"use it with --in {enc_id}, or pick another id")
    sheets = {cid: load(s, cid).sheet for cid in dict.fromkeys(chars)}
    state, result = turns.new_encounter(enc_id, tuple(chars), reactions, sheets, s.rules)
    made = outcome(s, "encounter new", None, {"participants": list(chars), "reaction": reactions}, result, enc_id,
                   state)
    return made.replace(config={"encounter": enc_id})
