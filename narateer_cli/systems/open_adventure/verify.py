"""Re-check logged Action Checks with the same functions that rolled them (no second copy of the rules).

`verify_log(entries, rules)` returns the first problem as text or None;
`chance(entry_check, rules)` is the exact chance of success a logged check had (see `luck`).
"""

from __future__ import annotations

from fractions import Fraction

from narateer_cli.kit import NarateerError
from narateer_cli.kit import entrywise

from .chart import chart_dice
from .check import decide, multi_drawbacks
from .dice import check_chains, critical_failure, faces_text


class _Problem(Exception):
    pass


def _expect(ok: bool, what: str):
    if not ok:
        raise _Problem(what)


def _fraction_text(value) -> str | None:
    from narateer_cli.kit import fraction_text

    return None if value is None else fraction_text(Fraction(value))


def verify_check(c: dict, rules, opposed_side: bool = False):
    """One logged check: dice for the AS, faces that fit them, total, DS, outcome, Effect, Stunt loss."""
    _verify_roll(c, rules)
    if opposed_side:
        _expect(all(c.get(k) is None for k in ("margin", "success", "outcome", "effect", "shortfall")),
                "the opponent's check has no outcome of its own")
        return
    ds = c["ds"]
    if c.get("opposed"):
        verify_check(c["opposed"], rules, opposed_side=True)
        _expect(ds["base"] == c["opposed"]["total"], "the opposed DS is not the opponent's total")
    stunt = c.get("stunt") or {}
    _expect(ds["multi"] == multi_drawbacks(stunt.get("targets", 1), stunt.get("outcomes", 1), rules),
            "the multi-target Drawbacks are wrong")
    _expect(ds["total"] == ds["base"] + ds["drawback"] + ds["familiarity"] + ds["multi"], "the DS does not add up")
    if "chance" in c:  # the chance, logged beforehand, must be the chance its declaration gives
        _expect(c["chance"] == _fraction_text(chance(c, rules)), f"the chance should be {chance(c, rules)}")
    _verify_outcome(c, ds, stunt, rules)


def _verify_roll(c: dict, rules):
    """The AS adds up, and its dice, faces, total and Critical Failure are the chart's (or Comparing Scores)."""
    score = c["action_score"]["total"]
    parts = [v for k, v in c["action_score"].items() if k != "total" and v]
    _expect(score == sum(parts), f"AS {score} is not the sum of its parts")
    _expect(c["method"] in ("roll", "compare"), f"method {c['method']!r} is neither roll nor compare")
    if c["method"] == "compare":
        _expect(c["total"] == score and c["faces"] == [], "Comparing Scores uses the AS as its total")
        return
    _verify_dice(c, score, rules)


def _verify_dice(c: dict, score: int, rules):
    """The dice are the chart's for AS `score`; the faces fit them; total and Critical Failure follow."""
    dice = chart_dice(score, rules)
    _expect(c["dice"] == [f"d{n}" for n in dice], f"AS {score} rolls {dice}, not {c['dice']}")
    try:
        check_chains(c["faces"], dice, score, rules, "faces")
    except NarateerError as exc:
        raise _Problem(exc.message) from None
    _expect(c["total"] == sum(sum(ch) for ch in c["faces"]), "the total is not the sum of the faces")
    _expect(c["critical_failure"] == critical_failure(c["faces"], rules), "the Critical Failure flag is wrong")
    if "faces_text" in c:
        _expect(c["faces_text"] == faces_text(c["faces"]), f"the faces read {faces_text(c['faces'])!r}")
    if "exploded" in c:
        exploded = [i for i, chain in enumerate(c["faces"]) if len(chain) > 1]
        _expect(c["exploded"] == exploded, f"the dice that exploded are {exploded}")


def _verify_outcome(c: dict, ds: dict, stunt: dict, rules):
    """Success, the Effect and the Stunt's loss follow from the total and the DS."""
    success = decide(c["total"], ds["total"], c["critical_failure"], bool(c.get("opposed")), rules)
    _expect(c["success"] == success, f"success should be {success}")
    margin = c["total"] - ds["total"]
    _expect(c["margin"] == margin, f"the margin should be {margin}")
    words = "Critical Failure" if c["critical_failure"] and not success else ("Success" if success else "Failure")
    _expect(c["outcome"] == words, f"the outcome should be {words}")
    shortfall = None if success else max(0, -margin)
    _expect(c["shortfall"] == shortfall, f"the shortfall should be {shortfall}")
    if not success:
        _expect(all(c[k] is None for k in ("effect", "effect_source", "effect_bonus")), "a failure has no Effect")
    else:
        sources = ("flat", "compare") if c["method"] == "compare" else ("flat", "roll")
        _expect(c["effect_source"] in sources, f"the Effect of a {c['method']} comes from one of {sources}")
        _expect(_whole(c["effect_bonus"]), "the Effect bonus is not a whole number")
    if success and c["effect_source"] != "flat":
        _expect(c["effect"] == max(rules.effect_min, c["total"] - ds["total"] + c["effect_bonus"]), "the Effect is wrong")
    if stunt:
        shortfall = None if success else max(0, ds["total"] - c["total"])
        loss = 1 if success else max(rules.stunt_min_fail_loss, shortfall)
        _expect(stunt["loss"] == loss, f"the Stunt should cost {loss}")
        if stunt["before"] is not None:
            _expect(stunt["after"] == max(0, stunt["before"] - loss), "the pool after the Stunt is wrong")


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _as_declared(entry: dict, c: dict):
    """What the check repeats of its entry: who rolled it (the entry's actor) and its declared mishap."""
    if entry.get("actor") is not None and c is entry.get("result"):
        _expect(c.get("actor") == entry["actor"], f"the check is {entry['actor']}'s, not {c.get('actor')}'s")
    declaration = entry.get("declaration")
    if isinstance(declaration, dict) and "mishap" in declaration and "mishap" in c:
        _expect(c["mishap"] == declaration["mishap"], f"the declared mishap is {declaration['mishap']!r}")


def verify_log(entries, rules) -> str | None:
    """The first logged check that its own faces and declaration do not reproduce, as text; None if all do."""
    for index, entry in enumerate(entries or []):
        if not isinstance(entry, dict):
            return f"entry {index + 1}: not a log entry"
        result = entry.get("result") or {}
        c = result.get("check") if isinstance(result.get("check"), dict) else result
        if not (isinstance(c, dict) and c.get("system") == "open-adventure" and "total" in c):
            continue
        try:
            if isinstance(c.get("action_score"), int):  # `dice AS`: bare dice, no check
                _verify_dice(c, c["action_score"], rules)
            else:
                verify_check(c, rules)
                _as_declared(entry, c)
        except _Problem as exc:
            return f"entry {entry.get('seq', index + 1)} ({entry.get('command')}): {exc}"
        except (KeyError, TypeError, ValueError, AttributeError):
            return f"entry {entry.get('seq', index + 1)} ({entry.get('command')}): the logged check is incomplete"
    return None




def chance(entry_check: dict, rules) -> Fraction | None:
    """The exact chance of success the logged check had: `luck.chance`."""
    from .luck import chance as exact

    return exact(entry_check, rules)


# The `log_checker` hook: each entry checked on its own, as the host streams a log.
log_checker = entrywise(verify_log)
