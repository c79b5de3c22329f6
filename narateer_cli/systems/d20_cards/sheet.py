"""Character sheets of d20-cards: the `Character` record, its parser and writer view.

`parse_sheet` checks a sheet mapping against the schema table `schema.SHEET`
(every problem a host `Problem` with its line) and builds a frozen `Character`. `sheet_values` gives back
the mutable parts (HP, resources, charges, cooldowns, concentration,
conditions) as plain data, so the store can write only the values that
changed. Conditions are names with an optional number (`nullified:1`).
"""

from __future__ import annotations

from typing import Any

from narateer_cli.kit import BadInput

from .cards import Card, parse_card
from narateer_cli.kit import Record
from .schema import SHEET, line

COUNTERS = ("hp.current", "resources.*.current", "charges.*")


class Character(Record, kw_only=True):
    id: Any
    name: Any
    attributes: Any
    bonuses: Any = {}
    concentration: Any = 0
    augmentor: Any = None
    ac: Any
    hp: Any
    hp_max: Any
    reach: Any = 1
    resources: Any
    actions: Any
    cards: Any = {}
    charges: Any = {}
    cooldowns: Any = {}
    concentrating: Any = None
    companions: Any = ()
    owner: Any = None
    conditions: Any = ()
    level: Any = None  # the older single level: every source that `levels` does not name
    levels: Any = None  # {Discipline, Archetype or Expertise: level}; None: the sheet records none
    prepared: Any = None  # the prepared card ids; None: every card it holds counts as prepared
    focus_slots: Any = None  # None: no limit
    heritage: Any = ()  # the cards taken through Mixed Heritage
    ancestral_points: Any = None  # what Mixed Heritage may spend; None: no limit

    @property
    def counters(self) -> dict:
        """The counters the host's log, merges and `check` track, by their key paths (SYSTEM.counters)."""
        out = {"hp.current": self.hp, "resources.ap.current": self.ap()}
        out.update({f"charges.{card}": left for card, left in self.charges.items()})
        return out

    def attr(self, name: str) -> int:
        return self.attributes.get(name, 0)

    def bonus(self, name: str) -> int:
        """The ATK/SAVE bonus of X is `bonuses.X`, else attribute X."""
        return self.bonuses.get(name, self.attr(name))

    def ap(self) -> int:
        return self.resources.get("ap", (0, 0))[0]

    def condition(self, name: str):
        """The condition's entry: True (bare), its number (`nullified:1`), or None if absent."""
        for entry in self.conditions:
            head, _, arg = entry.partition(":")
            if head.strip().lower() == name:
                arg = arg.strip()
                return int(arg) if arg.lstrip("-").isdigit() else True
        return None

    def has_any(self, names) -> str | None:
        return next((n for n in names if self.condition(n) is not None), None)

    def without(self, *names) -> tuple:
        return tuple(c for c in self.conditions if c.partition(":")[0].strip().lower() not in names)


def sheet_problems(char_id: str, doc, label: str, rules=None) -> list:
    """Every problem of a sheet (its inline cards and conditions included) as host `Problem`s."""
    from narateer_cli.kit import problems

    return problems(doc, SHEET, label, rules)


def parse_sheet(char_id: str, doc, label: str, rules=None) -> Character:
    """The sheet as a `Character`; BadInput naming `file:line` of the first problem."""
    found = [p for p in sheet_problems(char_id, doc, label, rules) if p.severity == "error"]
    if found:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise BadInput(f"{line(found[0])}{more}", fix="correct the sheet; narateer check lists every problem")
    return build_sheet(char_id, doc, label, rules)


def build_sheet(char_id: str, doc, label: str, rules=None) -> Character:
    """The `parse_sheet` hook: the `Character` of a sheet the host has checked against `schema.SHEET`."""
    if not isinstance(doc, dict):
        return parse_sheet(char_id, doc, label, rules)  # raises: the file must be a mapping
    default_ap = rules.ap["default_max"] if rules is not None else 3
    resources = {k: (v["current"], v["max"]) for k, v in _set(doc, "resources", {}).items()}
    resources.setdefault("ap", (default_ap, default_ap))
    hp = _set(doc, "hp", {"current": 0, "max": 0})
    cards = {cid: parse_card(cid, c, label, checked=True) for cid, c in _set(doc, "cards", {}).items()}
    conc = doc.get("concentrating")
    heritage = _set(doc, "mixed_heritage", {})
    return Character(
        id=char_id, name=doc.get("name", char_id), attributes=dict(_set(doc, "attributes", {})),
        bonuses=dict(_set(doc, "bonuses", {})), concentration=doc.get("concentration", 0),
        augmentor=doc.get("augmentor"), ac=dict(_set(doc, "ac", {"physical": 10, "mental": 10})),
        hp=hp["current"], hp_max=hp["max"], reach=doc.get("reach", 1), resources=resources,
        actions=tuple(_set(doc, "actions", ())), cards=cards, charges=dict(_set(doc, "charges", {})),
        cooldowns={k: dict(v) for k, v in _set(doc, "cooldowns", {}).items()},
        concentrating=dict(conc) if conc else None, companions=tuple(_set(doc, "companions", ())),
        owner=doc.get("owner"), conditions=tuple(str(c) for c in _set(doc, "conditions", ())),
        level=doc.get("level"), focus_slots=doc.get("focus_slots"),
        levels=dict(doc["levels"]) if doc.get("levels") is not None else None,
        prepared=tuple(doc["prepared"]) if doc.get("prepared") is not None else None,
        heritage=tuple(_set(heritage, "cards", ())), ancestral_points=heritage.get("ancestral_points"),
    )


def _set(doc, key: str, empty):
    """doc[key] when it is given and not empty (null, {} and [] read as `empty`)."""
    return doc.get(key) or empty


def sheet_values(char: Character) -> dict:
    """The parts of a sheet the engine changes, in sheet shape (the store merges them key by key)."""
    return {
        "hp": {"current": char.hp, "max": char.hp_max},
        "resources": {k: {"current": c, "max": m} for k, (c, m) in char.resources.items()},
        "charges": dict(char.charges),
        "cooldowns": {k: dict(v) for k, v in char.cooldowns.items()},
        "concentrating": dict(char.concentrating) if char.concentrating else None,
        "conditions": list(char.conditions),
    }


def moved(sheets: dict) -> dict:
    """`undo`'s `state`: per character, the values that change from the sheet now to the one restored,
    as {char: {before, after}}; `sheets` maps each to (sheet now, sheet restored)."""
    state = {}
    for cid, (now_sheet, back_sheet) in sheets.items():
        now, back = sheet_values(now_sheet), sheet_values(back_sheet)
        state[cid] = {"before": {k: v for k, v in now.items() if v != back[k]},
                      "after": {k: v for k, v in back.items() if v != now[k]}}
    return state


def undo_fields(sheets: dict) -> dict:
    """The host's `undo_fields` hook: an undo entry logs `state` (what `moved` gives), as every d20-cards
    entry does, in place of `dice`."""
    return {"state": moved(sheets)}


def new_sheet(char_id: str, rules, *, name=None, attrs=(), acs=(), hp=10, ap=None,
              concentration=0, actions=(), cards=None) -> dict:
    """A fresh sheet mapping for `new` (the AP knob's default_max serves --ap); an attribute, AC kind or card
    (of `cards`, when given) that is not known is bad input with the closest known names."""
    from narateer_cli.kit import unknown

    from .schema import ATTRIBUTES

    ap = rules.ap["default_max"] if ap is None else ap
    attributes = {k: 0 for k in ATTRIBUTES}
    ac = {"physical": 10, "mental": 10}
    for table, what, pairs in ((attributes, "attribute", attrs), (ac, "AC kind", acs)):
        for key, value in pairs:
            if key not in table:
                raise unknown(what, key, table)
            table[key] = value
    for card in actions if cards is not None else ():
        if card not in cards:
            raise unknown("card", card, sorted(cards))
    return {"name": name or char_id, "attributes": attributes, "bonuses": {}, "concentration": concentration,
            "ac": ac, "hp": {"current": hp, "max": hp}, "reach": 1,
            "resources": {"ap": {"current": ap, "max": ap}}, "actions": list(actions), "charges": {},
            "cooldowns": {}, "concentrating": None, "companions": [], "conditions": []}


def card_for(char: Character, card_id: str, campaign_cards: dict) -> Card | None:
    """An inline card shadows the campaign card of its id for that character."""
    return char.cards.get(card_id) or campaign_cards.get(card_id)


def card_lookup(char: Character, campaign_cards):
    """`card_for` as a function of the card id, for the build's counts over other cards: a campaign card whose
    file is no regular file (a FIFO, a device) counts as unknown rather than being read."""
    regular = getattr(campaign_cards, "regular", None)

    def lookup(card_id):
        if card_id not in char.cards and regular is not None and not regular(card_id):
            return None
        return card_for(char, card_id, campaign_cards)
    return lookup


def fresh_sheet(doc, rules):
    """A copy starts fresh: full HP and resources, no conditions, cooldowns or Concentration."""
    for block in [doc.get("hp")] + list((doc.get("resources") or {}).values()):
        if isinstance(block, dict) and "max" in block:
            block["current"] = block["max"]
    for key, empty in (("conditions", []), ("cooldowns", {})):
        if doc.get(key):
            doc[key] = empty
    if doc.get("concentrating"):
        doc["concentrating"] = None
    return doc
