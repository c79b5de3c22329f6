"""Action cards as data (id, cost, tier, range, cooldown, properties): the `Card` record and its parser.

A card comes from `actions/<id>.yaml` or from a sheet's `cards:` mapping;
both go through `card_problems` (the schema table `schema.CARD`, its rules
across keys included, each problem a host `Problem` with its line) and
`parse_card`. Nothing here reads a file: callers pass the parsed mapping (a
round-trip document knows its lines).
"""

from __future__ import annotations

from typing import Any

from narateer_cli.kit import BadInput

from narateer_cli.kit import Record
from .schema import DICE_RE as _DICE_RE
from .schema import CARD, DICE_FIX, ID_RE, UNITS, dice_over_limit, line
UNIT_SECONDS = {"minutes": 60, "hours": 3600, "days": 86400}


class Dice(Record):
    """`count`d`sides` + `bonus`; a plain number is Dice(0, 0, N)."""

    count: Any
    sides: Any
    bonus: Any

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
    over = dice_over_limit(count, sides, bonus)
    if over:  # sizes are capped: also when a cached check skipped the schema, and for dice typed at the prompt
        raise BadInput(f"dice {value!r}: {over}", rule="G-PRIV-6", fix=DICE_FIX)
    return Dice(int(count), int(sides), (-1 if sign == "-" else 1) * int(bonus or 0))


class Duration(Record):
    """A cooldown or maximum duration: `length` of `unit` (rounds, minutes, hours, days)."""

    unit: Any
    length: Any

    def seconds(self) -> int | None:
        return None if self.unit == "rounds" else self.length * UNIT_SECONDS[self.unit]

    def __str__(self):
        word = self.unit[:-1] if self.length == 1 else self.unit
        return f"{self.length} {word}"


class Card(Record):
    id: Any
    name: Any
    cost: Any
    cost_note: Any
    tier: Any
    source: Any
    atk: Any
    dc: Any
    save: Any
    range: Any
    reach_bonus: Any
    area: Any
    targets: Any
    cooldown: Any
    charges: Any
    recharge: Any
    max_duration: Any
    properties: Any
    damage: Any
    overkill: Any
    damage_type: Any
    on_save: Any
    trigger: Any
    evolutionary: Any
    details: Any

    @property
    def kind(self) -> str:
        return "attack" if self.atk else "dc" if self.dc else "none"

    def has(self, prop: str) -> bool:
        return prop in self.properties

    @property
    def range_kind(self) -> str:
        """meter, reach, sight, vocal or self."""
        return "meter" if isinstance(self.range, (int, float)) else self.range


def dc_attribute(kind: str) -> str:
    """The 1st-rank attribute of an Action DC: Mind for Mental, Body for Physical."""
    return "mind" if kind == "mental" else "body"


def _duration(value) -> Duration | None:
    if not value:
        return None
    unit = next(u for u in UNITS if u in value)
    return Duration(unit, value[unit])


def card_problems(card_id: str, doc, label: str, base: tuple = ()) -> list:
    """Every problem of one card (its fields; Overkill on attack cards only) as host `Problem`s, keys under `base` for
    inline cards (`("cards", "jab")`)."""
    from narateer_cli.kit import Problem, problems

    found = problems(doc, CARD, label, None, path=".".join(map(str, base)))
    if not ID_RE.fullmatch(str(card_id)):
        found.append(Problem(label, 1, ".".join(map(str, base)), f"card id {card_id!r} is not 1 to 64 letters, digits, - and _",
                             "rename the file"))
    return found


def parse_card(card_id: str, doc, label: str, base: tuple = (), checked: bool = False) -> Card:
    """The card as a record; BadInput with the first `file:line` problem when invalid (`checked`: the
    sheet holding it was checked already)."""
    found = [] if checked else card_problems(card_id, doc, label, base)
    if found:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise BadInput(f"{line(found[0])}{more}", fix="correct the card; narateer check lists every problem",
                       rule=found[0].rule)
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
