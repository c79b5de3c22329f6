"""d20 action cards on the players' screen (`narateer serve`): hit points and action
points as pools, whose turn it is, who is hidden, and an attack's d20 as the last check.

Pure functions over plain data: the host reads the files and applies the hidden-information filter.
"""

from __future__ import annotations

HIDDEN = "hidden"  # the condition `condition CHAR +hidden` sets: unseen by everyone else


LEGEND = {
    "HP": "HP: hit points, the bar filled to what is left of the maximum; at 0 or below, Critical Condition",
    "AP": "AP: action points, a filled dot for each left this turn, a hollow one for each spent",
}
DRAW = {"HP": "bar", "AP": "dots"}  # HP as a bar with numbers at any size, AP as dots, one drawing per pool


def _pool(name: str, block) -> dict | None:
    if isinstance(block, dict) and isinstance(block.get("current"), int):
        top = block.get("max")
        return {"name": name, "value": block["current"], "max": top if isinstance(top, int) else None,
                "draw": DRAW[name], "legend": LEGEND[name], "harm": name == "HP"}  # AP is no measure of harm
    return None


def view(state: dict, sheets: dict, rules) -> dict:
    """The acting character is the state's `turn`; each sheet's HP and AP are pools; a character with
    the hidden condition is hidden from every other participant."""
    people, hidden = {}, {}
    for cid, doc in sheets.items():
        doc = doc if isinstance(doc, dict) else {}
        resources = doc.get("resources")
        resources = resources if isinstance(resources, dict) else {}
        pools = [p for p in (_pool("HP", doc.get("hp")), _pool("AP", resources.get("ap"))) if p]
        people[cid] = {"pools": pools, "marks": ["Critical Condition"] if _critical(doc, rules) else []}
        if HIDDEN in [str(c).lower() for c in doc.get("conditions") or [] if not isinstance(c, dict)]:
            hidden[cid] = [other for other in sheets if other != cid]
    return {"actor": state.get("turn"), "participants": people, "hidden": hidden}


def _critical(doc: dict, rules) -> bool:
    """Critical Condition read from a sheet as the page gets it: HP at or below the mark, or the Guide's
    `critical` condition."""
    hp = doc.get("hp")
    current = hp.get("current") if isinstance(hp, dict) else None
    mark = (getattr(rules, "critical", None) or {}).get("hp_at_most", 0)
    names = [str(c).partition(":")[0].strip().lower() for c in doc.get("conditions") or [] if not isinstance(c, dict)]
    return (isinstance(current, int) and not isinstance(current, bool) and current <= mark) or "critical" in names


def last_check(entry: dict) -> dict | None:
    """An `act` entry's d20 rolls: each target's attack against armour or saving throw, and a Concentration
    check the damage called for."""
    result = entry.get("result")
    if not isinstance(result, dict):
        return None
    rolls = [roll for target in result.get("targets") or [] if isinstance(target, dict)
             for roll in _target_rolls(result, target)]
    return {"rolls": [{**roll, "pips": False} for roll in rolls]} if rolls else None  # a d20 face is a number


def _target_rolls(result: dict, target: dict) -> list:
    card, rolls = result.get("card_name"), []
    attack, save = target.get("attack"), target.get("save")
    if isinstance(attack, dict) and attack.get("faces"):
        rolls.append({"actor": result.get("actor"), "skill": f"{card} vs {target.get('id')}",
                      "faces": attack["faces"], "total": attack.get("total"), "target": attack.get("ac"),
                      "target_label": _ac(attack), "outcome": "Hit" if attack.get("hit") else "Miss",
                      "success": bool(attack.get("hit")), "chance": _percent(attack.get("chance"))})
    if isinstance(save, dict) and isinstance(save.get("face"), int):
        rolls.append({"actor": target.get("id"), "skill": f"save against {card}", "faces": [save["face"]],
                      "total": save.get("total"), "target": save.get("dc"), "target_label": f"DC {save.get('dc')}",
                      "outcome": "Saved" if save.get("resisted") else "Failed", "success": bool(save.get("resisted")),
                      "chance": _percent(save.get("chance"))})
    damage = target.get("damage")
    damage = damage if isinstance(damage, dict) else {}
    held = damage.get("concentration_check")
    if isinstance(held, dict) and isinstance(held.get("face"), int):
        rolls.append({"actor": target.get("id"), "skill": f"Concentration on {held.get('card')}",
                      "faces": [held["face"]], "total": held.get("total"), "target": held.get("dc"),
                      "target_label": f"DC {held.get('dc')}", "outcome": "Kept" if held.get("kept") else "Dropped",
                      "success": bool(held.get("kept"))})
    return rolls


def _ac(attack: dict) -> str | None:
    kind = attack.get("ac_kind")
    return f"{str(kind).capitalize()} AC {attack.get('ac')}" if kind else None


def _percent(chance) -> str | None:
    """A logged chance (`13/20`) as the page prints chances: a whole percentage."""
    from fractions import Fraction

    try:
        return f"{float(Fraction(str(chance))) * 100:.0f}%" if chance is not None else None
    except (ValueError, ZeroDivisionError):
        return None


# Players' links (`serve --act`): a performer picks its card's target, distance and companion, whether it drops its
# Concentration, and types its own d20s and damage dice; Edge, modifiers, what is unseen or unheard, a
# target's save and a victim's Concentration d20 are the Guide's rulings and the other creatures' own
OWN_ACT = ("target", "distance", "companion", "drop_concentration", "faces", "evolutionary_face", "damage_faces")
ANSWERS = {"act": {"char": OWN_ACT}}
PLAYER_VERBS = {"act": (*OWN_ACT, "force")}  # declaring it, the player also says to act with no chance to land
