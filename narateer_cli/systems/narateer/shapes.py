"""The JSON shapes of Narateer's records that are not simply their fields in order (render layer).

A record names its shape with `_shape = "narateer_cli.systems.narateer.shapes:NAME"`; `render.plain`
imports this module only when it meets such a record. The engine never builds a JSON shape.
"""

from __future__ import annotations


def tagged(r) -> dict:
    """A check result that is its fields, led by the system that made it."""
    return {"system": "narateer", **r.as_dict()}


def check_result(r) -> dict:
    """A Skill Check (CheckResult): the payment flattened beside the faces, total, margin and tier."""
    p = r.payment
    return {
        "system": "narateer",
        "actor": p.actor,
        "skill": p.skill,
        "target": r.target.value,
        "target_source": r.target.source,
        "boost": p.boost,
        "roll_dice": p.roll_dice,
        "paid": p.paid,
        "faces": list(r.faces),
        "rerolled": list(r.rerolled),
        "final_faces": list(r.final_faces),
        "total": r.total,
        "margin": r.margin,
        "success": r.success,
        "outcome": r.outcome,
        "dice_before": dict(p.dice_before),
        "dice_after": dict(p.dice_after),
        "target_label": r.target.label,
        "base_cost": p.base_cost,
        "bonus_dice": p.bonus_dice,
        "pay_multiplier": p.multiplier,
        "edge": p.edge,
        "reroll_faces": list(r.edge_faces),
        "power_rerolled": list(r.power_rerolled),
        "power_faces": [r.final_faces[i] for i in r.power_rerolled],
        "discount_base": p.decl.discount_base,
        "discount_boost": p.decl.discount_boost,
        "fee": p.decl.fee,
        "power": p.decl.power,
        "reaction": p.decl.reaction,
    }


def check_outcome(o) -> dict:
    """A whole check with its parties (CheckOutcome): the actor's check, then opponent and assist."""
    out = check_result(o.result)
    out["opponent"] = check_result(o.opponent) if o.opponent else None
    out["assist"] = o.assist
    return out


def exchange_result(r) -> dict:
    """A Combat Exchange (ExchangeResult): its fields in order; `revealed_to` only inside an encounter."""
    out = {name: getattr(r, name) for name in r._fields}
    if out["revealed_to"] is None:
        del out["revealed_to"]
    return out


def resolved_auto(r) -> dict:
    """`resolve --auto` (ResolvedAuto): its fields but the stated cost, which the log's declaration holds."""
    return {name: getattr(r, name) for name in r._fields if name != "cost"}
