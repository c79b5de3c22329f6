"""Luck you can see: exact chances and the Poisson-binomial percentile.

Pure functions over log entries: no click, no files, no printing. The host
knows nothing of a game's rules; a system tells it, through hooks, which
objects of a logged result are checks (`checks`), each check's exact chance
(`chance`) and what the stats count of it (`luck`: actor, success, dice
spent, top faces rolled and expected). `stats_record` is what `narateer
stats` prints, and what any other reader (a web page) may call.
"""

from __future__ import annotations

import sys
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


def ratio_of(text) -> tuple[int, int] | None:
    """A logged chance "a/b" (ASCII digits, b not 0) as (a, b); None when the text is not one."""
    if isinstance(text, str) and "/" in text:
        top, _, bottom = text.partition("/")
        if top.isascii() and bottom.isascii() and top.isdigit() and bottom.isdigit() and int(bottom):
            return int(top), int(bottom)
    return None


def parse_fraction(text) -> Fraction | None:
    ratio = ratio_of(text)
    return _fraction(*ratio) if ratio is not None else None


def mappings(node) -> list:
    """Every mapping inside a logged result, outermost first (depth first, in order). A list, collected
    by plain recursion: `stats` walks every check of a long log, and a generator per level costs more."""
    out: list = []
    if isinstance(node, dict):
        _collect(node, out)
    elif isinstance(node, list):
        _collect_items(node, out)
    return out


def _collect(mapping: dict, out: list):
    out.append(mapping)
    for value in mapping.values():
        if isinstance(value, dict):
            _collect(value, out)
        elif isinstance(value, list):
            for item in value:  # most lists hold faces: walked only when one holds a mapping or a list
                if isinstance(item, (dict, list)):
                    _collect_items(value, out)
                    break


def _collect_items(items: list, out: list):
    for item in items:
        if isinstance(item, dict):
            _collect(item, out)
        elif isinstance(item, list):
            _collect_items(item, out)


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


def _two_arguments(checks):
    """`find` decided once: a `checks` hook called as (result, declaration) whatever it takes."""
    if getattr(getattr(checks, "__code__", None), "co_argcount", 1) >= 2:
        return checks
    return lambda result, declaration: checks(result)


def annotate(system, rules, result, declaration=None) -> None:
    """Give each check of a result its exact chance of success, logged as `chance` (a fraction as text), in place."""
    checks, chance = system.hook("checks"), system.hook("chance")  # a system opts in with its `checks` hook:
    if checks is None or chance is None or not isinstance(result, dict):  # its verify must accept the new key
        return
    ratio = system.hook("chance_ratio")  # the same chance as whole numbers: no fractions import for a roll
    for check in find(checks, result, declaration):
        if "chance" not in check:
            value = _ask(ratio or chance, check, rules)
            if value is not None:
                check["chance"] = ratio_text(*value) if ratio is not None else _text(value)


def carry_chances(system, shown, logged: dict, declaration=None) -> bool:
    """A command that shows its result otherwise than it logs it: each check of `shown` (plain data) gets the
    `chance` its logged twin holds, the checks taken in the game's order (`checks`), when both give as many;
    True when one was given."""
    checks = system.hook("checks")
    if checks is None or not isinstance(shown, dict):
        return False
    have = list(find(checks, logged, declaration))
    want = list(find(checks, shown, declaration))
    given = False
    if len(have) == len(want):
        for mine, twin in zip(want, have):
            if "chance" in twin and "chance" not in mine and mine.get("actor") == twin.get("actor"):
                mine["chance"] = twin["chance"]
                given = True
    return given


def chance_problem(system, rules, entry: dict) -> str | None:
    """Under verify: each logged `chance` must be the one its check gives now (stats trusts it). The checks
    are those `stats` counts: the game's `checks` hook, else the host's default."""
    checks, chance = system.hook("checks") or any_checks, system.hook("chance")
    result = entry.get("result")
    if chance is None or not isinstance(result, dict):
        return None
    ratio = system.hook("chance_ratio")  # the same chance as whole numbers: check reads a log without fractions
    for check in find(checks, result, entry.get("declaration")):
        logged = check.get("chance")
        if logged is None:
            continue
        bare = {k: v for k, v in check.items() if k != "chance"}
        value = _ask(ratio, bare, rules) if ratio is not None else None
        if value is not None and value[1]:
            now = ratio_text(*value)
        else:
            value = _ask(chance, bare, rules)
            now = None if value is None else _text(value)
        if now is not None and _lowest_terms(logged) != now:
            return (f"entry {entry.get('seq')} ({entry.get('command')}): logged chance {logged} is not the "
                    f"check's chance {now}")
    return None


def _lowest_terms(text) -> str | None:
    """A logged chance "a/b" in lowest terms (as `fraction_text` writes it); None when it is not one."""
    ratio = ratio_of(text)
    return ratio_text(*ratio) if ratio is not None else None


def _text(value) -> str:
    return fraction_text(_fraction(value))


def _ask(chance, check, rules):
    """The system's chance of one check; None for an object its hook cannot read (not one of its checks). A
    chance that is not exact (a float) is the game's fault, named: `stats` would count it inexactly."""
    try:
        value = chance(check, rules)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    if value is not None and not _is_exact(value):
        from .readonly import GameFault, function_name

        raise GameFault(f"{function_name(chance)} gave {value!r} ({type(value).__name__}) as a check's chance, "
                        "which is not exact", rule="K-4",
                        fix="return a fractions.Fraction from `chance` (or two whole numbers from `chance_ratio`)")
    return value


def _is_exact(value) -> bool:
    """A chance as a hook may give it: a Fraction or a whole number (`chance`), or (numerator, denominator)
    as two whole numbers (`chance_ratio`); never a float."""
    if isinstance(value, (tuple, list)):
        return len(value) == 2 and all(type(v) is int for v in value)
    fractions = sys.modules.get("fractions")  # a Fraction was made: its module is loaded
    return type(value) is int or fractions is not None and isinstance(value, fractions.Fraction)


def chance_of(system, rules, check: dict) -> Fraction | None:
    """A check's logged chance, or (an entry from before chances were logged) the one its declaration gives."""
    found = parse_fraction(check.get("chance"))
    if found is not None:
        return found
    chance = system.hook("chance")
    value = _ask(chance, check, rules) if chance is not None else None
    return _fraction(value) if value is not None else None


def weights(chances) -> tuple[list[int], int]:
    """The exact Poisson-binomial distribution of successes as integer weights over one denominator:
    P(S = k) = weights[k] / denominator (luck_percentile.weights, checks with the same chance grouped)."""
    from collections import Counter

    from .luck_percentile import weights as grouped

    return grouped(Counter(chances))


def distribution(chances) -> list[Fraction]:
    """P(S = k) for k = 0..n successes, as fractions."""
    dist, denominator = weights(chances)
    return [_fraction(w, denominator) for w in dist]


def percentile(chances, successes: int) -> Fraction:
    """P(S < k) + P(S = k) / 2, in percent, exactly: how many possible sessions this one was luckier than.
    `stats` prints `luck_percentile.percentile`, this one where it is cheap and within 0.05 points past it."""
    from collections import Counter

    from .luck_percentile import exact

    return exact(Counter(chances), successes)


class _Actor:
    """One character's running sums: checks grouped by their chance (as many groups as the game has
    distinct chances, however long the log), successes, dice spent, top faces and their expectation."""
    __slots__ = ("chances", "checks", "successes", "spent", "crits", "crits_expected")

    def __init__(self):
        self.chances, self.crits_expected = {}, {}  # chance -> checks; expected top faces -> checks
        self.checks, self.successes, self.spent, self.crits = 0, 0, 0, 0

    def record(self, name: str) -> dict:
        from .luck_percentile import percentile as luck_percentile

        groups: dict = {}
        for key, m in self.chances.items():
            if m:
                chance = _exact(key)
                groups[chance] = groups.get(chance, 0) + m
        expected = sum((p * m for p, m in groups.items()), _fraction(0))
        crits_expected = sum((_exact(e) * m for e, m in self.crits_expected.items()), _fraction(0))
        pct = luck_percentile(groups, self.successes) if self.checks else None
        return {"actor": name, "checks": self.checks, "expected": round(float(expected), 3),
                "expected_exact": fraction_text(expected), "successes": self.successes,
                "percentile": round(pct, 1) if pct is not None else None,
                "dice_spent": self.spent, "crits": self.crits,
                "crits_expected": round(float(crits_expected), 3)}


RECENT = 4096  # entries whose counts an undo may still take back (undo works from the log's tip)


def stats_record(entries, system, rules, actor: str | None = None, encounter: str | None = None,
                 since: str | None = None) -> dict:
    """The `stats` counts over (log id, entry) pairs, streamed: per actor the checks, expected and actual
    successes, the percentile, dice spent and top faces. A secret roll counts once it is unveiled;
    an undone entry does not count. Memory: each actor's running sums, and the counts of the last
    RECENT entries that counted (what an undo may take back)."""
    tally = Tally()
    tally.fold(entry_events(entries, system, rules, actor, encounter, since))
    return tally.record(actor, encounter, since)


def entry_events(entries, system, rules, actor: str | None = None, encounter: str | None = None,
                 since: str | None = None):
    """What each (log id, entry) means to `stats`, in log order; each event is one of ("undo", log id,
    the entry it undoes), ("seal", log id, entry id), ("unveil", log id, the entry it unveils) and
    ("count", log id, entry id, its counts). Entries give their events independently of each other:
    only `Tally.fold` needs them in order (luck_scan computes a long log's on two cores)."""
    from .store.loglines import entry_id

    checks, _, luck = hooks(system)
    checks, chance_key = _two_arguments(checks), chance_keys(system, rules)
    for log_id, entry in entries:
        if (encounter is not None and log_id != encounter) or (since is not None and str(entry.get("at") or "") < since):
            continue
        if entry.get("command") == "undo":
            yield "undo", log_id, str((entry.get("declaration") or {}).get("undoes"))
            continue
        if entry.get("commitment") is not None:
            yield "seal", log_id, entry_id(entry)
        elif "unveils" in entry:
            yield "unveil", log_id, str(entry.get("unveils"))
        counts = _counts(entry, checks, luck, chance_key, rules, actor)
        if counts:  # an undo of anything else takes nothing back
            yield "count", log_id, entry_id(entry), counts


class Tally:
    """`stats`' running sums over events (`entry_events`), folded in log order."""

    def __init__(self):
        from collections import OrderedDict

        self.actors: dict[str, _Actor] = {}
        self.recent: OrderedDict = OrderedDict()  # (log id, entry id) -> its counts, oldest first
        self.sealed: set = set()  # the secret entries still sealed (a handful: the Guide's unrevealed rolls)

    def fold(self, events):
        actors, recent, sealed = self.actors, self.recent, self.sealed
        for event in events:
            kind, key = event[0], (event[1], event[2])
            if kind == "count":
                _count(actors, event[3], 1)
                recent[key] = event[3]
                if len(recent) > RECENT:
                    recent.popitem(last=False)
            elif kind == "undo":
                sealed.discard(key)  # an undone secret roll is no roll to wait for
                undone = recent.pop(key, None)
                if undone is not None:
                    _count(actors, undone, -1)
            elif kind == "seal":
                sealed.add(key)
            else:
                sealed.discard(key)

    def record(self, actor: str | None = None, encounter: str | None = None, since: str | None = None) -> dict:
        scope = {"actor": actor, "encounter": encounter, "since": since, "sealed": len(self.sealed)}
        return {"scope": scope, "actors": [self.actors[name].record(name) for name in sorted(self.actors)]}


def _counts(entry, checks, luck, chance_key, rules, actor) -> list[tuple]:
    """What one entry adds: (actor, spent, crits, crits expected, chance or None, success) per check; the
    chance and the crits expected as grouping keys (`chance_keys`, `_ratio_key`), made exact once per
    distinct value when the record is printed."""
    result = entry.get("result")
    if not isinstance(result, dict):
        return []
    unveil = "unveils" in entry
    out = []
    for check in checks(result, entry.get("declaration")):
        got = luck(check, rules)
        who = got.get("actor")
        if who is None or (actor is not None and who != actor):
            continue
        success = got.get("success")
        chance = None if success is None else chance_key(check)  # None: sealed, or no target of its own
        out.append((who, 0 if unveil else got.get("spent", 0), got.get("crits", 0),
                    _ratio_key(got.get("crits_expected", 0)), chance, bool(success)))
    return out


def chance_keys(system, rules):
    """check -> its chance as a key to group checks by (`chance_of`, made cheap for a long log): the logged
    text itself when it is a fraction (parsed once per distinct text, by `_exact`), else what the
    declaration gives, as (ways, ways in all) or a Fraction; None when there is none. Hooks looked up once."""
    ratio, chance = system.hook("chance_ratio"), system.hook("chance")

    def key(check: dict):
        text = check.get("chance")
        if ratio_of(text) is not None:
            return text
        value = _ask(ratio, check, rules) if ratio is not None else None
        if value is not None and value[1]:
            return tuple(value)
        value = _ask(chance, check, rules) if chance is not None else None
        return _fraction(value) if value is not None else None
    return key


def _ratio_key(value):
    """A whole number or Fraction as (numerator, denominator): hashed far faster than a Fraction."""
    if getattr(value, "denominator", None) is None:  # not an int or a Fraction: a float, a text
        value = _fraction(value)
    return value.numerator, value.denominator


def _exact(key) -> Fraction:
    if isinstance(key, tuple):
        return _fraction(*key)
    return parse_fraction(key) if isinstance(key, str) else key


def _count(actors: dict, counts: list, sign: int):
    for who, spent, crits, crits_expected, chance, success in counts:
        row = actors.setdefault(who, _Actor())
        row.spent += sign * spent
        row.crits += sign * crits  # every die rolled, once its faces are public
        row.crits_expected[crits_expected] = row.crits_expected.get(crits_expected, 0) + sign
        if chance is not None:
            row.chances[chance] = row.chances.get(chance, 0) + sign
            row.checks += sign
            row.successes += sign * success


def campaign_entries(root, encounter: str | None = None, system=None, marks: tuple | None = None):
    """(log id, entry) for every log of the campaign (or one), each streamed line by line (memory stays flat).
    With `system`: only the logs of that game, and a named one must be. `marks`: only the
    one-line entries that hold one of these byte texts (`stats_marks`). A damaged line is named on stderr and
    passed over, as the two-core reading does."""
    from .store import encounters, loglines

    for path in log_paths(root, encounter, system):
        log_id, label = path.name[: -len(".log.yaml")], encounters.log_label(path)
        for entry in loglines.entries(path, label, marks, damaged=loglines.warn(label)):
            yield log_id, entry


def log_paths(root, encounter: str | None = None, system=None) -> list:
    """The logs `campaign_entries` reads, in its order."""
    from .store import encounters

    if encounter is not None:
        if system is not None:
            encounters.require_own_log(root, encounter, system)
        return [encounters.log_path(root, encounter)]
    if system is not None:
        return [encounters.log_path(root, log_id) for log_id in encounters.own_logs(root, system)]
    return sorted((root / "encounters").glob("*.log.yaml"))


# The lines `stats_record` reads besides a game's checks: an undo, a sealed roll and its unveiling.
HOST_MARKS = (b'"undo"', b'"commitment"', b'"unveils"')


def stats_marks(system) -> tuple | None:
    """The byte texts a log line must hold for `stats` to parse it (a game's `check_marks` and the host's
    own), or None: the game names none, so every line is parsed."""
    marks = system.hook("check_marks")
    if not isinstance(marks, (tuple, list)) or not marks or not all(isinstance(m, bytes) and m for m in marks):
        return None
    return (*marks, *HOST_MARKS)
