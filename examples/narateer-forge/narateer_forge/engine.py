"""Forge's rules: pure functions over plain data (no files, no printing, no randomness of their own).

Every number comes from the ruleset (`rules.yaml` under the campaign's `rules:`). The dice are given:
the commands draw them from the command's random source or read the faces typed at the table, and
`verify` hands the logged faces to these same functions.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from narateer_cli.kit import BadInput, Choice, Int, Map, Record, Refused, Seq, Text, merge_rules, unknown

OUTCOME_WORDS = {"critical": "Critical", "success": "Success", "partial": "Partial success", "bad": "Bad outcome"}
COUNTERS = ("stress", "trauma", "harm")

# What a secret entry may show of each result (a plain dict): who rolled what, never the faces, the kept
# die, the outcome, or a stress change that would give the kept die away.
PUBLIC = {
    "roll": ("actor", "action", "attribute", "rating", "bonus", "push", "pool", "position", "effect", "chance",
             "stress_before", "stress_after", "trauma_before", "trauma_after"),
    "fortune": ("actor", "rating"),
}


# ---------------------------------------------------------------------------------------------- ruleset

class Rules(Record):
    success: int
    partial: int
    zero_dice: int
    resist_base: int
    crit_clears: int
    stress_max: int
    trauma_max: int
    push_stress: int
    harm_max: int
    actions: dict
    rating_max: int
    dice_per_roll: int
    omens: dict


_INTS = {
    "success": (2, 6), "partial": (1, 6), "zero_dice": (1, 10), "resist_base": (1, 12), "crit_clears": (0, 10),
    "stress_max": (1, 100), "trauma_max": (1, 20), "push_stress": (0, 20), "harm_max": (1, 20),
    "rating_max": (1, 10), "dice_per_roll": (1, 30),
}


def _plain(value: Any) -> Any:
    if isinstance(value, dict) or hasattr(value, "items"):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def ruleset(data: dict, overrides: dict, where: str, checked: bool = False) -> Rules:
    """The shipped rules under the campaign's overrides, validated (BadInput naming the key path)."""
    base = _plain(data)
    over = _plain(overrides or {})
    for key in over:
        if key not in base:
            raise unknown("ruleset key", key, sorted(base), detail=f" in {where}")
    merged = merge_rules(base, over)
    if not checked:
        for key, (low, high) in _INTS.items():
            value = merged.get(key)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise BadInput(f"{where}: rules.{key} must be a whole number from {low} to {high}, not {value!r}",
                               fix=f"set rules.{key} to a number from {low} to {high}")
        if merged["partial"] > merged["success"]:
            raise BadInput(f"{where}: rules.partial ({merged['partial']}) is above rules.success ({merged['success']})")
        if not isinstance(merged["actions"], dict) or not merged["actions"]:
            raise BadInput(f"{where}: rules.actions must map each action to its attribute")
        for name, attr in merged["actions"].items():
            if not isinstance(attr, str):
                raise BadInput(f"{where}: rules.actions.{name} must name an attribute, not {attr!r}")
        if set(merged["omens"]) != set(OUTCOME_WORDS):
            raise BadInput(f"{where}: rules.omens must give one omen for each of {', '.join(OUTCOME_WORDS)}")
    return Rules(**merged)


def attributes(rules: Rules) -> list:
    return sorted(set(rules.actions.values()))


# ------------------------------------------------------------------------------------------------ sheets

SHEET_SCHEMA = Map(
    keys={
        "name": Text(),
        "pc": Choice(True, False),
        "guide": Choice(True, False),
        "playbook": Text(),
        "actions": Map(names="actions", values=Int(0, "rating_max")),
        "track": Map(keys={"stress": Int(0, "stress_max"), "trauma": Int(0, "trauma_max"), "harm": Int(0, "harm_max")}),
        "conditions": Seq(Text(word=True)),
    },
    open=True,
)


class Sheet(Record):
    id: str
    name: str
    actions: dict
    dice: dict
    conditions: tuple = ()
    pc: bool = False
    guide: bool = False

    @property
    def counters(self) -> dict:
        return self.dice


def parse_sheet(char_id: str, doc: Any, label: str, rules: Rules) -> Sheet:
    track = doc.get("track") or {}
    return Sheet(
        id=char_id,
        name=str(doc.get("name") or char_id),
        actions={str(k): int(v) for k, v in (doc.get("actions") or {}).items()},
        dice={c: int(track.get(c) or 0) for c in COUNTERS},
        conditions=tuple(str(c) for c in (doc.get("conditions") or ())),
        pc=bool(doc.get("pc")),
        guide=bool(doc.get("guide")),
    )


def attribute_rating(sheet: Sheet, attribute: str, rules: Rules) -> int:
    """An attribute's rating: how many of its actions are rated 1 or more."""
    return sum(1 for act, attr in rules.actions.items() if attr == attribute and sheet.actions.get(act, 0) > 0)


def known_action(name: str, rules: Rules) -> str:
    if name not in rules.actions:
        raise unknown("action", name, sorted(rules.actions))
    return name


def known_attribute(name: str, rules: Rules) -> str:
    if name not in attributes(rules):
        raise unknown("attribute", name, attributes(rules))
    return name


# ------------------------------------------------------------------------------------------- the dice

def rolled_count(pool: int, rules: Rules) -> int:
    """How many dice a pool rolls: its own, or `zero_dice` (keeping the lowest) when it has none."""
    return pool if pool > 0 else rules.zero_dice


def judge(pool: int, faces: list, rules: Rules) -> dict:
    """What a pool's faces say: the die kept, the outcome, critical and success."""
    kept = max(faces) if pool > 0 else min(faces)
    critical = pool > 0 and sum(1 for f in faces if f >= rules.success) >= 2
    if critical:
        outcome = "critical"
    elif kept >= rules.success:
        outcome = "success"
    elif kept >= rules.partial:
        outcome = "partial"
    else:
        outcome = "bad"
    return {"highest": kept, "outcome": outcome, "critical": critical}


def check_faces(faces: list, count: int, option: str = "--faces") -> list:
    if len(faces) != count:
        raise BadInput(f"{option} gives {len(faces)} dice, but this roll rolls {count}",
                       fix=f"give {count} faces, each 1 to 6 ({option} " + ",".join(["6"] * count) + ")")
    for f in faces:
        if not isinstance(f, int) or isinstance(f, bool) or not 1 <= f <= 6:
            raise BadInput(f"{option}: a d6 shows 1 to 6, not {f!r}", fix=f"give {count} faces, each 1 to 6")
    return list(faces)


def add_stress(stress: int, trauma: int, amount: int, rules: Rules) -> tuple:
    """Stress after gaining (or clearing, below 0) `amount`: past the maximum it is one trauma and 0 stress."""
    after = max(0, stress + amount)
    if after > rules.stress_max:
        return 0, trauma + 1
    return after, trauma


def _refuse_retired(sheet: Sheet, trauma_after: int, rules: Rules, what: str) -> None:
    if trauma_after > rules.trauma_max:
        raise Refused(f"{sheet.id} already has {sheet.dice['trauma']} traumas, the most a character can bear; "
                      f"{what} would mark another", fix=f"retire {sheet.id}, or clear stress first")


def action(sheet: Sheet, act: str, bonus: int, push: bool, faces: list, rules: Rules,
           position: str = "risky", effect: str = "standard") -> dict:
    """An action roll: the action's rating plus bonus dice (and one for a push, which costs stress)."""
    known_action(act, rules)
    rating = sheet.actions.get(act, 0)
    pool = rating + bonus + (1 if push else 0)
    if bonus < 0:
        raise BadInput(f"--bonus must be 0 or more, not {bonus}")
    if pool > rules.dice_per_roll:
        raise BadInput(f"a pool of {pool} dice is more than {rules.dice_per_roll}, the most one roll holds",
                       fix="give fewer bonus dice")
    check_faces(faces, rolled_count(pool, rules))
    stress, trauma = sheet.dice["stress"], sheet.dice["trauma"]
    stress_after, trauma_after = add_stress(stress, trauma, rules.push_stress if push else 0, rules)
    _refuse_retired(sheet, trauma_after, rules, "pushing")
    judged = judge(pool, faces, rules)
    return {
        "actor": sheet.id, "action": act, "attribute": rules.actions[act], "rating": rating, "bonus": bonus,
        "push": push, "pool": pool, "position": position, "effect": effect,
        "chance": _ratio(success_chance(pool, rules)), "faces": list(faces),
        "highest": judged["highest"], "critical": judged["critical"],
        "outcome": OUTCOME_WORDS[judged["outcome"]], "success": judged["outcome"] in ("critical", "success"),
        "stress_before": stress, "stress_after": stress_after, "trauma_before": trauma, "trauma_after": trauma_after,
    }


def resist(sheet: Sheet, attribute: str, faces: list, rules: Rules) -> dict:
    """A resistance roll: the attribute's dice; stress cost = resist_base minus the highest (a critical clears)."""
    known_attribute(attribute, rules)
    rating = attribute_rating(sheet, attribute, rules)
    check_faces(faces, rolled_count(rating, rules))
    judged = judge(rating, faces, rules)
    cost = -rules.crit_clears if judged["critical"] else rules.resist_base - judged["highest"]
    stress, trauma = sheet.dice["stress"], sheet.dice["trauma"]
    stress_after, trauma_after = add_stress(stress, trauma, cost, rules)
    _refuse_retired(sheet, trauma_after, rules, "this resistance")
    return {
        "actor": sheet.id, "attribute": attribute, "rating": rating, "faces": list(faces),
        "highest": judged["highest"], "critical": judged["critical"], "cost": cost,
        "stress_before": stress, "stress_after": stress_after, "trauma_before": trauma, "trauma_after": trauma_after,
        "trauma_marked": trauma_after > trauma,
    }


def fortune(actor: str, rating: int, faces: list, rules: Rules) -> dict:
    """The Guide's fortune roll: a rating's dice, read as an omen."""
    if not 0 <= rating <= rules.dice_per_roll:
        raise BadInput(f"a fortune roll's rating is 0 to {rules.dice_per_roll}, not {rating}")
    check_faces(faces, rolled_count(rating, rules))
    judged = judge(rating, faces, rules)
    return {"actor": actor, "rating": rating, "faces": list(faces), "highest": judged["highest"],
            "critical": judged["critical"], "outcome": OUTCOME_WORDS[judged["outcome"]],
            "omen": rules.omens[judged["outcome"]]}


def counter_change(sheet: Sheet, counter: str, change: int, rules: Rules) -> dict:
    """`harm` and `stress` by hand: the counter after `change` (stress past its maximum is a trauma)."""
    before = dict(sheet.dice)
    after = dict(before)
    if counter == "stress":
        if before["stress"] + change < 0:
            raise Refused(f"{sheet.id} has {before['stress']} stress; {change} would take it below 0", fix=f"clear at most {before['stress']}")
        after["stress"], after["trauma"] = add_stress(before["stress"], before["trauma"], change, rules)
        _refuse_retired(sheet, after["trauma"], rules, "this stress")
    else:
        now = before["harm"] + change
        if not 0 <= now <= rules.harm_max:
            raise Refused(f"{sheet.id}'s harm is {before['harm']}; {change:+d} would make it {now}, outside 0 to "
                          f"{rules.harm_max}", fix=f"give a change from {-before['harm']:+d} "
                          f"to {rules.harm_max - before['harm']:+d}")
        after["harm"] = now
    return {"actor": sheet.id, "counter": counter, "change": change, "before": before, "after": after,
            "trauma_marked": after["trauma"] > before["trauma"]}


# ------------------------------------------------------------------------------------------ exact odds

def kept_distribution(pool: int, rules: Rules) -> dict:
    """P(kept die = f) for f in 1..6, exactly: the highest of `pool` dice, or the lowest of `zero_dice`."""
    n = rolled_count(pool, rules)
    dist = {}
    for f in range(1, 7):
        if pool > 0:
            dist[f] = Fraction(f, 6) ** n - Fraction(f - 1, 6) ** n
        else:
            dist[f] = Fraction(7 - f, 6) ** n - Fraction(6 - f, 6) ** n
    return dist


def critical_chance(pool: int, rules: Rules) -> Fraction:
    """P(two or more dice at `success` or above); a pool of none cannot be critical."""
    if pool <= 0:
        return Fraction(0)
    p = Fraction(7 - rules.success, 6)
    q = 1 - p
    return 1 - q ** pool - pool * p * q ** (pool - 1)


def outcome_chances(pool: int, rules: Rules) -> dict:
    dist = kept_distribution(pool, rules)
    crit = critical_chance(pool, rules)
    top = sum((dist[f] for f in range(rules.success, 7)), Fraction(0))
    return {
        "critical": crit,
        "success": top - crit,
        "partial": sum((dist[f] for f in range(rules.partial, rules.success)), Fraction(0)),
        "bad": sum((dist[f] for f in range(1, rules.partial)), Fraction(0)),
    }


def success_chance(pool: int, rules: Rules) -> Fraction:
    chances = outcome_chances(pool, rules)
    return chances["critical"] + chances["success"]


def cost_chances(rating: int, rules: Rules) -> dict:
    """A resistance roll's stress cost -> its exact chance (a critical clears stress: a negative cost)."""
    dist = kept_distribution(rating, rules)
    crit = critical_chance(rating, rules)
    out: dict = {}
    for f, p in dist.items():
        if rating > 0 and f >= rules.success:
            # kept f and no critical: exactly one die at `success` or above, the kept one
            p = rating * Fraction(1, 6) * Fraction(rules.success - 1, 6) ** (rating - 1)
        cost = rules.resist_base - f
        out[cost] = out.get(cost, Fraction(0)) + p
    if crit:
        out[-rules.crit_clears] = out.get(-rules.crit_clears, Fraction(0)) + crit
    return dict(sorted(out.items()))


def odds(pool: int, rules: Rules, resistance: bool = False) -> dict:
    if not 0 <= pool <= rules.dice_per_roll:
        raise BadInput(f"a pool is 0 to {rules.dice_per_roll} dice, not {pool}")
    data: dict = {"pool": pool, "rolled": rolled_count(pool, rules), "keeps": "highest" if pool else "lowest"}
    if resistance:
        data["costs"] = {str(k): _ratio(v) for k, v in cost_chances(pool, rules).items()}
    else:
        data["outcomes"] = {k: _ratio(v) for k, v in outcome_chances(pool, rules).items()}
        data["chance"] = _ratio(success_chance(pool, rules))
    return data


def _ratio(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def chance(check: dict, rules: Rules):
    """A logged action roll's exact chance of a full success (a 6 or a critical), from its pool."""
    if "pool" not in check or "action" not in check:
        return None
    return success_chance(int(check["pool"]), rules)


# ---------------------------------------------------------------------------------------------- verify

def _replay(command: str, result: dict, rules: Rules) -> dict | None:
    """The result the logged declaration and faces make, by the same rules code as the command."""
    if command == "roll":
        pool = result["rating"] + result["bonus"] + (1 if result["push"] else 0)
        judged = judge(pool, check_faces(result["faces"], rolled_count(pool, rules)), rules)
        stress_after, trauma_after = add_stress(result["stress_before"], result["trauma_before"],
                                                rules.push_stress if result["push"] else 0, rules)
        return {**result, "pool": pool, "chance": _ratio(success_chance(pool, rules)),
                "highest": judged["highest"], "critical": judged["critical"],
                "outcome": OUTCOME_WORDS[judged["outcome"]], "success": judged["outcome"] in ("critical", "success"),
                "stress_after": stress_after, "trauma_after": trauma_after}
    if command == "resolve":
        rating = result["rating"]
        judged = judge(rating, check_faces(result["faces"], rolled_count(rating, rules)), rules)
        cost = -rules.crit_clears if judged["critical"] else rules.resist_base - judged["highest"]
        stress_after, trauma_after = add_stress(result["stress_before"], result["trauma_before"], cost, rules)
        return {**result, "highest": judged["highest"], "critical": judged["critical"], "cost": cost,
                "stress_after": stress_after, "trauma_after": trauma_after,
                "trauma_marked": trauma_after > result["trauma_before"]}
    if command == "fortune":
        judged = judge(result["rating"], check_faces(result["faces"], rolled_count(result["rating"], rules)), rules)
        return {**result, "highest": judged["highest"], "critical": judged["critical"],
                "outcome": OUTCOME_WORDS[judged["outcome"]], "omen": rules.omens[judged["outcome"]]}
    if command in ("harm", "stress"):
        before, after = dict(result["before"]), dict(result["before"])
        if command == "stress":
            after["stress"], after["trauma"] = add_stress(before["stress"], before["trauma"], result["change"], rules)
        else:
            after["harm"] = before["harm"] + result["change"]
        return {**result, "after": after, "trauma_marked": after["trauma"] > before["trauma"]}
    return None


def verify_log(entries: list, rules: Rules) -> str | None:
    """The first logged Forge result that its own faces and declaration do not make."""
    for entry in entries:
        command, result = entry.get("command"), entry.get("result")
        if not isinstance(result, dict) or command not in ("roll", "resolve", "fortune", "harm", "stress"):
            continue
        where = f"entry {entry.get('seq')} ({command})"
        try:
            again = _replay(command, result, rules)
        except (KeyError, TypeError, ValueError) as exc:
            return f"{where}: the result lacks what a replay needs ({exc})"
        except BadInput as exc:
            return f"{where}: {exc.line()}"
        if again is None:
            continue
        for key in again:
            if again[key] != result.get(key):
                return f"{where}: {key} is {result.get(key)!r}, but its faces and declaration make {again[key]!r}"
        dice = entry.get("dice")
        if isinstance(dice, dict) and isinstance(dice.get(entry.get("actor")), dict):
            after = dice[entry["actor"]].get("after")
            want = again.get("after") or {"stress": again.get("stress_after"), "trauma": again.get("trauma_after")}
            if isinstance(after, dict):
                for key, value in want.items():
                    if value is not None and key in after and after[key] != value:
                        return f"{where}: the sheet's {key} after is {after[key]}, but the roll makes {value}"
    return None


# --------------------------------------------------------------------------------------- conformance kit

CONFORMANCE = {
    "setup": ["encounter new heist cutter whisper"],
    "counter": "harm cutter +1",
    "secret": "fortune guide 2",
    "refused": [
        "roll cutter skirmsh",                       # an unknown action (closest named)
        "roll nobody skirmish",                      # an unknown character
        "roll cutter skirmish --faces 6",            # two dice rated, one face given
        "resolve cutter prowess --secret",           # a secret resistance would show its cost
        "harm cutter +9",                            # past the harm track
        "fortune cutter 2",                          # fortune is the Guide's roll
    ],
    "more": [
        "roll cutter skirmish --faces 6,3",
        "roll whisper prowl --push --faces 2,5",
        "resolve cutter prowess --faces 4,1,2",
        "stress whisper +3",
        "condition cutter +shaken",
    ],
}
