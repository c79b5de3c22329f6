"""The d20-cards ruleset: the shipped `rules.yaml` merged with a campaign's `rules:`.

`build_ruleset(default, overrides, where)` validates every knob A-CARD-* by
its schema table and names the key path of anything wrong, with the closest
known key for a misspelt one. The engine reads knobs only from a `Ruleset`.
The YAML itself is parsed by the caller: this module never opens a file.
"""

from __future__ import annotations

from narateer_cli.errors import BadInput

from narateer_cli.record import Record
from .schema import ATTACK_ATTRS, Choice, DictOf, Either, Int, ListOf, Map, Nullable, Text, check

_NAMES = ListOf(Text())
_ATTRS = ListOf(Choice(*ATTACK_ATTRS))

RULES_SCHEMA = Map({
    "natural": Map({"twenty": Choice("none", "hit", "miss"), "one": Choice("none", "hit", "miss")}),
    "attack_ties": Choice("hit", "miss"),
    "save_ties": Choice("resist", "fail"),
    "save_bonus": Either(Choice("best_of_pair", "card_only"),
                         Map({"mental": Choice(*ATTACK_ATTRS), "physical": Choice(*ATTACK_ATTRS)},
                             required=("mental", "physical"))),
    "attributes": Map({"mind": _ATTRS, "body": _ATTRS}, required=("mind", "body")),
    "blind_penalty": Int(-100, 0),
    "beyond_range": ListOf(Choice("meter", "reach")),
    "blind_both": Choice("refuse", "penalty", "stack"),
    "edge": Map({"dice": Int(2, 2), "both": Choice("cancel", "disadvantage")}),
    "range": Map({"require_distance": Choice(True, False)}),
    "senses": Map({"unseen": _NAMES, "blind": _NAMES, "deaf": _NAMES, "mute": _NAMES}),
    "ap": Map({"refresh": Choice("max"), "timing": Choice("turn_start", "manual"),
               "outside_encounter": Choice("free", "spend"), "default_max": Int(0, 1000)}),
    "time": Map({"round_seconds": Nullable(Int(1, 86400))}),
    "rest": DictOf(Text(), Map({"charges": Choice("refill", "keep"), "ap": Choice("max", "keep"),
                                "cooldowns": Choice("end", "keep"), "hp": Choice("keep", "max"),
                                "concentration": Choice("keep", "drop")})),
    "concentration": Map({"dc": Int(0, 100), "bonus": Text(), "ties": Choice("keep", "drop"),
                          "on_second": Choice("refuse", "replace")}),
    "evolutionary": Choice("meet_or_beat", "roll_under"),
    "critical": Map({"hp_at_most": Int(-1_000_000)}),
    "dying": Map({"auto_hp_at_most": Nullable(Int(-1_000_000)), "drain": Int(0, 1000)}),
    "hp": Map({"floor": Nullable(Int(-1_000_000))}),
    "nullification": Choice("arcane_only", "every_card"),
    "tiers": DictOf(Int(0, 100), DictOf(Text(), Int(0, 1000))),
    "known_only": Choice(True, False),
    "reaction": Map({"own_turn": Choice(True, False)}),
    "discreet": Choice("reveal", "refuse"),
    "mobility_blocked_by": _NAMES,
    "companion": Map({"turn": Choice("owner", "own")}),
    "damage": Map({"roll": Choice("once", "per_target"), "on_save": Choice("none", "half", "full")}),
    "limits": Map({"targets": Int(1, 10_000), "dice": Int(1, 1_000_000), "number": Int(1, 10**9)}),
})

KNOBS = tuple(RULES_SCHEMA.fields)


class Ruleset(Record):
    """Every knob as an attribute (the merged, validated mapping)."""

    _fields = KNOBS

    def pair(self, kind: str) -> tuple:
        """A-CARD-ATTR: the attributes of `mental` (mind) or `physical` (body)."""
        return tuple(self.attributes["mind" if kind == "mental" else "body"])

    def ac_kind(self, attribute: str) -> str:
        """R-CARD-ATK-2: KNO/WIL meet Mental AC, FIN/PHY Physical AC."""
        return "mental" if attribute in self.attributes["mind"] else "physical"


def merge(base: dict, over: dict) -> dict:
    """Key-by-key merge: mappings merge, any other value replaces."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict) and key != "tiers":
            out[key] = merge(base[key], value)
        else:
            out[key] = value
    return out


def build_ruleset(default: dict, overrides: dict | None = None, where: str = "narateer.yaml",
                  locate=None, checked: bool = False) -> Ruleset:
    """Merge `overrides` over `default` and validate every knob; BadInput names the key path.
    `checked`: the host's config cache says these very files passed before, so the checks are skipped."""
    overrides = overrides or {}
    if not isinstance(overrides, dict):
        raise BadInput(f"{where}: rules must be a mapping of ruleset keys", fix="see rules.yaml of d20-cards")
    merged = merge(default, overrides)
    problems = [] if checked else check(overrides, Map(RULES_SCHEMA.fields), where, locate)
    problems += check(merged, RULES_SCHEMA, where, locate) if not (problems or checked) else []
    if problems:
        first = problems[0]  # without a locator the line is unknown: `check` finds the key's line itself
        place = f"{first.label}:{first.line}" if locate is not None else first.label
        raise BadInput(f"{place}: rules.{first.message}", fix="correct it or remove the override")
    missing = [k for k in KNOBS if k not in merged]
    if missing:
        raise BadInput(f"{where}: ruleset lacks {', '.join(missing)}", fix="restore the shipped rules.yaml")
    return Ruleset(**{k: merged[k] for k in KNOBS})
