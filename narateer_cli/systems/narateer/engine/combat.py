"""Combat Exchanges, Exchange Responses and the Opportunity Attack.

An Exchange Response (none, guard, clash) is part of the Exchange: it is not
a Reaction, so Stunned does not block it, but Slowed still doubles its
payment. Both payments are settled before anyone rolls.
"""

from __future__ import annotations

from typing import Any

from narateer_cli.kit import Record, computed, field

from .character import Sheet, possessive
from .check import CheckResult, Declaration, Streams, Target, afford, ask_if_hopeless, compare, plan, read_check, roll
from .dice import DiceSource, beats
from narateer_cli.kit import BadInput, Refused
from .ruleset import Ruleset

RESPONSE_STREAMS = Streams("response", "response_reroll", "response_power", "--response-faces",
                           "--response-reroll-faces", "--power-faces")
RESPONSES = ("none", "guard", "clash")


def _trait(data):
    from .traits import TraitUse

    return TraitUse.from_json(data) if isinstance(data, dict) else data


class ExchangeResult(Record):
    """One Combat Exchange: both checks, who lands, the Hit Margin and its tier, the weapon's damage."""

    attacker: Any = field(public=True)
    defender: Any = field(public=True)
    response: Any = field(public=True)
    attack: Any = field(public=CheckResult, load=CheckResult.from_json)
    defense: Any = field(public=CheckResult, load=read_check)
    lands: Any
    hit_margin: Any
    outcome: Any
    damage: Any
    revealed_to: Any = field(default=None, public=True, skip=lambda r: r.revealed_to is None)  # only inside an encounter
    applied: Any = None
    # damage that landed but was not dealt (no --apply): the command that deals it
    not_applied = computed(lambda r: wound_command({"attacker": r.defender, "defender": r.attacker}.get(r.lands),
                                                   r.damage, r.applied),
                           skip=lambda r: not (r.lands and r.damage and r.applied is None))
    trait: Any = field(default=None, public=True, skip=lambda r: r.trait is None, load=_trait)  # the defender's


class OpportunityResult(Record):
    """An Opportunity Attack: a Reaction to a finished movement step in reach."""

    actor: Any = field(public=True)
    against: Any = field(public=True)
    reaction: Any = field(public=True)
    check: Any = field(public=CheckResult, load=CheckResult.from_json)
    lands: Any
    hit_margin: Any
    outcome: Any
    revealed_to: Any = field(default=None, public=True)
    damage: Any = None
    applied: Any = None
    trait: Any = field(default=None, public=True, skip=lambda r: r.trait is None, load=_trait)
    not_applied = computed(lambda r: wound_command(r.against if r.lands else None, r.damage, r.applied),
                           skip=lambda r: not (r.lands and r.damage and r.applied is None))


def wound_command(hit: str | None, damage, applied) -> dict | None:
    """What a landed hit's damage asks of the Guide when the command did not deal it: whom, how much, and the
    command that deals it (None when nothing is left to deal)."""
    if hit is None or not damage or applied is not None:
        return None
    return {"target": hit, "damage": damage, "command": f"narateer wound {hit} {damage}"}


def attack_cost(attacker: Sheet, weapon: str | None, cost: int | None, rules: Ruleset) -> tuple[int, dict | None]:
    """The attack's cost: --cost, else the weapon's Base Attack Cost, else the ruleset's default."""
    spec = None
    if weapon:
        spec = attacker.weapons.get(weapon.lower())
        if spec is None:
            from narateer_cli.kit import unknown

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
             defender_hidden_from_attacker: bool, weapon: dict | None = None,
             dr: int | None = None, response_weapon: dict | None = None,
             refuse_first=None, trait=None) -> tuple[ExchangeResult, dict]:
    """One Combat Exchange; returns the result and the dice after. `trait`: the defender's trait declared as part
    of its Full Guard or Clash (a `traits.TraitUse`), which modifies that response's check.
    Every payment is planned and every refusal found before any die is rolled (`refuse_first`: the caller's
    own, an encounter's, made before a hopeless attack asks anything)."""
    from .traits import refusal

    _exchange_input(attacker, defender, response, rules, dice, dr)
    atk = plan(attacker, attack, rules, dice=dice, check_afford=False)
    guard_skill = defense_skill(attacker, defender, atk.skill, response, rules)
    resp = _plan_response(defender, guard_skill, response, response_boost, rules, dice, trait)
    _exchange_refusals(attacker, defender, atk, resp, rules, attacker_hidden_from_defender,
                       defender_hidden_from_attacker)
    refusal(defender, trait, rules)
    if refuse_first is not None:
        refuse_first()
    if resp is None:
        attack_result, defense_json, lands, margin = _unanswered(atk, guard_skill, defender, rules, dice, dr)
        after = {attacker.id: atk.dice_after}
    else:
        attack_result, defense_json, lands, margin = _answered(atk, resp, attacker, defender, response, rules, dice)
        after = {attacker.id: atk.dice_after, defender.id: resp.dice_after}
    damage = ({"attacker": weapon, "defender": response_weapon}.get(lands) or {}).get("damage")
    result = ExchangeResult(attacker.id, defender.id, response, attack_result, defense_json, lands,
                            margin if lands else None, rules.tier_for(margin) if lands else None, damage, trait=trait)
    return result, after


def _exchange_input(attacker: Sheet, defender: Sheet, response: str, rules: Ruleset, dice: DiceSource, dr):
    """Bad input of an Exchange, reported before any refusal."""
    if response not in RESPONSES:
        raise BadInput(f"unknown response {response!r}", fix="use none, guard or clash")
    if attacker.id == defender.id:
        raise BadInput("a character cannot attack itself", fix="name another defender")
    if dr is not None and (response != "none" or not rules.readiness_off_by(defender.conditions)):
        raise BadInput("--dr replaces the defender's Readiness only with --response none against a creature "
                       "whose Readiness is off", rule="A-RDYOFF", fix="drop --dr")
    if dice.has("response") and response == "none":
        raise BadInput("--response-faces given but the response is none", fix="drop --response-faces")


def defense_skill(attacker: Sheet, defender: Sheet, skill: str, response: str, rules: Ruleset) -> str:
    """The skill the defender answers with: the attack's, or for a ranged attack the ruleset's
    defense skill (Acrobatics), with only the responses the ruleset allows against it."""
    ranged = rules.exchange.get("ranged") or {}
    if skill in [str(s).lower() for s in ranged.get("skills") or ()]:
        allowed = list(ranged.get("responses") or ("none",))
        if response not in allowed:
            raise Refused(f"{response} is no response to a ranged attack", rule="T-FIGHT",
                          fix="declare --response " + " or ".join(allowed))
        return str(ranged["defense_skill"]).lower()
    if skill not in defender.skills and skill not in rules.skills:
        raise BadInput(f"{possessive(attacker.id)} attack skill {skill!r} is not in the ruleset, so "
                       f"{defender.id} has no Readiness or response in it",
                       fix=f"attack with a ruleset skill, or add {skill} under `rules: skills:` in narateer.yaml")
    return skill


def _plan_response(defender: Sheet, skill: str, response: str, response_boost: int, rules: Ruleset,
                   dice: DiceSource, trait=None):
    """Full Guard or Clash pays its own cost with the defense skill (None for no response), as the defender's
    trait declared with it modifies it."""
    from .traits import modified

    if response == "none":
        return None
    cost = rules.exchange["guard_cost" if response == "guard" else "clash_cost"]
    label = "Full Guard" if response == "guard" else "Clash"
    rd = modified(Declaration(skill=skill, boost=response_boost, cost=cost, label=label), trait)
    return plan(defender, rd, rules, RESPONSE_STREAMS, dice=dice, check_afford=False)


def _exchange_refusals(attacker, defender, atk, resp, rules, attacker_hidden_from_defender,
                       defender_hidden_from_attacker):
    """What the rules refuse (an unseen target, a response the defender cannot make or pay), in the order a table would
    ask."""
    if isinstance(defender_hidden_from_attacker, str):  # an unseen condition (invisible), not a Hide
        raise Refused(f"{defender.id} is {defender_hidden_from_attacker} and cannot be targeted directly",
                      rule="R2-INVIS", fix="an effect on an area that includes it can still reach it")
    if defender_hidden_from_attacker:
        raise Refused(f"{defender.id} is hidden from {attacker.id} and cannot be targeted directly", rule="R-HIDE-7",
                      fix=f"find it first with `narateer search {attacker.id} --for {defender.id}`")
    if resp is not None:
        off = rules.readiness_off_by(defender.conditions)
        if attacker_hidden_from_defender or off:
            why = (f"{attacker.id} is {attacker_hidden_from_defender}" if isinstance(attacker_hidden_from_defender, str)
                   else f"{attacker.id} is hidden from it" if attacker_hidden_from_defender else f"it is {off}")
            raise Refused(f"{defender.id} cannot {resp.decl.label}: {why}", rule="R-ACT-5",
                          fix="declare --response none")
    afford(atk, attacker)
    if resp is not None and resp.paid > defender.dice.get("ready", 0):
        raise Refused(f"{defender.id} cannot pay {resp.paid} AD for {resp.decl.label} with "
                      f"{defender.dice.get('ready', 0)} Ready", rule="R-ACT-5",
                      fix="choose a smaller --response-boost, or declare --response none; nothing was spent")


def _unanswered(atk, skill: str, defender: Sheet, rules: Ruleset, dice: DiceSource, dr):
    """No response: the attack against the defender's Readiness in the defense skill (or a DR when its
    Readiness is off)."""
    if dr is not None:
        target = Target(dr, "dr", f"DR {dr}")
    else:
        target = Target(defender.target_readiness(skill, rules), "readiness",
                        f"{possessive(defender.id)} {skill} Readiness")
    ask_if_hopeless(dice, atk, target, rules)
    result = roll(atk, target, rules, dice)
    dice.finish()
    return result, None, "attacker" if result.success else None, result.margin


def _answered(atk, resp, attacker: Sheet, defender: Sheet, response: str, rules: Ruleset, dice: DiceSource):
    """Guard or Clash: both roll; the higher total lands (only a Clash lands for the defender)."""
    ask_if_hopeless(dice, atk, None, rules, resp, f"{possessive(defender.id)} {resp.decl.label}")
    first = roll(atk, Target(None, "response", ""), rules, dice)
    second = roll(resp, Target(None, "attack", ""), rules, dice)
    dice.finish()
    attack_result = compare(atk, Target(second.total, response, f"{possessive(defender.id)} {resp.decl.label}"),
                            rules, first.faces, first.rerolled, first.edge_faces, first.power_rerolled,
                            first.final_faces)
    defense = compare(resp, Target(first.total, "attack", f"{possessive(attacker.id)} attack"), rules, second.faces,
                      second.rerolled, second.edge_faces, second.power_rerolled, second.final_faces)
    diff = first.total - second.total
    if beats(first.total, second.total):
        return attack_result, defense, "attacker", diff
    if beats(second.total, first.total) and response == "clash":
        return attack_result, defense, "defender", -diff
    return attack_result, defense, None, diff


def opportunity(actor: Sheet, mover: Sheet, decl: Declaration, rules: Ruleset, dice: DiceSource,
                last_action: dict | None, mover_hidden: bool, weapon: dict | None = None,
                trait=None) -> tuple[OpportunityResult, dict]:
    """An Opportunity Attack answers a finished movement step, as a Reaction; it pays the attack cost
    + Boost and uses no proactive use. `trait`: the actor's trait that modifies it (a `traits.TraitUse`)."""
    from .traits import modified, refusal

    payment = plan(actor, modified(decl, trait), rules, dice=dice, check_afford=False)  # bad input before any refusal
    from .actions import reaction_allowed

    reaction_allowed(actor, rules, "Opportunity Attack")
    refusal(actor, trait, rules)
    if not last_action or last_action.get("actor") != mover.id or last_action.get("command") != "move":
        raise Refused(f"{possessive(mover.id)} last action was not a completed move", rule="R-ACT-6",
                      fix="an Opportunity Attack answers a movement step just completed")
    if actor.id in (last_action.get("answered") or []):
        raise Refused(f"{actor.id} already made an Opportunity Attack on this move", rule="R-ACT-6",
                      fix="one Reaction per trigger")
    if mover_hidden:
        how = mover_hidden if isinstance(mover_hidden, str) else f"hidden from {actor.id}"
        raise Refused(f"{mover.id} is {how}", rule="R2-INVIS" if isinstance(mover_hidden, str) else "R-HIDE-7",
                      fix="it cannot be targeted directly")
    afford(payment, actor)
    target = Target(mover.target_readiness(payment.skill, rules), "readiness", f"{possessive(mover.id)} {payment.skill} Readiness")
    ask_if_hopeless(dice, payment, target, rules)
    result = roll(payment, target, rules, dice)
    dice.finish()
    lands = "attacker" if result.success else None
    return (OpportunityResult(actor.id, mover.id, "opportunity", result, lands, result.margin if lands else None,
                              result.outcome, damage=(weapon or {}).get("damage") if lands else None, trait=trait),
            {actor.id: payment.dice_after})


def unseen(sheet: Sheet, rules: Ruleset) -> tuple:
    """(the condition that makes the creature unseen by everyone, what an attack on it does), or ("", "") when it
    is seen: attacks by and on an invisible creature follow the rules of attacks by and on unseen creatures, whether
    or not its position is known."""
    return rules.unseen_by(sheet.conditions) or ("", "")


def exchange_in(state: dict | None, attacker: Sheet, defender: Sheet, response: str, rules: Ruleset,
                dice: DiceSource, *, skill: str | None = None, weapon: str | None = None, cost: int | None = None,
                boost: int = 0, response_boost: int = 0, advantage: bool = False, disadvantage: bool = False,
                dr: int | None = None, response_weapon: str | None = None,
                trait: str | None = None) -> tuple[dict | None, ExchangeResult, dict]:
    """A Combat Exchange, in an encounter or not: the attack skill and
    cost from the ruleset and the weapon, hidden bonuses from the state, then the proactive use and the
    reveal; `trait` names a trait of the defender declared as part of its Full Guard or Clash. Returns (new state or
    None, result, dice after)."""
    from .encounter import attack_reveals, is_hidden, record_action, require_participant, use_skill

    if state is not None:
        require_participant(state, defender.id)
    base, weapon_spec = attack_cost(attacker, weapon, cost, rules)
    response_spec = None
    if response_weapon is not None:
        if response != "clash":
            raise BadInput("--response-weapon is the weapon of a defender who Clashes", rule="T-FIGHT",
                           fix="declare --response clash, or drop --response-weapon")
        response_spec = attack_cost(defender, response_weapon, None, rules)[1]
    skill_name = (skill or rules.exchange["skill"]).lower()
    seen_attacker, seen_defender = unseen(attacker, rules), unseen(defender, rules)
    decl = Declaration(skill=skill_name, boost=boost, cost=base, advantage=advantage,
                       disadvantage=disadvantage or seen_defender[1] == "disadvantage", label="attack")
    used = []  # the state once the attack takes its use: the encounter refuses before anything is rolled

    def use():
        assert state is not None  # called only inside an encounter
        used.append(use_skill(state, attacker.id, attacker.skill(skill_name, rules).name, "an attack"))

    trait_use = None
    if trait is not None:
        from .traits import RESPONSE_EVENTS, declare

        if response not in RESPONSE_EVENTS:
            raise BadInput("--trait names a trait of the defender declared as part of its Full Guard or Clash",
                           rule="R2-TRAIT-2", fix="declare --response guard or clash, or drop --trait")
        trait_use = declare(defender, trait, RESPONSE_EVENTS[response], rules)
    result, after = exchange(attacker, defender, response, decl, response_boost, rules, dice,
                    attacker_hidden_from_defender=seen_attacker[0] or bool(state and is_hidden(state, attacker.id,
                                                                                               defender.id)),
                    defender_hidden_from_attacker=(seen_defender[1] == "refuse" and seen_defender[0])
                    or bool(state and is_hidden(state, defender.id, attacker.id)),
                    weapon=weapon_spec, dr=dr, response_weapon=response_spec,
                    refuse_first=use if state is not None else None, trait=trait_use)
    if state is not None:
        state = used[0]
        state, revealed = attack_reveals(state, attacker.id, defender.id)
        result = result.replace(revealed_to=revealed)
        state = record_action(state, attacker.id, "exchange", defender=defender.id)
    return state, result, after


def opportunity_in(state: dict, actor: Sheet, mover: Sheet, rules: Ruleset, dice: DiceSource, boost: int = 0,
                   allow_boost: bool = False, weapon: str | None = None,
                   trait: str | None = None) -> tuple[dict, OpportunityResult, dict]:
    """An Opportunity Attack: a Reaction with the ruleset's attack skill and the
    weapon's cost (else the ruleset's), against the mover's last completed move. Returns (new state, result,
    dice after)."""
    from .encounter import answered, attack_reveals, is_hidden, require_participant

    require_participant(state, mover.id)
    cost, spec = attack_cost(actor, weapon, None, rules)
    seen_mover = unseen(mover, rules)
    decl = Declaration(skill=rules.exchange["skill"], boost=boost, cost=cost, reaction=True,
                       allow_boost=allow_boost, disadvantage=seen_mover[1] == "disadvantage",
                       label="Opportunity Attack")
    use = None
    if trait is not None:
        from .traits import declare

        use = declare(actor, trait, "opportunity-attack", rules)
    result, after = opportunity(actor, mover, decl, rules, dice, state["last_action"],
                                (seen_mover[1] == "refuse" and seen_mover[0]) or is_hidden(state, mover.id, actor.id),
                                spec, use)
    state, revealed = attack_reveals(state, actor.id, mover.id)
    return answered(state, actor.id), result.replace(revealed_to=revealed), after
