"""The campaign on disk: finding it, its ruleset, and character sheets.

Sheets are loaded with the round-trip loader; `SheetFile.save_into` merges
changed values back key by key and hands the new text to a Transaction, so a
command changes only the lines whose values changed.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..engine.character import STATES, Sheet, Skill
from ..engine.errors import BadInput
from ..engine.ruleset import Ruleset, build_ruleset
from . import yamlio

CONFIG = "narateer.yaml"
CACHE_VERSION = 1
ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
RULES_FILE = Path(__file__).resolve().parent.parent / "rules" / "narateer.yaml"


def find_root(start: str | None) -> Path:
    """SPEC Part 3: --campaign DIR, NARATEER_CAMPAIGN, or the nearest narateer.yaml upwards."""
    given = start or os.environ.get("NARATEER_CAMPAIGN")
    if given:
        root = Path(given)
        if not (root / CONFIG).is_file():
            raise BadInput(f"{given}: no {CONFIG} there", fix="run `narateer init` in that folder first")
        return root.resolve()
    here = Path.cwd()
    for folder in (here, *here.parents):
        if (folder / CONFIG).is_file():
            return folder
    raise BadInput("not inside a narateer campaign (no narateer.yaml here or above)",
                   fix="run `narateer init`, or pass --campaign DIR")


def check_id(text: str, what: str = "character") -> str:
    if not ID_RE.match(text or ""):
        raise BadInput(f"{what} id {text!r} is not valid",
                       fix="use letters, digits, - and _ only (the file name without .yaml)")
    return text


_DEFAULT_RULES = None


def default_rules() -> dict:
    global _DEFAULT_RULES
    if _DEFAULT_RULES is None:
        _DEFAULT_RULES = yamlio.load_safe(RULES_FILE.read_text(encoding="utf-8"), "narateer_cli/rules/narateer.yaml")
    return _DEFAULT_RULES


class Campaign:
    def __init__(self, root: Path):
        self.root = root
        self._config = None
        self._rules = None

    @property
    def config_path(self) -> Path:
        return self.root / CONFIG

    def config(self) -> dict:
        """narateer.yaml as plain data, from the private cache while the file is unchanged."""
        if self._config is None:
            self._config = self._cached_config()
        return self._config

    def config_doc(self):
        """narateer.yaml as a round-trip document and its text, for commands that rewrite it."""
        text = yamlio.read_text(self.config_path, CONFIG)
        doc = yamlio.load_rt(text, CONFIG) if text.strip() else None
        if doc is None:
            from ruamel.yaml.comments import CommentedMap

            doc = CommentedMap()
        if not isinstance(doc, dict):
            raise BadInput(f"{CONFIG}: must be a mapping", fix="see the README's campaign section")
        return doc, text

    def _cache_key(self) -> list:
        out = [CACHE_VERSION]
        for path in (RULES_FILE, self.config_path):
            st = os.stat(path)
            out.append([st.st_ino, st.st_size, st.st_mtime_ns])
        return out

    def _cached_config(self) -> dict:
        """Parsing YAML is the slowest part of a command: the parsed ruleset defaults and
        config are kept in .narateer/cache.json, keyed by both files' inode, size and mtime."""
        import json

        global _DEFAULT_RULES
        cache = self.root / ".narateer" / "cache.json"
        try:
            key = self._cache_key()
        except OSError:
            key = None
        try:
            data = json.loads(cache.read_text(encoding="utf-8"))
            if key is not None and data["key"] == key:
                if _DEFAULT_RULES is None:
                    _DEFAULT_RULES = data["default"]
                return data["config"]
        except (OSError, ValueError, KeyError, TypeError):
            pass
        doc, _ = self.config_doc()
        config = yamlio.to_plain(doc)
        if key is not None:
            try:
                from .txn import atomic_write

                atomic_write(self.root, cache, json.dumps({"key": key, "default": default_rules(), "config": config}))
            except OSError:
                pass  # a read-only campaign still works, only slower
        return config

    @property
    def rules(self) -> Ruleset:
        if self._rules is None:
            overrides = self.config().get("rules") or {}
            self._rules = build_ruleset(default_rules(), overrides, CONFIG)
        return self._rules

    def sheet_path(self, char_id: str) -> Path:
        check_id(char_id)
        path = self.root / "characters" / f"{char_id}.yaml"
        if path.is_symlink():
            try:
                real = path.resolve()
            except (OSError, RuntimeError):  # a symlink loop
                raise BadInput(f"characters/{char_id}.yaml is a symlink loop",
                               fix="replace the link with the file itself") from None
            if not str(real).startswith(str((self.root / "characters").resolve()) + os.sep):
                raise BadInput(f"characters/{char_id}.yaml links outside the campaign",
                               fix="replace the link with the file itself")
        return path

    def sheet_ids(self) -> list[str]:
        folder = self.root / "characters"
        if not folder.is_dir():
            return []
        return sorted(p.stem for p in folder.glob("*.yaml") if ID_RE.match(p.stem))

    def load(self, char_id: str) -> "SheetFile":
        path = self.sheet_path(char_id)
        label = f"characters/{char_id}.yaml"
        if not path.exists():
            known = ", ".join(self.sheet_ids()[:12]) or "none yet"
            raise BadInput(f"unknown character {char_id!r} (no {label})",
                           fix=f"known: {known}; create one with `narateer new {char_id}`")
        text = yamlio.read_text(path, label)
        doc = yamlio.load_rt(text, label)
        return SheetFile(path, label, text, doc, parse_sheet(char_id, doc, label, self.rules))


class SheetFile:
    """A loaded character file: the engine's Sheet plus the round-trip document."""

    def __init__(self, path, label, text, doc, sheet: Sheet):
        self.path = path
        self.label = label
        self.text = text
        self.doc = doc
        self.sheet = sheet

    @property
    def id(self) -> str:
        return self.sheet.id

    def render(self, dice: dict | None = None, conditions=None, readiness: dict | None = None) -> str:
        """New file text with only the changed values edited (comments and order survive)."""
        changed = False
        edits = []
        if dice is not None:
            block = self.doc["action_dice"]
            for state in STATES:
                value = dice.get(state, 0)
                if block.get(state, 0) != value:
                    if state not in block and value == 0:
                        continue
                    edits.append((block, state, block.get(state), value))
                    block[state] = value
                    changed = True
        if edits and conditions is None and readiness is None:
            spliced = splice_numbers(self.text, edits)
            if spliced is not None:
                return spliced
        if conditions is not None and list(self.sheet.conditions) != list(conditions):
            current = self.doc.get("conditions")
            if isinstance(current, list):
                if hasattr(current, "fa") and not current:
                    current.fa.set_flow_style()  # an empty list was written `[]`: keep it a flow list
                for name in [c for c in current if str(c).lower() not in conditions]:
                    current.remove(name)
                for name in conditions:
                    if name not in [str(c).lower() for c in current]:
                        current.append(name)
                if hasattr(current, "fa") and not current:
                    current.fa.set_flow_style()
            else:
                self.doc["conditions"] = list(conditions)
            changed = True
        if readiness is not None:
            from ruamel.yaml.comments import CommentedMap

            block = self.doc.get("readiness")
            if not isinstance(block, dict):
                block = self.doc["readiness"] = CommentedMap()
            for skill, score in readiness.items():
                if block.get(skill) != score:
                    block[skill] = score
                    changed = True
        if not changed:
            return self.text
        return yamlio.dump_rt(self.doc, self.text)


_NUMBER = re.compile(r"-?[0-9]+")


def splice_numbers(text: str, edits) -> str | None:
    """Edit whole-number values in place, so only their lines change (None: use a full dump).

    Each edit is (mapping, key, old, new); the old number must stand at the
    position the loader recorded, else the caller falls back to dumping.
    """
    lines = text.split("\n")
    places = []
    for block, key, old, new in edits:
        if old is None or isinstance(old, bool):
            return None
        try:
            line, col = block.lc.value(key)
        except Exception:
            return None
        places.append((line, col, old, new))
    for line, col, old, new in sorted(places, key=lambda p: (p[0], -p[1])):
        if line >= len(lines):
            return None
        row = lines[line]
        match = _NUMBER.match(row, col)
        if match is None or int(match.group()) != old or row[match.end():match.end() + 1] not in ("", " ", ",", "}", "\r", "#"):
            return None
        lines[line] = row[:col] + str(new) + row[match.end():]
    return "\n".join(lines)


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
