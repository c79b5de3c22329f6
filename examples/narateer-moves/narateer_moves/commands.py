"""Moves' verbs: each parses, makes one engine call, and returns an Outcome; the host writes and logs it."""

from __future__ import annotations

import click

from narateer_cli.kit import Session, command, emit
from narateer_cli.kit import current_encounter, encounter_for
from narateer_cli.kit import Dice
from narateer_cli.kit import BadInput, Refused
from narateer_cli.kit import Outcome, Show


def _told(s, kind, command, char, declared, result, counters, enc=None, sheets=None, public=(),
          state=None) -> Outcome:
    """One action for the host to write: its log fields, CHAR's counters after, other sheet edits, the
    encounter's new state (`state`, a new value; None: the state as it was read), and what a secret entry
    may show of the result (its public fields)."""
    enc = enc if enc is not None else encounter_for(s, char)
    if enc is not None and state is None:
        state = enc.state
    return Outcome(command, char, declared, result, kind=kind, show=result, dice=counters, sheets=sheets,
                   encounter=enc.id if enc else None, state=state, public=public)


def _make_move(s, char, name, faces):
    from . import engine

    sheet = s.sheet(char)
    if s.app.secret and not sheet.guide:  # a player's miss marks XP, which everyone sees
        raise Refused(f"{char} cannot move in secret: a miss would mark XP on the sheet",
                      rule="S-SYS-8", fix="only the Guide (a `guide: true` sheet) moves in secret")
    dice = Dice(s.app.rng(), {"faces": engine.parse_faces(faces)} if faces else None)  # the host's dice source
    rolled = dice.given["faces"] if dice.has("faces") else [dice.face(s.rules["sides"]) for _ in range(s.rules["dice"])]
    result = engine.move(sheet, name, rolled, s.rules)
    return _told(s, "roll", "roll", char, {"move": name}, result, {char: result["track_after"]},
                 public=engine.PUBLIC)


def _move_params(fn):
    """CHAR MOVE [--faces F]: what `roll` and `resolve` both take."""
    fn = click.option("--faces", metavar="F", help="The two d6 rolled at the table: 3,5.")(fn)
    return click.argument("char")(click.argument("move")(fn))


@command(rolls=True, writes=True,
         help="Make a move: roll 2d6 + the move's stat.\n\n\b\nExample:\n  narateer roll rook push-through")
@_move_params
def roll_cmd(s, char, move, faces):
    return _make_move(s, char, move, faces)


@command(rolls=True, writes=True, help="Make a move (the same as roll).\n\n\b\nExample:\n  narateer resolve vesper charm")
@_move_params
def resolve_cmd(s, char, move, faces):
    return _make_move(s, char, move, faces)


def dice(app, options):
    """`dice` (the host's command): 2d6, bare."""
    with Session(app, write=False) as s:
        faces = [app.rng().randint(1, s.rules["sides"]) for _ in range(s.rules["dice"])]
    return Show("dice", {"faces": faces, "total": sum(faces)})


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
    emit(app, "show", {"id": sheet.id, "name": sheet.name, "stats": sheet.stats, "track": sheet.counters})


def copied(s, source, count, made):
    """`new CHAR --from OTHER` (the host's command, which made the copy): one log entry."""
    char = next(iter(made))
    result = {"id": char, "from": source}
    return Outcome("new", char, {"from": source}, result, kind="new", show=result, created=made)


@command(writes=True, help="Take or heal harm: +N takes, -N heals.\n\n\b\nExample:\n  narateer harm rook +2")
@click.argument("char")
@click.argument("changes", nargs=1)
def harm_cmd(s, char, changes):
    from .engine import harm

    if not changes.lstrip("+-").isdigit():
        raise BadInput(f"{changes!r} is not a change of harm such as +2 or -1")
    result = harm(s.sheet(char), int(changes), s.rules)
    return _told(s, "harm", "harm", char, {"harm": int(changes)}, result, {char: result["track_after"]})


NEW_HELP = "Create a character sheet as a copy of another's.\n\n\b\nExample:\n  narateer new wren --from rook"

# Moves' words for the host's `condition` and `new` commands (`Game.verb_words`): its help; no --rounds, and
# `new` only copies
WORDS = {"condition": {"help": "Add or remove conditions.\n\n\b\nExample:\n  narateer condition rook +bruised -shaken",
                       "changes": {"required": True}, "rounds": None},
         "dice": {"help": "Roll 2d6, bare (nothing is logged).\n\n\b\nExample:\n  narateer dice", "rolls": False},
         "new": {"help": NEW_HELP, "char_id": {"metavar": "CHAR"}, "name": None, "count": None,
                 "source": {"required": True, "metavar": None, "help": "The sheet to copy."}}}


def condition(s, char, changes, rounds):
    """`condition CHAR +NAME -NAME` (the host's command): the sheet's conditions."""
    now = list(s.load(char).plain.get("conditions") or [])
    for word in changes:
        name = word.lstrip("+-")
        now = [c for c in now if c != name] + ([name] if word.startswith("+") else [])
    result = {"actor": char, "changes": list(changes), "conditions": now}
    enc = encounter_for(s, char)
    return Outcome("condition", char, {"changes": list(changes)}, result, kind="condition", show=result, dice={},
                   encounter=enc.id if enc else None, state=enc.state if enc else None,
                   sheets={char: {"conditions": now}})


@command(writes=True,
         help="Turn the spotlight to a character in the current encounter.\n\n\b\nExample:\n  narateer turn rook")
@click.argument("char")
def turn_cmd(s, char):
    enc = current_encounter(s, required=True)
    if not enc.has(char):
        raise BadInput(f"{char} is not in encounter {enc.id}")
    return _told(s, "turn", "turn", char, {}, {"spotlight": char}, {}, enc, state={**enc.state, "spotlight": char})
