"""The d20-cards ruleset: the shipped `rules.yaml` merged with a campaign's `rules:`.

`build_ruleset(default, overrides, where)` validates every knob by
its `narateer_cli.store.schema` table and names the key path of anything
wrong, with the closest known key for a misspelt one. The engine reads knobs only from a `Ruleset`.
The YAML itself is parsed by the caller: this module never opens a file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from narateer_cli.kit import BadInput

from narateer_cli.kit import Record
from narateer_cli.kit import Choice, Either, Int, Map, Nullable, Seq, Text

from .schema import ATTACK_ATTRS

_NAMES = Seq(Text(word=True), indexed=True)
_ATTRS = Seq(Choice(*ATTACK_ATTRS), indexed=True)

_KNOB_NODES = {
    "natural": Map({"twenty": Choice("none", "hit", "miss"), "one": Choice("none", "hit", "miss")}),
    "attack_ties": Choice("hit", "miss"),
    "save_ties": Choice("resist", "fail"),
    "save_bonus": Either(Choice("best_of_pair", "card_only"),
                         Map({"mental": Choice(*ATTACK_ATTRS), "physical": Choice(*ATTACK_ATTRS)},
                             required=("mental", "physical"))),
    "attributes": Map({"mind": _ATTRS, "body": _ATTRS}, required=("mind", "body")),
    "blind_penalty": Int(-100, 0),
    "beyond_range": Seq(Choice("meter", "reach")),
    "blind_both": Choice("refuse", "penalty", "stack"),
    "edge": Map({"dice": Int(2, 2), "both": Choice("cancel", "disadvantage")}),
    "range": Map({"require_distance": Choice(True, False)}),
    "senses": Map({"unseen": _NAMES, "blind": _NAMES, "deaf": _NAMES, "mute": _NAMES}),
    "ap": Map({"refresh": Choice("max"), "timing": Choice("turn_start", "manual"),
               "outside_encounter": Choice("free", "spend"), "default_max": Int(0, 1000)}),
    "time": Map({"round_seconds": Nullable(Int(1, 86400))}),
    "rest": Map(values=Map({"charges": Choice("refill", "keep"), "ap": Choice("max", "keep"),
                                "cooldowns": Choice("end", "keep"), "hp": Choice("keep", "max"),
                                "concentration": Choice("keep", "drop")})),
    "concentration": Map({"dc": Int(0, 100), "bonus": Text(word=True), "ties": Choice("keep", "drop"),
                          "on_second": Choice("refuse", "replace")}),
    "evolutionary": Choice("meet_or_beat", "roll_under"),
    "critical": Map({"hp_at_most": Int(-1_000_000), "acts": Choice("swan_song", "any")}),
    "dying": Map({"auto_hp_at_most": Nullable(Int(-1_000_000)), "drain": Int(0, 1000)}),
    "hp": Map({"floor": Nullable(Int(-1_000_000))}),
    "nullification": Choice("arcane_only", "every_card"),
    "tiers": Map(key=Int(0, 100), values=Map({"prerequisite": Int(0, 1000), "focus_slots": Int(0, 1000),
                                              "ancestral_points": Int(0, 1000), "level": Int(0, 1000)})),
    "known_only": Choice(True, False),
    "reaction": Map({"own_turn": Choice(True, False)}),
    "discreet": Choice("reveal", "refuse"),
    "mobility_blocked_by": _NAMES,
    "companion": Map({"turn": Choice("owner", "own")}),
    "damage": Map({"roll": Choice("once", "per_target"), "on_save": Choice("none", "half", "full")}),
    "limits": Map({"targets": Int(1, 10_000), "dice": Int(1, 10_000), "number": Int(1, 10**9)}),  # capped: dice per act
}
RULES_SCHEMA = Map(_KNOB_NODES)

KNOBS = tuple(_KNOB_NODES)


class Ruleset(Record):
    """Every knob as an attribute (the merged, validated mapping)."""

    _fields = KNOBS

    if TYPE_CHECKING:  # each knob is a field, named by the schema rather than annotated here
        def __getattr__(self, knob: str) -> Any: ...

    def pair(self, kind: str) -> tuple:
        """The attributes of `mental` (mind) or `physical` (body)."""
        return tuple(self.attributes["mind" if kind == "mental" else "body"])

    def ac_kind(self, attribute: str) -> str:
        """KNO/WIL meet Mental AC, FIN/PHY Physical AC."""
        return "mental" if attribute in self.attributes["mind"] else "physical"


def merge(base: dict, over: dict) -> dict:
    """Key-by-key merge: mappings merge, any other value replaces."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            out[key] = merge(base[key], value)
        else:
            out[key] = value
    return out


def build_ruleset(default: dict, overrides: dict | None = None, where: str = "narateer.yaml",
                  checked: bool = False) -> Ruleset:
    """Merge `overrides` over `default` and validate every knob; BadInput names the key path.
    `checked`: the host's config cache says these very files passed before, so the checks are skipped."""
    overrides = overrides or {}
    if not isinstance(overrides, dict):
        raise BadInput(f"{where}: rules must be a mapping of ruleset keys", fix="see rules.yaml of d20-cards")
    merged = merge(_tiers_by_number(default), _renamed_tiers(_tiers_by_number(overrides)))
    if not checked:  # the overrides first, for their lines in a round-trip document; then the whole
        from narateer_cli.kit import problems

        found = problems(_tiers_by_number(overrides), RULES_SCHEMA, where, None, path="rules")
        lined = bool(found) and hasattr(overrides, "lc")
        found = found or problems(merged, RULES_SCHEMA, where, None, path="rules")
        if found:  # without a line the host's `check` finds the line of the key the message names
            place = f"{where}:{found[0].line}" if lined else where
            raise BadInput(f"{place}: {found[0].message}", fix=found[0].fix or "correct it or remove the override")
    missing = [k for k in KNOBS if k not in merged]
    if missing:
        raise BadInput(f"{where}: ruleset lacks {', '.join(missing)}", fix="restore the shipped rules.yaml")
    merged["tiers"] = {tier: {**dict.fromkeys(TIER_KEYS, 0), **_renamed(row)} for tier, row in merged["tiers"].items()}
    return Ruleset(**{k: merged[k] for k in KNOBS})


TIER_KEYS = ("prerequisite", "focus_slots", "ancestral_points")


def _tiers_by_number(doc):
    """`doc` with its `tiers` keyed by whole numbers (a cached copy of the rules has them as text), so that a
    campaign's tier merges with the shipped one of its number."""
    tiers = doc.get("tiers") if isinstance(doc, dict) else None
    if not isinstance(tiers, dict):
        return doc
    if not any(isinstance(k, str) and k.isdigit() for k in tiers):
        return doc  # as written (a round-trip document keeps its lines)
    keyed = {int(k) if isinstance(k, str) and k.isdigit() else k: v for k, v in tiers.items()}
    return {**doc, "tiers": keyed}


def _renamed_tiers(doc):
    """`doc` with each tier of its `tiers` renamed (`_renamed`), so that `level` replaces the shipped
    prerequisite of its tier."""
    tiers = doc.get("tiers") if isinstance(doc, dict) else None
    if not isinstance(tiers, dict):
        return doc
    return {**doc, "tiers": {k: _renamed(v) if isinstance(v, dict) else v for k, v in tiers.items()}}


def _renamed(row) -> dict:
    """A tier's entry with `level`, the older name of `prerequisite`, under the new name (`prerequisite` wins
    when both are given)."""
    row = dict(row)
    level = row.pop("level", None)
    if level is not None:
        row.setdefault("prerequisite", level)
    return row
