"""Narateer's answers to shell completion: skills, weapons, conditions and DR tiers.

The host completes character and encounter ids itself; it asks here, by
parameter name, for what only this game knows. `campaign` is the host's
Campaign (sheets and ruleset as on disk); `params` what the line holds so far.
"""

from __future__ import annotations

SKILLS = {"skill", "skills", "check_skill"}
TIERS = {"dr", "tier"}
WEAPONS = {"weapon", "response_weapon"}
WHO = ("char", "attacker", "actor")


def complete(name: str, campaign, params: dict) -> list[str]:
    rules = campaign.rules
    if name in SKILLS:  # the character's own skills first, then the ruleset's it may roll untrained (SL 0)
        sheet = _sheet(campaign, params, WHO)
        own = sorted(sheet.skills) if sheet is not None else []
        return own + sorted(set(rules.skills) - set(own))
    if name in TIERS:
        return list(rules.dr)
    if name in WEAPONS:
        who = ("defender",) if name == "response_weapon" else WHO
        sheet = _sheet(campaign, params, who)
        return sorted(sheet.weapons) if sheet is not None else []
    if name == "condition":
        return list(rules.conditions)
    return []


def _sheet(campaign, params: dict, keys):
    for key in keys:
        if params.get(key):
            return campaign.load(params[key]).sheet
    return None
