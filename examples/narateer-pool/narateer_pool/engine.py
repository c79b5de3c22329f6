"""Pool's rules: pure functions over plain data; no files, no printing.

A pool is some d6 and the highest die decides: 6 a full success, 4-5 a partial one, 1-3 a failure, and
two 6s a critical. A rating of 0 rolls two dice and keeps the lowest (which can never be a critical: only
the kept die counts). Every number comes from `rules.yaml`.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations_with_replacement
from math import factorial

from narateer_cli.kit import BadInput, Record, Refused, entrywise, unknown

KNOBS = ("sides", "full", "partial", "crit_sixes", "zero_pool", "max_rating", "max_pool", "dice_default",
         "max_stress", "max_trauma", "actions", "attributes")
OUTCOMES = ("critical", "full success", "partial success", "failure")
# what a secret action roll shows the table (the result is plain data, so the command declares
# it): who rolled which action at which rating; never the faces, the kept die or the outcome
PUBLIC = ("system", "actor", "action", "rating", "pool", "keep")
# a fortune roll shows nothing but its commitment
FORTUNE_PUBLIC = ()
# how the conformance kit plays this game in its example campaign
CONFORMANCE = {
    "counter": "stress ash +1",
    "secret": "fortune guide 3",
    "refused": ["roll ash prowel", "roll nobody prowl", "resist ash prowess --secret", "stress ash +12",
                "stress brin -1", "roll ash prowl --faces 6,6", "fortune ash 2", "odds 11"],
    "more": ["roll ash prowl --faces 6,2,6", "roll ash skirmish --faces 5,1", "resist brin insight --faces 4,2",
             "resist ash resolve --faces 3", "roll brin sway --faces 1,3", "condition ash +bruised"],
}


class Sheet(Record):
    id: str
    name: str
    actions: dict
    counters: dict
    guide: bool = False


def ruleset(data: dict, overrides: dict, where: str, checked: bool = False) -> dict:
    for key in overrides:
        if key not in KNOBS:
            raise unknown("ruleset key", key, KNOBS)
    rules = {**data, **overrides}
    if checked:
        return rules
    for key in KNOBS[:10]:
        if not isinstance(rules.get(key), int) or isinstance(rules.get(key), bool) or rules[key] < 0:
            raise BadInput(f"{where}: rules key {key} must be a whole number 0 or more, not {rules.get(key)!r}")
    for attribute, actions in rules["attributes"].items():
        for action in actions:
            if action not in rules["actions"]:
                raise unknown(f"action (in attribute {attribute})", action, rules["actions"])
    return rules


def parse_sheet(char_id, doc, label, rules) -> Sheet:
    if not isinstance(doc, dict) or not isinstance(doc.get("track"), dict):
        raise BadInput(f"{label}: a sheet needs `track: {{stress: 0, trauma: 0}}`")
    actions = doc.get("actions") or {}
    if not isinstance(actions, dict):
        raise BadInput(f"{label}: actions must be a mapping such as `{{prowl: 2}}`")
    for action, rating in actions.items():
        if action not in rules["actions"]:
            raise unknown("action", action, rules["actions"])
        if not isinstance(rating, int) or isinstance(rating, bool) or not 0 <= rating <= rules["max_rating"]:
            raise BadInput(f"{label}: action {action} is rated {rating!r}; a rating runs from 0 to "
                           f"{rules['max_rating']}")
    track = {}
    for key, high in (("stress", rules["max_stress"]), ("trauma", rules["max_trauma"])):
        value = doc["track"].get(key, 0)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= high:
            raise BadInput(f"{label}: track.{key} is {value!r}; it runs from 0 to {high}")
        track[key] = value
    return Sheet(id=char_id, name=str(doc.get("name", char_id)), actions=dict(actions), counters=track,
                 guide=doc.get("guide") is True)


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


# --- the pool ---------------------------------------------------------------------------------------

def pool(rating: int, rules) -> tuple[int, str]:
    """How many dice a rating rolls, and which die it keeps."""
    return (rating, "highest") if rating > 0 else (rules["zero_pool"], "lowest")


def judge(faces: list, keep: str, rules) -> dict:
    """The die that decides and what it means: the one function every roll, verify and `odds` ask."""
    kept = max(faces) if keep == "highest" else min(faces)
    sixes = sum(1 for f in faces if f >= rules["full"]) if keep == "highest" else 0
    if sixes >= rules["crit_sixes"]:
        outcome = "critical"
    elif kept >= rules["full"]:
        outcome = "full success"
    elif kept >= rules["partial"]:
        outcome = "partial success"
    else:
        outcome = "failure"
    return {"kept": kept, "outcome": outcome, "success": outcome != "failure"}


def _check_faces(faces: list, size: int, rules, what: str) -> None:
    if len(faces) != size or not all(isinstance(f, int) and 1 <= f <= rules["sides"] for f in faces):
        raise BadInput(f"{what} rolls {size}d{rules['sides']}; got faces {','.join(map(str, faces)) or 'none'}",
                       fix=f"give {size} faces from 1 to {rules['sides']}, such as --faces "
                           f"{','.join(['3'] * size)}")


def rating_of(sheet: Sheet, action: str, rules) -> int:
    if action not in rules["actions"]:
        raise unknown("action", action, rules["actions"])
    return sheet.actions.get(action, 0)


def attribute_rating(sheet: Sheet, attribute: str, rules) -> int:
    """An attribute's rating: how many of its actions the sheet rates 1 or more."""
    if attribute not in rules["attributes"]:
        raise unknown("attribute", attribute, rules["attributes"])
    return sum(1 for action in rules["attributes"][attribute] if sheet.actions.get(action, 0) > 0)


def action_roll(actor: str, action: str, rating: int, faces: list, rules) -> dict:
    """One action roll: a pool of RATING d6 (0: two, the lowest kept) judged by its deciding die."""
    size, keep = pool(rating, rules)
    _check_faces(faces, size, rules, f"{action} at rating {rating}")
    return {"system": "pool", "actor": actor, "action": action, "rating": rating, "pool": size, "keep": keep,
            "faces": list(faces), **judge(faces, keep, rules)}


def take_stress(counters: dict, amount: int, rules) -> tuple[dict, int]:
    """Counters after taking AMOUNT stress (negative clears it): past the maximum the character marks a
    trauma and stress resets to 0. Returns the counters and the trauma marked."""
    stress = counters["stress"] + amount
    if stress < 0:
        raise Refused(f"stress would fall to {stress}", fix=f"clear at most {counters['stress']} stress")
    if stress > rules["max_stress"]:
        if counters["trauma"] >= rules["max_trauma"]:
            raise Refused(f"a character with {counters['trauma']} trauma cannot take more stress past "
                          f"{rules['max_stress']}", fix="the character is out of play: retire them")
        return {**counters, "stress": 0, "trauma": counters["trauma"] + 1}, 1
    return {**counters, "stress": stress}, 0


def resist(actor: str, attribute: str, rating: int, track: dict, faces: list, rules) -> dict:
    """Resist a consequence: a pool for the attribute; the character takes 6 minus its deciding die in
    stress."""
    size, keep = pool(rating, rules)
    _check_faces(faces, size, rules, f"{attribute} at rating {rating}")
    judged = judge(faces, keep, rules)
    taken = rules["full"] - judged["kept"]
    after, trauma = take_stress(track, taken, rules)
    return {"system": "pool", "actor": actor, "attribute": attribute, "rating": rating, "pool": size,
            "keep": keep, "faces": list(faces), "kept": judged["kept"], "stress_taken": taken,
            "trauma_marked": trauma, "track_before": dict(track), "track_after": after}


def stress(actor: str, track: dict, delta: int, rules) -> dict:
    """Take (+N) or clear (-N) stress by hand: pushing yourself, indulging a vice."""
    after, trauma = take_stress(track, delta, rules)
    return {"actor": actor, "stress": delta, "trauma_marked": trauma, "track_before": dict(track),
            "track_after": after}


def fortune(actor: str, size: int, faces: list, rules) -> dict:
    """The Guide's fortune roll: a pool of SIZE d6 for a circumstance (0: two, the lowest kept)."""
    if not 0 <= size <= rules["max_pool"]:
        raise BadInput(f"a fortune pool runs from 0 to {rules['max_pool']} dice, not {size}")
    dice, keep = pool(size, rules)
    _check_faces(faces, dice, rules, f"a fortune roll of {size}")
    return {"system": "pool", "actor": actor, "dice": size, "pool": dice, "keep": keep, "faces": list(faces),
            **judge(faces, keep, rules)}


def odds(size: int, rules) -> dict:
    """The exact chance of each outcome for a pool of SIZE, from `judge` itself over every roll (each
    multiset of faces weighted by the number of orders it comes in)."""
    if not 0 <= size <= rules["max_pool"]:
        raise BadInput(f"a pool runs from 0 to {rules['max_pool']} dice, not {size}")
    dice, keep = pool(size, rules)
    counts = dict.fromkeys(OUTCOMES, 0)
    for faces in combinations_with_replacement(range(1, rules["sides"] + 1), dice):
        orders = factorial(dice)
        for face in set(faces):
            orders //= factorial(faces.count(face))
        counts[judge(list(faces), keep, rules)["outcome"]] += orders
    total = rules["sides"] ** dice
    return {outcome: Fraction(n, total) for outcome, n in counts.items()}


def chance_ratio(check: dict, rules) -> tuple[int, int] | None:
    """For `stats`: the exact chance that a logged roll succeeds (any outcome but a failure), as
    (numerator, denominator); None for what is no roll of a pool."""
    size = check.get("rating", check.get("dice"))
    if check.get("system") != "pool" or "outcome" not in check or not isinstance(size, int):
        return None
    chances = odds(size, rules)
    chance = 1 - chances["failure"]
    return chance.numerator, chance.denominator


def fresh_sheet(doc, rules):
    """`new --from`: the copy starts with no stress and no trauma."""
    for key in ("stress", "trauma"):
        doc["track"][key] = 0
    return doc


# --- verify: each logged entry re-made from its logged inputs by the functions that made it -------------

def _remake(command: str, logged: dict, rules) -> dict | None:
    if command in ("roll", "resolve"):
        return action_roll(logged["actor"], logged["action"], logged["rating"], logged["faces"], rules)
    if command == "resist":
        return resist(logged["actor"], logged["attribute"], logged["rating"], logged["track_before"],
                      logged["faces"], rules)
    if command == "fortune":
        return fortune(logged["actor"], logged["dice"], logged["faces"], rules)
    if command == "stress":
        return stress(logged["actor"], logged["track_before"], logged["stress"], rules)
    return None


def verify_log(entries: list, rules) -> str | None:
    for entry in entries:
        logged = entry.get("result")
        command = entry.get("command")
        if not isinstance(logged, dict) or command not in ("roll", "resolve", "resist", "fortune", "stress"):
            continue
        if "commitment" in entry:
            continue  # a sealed roll is checked once it is unveiled (the host feeds the unveiled result)
        where = f"entry {entry.get('seq')} ({command})"
        try:
            again = _remake(command, logged, rules)
        except (KeyError, TypeError) as e:
            return f"{where}: the logged result lacks or garbles {e}"
        except (BadInput, Refused) as e:
            return f"{where}: the rules refuse it again: {e}"
        wrong = sorted(k for k in set(again) | set(logged) if again.get(k) != logged.get(k))
        if wrong:
            return f"{where}: {', '.join(wrong)} do not follow from the faces " \
                   f"({', '.join(f'{k} is {logged.get(k)!r} in the log, the rules give {again.get(k)!r}' for k in wrong)})"
    return None


# The `log_checker` hook: each entry checked on its own, as the host streams a log.
log_checker = entrywise(verify_log)
