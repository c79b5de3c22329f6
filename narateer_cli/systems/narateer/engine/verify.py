"""Re-check a whole encounter log against the rules (the `verify` command).

Each check object is recomputed from its own faces and declaration; each
entry's dice must be conserved and must continue from the entry before.
Returns the first inconsistency as text, or None.
"""

from __future__ import annotations

from .character import spend
from .dice import edge_indices
from .ruleset import Ruleset

CHECK_KEYS = {"faces", "final_faces", "total", "paid", "rerolled"}


def find_checks(node):
    if isinstance(node, dict):
        if CHECK_KEYS <= node.keys():
            yield node
        for value in node.values():
            yield from find_checks(value)
    elif isinstance(node, list):
        for value in node:
            yield from find_checks(value)


def check_problem(c: dict, rules: Ruleset) -> str | None:
    """R-CHK-3 .. R-CHK-7, R-PAY, R-EDGE recomputed for one logged check."""
    faces, final = list(c["faces"]), list(c["final_faces"])
    if len(faces) != c.get("roll_dice", len(faces)):
        return f"{len(faces)} faces for {c['roll_dice']} roll dice"
    expected = edge_indices(faces, c.get("edge", "none"), rules.disadvantage)
    if list(c["rerolled"]) != expected:
        return f"Edge rerolled {c['rerolled']} but the rules reroll {expected}"
    rebuilt = list(faces)
    for index, face in zip(c["rerolled"], c.get("reroll_faces", [])):
        rebuilt[index] = face
    for index, face in zip(c.get("power_rerolled", []), c.get("power_faces", [])):
        rebuilt[index] = face
    if rebuilt != final:
        return f"final faces {final} do not follow from faces {faces} and the rerolls"
    if c["total"] != sum(final):
        return f"total {c['total']} is not the sum of the final faces ({sum(final)})"
    if c.get("target") is not None:
        margin = c["total"] - c["target"]
        if c.get("margin") != margin:
            return f"margin {c.get('margin')} should be {margin}"
        if c.get("success") != (margin > 0):
            return f"success {c.get('success')} should be {margin > 0} (a tie fails)"
        if c.get("outcome") != rules.tier_for(margin):
            return f"outcome {c.get('outcome')!r} should be {rules.tier_for(margin)!r}"
    if "base_cost" in c:
        subtotal = (max(0, c["base_cost"] - c.get("discount_base", 0)) + max(0, c["boost"] - c.get("discount_boost", 0))
                    + c.get("fee", 0))
        paid = subtotal * c.get("pay_multiplier", 1)
        if c["paid"] != paid:
            return f"paid {c['paid']} AD but the declaration costs {paid}"
    if "dice_before" in c and "dice_after" in c and spend(c["dice_before"], c["paid"]) != c["dice_after"]:
        return f"dice after {c['dice_after']} do not follow from {c['dice_before']} less {c['paid']} paid"
    return None


def _held(dice: dict) -> dict:
    return {state: count for state, count in dice.items() if count}


def verify_log(entries: list, rules: Ruleset) -> str | None:
    last = {}
    previous_seq = 0
    for position, entry in enumerate(entries):
        if not isinstance(entry, dict) or "seq" not in entry:
            return f"entry #{position + 1} is not a log entry"
        seq = entry["seq"]
        where = f"entry {seq} ({entry.get('command')})"
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
            return f"{where}: sequence number must be a whole number from 1"
        if seq <= previous_seq:
            # entries from a second branch, joined by git's union merge: their dice
            # continue from the common ancestor, not from the other branch
            last = {}
        previous_seq = seq
        checks = list(find_checks(entry.get("result")))
        for c in checks:
            problem = check_problem(c, rules)
            if problem:
                return f"{where}: {c.get('actor')}'s {c.get('skill')} check: {problem}"
        dice = entry.get("dice") or {}
        by_actor = {}
        for c in checks:
            if "dice_before" in c and "dice_after" in c:
                by_actor.setdefault(c.get("actor"), []).append(c)
        for actor, mine in by_actor.items():
            if actor not in dice:
                return f"{where}: {actor} paid {sum(c['paid'] for c in mine)} AD but the entry records no dice for it"
            if mine[0]["dice_before"] != dice[actor].get("before"):
                return f"{where}: {actor}'s dice before {dice[actor].get('before')} differ from its check's {mine[0]['dice_before']}"
            if mine[-1]["dice_after"] != dice[actor].get("after"):
                return f"{where}: {actor}'s dice after {dice[actor].get('after')} differ from its check's {mine[-1]['dice_after']}"
        for cid, move in dice.items():
            before, after = move.get("before") or {}, move.get("after") or {}
            if sum(before.values()) != sum(after.values()):
                return f"{where}: {cid} had {sum(before.values())} dice before and {sum(after.values())} after"
            if cid in last and _held(last[cid]) != _held(before):  # a state with 0 dice may be absent
                return f"{where}: {cid}'s dice before {before} do not continue from {last[cid]}"
            last[cid] = after
    return None
