"""What the host's luck report (`stats`) asks of Open Adventure: each logged Action Check is a
check of its actor, with its exact chance beforehand; a die's top face is its size."""

from __future__ import annotations

from fractions import Fraction

from .chart import chart_dice


CHECK_MARKS = (b'"action_score"',)  # a log line with an Action Check holds its Action Score (stats reads only those)


def _check(result):
    """The Action Check object of a logged result: a `roll` logs the check itself, a `resolve` nests it."""
    if not isinstance(result, dict):
        return None
    check = result.get("check")
    c = check if isinstance(check, dict) else result
    if c.get("system") == "open-adventure" and isinstance(c.get("action_score"), dict):
        return c
    return None


def checks(result):
    """The logged check itself, so a written `chance` lands in the log; an opposed check is one check of its
    initiator (the opponent's roll is its DS, not a check of its own)."""
    c = _check(result)
    if c is not None:
        yield c


def chance(check: dict, rules) -> Fraction | None:
    """The exact chance of success beforehand: P(total meets the DS), exact with explosions; an opposed check: the
    initiator's chance to win over every total the opponent can roll. Comparing Scores rolls
    nothing: None."""
    from .odds import opposed_chance, p_success

    if check.get("method") == "compare":
        return None
    dice = chart_dice(check["action_score"]["total"], rules)
    ds = check["ds"]
    if isinstance(check.get("opposed"), dict):
        other = chart_dice(check["opposed"]["action_score"]["total"], rules)
        return opposed_chance(dice, other, ds["drawback"] + ds["familiarity"] + ds["multi"], rules)
    return p_success(dice, ds["total"], rules)


def top_faces_expected(size: int, rules) -> Fraction:
    """How many faces equal to N one dN chain shows, on average: each throw of the chain shows N with
    chance 1/N, and the k-th throw happens only when the k-1 before it all exploded (N^-(k-1)); so
    1/N without explosions, sum of N^-k for k = 1..cap+1 with a cap, 1/(N-1) unbounded."""
    if not rules.explode_all:
        return Fraction(1, size)
    if rules.explode_cap is None:
        return Fraction(1, size - 1)
    return sum((Fraction(1, size ** k) for k in range(1, rules.explode_cap + 2)), Fraction(0))


def luck(check: dict, rules) -> dict:
    """Actor and success (None while sealed, or for Comparing Scores, which rolls nothing).

    Top faces: every face thrown (each link of an exploding chain is a face on the table) that equals its
    die's maximum, against the number the die model expects (`top_faces_expected`). Open Adventure has no
    dice pool to spend: `spent` is 0 (point pools paid for Stunts are not dice)."""
    success = check.get("success")
    out = {"actor": check.get("actor"), "spent": 0,
           "success": success if isinstance(success, bool) and check.get("method") != "compare" else None}
    faces = check.get("faces")
    if isinstance(faces, list) and faces and check.get("method") != "compare":
        sizes = chart_dice(check["action_score"]["total"], rules)
        out["crits"] = sum(1 for size, chain in zip(sizes, faces) for face in chain if face == size)
        out["crits_expected"] = sum((top_faces_expected(size, rules) for size in sizes), Fraction(0))
    return out
