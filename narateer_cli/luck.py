"""Luck you can see (SPEC Part 7, P-LUCK-1, P-LUCK-2): exact chances and the Poisson-binomial percentile.

Pure functions over log entries: no click, no files, no printing. The host
knows nothing of a game's rules; a system tells it, through hooks, which
objects of a logged result are checks (`checks`), each check's exact chance
(`chance`) and what the stats count of it (`luck`: actor, success, dice
spent, top faces rolled and expected). `stats_record` is what `narateer
stats` prints, and what any other reader (a web page) may call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fractions import Fraction


def fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def ratio_text(numerator: int, denominator: int) -> str:
    """`fraction_text(Fraction(numerator, denominator))` without importing fractions (a roll's start-up time)."""
    from math import gcd

    if denominator == 0:
        raise ZeroDivisionError(f"chance {numerator}/0")
    sign = -1 if denominator < 0 else 1
    common = gcd(numerator, denominator) * sign
    return f"{numerator // common}/{denominator // common}"


def _fraction(*args):
    """A Fraction, with fractions (and decimal) imported only when one is made: never on a roll's path."""
    from fractions import Fraction

    return Fraction(*args)


def parse_fraction(text) -> Fraction | None:
    if isinstance(text, str) and "/" in text:
        top, _, bottom = text.partition("/")
        if top.isdigit() and bottom.isdigit() and int(bottom):
            return _fraction(int(top), int(bottom))
    return None


def mappings(node):
    """Every mapping inside a logged result, outermost first."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from mappings(value)
    elif isinstance(node, list):
        for value in node:
            yield from mappings(value)


def any_checks(node):
    """The host's default `checks` hook: every mapping with an `actor` and a yes/no `success`."""
    return (m for m in mappings(node) if isinstance(m.get("actor"), str) and isinstance(m.get("success"), bool))


def plain_luck(check: dict, rules) -> dict:
    """The host's default `luck` hook: actor, success and what it paid; no die model, so no top faces."""
    paid = check.get("paid")
    return {"actor": check.get("actor"), "success": check.get("success"),
            "spent": paid if isinstance(paid, int) and not isinstance(paid, bool) else 0}


def hooks(system):
    """(checks, chance, luck) of a system, the host's defaults where it has none of its own."""
    return system.hook("checks") or any_checks, system.hook("chance"), system.hook("luck") or plain_luck


def find(checks, result, declaration):
    """A `checks` hook's checks: given the entry's declaration too when it takes a second argument."""
    if getattr(getattr(checks, "__code__", None), "co_argcount", 1) >= 2:
        return checks(result, declaration)
    return checks(result)


def annotate(system, rules, result, declaration=None) -> None:
    """P-LUCK-1: give each check of a result its exact `chance` (a fraction as text), in place."""
    checks, chance = system.hook("checks"), system.hook("chance")  # a system opts in with its `checks` hook:
    if checks is None or chance is None or not isinstance(result, dict):  # its verify must accept the new key
        return
    ratio = system.hook("chance_ratio")  # the same chance as whole numbers: no fractions import for a roll
    for check in find(checks, result, declaration):
        if "chance" not in check:
            value = _ask(ratio or chance, check, rules)
            if value is not None:
                check["chance"] = ratio_text(*value) if ratio is not None else _text(value)


def chance_problem(system, rules, entry: dict) -> str | None:
    """P-LUCK-1 under verify: each logged `chance` must be the one its check gives now (stats trusts it)."""
    checks, chance = system.hook("checks"), system.hook("chance")
    result = entry.get("result")
    if checks is None or chance is None or not isinstance(result, dict):
        return None
    for check in find(checks, result, entry.get("declaration")):
        logged = check.get("chance")
        value = None if logged is None else _ask(chance, {k: v for k, v in check.items() if k != "chance"}, rules)
        if value is not None and parse_fraction(logged) != _fraction(value):
            return (f"entry {entry.get('seq')} ({entry.get('command')}): logged chance {logged} is not the "
                    f"check's chance {_text(value)}")
    return None


def _text(value) -> str:
    return fraction_text(_fraction(value))


def _ask(chance, check, rules):
    """The system's chance of one check; None for an object its hook cannot read (not one of its checks)."""
    try:
        return chance(check, rules)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def chance_of(system, rules, check: dict) -> Fraction | None:
    """A check's logged chance, or (an entry from before P-LUCK-1) the one its declaration gives."""
    found = parse_fraction(check.get("chance"))
    if found is not None:
        return found
    chance = system.hook("chance")
    value = _ask(chance, check, rules) if chance is not None else None
    return _fraction(value) if value is not None else None


def weights(chances) -> tuple[list[int], int]:
    """The exact Poisson-binomial distribution of successes as integer weights over one denominator:
    P(S = k) = weights[k] / denominator. Checks with the same chance form one binomial, computed term by
    term, so a long log of like checks costs one pass; groups are then convolved."""
    from collections import Counter
    from math import lcm

    groups = Counter(chances)
    common = lcm(*(p.denominator for p in groups)) if groups else 1
    dist, denominator = [1], 1
    for p, count in sorted(groups.items()):
        a = p.numerator * (common // p.denominator)
        dist = _convolve(dist, _binomial(count, a, common - a))
        denominator *= common ** count
    return dist, denominator


def _binomial(m: int, a: int, b: int) -> list[int]:
    """C(m, j) a^j b^(m-j) for j = 0..m (the binomial weights over (a + b)^m)."""
    if a == 0 or b == 0:
        return [0] * m + [a ** m] if b == 0 else [b ** m] + [0] * m
    out = [b ** m]
    for j in range(m):
        out.append(out[-1] * (m - j) * a // ((j + 1) * b))
    return out


def _convolve(x: list[int], y: list[int]) -> list[int]:
    if len(x) == 1:
        return [x[0] * v for v in y]
    out = [0] * (len(x) + len(y) - 1)
    for i, xv in enumerate(x):
        if xv:
            for j, yv in enumerate(y):
                out[i + j] += xv * yv
    return out


def distribution(chances) -> list[Fraction]:
    """P(S = k) for k = 0..n successes, as fractions."""
    dist, denominator = weights(chances)
    return [_fraction(w, denominator) for w in dist]


def percentile(chances, successes: int) -> Fraction:
    """P(S < k) + P(S = k) / 2, in percent: how many possible sessions this one was luckier than."""
    dist, denominator = weights(chances)
    below = sum(dist[:successes])
    at = dist[successes] if successes < len(dist) else 0
    return _fraction(100 * (2 * below + at), 2 * denominator)


class _Actor:
    __slots__ = ("chances", "successes", "spent", "crits", "crits_expected")

    def __init__(self):
        self.chances, self.successes, self.spent, self.crits, self.crits_expected = [], 0, 0, 0, _fraction(0)

    def record(self, name: str) -> dict:
        expected = sum(self.chances, _fraction(0))
        pct = percentile(self.chances, self.successes) if self.chances else None
        return {"actor": name, "checks": len(self.chances), "expected": round(float(expected), 3),
                "expected_exact": fraction_text(expected), "successes": self.successes,
                "percentile": round(float(pct), 1) if pct is not None else None,
                "dice_spent": self.spent, "crits": self.crits,
                "crits_expected": round(float(self.crits_expected), 3)}


def _wanted(log_id: str, entry: dict, encounter, since) -> bool:
    if encounter is not None and log_id != encounter:
        return False
    return since is None or str(entry.get("at") or "") >= since


RECENT = 4096  # entries whose counts an undo may still take back (undo works from the log's tip)


def stats_record(entries, system, rules, actor: str | None = None, encounter: str | None = None,
                 since: str | None = None) -> dict:
    """P-LUCK-2 over (log id, entry) pairs, streamed: per actor the checks, expected and actual
    successes, the percentile, dice spent and top faces. A secret roll counts once it is unveiled;
    an undone entry does not count."""
    from collections import OrderedDict

    from .store.loglines import entry_id

    checks, _, luck = hooks(system)
    actors: dict[str, _Actor] = {}
    recent: OrderedDict = OrderedDict()  # (log id, entry id) -> (its counts, sealed change)
    sealed = 0
    for log_id, entry in entries:
        if not _wanted(log_id, entry, encounter, since):
            continue
        if entry.get("command") == "undo":
            undone = recent.pop((log_id, str((entry.get("declaration") or {}).get("undoes"))), None)
            if undone is not None:
                sealed -= undone[1]
                _count(actors, undone[0], -1)
            continue
        change = 1 if entry.get("commitment") is not None else -1 if "unveils" in entry else 0
        counts = _counts(entry, checks, luck, system, rules, actor)
        _count(actors, counts, 1)
        sealed += change
        recent[(log_id, entry_id(entry))] = (counts, change)
        if len(recent) > RECENT:
            recent.popitem(last=False)
    scope = {"actor": actor, "encounter": encounter, "since": since, "sealed": sealed}
    return {"scope": scope, "actors": [actors[name].record(name) for name in sorted(actors)]}


def _counts(entry, checks, luck, system, rules, actor) -> list[tuple]:
    """What one entry adds: (actor, spent, crits, crits expected, chance or None, success) per check."""
    result = entry.get("result")
    unveil = "unveils" in entry
    out = []
    for check in find(checks, result, entry.get("declaration")) if isinstance(result, dict) else ():
        got = luck(check, rules)
        who = got.get("actor")
        if who is None or (actor is not None and who != actor):
            continue
        chance = None
        if got.get("success") is not None:  # None: sealed, or a roll with no target of its own
            chance = chance_of(system, rules, check)
        out.append((who, 0 if unveil else got.get("spent", 0), got.get("crits", 0),
                    _fraction(got.get("crits_expected", 0)), chance, bool(got.get("success"))))
    return out


def _count(actors: dict, counts: list, sign: int):
    for who, spent, crits, crits_expected, chance, success in counts:
        row = actors.setdefault(who, _Actor())
        row.spent += sign * spent
        row.crits += sign * crits  # every die rolled, once its faces are public
        row.crits_expected += sign * crits_expected
        if chance is not None:
            if sign > 0:
                row.chances.append(chance)
            else:
                row.chances.remove(chance)
            row.successes += sign * success


def campaign_entries(root, encounter: str | None = None, system=None):
    """(log id, entry) for every log of the campaign (or one), each streamed line by line (G-LOG-3).
    With `system`: only the logs of that game (S-SYS-1), and a named one must be."""
    from .store import encounters, loglines

    if encounter is not None:
        if system is not None:
            encounters.require_own_log(root, encounter, system)
        paths = [encounters.log_path(root, encounter)]
    elif system is not None:
        paths = [encounters.log_path(root, log_id) for log_id in encounters.own_logs(root, system)]
    else:
        folder = root / "encounters"
        paths = sorted(folder.glob("*.log.yaml"))
    for path in paths:
        log_id = path.name[: -len(".log.yaml")]
        for entry in loglines.entries(path, encounters.log_label(path)):
            yield log_id, entry
