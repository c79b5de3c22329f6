"""d20-cards' sheets and cards as `narateer_cli.store.schema` tables: a misspelt key is bad input, with the nearest
known one.

The host's validator walks a document against them and gives every problem
as a `Problem` (file, line, key, message, fix). Tables only: the known keys
per map, types and ranges, plus the few rules across keys of a card
(Overkill on attack cards only, a save's outcome, a Self card's area). A sheet's or card's
top-level map keeps unknown keys, but a near miss of a known one is an error
(a misspelt `cost:` would make a card free). Conditions stay free-form, but
never a near miss of one the rules read (`immobilised`).
"""

from __future__ import annotations

import re

from narateer_cli.kit import Choice, Either, Int, Map, Name, Nullable, Num, Or, Problem, Seq, Text

from .names import RECHARGES, RESOURCES, known_conditions

ID_RE = re.compile(r"\A[A-Za-z0-9_-]{1,64}\Z")  # the host's ids; `$` let "jab\n" through
LIMIT = 1_000_000
ATTACK_ATTRS = ("kno", "wil", "fin", "phy")
ATTRIBUTES = (*ATTACK_ATTRS, "mind", "body")  # the attack attributes, then the 1st-rank ones
PROPERTIES = ("arcane", "companionship", "concentration", "discreet", "evolutionary",
              "mobility", "reaction", "swan_song", "touch")
UNITS = ("rounds", "minutes", "hours", "days")
DICE_RE = re.compile(r"^\s*([1-9]\d*)\s*[dD]\s*([1-9]\d*)\s*(?:([+-])\s*(\d+))?\s*$")
# Sizes an attacker controls are capped: a card arrives by git, and exact odds convolve its dice, so their size is
# bounded before any work: at most MAX_DICE dice of at most MAX_FACES faces (100d100 takes `odds` under half a second),
# a bonus of at most LIMIT. Fixed here, not a ruleset knob: a campaign's own narateer.yaml cannot lift them.
MAX_DICE = 100
MAX_FACES = 100
DICE_FIX = f"write at most {MAX_DICE} dice of at most {MAX_FACES} faces and a bonus up to {LIMIT:,}"

ID = Text(pattern=ID_RE, want="an id (1 to 64 letters, digits, - and _)")
TEXT = Text(word=True)


def dice_over_limit(count: str, sides: str, bonus: str | None) -> str | None:
    """What in `COUNTdSIDES+BONUS` (digits as written) is past its limit, or None."""
    if len(count) > 4 or int(count) > MAX_DICE:
        return f"{count} dice is over the limit of {MAX_DICE}"
    if len(sides) > 4 or int(sides) > MAX_FACES:
        return f"a d{sides} is over the limit of {MAX_FACES} faces"
    if bonus and (len(bonus) > 8 or int(bonus) > LIMIT):
        return f"a bonus of {bonus} is over the limit of {LIMIT:,}"
    return None


class DiceText(Text):
    """Dice such as "2d6+3", within the size limits (`check` names the limit and the fix)."""

    def __init__(self):
        super().__init__(pattern=DICE_RE, want='dice such as "2d6+3"')

    def walk(self, value, path, place, out, ctx):
        before = len(out)
        super().walk(value, path, place, out, ctx)
        if len(out) > before:
            return
        match = DICE_RE.match(value)
        assert match is not None  # Text's walk added no problem, so the value fits DICE_RE
        count, sides, _, bonus = match.groups()
        over = dice_over_limit(count, sides, bonus)
        if over:
            # the fix is in the message too: `check` prints messages only
            ctx.add(out, place, path, f"{path} {value!r}: {over}; {DICE_FIX}", "correct the card", rule="G-PRIV-6")


def whole(low=0, high=LIMIT) -> Int:
    return Int(low, high)


def line(problem) -> str:
    """A problem as `file:line: message` (the form `check_files` and the refusals give)."""
    return f"{problem.file}:{problem.line}: {problem.message}"


# Rules across keys of a card: key, test, message, the rule it cites (for --json, never in the text a person reads).
_CROSS_CHECKS = (
    ("dc", lambda d, p: d.get("atk") and d.get("dc"), "a card has an ATK attribute or a DC kind, not both", "R-CARD-1"),
    ("save", lambda d, p: d.get("save") and not d.get("dc"), "only a DC card names a save", "R-CARD-DC-2"),
    ("damage", lambda d, p: (d.get("damage") or {}).get("overkill") and not d.get("atk"),
     "only attack cards may have an Overkill modifier", "R-CARD-ATK-7"),
    ("on_save", lambda d, p: d.get("on_save") not in (None, "none") and not d.get("dc"),
     "only DC cards have on_save", "R-CARD-DC-2"),
    ("max_duration", lambda d, p: d.get("max_duration") and "concentration" not in p,
     "needs the concentration property", None),
    ("evolutionary", lambda d, p: d.get("evolutionary") and "evolutionary" not in p, "needs the evolutionary property",
     None),
    ("trigger", lambda d, p: d.get("trigger") and "reaction" not in p, "needs the reaction property", None),
    ("area", lambda d, p: d.get("area") is not None and d.get("range") != "self",
     "only a Self card has an area", "R-CARD-RANGE-6"),
    ("properties", lambda d, p: len(set(p)) != len(p), "lists a property twice", None),
    ("cooldown", lambda d, p: isinstance(d.get("cooldown"), dict) and len(d["cooldown"]) != 1,
     "give one unit: rounds, minutes, hours or days", None),
    ("max_duration", lambda d, p: isinstance(d.get("max_duration"), dict) and len(d["max_duration"]) != 1,
     "give one unit: rounds, minutes, hours or days", None),
)


class CardMap(Map):
    """A card's map; once its keys and values fit, the rules across keys (`_CROSS_CHECKS`)."""

    def walk(self, value, path, place, out, ctx):
        before = len(out)
        super().walk(value, path, place, out, ctx)
        if len(out) > before or not isinstance(value, dict):
            return
        properties = value.get("properties") or []
        for key, broken, message, rule in _CROSS_CHECKS:
            if broken(value, properties):
                sub = self.sub(path, key)
                out.append(Problem(ctx.label, ctx.line(value, key, place), sub, f"{sub}: {message}",
                                   "correct the card", rule=rule))


class Condition(Name):
    """A sheet's condition `NAME[:N]`: free-form, but never a near miss of one the rules read."""

    def walk(self, value, path, place, out, ctx):
        name, colon, level = str(value).partition(":")
        if colon and not level.strip().isdigit():  # `nullified:N`, N a tier
            ctx.add(out, place, path, f"{path}: bad condition level in {str(value)!r}",
                    f"write a whole number after the colon, e.g. {name.strip()}:1")
            return
        super().walk(name.strip(), path, place, out, ctx)


_DURATION = Map({u: whole(1) for u in UNITS})

CARD = CardMap({
    "name": TEXT,
    "cost": Either(whole(), Map(key=Name(RESOURCES, "resource", new=True), values=whole())),
    "cost_note": TEXT,
    "tier": whole(0, 100),
    "source": Nullable(TEXT),
    "atk": Nullable(Choice(*ATTACK_ATTRS)),
    "dc": Nullable(Choice("mental", "physical")),
    "save": Nullable(Choice(*ATTACK_ATTRS)),
    "range": Or(Num(0, LIMIT), Choice("reach", "sight", "vocal", "self")),
    "reach_bonus": Num(0, LIMIT),
    "area": Nullable(Num(0, LIMIT)),
    "targets": whole(1, 100),
    "cooldown": Nullable(_DURATION),
    "charges": Nullable(Map({"max": whole(1), "recharge": Name(RECHARGES, "recharge kind", new=True)},
                            required=("max",))),
    "max_duration": Nullable(_DURATION),
    "properties": Seq(Choice(*PROPERTIES), indexed=True, max_items=100),
    "damage": Nullable(Map({"amount": Or(whole(), DiceText()),
                            "overkill": whole(), "type": TEXT}, required=("amount",))),
    "on_save": Nullable(Choice("none", "half", "full")),
    "trigger": Nullable(TEXT),
    "evolutionary": Nullable(Map({"on_success": TEXT, "on_failure": TEXT, "failure_stops": Choice(True, False)})),
    "details": Nullable(TEXT),
}, required=("name", "range"), open="strict")

_POOL = Map({"current": whole(-LIMIT), "max": whole()}, required=("current", "max"))
_STATE_DURATION = Map({"rounds": whole(0), "until": whole(0)})

SHEET = Map({
    "name": TEXT,
    "attributes": Map({a: whole(-LIMIT) for a in ATTRIBUTES}),
    "bonuses": Map(key=Choice(*ATTACK_ATTRS), values=whole(-LIMIT)),
    "concentration": whole(-LIMIT),
    "augmentor": whole(0, 100),
    "ac": Map({"physical": whole(), "mental": whole()}, required=("physical", "mental")),
    "hp": _POOL,
    "reach": Num(0, LIMIT),
    "resources": Map(key=Name(RESOURCES, "resource", new=True), values=_POOL),
    "actions": Seq(ID, indexed=True, max_items=1000),
    "cards": Map(key=ID, values=CARD),
    "charges": Map(key=ID, values=whole()),
    "cooldowns": Map(key=ID, values=_STATE_DURATION),
    "concentrating": Nullable(Map({"card": ID, "rounds": whole(0), "until": whole(0)}, required=("card",))),
    "companions": Seq(ID, indexed=True, max_items=100),
    "owner": Nullable(ID),
    "conditions": Seq(Condition(known_conditions, "condition", new=True), indexed=True, max_items=100),
    "level": whole(0, 1000),
    "levels": Map(key=TEXT, values=whole(0, 1000)),
    "prepared": Seq(ID, indexed=True, max_items=1000),
    "focus_slots": whole(0, 1000),
    "mixed_heritage": Map({"ancestral_points": whole(0, 1000), "cards": Seq(ID, indexed=True, max_items=1000)}),
}, required=("name", "ac", "hp"), open="strict")
