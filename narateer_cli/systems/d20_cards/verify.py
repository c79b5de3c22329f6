"""`verify`: re-check a d20-cards encounter log from its logged faces.

Every total, hit, Overkill, save, Concentration check, Swan Song doubling
and HP change is recomputed with the same functions that rolled it (`hits`,
`overkill_amount`, `resists`, `kept`, `hp_after`, `evolutionary_success`),
and each character's sheet values must continue from one entry to the next.
Returns the first problem as `entry N (command): ...`, or None.
"""

from __future__ import annotations

from .act import evolutionary_success, hits, overkill_amount, resists
from .cards import parse_dice
from .effects import hp_after, kept


class _Problem(Exception):
    pass


def _expect(ok, message):
    if not ok:
        raise _Problem(message)


def _damage(d, rules, who):
    if not d:
        return
    _expect(d["dealt"] == d["base"] + d["overkill"], f"{who}: dealt {d['dealt']} is not base + Overkill")
    _expect(d["taken"] == d["dealt"] * (2 if d["doubled"] else 1), f"{who}: taken {d['taken']} does not follow dealt")
    _expect(d["hp_after"] == hp_after(d["hp_before"], d["taken"], rules), f"{who}: HP after {d['hp_after']} is wrong")
    c = d.get("concentration_check")
    if c:
        _expect(1 <= c["face"] <= 20 and c["total"] == c["face"] + c["bonus"], f"{who}: Concentration total is wrong")
        _expect(c["dc"] == rules.concentration["dc"] and c["kept"] == kept(c["total"], rules),
                f"{who}: Concentration check outcome is wrong")


def _attack(t, decl, modifier, rules, who):
    a = t["attack"]
    faces = a["faces"]
    _expect(all(1 <= f <= 20 for f in faces), f"{who}: a face is off the d20")
    edge = decl.get("advantage"), decl.get("disadvantage")
    if len(faces) == 2:
        keep = max(faces) if edge[0] and not edge[1] else min(faces)
        _expect(a["face"] == keep, f"{who}: kept face {a['face']} is not the right one of {faces}")
    else:
        _expect(faces == [a["face"]], f"{who}: face {a['face']} is not the one rolled")
    _expect(a["total"] == a["face"] + a["bonus"] + a["penalty"] + a["mod"], f"{who}: attack total {a['total']} is wrong")
    _expect(a["hit"] == hits(a["face"], a["total"], a["ac"], rules), f"{who}: hit/miss is wrong")
    _expect(t["lands"] == a["hit"], f"{who}: lands does not follow the hit")
    if t["damage"]:
        expected = overkill_amount(a["hit"], a["total"], a["ac"], modifier)
        _expect(t["damage"]["overkill"] == expected, f"{who}: Overkill {t['damage']['overkill']} should be {expected}")


def _act(result, decl, rules):
    paid = result["paid"] or {}
    for res, before in result["resources_before"].items():
        _expect(result["resources_after"].get(res) == before - paid.get(res, 0), f"{res} after payment is wrong")
    ch = result.get("charges")
    if ch:
        _expect(ch["after"] == ch["before"] - 1 and ch["after"] >= 0, "charges after the performance are wrong")
    roll = result.get("damage_roll")
    if roll and roll["faces"]:
        dice = parse_dice(roll["expr"])
        _expect(len(roll["faces"]) % max(dice.count, 1) == 0 and all(1 <= f <= dice.sides for f in roll["faces"]),
                "damage faces do not fit the dice")
        _expect(roll["total"] == sum(roll["faces"][:dice.count]) + dice.bonus, "damage total is wrong")
    evo = result.get("evolutionary")
    if evo:
        _expect(evo["success"] == evolutionary_success(evo["face"], evo["augmentor"], rules),
                "Evolutionary outcome is wrong")
    for t in result["targets"]:
        _target(t, result, decl, rules)


def _target(t, result, decl, rules):
    who = t["id"]
    modifier = (t["damage"] or {}).get("modifier", 0)
    if t.get("attack"):
        _attack(t, decl, modifier, rules, who)
    if t.get("save"):
        s = t["save"]
        _expect(s["total"] == s["face"] + s["bonus"] and 1 <= s["face"] <= 20, f"{who}: save total is wrong")
        _expect(s["dc"] == result["dc"]["value"] and s["resisted"] == resists(s["total"], s["dc"], rules),
                f"{who}: save outcome is wrong")
        _expect(t["lands"] == (not s["resisted"]), f"{who}: lands does not follow the save")
    _damage(t["damage"], rules, who)


def _continuity(entry, last):
    for cid, change in (entry.get("state") or {}).items():
        known = last.setdefault(cid, {})
        for key, value in change["before"].items():
            _expect(key not in known or known[key] == value,
                    f"{cid}'s {key} does not continue from its previous entry")
        known.update(change["after"])


def _start(entry, last, after):
    """The sheet values an entry continues from: its parent's (two branches of play joined by git each
    continue from their fork, G-MERGE-2); after a `merge` entry nothing is assumed."""
    if not isinstance(entry, dict) or "parent" not in entry:
        return last
    if entry.get("command") == "merge":
        return {}
    return {cid: dict(values) for cid, values in after.get(entry["parent"], last).items()}


# what a secret roll's log entry leaves out beyond the host's list, until it is unveiled (P-SECRET-1)
PRIVATE_KEYS = ("face", "hit", "lands", "resisted", "critical", "damage", "damage_roll", "augmentor")


def verify_log(entries: list, rules) -> str | None:
    last, after = {}, {}
    for i, entry in enumerate(entries or [], 1):
        seq = entry.get("seq", i) if isinstance(entry, dict) else i
        command = entry.get("command", "?") if isinstance(entry, dict) else "?"
        if isinstance(entry, dict) and (entry.get("commitment") is not None or "unveils" in entry):
            continue  # a sealed roll is checked when it is unveiled (the host's secrets.checker)
        try:
            last = _entry(entry, command, rules, last, after)
        except _Problem as exc:
            return f"entry {seq} ({command}): {exc}"
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            return f"entry {seq} ({command}): malformed ({exc})"
    return None


def _entry(entry, command, rules, last, after):
    """One entry's rolls and continuity; returns the sheet values play continues from (`after` by entry id)."""
    if not isinstance(entry, dict):
        raise _Problem("an entry must be a mapping")
    result = entry.get("result") or {}
    if command == "act":
        _act(result, entry.get("declaration") or {}, rules)
    elif command in ("damage", "turn start"):
        _damage(result.get("damage") or result.get("drain"), rules, entry.get("actor"))
    last = _start(entry, last, after)
    _continuity(entry, last)
    if entry.get("id") is not None:
        after[entry["id"]] = last
    return last
