"""`verify`: re-check a d20-cards encounter log by replaying each logged roll through the same rules code.

A logged `act` is rebuilt from its declaration, its logged inputs (bonus,
penalty, AC, DC, HP before, resources before) and its logged faces by the
engine's own step functions, the ones `act` calls: `spend` and `use_charge`
(payment), `roll_damage`, `attack_roll`, `save_roll`, `landing` and
`strikes`, `take_hit` (Overkill, Swan Song doubling, HP, the Concentration
check), fed the faces through `LoggedFaces`. `damage` and `turn start`
replay `take_damage`. What the replay returns is compared with what was
logged; the first difference is the problem. Each character's sheet values
must also continue from one entry to the next. Problems read
`entry N (command): ...`.
"""

from __future__ import annotations

from typing import Any

from narateer_cli.kit import NarateerError

from .act import (ON_SAVE, attack_roll, evolutionary_success, landing, on_save_damage, roll_damage, save_roll, spend,
                  strikes, use_charge)
from .cards import parse_dice
from .dice import LogFacesMismatch, LoggedFaces
from .effects import take_damage, take_hit
from .sheet import Character


class _Problem(Exception):
    pass


def _expect(ok, message):
    if not ok:
        raise _Problem(message)


def _same(what: str, logged, replayed):
    """The first value the replay gives differently from the log, as `WHAT KEY is X in the log; ...`."""
    from narateer_cli.kit import plain

    replayed = plain(replayed)
    if isinstance(replayed, dict):
        _expect(isinstance(logged, dict), f"{what} is missing")
        for key, value in replayed.items():
            _same(f"{what} {key.replace('_', ' ')}", logged.get(key), value)
        return
    _expect(logged == replayed, f"{what} is {logged!r} in the log; the rules give {replayed!r} from its faces")


def _replayed(what: str, dice: LoggedFaces, fn):
    """Run one step of the rules on the logged faces; a step that wants more (or fewer) faces is a problem."""
    try:
        out = fn(dice)
    except LogFacesMismatch as exc:
        raise _Problem(f"{what}: {exc}") from None
    left = dice.unused()
    _expect(left is None, f"{what}: the log holds more {left} faces than the rules roll")
    return out


def _victim(who, d, rules) -> Character:
    """The struck character as far as the log shows it: HP before, Swan Song (doubled), Concentration (a check)."""
    c = d.get("concentration_check")
    knob, bonus = rules.concentration["bonus"], (c or {}).get("bonus", 0)
    return Character(id=who, name=who, attributes={}, ac={}, hp=d["hp_before"], hp_max=d["hp_before"],
                     resources={}, actions=(), conditions=("swan_song",) if d["doubled"] else (),
                     concentrating={"card": c["card"]} if c else None,
                     concentration=bonus if knob == "concentration" else 0,
                     bonuses={} if knob == "concentration" else {knob: bonus})


def _damage(d, rules, who, hit):
    """Replay damage taken by `hit(victim, dice)`: an act's `take_hit`, or `take_damage` (damage, the drain)."""
    if not d:
        return
    c = d.get("concentration_check")
    dice = LoggedFaces(faces={"concentration": {who: [c["face"]]}} if c else {})
    _, record, _ = _replayed(f"{who}: damage", dice, lambda faces: hit(_victim(who, d, rules), faces))
    _same(f"{who}: damage", d, record)


def _taken(entry, result, rules):
    """`damage CHAR N` deals N; `turn start` drains the Dying by the ruleset's `dying.drain`, as damage."""
    d = result.get("damage") or result.get("drain")
    # as logged: a missing or wrong amount fails the replay (TypeError), which the checker reports
    dealt: Any = (entry.get("declaration") or {}).get("amount") if entry["command"] == "damage" else rules.dying["drain"]
    who = entry.get("actor")
    _damage(d, rules, who, lambda victim, faces: take_damage(victim, dealt, rules, faces, {}, 0))


def _act(result, decl, rules):
    paid, before = result["paid"] or {}, result["resources_before"]
    for res, value in spend(before, paid).items():
        logged = result["resources_after"].get(res)
        _expect(logged == value, f"{res} after payment is {logged!r} in the log; paying {paid.get(res, 0)} "
                                 f"from {before[res]} leaves {value}")
    ch = result.get("charges")
    if ch:
        _same("charges", ch, use_charge(ch["before"]))
        _expect(ch["after"] >= 0, "charges after the performance are below 0")
    roll = result.get("damage_roll")
    if roll:
        expr = roll["expr"]
        dice = parse_dice(int(expr) if str(expr).isdigit() else expr)  # a constant is logged as its digits
        _same("damage roll", roll, _replayed("damage roll", LoggedFaces(faces={"damage": roll["faces"]}),
                                             lambda faces: roll_damage(dice, faces)))
    evo = result.get("evolutionary")
    if evo:
        success = evolutionary_success(evo["face"], evo["augmentor"], rules)
        _expect(evo["success"] == success,
                f"Evolutionary success is {evo['success']!r} in the log; the rules give {success!r} from its face")
    targets = result["targets"]
    _expect(not (evo and evo["stopped"] and targets), "the Evolutionary failure stopped the card, yet targets are logged")
    for i, t in enumerate(targets):
        # under `damage.roll: per_target` only the last target's dice are logged
        own_roll = rules.damage["roll"] != "per_target" or i == len(targets) - 1
        _target(t, result, decl, rules, own_roll)


def _target(t, result, decl, rules, own_roll):
    who, d, roll = t["id"], t["damage"], result.get("damage_roll")
    atk = sv = None
    if t.get("attack"):
        a = t["attack"]
        edge = bool(decl.get("advantage")), bool(decl.get("disadvantage"))
        atk = _replayed(f"{who}: attack", LoggedFaces(faces={"attack": a["faces"]}), lambda faces: attack_roll(
            a["attribute"], a["bonus"], a["penalty"], a["mod"], a["ac_kind"], a["ac"], edge, rules, faces))
        _same(f"{who}: attack", a, atk)
    if t.get("save"):
        s = t["save"]
        _expect(s["dc"] == (result.get("dc") or {}).get("value"), f"{who}: save DC {s['dc']} is not the card's DC")
        sv = _replayed(f"{who}: save", LoggedFaces(faces={"save": {who: [s["face"]]}}),
                       lambda faces: save_roll(s["attribute"], s["bonus"], s["dc"], rules, faces, who))
        _same(f"{who}: save", s, sv)
    logged_base = (d or {}).get("base")

    def resisted(base):  # the card's own `on_save` is not logged: any of the rule's choices may be it
        options = {on_save_damage(base, mode) for mode in ON_SAVE}
        return logged_base if logged_base in options else min(options)

    modifier = (d or {}).get("modifier", 0)
    lands, amount, extra = landing(atk, sv, roll["total"] if roll else 0, modifier, resisted)
    _expect(t["lands"] == lands, f"{who}: lands is {t['lands']!r} in the log; the rules give {lands!r} from its faces")
    if not own_roll and d:
        amount = d["base"]
    _expect(bool(d) == strikes(roll is not None, lands, amount, extra),
            f"{who}: damage is {'logged' if d else 'missing'}, but the replayed roll "
            f"{'deals none' if d else 'deals some'}")
    _damage(d, rules, who, lambda victim, faces: take_hit(victim, amount, extra, modifier, rules, faces, {}, 0))


def _continuity(entry, last):
    for cid, change in (entry.get("state") or {}).items():
        known = last.setdefault(cid, {})
        for key, value in change["before"].items():
            _expect(key not in known or known[key] == value,
                    f"{cid}'s {key} does not continue from its previous entry")
        known.update(change["after"])


def _start(entry, last, after):
    """The sheet values an entry continues from: its parent's (two branches of play joined by git each
    continue from their fork); after a `merge` entry nothing is assumed, nor after a parent
    whose values are not known (too old to be kept, AFTER_KEPT entries back)."""
    if not isinstance(entry, dict) or "parent" not in entry:
        return last
    if entry.get("command") == "merge":
        return {}
    parent = entry["parent"]
    start = last if parent is None else after.get(parent, {})
    return {cid: dict(values) for cid, values in start.items()}


AFTER_KEPT = 4096  # entries whose sheet values stay known: a fork's base is normally near the tips (history.SNAPSHOTS)


class Kept(dict):
    """The sheet values after each of the newest AFTER_KEPT entries, by entry id (what verify holds
    does not grow with the log's length)."""

    def __setitem__(self, eid, values):
        super().__setitem__(eid, values)
        if len(self) > AFTER_KEPT:
            del self[next(iter(self))]




class LogChecker:
    """One log's entries in order (the host's `log_checker` hook): each entry's rolls replayed, and each
    character's sheet values continuing from the entry its `parent` names."""

    def __init__(self, rules, continuity: bool = True):
        self.rules, self.continuity, self.after, self.count = rules, continuity, Kept(), 0
        self.last: dict = {}  # each character's sheet values after the entry before

    def __call__(self, entry) -> str | None:
        self.count += 1
        seq = entry.get("seq", self.count) if isinstance(entry, dict) else self.count
        command = entry.get("command", "?") if isinstance(entry, dict) else "?"
        if isinstance(entry, dict) and (entry.get("commitment") is not None or "unveils" in entry):
            if self.continuity and entry.get("id") is not None:
                self.after[entry["id"]] = self.last  # what the entries after it continue from
            return None  # a sealed roll is checked when it is unveiled (the host's secrets.checker)
        try:
            self.last = _entry(entry, command, self.rules, self.last, self.after, self.continuity)
        except _Problem as exc:
            return f"entry {seq} ({command}): {exc}"
        except (KeyError, TypeError, ValueError, AttributeError, NarateerError) as exc:
            return f"entry {seq} ({command}): malformed ({exc})"
        return None


def log_checker(rules, continuity: bool = True) -> LogChecker:
    """The host's `log_checker` hook; without `continuity` (the campaign log) each entry's values
    are checked on their own."""
    return LogChecker(rules, continuity)


def verify_log(entries: list, rules) -> str | None:
    check = LogChecker(rules)
    return next((found for found in map(check, entries or []) if found), None)


def _entry(entry, command, rules, last, after, continuity=True):
    """One entry's rolls and continuity; returns the sheet values play continues from (`after` by entry id)."""
    if not isinstance(entry, dict):
        raise _Problem("an entry must be a mapping")
    result = entry.get("result") or {}
    if command == "act":
        _act(result, entry.get("declaration") or {}, rules)
    elif command in ("damage", "turn start") or (command == "turn end" and (entry.get("declaration") or {}).get("next")):
        _taken(entry, result, rules)
    if not continuity:
        return last
    last = _start(entry, last, after)
    _continuity(entry, last)
    if entry.get("id") is not None:
        after[entry["id"]] = last
    return last
