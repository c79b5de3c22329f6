"""Re-check a whole encounter log against the rules (the `verify` command).

Each check object is run again from its own faces and declaration by the
same code that rolled it (`check.replay`), so the rules exist once; each
entry's dice must be conserved and must continue from the entry before.
Returns the first inconsistency as text, or None.
"""

from __future__ import annotations

from narateer_cli.kit import NarateerError
from narateer_cli.kit import entrywise

from .check import CheckResult, replay
from .ruleset import Ruleset

CHECK_KEYS = {"faces", "final_faces", "total", "paid", "rerolled"}


def find_checks(node):
    from narateer_cli.kit import mappings

    return (found for found in mappings(node) if CHECK_KEYS <= found.keys())


# what a logged check claims, in the order a reader checks it
CLAIMS = ("roll_dice", "rerolled", "final_faces", "power_faces", "total", "margin", "success", "outcome", "paid",
          "dice_after")


def check_problem(c: dict, rules: Ruleset) -> str | None:
    """Payment, Edge, total and tier of one logged check: the check, read back as the record it was logged
    from, is run again by `check.replay` from its own declaration and faces, and every claim the log holds
    must be what the rules give (the claims are read from the log as written: a claim changed there is
    named, though the record read back would not hold it)."""
    try:
        logged = CheckResult.from_json(c)
    except (TypeError, ValueError, AttributeError) as exc:
        return f"the check does not read back as a check ({exc})"
    try:
        again = replay(logged, rules).claims
    except NarateerError as exc:
        return exc.message
    if "dice_before" not in c:
        again.pop("dice_after")
    for key in CLAIMS:
        if key in c and key in again and c[key] != again[key]:
            return f"{key} {_show(c[key])} does not follow from the declaration and faces (the rules give {_show(again[key])})"
    return None


def _show(value) -> str:
    return str(list(value)) if isinstance(value, (list, tuple)) else str(value)


def _held(dice: dict) -> dict:
    return {state: count for state, count in dice.items() if count}


def verify_log(entries: list, rules: Ruleset) -> str | None:
    """The first problem of a log (as `entry N (command): ...`), or None: each check re-run, each entry's
    dice agreeing with its checks and conserved, each character's dice continuing from its last entry."""
    last: dict[str, dict] = {}  # character id -> its counters after its last entry
    previous_seq = 0
    for position, entry in enumerate(entries):
        if not isinstance(entry, dict) or "seq" not in entry:
            return f"entry #{position + 1} is not a log entry"
        seq = entry["seq"]
        where = f"entry {seq} ({entry.get('command')})"
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
            return f"{where}: sequence number must be a whole number from 1"
        if seq <= previous_seq:
            # entries from a second branch, joined by git's union merge: their dice
            # continue from the common ancestor, not from the other branch
            last = {}
        previous_seq = seq
        problem = _entry_checks(entry, rules) or _entry_dice(entry, last)
        if problem:
            return f"{where}: {problem}"
    return None


SOURCES = {"dr": "dr", "vs": "readiness", "contested": "contested"}  # a declared target's kind -> its source
# what a roll's check repeats of its declaration
DECLARED = ("skill", "reaction", "discount_base", "discount_boost", "fee")


def _declared_problem(entry: dict, checks: list, rules: Ruleset) -> str | None:
    """A roll whose result is its one check: what the check does not repeat of its declaration, or None."""
    c = entry.get("result")
    if not isinstance(c, dict) or c not in checks:
        return None
    problem = _as_declared(c, entry.get("declaration"), entry.get("actor"), rules)
    return f"{c.get('actor')}'s {c.get('skill')} check: {problem}" if problem else None


def _as_declared(c: dict, declaration, actor, rules: Ruleset) -> str | None:
    """A roll's own check (the entry's result) repeats its declaration: who rolled, the skill, a reaction or
    not, the discounts and fee, the kind of target, and an Edge the declared advantage and disadvantage give
    (advantage may also come from the situation, such as being hidden)."""
    if actor is not None and c.get("actor") != actor:
        return f"the check is {c.get('actor')}'s, but the entry is {actor}'s"
    if not isinstance(declaration, dict):
        return None
    for key in DECLARED:
        if key in declaration and key in c and c[key] != declaration[key]:
            return f"{key} {_show(c[key])} is not the declared {_show(declaration[key])}"
    return _target_and_edge(c, declaration, rules)


def _target_and_edge(c: dict, declaration: dict, rules: Ruleset) -> str | None:
    """The check's kind of target is the declared target's, and its Edge one the declaration allows."""
    from .dice import edge_mode

    target = declaration.get("target")
    kind = target.get("kind") if isinstance(target, dict) else None
    source = SOURCES.get(kind) if isinstance(kind, str) else None
    if source is not None and "target_source" in c and c["target_source"] != source:
        return f"target_source {c['target_source']} does not follow from the declared target ({source})"
    flags = (declaration.get("advantage"), declaration.get("disadvantage"))
    if "edge" in c and all(isinstance(flag, bool) for flag in flags):
        edges = {edge_mode(adv, declaration["disadvantage"], rules.edge_both)
                 for adv in (declaration["advantage"], True)}
        if c["edge"] not in edges:
            return f"edge {c['edge']} does not follow from the declaration (one of {', '.join(sorted(edges))})"
    return None


def _random_dr(entry: dict, rules: Ruleset) -> str | None:
    """A logged (or unveiled) random DR is its base + offset + the dots rolled."""
    r = entry.get("result")
    if entry.get("command") != "dr" or not isinstance(r, dict) or "faces" not in r:
        return None
    again = r.get("base_dr", 0) + rules.random_dr_offset + sum(r["faces"])
    if len(r["faces"]) != rules.random_dr_dice or r.get("dr") != again or r.get("total") != sum(r["faces"]):
        return f"random DR {r.get('dr')} does not follow from its faces {r['faces']} (the rules give {again})"
    return None


def _entry_checks(entry: dict, rules: Ruleset) -> str | None:
    """Every check in the entry re-run, and the entry's dice block agreeing with what each actor paid."""
    problem = _random_dr(entry, rules)
    if problem:
        return problem
    checks = list(find_checks(entry.get("result")))
    for c in checks:
        problem = check_problem(c, rules)
        if problem:
            return f"{c.get('actor')}'s {c.get('skill')} check: {problem}"
    problem = _declared_problem(entry, checks, rules)
    if problem:
        return problem
    dice = entry.get("dice") or {}
    by_actor: dict[str, list[dict]] = {}
    for c in checks:
        if "dice_before" in c and "dice_after" in c:
            by_actor.setdefault(c.get("actor"), []).append(c)
    wound = _applied(entry)
    for actor, mine in by_actor.items():
        if actor not in dice:
            return f"{actor} paid {sum(c['paid'] for c in mine)} AD but the entry records no dice for it"
        if mine[0]["dice_before"] != dice[actor].get("before"):
            return f"{actor}'s dice before {dice[actor].get('before')} differ from its check's {mine[0]['dice_before']}"
        if wound.get("actor") != actor and mine[-1]["dice_after"] != dice[actor].get("after"):
            return f"{actor}'s dice after {dice[actor].get('after')} differ from its check's {mine[-1]['dice_after']}"
    return _wound_problem(entry, wound, by_actor, rules) if wound else None


def _applied(entry: dict) -> dict:
    """The wound an `--apply` dealt in this entry, or {}."""
    result = entry.get("result")
    applied = result.get("applied") if isinstance(result, dict) else None
    return applied if isinstance(applied, dict) and "dice_after" in applied else {}


def _wound_problem(entry: dict, wound: dict, by_actor: dict, rules: Ruleset) -> str | None:
    """With --apply the wound is dealt after every roll of the entry, so it starts from the wounded side's
    dice after its own check (or from its dice before the entry when it did not roll), moves the weapon's
    damage from ready (else used) to wounded, and ends at the entry's final dice for that side."""
    from .character import wound as dealt

    actor = wound.get("actor")
    move = (entry.get("dice") or {}).get(actor)
    if not isinstance(move, dict):
        return f"{actor} takes a wound but the entry records no dice for it"
    start = by_actor[actor][-1]["dice_after"] if actor in by_actor else move.get("before") or {}
    if _held(wound.get("dice_before") or {}) != _held(start):
        return f"{actor}'s wound starts from {wound.get('dice_before')}, not from its dice then {start}"
    again, moved = dealt(start, (entry.get("result") or {}).get("damage") or 0, rules)
    if _held(wound["dice_after"]) != _held(again) or wound.get("moved") != moved:
        return f"{actor}'s wound gives {wound['dice_after']}, but its damage gives {again}"
    if _held(move.get("after") or {}) != _held(again):
        return f"{actor}'s dice after {move.get('after')} differ from its dice after the wound {again}"
    return None


def _entry_dice(entry: dict, last: dict) -> str | None:
    """Dice are conserved by every move, and continue from the character's last entry (`last` is updated)."""
    for cid, move in (entry.get("dice") or {}).items():
        before, after = move.get("before") or {}, move.get("after") or {}
        legacy_merge = entry.get("command") == "merge" and not before  # an old merge, with no values before
        if sum(before.values()) != sum(after.values()) and not legacy_merge:
            return f"{cid} had {sum(before.values())} dice before and {sum(after.values())} after"
        if cid in last and _held(last[cid]) != _held(before):  # a state with 0 dice may be absent
            return f"{cid}'s dice before {before} do not continue from {last[cid]}"
        last[cid] = after
    return None


_each = entrywise(verify_log)


def log_checker(rules: Ruleset, continuity: bool = True):
    """The `log_checker` hook, fed a log's entries in order as the host streams it: each entry checked on its own,
    and the proactive uses of each activation counted across every branch of the log (`Uses`)."""
    return _LogChecker(_each(rules, continuity), Uses())


class _LogChecker:
    """Each entry on its own, then the uses of its activation (an object, so that `check` can keep it)."""

    def __init__(self, each, uses: Uses):
        self.each, self.uses = each, uses

    def __call__(self, entry: dict) -> str | None:
        return self.each(entry) or self.uses.add(entry)


class Uses:
    """Proactive uses per activation, each entry counted once however git joined the branches that hold it.

    An activation begins at its `turn start` entry, whose result holds the uses each Skill allows (SL + 1);
    every entry after it continues its parent's activation, so two clones' checks in one activation both count
    there, in whatever order git's union merge placed their lines. A command never makes a use past the limit
    on the state it read; the branches added up can (each took the last use): that is the entry named. Links are
    kept for the newest entries only, so memory stays flat however long a log grows."""

    KEEP = 4096

    def __init__(self):
        from collections import OrderedDict

        self.activation: OrderedDict = OrderedDict()  # entry id -> (turn start id, actor, uses allowed) or None
        self.made: OrderedDict = OrderedDict()  # (turn start id, skill) -> uses made, the newest KEEP only

    def add(self, entry: dict) -> str | None:
        eid = entry.get("id")
        if not isinstance(eid, str):
            return None  # a log from before ids: no parents to follow
        parent = entry.get("parent")
        now = self.activation.get(parent) if isinstance(parent, str) else None
        command = entry.get("command")
        if command == "turn start":
            allowed = (entry.get("result") or {}).get("uses") if isinstance(entry.get("result"), dict) else None
            now = (eid, entry.get("actor"), dict(allowed)) if isinstance(allowed, dict) else None
        elif command in ("turn end", "encounter end"):
            now = None
        self.activation[eid] = now
        if len(self.activation) > self.KEEP:
            self.activation.popitem(last=False)
        if now is None or command == "react" or entry.get("actor") != now[1]:
            return None
        return self._count(entry, now)

    def _count(self, entry: dict, now: tuple) -> str | None:
        begun, actor, allowed = now
        for c in find_checks(entry.get("result")):
            if c.get("actor") != actor or c.get("reaction") is not False or not isinstance(c.get("skill"), str):
                continue
            skill = c["skill"]
            made = self.made[(begun, skill)] = self.made.get((begun, skill), 0) + 1
            if len(self.made) > self.KEEP:
                self.made.popitem(last=False)
            limit = allowed.get(skill, 1)
            if isinstance(limit, int) and made > limit:
                return (f"{actor}'s proactive {skill} use {made} in one activation, where the limit is {limit}: the "
                        "branches git joined made them together")
        return None
