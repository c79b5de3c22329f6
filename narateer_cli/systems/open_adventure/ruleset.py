"""Open Adventure's ruleset: every knob under `rules:` as one frozen value.

`build(default, overrides, where)` merges a campaign's `rules:` over the
shipped `rules.yaml` and validates every value, naming its key path. The
engine reads knobs only from an `OARules`, never from constants.
"""

from __future__ import annotations

from typing import Any, NoReturn

from narateer_cli.kit import BadInput

from narateer_cli.kit import merge_rules as merge
from .names import suggest
from narateer_cli.kit import Record

KNOBS = ("chart", "explode", "critical_failure", "opposed", "effect", "specializations", "time",
         "min_action_score", "multi", "stunt", "wound", "attributes", "ds", "turn", "limits")
# knobs whose value is a mapping with a fixed set of keys
FIXED = {"explode": ("dice", "cap"), "critical_failure": ("faces", "always_fails"),
         "opposed": ("tie", "opponent_uses_major", "opponent_below_min"),
         "effect": ("min", "flat_takes_bonus"), "specializations": ("stack",), "time": ("chart", "round"),
         "min_action_score": ("value", "compare"), "stunt": ("min_fail_loss", "npc_loss", "compare"),
         "wound": ("per_zero",), "attributes": ("body", "mind", "spirit"), "turn": ("order", "ties"),
         "chart": ("rows", "beyond"),
         "limits": ("action_score", "ds", "count", "targets", "faces_per_chain", "points")}
GROUPS = ("body", "mind", "spirit")
UNITS = {"s": 1, "sec": 1, "second": 1, "seconds": 1, "min": 60, "minute": 60, "minutes": 60, "m": 60,
         "h": 3600, "hour": 3600, "hours": 3600, "d": 86400, "day": 86400, "days": 86400,
         "w": 604800, "week": 604800, "weeks": 604800, "mo": 2592000, "month": 2592000, "months": 2592000}


class OARules(Record):
    rows: Any
    beyond: Any
    explode_all: Any
    explode_cap: Any
    crit_faces: Any
    crit_always_fails: Any
    opp_tie: Any
    opp_uses_major: Any
    opp_below_min: Any
    effect_min: Any
    flat_takes_bonus: Any
    spec_stack: Any
    time_chart: Any
    round_seconds: Any
    min_as: Any
    min_as_compare: Any
    multi: Any
    stunt_min_fail_loss: Any
    stunt_npc_loss: Any
    stunt_compare: Any
    wound_per_zero: Any
    groups: Any
    ds_tiers: Any
    turn_order: Any
    turn_ties: Any
    limits: Any
    data: Any

    def group_of(self, attribute: str) -> str | None:
        for group, names in self.groups.items():
            if attribute in names:
                return group
        return None

    @property
    def body_attributes(self) -> tuple:
        return self.groups["body"]

    @property
    def mind_attributes(self) -> tuple:
        return self.groups["mind"]

    @property
    def spirit_attributes(self) -> tuple:
        return self.groups["spirit"]

    @property
    def group_names(self) -> tuple:
        return GROUPS

    @property
    def max_points(self) -> int:
        return self.limits["points"]

    @property
    def attributes(self) -> tuple:
        return tuple(a for names in self.groups.values() for a in names)




def duration_seconds(text) -> int | None:
    """`15min`, `15 min`, `1h`, `6s` -> seconds; None when it is not a duration."""
    word = str(text).strip().lower().replace(" ", "")
    digits = ""
    while word and word[0].isdigit():
        digits, word = digits + word[0], word[1:]
    if not digits or word not in UNITS:
        return None
    return int(digits) * UNITS[word]


class _Check:
    def __init__(self, where: str):
        self.where = where

    def fail(self, path: str, want: str, rule: str | None = None) -> NoReturn:
        raise BadInput(f"{self.where}: rules.{path} must be {want}", fix="correct it or remove the override", rule=rule)

    def integer(self, value, path, low=None, high=None, null=False):
        if value is None and null:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, "a whole number" + (" or null" if null else ""))
        if (low is not None and value < low) or (high is not None and value > high):
            self.fail(path, f"a whole number from {low} to {high if high is not None else 'any'}")
        return value

    def choice(self, value, path, options):
        if isinstance(value, bool) and not all(isinstance(o, bool) for o in options):
            self.fail(path, "one of " + ", ".join(map(str, options)))
        if value not in options:
            self.fail(path, "one of " + ", ".join(map(str, options)))
        return value

    def mapping(self, value, path):
        if not isinstance(value, dict):
            self.fail(path, "a mapping")
        return value


# Sizes an attacker controls are capped: narateer.yaml arrives by git, and exact odds work through every die of a row,
# so a campaign may lower these but never raise them past what `odds` and a check's chance work out quickly: a chart row
# holds at most 25 dice (the formula row at AS 100) of at most 20 faces; explosions are unbounded or capped at 10; an AS
# up to 100, a DS (and --upto) up to 1,000, 1,000 faces per chain.
MAX_ROW_DICE, MAX_FACES, MAX_EXPLODE_CAP = 25, 20, 10
CEILINGS = {"action_score": 100, "ds": 1000, "faces_per_chain": 1000, "targets": 100}


def _known_keys(overrides: dict, where: str):
    for key, value in overrides.items():
        if key not in KNOBS:
            raise BadInput(f"{where}: rules.{key} is not an open-adventure ruleset key",
                           fix=suggest(key, KNOBS))
        if key in FIXED and isinstance(value, dict):
            for sub in value:
                if sub not in FIXED[key]:
                    raise BadInput(f"{where}: unknown ruleset key rules.{key}.{sub}", fix=suggest(sub, FIXED[key]))


def _rows(c: _Check, chart: dict) -> dict:
    rows = {}
    for key, dice in c.mapping(chart.get("rows"), "chart.rows").items():
        if isinstance(key, str) and key.isdigit():
            key = int(key)  # a cached (JSON) copy of the rows has text keys
        row = c.integer(key, "chart.rows (each key)", 1, 1000)
        if not isinstance(dice, list):
            c.fail(f"chart.rows.{key}", "a list of die sizes")
        if len(dice) > MAX_ROW_DICE:
            c.fail(f"chart.rows.{key}", f"at most {MAX_ROW_DICE} dice", rule="G-PRIV-6")
        rows[row] = tuple(c.integer(n, f"chart.rows.{key}", 2, MAX_FACES) for n in dice)
    if not rows or set(rows) != set(range(1, max(rows) + 1)):
        c.fail("chart.rows", "rows numbered 1, 2, 3... without gaps")
    return rows


def _time(c: _Check, time: dict) -> tuple:
    chart = time.get("chart")
    if not isinstance(chart, list) or not chart:
        c.fail("time.chart", "a list of durations such as 6s, 1min, 1h")
    steps: list[tuple[str, int]] = []  # (label, seconds)
    for label in chart:
        seconds = duration_seconds(label)
        if seconds is None or (steps and seconds <= steps[-1][1]):
            c.fail("time.chart", "durations such as 6s, 1min, 1h, each longer than the one before")
        steps.append((str(label), seconds))
    rnd = duration_seconds(time.get("round"))
    if rnd is None:
        c.fail("time.round", "a duration such as 6s")
    return tuple(steps), rnd


def _groups(c: _Check, attrs: dict) -> dict:
    groups: dict[str, tuple[str, ...]] = {}
    seen: set[str] = set()
    for group in GROUPS:
        names = attrs.get(group)
        if not isinstance(names, list) or not names or not all(isinstance(n, str) and n for n in names):
            c.fail(f"attributes.{group}", "a list of attribute names")
        names = tuple(n.lower() for n in names)
        if seen & set(names) or set(names) & set(GROUPS):
            c.fail(f"attributes.{group}", "names used once, none named like a group")
        seen |= set(names)
        groups[group] = names
    return groups


def build(default: dict, overrides: dict | None = None, where: str = "narateer.yaml", checked: bool = False) -> OARules:
    """Merge `overrides` over `default` and validate every knob. The checks
    build the values, so they run even when the host says these files were `checked` before."""
    overrides = overrides or {}
    if not isinstance(overrides, dict):
        raise BadInput(f"{where}: rules must be a mapping of ruleset keys", fix="see docs/rules/open-adventure.md")
    _known_keys(overrides, where)
    d = merge(default, overrides)
    c = _Check(where)
    for key in FIXED:
        c.mapping(d[key], key)
    chart, exp, crit, opp, eff = d["chart"], d["explode"], d["critical_failure"], d["opposed"], d["effect"]
    stunt, mas, limits = d["stunt"], d["min_action_score"], d["limits"]
    steps, rnd = _time(c, d["time"])
    tiers = {}
    for name, value in c.mapping(d["ds"], "ds").items():
        tiers[str(name).lower()] = c.integer(value, f"ds.{name}", 1, 1000)
    lim = {key: c.integer(limits.get(key), f"limits.{key}", 1, CEILINGS.get(key, 10**9)) for key in FIXED["limits"]}
    return OARules(
        rows=_rows(c, chart), beyond=c.choice(chart.get("beyond"), "chart.beyond", ("extend", "cap", "refuse")),
        explode_all=c.choice(exp.get("dice"), "explode.dice", ("all", "none")) == "all",
        explode_cap=c.integer(exp.get("cap"), "explode.cap", 0, MAX_EXPLODE_CAP, null=True),
        crit_faces=c.choice(crit.get("faces"), "critical_failure.faces", ("first", "chain_end")),
        crit_always_fails=c.choice(crit.get("always_fails"), "critical_failure.always_fails", (True, False)),
        opp_tie=c.choice(opp.get("tie"), "opposed.tie", ("actor", "opponent", "neither")),
        opp_uses_major=c.choice(opp.get("opponent_uses_major"), "opposed.opponent_uses_major", (True, False)),
        opp_below_min=c.choice(opp.get("opponent_below_min"), "opposed.opponent_below_min", ("refuse",)),
        effect_min=c.integer(eff.get("min"), "effect.min", 0, 1000),
        flat_takes_bonus=c.choice(eff.get("flat_takes_bonus"), "effect.flat_takes_bonus", ("explicit", "none")),
        spec_stack=c.choice(d["specializations"].get("stack"), "specializations.stack", (True, False)),
        time_chart=steps, round_seconds=rnd,
        min_as=c.integer(mas.get("value"), "min_action_score.value", 1, 1000),
        min_as_compare=c.choice(mas.get("compare"), "min_action_score.compare", (True, False)),
        multi=c.choice(d["multi"], "multi", ("sum", "product")),
        stunt_min_fail_loss=c.integer(stunt.get("min_fail_loss"), "stunt.min_fail_loss", 0, 1000),
        stunt_npc_loss=c.choice(stunt.get("npc_loss"), "stunt.npc_loss", ("pool_or_report",)),
        stunt_compare=c.choice(stunt.get("compare"), "stunt.compare", (True, False)),
        wound_per_zero=c.integer(d["wound"].get("per_zero"), "wound.per_zero", 0, 100),
        groups=_groups(c, d["attributes"]), ds_tiers=tiers,
        turn_order=c.choice(d["turn"].get("order"), "turn.order", ("reaction", "actor_chooses")),
        turn_ties=c.choice(d["turn"].get("ties"), "turn.ties", ("pcs_first",)),
        limits=lim, data=d,
    )
