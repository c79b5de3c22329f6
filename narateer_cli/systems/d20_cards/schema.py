"""Schema tables for d20-cards sheets, cards and rules, and the walker that checks them.

Each table is data (known keys per map, types, ranges). `check(doc, spec,
label, locate)` collects every problem as a `Problem` with `file:line`, so
`check` lists them all and `act` can stop at the first. `locate(path)` is
supplied by the caller (it knows the YAML's line numbers); the walker never
reads a file. A misspelt key gets the closest known name.
"""

from __future__ import annotations

import difflib
import re

from narateer_cli.record import Record

from .names import RECHARGES, RESOURCES

ID_RE = re.compile(r"^[A-Za-z0-9_-]+$")
LIMIT = 1_000_000


class Problem(Record):
    _fields = ("label", "line", "message")

    def __str__(self):
        return f"{self.label}:{self.line}: {self.message}"


def closest(word, known) -> str | None:
    found = difflib.get_close_matches(str(word), [str(k) for k in known], n=1, cutoff=0.6)
    return found[0] if found else None


def dotted(path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top)"


class _Walk:
    def __init__(self, label, locate):
        self.label, self.locate, self.problems = label, locate, []

    def add(self, path, message):
        line = None
        probe = tuple(path)
        while line is None and probe:
            line = self.locate(probe) if self.locate else None
            probe = probe[:-1]
        self.problems.append(Problem(self.label, line or 1, f"{dotted(path)}: {message}" if path else message))


class Spec:
    want = "a value"

    def ok(self, value) -> bool:
        return True

    def walk(self, value, path, w: _Walk):
        if not self.ok(value):
            w.add(path, f"must be {self.want}, not {value!r}")


class Int(Spec):
    def __init__(self, low=0, high=LIMIT):
        self.low, self.high = low, high
        self.want = f"a whole number from {low} to {high}"

    def ok(self, value):
        return isinstance(value, int) and not isinstance(value, bool) and self.low <= value <= self.high


class Num(Int):
    def __init__(self, low=0, high=LIMIT):
        super().__init__(low, high)
        self.want = f"a number from {low} to {high}"

    def ok(self, value):
        return isinstance(value, (int, float)) and not isinstance(value, bool) and self.low <= value <= self.high


class Text(Spec):
    want = "a text"

    def ok(self, value):
        return isinstance(value, str)


class Choice(Spec):
    def __init__(self, *options):
        self.options = options
        self.want = "one of " + ", ".join(str(o).lower() if o is not None else "null" for o in options)

    def ok(self, value):
        return any(value == o and type(value) is type(o) for o in self.options)

    def walk(self, value, path, w):
        if not self.ok(value):
            near = closest(value, [o for o in self.options if isinstance(o, str)]) if isinstance(value, str) else None
            hint = f" (did you mean {near}?)" if near else ""
            w.add(path, f"must be {self.want}, not {value!r}{hint}")


class Nullable(Spec):
    def __init__(self, inner):
        self.inner, self.want = inner, f"null or {inner.want}"

    def walk(self, value, path, w):
        if value is not None:
            self.inner.walk(value, path, w)


class Either(Spec):
    """The first alternative whose shape fits (a mapping, a list or a scalar) checks the value."""

    def __init__(self, *alternatives):
        self.alternatives = alternatives
        self.want = " or ".join(a.want for a in alternatives)

    def walk(self, value, path, w):
        for alt in self.alternatives:
            if self._fits(alt, value):
                probe = _Walk(w.label, w.locate)
                alt.walk(value, path, probe)
                if not probe.problems:
                    return
        fitting = [a for a in self.alternatives if isinstance(a, (Map, DictOf)) == isinstance(value, dict)]
        if len(fitting) == 1 and isinstance(value, dict):
            fitting[0].walk(value, path, w)
        else:
            w.add(path, f"must be {self.want}, not {value!r}" + self._near(value))

    @staticmethod
    def _fits(alt, value) -> bool:
        """A mapping spec for a mapping, a list spec for a list, any other for a scalar."""
        return (isinstance(alt, (Map, DictOf)) == isinstance(value, dict)
                and isinstance(alt, ListOf) == isinstance(value, list))

    def _near(self, value) -> str:
        """` (did you mean X?)` for a misspelt choice, else nothing."""
        if not isinstance(value, str):
            return ""
        options = [o for a in self.alternatives if isinstance(a, Choice) for o in a.options if isinstance(o, str)]
        near = closest(value, options) if options else None
        return f" (did you mean {near}?)" if near else ""


class ListOf(Spec):
    def __init__(self, item, most=100):
        self.item, self.most, self.want = item, most, f"a list of {item.want}"

    def walk(self, value, path, w):
        if not isinstance(value, list):
            return w.add(path, f"must be {self.want}")
        if len(value) > self.most:
            w.add(path, f"holds more than {self.most} items")
        for i, item in enumerate(value):
            self.item.walk(item, (*path, i), w)


class Map(Spec):
    """A mapping with known keys; `open=True` lets other keys through (they survive in the file)."""

    def __init__(self, fields, required=(), open=False):
        self.fields, self.required, self.open = fields, required, open
        self.want = "a mapping of " + ", ".join(fields)

    def walk(self, value, path, w):
        if not isinstance(value, dict):
            return w.add(path, f"must be {self.want}")
        meant = set()
        for key, item in value.items():
            spec = self.fields.get(key)
            if spec is not None:
                spec.walk(item, (*path, key), w)
                continue
            near = closest(key, self.fields)
            if self.open and (near is None or difflib.SequenceMatcher(None, str(key), near).ratio() < 0.75):
                continue
            meant.add(near)
            hint = f"did you mean {near}?" if near else "known keys: " + ", ".join(self.fields)
            w.add((*path, key), f"unknown key {key!r}; {hint}")
        for key in self.required:
            if key not in value and key not in meant:
                w.add(path, f"needs `{key}`")


class DictOf(Spec):
    def __init__(self, key, value):
        self.key, self.value, self.want = key, value, f"a mapping of {key.want} to {value.want}"

    def walk(self, value, path, w):
        if not isinstance(value, dict):
            return w.add(path, f"must be {self.want}")
        for k, v in value.items():
            self.key.walk(k, (*path, k), w)
            self.value.walk(v, (*path, k), w)


class Ident(Spec):
    want = "an id (letters, digits, - and _)"

    def ok(self, value):
        return isinstance(value, str) and bool(ID_RE.match(value))


class Named(Ident):
    """An id that may be new, but never a near miss of a name the rules read (`app` for `ap`, S-SYS-4)."""

    def __init__(self, what: str, known: tuple):
        self.what, self.known = what, known

    def walk(self, value, path, w):
        from .names import near_miss

        if not self.ok(value):
            return w.add(path, f"must be {self.want}, not {value!r}")
        near = near_miss(value, self.known)
        if near:
            w.add(path, f"unknown {self.what} {value!r}; did you mean {near}?")


def check(doc, spec: Spec, label: str, locate=None) -> list[Problem]:
    """Every problem of `doc` against `spec`, each with `label:line` (line 1 when unknown)."""
    w = _Walk(label, locate)
    spec.walk(doc, (), w)
    return w.problems


# --- the tables -------------------------------------------------------------

ATTACK_ATTRS = ("kno", "wil", "fin", "phy")
ATTRIBUTES = (*ATTACK_ATTRS, "mind", "body")  # A-CARD-ATTR: the attack attributes, then the 1st-rank ones
PROPERTIES = ("arcane", "companionship", "concentration", "discreet", "evolutionary",
              "mobility", "reaction", "swan_song", "touch")
UNITS = ("rounds", "minutes", "hours", "days")
_DURATION = Map({u: Int(1) for u in UNITS})
_DICE_RE = re.compile(r"^\s*(\d+)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")


class DamageAmount(Spec):
    want = 'a whole number or dice such as "2d6+3"'

    def ok(self, value):
        if isinstance(value, int) and not isinstance(value, bool):
            return 0 <= value <= LIMIT
        return isinstance(value, str) and bool(_DICE_RE.match(value))


CARD_SCHEMA = Map({
    "name": Text(),
    "cost": Either(Int(), DictOf(Named("resource", RESOURCES), Int())),
    "cost_note": Text(),
    "tier": Int(0, 100),
    "source": Nullable(Text()),
    "atk": Nullable(Choice(*ATTACK_ATTRS)),
    "dc": Nullable(Choice("mental", "physical")),
    "save": Nullable(Choice(*ATTACK_ATTRS)),
    "range": Either(Num(), Choice("reach", "sight", "vocal", "self")),
    "reach_bonus": Num(),
    "area": Nullable(Num()),
    "targets": Int(1, 100),
    "cooldown": Nullable(_DURATION),
    "charges": Nullable(Map({"max": Int(1), "recharge": Named("recharge kind", RECHARGES)}, required=("max",))),
    "max_duration": Nullable(_DURATION),
    "properties": ListOf(Choice(*PROPERTIES)),
    "damage": Nullable(Map({"amount": DamageAmount(), "overkill": Int(), "type": Text()}, required=("amount",))),
    "on_save": Nullable(Choice("none", "half", "full")),
    "trigger": Nullable(Text()),
    "evolutionary": Nullable(Map({"on_success": Text(), "on_failure": Text(), "failure_stops": Choice(True, False)})),
    "details": Nullable(Text()),
}, required=("name", "range"), open=True)

_POOL = Map({"current": Int(-LIMIT), "max": Int()}, required=("current", "max"))
_STATE_DURATION = Map({"rounds": Int(0), "until": Int(0)})

SHEET_SCHEMA = Map({
    "name": Text(),
    "attributes": Map({a: Int(-LIMIT) for a in ATTRIBUTES}),
    "bonuses": DictOf(Choice(*ATTACK_ATTRS), Int(-LIMIT)),
    "concentration": Int(-LIMIT),
    "augmentor": Int(0, 100),
    "ac": Map({"physical": Int(), "mental": Int()}, required=("physical", "mental")),
    "hp": _POOL,
    "reach": Num(),
    "resources": DictOf(Named("resource", RESOURCES), _POOL),
    "actions": ListOf(Ident(), 1000),
    "cards": DictOf(Ident(), CARD_SCHEMA),
    "charges": DictOf(Ident(), Int()),
    "cooldowns": DictOf(Ident(), _STATE_DURATION),
    "concentrating": Nullable(Map({"card": Ident(), "rounds": Int(0), "until": Int(0)}, required=("card",))),
    "companions": ListOf(Ident()),
    "owner": Nullable(Ident()),
    "conditions": ListOf(Text()),
    "level": Int(0, 1000),
    "focus_slots": Int(0, 1000),
}, required=("name", "ac", "hp"), open=True)
