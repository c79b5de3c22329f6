"""A Skill Check inside or outside the current encounter, logged: the glue every Narateer check command shares."""

from __future__ import annotations

from narateer_cli.commands.encounter_ops import finish, encounter_for


def check_in_encounter(session, actor, decl, spec, dice, helper, command="roll", extra=None):
    """A Skill Check inside or outside an encounter (R-ACT-4 inside: proactive uses), logged; returns the
    engine's CheckOutcome record."""
    from ..engine import actions

    enc = encounter_for(session, actor.id)
    outcome = actions.skill_check(actor, decl, spec, session.rules, dice, helper)
    if enc is not None and not decl.reaction:
        # a Reaction is not its actor's action: the mover's last action stays (R-ACT-6)
        from ..engine import encounter as rules_enc

        skill = actor.skill(decl.skill, session.rules).name
        enc.new_state = rules_enc.record_action(rules_enc.use_skill(enc.state, actor.id, skill), actor.id, command,
                                                skill=outcome.result.payment.skill)
    declared = {**(extra or {}), **declaration_json(decl, spec)}
    if helper is not None:
        declared["assist"] = helper.id
    logged = {**extra, "check": outcome} if extra else outcome
    finish(session, command, actor.id, declared, logged, outcome.dice_after, enc)
    return outcome


def declaration_json(decl, spec=None) -> dict:
    out = {"skill": decl.skill, "boost": decl.boost, "cost": decl.cost, "bonus_dice": decl.bonus_dice,
           "discount_base": decl.discount_base, "discount_boost": decl.discount_boost, "fee": decl.fee,
           "advantage": decl.advantage, "disadvantage": decl.disadvantage, "reaction": decl.reaction,
           "power_reroll": list(decl.power_reroll)}
    if spec is not None:
        out["target"] = {"kind": spec.kind, "value": spec.value,
                         "other": spec.other.id if spec.other else None, "skill": spec.other_skill}
    return out
