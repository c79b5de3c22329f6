"""Combat Exchanges, Exchange Responses and the Opportunity Attack (R-ACT-5, R-ACT-6, A-EXCH).

An Exchange Response (none, guard, clash) is part of the Exchange: it is not
a Reaction, so Stunned does not block it, but Slowed still doubles its
payment. Both payments are settled before anyone rolls.
"""

from __future__ import annotations

from .character import Sheet, possessive
from .check import Declaration, Streams, Target, afford, compare, plan, roll
from .dice import DiceSource, beats
from narateer_cli.errors import BadInput, Refused
from narateer_cli.suggest import unknown
from .ruleset import Ruleset

RESPONSE_STREAMS = Streams("response", "response_reroll", "response_power", "--response-faces",
                           "--response-reroll-faces", "--power-faces")
RESPONSES = ("none", "guard", "clash")


def attack_cost(attacker: Sheet, weapon: str | None, cost: int | None, rules: Ruleset) -> tuple[int, dict | None]:
    """A-EXCH / R-ACT-2: --cost, else the weapon's Base Attack Cost, else the ruleset's default."""
    spec = None
    if weapon:
        spec = attacker.weapons.get(weapon.lower())
        if spec is None:
            raise unknown("weapon", weapon, attacker.weapons, detail=f" on {attacker.id}'s sheet")
    if cost is not None:
        return cost, spec
    if spec is not None:
        value = spec.get("attack_cost", rules.exchange["attack_cost"])
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise BadInput(f"characters/{attacker.id}.yaml: weapon {weapon} attack_cost must be a whole number",
                           fix="write `attack_cost: 1`")
        return value, spec
    return rules.exchange["attack_cost"], spec


def exchange(attacker: Sheet, defender: Sheet, response: str, attack: Declaration, response_boost: int,
             rules: Ruleset, dice: DiceSource, attacker_hidden_from_defender: bool,
             defender_hidden_from_attacker: bool, weapon: dict | None = None, dr: int | None = None) -> dict:
    """One Combat Exchange; returns the SPEC `exchange` shape plus the dice after."""
    if response not in RESPONSES:
        raise BadInput(f"unknown response {response!r}", fix="use none, guard or clash")
    if attacker.id == defender.id:
        raise BadInput("a character cannot attack itself", fix="name another defender")
    if dr is not None and (response != "none" or not rules.readiness_off_by(defender.conditions)):
        raise BadInput("--dr replaces the defender's Readiness only with --response none against a creature "
                       "whose Readiness is off (A-RDYOFF)", fix="drop --dr")
    if dice.has("response") and response == "none":
        raise BadInput("--response-faces given but the response is none", fix="drop --response-faces")
    atk = plan(attacker, attack, rules, dice=dice, check_afford=False)
    resp = None
    if response != "none":
        cost = rules.exchange["guard_cost" if response == "guard" else "clash_cost"]
        label = "Full Guard" if response == "guard" else "Clash"
        rd = Declaration(skill=atk.skill, boost=response_boost, cost=cost, label=label)
        resp = plan(defender, rd, rules, RESPONSE_STREAMS, dice=dice, check_afford=False)
    if defender_hidden_from_attacker:
        raise Refused(f"{defender.id} is hidden from {attacker.id} and cannot be targeted directly", rule="R-HIDE-7",
                      fix=f"find it first with `narateer search {attacker.id} --for {defender.id}`")
    if resp is not None:
        off = rules.readiness_off_by(defender.conditions)
        if attacker_hidden_from_defender or off:
            why = f"{attacker.id} is hidden from it" if attacker_hidden_from_defender else f"it is {off}"
            raise Refused(f"{defender.id} cannot {resp.decl.label}: {why}", rule="R-ACT-5",
                          fix="declare --response none")
    afford(atk, attacker)
    if resp is not None:
        if resp.paid > defender.dice.get("ready", 0):
            raise Refused(f"{defender.id} cannot pay {resp.paid} AD for {resp.decl.label} with "
                          f"{defender.dice.get('ready', 0)} Ready", rule="R-ACT-5",
                          fix="choose a smaller --response-boost, or declare --response none; nothing was spent")
    after = {attacker.id: atk.dice_after}
    if resp is None:
        if dr is not None:
            target = Target(dr, "dr", f"DR {dr}")
        else:
            target = Target(defender.target_readiness(atk.skill, rules), "readiness",
                            f"{possessive(defender.id)} {atk.skill} Readiness")
        attack_result = roll(atk, target, rules, dice)
        dice.finish()
        lands = "attacker" if attack_result.success else None
        margin = attack_result.margin
        defense_json = None
    else:
        first = roll(atk, Target(None, "response", ""), rules, dice)
        defense = roll(resp, Target(None, "attack", ""), rules, dice)
        dice.finish()
        attack_result = compare(atk, Target(defense.total, response, f"{possessive(defender.id)} {resp.decl.label}"), rules,
                                first.faces, first.rerolled, first.edge_faces, first.power_rerolled, first.final_faces)
        defense = compare(resp, Target(first.total, "attack", f"{possessive(attacker.id)} attack"), rules, defense.faces,
                          defense.rerolled, defense.edge_faces, defense.power_rerolled, defense.final_faces)
        after[defender.id] = resp.dice_after
        defense_json = defense.to_json()
        diff = first.total - defense.total
        if beats(first.total, defense.total):
            lands, margin = "attacker", diff
        elif beats(defense.total, first.total) and response == "clash":
            lands, margin = "defender", -diff
        else:
            lands, margin = None, diff
    hit_margin = margin if lands else None
    outcome = rules.tier_for(margin) if lands else None
    damage = None
    if lands == "attacker" and weapon and "damage" in weapon:
        damage = weapon["damage"]
    return {"attacker": attacker.id, "defender": defender.id, "response": response,
            "attack": attack_result.to_json(), "defense": defense_json, "lands": lands, "hit_margin": hit_margin,
            "outcome": outcome, "damage": damage, "dice_after": after}


def opportunity(actor: Sheet, mover: Sheet, decl: Declaration, rules: Ruleset, dice: DiceSource,
                last_action: dict | None, mover_hidden: bool) -> dict:
    """R-ACT-6: an Opportunity Attack answers a finished movement step, as a Reaction; it pays the attack cost
    (A-EXCH) + Boost and uses no proactive use."""
    payment = plan(actor, decl, rules, dice=dice, check_afford=False)  # bad input before any refusal
    from .actions import reaction_allowed

    reaction_allowed(actor, rules, "Opportunity Attack")
    if not last_action or last_action.get("actor") != mover.id or last_action.get("command") != "move":
        raise Refused(f"{possessive(mover.id)} last action was not a completed move", rule="R-ACT-6",
                      fix="an Opportunity Attack answers a movement step just completed")
    if actor.id in (last_action.get("answered") or []):
        raise Refused(f"{actor.id} already made an Opportunity Attack on this move", rule="R-ACT-6",
                      fix="one Reaction per trigger")
    if mover_hidden:
        raise Refused(f"{mover.id} is hidden from {actor.id}", rule="R-HIDE-7", fix="it cannot be targeted directly")
    afford(payment, actor)
    target = Target(mover.target_readiness(payment.skill, rules), "readiness", f"{possessive(mover.id)} {payment.skill} Readiness")
    result = roll(payment, target, rules, dice)
    dice.finish()
    lands = "attacker" if result.success else None
    return {"actor": actor.id, "against": mover.id, "reaction": "opportunity", "check": result.to_json(),
            "lands": lands, "hit_margin": result.margin if lands else None,
            "outcome": result.outcome, "dice_after": {actor.id: payment.dice_after}}
