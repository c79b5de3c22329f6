"""The campaign on disk: finding it, its ruleset, and character sheets.

Sheets are loaded with the round-trip loader (or from their cached parse);
`SheetFile.render` edits dice counts in place on their own lines, or merges
other changed values into the round-trip document key by key, so a command
changes only the lines whose values changed.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..engine.character import STATES, Sheet, Skill
from ..engine.errors import BadInput
from ..engine.ruleset import Ruleset, build_ruleset
from . import cache, yamlio

CONFIG = "narateer.yaml"
CACHE_VERSION = 2
ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


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


_DEFAULT_RULES: dict = {}  # system name -> its shipped ruleset data


def default_rules(system=None) -> dict:
    """A system's shipped ruleset data (Narateer's when none is named)."""
    if system is None:
        from ..systems import load_system

        system = load_system(None)
    if system.name not in _DEFAULT_RULES:
        _DEFAULT_RULES[system.name] = system.rules_data()
    return _DEFAULT_RULES[system.name]


class Campaign:
    def __init__(self, root: Path):
        self.root = root
        self._config = None
        self._rules = None
        self._system = None

    @property
    def system(self):
        """The rule system this campaign plays (S-SYS-1): `system:` in narateer.yaml, default narateer."""
        if self._system is None:
            from ..systems import DEFAULT, load_system

            name = self.config().get("system", DEFAULT)
            if not isinstance(name, str) or not name.strip():
                raise BadInput(f"{CONFIG}: system must be a name, not {name!r}", rule="S-SYS-1",
                               fix="write for example `system: narateer`, or remove the line")
            self._system = load_system(name.strip())
        return self._system

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
        from ..systems import load_system, system_name

        system = load_system(system_name(self.root))
        out = [CACHE_VERSION, system.name]
        for path in (system.rules_path, self.config_path):
            with open(path, "rb") as fh:
                out.append(yamlio.file_key(os.fstat(fh.fileno()), fh.read(yamlio.MAX_BYTES)))
        return out

    def _cached_config(self) -> dict:
        """Parsing YAML is the slowest part of a command: the parsed ruleset defaults and
        narateer.yaml are kept in .narateer/config/narateer.json (store/cache.py)."""
        try:
            key = self._cache_key()
        except OSError:
            key = None
        data = cache.get(self.root, "config", "narateer", key) if key is not None else None
        if data is not None and isinstance(data.get("config"), dict):
            _DEFAULT_RULES.setdefault(key[1], data["default"])
            return data["config"]
        doc, _ = self.config_doc()
        config = yamlio.to_plain(doc)
        if key is not None:
            from ..systems import load_system

            cache.put(self.root, "config", "narateer", {"default": default_rules(load_system(key[1])),
                                                        "config": config}, key)
        return config

    @property
    def rules(self) -> Ruleset:
        if self._rules is None:
            overrides = self.config().get("rules") or {}
            system = self.system
            self._rules = system.ruleset(overrides, CONFIG, data=default_rules(system))
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
            ids = self.sheet_ids()
            known = ", ".join(ids[:20]) + (f" and {len(ids) - 20} more" if len(ids) > 20 else "") or "none yet"
            raise BadInput(f"unknown character {char_id!r} (no {label})",
                           fix=f"known: {known}; create one with `narateer new {char_id}`")
        text, key = yamlio.read_text(path, label, with_key=True)
        cached = cache.get(self.root, "sheets", char_id, key)
        if cached is not None:
            try:
                sheet = parse_sheet(char_id, cached["doc"], label, self.rules)
                return SheetFile(path, label, text, None, sheet, cached["dice"], cached["doc"])
            except (BadInput, KeyError, TypeError, AttributeError, ValueError):
                pass  # parse the text again, for messages with line numbers
        doc = yamlio.load_rt(text, label)
        sf = SheetFile(path, label, text, doc, parse_sheet(char_id, doc, label, self.rules), dice_places(doc))
        self.remember(sf, key)
        return sf

    # Parsing a sheet is most of a command's own time, so each parse is kept in
    # .narateer/sheets/ID.json (store/cache.py). A command that edits a sheet's dice in
    # place stores the parse of the text it wrote.

    def remember(self, sf: "SheetFile", key=None, text: str | None = None):
        """Keep a sheet's parse for the next command (after a write: of `text`, just written)."""
        if sf.plain is not None and sf.places is not None:
            cache.put(self.root, "sheets", sf.id, {"doc": sf.plain, "dice": sf.places}, key, sf.path, text)


def dice_places(doc) -> dict | None:
    """Where each action_dice count stands in the text: {state: [line, col, value]}."""
    block = doc.get("action_dice") if isinstance(doc, dict) else None
    if not isinstance(block, dict):
        return None
    out = {}
    for state in STATES:
        if state in block:
            try:
                line, col = block.lc.value(state)
            except Exception:
                return None
            out[state] = [line, col, block[state]]
    return out


class SheetFile:
    """A loaded character file: the engine's Sheet, its text, and (loaded when needed) the round-trip document."""

    def __init__(self, path, label, text, doc, sheet: Sheet, places=None, plain=None):
        self.path = path
        self.label = label
        self.original = text  # the file as read
        self.text = text  # the file with this command's edits so far
        self._doc = doc
        self.sheet = sheet
        self.places = places  # {state: [line, col, value]}: where each action_dice count stands
        self.plain = plain if plain is not None else (yamlio.to_plain(doc) if doc is not None else None)

    @property
    def doc(self):
        if self._doc is None:
            self._doc = yamlio.load_rt(self.text, self.label)
        return self._doc

    @property
    def id(self) -> str:
        return self.sheet.id

    def render(self, dice: dict | None = None, conditions=None, readiness: dict | None = None) -> str:
        """New file text with only the changed values edited (comments and order survive)."""
        if dice is not None and conditions is None and readiness is None:
            spliced = self._splice_dice(dice)
            if spliced is not None:
                return spliced
        self.plain = self.places = None  # rewritten by a dump: the next command parses it afresh
        changed = False
        if dice is not None:
            block = self.doc["action_dice"]
            for state in STATES:
                value = dice.get(state, 0)
                if block.get(state, 0) != value:
                    if state not in block and value == 0:
                        continue
                    block[state] = value
                    changed = True
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
        self.text = yamlio.dump_rt(self.doc, self.text)
        return self.text

    def _splice_dice(self, dice: dict) -> str | None:
        """Edit the action_dice counts in place, so only their lines change; keep the parse
        up to date for the next command. None: the caller falls back to a round-trip dump."""
        if self.places is None or self.plain is None:
            return None
        places = {state: list(place) for state, place in self.places.items()}
        edits = []
        for state in STATES:
            value = dice.get(state, 0)
            if state in places:
                if places[state][2] != value:
                    edits.append((state, value))
            elif value:
                return None  # a new key: leave it to the dump
        if not edits:
            return self.text
        text, shifts = splice_places(self.text, [(*places[state], value) for state, value in edits])
        if text is None:
            return None
        for state, value in edits:
            places[state][2] = value
        for place in places.values():  # later numbers on an edited line move with it
            place[1] += sum(delta for line, col, delta in shifts if line == place[0] and col < place[1])
        plain = dict(self.plain)
        plain["action_dice"] = {**plain["action_dice"], **dict(edits)}
        self.places, self.plain = places, plain
        self.text, self._doc = text, None  # a later round-trip edit starts from this text
        return text


_NUMBER = re.compile(r"-?[0-9]+")


def splice_places(text: str, places) -> tuple[str | None, list]:
    """Replace whole numbers at (line, col) where the old value stands; returns the new text and
    the column shifts [(line, col, delta)] the edits caused (None when a number is not there)."""
    lines = text.split("\n")
    shifts = []
    for line, col, old, new in sorted(places, key=lambda p: (p[0], -p[1])):
        if isinstance(old, bool) or not isinstance(old, int) or line >= len(lines):
            return None, []
        row = lines[line]
        match = _NUMBER.match(row, col)
        if match is None or int(match.group()) != old or row[match.end():match.end() + 1] not in ("", " ", ",", "}", "\r", "#"):
            return None, []
        lines[line] = row[:col] + str(new) + row[match.end():]
        shifts.append((line, col, len(str(new)) - (match.end() - col)))
    return "\n".join(lines), shifts


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
