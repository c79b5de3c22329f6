"""The ruleset: every table and open-point knob of the rules (docs/rules/narateer.md) as one value.

`build_ruleset(default, overrides)` merges a campaign's `rules:` over the
shipped defaults and validates the result, naming the key path of anything
invalid. The engine reads knobs only from a `Ruleset`, never from constants.
"""

from __future__ import annotations

from typing import Any

from narateer_cli.kit import BadInput

from narateer_cli.kit import merge_rules as merge
from narateer_cli.kit import Record

KNOBS = (
    "faces", "disadvantage", "edge_both", "reaction_boost", "roll_dice", "tiers",
    "dr", "random_dr_offset", "random_dr_dice", "readiness_off", "vitals", "skills",
    "refresh", "turn", "movement_costs", "exchange", "search_pay", "assist", "wound",
    "conditions", "limits", "magic", "traits",
)


class Ruleset(Record):
    faces: Any
    disadvantage: Any
    edge_both: Any
    reaction_boost: Any
    roll_dice: Any
    tiers: Any
    dr: Any
    random_dr_offset: Any
    random_dr_dice: Any
    readiness_off: Any
    vitals: Any
    skills: Any
    refresh_amount: Any
    refresh_timing: Any
    turn_order: Any
    first_round: Any
    mode_costs: Any
    difficult_factor: Any
    hidden_factor: Any
    sprint_ends_hiding: Any
    exchange: Any
    search_pay: Any
    assist_cost: Any
    assist_grants: Any
    wound_from: Any
    heal_to: Any
    wound_out: Any
    conditions: Any
    max_roll_dice: Any
    max_state_dice: Any
    magic: Any = None
    traits: Any = None

    def tier_for(self, margin: int) -> str:
        """The outcome tier of a margin."""
        for start, name in self.tiers:
            if start is None or margin >= start:
                return name
        return self.tiers[-1][1]

    def pay_multiplier(self, conditions) -> int:
        """The product of the conditions' payment multipliers (Slowed x2)."""
        factor = 1
        for name in dict.fromkeys(conditions):  # a condition listed twice still applies once
            factor *= self.conditions.get(name, {}).get("pay_multiplier", 1)
        return factor

    def unseen_by(self, conditions) -> tuple[str, str] | None:
        """The first condition that makes its creature unseen by everyone (invisible), and what an attack on it
        does (refuse, or disadvantage); None when none does."""
        for name in conditions:
            rule = self.conditions.get(name, {}).get("unseen")
            if rule:
                return name, rule
        return None

    def blocks_reactions(self, conditions) -> str | None:
        for name in conditions:
            if self.conditions.get(name, {}).get("reactions") is False:
                return name
        return None

    def readiness_off_by(self, conditions) -> str | None:
        for name in conditions:
            if name in self.readiness_off:
                return name
        return None

    def dr_value(self, text) -> tuple[int, str]:
        """A DR given as a whole number or a tier name."""
        word = str(text).strip().lower()
        if word in self.dr:
            return self.dr[word], word
        try:
            value = int(word)
        except ValueError:
            from narateer_cli.kit import unknown

            error = unknown("DR tier", text, self.dr)
            raise BadInput(error.message, fix="give a whole number or one of: " + ", ".join(self.dr)) from None
        if value < 0 or value > self.max_roll_dice * 2:
            raise BadInput(f"DR {value} is out of range", fix=f"give a DR from 0 to {self.max_roll_dice * 2}")
        return value, str(value)




def build_ruleset(default: dict, overrides: dict | None = None, where: str = "narateer.yaml",
                  checked: bool = False) -> Ruleset:
    """Merge `overrides` over `default` and check every knob against the RULES table.
    `checked`: the same data passed these checks before (the host's config cache), so they are skipped."""
    overrides = overrides or {}
    if not isinstance(overrides, dict):
        raise BadInput(f"{where}: rules must be a mapping of ruleset keys", fix="see the README's ruleset section")
    for key in overrides:
        if key not in KNOBS:
            from narateer_cli.kit import unknown

            error = unknown("ruleset key", key, KNOBS)
            raise BadInput(f"{where}: {error.message.replace(repr(str(key)), repr(f'rules.{key}'), 1)}", fix=error.fix)
    d = merge(default, overrides)
    if not checked:
        from narateer_cli.kit import problems

        from ..schema import RULES

        for problem in problems(d, RULES, where, d, path="rules"):
            raise BadInput(f"{where}: {problem.message}", fix=problem.fix or "correct it or remove the override")
    return _ruleset(d, _tiers(d["tiers"], where))


def _tiers(bands: list, where: str) -> tuple:
    """Outcome tiers: bands from the highest `from` down, each start once, the last catching the rest (from: null)."""
    tiers = tuple((band.get("from"), band["name"]) for band in bands)
    starts = [start for start, _ in tiers if start is not None]
    if starts != sorted(starts, reverse=True) or len(set(starts)) != len(starts) or tiers[-1][0] is not None:
        raise BadInput(f"{where}: rules.tiers must be bands ordered from the highest `from` down, "
                       "the last with from: null", fix="correct it or remove the override")
    return tiers


def _ruleset(d: dict, tiers: tuple) -> Ruleset:
    """The checked ruleset data as the engine's value."""
    refresh, turn, move, assist, wound, limits = (d[k] for k in ("refresh", "turn", "movement_costs", "assist",
                                                                 "wound", "limits"))
    return Ruleset(
        faces=tuple(d["faces"]), disadvantage=d["disadvantage"], edge_both=d["edge_both"],
        reaction_boost=d["reaction_boost"], roll_dice=d["roll_dice"], tiers=tiers,
        dr={str(k).lower(): v for k, v in d["dr"].items()},
        random_dr_offset=d["random_dr_offset"], random_dr_dice=d["random_dr_dice"],
        readiness_off=tuple(v.lower() for v in d["readiness_off"] or ()),
        vitals=tuple(v.lower() for v in d["vitals"]),
        skills={str(k).lower(): v for k, v in d["skills"].items()},
        refresh_amount=None if refresh["amount"] == "all" else refresh["amount"], refresh_timing=refresh["timing"],
        turn_order=turn["order"], first_round=turn["first_round"],
        mode_costs={str(k): v for k, v in move["modes"].items()}, difficult_factor=move["difficult"],
        hidden_factor=move["hidden"], sprint_ends_hiding=move["sprint_ends_hiding"],
        exchange=dict(d["exchange"]), search_pay=d["search_pay"],
        assist_cost=assist["cost"], assist_grants=assist["grants"],
        wound_from=tuple(wound["from"] or ()), heal_to=wound["heal_to"], wound_out=wound.get("out"),
        conditions={str(k).lower(): dict(v or {}) for k, v in d["conditions"].items()},
        max_roll_dice=limits["dice_per_roll"], max_state_dice=limits["dice_per_state"],
        magic=dict(d.get("magic") or {}),
        traits=dict(d["traits"]),
    )
