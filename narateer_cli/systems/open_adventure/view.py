"""Open Adventure on the players' screen (`narateer serve`): the point pools as dots, Wounds drawn apart
from them (each pool with a legend), Challenge Points, and an Action Check's rolls, an opposing roll included.

Pure functions over plain data: the host reads the files and applies the hidden-information filter.
"""

from __future__ import annotations

GROUPS = ("body", "mind", "spirit")
LEGEND = {
    "points": "body, mind and spirit points: a filled dot for each point left (a hollow one for each lost "
              "when the sheet gives points_max)",
    "wounds": "wounds: a crossed red mark for each Wound taken (not points)",
    "challenge points": "challenge points: a filled dot for each left to the NPC",
}


def _int(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _dict(value) -> dict:
    return value if isinstance(value, dict) else {}


def pools(doc: dict) -> list:
    """A sheet's pools in the order the page draws them: points per group, Challenge Points, Wounds."""
    points = _dict(doc.get("points"))
    tops = _dict(doc.get("points_max"))
    out = []
    for group in GROUPS:
        if _int(points.get(group)) is not None:
            out.append({"name": f"{group} points", "value": points[group], "max": _int(tops.get(group)),
                        "draw": "dots", "state": "left", "legend": LEGEND["points"]})
    if _int(doc.get("challenge_points")) is not None:
        out.append({"name": "challenge points", "value": doc["challenge_points"],
                    "max": _int(doc.get("challenge_points_max")), "draw": "dots", "state": "left",
                    "legend": LEGEND["challenge points"]})
    if _int(doc.get("wounds")) is not None:
        out.append({"name": "wounds", "value": doc["wounds"], "max": None, "draw": "dots", "state": "wounded",
                    "legend": LEGEND["wounds"]})
    return out


def view(state: dict, sheets: dict, rules) -> dict:
    """Per participant: its pools, Wounds drawn as wounds rather than as points."""
    return {"participants": {cid: {"pools": pools(doc if isinstance(doc, dict) else {})}
                             for cid, doc in sheets.items()}}


def _faces(faces) -> list:
    out = []
    for face in faces if isinstance(faces, list) else []:
        out.extend(_faces(face) if isinstance(face, list) else [face])
    return out


def _what(check: dict) -> str | None:
    name = check.get("action") or check.get("attribute")
    group = check.get("group")
    return f"{name} ({group})" if name and group and group != name else name


def last_check(entry: dict) -> dict | None:
    """An Action Check: the actor's roll against the Difficulty Score, and the opposing roll when there is
    one (its total is the DS the actor had to meet)."""
    result = entry.get("result")
    if not isinstance(result, dict) or not result.get("faces"):
        return None
    ds = _dict(result.get("ds"))
    success = result.get("success")
    rolls = [{"actor": result.get("actor"), "skill": _what(result), "faces": _faces(result["faces"]),
              "total": result.get("total"), "target": ds.get("total"),
              "target_label": f"DS {ds['total']}" if ds.get("total") is not None else None,
              "outcome": result.get("outcome"), "success": success if isinstance(success, bool) else None,
              "chance": result.get("chance"), "pips": False}]
    other = result.get("opposed")
    if isinstance(other, dict) and other.get("faces"):
        rolls.append({"actor": other.get("actor"), "skill": f"{_what(other)}, opposing", "faces": _faces(other["faces"]),
                      "total": other.get("total"), "target": None, "target_label": None, "outcome": None,
                      "success": None, "chance": None, "pips": False})
    return {"rolls": rolls}


# Players' links (`serve --act`): the Difficulty Score, an opposing roll, benefits and drawbacks are the Guide's; a
# check's roller types its own dice (each exploding chain as rolled) once the Guide has declared it
ANSWERS = {"roll": {"char": ("faces",)}, "resolve": {"char": ("faces",)}}
