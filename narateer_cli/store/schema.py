"""Table-driven validation of YAML documents against a system's schema (unknown names get near misses).

A system describes its sheet (and any other document) as a table of nodes:
`Map` (known keys, or keys named by the ruleset, or any keys, each key
optionally a node of its own), `Int` (a range, bounds given as numbers or as
ruleset attributes), `Num` (the same for measures such as 1.5 metres), `Name`
(a scalar that must be one of the ruleset's names, or may be new but never a
near miss of one), `Seq`, `Either`, `Or`, `Text` (optionally matching a
pattern), `Choice`, `Nullable` and `Anything`.
`problems(doc, schema, label, rules)` walks a document and returns every
problem as a `Problem` (file, line, key path, message, fix, severity):

- an unknown key inside a known map is an error ("did you mean ready?");
- an unknown top-level key is kept; it is a warning only when it is close to
  a known key (a near miss such as `skils:`), or an error in a map whose
  `open="strict"` (a misspelt `cost:` would make a d20-cards card free);
- a value of the wrong type or out of range is an error naming its key.

Commands raise the first error (exit 2); `check` lists them all.
"""

from __future__ import annotations

from typing import NamedTuple

from ..errors import BadInput
from ..suggest import closest, did_you_mean


_SEALED = "sealed:"


class Problem(NamedTuple):
    file: str
    line: int
    key: str  # the key path, e.g. "action_dice.redy"
    message: str
    fix: str = ""
    severity: str = "error"  # "error": commands refuse the file; "warning": only `check` reports it
    rule: str | None = None  # the rule it cites: for --json and the docs, never in its text (words)

    def error(self) -> BadInput:
        return BadInput(f"{self.file}:{self.line}: {self.message}", fix=self.fix or None, rule=self.rule)

    def to_json(self) -> str:
        """Its JSON (in `check --json` and `verify --json`): one line, `file:line: message; fix`."""
        return f"{self.file}:{self.line}: {self.message}" + (f"; {self.fix}" if self.fix else "")


class Node:
    """One node of a schema. A sealed value (store/sealed.py: a secret action's value kept in the Guide's
    private folder, its commitment in the file) fits every node: what it stands for was checked when it was
    made, and a machine without its record cannot see it."""

    def walk(self, value, path: str, place, out: list, ctx: "_Ctx"):
        raise NotImplementedError

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("walk")
        if own is not None:
            def walk(self, value, path, place, out, ctx, _own=own):
                if (type(value) is str and value.startswith(_SEALED)) or type(value).__name__ == "Withheld":
                    from .sealed import is_sealed

                    if is_sealed(value):
                        return None
                return _own(self, value, path, place, out, ctx)

            walk.__doc__, walk.__qualname__ = own.__doc__, own.__qualname__
            cls.walk = walk  # type: ignore[method-assign]

    def fits(self, value) -> bool:
        """Whether `value` is of this node's kind (a number, a text, a mapping ...), for `Or`'s message."""
        return True


class Anything(Node):
    def walk(self, value, path, place, out, ctx):
        pass


class Text(Node):
    """A scalar written as text; `word`: it must be a string (an id, a name), not a number; `pattern`: a
    compiled regular expression the whole string must match, described to the reader by `want`."""

    def __init__(self, word: bool = False, pattern=None, want: str = "text"):
        self.word, self.pattern, self.want = word or pattern is not None, pattern, want

    def fits(self, value):
        return isinstance(value, str)

    def walk(self, value, path, place, out, ctx):
        wanted = (str,) if self.word else (str, int, float)
        if isinstance(value, bool) or not isinstance(value, wanted) or (
                self.pattern is not None and not self.pattern.fullmatch(value)):
            fix = "write it on one line" if self.pattern is None else f"write {self.want}"
            ctx.add(out, place, path, f"{path} must be {self.want}, not {value!r}", fix)


class Nullable(Node):
    """`null` or the node's value."""

    def __init__(self, node: Node):
        self.node = node

    def walk(self, value, path, place, out, ctx):
        if value is not None:
            self.node.walk(value, path, place, out, ctx)


class Int(Node):
    """A whole number from `low` to `high`; a bound may name a ruleset attribute (`"max_state_dice"`)."""

    kinds, want = (int,), "a whole number"

    def __init__(self, low=0, high=None):
        self.low, self.high = low, high

    def fits(self, value):
        return isinstance(value, self.kinds) and not isinstance(value, bool)

    def walk(self, value, path, place, out, ctx):
        low, high = ctx.bound(self.low), ctx.bound(self.high)
        if not self.fits(value):
            ctx.add(out, place, path, f"{path} must be {self.want}, not {value!r}", "write a number there")
        elif (low is not None and value < low) or (high is not None and value > high):
            ctx.add(out, place, path, f"{path} {value} is out of range ({low} to {high})", "write a number in range")


class Num(Int):
    """A number from `low` to `high` that may have a fraction (a distance of 1.5 metres)."""

    kinds, want = (int, float), "a number"


class Name(Node):
    """A name the ruleset knows: `source` is the ruleset attribute listing them (vitals, conditions ...),
    a tuple of the names, or a function of the ruleset giving them. `new`: the name may be one of its
    own, but never a near miss of a known one (one typing slip, or cut short: `app` for ap), which
    would silently miss the rule that reads the known name."""

    def __init__(self, source, what: str, new: bool = False):
        self.source, self.what, self.new = source, what, new

    def fits(self, value):
        return isinstance(value, str)

    def walk(self, value, path, place, out, ctx):
        source = self.source
        known = ([str(n).lower() for n in source] if isinstance(source, (tuple, list)) else
                 list(source(ctx.rules)) if callable(source) else list(ctx.names(source)))
        if str(value).lower() not in known:
            near = closest(str(value), known, cutoff=0.75, slip=True) if self.new else closest(str(value), known)
            if near or not self.new:
                hint = f" (did you mean {' or '.join(near)}?)" if near else ""
                ctx.add(out, place, path, f"{path}: unknown {self.what} {value!r}{hint}",
                        "known: " + ", ".join(known))


class Choice(Node):
    """One of a few fixed values (`crits`, `dotted`; true, false)."""

    def __init__(self, *options):
        self.options = options

    def fits(self, value):
        return any(type(value) is type(option) for option in self.options)

    def walk(self, value, path, place, out, ctx):
        if not any(value == option and type(value) is type(option) for option in self.options):
            words = [o for o in self.options if isinstance(o, str)]
            hint = did_you_mean(value, words) if isinstance(value, str) and words else ""
            ctx.add(out, place, path, f"{path} must be one of {', '.join(map(_plain, self.options))}, not {value!r}"
                    + hint, "correct it or remove it")


def _plain(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


class Or(Node):
    """The first alternative that fits; when none does, the problems of the first alternative of the
    value's kind (a text's for a text: `rech` gets "did you mean reach?"), else the first one's."""

    def __init__(self, *nodes: Node):
        self.nodes = nodes

    def walk(self, value, path, place, out, ctx):
        first = None
        for node in self.nodes:
            found: list = []
            node.walk(value, path, place, found, ctx)
            if not found:
                return
            if first is None or (node.fits(value) and not first[0]):
                first = (node.fits(value), found)
        out.extend(first[1])


class Seq(Node):
    """A list; `min_items`: at least that many; `max_items`: at most; `indexed`: messages name items as path[i]."""

    def __init__(self, item: Node, min_items: int = 0, indexed: bool = False, max_items: int | None = None):
        self.item, self.min_items, self.indexed, self.max_items = item, min_items, indexed, max_items

    def fits(self, value):
        return isinstance(value, list)

    def walk(self, value, path, place, out, ctx):
        if value is None and not self.min_items:
            return
        if not isinstance(value, list) or len(value) < self.min_items:
            more = f" of at least {self.min_items}" if self.min_items else ""
            ctx.add(out, place, path, f"{path} must be a list{more}", "write it as [a, b]")
            return
        if self.max_items is not None and len(value) > self.max_items:
            ctx.add(out, place, path, f"{path} holds more than {self.max_items} items", "shorten the list")
        for index, item in enumerate(value):
            self.item.walk(item, f"{path}[{index}]" if self.indexed else path, place, out, ctx)


class Either(Node):
    """The first alternative whose shape (mapping or not) fits the value."""

    def __init__(self, scalar: Node, mapping: "Map"):
        self.scalar, self.mapping = scalar, mapping

    def walk(self, value, path, place, out, ctx):
        (self.mapping if isinstance(value, dict) else self.scalar).walk(value, path, place, out, ctx)


class Map(Node):
    """A mapping. `keys`: the known keys and their nodes; `names`: a ruleset attribute listing the known
    keys (all sharing `values`); neither: any key, each value `values`, each key `key` (a node, when
    given). `open`: unknown keys are kept (a top-level map), a near miss of a known key (difflib 0.6) is
    only a warning; `open="strict"`: kept too, but a near miss (difflib 0.75) is an error, for a map
    where a misspelt key silently changes a rule. `required`: keys that must be there."""

    def __init__(self, keys: dict | None = None, names: str | None = None, values: Node | None = None,
                 open: bool | str = False, required: tuple = (), what: str = "key", title: str = "{parent}.{key}",
                 key: Node | None = None):
        self.keys, self.names, self.values, self.key = keys, names, values, key
        self.open, self.required, self.what = open, required, what
        self.title = title  # how messages name a value inside: "{parent}.{key}", "skill {key}" ...

    def fits(self, value):
        return isinstance(value, dict)

    def sub(self, path: str, key: str) -> str:
        return self.title.format(parent=path, key=key) if path else key

    def walk(self, value, path, place, out, ctx):
        if value is None and not self.required:
            return
        if not isinstance(value, dict):
            ctx.add(out, place, path or "the file", f"{path or 'the file'} must be a mapping", "write key: value lines")
            return
        start = len(out)
        known = list(self.keys) if self.keys is not None else (list(ctx.names(self.names)) if self.names else None)
        meant = self._items(value, path, known, place, out, ctx)
        missing: list = []  # first, but not the keys a misspelt one stands for (`mentl:` for mental)
        for key in self.required:
            if key not in value and key not in meant:
                ctx.add(missing, place, self.sub(path, key), f"{self.sub(path, key)} is missing", f"add `{key}:`")
        out[start:start] = missing

    def _items(self, value, path, known, place, out, ctx) -> set:
        """Walk each key and value; returns the known keys an unknown one is refused as a misspelling of."""
        meant = set()
        for key, item in value.items():
            name = str(key).lower() if self.names else str(key)
            sub = self.sub(path, str(key))
            line = ctx.line(value, key, place)
            if known is not None and name not in known:
                meant.update(self._unknown(path, sub, name, known, line, out, ctx))
                continue
            node = self.keys[name] if self.keys is not None else self.values
            if self.key is not None:
                self.key.walk(key, sub, (value, key, line), out, ctx)
            if node is not None:
                node.walk(item, sub, (value, key, line), out, ctx)
        return meant

    def _unknown(self, path, sub, name, known, line, out, ctx):
        near = closest(name, known, cutoff=0.75 if self.open == "strict" else 0.6)
        hint = f" (did you mean {' or '.join(near)}?)" if near else ""
        if self.open == "strict" and not near:
            return ()
        if self.open is True:
            if near:
                out.append(Problem(ctx.label, line, sub, f"unknown key {sub!r}{hint}; it is kept and not used",
                                   "rename it if it was meant", "warning"))
            return ()
        what = f"unknown key {sub!r}" if self.what == "key" else f"unknown {self.what} {name!r} under {path}"
        out.append(Problem(ctx.label, line, sub, what + hint, "known: " + ", ".join(known)))
        return near[:1]


class _Ctx:
    def __init__(self, label: str, rules):
        self.label, self.rules = label, rules

    def bound(self, value):
        if not isinstance(value, str):
            return value
        return self.rules.get(value) if isinstance(self.rules, dict) else getattr(self.rules, value)

    def names(self, source: str):
        known = self.rules.get(source) if isinstance(self.rules, dict) else getattr(self.rules, source)
        return [str(n).lower() for n in known] if isinstance(known, (list, tuple, dict)) else []

    @staticmethod
    def line(container, key, place) -> int:
        """The 1-based line of `key` in a round-trip document (its parent's line when not known)."""
        from . import yamlio

        found = yamlio.line_of(container, key) if hasattr(container, "lc") else None
        return found or (place[2] if place else 1)

    def add(self, out, place, path, message, fix, rule=None):
        out.append(Problem(self.label, place[2] if place else 1, path, message, fix, rule=rule))


def problems(doc, schema: Node, label: str, rules, path: str = "") -> list[Problem]:
    """Every problem of `doc` against `schema`, in document order. `rules` (a ruleset, or a plain dict
    of ruleset data) answers Name and Int bounds; `path` names the document's root in messages."""
    out: list[Problem] = []
    schema.walk(doc, path, None, out, _Ctx(label, rules))
    return out


def require(doc, schema: Node, label: str, rules):
    """Raise the first error as BadInput (exit 2); warnings do not stop a command."""
    for problem in problems(doc, schema, label, rules):
        if problem.severity == "error":
            raise problem.error()
