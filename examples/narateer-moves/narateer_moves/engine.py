"""Moves' rules: pure functions over plain data; no files, no printing."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from narateer_cli.kit import BadInput, Refused
from narateer_cli.kit import unknown
from narateer_cli.kit import entrywise

KNOBS = ("dice", "sides", "strong", "weak", "miss_xp", "max_harm", "stats", "moves")
# Secrecy is declared field by field: what a secret move shows the table (a move's result is plain data, so
# the command declares it): who moved and with what, never the faces, the total, the band or the XP
PUBLIC = ("system", "actor", "move", "stat", "stat_value", "guide", "track_before", "track_after")
# how the conformance kit plays this game in its example campaign, as it plays every installed game
CONFORMANCE = {
    "counter": "harm rook +1",
    "secret": "roll guide size-up",
    "refused": ["roll rook push-thru", "roll nobody charm", "roll rook charm --secret", "harm rook +9"],
    "more": ["roll rook push-through --faces 1,2", "roll vesper charm --faces 6,5", "condition rook +bruised"],
}


class Sheet:
    def __init__(self, id, name, stats, counters, guide=False):
        self.id, self.name, self.stats, self.counters, self.guide = id, name, stats, counters, guide


def ruleset(data: dict, overrides: dict, where: str, checked: bool = False) -> dict:
    for key in overrides:
        if key not in KNOBS:
            raise unknown("ruleset key", key, KNOBS)
    return {**data, **overrides}


def parse_sheet(char_id, doc, label, rules):
    if not isinstance(doc, dict) or not isinstance(doc.get("track"), dict):
        raise BadInput(f"{label}: a sheet needs `track: {{harm: 0, xp: 0}}`")
    stats = doc.get("stats") or {}
    for stat in stats:
        if stat not in rules["stats"]:
            raise unknown("stat", stat, rules["stats"])
    track = {k: int(doc["track"].get(k, 0)) for k in ("harm", "xp")}
    return Sheet(char_id, str(doc.get("name", char_id)), dict(stats), track, doc.get("guide") is True)


def new_state(enc_id, participants, rules) -> dict:
    return {"id": enc_id, "round": 1, "participants": list(participants), "spotlight": None}


def load_state(data: dict, label: str, checked: bool = False) -> dict:
    return {"id": data["id"], "round": data.get("round", 1), "participants": list(data["participants"]),
            "spotlight": data.get("spotlight")}


def parse_faces(text, option="--faces"):
    if not text:
        return None
    try:
        return [int(f) for f in str(text).split(",")]
    except ValueError:
        raise BadInput(f"{option}: {text!r} is not faces such as 3,5") from None


def beats(total: int, target: int) -> bool:
    return total >= target


def band(total: int, rules) -> str:
    return "strong hit" if beats(total, rules["strong"]) else "weak hit" if beats(total, rules["weak"]) else "miss"


def move(sheet: Sheet, name: str, faces: list, rules) -> dict:
    """One move: 2d6 + the move's stat, its band, and the XP a miss marks (a guide marks none)."""
    if name not in rules["moves"]:
        raise unknown("move", name, rules["moves"])
    if len(faces) != rules["dice"] or not all(1 <= f <= rules["sides"] for f in faces):
        raise BadInput(f"a move rolls {rules['dice']}d{rules['sides']}; got faces {faces}")
    stat = rules["moves"][name]
    total = sum(faces) + sheet.stats.get(stat, 0)
    got = band(total, rules)
    xp = rules["miss_xp"] if got == "miss" and not sheet.guide else 0
    after = {**sheet.counters, "xp": sheet.counters["xp"] + xp}
    return {"system": "moves", "actor": sheet.id, "move": name, "stat": stat, "stat_value": sheet.stats.get(stat, 0),
            "guide": sheet.guide, "faces": list(faces), "total": total, "band": got, "xp_marked": xp,
            "track_before": dict(sheet.counters), "track_after": after}


def harm(sheet: Sheet, delta: int, rules) -> dict:
    after = sheet.counters["harm"] + delta
    if not 0 <= after <= rules["max_harm"]:
        raise Refused(f"{sheet.id} would have {after} harm", fix=f"harm runs from 0 to {rules['max_harm']}")
    return {"actor": sheet.id, "harm": delta, "track_before": dict(sheet.counters),
            "track_after": {**sheet.counters, "harm": after}}


def odds(stat_value: int, rules) -> dict:
    rolls = list(product(range(1, rules["sides"] + 1), repeat=rules["dice"]))
    bands = [band(sum(r) + stat_value, rules) for r in rolls]
    return {b: Fraction(bands.count(b), len(rolls)) for b in ("strong hit", "weak hit", "miss")}


def verify_log(entries: list, rules) -> str | None:
    """Re-make each logged move from its logged faces, stat value and track with `move` itself."""
    for entry in entries:
        logged = entry.get("result") or {}
        if entry.get("command") not in ("roll", "resolve") or "faces" not in logged:
            continue  # a sealed move is checked once it is unveiled
        sheet = Sheet(logged["actor"], "", {logged["stat"]: logged["stat_value"]}, logged["track_before"],
                      logged["guide"])
        again = move(sheet, logged["move"], logged["faces"], rules)
        wrong = sorted(k for k in again if again[k] != logged.get(k))
        if wrong:
            return f"entry {entry['seq']} ({entry['command']}): {', '.join(wrong)} do not follow from the faces"
    return None


# The `log_checker` hook: each entry checked on its own, as the host streams a log.
log_checker = entrywise(verify_log)
