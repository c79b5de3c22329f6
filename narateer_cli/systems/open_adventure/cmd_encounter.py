"""Open Adventure's encounter commands: encounter, turn, resolve, undo, verify (A-OA-TURN, R-OA-ACT)."""

from __future__ import annotations

import click

from narateer_cli.commands.common import Session, command, emit
from narateer_cli.commands.encounters import encounter_end as _host_end
from narateer_cli.errors import BadInput

from .cmd_common import KIND
from .cmd_roll import declaration, roll_options, source_for


@click.group(name="encounter", help="""Create, show and read encounters.

\b
Examples:
  narateer encounter new gate warheart amicus orc --reaction warheart=9 --reaction amicus=7
  narateer encounter show
  narateer encounter log""")
def encounter_cmd():
    pass


@command(group=encounter_cmd, name="new", help="""Create encounter ID with these characters; Turn order by Reaction (A-OA-TURN).""")
@click.argument("enc_id")
@click.argument("chars", nargs=-1, required=True)
@click.option("--reaction", multiple=True, metavar="PC=N", help="A PC's Reaction Check total, repeatable.")
def encounter_new(app, enc_id, chars, reaction):
    from narateer_cli.store import encounters, yamlio

    from . import turns
    from .files import finish, load

    with Session(app) as s:
        root = s.campaign.root
        if enc_id == encounters.CAMPAIGN:
            raise BadInput(f"the encounter id {enc_id!r} is reserved for the campaign log", rule="G-LOG-5",
                           fix="pick another id")
        path = encounters.state_path(root, enc_id)
        if path.exists():
            raise BadInput(f"encounter {enc_id} already exists", fix=f"use it with --in {enc_id}, or pick another id")
        if len(set(chars)) != len(chars):
            raise BadInput("a character is named twice", fix="name each once")
        sheets = {cid: load(s, cid).sheet for cid in chars}
        totals = {}
        for item in reaction:
            who, sep, value = item.partition("=")
            if not sep or not value.strip().lstrip("-").isdigit():
                raise BadInput(f"--reaction {item!r} must be PC=N", fix="for example --reaction warheart=9")
            totals[who] = int(value)
        state = turns.TurnState(encounter=enc_id, order=turns.order(list(chars), totals, sheets, s.rules),
                                reactions=totals)
        doc, text = s.campaign.config_doc()
        doc["encounter"] = enc_id
        s.txn.write(s.campaign.config_path, yamlio.dump_rt(doc, text))
        data = {"system": "open-adventure", "encounter": enc_id, "order": list(state.order), "round": 1,
                "message": f"encounter {enc_id}: order {', '.join(state.order)}"}
        finish(s, "encounter new", None, {"participants": list(chars), "reaction": totals}, data, enc_id, state)
    emit(app, KIND + "simple", data)


def _state(s, enc_id):
    from .files import current_encounter, load_state

    enc_id = enc_id or current_encounter(s)
    if enc_id is None:
        raise BadInput("no current encounter", fix="create one with `narateer encounter new ID CHAR...` or pass --in ID")
    return enc_id, load_state(s, enc_id)


@command(group=encounter_cmd, name="join", help="""Add CHAR to the current encounter in its Reaction place (A-OA-TURN).""")
@click.argument("char")
@click.option("--reaction", type=int, help="A PC's Reaction Check total.")
def encounter_join(app, char, reaction):
    from . import turns
    from .files import finish, load
    from .render import turn_json

    with Session(app) as s:
        enc_id, state = _state(s, app.encounter_id)
        sheets = {cid: load(s, cid).sheet for cid in (*state.order, char)}
        state = turns.join(state, char, reaction, sheets, s.rules)
        data = turn_json(state)
        finish(s, "encounter join", char, {"reaction": reaction}, data, enc_id, state)
    emit(app, KIND + "turn", data)


@command(group=encounter_cmd, name="show", help="""The encounter's Round, order and whose Turn it is.""")
@click.argument("enc_id", required=False)
def encounter_show(app, enc_id):
    from .render import turn_json

    with Session(app, write=False) as s:
        _, state = _state(s, enc_id or app.encounter_id)
    emit(app, KIND + "turn", turn_json(state))


def _host_log():
    """T-LOG: the host's `encounter log` (rows in words, --actor, --since, --last) serves this system too."""
    from narateer_cli.commands.encounters import encounter_log

    return encounter_log


encounter_cmd.add_command(_host_log())


# `encounter end` is the host's: the encounter stops being current, later changes go to the campaign log
encounter_cmd.add_command(_host_end, name="end")


@click.group(name="turn", help="""Start and end Turns: one Major and one Minor Action each (R-OA-ACT-2).

\b
Examples:
  narateer turn start
  narateer turn start warheart
  narateer turn end""")
def turn_cmd():
    pass


def _turn(app, change, command_name):
    from .files import finish
    from .render import turn_json

    with Session(app) as s:
        enc_id, state = _state(s, app.encounter_id)
        state = change(state)
        data = turn_json(state)
        finish(s, command_name, state.actor, {}, data, enc_id, state)
    emit(app, KIND + "turn", data)


@command(group=turn_cmd, name="start", help="""Start CHAR's Turn (default: the next in Reaction order).""")
@click.argument("char", required=False)
def turn_start(app, char):
    from . import turns
    from .files import finish, load, write_sheet
    from .render import turn_json

    with Session(app) as s:
        enc_id, state = _state(s, app.encounter_id)
        state, expired = turns.expire(turns.start(state, char))  # T-DURATION: timed conditions end now
        if expired:
            sf = load(s, state.actor)
            write_sheet(s, sf, {}, {"conditions": [c for c in sf.sheet.conditions if c not in expired]})
        data = turn_json(state, expired)
        finish(s, "turn start", state.actor, {}, data, enc_id, state)
    emit(app, KIND + "turn", data)


@command(group=turn_cmd, name="end", help="""End the current Turn.""")
def turn_end(app):
    from . import turns

    _turn(app, turns.end, "turn end")


@command(help="""Resolve a declared action by its path (R-OA-ACT-1, -4, -5).

\b
Examples:
  narateer resolve amicus --intent "light the lantern" --auto
  narateer resolve warheart --intent "hold the portcullis" --maintain
  narateer resolve bloodwind --intent "free the axe" --check strength --mo --ds 4""")
@click.argument("char")
@click.option("--intent", required=True, metavar="TEXT", help="What the character does and wants.")
@click.option("--auto", is_flag=True, help="No check: success is certain or nothing is at stake.")
@click.option("--impossible", type=click.Choice(["time", "materials", "world"]), help="No check: it cannot be done.")
@click.option("--maintain", is_flag=True, help="Hold a lasting success: spends this Turn's Major Action.")
@click.option("--check", "use", metavar="ATTRIBUTE|ACTION", help="Resolve it with an Action Check.")
@roll_options
def resolve_cmd(app, char, intent, auto, impossible, maintain, use, **o):
    from .cmd_common import refuse_narateer_flags

    refuse_narateer_flags(o)
    paths = [p for p, on in (("auto", auto), ("impossible", impossible), ("maintain", maintain), ("check", use)) if on]
    if len(paths) != 1:
        raise BadInput("give exactly one path: --auto, --impossible, --maintain or --check", fix="pick one")
    with Session(app, write=paths[0] != "impossible" and not o["dry_run"]) as s:
        data = _resolve(s, app, char, intent, paths[0], impossible, use, o)
    emit(app, KIND + "resolve", data)
    if o["exit_code"] and data.get("check") and not data["check"]["success"]:
        raise click.exceptions.Exit(1)


def _resolve(s, app, char, intent, path, reason, use, o):
    from . import turns
    from .files import finish, load
    from .in_encounter import check_in_encounter, declaration_json, encounter_for

    actor = load(s, char).sheet
    data = {"system": "open-adventure", "actor": actor.id, "intent": intent, "path": path, "reason": reason,
            "check": None}
    if path == "impossible":
        return data  # R-OA-ACT-4: nothing rolled, spent or written
    if path == "check":
        decl = declaration(use, o)
        data["check"], enc_id, state = check_in_encounter(s, char, decl, source_for(app, o["faces"], o["other_faces"]))
        finish(s, "resolve", actor.id, {"intent": intent, "path": path, **declaration_json(decl)}, data, enc_id, state)
        return data
    enc_id, state = encounter_for(s, actor.id)
    if path == "maintain":
        if state is None:
            raise BadInput("--maintain holds a success across Turns of an encounter", fix="start an encounter first")
        state = turns.spend(state, actor.id)
    finish(s, "resolve", actor.id, {"intent": intent, "path": path}, data, enc_id, state)
    return data
