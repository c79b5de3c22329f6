"""d20 action cards' answers to shell completion: the named character's cards, conditions.

The host completes character and encounter ids; here: `card` (the actions on
the named character's sheet, else every card file) and conditions.
"""

from __future__ import annotations


def complete(name: str, campaign, params: dict) -> list[str]:
    if name == "card":
        char = params.get("char")
        if char:
            return sorted(str(a) for a in campaign.load(char).sheet.actions)
        folder = campaign.root / "actions"
        return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []
    if name == "condition":
        from .names import known_conditions

        return known_conditions(campaign.rules)
    return []
