"""Fights: exchange and react (R-ACT-5, R-ACT-6, A-EXCH, R-HIDE-6, R-HIDE-7)."""

from __future__ import annotations

import click

from narateer_cli.commands.common import Session, command, emit, faces_options, nonneg
from .rolls import dice_source
from narateer_cli.commands.encounter_ops import finish, encounter_for


@command(help="""A Combat Exchange: the attacker pays and rolls; the defender answers none, guard or clash.

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
    from ..engine import encounter as rules_enc
    from ..engine.check import Declaration
    from ..engine.combat import attack_cost, exchange

    nonneg("--response-boost", response_boost)
    nonneg("--cost", cost)
    nonneg("--dr", dr)
    with Session(app) as s:
        rules = s.rules
        a, d = s.sheet(attacker), s.sheet(defender)
        enc = encounter_for(s, attacker)
        if enc is not None:
            rules_enc.require_participant(enc.state, defender)
        dice = dice_source(app, rules, faces=(faces, "--faces"), reroll=(reroll_faces, "--reroll-faces"),
                           response=(response_faces, "--response-faces"),
                           response_reroll=(response_reroll_faces, "--response-reroll-faces"))
        base, weapon_spec = attack_cost(a, weapon, cost, rules)
        skill_name = (skill or rules.exchange["skill"]).lower()
        decl = Declaration(skill=skill_name, boost=boost, cost=base, advantage=advantage, disadvantage=disadvantage,
                           label="attack")
        state = enc.state if enc is not None else None
        data = exchange(a, d, response, decl, response_boost, rules, dice,
                        attacker_hidden_from_defender=bool(state and rules_enc.is_hidden(state, attacker, defender)),
                        defender_hidden_from_attacker=bool(state and rules_enc.is_hidden(state, defender, attacker)),
                        weapon=weapon_spec, dr=dr)
        if enc is not None:
            enc.new_state = rules_enc.use_skill(state, attacker, a.skill(skill_name, rules).name, "an attack")
            enc.new_state, data["revealed_to"] = rules_enc.attack_reveals(enc.new_state, attacker, defender)
            enc.new_state = rules_enc.record_action(enc.new_state, attacker, "exchange")
        after = data.pop("dice_after")
        finish(s, "exchange", attacker, {"defender": defender, "response": response, "weapon": weapon,
                                         "boost": boost, "response_boost": response_boost}, data, after, enc)
    emit(app, "exchange", data)


@command(help="""A Reaction. `opportunity`: an Opportunity Attack on a creature that just completed a move.

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
    from ..engine import encounter as rules_enc
    from ..engine.check import Declaration
    from ..engine.combat import opportunity

    with Session(app) as s:
        rules = s.rules
        enc = encounter_for(s, char)
        if enc is None:
            from narateer_cli.errors import BadInput

            raise BadInput(f"{char} is not in the current encounter", fix="an Opportunity Attack happens in an encounter")
        rules_enc.require_participant(enc.state, mover)
        dice = dice_source(app, rules, faces=(faces, "--faces"), reroll=(reroll_faces, "--reroll-faces"))
        decl = Declaration(skill=rules.exchange["skill"], boost=boost, cost=rules.exchange["attack_cost"], reaction=True,
                           allow_boost=allow_boost, label="Opportunity Attack")
        data = opportunity(s.sheet(char), s.sheet(mover), decl, rules, dice, enc.state["last_action"],
                           rules_enc.is_hidden(enc.state, mover, char))
        enc.new_state, data["revealed_to"] = rules_enc.attack_reveals(enc.state, char, mover)
        enc.new_state = rules_enc.answered(enc.new_state, char)
        after = data.pop("dice_after")
        finish(s, "react", char, {"kind": kind, "against": mover, "boost": boost}, data, after, enc)
    emit(app, "react", data)
