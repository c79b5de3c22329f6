"""d20-cards commands for time and the table: rest, damage, drop, elapse, refresh, and what encounter show
and join, turn start and end, heal and condition do (the host owns those commands, and `undo` and `verify`,
with this system's `undo_fields` and `log_checker`).

Each returns its Outcome (store.outcome), which the host writes (sheets, state,
one log entry, undo record, all or none); the rules are in `timeflow` and `encounter`.
"""

from __future__ import annotations

import click

from narateer_cli.kit import command
from narateer_cli.kit import current_encounter
from narateer_cli.kit import BadInput

from .commands import encounter_of


def _change(s, verb, char, declaration, fn, kind="change", ids=None):
    """Load, make one timeflow call on CHAR, return its Outcome: the shape of damage, heal, drop ...
    `fn(world, rules, state)` returns (world, result), or (world, state, result) when it changes the
    encounter state too."""
    from .store import load_world, outcome

    enc = encounter_of(s, char)
    world = load_world(s, enc.state if enc else None, ids or [char])
    new_world, *state, result = fn(world, s.rules, enc.state if enc else None)
    after = state[0] if enc is not None and state else (enc.state if enc is not None else None)
    return outcome(verb, char, declaration, result, world, new_world, enc, kind=kind, state=after)


@command(writes=True, help="""Deal N damage to CHAR: Swan Song doubles it, then the Concentration check.

\b
Examples:
  narateer damage mira 7 --concentration-faces 4
  narateer damage mira 1 --drain""", context_settings={"ignore_unknown_options": True})
@click.argument("char")
@click.argument("n", type=click.IntRange(min=0))
@click.option("--drain", is_flag=True, help="Dying drain (logged as such).")
@click.option("--concentration-faces", metavar="F", help="The Concentration check's d20 (or `ask`).")
def damage_cmd(s, char, n, drain, concentration_faces):
    from .timeflow import damage

    dice = concentration_dice(s.app, char, concentration_faces)
    return _change(s, "damage", char, {"amount": n, "drain": drain},
            lambda w, r, _: damage(w, char, n, r, dice, drain))


def concentration_dice(app, char, text):
    """The one die `damage`, `turn start` and `turn end --next` may roll: CHAR's Concentration d20, typed
    (`--concentration-faces F`), asked (`ask`) or, with no faces given at all, rolled."""
    from narateer_cli.kit import ask

    from .dice import DiceSource, parse_faces, table_asker

    every, _ = ask.wanted(app, [text])
    faces = {"concentration": {char: parse_faces(text)}} if text and not every else {}
    if faces and len(faces["concentration"][char]) != 1:
        raise BadInput("--concentration-faces needs 1 face", fix="give one d20 face")
    return DiceSource(app.rng(), faces, ask=table_asker() if every else None, asked=("concentration",) if every else (),
                      keyed=())


def heal(s, char, n):
    """`heal` (the host's command): N HP back, up to max."""
    from .timeflow import heal as healed

    return _change(s, "heal", char, {"amount": n}, lambda w, r, _: healed(w, char, n, r))


@command(writes=True, help="""End CHAR's Concentration; its card's cooldown starts.

\b
Example:
  narateer drop mira""")
@click.argument("char")
def drop_cmd(s, char):
    from .timeflow import drop

    return _change(s, "drop", char, {}, lambda w, r, _: drop(w, char))


@command(writes=True, help="""Refill CHAR's AP to max.

\b
Example:
  narateer refresh mira""")
@click.argument("char")
def refresh_cmd(s, char):
    from .timeflow import refresh

    return _change(s, "refresh", char, {}, lambda w, r, _: refresh(w, char))


def condition(s, char, changes, rounds):
    """`condition` (the host's command): conditions added and removed, and when each timed one ends."""
    from .timeflow import conditions

    declaration = {"changes": list(changes), **({"rounds": rounds} if rounds is not None else {})}
    return _change(s, "condition", char, declaration, lambda w, r, state: conditions(w, state, char, changes, rounds, r))


def end_conditions(s, ended):
    """`encounter end` (the host's command): the timed conditions that end with the encounter leave the sheets,
    as a turn start ends them (a timer of `nullified` takes `nullified:1` too); the entry's `state` holds
    each sheet's conditions before and after."""
    from .store import load_world, outcome

    world = load_world(s, None, list(ended))
    after = world
    for cid, names in ended.items():
        if cid in after.chars:
            after = after.with_char(after.chars[cid].replace(conditions=after.chars[cid].without(*names)))
    return outcome("encounter end", None, {}, {}, world, after)


# d20-cards' words for the host's heal and condition commands (`Game.verb_words`)
WORDS = {
    "heal": {"help": """Heal N HP, up to max.

\b
Example:
  narateer heal mira 5"""},
    "condition": {"help": """Add or remove conditions: +NAME adds, -NAME removes (+stabilized also ends dying and swan_song).

`nullified:N` names the highest Arcane tier it blocks. With
--rounds N the added conditions end by themselves at the start of CHAR's turn
N rounds later (CHAR must be in the current encounter).

\b
Example:
  narateer condition mira +dying
  narateer condition bandit +nullified:1 -hidden
  narateer condition bandit +immobilized --rounds 2""", "context_settings": {"ignore_unknown_options": True},
                  "changes": {"required": True},
                  "rounds": {"type": click.IntRange(1, 1000), "help": "The added conditions end after N rounds."}},
}


@command(writes=True, help="""Rest: refill the charges whose recharge is this kind (--proper = proper); a Proper Rest also refills AP and ends cooldowns, as the rules' `rest:` says.

A Proper Rest is refused for a character in the current encounter (end the
encounter first), unless the Guide allows it with --mid-encounter.

\b
Examples:
  narateer rest mira --proper
  narateer rest mira tor --proper      (--kind NAME: a recharge kind a card names)""")
@click.argument("chars", nargs=-1, required=True)
@click.option("--proper", is_flag=True, help="A Proper Rest.")
@click.option("--kind", metavar="NAME", help="Another recharge kind named on cards.")
@click.option("--mid-encounter", is_flag=True,
              help="The Guide lets a Proper Rest happen during the current encounter (refused otherwise).")
def rest_cmd(s, chars, proper, kind, mid_encounter):
    from .timeflow import rest

    if proper == bool(kind):
        raise BadInput("give --proper or --kind NAME (one of them)", fix="narateer rest mira --proper")
    if proper and not mid_encounter:
        _refuse_rest_in_encounter(s, chars)
    return _change(s, "rest", chars[0], {"chars": list(chars), "kind": "proper" if proper else kind},
            lambda w, r, _: rest(w, list(chars), "proper" if proper else kind, r, mid_encounter), kind="rest",
            ids=list(chars))


def _refuse_rest_in_encounter(s, chars):
    """Each character named, not only the first whose encounter the rest loads, is checked against the current
    encounter before anything is loaded or written."""
    from .timeflow import refuse_rest_mid_encounter

    for char in chars:
        enc = encounter_of(s, char)
        if enc is not None:
            refuse_rest_mid_encounter(char, enc.id)


@command(writes=True, help="""Advance the campaign clock: minute-or-longer cooldowns and Concentration end when due.

\b
Example:
  narateer elapse 10m""", context_settings={"ignore_unknown_options": True})
@click.argument("span")
def elapse_cmd(s, span):
    from .store import load_world, outcome
    from .timeflow import elapse, parse_span

    seconds = parse_span(span)
    world = load_world(s)
    new_world, result = elapse(world, seconds, s.rules)
    return outcome("elapse", None, {"span": span}, result, world, new_world, kind="elapse")


def encounter_show(s, enc_id):
    """`encounter show` (the host's command): round, whose turn it is, each participant's HP, AP, Concentration."""
    from narateer_cli.kit import Show

    from .readouts import encounter_status
    from .store import load_world

    enc = _pick(s, enc_id)
    for cid in enc.state["participants"]:
        s.sheet(cid)  # a participant whose sheet is gone: the store's message
    return Show("encounter_show", encounter_status(load_world(s, enc.state, enc.state["participants"]), enc.state,
                                                   s.rules))


def _pick(session, enc_id):
    if enc_id is not None:
        session.app.encounter_id = enc_id
    return current_encounter(session, required=True)


def encounter_join(s, char, options):
    """`encounter join` (the host's command): CHAR joins the current encounter."""
    from .encounter import join
    from .store import load_world, outcome

    enc = current_encounter(s, required=True)
    s.sheet(char)
    state, result = join(enc.state, char)
    world = load_world(s, enc.state, [])
    return outcome("encounter join", char, {}, result, world, world, enc, kind="join", state=state)


# d20-cards' words for the host's encounter commands (`Game.verb_words`); `new` is the host's with this help
ENCOUNTER_WORDS = {
    "encounter": {"help": """Create, show, read and end encounters.

\b
Examples:
  narateer encounter new fight mira bandit
  narateer encounter show
  narateer encounter log --last 5
  narateer encounter end"""},
    "encounter new": {"help": """Create encounter ID with these participants and make it current.

\b
Example:
  narateer encounter new fight mira bandit"""},
    "encounter show": {"help": """Round, whose turn it is, and each participant's HP, AP and Concentration.

\b
Example:
  narateer encounter show"""},
    "encounter join": {"help": """Add CHAR to the current encounter.

\b
Example:
  narateer encounter join hexer"""},
}


# d20-cards' words for the host's turn commands (`Game.verb_words`): its help, and the Concentration d20
TURN_WORDS = {
    "turn": {"help": """Start and end turns in the current encounter: a turn's start refills AP and ticks cooldowns and Concentration.

\b
Examples:
  narateer turn start mira
  narateer turn end --next bandit"""},
    "turn start": {"help": """CHAR's turn: AP refills, round cooldowns tick, Concentration may end, the Dying drain.

A second turn in the same round starts the next round.

\b
Example:
  narateer turn start mira""", "options": (click.option("--concentration-faces", metavar="F", help="The Concentration d20 if the drain hits "
                                                         "a concentrating CHAR (or `ask`)."),)},
    "turn end": {"help": """End the running turn; --next CHAR starts CHAR's turn at once.

With --next the turn ends and CHAR's begins as `turn start CHAR` would
(AP refill, cooldowns tick, the Dying drain), in one logged step: one
`undo` takes back both.

\b
Examples:
  narateer turn start mira
  narateer turn end --next bandit""", "next_id": {"help": "Whose turn starts next."},
                 "options": (click.option("--concentration-faces", metavar="F", help="With --next: the Concentration d20 "
                                          "if the drain hits a concentrating CHAR (or `ask`)."),)},
}


def turn_start(s, char, options):
    """`turn start` (the host's command): CHAR's turn starts (AP, cooldowns, Concentration, the Dying drain)."""
    from .store import load_world, outcome
    from .timeflow import start_turn

    dice = concentration_dice(s.app, char, options["concentration_faces"])
    enc = current_encounter(s, required=True)
    world = load_world(s, enc.state, [char])
    state, new_world, result = start_turn(world, enc.state, char, s.rules, dice)
    return outcome("turn start", char, {}, result, world, new_world, enc, kind="turn_start", state=state)


def turn_end(s, next_id, options):
    """`turn end` (the host's command): the running turn ends; with NEXT, NEXT's starts in the same entry."""
    from .encounter import end_turn
    from .store import load_world, outcome
    from .timeflow import end_and_start

    concentration_faces = options["concentration_faces"]
    enc = current_encounter(s, required=True)
    world = load_world(s, enc.state, [next_id] if next_id else [])
    if next_id is None:
        if concentration_faces is not None:
            raise BadInput("--concentration-faces goes with --next CHAR", fix="add --next CHAR, or drop it")
        state, result = end_turn(enc.state)
        return outcome("turn end", result.ended, {}, result, world, world, enc, kind="turn_end", state=state)
    state, after, result = end_and_start(world, enc.state, next_id, s.rules,
                                         concentration_dice(s.app, next_id, concentration_faces))
    return outcome("turn end", result["ended"], {"next": next_id}, result, world, after, enc, kind="turn_next",
                   state=state)
