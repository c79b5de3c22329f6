"""Narateer's character sheet and encounter state: validated from plain YAML data into engine values."""

from __future__ import annotations

from narateer_cli.errors import BadInput
from narateer_cli.store import yamlio

from .engine.character import STATES, Sheet, Skill
from .engine.ruleset import Ruleset


def _int(value, label, line, what, low=0, high=None):
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"{label}:{line}: {what} must be a whole number, not {value!r}", fix="write a number there")
    if value < low or (high is not None and value > high):
        raise BadInput(f"{label}:{line}: {what} {value} is out of range ({low} to {high})", rule="A-LIMITS",
                       fix="write a number in range")
    return value


def parse_sheet(char_id: str, doc, label: str, rules: Ruleset) -> Sheet:
    """Validate a character document (SPEC Part 3 minimum) into an engine Sheet."""
    if not isinstance(doc, dict):
        raise BadInput(f"{label}: a character file must be a mapping", fix="see the README's character format")
    lim = rules.max_state_dice
    vitals = {}
    raw_vitals = doc.get("vitals") or {}
    if not isinstance(raw_vitals, dict):
        raise BadInput(f"{label}:{yamlio.line_of(doc, 'vitals')}: vitals must be a mapping", fix="write `agility: 3` lines")
    for key, value in raw_vitals.items():
        vitals[str(key).lower()] = _int(value, label, yamlio.line_of(raw_vitals, key), f"vital {key}", 0, 100)
    skills = {}
    raw_skills = doc.get("skills") or {}
    if not isinstance(raw_skills, dict):
        raise BadInput(f"{label}:{yamlio.line_of(doc, 'skills')}: skills must be a mapping", fix="write `stealth: 2` lines")
    for key, value in raw_skills.items():
        name = str(key).lower()
        line = yamlio.line_of(raw_skills, key)
        if isinstance(value, dict):
            level = _int(value.get("level"), label, line, f"skill {key} level", 0, 100)
            vital = value.get("vital", rules.skills.get(name))
        else:
            level = _int(value, label, line, f"skill {key}", 0, 100)
            vital = rules.skills.get(name)
        if vital is None:
            raise BadInput(f"{label}:{line}: skill {key} has no linked vital",
                           fix=f"write `{key}: {{level: {level}, vital: NAME}}`")
        skills[name] = Skill(name, level, str(vital).lower())
    dice_doc = doc.get("action_dice")
    if not isinstance(dice_doc, dict):
        raise BadInput(f"{label}: action_dice must be a mapping with ready and used",
                       fix="write `action_dice: {ready: 5, used: 0}`")
    dice = {}
    for key, value in dice_doc.items():
        if key not in STATES:
            continue
        dice[key] = _int(value, label, yamlio.line_of(dice_doc, key), f"action_dice.{key}", 0, lim)
    dice.setdefault("ready", 0)
    dice.setdefault("used", 0)
    conditions = doc.get("conditions") or []
    if not isinstance(conditions, list):
        raise BadInput(f"{label}:{yamlio.line_of(doc, 'conditions')}: conditions must be a list",
                       fix="write `conditions: [slowed]`")
    conds = []
    for item in conditions:
        name = str(item).lower()
        if name not in rules.conditions:
            raise BadInput(f"{label}:{yamlio.line_of(doc, 'conditions')}: unknown condition {item!r}",
                           fix="known: " + ", ".join(rules.conditions))
        conds.append(name)
    movement = {}
    raw_move = doc.get("movement") or {}
    if isinstance(raw_move, dict):
        for key, value in raw_move.items():
            movement[str(key).lower()] = _int(value, label, yamlio.line_of(raw_move, key), f"movement.{key}", 0, 10_000)
    weapons = {}
    raw_weapons = doc.get("weapons") or {}
    if isinstance(raw_weapons, dict):
        for key, value in raw_weapons.items():
            weapons[str(key).lower()] = yamlio.to_plain(value) if isinstance(value, dict) else {"attack_cost": value}
    name = doc.get("name", char_id)
    return Sheet(id=char_id, name=str(name), vitals=vitals, skills=skills, dice=dice,
                 conditions=tuple(conds), movement=movement, weapons=weapons)


STATE_KEYS = ("id", "round", "actor", "next", "acted", "participants", "uses", "mode", "movement_left",
              "last_action", "hidden", "recorded", "searches")


def load_state(data: dict, label: str) -> dict:
    """An encounter state's Narateer keys, checked (the host has checked the file, id, round, participants)."""
    out = {key: data.get(key) for key in STATE_KEYS}
    try:
        out["acted"] = list(out["acted"] or [])
        out["participants"] = list(out["participants"] or [])
        out["uses"] = dict(out["uses"] or {})
        out["hidden"] = {k: dict(v or {}) for k, v in (out["hidden"] or {}).items()}
        out["searches"] = {k: dict(v or {}) for k, v in (out["searches"] or {}).items()}
        out["recorded"] = dict(out["recorded"] or {})
    except (TypeError, ValueError, AttributeError):
        raise BadInput(f"{label}: a list or mapping holds something else", fix="restore it from git") from None
    whole = lambda v: isinstance(v, int) and not isinstance(v, bool)  # noqa: E731
    if (not all(isinstance(n, str) for n in out["acted"])
            or not all(whole(v) for v in out["uses"].values())
            or not all(v is None or isinstance(v, str) for v in (out["actor"], out["next"], out["mode"]))
            or not (out["movement_left"] is None or whole(out["movement_left"]))
            or not (out["last_action"] is None or isinstance(out["last_action"], dict))
            or not all(whole(v) for v in out["recorded"].values())
            or not all(whole(v) for table in out["hidden"].values() for v in table.values())):
        raise BadInput(f"{label}: a value has the wrong type", fix="restore it from git")
    if not isinstance(out["round"], int) or isinstance(out["round"], bool) or out["round"] < 0:
        raise BadInput(f"{label}: round must be a whole number", fix="restore it from git")
    for name in out["participants"]:
        if not isinstance(name, str):
            raise BadInput(f"{label}: participants must be character ids", fix="restore it from git")
    return out
