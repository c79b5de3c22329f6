"""Fights: exchange and react. An Exchange response is no Reaction; a Reaction needs its rule, trigger and cost;
an attack reveals a hidden attacker to its target, and nobody targets a creature it cannot find."""

from __future__ import annotations

import click

from narateer_cli.kit import command, declared, nonneg
from narateer_cli.kit import encounter_for

from ..declarations import EXCHANGE, EXCHANGE_FORM, REACT, REACT_FORM
from .checks import dice_source
from .checks import ATTACKED, told


@command(rolls=True, writes=True, shows=ATTACKED, form=EXCHANGE_FORM, help="""A Combat Exchange: the attacker pays and rolls; the defender answers none, guard or clash.

\b
Examples:
  narateer exchange mira bandit --weapon sword --response guard --boost 1 --response-boost 1 --faces 2,1 --response-faces 1,0
  narateer exchange mira bandit --response none --faces 2""")
@click.argument("attacker")
@click.argument("defender")
@declared(EXCHANGE)
def exchange_cmd(s, attacker, defender, declared):
    from ..engine.combat import exchange_in

    d = declared
    nonneg("--response-boost", d.response_boost)
    nonneg("--cost", d.cost)
    nonneg("--dr", d.dr)
    a, defending = s.sheet(attacker), s.sheet(defender)
    enc = encounter_for(s, attacker)
    dice = dice_source(s.app, s.rules, faces=(d.faces, "--faces"), reroll=(d.reroll_faces, "--reroll-faces"),
                       response=(d.response_faces, "--response-faces"),
                       response_reroll=(d.response_reroll_faces, "--response-reroll-faces"))
    state, result, after = exchange_in(enc.state if enc else None, a, defending, d.response, s.rules, dice,
                                       skill=d.skill, weapon=d.weapon, cost=d.cost, boost=d.boost,
                                       response_boost=d.response_boost, advantage=d.advantage,
                                       disadvantage=d.disadvantage, dr=d.dr, response_weapon=d.response_weapon)
    hit = {"attacker": defender, "defender": attacker}.get(result.lands)
    marks: dict[str, dict] = {}  # sheet edits: character id -> {key: value}
    if d.apply_:
        refuse_secret_wound(s, "exchange")
        result = result.replace(applied=apply_damage(s, hit, result.damage, after, marks))
    return told("exchange", "exchange", attacker, {"defender": defender, **EXCHANGE.logged(d)}, result, after, enc,
                sheets=marks, state=state)


def refuse_secret_wound(s, verb: str):
    """A secret may not change what the party sees: a --secret attack may not wound in the same command (--apply): the
    wound would show on the sheet what the entry hides. Exit 3 before anything is written; unveil, then `wound`."""
    from narateer_cli.kit import Refused

    if s.app.secret:
        raise Refused(f"a secret {verb} cannot --apply its damage: the wound would show what the roll hides",
                      rule="S-SYS-8", fix=f"drop --apply, unveil the {verb}, then `narateer wound TARGET N`")


def apply_damage(s, target, damage, after: dict, marks: dict):
    """--apply deals damage and wounds in the same command: wound whoever was hit by the damage, in this same action
    (added to `after`, an out-of-the-fight condition to `marks`); returns the wound's result (None when nothing landed
    or the weapon has no damage)."""
    from ..engine.character import move_dice
    from .encounter import mark_out

    if target is None or not damage:
        return None
    sheet = s.sheet(target)
    moved = move_dice(sheet.with_dice(after.get(target, sheet.dice)), "wound", damage, s.rules)
    after[target] = moved.dice_after
    marks.update(mark_out(s, target, moved))
    from narateer_cli.kit import plain

    return plain(moved)


@command(rolls=True, writes=True, shows=ATTACKED, form=REACT_FORM, help="""A Reaction. `opportunity`: an Opportunity Attack on a creature that just completed a move.

Pays the attack cost (1 AD by default) + Boost, uses no proactive use,
and is refused while Stunned.

\b
Example:
  narateer react sentry opportunity --against selka --boost 1 --faces 2,1""")
@click.argument("char")
@click.argument("kind", type=click.Choice(["opportunity"]), metavar="KIND")
@declared(REACT)
def react_cmd(s, char, kind, declared):
    from narateer_cli.kit import BadInput

    from ..engine.combat import opportunity_in

    d = declared
    enc = encounter_for(s, char)
    if enc is None:
        raise BadInput(f"{char} is not in the current encounter", fix="an Opportunity Attack happens in an encounter")
    dice = dice_source(s.app, s.rules, faces=(d.faces, "--faces"), reroll=(d.reroll_faces, "--reroll-faces"))
    mover, boost, allow_boost, weapon = d.mover, d.boost, d.allow_boost, d.weapon
    state, result, after = opportunity_in(enc.state, s.sheet(char), s.sheet(mover), s.rules, dice, boost,
                                          allow_boost, weapon)
    marks: dict[str, dict] = {}  # sheet edits: character id -> {key: value}
    if d.apply_:
        refuse_secret_wound(s, "react")
        result = result.replace(applied=apply_damage(s, mover if result.lands else None, result.damage, after, marks))
    return told("react", "react", char, {"kind": kind, **REACT.logged(d)}, result, after, enc, sheets=marks,
                state=state)
