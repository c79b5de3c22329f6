"""Characters as the engine sees them: vitals, skills, dice by state, conditions.

A `Sheet` is an immutable view built by the store from a character file.
Dice moves return new dice counts; the store writes them back key by key.
"""

from __future__ import annotations

from typing import Any

from narateer_cli.kit import field, Record, factory, replace

from narateer_cli.kit import BadInput, Refused
from .ruleset import Ruleset

STATES = ("ready", "used", "wounded")


class Skill(Record):
    name: Any
    level: Any
    vital: Any
    trained: Any = True

    @property
    def uses(self) -> int:
        """Proactive uses of a Skill per activation, SL + 1."""
        return self.level + 1


class Sheet(Record):
    id: Any
    name: Any
    vitals: Any
    skills: Any
    dice: Any
    conditions: Any = ()
    movement: Any = field(default_factory=dict)
    weapons: Any = field(default_factory=dict)
    spells: Any = field(default_factory=dict)  # name (lower case) -> Spell
    magic_dice: Any = None  # {"ready": N, "used": N}, or None for a sheet without Magic Dice
    traits: Any = field(default_factory=dict)  # name -> engine.traits.Trait

    @property
    def counters(self) -> dict:
        """The counters the host tracks: Narateer's are its Action Dice."""
        return self.dice

    def skill(self, name: str, rules: Ruleset) -> Skill:
        """A skill on the sheet, an untrained one known to the ruleset (SL 0), or bad input."""
        key = name.lower()
        if key in self.skills:
            return self.skills[key]
        if key in rules.skills:
            return Skill(key, 0, rules.skills[key], trained=False)
        from narateer_cli.kit import unknown

        raise unknown("skill", name, sorted(set(self.skills) | set(rules.skills)), detail=f" for {self.id}")

    def readiness(self, skill_name: str, rules: Ruleset) -> int:
        """Readiness: 1 + floor((Linked Vital + SL) / 2), at least 2."""
        skill = self.skill(skill_name, rules)
        vital = self.vitals.get(skill.vital, 0) if skill.vital else 0
        return max(2, 1 + (vital + skill.level) // 2)

    def target_readiness(self, skill_name: str, rules: Ruleset) -> int:
        """Readiness as a target (the passive answer), unless a condition switches it off."""
        off = rules.readiness_off_by(self.conditions)
        if off:
            raise Refused(f"{self.id} is {off}, so its Readiness is not a target", rule="A-RDYOFF",
                          fix="give the relevant DR with --dr instead")
        return self.readiness(skill_name, rules)

    def with_dice(self, dice: dict) -> "Sheet":
        return replace(self, dice=dict(dice))



def possessive(name: str) -> str:
    """selka's, soldiers'."""
    return name + ("'" if name.endswith("s") else "'s")


def spend(dice: dict, paid: int) -> dict:
    """Paid dice leave Ready and become Used after resolution."""
    out = dict(dice)
    out["ready"] = out.get("ready", 0) - paid
    out["used"] = out.get("used", 0) + paid
    return out


def refresh(dice: dict, rules: Ruleset) -> tuple[dict, int]:
    """Refresh: Used dice return to Ready (all, or the knob's amount). Wounded stay."""
    used = dice.get("used", 0)
    moved = used if rules.refresh_amount is None else min(used, rules.refresh_amount)
    out = dict(dice)
    out["used"] = used - moved
    out["ready"] = out.get("ready", 0) + moved
    return out, moved


def wound(dice: dict, count: int, rules: Ruleset) -> tuple[dict, int]:
    """Each Wound moves one die from Ready (else Used) to wounded, never a die twice."""
    out = dict(dice)
    moved = 0
    for _ in range(count):
        for state in rules.wound_from:
            if out.get(state, 0) > 0:
                out[state] -= 1
                out["wounded"] = out.get("wounded", 0) + 1
                moved += 1
                break
    return out, moved


def heal(dice: dict, count: int, rules: Ruleset) -> tuple[dict, int]:
    """Healing moves wounded dice back to the knob's state (Used by default)."""
    out = dict(dice)
    moved = min(count, out.get("wounded", 0))
    out["wounded"] = out.get("wounded", 0) - moved
    out[rules.heal_to] = out.get(rules.heal_to, 0) + moved
    return out, moved


def change_conditions(current, changes, rules: Ruleset) -> tuple[list, list, list]:
    """Conditions are data: apply `+name` / `-name` changes; returns (conditions, added, removed)."""
    if not changes:
        raise BadInput("no change given", fix="for example `narateer condition selka +slowed -stunned`")
    conds = list(current)
    added, removed = [], []
    for change in changes:
        sign, name = change[:1], change[1:].lower()
        if sign not in ("+", "-") or not name:
            raise BadInput(f"{change!r} is not +NAME or -NAME", fix="for example +slowed or -stunned")
        if name not in rules.conditions:
            from narateer_cli.kit import unknown

            raise unknown("condition", name, rules.conditions)
        if sign == "+" and name not in conds:
            conds.append(name)
            added.append(name)
        elif sign == "-" and name in conds:
            conds.remove(name)
            removed.append(name)
    return conds, added, removed


class DiceMoved(Record):
    """The result of refresh, wound and heal."""

    actor: Any
    moved: Any
    dice_before: Any
    dice_after: Any
    overflow: Any = 0
    out: Any = None


class ConditionsChanged(Record):
    """The result of `condition`."""

    actor: Any
    conditions: Any
    added: Any
    removed: Any


def move_dice(sheet: Sheet, verb: str, count: int | None, rules: Ruleset) -> DiceMoved:
    """refresh / wound / heal: move dice between states, never a die twice."""
    if verb == "refresh":
        after, moved = refresh(sheet.dice, rules)
    else:
        assert count is not None  # wound and heal always name a count (N defaults to 1); refresh alone has none
        after, moved = (wound if verb == "wound" else heal)(sheet.dice, count, rules)
    if verb != "wound":
        return DiceMoved(sheet.id, moved, dict(sheet.dice), after)
    return DiceMoved(sheet.id, moved, dict(sheet.dice), after, (count or 1) - moved, out_of_fight(sheet, after, rules))


def out_of_fight(sheet: Sheet, dice: dict, rules: Ruleset) -> str | None:
    """Every die wounded puts a character out of the fight: the ruleset's `wound.out` condition
    (None when it is not out, or already has it)."""
    if not rules.wound_out or any(dice.get(state, 0) for state in STATES if state != "wounded"):
        return None
    return None if rules.wound_out in sheet.conditions else rules.wound_out


def conditions_changed(sheet: Sheet, changes, rules: Ruleset) -> ConditionsChanged:
    """`+name` / `-name` applied to a sheet's conditions."""
    conds, added, removed = change_conditions(sheet.conditions, changes, rules)
    return ConditionsChanged(sheet.id, conds, added, removed)


class SkillView(Record):
    skill: Any
    level: Any
    vital: Any
    trained: Any
    readiness: Any
    uses: Any


class SheetView(Record):
    """The result of `show`: a sheet with every skill the ruleset knows, with its Readiness and uses."""

    id: Any
    name: Any
    vitals: Any
    dice: Any
    conditions: Any
    movement: Any
    skills: Any


class Readiness(Record):
    """The result of `readiness`."""

    actor: Any
    readiness: Any
    written: Any


def sheet_view(sheet: Sheet, rules: Ruleset) -> SheetView:
    skills = []
    for name in sorted(set(sheet.skills) | set(rules.skills)):
        sk = sheet.skill(name, rules)
        skills.append(SkillView(name, sk.level, sk.vital, sk.trained, sheet.readiness(name, rules), sk.uses))
    return SheetView(sheet.id, sheet.name, sheet.vitals, sheet.dice, list(sheet.conditions), sheet.movement, skills)


def readiness_scores(sheet: Sheet, skills, rules: Ruleset, written: bool = False) -> Readiness:
    """Readiness for the named skills (every skill on the sheet when none are named)."""
    names = [n.lower() for n in skills] or sorted(sheet.skills)
    return Readiness(sheet.id, {sheet.skill(n, rules).name: sheet.readiness(n, rules) for n in names}, written)
