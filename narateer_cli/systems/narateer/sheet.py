"""Narateer's character sheet and encounter state: validated from plain YAML data into engine values."""

from __future__ import annotations

from narateer_cli.errors import BadInput
from narateer_cli.store import schema, yamlio
from narateer_cli.suggest import closest

from .engine.character import STATES, Sheet, Skill
from .engine.ruleset import Ruleset
from .schema import SHEET


def parse_sheet(char_id: str, doc, label: str, rules: Ruleset) -> Sheet:
    """A character document (SPEC Part 3 minimum), checked against the schema table, as an engine Sheet."""
    if not isinstance(doc, dict):
        raise BadInput(f"{label}: a character file must be a mapping", fix="see the README's character format")
    schema.require(doc, SHEET, label, rules)
    skills = {}
    for key, value in (doc.get("skills") or {}).items():
        skills[str(key).lower()] = _skill(str(key), value, doc["skills"], label, rules)
    dice = {state: count for state, count in doc["action_dice"].items() if state in STATES}
    dice.setdefault("ready", 0)
    dice.setdefault("used", 0)
    weapons = {str(k).lower(): yamlio.to_plain(v) if isinstance(v, dict) else {"attack_cost": v}
               for k, v in (doc.get("weapons") or {}).items()}
    return Sheet(id=char_id, name=str(doc.get("name", char_id)),
                 vitals={str(k).lower(): v for k, v in (doc.get("vitals") or {}).items()},
                 skills=skills, dice=dice, conditions=tuple(str(c).lower() for c in doc.get("conditions") or ()),
                 movement={str(k).lower(): v for k, v in (doc.get("movement") or {}).items()}, weapons=weapons)


def _skill(key: str, value, block, label: str, rules: Ruleset) -> Skill:
    """A-VITALS: a skill's level and linked vital (the ruleset's default for a short-form skill)."""
    name = key.lower()
    level = value["level"] if isinstance(value, dict) else value
    vital = value.get("vital", rules.skills.get(name)) if isinstance(value, dict) else rules.skills.get(name)
    if vital is None:
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
