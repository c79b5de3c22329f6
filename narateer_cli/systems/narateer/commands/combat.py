"""Fights: exchange and react. An Exchange response is no Reaction; a Reaction needs its rule, trigger and cost;
an attack reveals a hidden attacker to its target, and nobody targets a creature it cannot find."""

from __future__ import annotations

import click

from narateer_cli.kit import command, declared, nonneg
from narateer_cli.kit import encounter_for

from ..declarations import EXCHANGE, EXCHANGE_FORM, REACT, REACT_FORM
from .checks import dice_source
from .checks import ATTACKED, told


@command(rolls=True, checks=True, writes=True, shows=ATTACKED, form=EXCHANGE_FORM, help="""A Combat Exchange: the attacker pays and rolls; the defender answers none, guard or clash.

A class trait of the defender (`traits:` on its sheet) declared with --trait
as part of its Full Guard or Clash modifies that response (its bonus dice are
rolled, not paid) and spends one of its uses; it is no Reaction unless its
data says it creates one. Its trigger must be that response.

\b
Examples:
  narateer exchange mira bandit --weapon sword --response guard --boost 1 --response-boost 1 --faces 2,1 --response-faces 1,0
  narateer exchange mira bandit --response none --faces 2
  narateer exchange mira bandit --response guard --trait iron-wall --faces 2 --response-faces 1,2""")
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
    if d.apply_:
        refuse_secret_wound(s, "exchange")  # a rule's refusal, before anything is planned or asked
    dice = dice_source(s.app, s.rules, faces=(d.faces, "--faces"), reroll=(d.reroll_faces, "--reroll-faces"),
                       response=(d.response_faces, "--response-faces"),
                       response_reroll=(d.response_reroll_faces, "--response-reroll-faces"))
    state, result, after = exchange_in(enc.state if enc else None, a, defending, d.response, s.rules, dice,
                                       skill=d.skill, weapon=d.weapon, cost=d.cost, boost=d.boost,
                                       response_boost=d.response_boost, advantage=d.advantage,
                                       disadvantage=d.disadvantage, dr=d.dr, response_weapon=d.response_weapon,
                                       trait=d.trait)
    hit = {"attacker": defender, "defender": attacker}.get(result.lands)
    marks: dict[str, dict] = {}  # sheet edits: character id -> {key: value}
    if d.apply_:
        result = result.replace(applied=apply_damage(s, hit, result.damage, after, marks))
    return told("exchange", "exchange", attacker, {"defender": defender, **EXCHANGE.logged(d), **traited(d)}, result,
                after, enc, sheets=spent_uses(marks, result.trait), state=state)


def traited(d) -> dict:
    """The trait a declaration names, for its log entry (an entry without one keeps its old shape)."""
    return {"trait": d.trait} if d.trait is not None else {}


def spent_uses(marks: dict, use) -> dict:
    """The sheet edits with a trait's use spent (its owner's `traits.NAME.uses.left`)."""
    from ..engine.traits import edits

    for cid, changes in edits(use).items():
        marks.setdefault(cid, {}).update(changes)
    return marks


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


@command(rolls=True, checks=True, writes=True, shows=ATTACKED, form=REACT_FORM, help="""A Reaction. `opportunity`: an Opportunity Attack on a creature that just completed a move.

Pays the attack cost (1 AD by default) + Boost, uses no proactive use,
and is refused while Stunned.

`trait`: a class trait of CHAR (`traits:` on its sheet) that triggers once
the Combat Exchange between CHAR and --against has resolved. It spends one
use and rolls nothing; it is a Reaction (refused while Stunned) only when its
data says it creates one. With `opportunity`, --trait names a trait that
modifies the attack.

\b
Examples:
  narateer react sentry opportunity --against selka --boost 1 --faces 2,1
  narateer react bandit trait --against mira --trait riposte""")
@click.argument("char")
@click.argument("kind", type=click.Choice(["opportunity", "trait"]), metavar="KIND")
@declared(REACT)
def react_cmd(s, char, kind, declared):
    from narateer_cli.kit import BadInput

    from ..engine.combat import opportunity_in

    d = declared
    enc = encounter_for(s, char)
    if kind == "trait":
        return trait_react(s, char, d, enc)
    if enc is None:
        raise BadInput(f"{char} is not in the current encounter", fix="an Opportunity Attack happens in an encounter")
    if d.apply_:
        refuse_secret_wound(s, "react")  # a rule's refusal, before anything is planned or asked
    dice = dice_source(s.app, s.rules, faces=(d.faces, "--faces"), reroll=(d.reroll_faces, "--reroll-faces"))
    mover, boost, allow_boost, weapon = d.mover, d.boost, d.allow_boost, d.weapon
    state, result, after = opportunity_in(enc.state, s.sheet(char), s.sheet(mover), s.rules, dice, boost,
                                          allow_boost, weapon, d.trait)
    marks: dict[str, dict] = {}  # sheet edits: character id -> {key: value}
    if d.apply_:
        result = result.replace(applied=apply_damage(s, mover if result.lands else None, result.damage, after, marks))
    return told("react", "react", char, {"kind": kind, **REACT.logged(d), **traited(d)}, result, after, enc,
                sheets=spent_uses(marks, result.trait), state=state)


def trait_react(s, char, d, enc):
    """`react CHAR trait --against OTHER --trait NAME`: a trait used once the Exchange between the two has
    resolved; it rolls nothing and moves no dice."""
    from narateer_cli.kit import BadInput

    from ..engine.traits import after_exchange

    if d.trait is None:
        raise BadInput("react trait needs --trait NAME", fix="name the trait from CHAR's sheet with --trait")
    given = [name for name, value in (("--boost", d.boost), ("--allow-boost", d.allow_boost), ("--weapon", d.weapon),
                                      ("--apply", d.apply_), ("--faces", d.faces), ("--reroll-faces", d.reroll_faces))
             if value]
    if given:
        raise BadInput(f"{given[0]} does not go with react trait: the trait rolls nothing", fix=f"drop {given[0]}")
    if enc is None:
        raise BadInput(f"{char} is not in the current encounter", fix="a trait after an Exchange is used in the "
                                                                      "encounter the Exchange happened in")
    state, result = after_exchange(enc.state, s.sheet(char), s.sheet(d.mover), d.trait, s.rules)
    # logged as its own command: its result is a trait's use, not an attack's
    return told("trait_react", "react trait", char, {"kind": "trait", **REACT.logged(d), **traited(d)}, result, {}, enc,
                sheets=spent_uses({}, result.trait), state=state)
