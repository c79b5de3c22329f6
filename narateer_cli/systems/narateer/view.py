"""Narateer on the players' screen (`narateer serve`): each participant's Action Dice
as ready / used / wounded dots, and log entries made safe for the party (no recorded Hide total).

Pure functions over plain data: the host reads the files and applies the hidden-information filter.
"""

from __future__ import annotations

DICE = ("ready", "used", "wounded")
LEGEND = {  # the page explains itself: what each Action Die dot means
    "ready": "ready Action Die (AD): can pay for a check",
    "used": "used AD: spent, ready again at the next refresh",
    "wounded": "wounded AD: lost to a wound until healed",
}


def view(state: dict, sheets: dict, rules) -> dict:
    """Per participant: its Action Dice (the sheet's `action_dice`)."""
    out = {}
    for cid, doc in sheets.items():
        dice = doc.get("action_dice") if isinstance(doc, dict) else None
        if isinstance(dice, dict):
            out[cid] = {"dice": {k: dice.get(k) if isinstance(dice.get(k), int) else 0 for k in DICE}, "pools": []}
    return {"participants": out, "legend": LEGEND}


def public_entry(entry: dict) -> dict:
    """A log entry as the party may read it: a Hide keeps who hid from whom, not the Stealth total
    (nor the faces that make it); a Search keeps whether it found, not the total it was against."""
    command, result = entry.get("command"), entry.get("result")
    if not isinstance(result, dict):
        return entry
    if command == "hide":
        safe = {"actor": result.get("actor"), "total": "?", "hidden_from": result.get("hidden_from") or []}
        return {**entry, "result": safe}
    if command == "search":
        safe = {k: v for k, v in result.items() if k not in ("target", "check")}
        return {**entry, "result": safe}
    return entry


def own_entry(entry: dict, char_id: str) -> dict:
    """A log entry as the one who made it reads it: a hider knows the total of her own Hide (she rolled
    it); anything else, and a Search's recorded total of another creature, as the party reads it."""
    result = entry.get("result")
    if entry.get("command") == "hide" and isinstance(result, dict) and result.get("actor") == char_id:
        return entry
    return public_entry(entry)


# Which choices are a player's (`serve --act`). A check's target number, bonus dice, costs, Edge and the
# Guide's allowances are rulings; another creature's dice and faces are its own. In a Combat
# Exchange the attacker picks its skill, weapon and Boost and the defender its Response.
OWN_ROLL = ("boost", "faces", "reroll_faces", "power", "power_reroll", "power_faces")
ANSWERS = {
    "roll": {"char": OWN_ROLL},
    "exchange": {"attacker": ("skill", "weapon", "boost", "faces", "reroll_faces"),
                 "defender": ("response", "response_boost", "response_weapon", "response_faces",
                              "response_reroll_faces")},
    "hide": {"char": ("observers", "boost", "faces", "reroll_faces")},
    "search": {"char": ("boost", "faces", "reroll_faces")},
}
# what a player runs unprompted, as its actor: a reaction it is owed (the rules refuse one that is not),
# hiding and searching in its activation (whom to search for, among those the party sees, and what is new
# since the last search are the searcher's); declaring it, the player also says to roll one with no chance
# to succeed (`force`)
PLAYER_VERBS = {
    "react": ("mover", "weapon", "boost", "faces", "reroll_faces", "force"),
    "hide": ("observers", "boost", "faces", "reroll_faces", "force"),
    "search": ("hider", "changed", "boost", "faces", "reroll_faces"),
}


def choices(state: dict, char_id: str, rules) -> list:
    """A creature that just completed a move inside reach may be answered by an Opportunity Attack from each
    other participant that has not answered it yet and sees it (the Guide judges reach)."""
    last = state.get("last_action") if isinstance(state, dict) else None
    if not isinstance(last, dict) or last.get("command") != "move":
        return []
    mover = last.get("actor")
    hidden = ((state.get("hidden") or {}).get(mover) or {}) if isinstance(state.get("hidden"), dict) else {}
    if mover in (None, char_id) or char_id in (last.get("answered") or []) or char_id in hidden \
            or char_id not in (state.get("participants") or []):
        return []
    return [{"text": f"{mover} just completed a move: you may make an Opportunity Attack on it (in melee reach)",
             "argv": ["react", char_id, "opportunity", "--against", str(mover)]}]
