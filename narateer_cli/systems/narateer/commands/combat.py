"""Fights: exchange and react. An Exchange response is no Reaction; a Reaction needs its rule, trigger and cost;
an attack reveals a hidden attacker to its target, and nobody targets a creature it cannot find."""

from __future__ import annotations

import click

from narateer_cli.kit import command, faces_options, nonneg
from narateer_cli.kit import encounter_for

from .checks import dice_source
from .checks import told


@command(rolls=True, writes=True, help="""A Combat Exchange: the attacker pays and rolls; the defender answers none, guard or clash.

\b
Examples:
  narateer exchange mira bandit --weapon sword --response guard --boost 1 --response-boost 1 --faces 2,1 --response-faces 1,0
  narateer exchange mira bandit --response none --faces 2""")
@click.argument("attacker")
@click.argument("defender")
@click.option("--response", required=True, type=click.Choice(["none", "guard", "clash"]), help="The defender's Exchange Response.")
@click.option("--skill", default=None, help="Attack skill (default: the ruleset's, melee).")
@click.option("--weapon", metavar="W", help="A weapon on the attacker's sheet (its attack_cost and damage).")
@click.option("--boost", type=int, default=0, help="Attack Boost, up to SL.")
@click.option("--response-boost", type=int, default=0, help="Guard or Clash Boost, up to the defender's SL.")
@click.option("--cost", type=int, default=None, help="Attack cost (default: the weapon's, else 1).")
@click.option("--dr", type=int, default=None, help="With --response none against a creature whose Readiness is off.")
@click.option("--advantage", is_flag=True)
@click.option("--disadvantage", is_flag=True)
@faces_options
@click.option("--response-faces", metavar="F", help="The defender's faces.")
@click.option("--response-reroll-faces", metavar="F", help="The defender's Edge rerolls.")
@click.option("--response-weapon", metavar="W", help="The weapon of a defender who Clashes (its damage if it lands).")
@click.option("--apply", "apply_", is_flag=True, help="Wound whoever is hit by the weapon's damage in this command.")
def exchange_cmd(s, attacker, defender, response, skill, weapon, boost, response_boost, cost, dr, advantage,
                 disadvantage, faces, reroll_faces, response_faces, response_reroll_faces, response_weapon, apply_):
    from ..engine.combat import exchange_in

    nonneg("--response-boost", response_boost)
    nonneg("--cost", cost)
    nonneg("--dr", dr)
    a, d = s.sheet(attacker), s.sheet(defender)
    enc = encounter_for(s, attacker)
    dice = dice_source(s.app, s.rules, faces=(faces, "--faces"), reroll=(reroll_faces, "--reroll-faces"),
                       response=(response_faces, "--response-faces"),
                       response_reroll=(response_reroll_faces, "--response-reroll-faces"))
    state, result, after = exchange_in(enc.state if enc else None, a, d, response, s.rules, dice, skill=skill,
                                       weapon=weapon, cost=cost, boost=boost, response_boost=response_boost,
                                       advantage=advantage, disadvantage=disadvantage, dr=dr,
                                       response_weapon=response_weapon)
    hit = {"attacker": defender, "defender": attacker}.get(result.lands)
    marks: dict[str, dict] = {}  # sheet edits: character id -> {key: value}
    if apply_:
        refuse_secret_wound(s, "exchange")
        result = result.replace(applied=apply_damage(s, hit, result.damage, after, marks))
    return told("exchange", "exchange", attacker, {"defender": defender, "response": response, "weapon": weapon,
                                                   "boost": boost, "response_boost": response_boost,
                                                   "response_weapon": response_weapon, "apply": apply_},
                result, after, enc, sheets=marks, state=state)


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


@command(rolls=True, writes=True, help="""A Reaction. `opportunity`: an Opportunity Attack on a creature that just completed a move.

Pays the attack cost (1 AD by default) + Boost, uses no proactive use,
and is refused while Stunned.

\b
Example:
  narateer react sentry opportunity --against selka --boost 1 --faces 2,1""")
@click.argument("char")
@click.argument("kind", type=click.Choice(["opportunity"]), metavar="KIND")
@click.option("--against", "mover", required=True, metavar="MOVER")
@click.option("--boost", type=int, default=0)
@click.option("--allow-boost", is_flag=True, help="The Guide allows Boost on this Reaction (for `reaction_boost: false`).")
@click.option("--weapon", metavar="W", help="A weapon on CHAR's sheet: its attack cost and damage.")
@click.option("--apply", "apply_", is_flag=True, help="Wound the mover by the weapon's damage if it lands.")
@faces_options
def react_cmd(s, char, kind, mover, boost, allow_boost, weapon, apply_, faces, reroll_faces):
    from narateer_cli.kit import BadInput

    from ..engine.combat import opportunity_in

    enc = encounter_for(s, char)
    if enc is None:
        raise BadInput(f"{char} is not in the current encounter", fix="an Opportunity Attack happens in an encounter")
    dice = dice_source(s.app, s.rules, faces=(faces, "--faces"), reroll=(reroll_faces, "--reroll-faces"))
    state, result, after = opportunity_in(enc.state, s.sheet(char), s.sheet(mover), s.rules, dice, boost,
                                          allow_boost, weapon)
    marks: dict[str, dict] = {}  # sheet edits: character id -> {key: value}
    if apply_:
        refuse_secret_wound(s, "react")
        result = result.replace(applied=apply_damage(s, mover if result.lands else None, result.damage, after, marks))
    return told("react", "react", char, {"kind": kind, "against": mover, "boost": boost, "weapon": weapon,
                                         "apply": apply_}, result, after, enc, sheets=marks, state=state)
