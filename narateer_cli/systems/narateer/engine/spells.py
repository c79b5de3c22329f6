"""Spells as data, Magic Dice, and casting.

A sheet lists its spells (`spells:`), each with a Casting Cost in Action Dice and Magic Dice, an action tier,
the Skill Check it asks (or none), what its effects let others notice (`reveals`) and a range. Casting pays
that Casting Cost and nothing more for being an action; a spell that asks a check makes it through the
ordinary check (the Casting Cost's Action Dice are its base cost, Boost within the Skill Level). Slowed
doubles the Action Dice of the payment and never its Magic Dice. A spell whose effects can be seen or heard
reveals a hidden caster to everyone it is hidden from; revealing an invisible caster does not end its
invisibility.

Magic Dice are a pool of their own (`magic_dice: {ready, used}`) with their own refresh knob (`magic.refresh`
in the ruleset). The game names Magic without giving its numbers, so each number here is a ruleset knob.
"""

from __future__ import annotations

from typing import Any

from narateer_cli.kit import BadInput, Record, Refused, field, replace

from .character import Sheet, possessive
from .check import CheckResult, Declaration, Target, afford, ask_if_hopeless, plan, read_check, roll
from .dice import DiceSource
from .ruleset import Ruleset

TIERS = ("trivial", "minor", "major")
MAGIC_STATES = ("ready", "used")


class Spell(Record):
    """One spell of a sheet, as data."""

    name: Any
    ad: Any = 0
    md: Any = 0
    tier: Any = "major"
    skill: Any = None  # the Skill Check it asks, or None
    dr: Any = None  # that check's DR (a number or a tier word), or None: the Guide gives it with --dr
    reveals: Any = ()
    range: Any = None


def with_magic(sheet: Sheet, doc: dict, label: str, rules: Ruleset) -> Sheet:
    """The sheet with its spells and Magic Dice (the document already passed the sheet schema): a spell named
    twice, a check in an unknown skill or DR, or a Magic Dice cost on a sheet without Magic Dice is bad input."""
    magic = doc.get("magic_dice")
    pool = None if magic is None else {state: int((magic or {}).get(state) or 0) for state in MAGIC_STATES}
    spells: dict = {}
    items = doc.get("spells") or []
    for index, item in enumerate(items):
        where = f"{label}:{_line(items, index)}"
        spell = _spell(item, where, sheet, rules)
        key = spell.name.lower()
        if key in spells:
            raise BadInput(f"{where}: spell {spell.name!r} is listed twice", rule="R2-SPELL",
                           fix="give each spell its own name")
        if spell.md and pool is None:
            raise BadInput(f"{where}: spell {spell.name!r} costs {spell.md} Magic Dice but the sheet has no "
                           "magic_dice", rule="R2-SPELL", fix="add `magic_dice: {ready: N, used: 0}` to the sheet")
        spells[key] = spell
    return replace(sheet, spells=spells, magic_dice=pool)


def _line(items, index: int) -> int:
    """The 1-based line of a spell in a round-trip list (1 when not known)."""
    try:
        return items.lc.item(index)[0] + 1
    except Exception:
        return 1


def _spell(item: dict, where: str, sheet: Sheet, rules: Ruleset) -> Spell:
    cost = item.get("cost") or {}
    check = item.get("check") or None
    skill = dr = None
    if check:
        skill = str(check["skill"]).lower()
        try:
            skill = sheet.skill(skill, rules).name
        except BadInput as error:
            raise BadInput(f"{where}: spell {item['name']!r}: {error.message}", rule="R2-SPELL",
                           fix=error.fix) from None
        if check.get("dr") is not None:
            try:
                rules.dr_value(check["dr"])
            except BadInput as error:
                raise BadInput(f"{where}: spell {item['name']!r}: {error.message}", rule="R2-SPELL",
                               fix=error.fix) from None
            dr = check["dr"]
    return Spell(name=str(item["name"]), ad=int(cost.get("ad") or 0), md=int(cost.get("md") or 0),
                 tier=str(item["tier"]), skill=skill, dr=dr,
                 reveals=tuple(str(r).lower() for r in item.get("reveals") or ()), range=item.get("range"))


def find_spell(sheet: Sheet, name: str) -> Spell:
    """A spell on the sheet by name (any case), or bad input naming the closest."""
    spell = sheet.spells.get(str(name).lower())
    if spell is None:
        from narateer_cli.kit import unknown

        raise unknown("spell", name, [s.name for s in sheet.spells.values()], detail=f" on {possessive(sheet.id)} sheet")
    return spell


def spell_view(sheet: Sheet) -> dict:
    """What `show` adds for a caster: its Magic Dice and spells (nothing for a sheet with neither)."""
    if sheet.magic_dice is None and not sheet.spells:
        return {}
    spells = [{"name": s.name, "cost": {"ad": s.ad, "md": s.md}, "tier": s.tier,
               "check": None if s.skill is None else {"skill": s.skill, "dr": s.dr},
               "reveals": list(s.reveals), "range": s.range} for s in sheet.spells.values()]
    return {"magic_dice": sheet.magic_dice, "spells": spells}


def spend_magic(pool: dict, paid: int) -> dict:
    """Paid Magic Dice leave Ready and become Used."""
    return {"ready": pool.get("ready", 0) - paid, "used": pool.get("used", 0) + paid}


def refresh_magic(pool: dict, rules: Ruleset) -> tuple[dict, int]:
    """Used Magic Dice return to Ready: all, or the knob's amount."""
    amount = (rules.magic or {}).get("refresh", {}).get("amount", "all")
    used = pool.get("used", 0)
    moved = used if amount == "all" else min(used, amount)
    return {"ready": pool.get("ready", 0) + moved, "used": used - moved}, moved


def magic_refreshes_at_activation(rules: Ruleset) -> bool:
    return (rules.magic or {}).get("refresh", {}).get("timing") == "activation_start"


class CastResult(Record):
    """A spell cast: what it cost (Action Dice, Slowed applied, and Magic Dice), the check it asked (or none),
    and whom it revealed its caster to (inside an encounter)."""

    caster: Any = field(public=True)
    spell: Any = field(public=True)
    tier: Any = field(public=True)
    cost: Any = field(public=True)  # the Casting Cost as the spell states it: {ad, md}
    pay_multiplier: Any = field(public=True)
    paid_ad: Any = field(public=True)
    paid_md: Any = field(public=True)
    dice_before: Any = field(public=True)
    dice_after: Any = field(public=True)
    magic_before: Any = field(public=True)
    magic_after: Any = field(public=True)
    reveals: Any = field(public=True)
    range: Any = field(public=True)
    check: Any = field(default=None, public=CheckResult, load=read_check)
    revealed_to: Any = field(default=None, public=True)  # None outside an encounter
    invisible: Any = field(default=None, public=True)  # the condition that keeps a revealed caster unseen


def cast(sheet: Sheet, spell: Spell, rules: Ruleset, dice: DiceSource, boost: int = 0, dr: int | None = None,
         dr_label: str | None = None) -> CastResult:
    """Pay the Casting Cost (Slowed doubles its Action Dice, never its Magic Dice) and make the spell's check,
    if it asks one. Bad input first, then refusals; nothing is rolled until everything is paid for."""
    if spell.skill is None:
        return _cast_plain(sheet, spell, rules, dice, boost, dr)
    magic_before = dict(sheet.magic_dice) if sheet.magic_dice is not None else None
    if dr is None and spell.dr is not None:
        dr, word = rules.dr_value(spell.dr)
        dr_label = f"DR {dr}" if word == str(dr) else f"{word.title()} DR {dr}"
    if dr is None:
        raise BadInput(f"{spell.name} asks a {spell.skill} check and states no DR", rule="R2-SPELL",
                       fix="give the Guide's DR with --dr N|TIER")
    md_rolled = bool((rules.magic or {}).get("md_rolled", False))
    decl = Declaration(skill=spell.skill, boost=boost, cost=spell.ad, bonus_dice=spell.md if md_rolled else 0,
                       label=f"casting of {spell.name}")
    payment = plan(sheet, decl, rules, dice=dice, check_afford=False)
    afford(payment, sheet)
    _afford_magic(sheet, spell)
    target = Target(dr, "dr", dr_label or f"DR {dr}")
    ask_if_hopeless(dice, payment, target, rules)
    result = roll(payment, target, rules, dice)
    dice.finish()
    return _result(sheet, spell, payment.multiplier, payment.paid, payment.dice_after, magic_before, result)


def _cast_plain(sheet: Sheet, spell: Spell, rules: Ruleset, dice: DiceSource, boost: int, dr) -> CastResult:
    """A spell that asks no check: its Casting Cost alone, Slowed doubling the Action Dice."""
    if boost or dr is not None or dice.has("faces") or dice.has("reroll"):
        given = "--boost" if boost else "--dr" if dr is not None else "--faces"
        raise BadInput(f"{spell.name} asks no Skill Check, so {given} has nothing to apply to", rule="R2-SPELL",
                       fix=f"drop {given}")
    multiplier = rules.pay_multiplier(sheet.conditions)
    paid = spell.ad * multiplier
    ready = sheet.dice.get("ready", 0)
    if paid > ready:
        detail = f" ({spell.ad} x{multiplier})" if multiplier != 1 else ""
        raise Refused(f"{sheet.id} cannot pay {paid} AD{detail} for {spell.name} with {ready} Ready",
                      rule="R-PAY-5", fix="nothing was spent")
    _afford_magic(sheet, spell)
    from .character import spend

    magic_before = dict(sheet.magic_dice) if sheet.magic_dice is not None else None
    return _result(sheet, spell, multiplier, paid, spend(sheet.dice, paid), magic_before, None)


def _afford_magic(sheet: Sheet, spell: Spell):
    """The Magic Dice of the Casting Cost must be Ready (Slowed leaves them as they are)."""
    if not spell.md:
        return
    ready = (sheet.magic_dice or {}).get("ready", 0)
    if spell.md > ready:
        raise Refused(f"{sheet.id} cannot pay {spell.md} Magic Dice for {spell.name} with {ready} Ready",
                      rule="R-PAY-5", fix=f"refresh them first (`narateer refresh {sheet.id} --magic`); nothing was spent")


def _result(sheet, spell, multiplier, paid, dice_after, magic_before, check) -> CastResult:
    magic_after = spend_magic(magic_before, spell.md) if magic_before is not None else None
    return CastResult(sheet.id, spell.name, spell.tier, {"ad": spell.ad, "md": spell.md}, multiplier, paid,
                      spell.md, dict(sheet.dice), dice_after, magic_before, magic_after, list(spell.reveals),
                      spell.range, check)


def cast_in(state: dict | None, sheet: Sheet, spell: Spell, rules: Ruleset, dice: DiceSource, boost: int = 0,
            dr: int | None = None, dr_label: str | None = None) -> tuple[dict | None, CastResult]:
    """A cast, in an encounter or not. In an encounter it belongs to the caster's activation, its check takes one
    proactive use of the skill, and a spell whose effects can be noticed reveals a hidden caster to everyone it is
    hidden from. Returns (new state or None, result)."""
    from .encounter import record_action, require_activation, reveal, use_skill

    if state is not None:
        require_activation(state, sheet.id, "R-ACT-3")
    result = cast(sheet, spell, rules, dice, boost, dr, dr_label)
    if state is None:
        return None, result
    if spell.skill is not None:
        state = use_skill(state, sheet.id, spell.skill, "a spell's check")
    revealed: list = []
    if spell.reveals:
        state, revealed = reveal(state, sheet.id)
    unseen = rules.unseen_by(sheet.conditions)
    result = result.replace(revealed_to=revealed, invisible=unseen[0] if unseen and revealed else None)
    extra = {"skill": spell.skill} if spell.skill else {}
    return record_action(state, sheet.id, "cast", spell=spell.name, **extra), result


class CastOption(Record):
    """One Boost of a cast's dry run: the dice its check rolls, the Action Dice it pays, and its exact chance."""

    boost: Any
    roll_dice: Any
    paid_ad: Any
    affordable: Any
    p_success: Any


class CastDryRun(Record):
    """`cast --dry-run`: the Casting Cost as it would be paid (Slowed applied to its Action Dice), whether both
    pools cover it, and for a spell that asks a check the exact chance of each Boost from 0 to the Skill Level.
    Nothing is rolled or spent."""

    caster: Any
    spell: Any
    tier: Any
    cost: Any
    pay_multiplier: Any
    ready: Any  # Ready Action Dice
    magic_ready: Any  # Ready Magic Dice (None: the sheet has none)
    paid_md: Any
    skill: Any = None
    level: Any = None
    dr: Any = None
    options: Any = ()  # one CastOption per Boost; for a spell with no check, the cost alone (Boost 0, no chance)
    dry_run: Any = True


def cast_dry_run(sheet: Sheet, spell: Spell, rules: Ruleset, dr: int | None = None) -> CastDryRun:
    """What a cast would pay and its exact chance for every legal Boost, as `roll --dry-run` gives a check's."""
    from .check import chance

    ready = sheet.dice.get("ready", 0)
    magic_ready = None if sheet.magic_dice is None else sheet.magic_dice.get("ready", 0)
    md_ok = spell.md <= (magic_ready or 0)
    multiplier = rules.pay_multiplier(sheet.conditions)
    base = dict(caster=sheet.id, spell=spell.name, tier=spell.tier, cost={"ad": spell.ad, "md": spell.md},
                pay_multiplier=multiplier, ready=ready, magic_ready=magic_ready, paid_md=spell.md)
    if spell.skill is None:
        if dr is not None:
            raise BadInput(f"{spell.name} asks no Skill Check, so --dr has nothing to apply to", rule="R2-SPELL",
                           fix="drop --dr")
        paid = spell.ad * multiplier
        return CastDryRun(**base, options=(CastOption(0, 0, paid, paid <= ready and md_ok, None),))
    if dr is None and spell.dr is not None:
        dr, _ = rules.dr_value(spell.dr)
    if dr is None:
        raise BadInput(f"{spell.name} asks a {spell.skill} check and states no DR", rule="R2-SPELL",
                       fix="give the Guide's DR with --dr N|TIER")
    md_rolled = bool((rules.magic or {}).get("md_rolled", False))
    skill = sheet.skill(spell.skill, rules)
    options = []
    for boost in range(skill.level + 1):
        decl = Declaration(skill=spell.skill, boost=boost, cost=spell.ad, bonus_dice=spell.md if md_rolled else 0,
                           label=f"casting of {spell.name}")
        payment = plan(sheet, decl, rules, check_afford=False)
        p = chance(payment, Target(dr, "dr", f"DR {dr}"), rules)
        options.append(CastOption(boost, payment.roll_dice, payment.paid, payment.paid <= ready and md_ok, p))
    return CastDryRun(**base, skill=skill.name, level=skill.level, dr=dr, options=tuple(options))
