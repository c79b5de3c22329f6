"""The coin game's verbs, built on the host's command helpers."""

from __future__ import annotations

import click

from narateer_cli.commands.common import Session, command, emit
from narateer_cli.commands.encounter_ops import encounter_for
from narateer_cli.outcome import Outcome


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
    from .engine import flip

    result = flip(s.sheet(char), coins, target, _faces(s.app, faces, coins, s.rules), s.rules)
    enc = encounter_for(s, char)
    return Outcome("roll", char, {"coins": coins, "target": target}, result, kind="roll", show=result,
                   dice={char: result["dice_after"]}, encounter=enc and enc.id, state=enc and enc.new_state,
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
