"""The Action Chart, the Difficulty Score ladder and the Time Chart.

Each Action Score maps to dice by one pattern (rows past 14 as the `chart` knob
says), the DS ladder runs from very easy 3 to nearly impossible 20, and each
Time Chart step beyond the base time is a Benefit.
"""

from __future__ import annotations

from typing import Any

from narateer_cli.kit import BadInput, Refused

from narateer_cli.kit import Record

from .names import closest, norm, unknown
from .ruleset import duration_seconds

SYSTEM = "open-adventure"


class ChartRow(Record):
    action_score: Any
    dice: Any
    printed: Any
    extended: Any


class ActionChart(Record):
    """`chart [AS...]`: the Action Chart's rows."""
    system: Any
    rows: Any


class TimeChart(Record):
    """`chart --time`: the Time Chart's steps and the Round."""
    system: Any
    time: Any
    round: Any


class DsLadder(Record):
    """`ds`: the Difficulty Score ladder."""
    system: Any
    ladder: Any


class DsTier(Record):
    """`ds TIER`: one tier's DS."""
    system: Any
    tier: Any
    ds: Any


def formula_row(action_score: int) -> tuple:
    """The chart's pattern: AS = 2 + 4k + r -> k d6 plus one d(6 + 2r)."""
    if action_score < 2:
        return ()
    k, r = divmod(action_score - 2, 4)
    return (6,) * k + (6 + 2 * r,)


def chart_dice(action_score: int, rules) -> tuple:
    """The dice an Action Score rolls; rows past the chart follow the `chart` knob."""
    top = max(rules.rows)
    if action_score <= top:
        return rules.rows[max(action_score, 1)]
    if rules.beyond == "cap":
        return rules.rows[top]
    if rules.beyond == "refuse":
        raise Refused(f"AS {action_score} is beyond the Action Chart's last row ({top})", rule="A-OA-CHART",
                      fix="lower the AS, or set rules.chart.beyond to extend or cap")
    return formula_row(action_score)


def is_extended(action_score: int, rules) -> bool:
    return action_score > max(rules.rows)


def dice_names(dice) -> list:
    return [f"d{n}" for n in dice]


def printed(dice) -> str:
    """`2d6+d8` as the chart prints a row; `none` for row 1."""
    if not dice:
        return "none"
    parts, seen = [], []
    for n in dice:
        if n not in seen:
            seen.append(n)
    for n in seen:
        count = sum(1 for d in dice if d == n)
        parts.append(f"{count if count > 1 else ''}d{n}")
    return "+".join(parts)


def ds_value(text, rules) -> tuple[int, int | str]:
    """A DS given as a whole number or a ladder tier: (value, base_source), the source being
    the number itself or `tier:NAME`."""
    word = str(text).strip()
    if word.lstrip("-").isdigit():
        value = int(word)
        limit = rules.limits["ds"]
        if value < 1 or value > limit:
            raise BadInput(f"DS {value} is out of range", fix=f"give a DS from 1 to {limit}")
        return value, value
    for tier, value in rules.ds_tiers.items():
        if norm(tier) == norm(word):
            return value, f"tier:{tier}"
    raise unknown("DS tier", text, rules.ds_tiers, more=" (or give a whole number)")


def ladder(rules) -> list[dict]:
    return [{"tier": tier, "ds": value} for tier, value in rules.ds_tiers.items()]


def time_step(text, rules, option: str = "--time") -> int:
    """The index of a Time Chart step; an off-chart duration is bad input."""
    seconds = duration_seconds(text)
    for index, (_, step) in enumerate(rules.time_chart):
        if seconds == step:
            return index
    labels = [label for label, _ in rules.time_chart]
    near = closest(text, labels)
    raise BadInput(f"{option}: {text!r} is not on the Time Chart" + (f" (did you mean {near}?)" if near else ""),
                   fix="give one of: " + ", ".join(labels))


def time_benefit(time, base_time, rules) -> int:
    """+1 Benefit per Time Chart step above the longer of the base time and the Round."""
    if time is None:
        return 0
    to = time_step(time, rules, "--time")
    rnd = rules.round_seconds
    start_seconds = rnd if base_time is None else max(rnd, rules.time_chart[time_step(base_time, rules, "--base-time")][1])
    start = next((i for i, (_, s) in enumerate(rules.time_chart) if s >= start_seconds), len(rules.time_chart))
    if to < start:
        label = rules.time_chart[min(start, len(rules.time_chart) - 1)][0]
        raise BadInput(f"--time {time} is below the starting step {label}",
                       fix=f"give a step at or above {label}, or a shorter --base-time")
    return to - start


def action_chart(scores, rules) -> ActionChart:
    """The rows of these Action Scores (every printed row when none is given), extended rows marked."""
    rows = []
    for score in scores or range(1, max(rules.rows) + 1):
        if not 1 <= score <= rules.limits["action_score"]:
            raise BadInput(f"AS {score} is out of range", fix=f"give 1..{rules.limits['action_score']}")
        dice = chart_dice(score, rules)
        rows.append(ChartRow(action_score=score, dice=dice_names(dice), printed=printed(dice),
                             extended=is_extended(score, rules)))
    return ActionChart(system=SYSTEM, rows=rows)


def time_chart(rules) -> TimeChart:
    return TimeChart(system=SYSTEM, time=[label for label, _ in rules.time_chart], round=rules.data["time"]["round"])


def ds_table(tier, rules):
    """The whole ladder (no tier given), or one tier's DS."""
    if tier is None:
        return DsLadder(system=SYSTEM, ladder=ladder(rules))
    value, source = ds_value(tier, rules)
    return DsTier(system=SYSTEM, tier=str(source).removeprefix("tier:"), ds=value)
