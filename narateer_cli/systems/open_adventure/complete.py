"""Open Adventure's answers to shell completion: the named character's attributes and
actions, specializations, and DS tier names.

The host completes character and encounter ids; `params` holds what the line gives so far.
"""

from __future__ import annotations


def complete(name: str, campaign, params: dict) -> list[str]:
    sheet = campaign.load(params["char"]).sheet if params.get("char") else None
    if name == "use" and sheet is not None:
        return sorted(set(sheet.scores) | set(sheet.actions or ()))
    if name in ("specialization", "specializations") and sheet is not None:
        return sorted(sheet.specializations or ())
    if name in ("ds", "tier"):
        ladder = getattr(campaign.rules, "ds", None) or getattr(campaign.rules, "ds_tiers", None) or {}
        return [str(k) for k in ladder] if isinstance(ladder, dict) else []
    return []
