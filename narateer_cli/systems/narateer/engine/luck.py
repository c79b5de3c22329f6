"""What the host's luck report (`stats`) asks of Narateer: which logged objects are checks,
each one's exact chance beforehand, and what it spent and rolled (Critical is the top face)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from narateer_cli.kit import mappings

from .dice import beats, pool_weights
from .ruleset import Ruleset

if TYPE_CHECKING:
    from fractions import Fraction

# a logged check, sealed or not: what it declared and paid is public
CHECK_KEYS = {"actor", "skill", "roll_dice", "paid"}
CHECK_MARKS = (b'"roll_dice"', b'"observers"')  # a log line with a check holds one of these (stats reads only those)


def checks(node):
    """Every check object inside a logged result (a contest's other side too), outermost first; a Hide
    gives one more per observer: the hider's one Stealth roll against that observer's own target."""
    for found in mappings(node):
        if CHECK_KEYS <= found.keys():
            yield found
        if isinstance(found.get("observers"), list) and isinstance(found.get("check"), dict):
            yield from _observed(found["check"], found["observers"])


def _observed(stealth: dict, observers: list):
    """Each observer as a check of the hider's total against its target; `chance` lands on the
    observer's own logged object (the view reads the hider's pool through it)."""
    from collections import ChainMap

    for row in observers:
        if not isinstance(row, dict):
            continue
        searching = isinstance(row.get("check"), dict)
        yield ChainMap(row, {"actor": stealth.get("actor"), "roll_dice": stealth.get("roll_dice"),
                             "edge": stealth.get("edge"), "paid": 0, "final_faces": None,
                             "success": row.get("hidden"), "opponent": row.get("check"),
                             "target_source": "contested" if searching else "readiness"})


def _weights(check: dict, rules: Ruleset) -> tuple[list[int], int]:
    dice, edge = int(check.get("roll_dice") or 0), check.get("edge") or "none"
    if isinstance(edge, str):  # `stats` asks for the same few pools over and over
        return _pool(dice, rules.faces, edge, rules.disadvantage)
    return pool_weights(dice, rules.faces, edge, rules.disadvantage)


@lru_cache(maxsize=1024)
def _pool(dice: int, faces, edge: str, disadvantage: str) -> tuple[list[int], int]:
    return pool_weights(dice, faces, edge, disadvantage)


def chance(check: dict, rules: Ruleset) -> Fraction | None:
    """P(success) before the roll, exactly (a total above the target, on the ruleset's faces, Edge included); a
    contested roll: the initiator's chance to exceed the other side's total. None for a roll with no target."""
    from fractions import Fraction

    ratio = chance_ratio(check, rules)
    return Fraction(*ratio) if ratio is not None else None


def chance_ratio(check: dict, rules: Ruleset) -> tuple[int, int] | None:
    """`chance` as whole numbers (ways to succeed, ways in all): a writing command logs it without fractions."""
    if check.get("target_source") == "contested":
        other = check.get("opponent")
        if not isinstance(other, dict):
            return None
        (dist, denom), (theirs, their_denom) = _weights(check, rules), _weights(other, rules)
        wins = sum(wa * wb for a, wa in enumerate(dist) for b, wb in enumerate(theirs) if beats(a, b))
        return wins, denom * their_denom
    target = check.get("target")
    if not isinstance(target, int) or isinstance(target, bool):
        return None
    edge = check.get("edge") or "none"
    if isinstance(edge, str):  # `stats` asks for the same few over and over
        return _against(int(check.get("roll_dice") or 0), rules.faces, edge, rules.disadvantage, target)
    return _beating(*_weights(check, rules), target)


def _beating(dist, denom: int, target: int) -> tuple[int, int]:
    """(ways to beat `target`, ways in all) of a pool's distribution of totals."""
    return sum(w for total, w in enumerate(dist) if beats(total, target)), denom


@lru_cache(maxsize=1024)
def _against(dice: int, faces, edge: str, disadvantage: str, target: int) -> tuple[int, int]:
    """`_beating` of one pool: made once per pool, Edge and target."""
    return _beating(*_pool(dice, faces, edge, disadvantage), target)


def luck(check: dict, rules: Ruleset) -> dict:
    """What the stats count of one check: its actor, success (None while sealed or without a target),
    AD paid, Criticals among its final faces and the number the die model expects."""
    top = max(rules.faces)
    final = check.get("final_faces")
    out = {"actor": check.get("actor"), "spent": int(check.get("paid") or 0), "success": check.get("success")}
    if isinstance(final, list):
        out["crits"] = sum(1 for face in final if face == top)
        edge = check.get("edge") or "none"
        expect = _crits_expected if isinstance(edge, str) else _crits_expected.__wrapped__
        out["crits_expected"] = expect(len(final), edge, rules.faces, rules.disadvantage)
    return out


@lru_cache(maxsize=256)
def _crits_expected(dice: int, edge: str, faces, disadvantage: str) -> Fraction:
    """Criticals expected among `dice` final faces: made once per pool size and Edge (`stats` asks per check)."""
    from fractions import Fraction

    one, denom = pool_weights(1, faces, edge, disadvantage)
    return Fraction(dice * one[max(faces)], denom)


