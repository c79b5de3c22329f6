"""Point pools (paid by Stunts), Challenge Points (worn down by Effect) and Wounds (a pool brought to 0)."""

from __future__ import annotations

from typing import Any

from narateer_cli.kit import BadInput

from .names import norm, suggest, unknown
from narateer_cli.kit import Record, computed

POOLS = ("body", "mind", "spirit", "challenge")


class PointsResult(Record):
    """`points CHAR POOL DELTA`: the pool before and after, and the Wounds after a loss to 0."""
    system: Any
    actor: Any
    pool: Any
    before: Any
    after: Any
    wounds_after: Any

    def sheet_changes(self, wounds_before: int) -> dict:
        return sheet_changes(self.pool, self.after, self.wounds_after, wounds_before)


class WoundResult(Record):
    """`wound` / `heal`: the Wound count before and after."""
    system: Any
    actor: Any
    before: Any
    after: Any


def _rounds_words(n: int, who: str) -> str:
    from .render import rounds_words

    return rounds_words(n, who)


class ConditionResult(Record):
    """`condition CHAR +NAME -NAME [--rounds N]`: the conditions after, what changed, timers left."""
    system: Any
    actor: Any
    conditions: Any
    added: Any
    removed: Any
    rounds_left: Any

    message = computed(lambda r: f"{r.actor}: conditions {', '.join(r.conditions) or 'none'}" + "".join(
        f"; {n}: {_rounds_words(k, r.actor)}" for n, k in r.rounds_left.items()))


def sheet_changes(pool: str, after: int, wounds_after, wounds_before: int) -> dict:
    """The sheet's key paths a pool's change writes (a `points` change, a Stunt's loss): the pool, and the
    Wounds when a loss to 0 added one."""
    key = ("challenge_points",) if pool == "challenge" else ("points", pool)
    changes = {key: after}
    if wounds_after is not None and wounds_after != wounds_before:
        changes[("wounds",)] = wounds_after
    return changes


def parse_delta(text) -> int:
    """A signed whole number: `-3`, `+2`, `4`."""
    word = str(text).strip()
    body = word[1:] if word[:1] in "+-" else word
    if not body.isdigit():
        raise BadInput(f"{text!r} is not a signed whole number", fix="give a change such as -3 or +2")
    return int(word)


def change_points(sheet, pool: str, delta: int, rules) -> PointsResult:
    """A pool moves by `delta`, stops at 0 (the excess is lost); a loss that leaves it at 0 adds a Wound."""
    if pool not in POOLS:
        raise unknown("pool", pool, POOLS)
    limit = rules.limits["points"]
    if abs(delta) > limit:
        raise BadInput(f"a change of {delta} is over the limit", fix=f"give at most {limit}")
    if pool == "challenge":
        before = sheet.challenge_points
        if before is None:
            raise BadInput(f"{sheet.id} has no challenge_points", fix="add challenge_points: N to its statblock")
    else:
        before = sheet.points.get(pool)
        if before is None:
            raise BadInput(f"{sheet.id} has no {pool} points", fix=f"add points: {{{pool}: N}} to the sheet")
    after = max(0, before + delta)
    if after > limit:
        raise BadInput(f"{pool} points would reach {after}, over the limit", fix=f"stay at or below {limit}")
    wounds = sheet.wounds or 0
    if pool != "challenge" and delta < 0 and after == 0:
        wounds += rules.wound_per_zero
    return PointsResult(system="open-adventure", actor=sheet.id, pool=pool, before=before, after=after,
                        wounds_after=None if pool == "challenge" else wounds)


def change_wounds(sheet, delta: int, rules) -> WoundResult:
    """`wound CHAR [N]` / `heal CHAR [N]`: the Wound count (its effects come from elsewhere)."""
    before = sheet.wounds or 0
    after = before + delta
    if after < 0:
        raise BadInput(f"{sheet.id} has {before} Wound(s)", fix=f"heal at most {before}")
    if after > rules.limits["count"]:
        raise BadInput(f"{after} Wounds is over the limit", fix=f"stay at or below {rules.limits['count']}")
    return WoundResult(system="open-adventure", actor=sheet.id, before=before, after=after)


def change_conditions(current, changes) -> tuple[list, list, list]:
    """`condition CHAR +NAME -NAME`: (conditions after, added, removed). Names are the table's own."""
    conds, added, removed = list(current), [], []
    for change in changes:
        sign, name = str(change)[:1], str(change)[1:].strip()
        if sign not in ("+", "-") or not name:
            raise BadInput(f"{change!r} must be +NAME or -NAME", fix="for example `condition amicus +prone -dazed`")
        match = [c for c in conds if norm(c) == norm(name)]
        if sign == "+" and not match:
            conds.append(name)
            added.append(name)
        elif sign == "-":
            if not match:
                raise BadInput(f"no condition {name!r} to remove", fix=suggest(name, conds))
            conds.remove(match[0])
            removed.append(match[0])
    return conds, added, removed


def condition_change(sheet, state, changes, rounds: int | None):
    """`condition`: (the encounter state with its timers, or None when they did not change; the result).
    `state` is the current encounter's when CHAR takes part in it, else None."""
    from . import turns

    conds, added, removed = change_conditions(sheet.conditions, changes)
    if rounds is not None and (state is None or not added):
        raise BadInput("--rounds needs a +NAME and CHAR in the current encounter" if state is None
                       else "--rounds times the conditions added with +NAME", rule="T-DURATION",
                       fix=f"start one with `narateer encounter new ID {sheet.id} ...`" if state is None
                       else f"for example narateer condition {sheet.id} +prone --rounds 2")
    timed = turns.add_timed(state, sheet.id, added, removed, rounds) if state is not None else None
    result = ConditionResult(system="open-adventure", actor=sheet.id, conditions=conds, added=added,
                             removed=removed, rounds_left=turns.rounds_left(timed, sheet.id))
    return (timed if timed is not None and timed.durations != state.durations else None), result
