"""Moves' verbs: each parses, makes one engine call, and hands the outcome to the host's `finish`."""

from __future__ import annotations

import click

from narateer_cli.commands.common import Session, command, emit
from narateer_cli.commands.encounter_ops import current_encounter, encounter_for, finish
from narateer_cli.errors import BadInput, Refused


def _make_move(app, char, name, faces):
    from . import engine

    with Session(app) as s:
        sheet = s.sheet(char)
        if app.secret and not sheet.guide:  # S-SYS-8: a player's miss marks XP, which everyone sees
            raise Refused(f"{char} cannot move in secret: a miss would mark XP on the sheet",
                          rule="S-SYS-8", fix="only the Guide (a `guide: true` sheet) moves in secret")
        given = engine.parse_faces(faces)
        rng = app.rng()
        rolled = given or [rng.randint(1, s.rules["sides"]) for _ in range(s.rules["dice"])]
        result = engine.move(sheet, name, rolled, s.rules)
        finish(s, "roll", char, {"move": name}, result, {char: result["track_after"]}, encounter_for(s, char))
    emit(app, "roll", result)


def _move_params(fn):
    """CHAR MOVE [--faces F]: what `roll` and `resolve` both take."""
    fn = click.option("--faces", metavar="F", help="The two d6 rolled at the table: 3,5.")(fn)
    return click.argument("char")(click.argument("move")(fn))


@command(rolls=True, help="Make a move: roll 2d6 + the move's stat.\n\n\b\nExample:\n  narateer roll rook push-through")
@_move_params
def roll_cmd(app, char, move, faces):
    _make_move(app, char, move, faces)


@command(rolls=True, help="Make a move (the same as roll).\n\n\b\nExample:\n  narateer resolve vesper charm")
@_move_params
def resolve_cmd(app, char, move, faces):
    _make_move(app, char, move, faces)


@command(help="Roll 2d6, bare (nothing is logged).\n\n\b\nExample:\n  narateer dice")
def dice_cmd(app):
    with Session(app, write=False) as s:
        faces = [app.rng().randint(1, s.rules["sides"]) for _ in range(s.rules["dice"])]
    emit(app, "dice", {"faces": faces, "total": sum(faces)})


@command(help="Exact chance of each band for a stat value.\n\n\b\nExample:\n  narateer odds 1")
@click.argument("stat", type=int)
def odds_cmd(app, stat):
    from .engine import odds

    with Session(app, write=False) as s:
        chances = odds(stat, s.rules)
    emit(app, "odds", {"stat": stat, **{band: str(p) for band, p in chances.items()}})


@command(help="Show a character sheet.\n\n\b\nExample:\n  narateer show rook")
@click.argument("char")
def show_cmd(app, char):
    with Session(app, write=False) as s:
        sheet = s.sheet(char)
    emit(app, "show", {"id": sheet.id, "name": sheet.name, "stats": sheet.stats, "track": sheet.dice})


@command(help="Create a character sheet as a copy of another's.\n\n\b\nExample:\n"
              "  narateer new wren --from rook")
@click.argument("char")
@click.option("--from", "other", required=True, help="The sheet to copy.")
def new_cmd(app, char, other):
    from narateer_cli.commands.copying import copy_sheets

    with Session(app) as s:
        copy_sheets(s, other, char, None)
        s.commit()
    emit(app, "new", {"id": char, "from": other})


@command(help="Take or heal harm: +N takes, -N heals.\n\n\b\nExample:\n  narateer harm rook +2")
@click.argument("char")
@click.argument("changes", nargs=1)
def harm_cmd(app, char, changes):
    from .engine import harm

    if not changes.lstrip("+-").isdigit():
        raise BadInput(f"{changes!r} is not a change of harm such as +2 or -1")
    with Session(app) as s:
        result = harm(s.sheet(char), int(changes), s.rules)
        finish(s, "harm", char, {"harm": int(changes)}, result, {char: result["track_after"]}, encounter_for(s, char))
    emit(app, "harm", result)


@command(help="Add or remove conditions.\n\n\b\nExample:\n  narateer condition rook +bruised -shaken")
@click.argument("char")
@click.argument("changes", nargs=-1, required=True)
def condition_cmd(app, char, changes):
    with Session(app) as s:
        now = list(s.load(char).plain.get("conditions") or [])
        for word in changes:
            name = word.lstrip("+-")
            now = [c for c in now if c != name] + ([name] if word.startswith("+") else [])
        s.set_sheet(char, conditions=now)
        result = {"actor": char, "changes": list(changes), "conditions": now}
        finish(s, "condition", char, {"changes": list(changes)}, result, {}, encounter_for(s, char))
    emit(app, "condition", result)


@command(help="Turn the spotlight to a character in the current encounter.\n\n\b\nExample:\n  narateer turn rook")
@click.argument("char")
def turn_cmd(app, char):
    with Session(app) as s:
        enc = current_encounter(s, required=True)
        if not enc.has(char):
            raise BadInput(f"{char} is not in encounter {enc.id}")
        enc.new_state = {**enc.state, "spotlight": char}
        finish(s, "turn", char, {}, {"spotlight": char}, {}, enc)
    emit(app, "turn", {"spotlight": char})
