"""Narateer's character sheet and encounter state: validated from plain YAML data into engine values."""

from __future__ import annotations

from narateer_cli.kit import BadInput, replace
from narateer_cli.kit import yamlio

from .engine.character import STATES, Sheet, Skill
from .engine.ruleset import Ruleset


def parse_sheet(char_id: str, doc, label: str, rules: Ruleset) -> Sheet:
    """A character document (its required keys), already checked against the SHEET table, as an engine Sheet."""
    if not isinstance(doc, dict):
        raise BadInput(f"{label}: a character file must be a mapping", fix="see the README's character format")
    skills = {}
    for key, value in (doc.get("skills") or {}).items():
        skills[str(key).lower()] = _skill(str(key), value, doc["skills"], label, rules)
    dice = {state: count for state, count in doc["action_dice"].items() if state in STATES}
    dice.setdefault("ready", 0)
    dice.setdefault("used", 0)
    weapons = {str(k).lower(): yamlio.to_plain(v) if isinstance(v, dict) else {"attack_cost": v}
               for k, v in (doc.get("weapons") or {}).items()}
    sheet = Sheet(id=char_id, name=str(doc.get("name", char_id)),
                  vitals={str(k).lower(): v for k, v in (doc.get("vitals") or {}).items()},
                  skills=skills, dice=dice, conditions=tuple(str(c).lower() for c in doc.get("conditions") or ()),
                  movement={str(k).lower(): v for k, v in (doc.get("movement") or {}).items()}, weapons=weapons)
    return _magic(_traits(sheet, doc, label), doc, label, rules)


def _traits(sheet: Sheet, doc: dict, label: str) -> Sheet:
    """The sheet with its class traits, when it has any (the traits module is loaded only then)."""
    if doc.get("traits") is None:
        return sheet
    from .engine.traits import parse_traits

    return replace(sheet, traits=parse_traits(doc["traits"], label))


def _magic(sheet: Sheet, doc: dict, label: str, rules: Ruleset) -> Sheet:
    """The sheet with its spells and Magic Dice, when it has any (the spells module is loaded only then)."""
    if not doc.get("spells") and doc.get("magic_dice") is None:
        return sheet
    from .engine.spells import with_magic

    return with_magic(sheet, doc, label, rules)


def _skill(key: str, value, block, label: str, rules: Ruleset) -> Skill:
    """A skill's level and linked vital (the ruleset's default for a short-form skill)."""
    name = key.lower()
    level = value["level"] if isinstance(value, dict) else value
    vital = value.get("vital", rules.skills.get(name)) if isinstance(value, dict) else rules.skills.get(name)
    if vital is None:
        from narateer_cli.kit import closest

        line = yamlio.line_of(block, key) or 1
        near = closest(name, rules.skills)
        if near:
            raise BadInput(f"{label}:{line}: unknown skill {key!r} (did you mean {' or '.join(near)}?)",
                           rule="S-SYS-5", fix="correct the name, or give a new skill its vital: "
                                               f"`NAME: {{level: {level}, vital: VITAL}}`")
        raise BadInput(f"{label}:{line}: skill {key} has no linked vital",
                       fix=f"write `{key}: {{level: {level}, vital: VITAL}}` with one of: {', '.join(rules.vitals)}")
    return Skill(name, level, str(vital).lower())


STATE_KEYS = ("id", "round", "actor", "next", "acted", "participants", "uses", "mode", "movement_left",
              "last_action", "hidden", "recorded", "searches", "durations")


def load_state(data: dict, label: str, checked: bool = False) -> dict:
    """An encounter state's Narateer keys, checked against STATE (the host has checked id and participants;
    `checked`: the host's cache holds this state as it was when it passed)."""
    if not checked:
        from narateer_cli.kit import schema

        from .schema import STATE

        for problem in (p for p in schema.problems(data, STATE, label, None) if p.severity == "error"):
            raise BadInput(f"{label}: {problem.message}", fix="restore it from git")
    out = {key: data.get(key) for key in STATE_KEYS}
    for key in ("acted", "participants"):
        out[key] = list(out[key] or [])
    for key in ("uses", "recorded"):
        out[key] = dict(out[key] or {})
    for key in ("hidden", "searches", "durations"):
        out[key] = {k: dict(v or {}) for k, v in (out[key] or {}).items()}
    return out


def fresh_sheet(doc, rules):
    """A copied sheet starts fresh: every Action Die Ready, none Used or Wounded, no conditions, every trait's uses
    at their max."""
    dice = doc.get("action_dice") or {}
    total = sum(int(dice.get(state) or 0) for state in STATES)
    for state in STATES:
        if state in dice:
            dice[state] = 0
    dice["ready"] = total
    if doc.get("conditions"):
        doc["conditions"] = []
    magic = doc.get("magic_dice")
    if isinstance(magic, dict) and magic.get("used"):  # Magic Dice start fresh too: every one Ready
        magic["ready"] = int(magic.get("ready") or 0) + int(magic["used"])
        magic["used"] = 0
    for trait in (doc.get("traits") or {}).values():  # and every trait's uses back to its max
        uses = (trait or {}).get("uses")
        if isinstance(uses, dict) and "max" in uses:
            uses["left"] = uses["max"]
    return doc
