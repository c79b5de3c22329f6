"""The ruleset: every table and open-point knob of SPEC Part 2 as one value.

`build_ruleset(default, overrides)` merges a campaign's `rules:` over the
shipped defaults and validates the result, naming the key path of anything
invalid. The engine reads knobs only from a `Ruleset`, never from constants.
"""

from __future__ import annotations

from .record import Record

from narateer_cli.errors import BadInput
from narateer_cli.suggest import unknown

KNOBS = (
    "faces", "disadvantage", "edge_both", "reaction_boost", "roll_dice", "tiers",
    "dr", "random_dr_offset", "random_dr_dice", "readiness_off", "vitals", "skills",
    "refresh", "turn", "movement_costs", "exchange", "search_pay", "assist", "wound",
    "conditions", "limits",
)


class Ruleset(Record):
    _fields = ('faces', 'disadvantage', 'edge_both', 'reaction_boost', 'roll_dice', 'tiers', 'dr', 'random_dr_offset', 'random_dr_dice', 'readiness_off', 'vitals', 'skills', 'refresh_amount', 'refresh_timing', 'turn_order', 'first_round', 'mode_costs', 'difficult_factor', 'hidden_factor', 'sprint_ends_hiding', 'exchange', 'search_pay', 'assist_cost', 'assist_grants', 'wound_from', 'heal_to', 'conditions', 'max_roll_dice', 'max_state_dice')

    def tier_for(self, margin: int) -> str:
        """R-TIER-1 / A-TIERS: the outcome tier of a margin."""
        for start, name in self.tiers:
            if start is None or margin >= start:
                return name
        return self.tiers[-1][1]

    def pay_multiplier(self, conditions) -> int:
        """R-PAY-3: the product of the conditions' payment multipliers (Slowed x2)."""
        factor = 1
        for name in dict.fromkeys(conditions):  # R-PAY-4: a condition listed twice still applies once
            factor *= self.conditions.get(name, {}).get("pay_multiplier", 1)
        return factor

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
        """A DR given as a whole number or a tier name (A-DR)."""
        word = str(text).strip().lower()
        if word in self.dr:
            return self.dr[word], word
        try:
            value = int(word)
        except ValueError:
            error = unknown("DR tier", text, self.dr)
            raise BadInput(error.message, fix="give a whole number or one of: " + ", ".join(self.dr)) from None
        if value < 0 or value > self.max_roll_dice * 2:
            raise BadInput(f"DR {value} is out of range", fix=f"give a DR from 0 to {self.max_roll_dice * 2}")
        return value, str(value)


def merge(base: dict, over: dict) -> dict:
    """Key-by-key merge: mappings merge, every other value replaces."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            out[key] = merge(base[key], value)
        else:
            out[key] = value
    return out


class _Check:
    """Collects type checks with the key path of the value under test."""

    def __init__(self, where: str):
        self.where = where

    def fail(self, path: str, want: str):
        raise BadInput(f"{self.where}: rules.{path} must be {want}", fix="correct it or remove the override")

    def integer(self, value, path, low=None, high=None):
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, "a whole number")
        if (low is not None and value < low) or (high is not None and value > high):
            self.fail(path, f"a whole number from {low if low is not None else '-inf'} to {high if high is not None else 'inf'}")
        return value

    def choice(self, value, path, options):
        if value not in options:
            self.fail(path, "one of " + ", ".join(map(str, options)))
        return value

    def word_list(self, value, path):
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            self.fail(path, "a list of names")
        return tuple(v.lower() for v in value)

    def mapping(self, value, path):
        if not isinstance(value, dict):
            self.fail(path, "a mapping")
        return value


def build_ruleset(default: dict, overrides: dict | None = None, where: str = "narateer.yaml") -> Ruleset:
    """Merge `overrides` over `default` and validate every knob (A-FACES .. A-LIMITS)."""
    c = _Check(where)
    overrides = overrides or {}
    if not isinstance(overrides, dict):
        raise BadInput(f"{where}: rules must be a mapping of ruleset keys", fix="see the README's ruleset section")
    for key in overrides:
        if key not in KNOBS:
            error = unknown("ruleset key", f"rules.{key}", [f"rules.{k}" for k in KNOBS])
            raise BadInput(f"{where}: {error.message}", fix=error.fix)
    d = merge(default, overrides)

    faces = d["faces"]
    if not isinstance(faces, list) or not faces or not all(f in (0, 1, 2) and not isinstance(f, bool) for f in faces):
        c.fail("faces", "a non-empty list of face values 0, 1 or 2")
    tiers_raw = d["tiers"]
    if not isinstance(tiers_raw, list) or not tiers_raw:
        c.fail("tiers", "a list of {from, name} bands")
    tiers = []
    for i, band in enumerate(tiers_raw):
        c.mapping(band, f"tiers[{i}]")
        start = band.get("from")
        if start is not None:
            c.integer(start, f"tiers[{i}].from")
        if not isinstance(band.get("name"), str):
            c.fail(f"tiers[{i}].name", "a name")
        tiers.append((start, band["name"]))
    starts = [s for s, _ in tiers if s is not None]
    if starts != sorted(starts, reverse=True) or len(set(starts)) != len(starts) or tiers[-1][0] is not None:
        c.fail("tiers", "bands ordered from the highest `from` down, the last with from: null")
    dr = c.mapping(d["dr"], "dr")
    for name, value in dr.items():
        c.integer(value, f"dr.{name}", 0)
    vitals = c.word_list(d["vitals"], "vitals")
    skills = c.mapping(d["skills"], "skills")
    for name, vital in skills.items():
        c.choice(vital, f"skills.{name}", vitals)
    conditions = c.mapping(d["conditions"], "conditions")
    for name, effects in conditions.items():
        effects = effects or {}
        c.mapping(effects, f"conditions.{name}")
        for key, value in effects.items():
            if key == "pay_multiplier":
                c.integer(value, f"conditions.{name}.pay_multiplier", 1, 10)
            elif key == "reactions":
                c.choice(value, f"conditions.{name}.reactions", (True, False))
            else:
                c.fail(f"conditions.{name}.{key}", "pay_multiplier or reactions")
    readiness_off = c.word_list(d["readiness_off"], "readiness_off")
    for name in readiness_off:
        if name not in conditions:
            c.fail("readiness_off", "a list of known conditions")
    refresh = c.mapping(d["refresh"], "refresh")
    amount = refresh.get("amount")
    if amount != "all":
        c.integer(amount, "refresh.amount", 0)
    turn = c.mapping(d["turn"], "turn")
    move = c.mapping(d["movement_costs"], "movement_costs")
    modes = c.mapping(move.get("modes"), "movement_costs.modes")
    for name, value in modes.items():
        c.integer(value, f"movement_costs.modes.{name}", 0, 100)
    exch = c.mapping(d["exchange"], "exchange")
    for key in ("attack_cost", "guard_cost", "clash_cost"):
        c.integer(exch.get(key), f"exchange.{key}", 0, 100)
    c.choice(exch.get("skill"), "exchange.skill", list(skills))
    assist = c.mapping(d["assist"], "assist")
    wound = c.mapping(d["wound"], "wound")
    wound_from = c.word_list(wound.get("from"), "wound.from")
    for state in wound_from:
        c.choice(state, "wound.from", ("ready", "used"))
    limits = c.mapping(d["limits"], "limits")
    return Ruleset(
        faces=tuple(faces),
        disadvantage=c.choice(d["disadvantage"], "disadvantage", ("crits", "dotted")),
        edge_both=c.choice(d["edge_both"], "edge_both", ("cancel", "both")),
        reaction_boost=c.choice(d["reaction_boost"], "reaction_boost", (True, False)),
        roll_dice=c.choice(d["roll_dice"], "roll_dice", ("base_cost", "paid_base")),
        tiers=tuple(tiers),
        dr={str(k).lower(): v for k, v in dr.items()},
        random_dr_offset=c.integer(d["random_dr_offset"], "random_dr_offset", -100, 100),
        random_dr_dice=c.integer(d["random_dr_dice"], "random_dr_dice", 0, 100),
        readiness_off=readiness_off,
        vitals=vitals,
        skills={str(k).lower(): v for k, v in skills.items()},
        refresh_amount=None if amount == "all" else amount,
        refresh_timing=c.choice(refresh.get("timing"), "refresh.timing", ("activation_start", "manual")),
        turn_order=c.choice(turn.get("order"), "turn.order", ("actor_chooses",)),
        first_round=c.integer(turn.get("first_round"), "turn.first_round", 0),
        mode_costs={str(k): v for k, v in modes.items()},
        difficult_factor=c.integer(move.get("difficult"), "movement_costs.difficult", 1, 10),
        hidden_factor=c.integer(move.get("hidden"), "movement_costs.hidden", 1, 10),
        sprint_ends_hiding=c.choice(move.get("sprint_ends_hiding"), "movement_costs.sprint_ends_hiding", (True, False)),
        exchange=dict(exch),
        search_pay=c.choice(d["search_pay"], "search_pay", ("readiness", "refuse")),
        assist_cost=c.integer(assist.get("cost"), "assist.cost", 0, 100),
        assist_grants=c.choice(assist.get("grants"), "assist.grants", ("advantage",)),
        wound_from=wound_from,
        heal_to=c.choice(wound.get("heal_to"), "wound.heal_to", ("used", "ready")),
        conditions={str(k).lower(): dict(v or {}) for k, v in conditions.items()},
        max_roll_dice=c.integer(limits.get("dice_per_roll"), "limits.dice_per_roll", 1, 1_000_000),
        max_state_dice=c.integer(limits.get("dice_per_state"), "limits.dice_per_state", 1, 10**9),
    )
