"""Fights: exchange and react (R-ACT-5, R-ACT-6, A-EXCH, R-HIDE-6, R-HIDE-7)."""

from __future__ import annotations

import click

from narateer_cli.commands.common import Session, command, emit, faces_options, nonneg
from .rolls import dice_source
from narateer_cli.commands.encounter_ops import finish, encounter_for


@command(rolls=True, help="""A Combat Exchange: the attacker pays and rolls; the defender answers none, guard or clash.

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
def exchange_cmd(app, attacker, defender, response, skill, weapon, boost, response_boost, cost, dr, advantage,
                 disadvantage, faces, reroll_faces, response_faces, response_reroll_faces):
    from ..engine.combat import exchange_in

    nonneg("--response-boost", response_boost)
    nonneg("--cost", cost)
    nonneg("--dr", dr)
    with Session(app) as s:
        a, d = s.sheet(attacker), s.sheet(defender)
        enc = encounter_for(s, attacker)
        dice = dice_source(app, s.rules, faces=(faces, "--faces"), reroll=(reroll_faces, "--reroll-faces"),
                           response=(response_faces, "--response-faces"),
                           response_reroll=(response_reroll_faces, "--response-reroll-faces"))
        state, result, after = exchange_in(enc.state if enc else None, a, d, response, s.rules, dice, skill=skill,
                                         weapon=weapon, cost=cost, boost=boost, response_boost=response_boost,
                                         advantage=advantage, disadvantage=disadvantage, dr=dr)
        if enc is not None:
            enc.new_state = state
        finish(s, "exchange", attacker, {"defender": defender, "response": response, "weapon": weapon,
                                         "boost": boost, "response_boost": response_boost}, result, after, enc)
    emit(app, "exchange", result)


@command(rolls=True, help="""A Reaction. `opportunity`: an Opportunity Attack on a creature that just completed a move.

Pays the attack cost (1 AD by default, A-EXCH) + Boost, uses no proactive use,
and is refused while Stunned.

\b
Example:
  narateer react sentry opportunity --against selka --boost 1 --faces 2,1""")
@click.argument("char")
@click.argument("kind", type=click.Choice(["opportunity"]), metavar="KIND")
@click.option("--against", "mover", required=True, metavar="MOVER")
@click.option("--boost", type=int, default=0)
@click.option("--allow-boost", is_flag=True, help="The Guide allows Boost on this Reaction (A-REACTBOOST).")
@faces_options
def react_cmd(app, char, kind, mover, boost, allow_boost, faces, reroll_faces):
    from narateer_cli.errors import BadInput

    from ..engine.combat import opportunity_in

    with Session(app) as s:
        enc = encounter_for(s, char)
        if enc is None:
            raise BadInput(f"{char} is not in the current encounter", fix="an Opportunity Attack happens in an encounter")
        dice = dice_source(app, s.rules, faces=(faces, "--faces"), reroll=(reroll_faces, "--reroll-faces"))
        enc.new_state, result, after = opportunity_in(enc.state, s.sheet(char), s.sheet(mover), s.rules, dice, boost,
                                                    allow_boost)
        finish(s, "react", char, {"kind": kind, "against": mover, "boost": boost}, result, after, enc)
    emit(app, "react", result)
