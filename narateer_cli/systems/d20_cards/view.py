"""d20 action cards on the players' screen (`narateer serve`, SPEC Part 8): hit points and action
points as pools, whose turn it is, who is hidden, and an attack's d20 as the last check.

Pure functions over plain data: the host reads the files and applies the hidden-information filter.
"""

from __future__ import annotations

HIDDEN = "hidden"  # the condition `condition CHAR +hidden` sets: unseen by everyone else


def _pool(name: str, block) -> dict | None:
    if isinstance(block, dict) and isinstance(block.get("current"), int):
        top = block.get("max")
        return {"name": name, "value": block["current"], "max": top if isinstance(top, int) else None}
    return None


def view(state: dict, sheets: dict, rules) -> dict:
    """The acting character is the state's `turn`; each sheet's HP and AP are pools; a character with
    the hidden condition is hidden from every other participant."""
    people, hidden = {}, {}
    for cid, doc in sheets.items():
        doc = doc if isinstance(doc, dict) else {}
        resources = doc.get("resources") if isinstance(doc.get("resources"), dict) else {}
        pools = [p for p in (_pool("HP", doc.get("hp")), _pool("AP", resources.get("ap"))) if p]
        people[cid] = {"pools": pools}
        if HIDDEN in [str(c).lower() for c in doc.get("conditions") or [] if not isinstance(c, dict)]:
            hidden[cid] = [other for other in sheets if other != cid]
    return {"actor": state.get("turn"), "participants": people, "hidden": hidden}


def last_check(entry: dict) -> dict | None:
    """An `act` entry's first d20 roll: an attack against armour, or a target's saving throw."""
    result = entry.get("result")
    if not isinstance(result, dict):
        return None
    for target in result.get("targets") or []:
        attack, save = target.get("attack"), target.get("save")
        if isinstance(attack, dict) and attack.get("faces"):
            return {"actor": result.get("actor"), "skill": f"{result.get('card_name')} vs {target.get('id')}",
                    "faces": attack["faces"], "total": attack.get("total"), "target": attack.get("ac"),
                    "outcome": "Hit" if attack.get("hit") else "Miss"}
        if isinstance(save, dict) and isinstance(save.get("face"), int):
            return {"actor": target.get("id"), "skill": f"save against {result.get('card_name')}",
                    "faces": [save["face"]], "total": save.get("total"), "target": save.get("dc"),
                    "outcome": "Saved" if save.get("resisted") else "Failed"}
    return None
