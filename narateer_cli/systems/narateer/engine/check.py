"""The Skill Check, its payment, Edge and outcome tiers.

A check runs in two halves so that several parties can commit before anyone
rolls (Hide against searching observers, Exchanges): `plan` validates the declaration and computes
the whole modified payment; `roll` draws faces, runs the Edge Phase and any
explicit rerolls, and compares with the target.
"""

from __future__ import annotations

from typing import Any

from narateer_cli.kit import computed, field, Record, factory

from .character import Sheet, spend, possessive
from .dice import DiceSource, beats, edge_indices, edge_mode, pool_weights, chance_to_exceed, chance_to_beat
from narateer_cli.kit import BadInput, Refused
from .ruleset import Ruleset


class Declaration(Record):
    """What a player declares and commits to before rolling: skill, target, Boost and payment."""

    skill: Any
    boost: Any = 0
    cost: Any = 1
    bonus_dice: Any = 0
    discount_base: Any = 0
    discount_boost: Any = 0
    fee: Any = 0
    advantage: Any = False
    disadvantage: Any = False
    reaction: Any = False
    allow_boost: Any = False
    power_reroll: Any = ()
    power: Any = None
    label: Any = "check"


class Streams(Record):
    """Which physical-face options feed this party's dice."""

    initial: Any = "faces"
    reroll: Any = "reroll"
    power: Any = "power"
    initial_option: Any = "--faces"
    reroll_option: Any = "--reroll-faces"
    power_option: Any = "--power-faces"


class Payment(Record):
    """The whole modified payment of one party: discounts, then cost modifiers, and the dice it rolls."""

    actor: Any
    skill: Any
    level: Any
    boost: Any
    base_cost: Any
    roll_dice: Any
    bonus_dice: Any
    subtotal: Any
    multiplier: Any
    paid: Any
    edge: Any
    decl: Any
    dice_before: Any
    streams: Any = field(default_factory=Streams)

    @property
    def dice_after(self) -> dict:
        return spend(self.dice_before, self.paid)


class Target(Record):
    value: Any
    source: Any
    label: Any


def _pay(name: str, *, public: bool = True):
    """A key of a check's JSON read from its payment (each is public: a secret check shows what it costs)."""
    return computed(lambda r: getattr(r.payment, name), public=public)


def _declared(name: str):
    """A key of a check's JSON read from the declaration its payment settled (public, as the cost is)."""
    return computed(lambda r: getattr(r.payment.decl, name), public=True)


def logged_payment(data: dict) -> Payment:
    """A check's payment read back from the check's JSON: its declaration by the check's table of declared
    fields (a field the JSON does not hold: its default), what was paid and rolled as logged. The Skill Level
    and the dice streams are not logged (None, and the usual streams); a check logged before its payment was
    logged in full has no `base_cost` (its payment's `base_cost` is None)."""
    from ..declarations import CHECK

    decl = CHECK.build(Declaration, CHECK.replayed(data), skill=data.get("skill"))
    multiplier, paid = data.get("pay_multiplier", 1), data.get("paid", 0)
    full = "base_cost" in data
    return Payment(actor=data.get("actor"), skill=decl.skill, level=None, boost=decl.boost,
                   base_cost=decl.cost if full else None, roll_dice=data.get("roll_dice", 0),
                   bonus_dice=decl.bonus_dice, subtotal=cost_of(decl, multiplier)[0] if full else paid,
                   multiplier=multiplier, paid=paid, edge=data.get("edge", "none"), decl=decl,
                   dice_before=dict(data.get("dice_before") or {}))


def logged_target(data: dict) -> Target:
    return Target(data.get("target"), data.get("target_source"), data.get("target_label"))


def read_check(data):
    """A nested check (or None) read back from its JSON."""
    return None if data is None else CheckResult.from_json(data)


class CheckResult(Record):
    """A Skill Check. Its JSON puts the payment beside the faces, total, margin and tier; a secret check shows
    the declared cost and target, never the faces, the total or the outcome. Read back from that JSON
    (`from_json`), its payment and target come from the keys they wrote."""

    payment: Any = field(key=None, load=logged_payment)
    target: Any = field(key=None, load=logged_target)
    faces: Any = field(load=tuple)
    rerolled: Any = field(load=tuple)
    edge_faces: Any = field(key="reroll_faces", load=tuple)
    power_rerolled: Any = field(public=True, load=tuple)
    final_faces: Any = field(load=tuple)
    total: Any
    margin: Any
    success: Any
    outcome: Any

    system = computed(lambda r: "narateer", public=True)
    actor = _pay("actor")
    skill = _pay("skill")
    target_value = computed(lambda r: r.target.value, key="target", public=True)
    target_source = computed(lambda r: r.target.source, public=True)
    target_label = computed(lambda r: r.target.label, public=True)
    boost = _pay("boost")
    roll_dice = _pay("roll_dice")
    paid = _pay("paid")
    dice_before = _pay("dice_before")
    dice_after = _pay("dice_after")
    base_cost = _pay("base_cost")
    bonus_dice = _pay("bonus_dice")
    pay_multiplier = computed(lambda r: r.payment.multiplier, public=True)
    edge = _pay("edge")
    power_faces = computed(lambda r: [r.final_faces[i] for i in r.power_rerolled])
    discount_base = _declared("discount_base")
    discount_boost = _declared("discount_boost")
    fee = _declared("fee")
    power = _declared("power")
    reaction = _declared("reaction")
    _json_order = ("system", "actor", "skill", "target", "target_source", "boost", "roll_dice", "paid", "faces",
                   "rerolled", "final_faces", "total", "margin", "success", "outcome", "dice_before", "dice_after",
                   "target_label", "base_cost", "bonus_dice", "pay_multiplier", "edge", "reroll_faces",
                   "power_rerolled", "power_faces", "discount_base", "discount_boost", "fee", "power", "reaction")

    @property
    def claims(self) -> dict:
        """What a logged check claims, as `verify` compares it."""
        p = self.payment
        return {"roll_dice": p.roll_dice, "rerolled": list(self.rerolled), "final_faces": list(self.final_faces),
                "power_faces": self.power_faces, "total": self.total, "margin": self.margin,
                "success": self.success, "outcome": self.outcome, "paid": p.paid, "dice_after": dict(p.dice_after)}


def check_numbers(decl: Declaration, rules: Ruleset):
    """Bad input before any rules question: negatives and numbers past the sanity limits."""
    from ..declarations import CHECK

    for declared in CHECK:
        if declared.type is not int:
            continue
        value, option = getattr(decl, declared.field), declared.names[0]
        if value < 0:
            raise BadInput(f"{option} {value} is negative", fix=f"give {option} 0 or more")
        if value > rules.max_roll_dice:
            raise BadInput(f"{option} {value} is past the limit of {rules.max_roll_dice}", rule="A-LIMITS",
                           fix=f"give {option} {rules.max_roll_dice} or less")


def roll_dice_count(decl: Declaration, rules: Ruleset) -> int:
    """The dice rolled: required roll dice + legal Boost + granted bonus dice."""
    base = decl.cost if rules.roll_dice == "base_cost" else max(0, decl.cost - decl.discount_base)
    return base + decl.boost + decl.bonus_dice


def plan(sheet: Sheet, decl: Declaration, rules: Ruleset, streams: Streams = Streams(),
         dice: DiceSource | None = None, extra_edge: str | None = None, check_afford: bool = True) -> Payment:
    """Validate the declaration and compute its whole modified payment.

    Numbers that are bad input come first; then the rules' refusal of a Boost over the Skill Level, so a
    player learns what the rules forbid rather than how many faces to type for it; then faces that do not
    fit; then whether the Ready dice cover the payment.
    """
    check_numbers(decl, rules)
    skill = sheet.skill(decl.skill, rules)
    roll_dice = roll_dice_count(decl, rules)
    check_boost(sheet, decl, rules, skill)
    check_faces(sheet, decl, rules, streams, dice, extra_edge, roll_dice)
    multiplier = rules.pay_multiplier(sheet.conditions)
    subtotal, paid = cost_of(decl, multiplier)
    edge = edge_mode(decl.advantage or extra_edge == "advantage", decl.disadvantage, rules.edge_both)
    payment = Payment(
        actor=sheet.id, skill=skill.name, level=skill.level, boost=decl.boost, base_cost=decl.cost,
        roll_dice=roll_dice, bonus_dice=decl.bonus_dice, subtotal=subtotal, multiplier=multiplier,
        paid=paid, edge=edge, decl=decl, dice_before=dict(sheet.dice), streams=streams,
    )
    if check_afford:
        afford(payment, sheet)
    return payment


def check_faces(sheet: Sheet, decl: Declaration, rules: Ruleset, streams: Streams, dice: DiceSource | None,
                extra_edge: str | None, roll_dice: int):
    """Bad input about the dice: too many, or physical faces that do not fit what is rolled."""
    if roll_dice > rules.max_roll_dice:
        raise BadInput(f"{roll_dice} dice in one roll is past the limit of {rules.max_roll_dice}", rule="A-LIMITS",
                       fix="roll fewer dice")
    if dice is not None and dice.has(streams.initial):
        given = len(dice.physical[streams.initial])
        if given != roll_dice:
            raise BadInput(f"{streams.initial_option} gave {given} face(s) but {possessive(sheet.id)} {decl.label} rolls {roll_dice} "
                           f"({decl.cost} base + {decl.boost} boost + {decl.bonus_dice} bonus)",
                           fix=f"give exactly {roll_dice} face(s)")
    for index in decl.power_reroll:
        if index >= roll_dice:
            raise BadInput(f"--power-reroll names die {index} but only dice 0..{roll_dice - 1} are rolled",
                           fix="name dice by their 0-based position")
    if dice is not None and dice.has(streams.initial):
        check_edge_faces(decl, rules, streams, dice, extra_edge)


def check_edge_faces(decl: Declaration, rules: Ruleset, streams: Streams, dice: DiceSource, extra_edge: str | None):
    """The faces given fix which dice Edge rerolls: a missing or extra reroll face is bad input, before any refusal."""
    rerolls = edge_indices(dice.physical[streams.initial],
                           edge_mode(decl.advantage or extra_edge == "advantage", decl.disadvantage, rules.edge_both),
                           rules.disadvantage)
    given = len(dice.physical.get(streams.reroll, []))
    asked = dice.ask is not None and streams.reroll not in dice.physical  # faces asked for: typed once they are known
    if given != len(rerolls) and not asked:
        which = f"dice {', '.join(str(i + 1) for i in rerolls)}" if rerolls else "no dice"
        raise BadInput(f"{streams.reroll_option} gave {given} face(s) but the Edge Phase rerolls "
                       f"{len(rerolls)} ({which}, counted from 1)",
                       fix=f"give exactly {len(rerolls)} face(s) with {streams.reroll_option}")


def check_boost(sheet: Sheet, decl: Declaration, rules: Ruleset, skill):
    """A Boost is capped by the skill's level, and a Reaction may not Boost unless allowed."""
    if decl.boost > skill.level:
        raise Refused(f"{sheet.id} cannot Boost {decl.boost}: {skill.name} SL is {skill.level}", rule="R-CHK-2",
                      fix=f"give --boost {skill.level} or less")
    if decl.reaction and decl.boost and not (rules.reaction_boost or decl.allow_boost):
        raise Refused(f"a Reaction may not Boost under this ruleset", rule="A-REACTBOOST",
                      fix="drop --boost, or add --allow-boost if the Guide rules it may")


def cost_of(decl: Declaration, multiplier: int) -> tuple[int, int]:
    """Discounts never below 0, plus fees, times the conditions' multiplier -> (subtotal, paid)."""
    subtotal = max(0, decl.cost - decl.discount_base) + max(0, decl.boost - decl.discount_boost) + decl.fee
    return subtotal, subtotal * multiplier


def replay(logged: CheckResult, rules: Ruleset) -> CheckResult:
    """A logged check (read back, `CheckResult.from_json`) run again from its own declaration and faces by
    `cost_of` and `roll`, so the rules exist once. A check logged before its payment was logged in full
    keeps its payment as logged.

    Raises BadInput when the faces do not fit the declaration."""
    payment = logged.payment
    if payment.base_cost is not None:
        decl = payment.decl
        subtotal, paid = cost_of(decl, payment.multiplier)
        payment = payment.replace(subtotal=subtotal, paid=paid, roll_dice=roll_dice_count(decl, rules))
    else:
        payment = payment.replace(base_cost=payment.decl.cost)
    dice = DiceSource(physical={"faces": list(logged.faces), "reroll": list(logged.edge_faces),
                                "power": [logged.final_faces[i] for i in logged.power_rerolled
                                          if isinstance(i, int) and 0 <= i < len(logged.final_faces)]})
    result = roll(payment, logged.target, rules, dice)
    dice.finish()
    return result


def afford(payment: Payment, sheet: Sheet):
    """The whole modified payment must be covered by Ready Action Dice."""
    ready = sheet.dice.get("ready", 0)
    if payment.paid > ready:
        detail = f" ({payment.subtotal} x{payment.multiplier})" if payment.multiplier != 1 else ""
        option = "--response-boost" if payment.streams.initial == "response" else "--boost"
        hint = (f"choose a smaller {option}" if payment.boost else  # dice refresh at an activation, or by hand
                f"its dice refresh at its next activation in an encounter, or with `narateer refresh {sheet.id}`")
        raise Refused(f"{sheet.id} cannot pay {payment.paid} AD{detail} with {ready} Ready", rule="R-PAY-5",
                      fix=f"{hint}; nothing was spent")


def roll(payment: Payment, target: Target, rules: Ruleset, dice: DiceSource) -> CheckResult:
    """Roll, Edge Phase, explicit rerolls, count, compare, tier."""
    s = payment.streams
    what = f"{possessive(payment.actor)} {payment.decl.label}"
    faces = dice.take(s.initial, payment.roll_dice, s.initial_option, what)
    rerolled = edge_indices(faces, payment.edge, rules.disadvantage)
    edge_faces = dice.take(s.reroll, len(rerolled), s.reroll_option,
                           f"the Edge Phase ({payment.edge} rerolls dice {','.join(str(i + 1) for i in rerolled)})")
    final = list(faces)
    for index, face in zip(rerolled, edge_faces):
        final[index] = face
    power = list(payment.decl.power_reroll)
    power_faces = dice.take(s.power, len(power), s.power_option, "the explicit rerolls") if power else []
    for index, face in zip(power, power_faces):
        final[index] = face
    return compare(payment, target, rules, faces, rerolled, edge_faces, power, final)


def compare(payment, target, rules, faces, rerolled, edge_faces, power, final) -> CheckResult:
    """Success only when total > target; margin gives the tier."""
    total = sum(final)
    if target.value is None:
        margin = success = outcome = None
    else:
        margin = total - target.value
        success = beats(total, target.value)
        outcome = rules.tier_for(margin)
    return CheckResult(payment, target, tuple(faces), tuple(rerolled), tuple(edge_faces), tuple(power),
                       tuple(final), total, margin, success, outcome)


class BehindResult(Record):
    """A behind-the-screen check: Readiness against a target, no dice, no cost."""

    actor: Any
    skill: Any
    readiness: Any
    target: Any
    base_target: Any
    edge: Any
    success: Any
    readiness_off: Any

    system = computed(lambda r: "narateer", first=True)


def behind(sheet: Sheet, skill: str, target: int, rules: Ruleset, advantage=False, disadvantage=False) -> BehindResult:
    """Readiness vs target, no dice, no cost; Edge shifts the target one tier (3)."""
    readiness = sheet.readiness(skill, rules)
    edge = edge_mode(advantage, disadvantage, rules.edge_both)
    shift = {"advantage": -3, "disadvantage": 3}.get(edge, 0)
    effective = target + shift
    off = rules.readiness_off_by(sheet.conditions)
    return BehindResult(sheet.id, sheet.skill(skill, rules).name, readiness, effective, target, edge,
                        (off is None) and beats(readiness, effective), off)


def ask_if_hopeless(dice, payment: Payment, target: Target | None, rules: Ruleset, opponent: Payment | None = None,
                    against: str | None = None):
    """Before a planned check rolls, its exact chance goes to the dice source, which asks first when it
    is 0 (a DR typed as 30, an Edge that cannot help): `what` names the check and why it cannot succeed."""
    if dice is None:
        return
    p = chance(payment, target, rules, opponent)
    if p == 0:
        top = payment.roll_dice * max(rules.faces)
        why = (f"{payment.roll_dice} {'die shows' if payment.roll_dice == 1 else 'dice show'} at most {top}"
               + (f", and the total must exceed {target.value}" if opponent is None and target is not None else ""))
        dice.before_roll(p, f"{possessive(payment.actor)} {payment.skill} check against "
                            f"{against or (target.label if target is not None else 'its opponent')} ({why})")


def chance(payment: Payment, target: Target | None, rules: Ruleset, opponent: Payment | None = None) -> float:
    """Exact chance of success for a planned check (total above the target, on the ruleset's faces)."""
    dist, denom = pool_weights(payment.roll_dice, rules.faces, payment.edge, rules.disadvantage)
    if opponent is not None:
        other, other_denom = pool_weights(opponent.roll_dice, rules.faces, opponent.edge, rules.disadvantage)
        return chance_to_beat(dist, denom, other, other_denom)
    assert target is not None, "a check with no opponent has a target"
    return chance_to_exceed(dist, denom, target.value)
