"""Whole Skill Checks with every party: target, opponent (a fixed target, an active answer or a
contested roll) and helper (an Assist Reaction that gives Advantage).

`skill_check` settles every payment before anyone rolls, then rolls in a
fixed order (actor, opponent), and returns the dice each party has after.
"""

from __future__ import annotations

from typing import Any

from narateer_cli.kit import field, Record, factory, replace

from .character import Sheet, possessive, spend
from .check import CheckResult, Declaration, Payment, Streams, Target, afford, ask_if_hopeless, chance, plan, read_check, roll
from .dice import DiceSource
from narateer_cli.kit import BadInput, Refused
from .ruleset import Ruleset

OTHER_STREAMS = Streams("other", "other_reroll", "other_power", "--other-faces", "--other-reroll-faces", "--other-power-faces")


class TargetSpec(Record):
    """What the check must exceed: a DR, another's Readiness, or another's roll."""

    kind: Any
    value: Any = None
    label: Any = ""
    other: Any = None
    other_skill: Any = None
    other_decl: Any = None


class CheckOutcome(Record, logged_public=("chance",)):
    """A whole check with its parties: the actor's check (its keys first), then the opponent's and the assist
    (a secret one shows who assisted; each check shows what its own record declares)."""

    result: Any = field(inline=True, public=CheckResult, load=CheckResult.from_json)
    opponent: Any = field(default=None, public=CheckResult, load=read_check)
    assist: Any = field(default=None, public=True)
    dice_after: Any = field(default_factory=dict, key=None, load=lambda d: _parties_after(d))


def _parties_after(data: dict) -> dict:
    """Each party's dice after a logged check, read back from its JSON: the actor's, the opponent's, the helper's."""
    after = {data.get("actor"): dict(data.get("dice_after") or {})}
    other, assist = data.get("opponent"), data.get("assist")
    if isinstance(other, dict):
        after[other.get("actor")] = dict(other.get("dice_after") or {})
    if isinstance(assist, dict):
        after[assist.get("helper")] = dict(assist.get("dice_after") or {})
    return after


def reaction_allowed(sheet: Sheet, rules: Ruleset, what: str):
    """A condition such as Stunned blocks Reactions (never Exchange Responses, which are no Reactions)."""
    blocker = rules.blocks_reactions(sheet.conditions)
    if blocker:
        raise Refused(f"{sheet.id} is {blocker} and cannot take Reactions ({what})", rule="A-COND",
                      fix=f"remove {blocker} first, or leave {sheet.id} out")


def assist_payment(helper: Sheet, rules: Ruleset) -> int:
    """The helper's Assist Reaction cost, modified by its own conditions (Slowed doubles it)."""
    return rules.assist_cost * rules.pay_multiplier(helper.conditions)


def plan_check(actor: Sheet, decl: Declaration, spec: TargetSpec, rules: Ruleset, dice: DiceSource | None,
               helper: Sheet | None = None, check_afford: bool = True):
    """Validate every party and compute every payment; nothing is rolled yet."""
    parties = [actor.id]
    if spec.other is not None:
        parties.append(spec.other.id)
    if helper is not None:
        parties.append(helper.id)
    if len(set(parties)) != len(parties):
        raise BadInput("a character appears twice in one check", fix="name a different opponent or helper")
    if decl.reaction:
        reaction_allowed(actor, rules, f"{decl.skill} Reaction")
    payment = plan(actor, decl, rules, dice=dice, extra_edge="advantage" if helper else None, check_afford=False)
    other_payment = None
    target = None
    if spec.kind == "dr":
        target = Target(spec.value, "dr", spec.label)
    elif spec.kind == "vs":
        spec.other.skill(spec.other_skill, rules)
        target = Target(spec.other.target_readiness(spec.other_skill, rules), "readiness",
                        f"{possessive(spec.other.id)} {spec.other_skill} Readiness")
    elif spec.kind == "contested":
        other_payment = plan(spec.other, spec.other_decl, rules, OTHER_STREAMS, dice=dice, check_afford=False)
    else:
        raise BadInput("a check needs a target", fix="give --dr N, --vs OTHER:SKILL or --contested OTHER:SKILL")
    helper_paid = 0
    if helper is not None:
        reaction_allowed(helper, rules, "Assist")
        helper_paid = assist_payment(helper, rules)
    if check_afford:
        afford(payment, actor)
        if other_payment is not None:
            afford(other_payment, spec.other)
        if helper is not None and helper_paid > helper.dice.get("ready", 0):
            raise Refused(f"{helper.id} cannot pay {helper_paid} AD to Assist with {helper.dice.get('ready', 0)} Ready",
                          rule="A-ASSIST", fix="assist with someone else; nothing was spent")
    return payment, other_payment, target, helper_paid


def skill_check(actor: Sheet, decl: Declaration, spec: TargetSpec, rules: Ruleset, dice: DiceSource,
                helper: Sheet | None = None, refuse_first=None) -> CheckOutcome:
    """One complete check, declaration to tier; every payment is settled before any roll. `refuse_first`: the
    caller's own refusals (an encounter's activation and uses), made once the check is planned and before a
    check with no chance to succeed asks anything."""
    payment, other_payment, target, helper_paid = plan_check(actor, decl, spec, rules, dice, helper)
    if refuse_first is not None:
        refuse_first()
    ask_if_hopeless(dice, payment, target, rules, other_payment,
                    f"{possessive(spec.other.id)} {other_payment.skill} roll" if other_payment is not None else None)
    opponent = None
    if other_payment is not None:
        result = roll(payment, Target(None, "contested", ""), rules, dice)
        opponent = roll(other_payment, Target(None, "contested", ""), rules, dice)
        contested = Target(opponent.total, "contested", f"{possessive(spec.other.id)} {other_payment.skill} roll")
        from .check import compare

        result = compare(payment, contested, rules, result.faces, result.rerolled, result.edge_faces,
                         result.power_rerolled, result.final_faces)
    else:
        result = roll(payment, target, rules, dice)
    dice.finish()
    after = {actor.id: payment.dice_after}
    if other_payment is not None:
        after[spec.other.id] = other_payment.dice_after
    assist = None
    if helper is not None:
        helper_after = spend(helper.dice, helper_paid)
        after[helper.id] = helper_after
        assist = {"helper": helper.id, "paid": helper_paid, "grants": rules.assist_grants,
                  "dice_before": dict(helper.dice), "dice_after": helper_after}
    return CheckOutcome(result, opponent, assist, after)


class BoostOption(Record):
    """One Boost of a dry run: what it rolls and pays, and its exact chance."""

    boost: Any
    roll_dice: Any
    paid: Any
    affordable: Any
    p_success: Any
    edge: Any


class DryRun(Record):
    """`roll --dry-run`: payment and exact chance for every legal Boost; nothing is spent."""

    actor: Any
    skill: Any
    level: Any
    target: Any
    target_source: Any
    ready: Any
    options: Any
    dry_run: Any = True


def dry_run(actor: Sheet, decl: Declaration, spec: TargetSpec, rules: Ruleset, helper: Sheet | None = None) -> DryRun:
    """Payment and exact chance of success for every legal Boost from 0 to SL."""
    skill = actor.skill(decl.skill, rules)
    options = []
    target_value = None
    source = spec.kind
    for boost in range(skill.level + 1):
        trial = replace(decl, boost=boost, power_reroll=())
        payment, other_payment, target, helper_paid = plan_check(actor, trial, spec, rules, None, helper,
                                                                 check_afford=False)
        target_value = target.value if target else None
        affordable = payment.paid <= actor.dice.get("ready", 0)
        p = chance(payment, target, rules, other_payment)
        options.append(BoostOption(boost, payment.roll_dice, payment.paid, affordable, p, payment.edge))
    return DryRun(actor.id, skill.name, skill.level, target_value,
                  {"dr": "dr", "vs": "readiness", "contested": "contested"}[source], actor.dice.get("ready", 0),
                  options)


TIER_COSTS = {"trivial": 0, "minor": 1, "major": 1}  # a Major action costs at least 1 AD


class ResolvedAuto(Record, public=True):  # no roll: a secret one is bad input
    """`resolve --auto`: an outcome that needs no check, paid at its tier's cost; `cost` is the stated cost."""

    actor: Any
    intent: Any
    method: Any
    tier: Any
    path: Any
    paid: Any
    check: Any
    dice_before: Any
    dice_after: Any
    cost: Any = field(default=None, key=None)  # the stated cost: the log's declaration holds it, not the result


class ResolvedByCheck(Record):
    """`resolve --check SKILL`: a Major action resolved by a Skill Check."""

    actor: Any
    intent: Any
    method: Any
    tier: Any
    path: Any
    paid: Any
    check: Any
    dice_after: Any


def resolve_auto(sheet: Sheet, tier: str, cost: int | None, rules: Ruleset) -> tuple[int, int, dict]:
    """An automatic outcome pays its tier's cost (or a stated one), modified by the conditions (Slowed doubles it).
    Returns (stated cost, paid, dice after)."""
    stated = TIER_COSTS[tier] if cost is None else cost
    paid = stated * rules.pay_multiplier(sheet.conditions)
    ready = sheet.dice.get("ready", 0)
    if paid > ready:
        raise Refused(f"{sheet.id} cannot pay {paid} AD with {ready} Ready", rule="R-PAY-5", fix="nothing was spent")
    return stated, paid, spend(sheet.dice, paid)


def resolve_auto_in(state: dict | None, sheet: Sheet, intent: str, method: str | None, tier: str, cost: int | None,
                    rules: Ruleset) -> tuple[dict | None, ResolvedAuto]:
    """An automatic outcome, inside the actor's activation when in an encounter.
    Returns (new state or None, the result)."""
    from .encounter import record_action, require_activation

    stated, paid, after = resolve_auto(sheet, tier, cost, rules)
    if state is not None:
        require_activation(state, sheet.id, "R-ACT-3")
        state = record_action(state, sheet.id, "resolve")
    return state, ResolvedAuto(sheet.id, intent, method, tier, "auto", paid, None, dict(sheet.dice), after, stated)


def resolved_by_check(actor: str, intent: str, method: str | None, outcome: CheckOutcome) -> ResolvedByCheck:
    """Resolving by a Skill Check makes the action Major."""
    payment = outcome.result.payment
    return ResolvedByCheck(actor, intent, method, "major", "check", payment.paid, outcome, dict(payment.dice_after))


def impossible(reason: str):
    """An action impossible as declared spends nothing."""
    raise Refused(f"impossible as declared: {reason}", rule="R-ACT-1", fix="revise the intent or method; nothing was spent")


def check_tier(tier: str | None):
    """Resolving by a Skill Check makes the action Major."""
    if tier not in (None, "major"):
        raise Refused(f"a Skill Check makes this a Major action, not {tier}", rule="R-ACT-2",
                      fix="drop --tier or use --tier major")
