"""Table-driven validation of YAML documents against a system's schema (S-SYS-4, S-SYS-5).

A system describes its sheet (and any other document) as a table of nodes:
`Map` (known keys, or keys named by the ruleset, or any keys), `Int` (a range,
bounds given as numbers or as ruleset attributes), `Name` (a scalar that must
be one of the ruleset's names), `Seq`, `Either`, `Text` and `Anything`.
`problems(doc, schema, label, rules)` walks a document and returns every
problem as a `Problem` (file, line, key path, message, fix, severity):

- an unknown key inside a known map is an error ("did you mean ready?");
- an unknown top-level key is kept; it is a warning only when it is close to
  a known key (a near miss such as `skils:`);
- a value of the wrong type or out of range is an error naming its key.

Commands raise the first error (exit 2); `check` lists them all.
"""

from __future__ import annotations

from typing import NamedTuple

from ..errors import BadInput
from ..suggest import closest


class Problem(NamedTuple):
    file: str
    line: int
    key: str  # the key path, e.g. "action_dice.redy"
    message: str
    fix: str = ""
    severity: str = "error"  # "error": commands refuse the file; "warning": only `check` reports it

    _shape = "narateer_cli.render:problem"  # shown as `file:line: message` by the render layer only

    def error(self) -> BadInput:
        return BadInput(f"{self.file}:{self.line}: {self.message}", fix=self.fix or None)


class Node:
    def walk(self, value, path: str, place, out: list, ctx: "_Ctx"):
        raise NotImplementedError


class Anything(Node):
    def walk(self, value, path, place, out, ctx):
        pass


class Text(Node):
    """A scalar written as text; `word`: it must be a string (an id, a name), not a number."""

    def __init__(self, word: bool = False):
        self.word = word

    def walk(self, value, path, place, out, ctx):
        wanted = (str,) if self.word else (str, int, float)
        if isinstance(value, bool) or not isinstance(value, wanted):
            ctx.add(out, place, path, f"{path} must be text, not {value!r}", "write it on one line")


class Nullable(Node):
    """`null` or the node's value."""

    def __init__(self, node: Node):
        self.node = node

    def walk(self, value, path, place, out, ctx):
        if value is not None:
            self.node.walk(value, path, place, out, ctx)


class Int(Node):
    """A whole number from `low` to `high`; a bound may name a ruleset attribute (`"max_state_dice"`)."""

    def __init__(self, low=0, high=None):
        self.low, self.high = low, high

    def walk(self, value, path, place, out, ctx):
        low, high = ctx.bound(self.low), ctx.bound(self.high)
        if isinstance(value, bool) or not isinstance(value, int):
            ctx.add(out, place, path, f"{path} must be a whole number, not {value!r}", "write a number there")
        elif (low is not None and value < low) or (high is not None and value > high):
            ctx.add(out, place, path, f"{path} {value} is out of range ({low} to {high})", "write a number in range")


class Name(Node):
    """A name the ruleset knows: `source` is the ruleset attribute listing them (vitals, conditions ...)."""

    def __init__(self, source: str, what: str):
        self.source, self.what = source, what

    def walk(self, value, path, place, out, ctx):
        known = list(ctx.names(self.source))
        if str(value).lower() not in known:
            near = closest(str(value).lower(), known)
            hint = f" (did you mean {' or '.join(near)}?)" if near else ""
            ctx.add(out, place, path, f"{path}: unknown {self.what} {value!r}{hint}", "known: " + ", ".join(known))


class Choice(Node):
    """One of a few fixed values (`crits`, `dotted`; true, false)."""

    def __init__(self, *options):
        self.options = options

    def walk(self, value, path, place, out, ctx):
        if not any(value == option and type(value) is type(option) for option in self.options):
            ctx.add(out, place, path, f"{path} must be one of {', '.join(map(_plain, self.options))}, not {value!r}",
                    "correct it or remove it")


def _plain(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


class Or(Node):
    """The first alternative that fits; when none does, the first one's problems."""

    def __init__(self, *nodes: Node):
        self.nodes = nodes

    def walk(self, value, path, place, out, ctx):
        first = None
        for node in self.nodes:
            found: list = []
            node.walk(value, path, place, found, ctx)
            if not found:
                return
            first = first if first is not None else found
        out.extend(first)


class Seq(Node):
    """A list; `min_items`: at least that many; `indexed`: messages name items as path[i]."""

    def __init__(self, item: Node, min_items: int = 0, indexed: bool = False):
        self.item, self.min_items, self.indexed = item, min_items, indexed

    def walk(self, value, path, place, out, ctx):
        if value is None and not self.min_items:
            return
        if not isinstance(value, list) or len(value) < self.min_items:
            more = f" of at least {self.min_items}" if self.min_items else ""
            ctx.add(out, place, path, f"{path} must be a list{more}", "write it as [a, b]")
            return
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
    keys (all sharing `values`); neither: any key, each value `values`. `open`: unknown keys are kept
    (a top-level map), reported only as near misses. `required`: keys that must be there."""

    def __init__(self, keys: dict | None = None, names: str | None = None, values: Node | None = None,
                 open: bool = False, required: tuple = (), what: str = "key", title: str = "{parent}.{key}"):
        self.keys, self.names, self.values = keys, names, values
        self.open, self.required, self.what = open, required, what
        self.title = title  # how messages name a value inside: "{parent}.{key}", "skill {key}" ...

    def sub(self, path: str, key: str) -> str:
        return self.title.format(parent=path, key=key) if path else key

    def walk(self, value, path, place, out, ctx):
        if value is None and not self.required:
            return
        if not isinstance(value, dict):
            ctx.add(out, place, path or "the file", f"{path or 'the file'} must be a mapping", "write key: value lines")
            return
        for key in self.required:
            if key not in value:
                ctx.add(out, place, self.sub(path, key), f"{self.sub(path, key)} is missing", f"add `{key}:`")
        known = list(self.keys) if self.keys is not None else (list(ctx.names(self.names)) if self.names else None)
        for key, item in value.items():
            name = str(key).lower() if self.names else str(key)
            sub = self.sub(path, str(key))
            line = ctx.line(value, key, place)
            if known is not None and name not in known:
                self._unknown(path, sub, name, known, line, out, ctx)
                continue
            node = self.keys[name] if self.keys is not None else self.values
            if node is not None:
                node.walk(item, sub, (value, key, line), out, ctx)

    def _unknown(self, path, sub, name, known, line, out, ctx):
        near = closest(name, known)
        hint = f" (did you mean {' or '.join(near)}?)" if near else ""
        if self.open:
            if near:
                out.append(Problem(ctx.label, line, sub, f"unknown key {sub!r}{hint}; it is kept and not used",
                                   "rename it if it was meant", "warning"))
            return
        what = f"unknown key {sub!r}" if self.what == "key" else f"unknown {self.what} {name!r} under {path}"
        out.append(Problem(ctx.label, line, sub, what + hint, "known: " + ", ".join(known)))


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

    def add(self, out, place, path, message, fix):
        out.append(Problem(self.label, place[2] if place else 1, path, message, fix))


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
