"""Action cards as data (R-CARD-1..4): the `Card` record and its parser.

A card comes from `actions/<id>.yaml` or from a sheet's `cards:` mapping;
both go through `card_problems` (schema table plus the cross-field rules,
each problem with `file:line`) and `parse_card`. Nothing here reads a file:
callers pass the parsed mapping and a `locate(path) -> line` callable.
"""

from __future__ import annotations

import re

from narateer_cli.errors import BadInput

from narateer_cli.record import Record
from .schema import CARD_SCHEMA, ID_RE, UNITS, Problem, check

_DICE_RE = re.compile(r"^\s*(\d+)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")
UNIT_SECONDS = {"minutes": 60, "hours": 3600, "days": 86400}


class Dice(Record):
    """`count`d`sides` + `bonus`; a plain number is Dice(0, 0, N)."""

    _fields = ("count", "sides", "bonus")

    def __str__(self):
        if not self.count:
            return str(self.bonus)
        sign = f"{self.bonus:+d}" if self.bonus else ""
        return f"{self.count}d{self.sides}{sign}"


def parse_dice(value) -> Dice:
    if isinstance(value, int) and not isinstance(value, bool):
        return Dice(0, 0, value)
    match = _DICE_RE.match(str(value))
    if not match:
        raise BadInput(f"bad dice {value!r}", fix='write a whole number or dice such as "2d6+3"')
    count, sides, sign, bonus = match.groups()
    return Dice(int(count), int(sides), (-1 if sign == "-" else 1) * int(bonus or 0))


class Duration(Record):
    """A cooldown or maximum duration: `length` of `unit` (rounds, minutes, hours, days)."""

    _fields = ("unit", "length")

    def seconds(self) -> int | None:
        return None if self.unit == "rounds" else self.length * UNIT_SECONDS[self.unit]

    def __str__(self):
        word = self.unit[:-1] if self.length == 1 else self.unit
        return f"{self.length} {word}"


class Card(Record):
    _fields = ("id", "name", "cost", "cost_note", "tier", "source", "atk", "dc", "save", "range",
               "reach_bonus", "area", "targets", "cooldown", "charges", "recharge", "max_duration",
               "properties", "damage", "overkill", "damage_type", "on_save", "trigger",
               "evolutionary", "details")

    @property
    def kind(self) -> str:
        return "attack" if self.atk else "dc" if self.dc else "none"

    def has(self, prop: str) -> bool:
        return prop in self.properties

    @property
    def range_kind(self) -> str:
        """meter, reach, sight, vocal or self."""
        return "meter" if isinstance(self.range, (int, float)) else self.range


def _duration(value) -> Duration | None:
    if not value:
        return None
    unit = next(u for u in UNITS if u in value)
    return Duration(unit, value[unit])


# Rules across fields (R-CARD-1, R-CARD-ATK-7, R-CARD-DC-2, R-CARD-RANGE-6): key, test, message.
_CROSS_CHECKS = (
    ("dc", lambda d, p: d.get("atk") and d.get("dc"), "a card has an ATK attribute or a DC kind, not both (R-CARD-1)"),
    ("save", lambda d, p: d.get("save") and not d.get("dc"), "only a DC card names a save (R-CARD-DC-2)"),
    ("damage", lambda d, p: (d.get("damage") or {}).get("overkill") and not d.get("atk"),
     "only attack cards may have an Overkill modifier (R-CARD-ATK-7)"),
    ("on_save", lambda d, p: d.get("on_save") not in (None, "none") and not d.get("dc"),
     "only DC cards have on_save (R-CARD-DC-2)"),
    ("max_duration", lambda d, p: d.get("max_duration") and "concentration" not in p,
     "needs the concentration property"),
    ("evolutionary", lambda d, p: d.get("evolutionary") and "evolutionary" not in p, "needs the evolutionary property"),
    ("trigger", lambda d, p: d.get("trigger") and "reaction" not in p, "needs the reaction property"),
    ("area", lambda d, p: d.get("area") is not None and d.get("range") != "self",
     "only a Self card has an area (R-CARD-RANGE-6)"),
    ("properties", lambda d, p: len(set(p)) != len(p), "lists a property twice"),
    ("cooldown", lambda d, p: isinstance(d.get("cooldown"), dict) and len(d["cooldown"]) != 1,
     "give one unit: rounds, minutes, hours or days"),
    ("max_duration", lambda d, p: isinstance(d.get("max_duration"), dict) and len(d["max_duration"]) != 1,
     "give one unit: rounds, minutes, hours or days"),
)


def card_problems(card_id: str, doc, label: str, locate=None, base: tuple = ()) -> list[Problem]:
    """Every problem of one card (R-CARD-1, R-CARD-ATK-7), paths under `base` for inline cards."""
    def loc(path):
        return locate((*base, *path)) if locate else None

    problems = check(doc, CARD_SCHEMA, label, loc)
    if not ID_RE.match(str(card_id)):
        problems.append(Problem(label, loc(()) or 1, f"card id {card_id!r} is not letters, digits, - and _"))
    if problems or not isinstance(doc, dict):
        return problems

    for key, broken, message in _CROSS_CHECKS:
        if broken(doc, doc.get("properties") or []):
            problems.append(Problem(label, loc((key,)) or 1, f"{key}: {message}"))
    return problems


def parse_card(card_id: str, doc, label: str, locate=None, base: tuple = ()) -> Card:
    """The card as a record; BadInput with the first `file:line` problem when invalid."""
    problems = card_problems(card_id, doc, label, locate, base)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise BadInput(f"{problems[0]}{more}", fix="correct the card; narateer check lists every problem")
    cost = doc.get("cost", {})
    cost = {"ap": cost} if isinstance(cost, int) else dict(cost)
    charges = doc.get("charges") or {}
    damage = doc.get("damage") or {}
    return Card(
        id=card_id, name=doc["name"], cost=cost, cost_note=doc.get("cost_note"),
        tier=doc.get("tier", 0), source=doc.get("source"), atk=doc.get("atk"), dc=doc.get("dc"),
        save=doc.get("save"), range=doc["range"], reach_bonus=doc.get("reach_bonus", 0),
        area=doc.get("area"), targets=doc.get("targets", 1), cooldown=_duration(doc.get("cooldown")),
        charges=charges.get("max"), recharge=charges.get("recharge", "proper") if charges else None,
        max_duration=_duration(doc.get("max_duration")), properties=tuple(doc.get("properties") or ()),
        damage=parse_dice(damage["amount"]) if damage else None, overkill=damage.get("overkill", 0),
        damage_type=damage.get("type"), on_save=doc.get("on_save"), trigger=doc.get("trigger"),
        evolutionary=dict(doc["evolutionary"]) if doc.get("evolutionary") else None,
        details=doc.get("details"),
    )
