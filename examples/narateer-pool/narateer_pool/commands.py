"""Pool's verbs: each parses, makes one engine call, and returns an Outcome or a Show; the host writes."""

from __future__ import annotations

import click

from narateer_cli.kit import BadInput, Dice, Outcome, Refused, Session, Show, command
from narateer_cli.kit import current_encounter, encounter_for, secret_asked


def _told(s, kind, command, char, declared, result, counters, enc=None, sheets=None, public=(),
          secret=False, state=None) -> Outcome:
    """One action for the host to write: its log fields, CHAR's counters after, other sheet edits, the
    encounter's new state (`state`, a new value; None: the state as it was read), and what a secret entry
    may show of the result (a plain-data result names its public keys itself)."""
    enc = enc if enc is not None else encounter_for(s, char)
    if enc is not None and state is None:
        state = enc.state
    return Outcome(command, char, declared, result, kind=kind, show=result, dice=counters, sheets=sheets,
                   encounter=enc.id if enc else None, state=state, public=public, secret=secret)


def _roll(s, faces, size):
    """SIZE dice from the host's dice source, or the faces typed at the table."""
    from .engine import parse_faces

    dice = Dice(s.app.rng(), {"faces": parse_faces(faces)} if faces else None)
    return dice.given["faces"] if dice.has("faces") else [dice.face(s.rules["sides"]) for _ in range(size)]


def _faces_option(fn):
    return click.option("--faces", metavar="F", help="The dice rolled at the table, one face each: 6,2,4.")(fn)


def _action_roll(s, char, action, faces):
    from . import engine

    sheet = s.sheet(char)
    rating = engine.rating_of(sheet, action, s.rules)
    rolled = _roll(s, faces, engine.pool(rating, s.rules)[0])
    result = engine.action_roll(char, action, rating, rolled, s.rules)
    # a roll changes no sheet, so a player may roll in secret too; the Guide always does (guide: true)
    return _told(s, "roll", "roll", char, {"action": action}, result, None, public=engine.PUBLIC)


@command(rolls=True, writes=True,
         help="Roll a pool of d6 for an action: as many dice as its rating; the highest decides (6 full "
              "success, 4-5 partial, 1-3 failure, two 6s critical); rating 0 rolls 2 and keeps the lowest."
              "\n\n\b\nExample:\n  narateer roll ash prowl\n  narateer roll ash prowl --faces 6,2,4")
@click.argument("char")
@click.argument("action")
@_faces_option
def roll_cmd(s, char, action, faces):
    return _action_roll(s, char, action, faces)


@command(rolls=True, writes=True, help="Roll for an action (the same as roll).\n\n\b\nExample:\n"
                                       "  narateer resolve brin sway")
@click.argument("char")
@click.argument("action")
@_faces_option
def resolve_cmd(s, char, action, faces):
    return _action_roll(s, char, action, faces)


@command(rolls=True, writes=True,
         help="Resist a consequence: roll a pool for an attribute (its rating is how many of its actions are "
              "rated) and take 6 minus the highest die in stress; past 9 stress, mark a trauma and stress "
              "resets. Never secret: the stress shows on the sheet.\n\n\b\nExample:\n"
              "  narateer resist ash prowess")
@click.argument("char")
@click.argument("attribute")
@_faces_option
def resist_cmd(s, char, attribute, faces):
    from . import engine

    if secret_asked(s, char):  # the stress taken would tell the table the highest die
        raise Refused(f"{char} cannot resist in secret: the stress taken would show the roll", rule="S-SYS-8",
                      fix=f"narateer resist {char} {attribute} (without --secret, by a character who is not "
                          "the Guide)")
    sheet = s.sheet(char)
    rating = engine.attribute_rating(sheet, attribute, s.rules)
    rolled = _roll(s, faces, engine.pool(rating, s.rules)[0])
    result = engine.resist(char, attribute, rating, sheet.counters, rolled, s.rules)
    return _told(s, "resist", "resist", char, {"attribute": attribute}, result, {char: result["track_after"]})


@command(rolls=True, writes=True,
         help="The Guide's fortune roll: a pool of N d6 for a circumstance, always sealed (only its "
              "commitment is logged until `narateer unveil`).\n\n\b\nExample:\n  narateer fortune guide 3")
@click.argument("char")
@click.argument("dice", type=int)
@_faces_option
def fortune_cmd(s, char, dice, faces):
    from . import engine

    if not s.sheet(char).guide:
        raise Refused(f"{char} is not the Guide; only the Guide makes fortune rolls",
                      fix="name a sheet with `guide: true`, such as: narateer fortune guide 3")
    if not 0 <= dice <= s.rules["max_pool"]:
        raise BadInput(f"a fortune pool runs from 0 to {s.rules['max_pool']} dice, not {dice}")
    rolled = _roll(s, faces, engine.pool(dice, s.rules)[0])
    result = engine.fortune(char, dice, rolled, s.rules)
    return _told(s, "fortune", "fortune", char, {"dice": dice}, result, None, public=engine.FORTUNE_PUBLIC,
                 secret=True)


@command(writes=True, help="Take (+N: pushing yourself) or clear (-N: indulging a vice) stress; past 9, mark a "
                           "trauma and stress resets.\n\n\b\nExample:\n  narateer stress ash +2")
@click.argument("char")
@click.argument("changes")  # named `changes`, the host reads -1 as a word, not an option
def stress_cmd(s, char, changes):
    from . import engine

    high = s.rules["max_stress"]
    if changes[:1] not in "+-" or not changes[1:].isdigit() or not 1 <= int(changes[1:]) <= high:
        raise BadInput(f"{changes!r} is not a change of stress", fix=f"write +N to take or -N to clear, N from 1 "
                                                                    f"to {high}: narateer stress {char} +2")
    sheet = s.sheet(char)
    result = engine.stress(char, sheet.counters, int(changes), s.rules)
    return _told(s, "stress", "stress", char, {"stress": int(changes)}, result, {char: result["track_after"]})


def dice(app, options):
    """`dice [N]` (the host's command): N d6, bare."""
    count = options["count"]
    with Session(app, write=False) as s:
        count = s.rules["dice_default"] if count is None else count
        if not 1 <= count <= s.rules["max_pool"]:
            raise BadInput(f"roll from 1 to {s.rules['max_pool']} dice, not {count}")
        faces = [app.rng().randint(1, s.rules["sides"]) for _ in range(count)]
    return Show("dice", {"faces": faces, "highest": max(faces)})


@command(help="Exact chance of each outcome for a pool of N dice (0: two, the lowest kept).\n\n\b\n"
              "Example:\n  narateer odds 2")
@click.argument("size", type=int)
def odds_cmd(app, size):
    from .engine import odds

    with Session(app, write=False) as s:
        chances = odds(size, s.rules)
    return Show("odds", {"dice": size, **{outcome: str(p) for outcome, p in chances.items()}})


@command(help="Show a character sheet.\n\n\b\nExample:\n  narateer show ash")
@click.argument("char")
def show_cmd(app, char):
    from .engine import attribute_rating

    with Session(app, write=False) as s:
        sheet = s.sheet(char)
        attributes = {a: attribute_rating(sheet, a, s.rules) for a in s.rules["attributes"]}
    return Show("show", {"id": sheet.id, "name": sheet.name, "actions": dict(sheet.actions),
                         "attributes": attributes, "track": dict(sheet.counters)})


def copied(s, source, count, made):
    """`new CHAR --from OTHER` (the host's command, which made the copy): one log entry."""
    char = next(iter(made))
    result = {"id": char, "from": source}
    return Outcome("new", char, {"from": source}, result, kind="new", show=result, created=made)


NEW_HELP = ("Create a character sheet as a copy of another's (stress and trauma start at 0)."
            "\n\n\b\nExample:\n  narateer new wren --from ash")

# Pool's words for the host's `condition` and `new` commands (`Game.verb_words`): its help; no --rounds, and
# `new` only copies
WORDS = {"condition": {"help": "Add or remove conditions.\n\n\b\nExample:\n  narateer condition ash +bruised -shaken",
                       "changes": {"required": True}, "rounds": None},
         "dice": {"help": "Roll N d6, bare (nothing is logged; default 2).\n\n\b\nExample:\n  narateer dice 3",
                  "rolls": False, "options": (click.argument("count", type=int, required=False),)},
         "new": {"help": NEW_HELP, "char_id": {"metavar": "CHAR"}, "name": None, "count": None,
                 "source": {"required": True, "metavar": None, "help": "The sheet to copy."}}}


def condition(s, char, changes, rounds):
    """`condition CHAR +NAME -NAME` (the host's command): the sheet's conditions."""
    now = list(s.load(char).plain.get("conditions") or [])
    for word in changes:
        if word[:1] not in "+-" or not word[1:]:
            raise BadInput(f"{word!r} is not a change of condition", fix="write +NAME to add or -NAME to remove")
        name = word[1:]
        now = [c for c in now if c != name] + ([name] if word.startswith("+") else [])
    result = {"actor": char, "changes": list(changes), "conditions": now}
    enc = encounter_for(s, char)
    return Outcome("condition", char, {"changes": list(changes)}, result, kind="condition", show=result,
                   encounter=enc.id if enc else None, state=enc.state if enc else None,
                   sheets={char: {"conditions": now}})


@command(writes=True,
         help="Turn the spotlight to a character in the current encounter.\n\n\b\nExample:\n  narateer turn ash")
@click.argument("char")
def turn_cmd(s, char):
    enc = current_encounter(s, required=True)
    if not enc.has(char):
        raise BadInput(f"{char} is not in encounter {enc.id}", fix=f"narateer encounter new ID {char} ...")
    return _told(s, "turn", "turn", char, {}, {"spotlight": char}, None, enc, state={**enc.state, "spotlight": char})
