"""The coin game's verbs, built on the host's command helpers."""

from __future__ import annotations

import click

from narateer_cli.kit import Session, command, emit
from narateer_cli.kit import encounter_for
from narateer_cli.kit import Outcome


def _faces(app, text, count, rules):
    from .engine import parse_faces

    given = parse_faces(text)
    return given if given is not None else [app.rng().choice(rules["faces"]) for _ in range(count)]


@command(writes=True, rolls=True, help="""Flip coins for CHAR against a target.

\b
Example:
  narateer roll pim --target 1 --coins 2""")
@click.argument("char")
@click.option("--target", type=int, required=True)
@click.option("--coins", type=int, default=2)
@click.option("--faces", metavar="F")
def roll_cmd(s, char, target, coins, faces):
    return _flip(s, "roll", char, target, coins, faces)


def _flip(s, verb, char, target, coins, faces):
    from .engine import flip

    result = flip(s.sheet(char), coins, target, _faces(s.app, faces, coins, s.rules), s.rules)
    enc = encounter_for(s, char)
    return Outcome(verb, char, {"coins": coins, "target": target}, result, kind="roll", show=result,
                   dice={char: result["dice_after"]}, encounter=enc and enc.id, state=enc and enc.state,
                   public=("system", "actor", "coins", "target", "paid", "dice_before", "dice_after"))  # S-SYS-8


@command(help="""Exact chance that N coins beat a target.

\b
Example:
  narateer odds 3 --target 1""")
@click.argument("coins", type=int)
@click.option("--target", type=int, required=True)
def odds_cmd(app, coins, target):
    from .engine import odds

    with Session(app, write=False) as s:
        p = odds(coins, target, s.rules)
    emit(app, "odds", {"coins": coins, "target": target, "p_success": float(p), "exact": str(p)})


@command(help="""Call one flip.

\b
Example:
  narateer call heads""")
@click.argument("side", type=click.Choice(["heads", "tails"]))
@click.option("--faces", metavar="F")
def call_cmd(app, side, faces):
    with Session(app, write=False) as s:
        face = _faces(app, faces, 1, s.rules)[0]
    emit(app, "call", {"called": side, "face": face, "won": face == (1 if side == "heads" else 0)})


@command(writes=True, rolls=True, help="""Resolve an action: flip CHAR's coins against a target, as roll does.

\b
Example:
  narateer resolve pim --target 1""")
@click.argument("char")
@click.option("--target", type=int, required=True)
@click.option("--coins", type=int, default=2)
@click.option("--faces", metavar="F")
def resolve_cmd(s, char, target, coins, faces):
    return _flip(s, "resolve", char, target, coins, faces)


DICE_HELP = """Flip N bare coins: no character, nothing spent.

\b
Example:
  narateer dice 3"""


def dice(app, options):
    """`dice N` (the host's command): N bare coins."""
    n = options["n"]
    with Session(app, write=False) as s:
        faces = _faces(app, None, n, s.rules)
    data = {"system": "coin", "faces": faces, "total": sum(faces)}
    return Outcome("dice", None, {"coins": n}, data, kind="dice", show=data, public=("system",))


@command(help="""Show a character's coins.

\b
Example:
  narateer show pim""")
@click.argument("char")
def show_cmd(app, char):
    with Session(app, write=False) as s:
        sheet = s.sheet(char)
    emit(app, "show", {"id": sheet.id, "name": sheet.name, "coins": sheet.dice})


def copied(s, source, count, made):
    """`new CHAR --from OTHER` (the host's command, which made the copy): one log entry."""
    char = next(iter(made))
    result = {"id": char, "from": source}
    return Outcome("new", char, {"from": source}, result, kind="new", show=result, created=made)


@command(writes=True, help="""Start CHAR's turn: its spent coins come back.

\b
Example:
  narateer turn pim""")
@click.argument("char")
def turn_cmd(s, char):
    sheet = s.sheet(char)
    after = {"ready": sheet.dice["ready"] + sheet.dice["spent"], "spent": 0}
    result = {"actor": char, "coins_before": dict(sheet.dice), "coins_after": after}
    enc = encounter_for(s, char)
    return Outcome("turn", char, {}, result, kind="turn", show=result, dice={char: after},
                   encounter=enc and enc.id, state=enc and enc.state)


NEW_HELP = """Create a character as a copy of another, with its coins back.

\b
Example:
  narateer new tam --from pim"""

# Coin's words for the host's `condition` and `new` commands (`Game.verb_words`): its help; no --rounds, and
# `new` only copies
WORDS = {"condition": {"help": """Add (+NAME) or remove (-NAME) conditions on CHAR's sheet.

\b
Example:
  narateer condition pim +dizzy""", "context_settings": {"ignore_unknown_options": True},
                       "changes": {"required": True}, "rounds": None},
         "dice": {"help": DICE_HELP, "options": (click.argument("n", type=click.IntRange(1, 20)),)},
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
    return Outcome("condition", char, {"changes": list(changes)}, result, kind="condition", show=result,
                   sheets={char: {"conditions": now}}, encounter=enc and enc.id, state=enc and enc.state)
