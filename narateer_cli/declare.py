"""A verb's declaration as data: one table of fields drives its options, its keywords, its log and its replay.

Each field (`Option`) says once what every reader of it needs: its option name(s), type, help and default
for the command line; its keyword in the Python API (`camp.roll("selka", "stealth", dr=3)`); whether the
log entry's declaration holds it, and under which key; and, for a field a replay reads back from a logged
result, that result's key. `declared(table)` adds the table's options to a command, in table order, and
hands the command one read-only `Given` value in their place (`declared.boost`).

Nothing here imports click until a command is built, so an engine may hold a table and read it back.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Callable

from .record import Record


class Option(Record, kw_only=True):
    """One declared field of a verb and everything the host reads of it."""

    field: str  # the name the command reads it by (its click parameter)
    attr: str | None = None  # its name in the game's record (the field's name when None)
    names: tuple[str, ...]  # the option's names on the command line (the first is the one the API writes)
    help: str | None = None
    type: Any = None  # click's type (int, float...); None: text, or a flag
    choices: tuple[str, ...] | None = None  # the only values it takes
    default: Any = None
    flag: bool = False
    multiple: bool = False
    metavar: str | None = None
    required: bool = False
    show_default: bool = False
    hidden: bool = False
    logged: bool = True  # the log entry's declaration holds it
    log_as: str | None = None  # its key there (the field's name when None)
    keyword: str | None = None  # its keyword in the Python API (the field's name when None)
    result: str | None = None  # its key in the logged result a replay reads it back from (None: not replayed)

    @property
    def log_key(self) -> str:
        return self.log_as or self.field

    @property
    def record_field(self) -> str:
        return self.attr or self.field

    @property
    def api_keyword(self) -> str:
        return self.keyword or self.field

    def click_option(self) -> Callable:
        """The click decorator of this option (only the keywords it sets, so its help reads as written)."""
        import click

        given: dict[str, Any] = {"help": self.help} if self.help is not None else {}
        if self.flag:
            given["is_flag"] = True
        elif self.default is not None:
            given["default"] = self.default
        if self.choices is not None:
            given["type"] = click.Choice(list(self.choices))
        for key in ("type", "metavar"):
            if getattr(self, key) is not None:
                given[key] = getattr(self, key)
        for key in ("multiple", "required", "show_default", "hidden"):
            if getattr(self, key):
                given[key] = True
        return click.option(*self.names, self.field, **given)


class Declared:
    """A verb's table of declared fields, in the order its help lists them."""

    def __init__(self, *options: Option):
        fields = [o.field for o in options]
        repeated = sorted({f for f in fields if fields.count(f) > 1})
        if repeated:
            raise ValueError(f"a declared field is written once: {', '.join(repeated)} is repeated")
        hidden = [f for f in fields if hasattr(Given, f)]
        if hidden:
            raise ValueError(f"a declared field may not be named {hidden[0]!r}: `given.{hidden[0]}` is the value's own "
                             f"method; name the field otherwise (`attr=` keeps your record's name)")
        self.options = options

    def __iter__(self) -> Iterator[Option]:
        return iter(self.options)

    def __add__(self, other: Declared) -> Declared:
        return Declared(*self.options, *other.options)

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(o.field for o in self.options)

    def given(self, values: Mapping[str, Any]) -> Given:
        """The value a command receives: each field's value as the command line gave it."""
        return Given({o.field: values[o.field] for o in self.options})

    def build(self, record: type[Record], given: Mapping[str, Any], **more) -> Any:
        """`record` built from the fields of the table it has and `given` holds (`more` adds or overrides
        fields of its own; the rest keep the record's defaults)."""
        own = set(record._fields)
        return record(**{**{o.record_field: given[o.field] for o in self.options
                            if o.record_field in own and o.field in given}, **more})

    def logged(self, value: Any) -> dict:
        """The declaration a log entry holds: each logged field of `value` (a `Given`, or the game's record)
        under its key, in table order (a tuple as the list JSON makes of it)."""
        out = {}
        for o in self.options:
            if o.logged:
                item = value[o.field] if isinstance(value, Mapping) else getattr(value, o.record_field)
                out[o.log_key] = list(item) if isinstance(item, tuple) else item
        return out

    def replayed(self, logged: Mapping[str, Any]) -> dict:
        """The fields a replay reads back from a logged result, by field (a list as the tuple the command
        made of it), for `build`; a field the result does not hold is left to the record's default."""
        out = {}
        for o in self.options:
            if o.result is not None and o.result in logged:
                item = logged[o.result]
                out[o.field] = tuple(item) if isinstance(item, list) else item
        return out

    def keywords(self) -> dict[str, str]:
        """The Python API's keywords: keyword -> the field (its click parameter) it sets."""
        return {o.api_keyword: o.field for o in self.options}


class Given(Mapping[str, Any]):
    """What a command was given for its declared fields, read-only: `given.boost` or `given["boost"]`."""

    __slots__ = ("_values",)

    def __init__(self, values: Mapping[str, Any]):
        object.__setattr__(self, "_values", dict(values))

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"nothing declared is named {name!r}") from None

    def __setattr__(self, name: str, value: Any):
        raise AttributeError(f"a declaration is read-only: {name!r} cannot be set")

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"Given({self._values!r})"


# The faces read at the table, shared by every game's rolling verbs (`kit.faces_options` adds the same two)
FACES = Declared(
    Option(field="faces", names=("--faces",), metavar="F", logged=False,
           help="Faces rolled at the table: 2,0,1 or crit,miss,hit."),
    Option(field="reroll_faces", names=("--reroll-faces",), metavar="F", logged=False,
           help="Faces of the Edge Phase rerolls, in die order."),
)


def declared(table: Declared, name: str = "declared") -> Callable:
    """A command's declared options from `table` (added where this decorator stands among its options);
    the command is called with one `Given` value as `name` in place of them, and the click command built
    from it carries the table (`.declared`) for the Python API's keywords."""
    import functools

    def wrap(fn):
        @functools.wraps(fn)
        def gathered(*args, **kwargs):
            kwargs[name] = table.given({f: kwargs.pop(f) for f in table.fields})
            return fn(*args, **kwargs)

        gathered.declared = table  # type: ignore[attr-defined]
        for option in reversed(table.options):
            gathered = option.click_option()(gathered)
        return gathered

    return wrap


# What a secret outcome of a verb may change besides counters: the key paths the table perceives (written in
# clear) and those it does not (sealed), in the encounter state (`state.`) and on the actor's own sheet
# (`sheet.`), and the settings it shows (`config.`: narateer.yaml, never sealed); `*` stands for any one key.
# The host refuses any other change of a secret outcome.
SECRECY_ROOTS = ("state", "sheet", "config")


class Secrecy:
    """A verb's declaration of its secret effects (`command(shows=..., seals=...)`), as parsed key paths.

    `shows`: the changes a secret outcome writes in clear, as the rules make them known at the table (after
    a Hide, whom the hider is hidden from). `seals`: the changes it seals, each value a commitment in the
    shared file and the value itself in the private folder (the recorded Stealth total, an omen); the key
    that holds a sealed value is seen, its value is not. A path covers every key below it; a change that
    both cover is sealed."""

    __slots__ = ("shows", "seals")
    shows: tuple[tuple[str, ...], ...]
    seals: tuple[tuple[str, ...], ...]

    def __init__(self, shows=(), seals=(), where: str = "a command"):
        object.__setattr__(self, "shows", _paths(shows, "shows", where))
        object.__setattr__(self, "seals", _paths(seals, "seals", where))

    def __setattr__(self, key, value):
        raise AttributeError(f"a verb's secrecy is declared once: {key!r} cannot be set")

    def __bool__(self) -> bool:
        return bool(self.shows or self.seals)

    def covers(self, path: tuple[str, ...]) -> str | None:
        """"seals" or "shows" for a change at `path` (("state", "recorded", "selka")), None when undeclared."""
        if any(_under(path, p) for p in self.seals):
            return "seals"
        if any(_under(path, p) for p in self.shows):
            return "shows"
        return None

    def sealed_at(self, path: tuple[str, ...]) -> tuple[str, ...] | None:
        """The part of `path` a `seals` path names (the value sealed whole), or None."""
        found = [len(p) for p in self.seals if _under(path, p)]
        return path[:min(found)] if found else None

    def __repr__(self) -> str:
        def said(paths):
            return tuple(".".join(p) for p in paths)

        return f"Secrecy(shows={said(self.shows)!r}, seals={said(self.seals)!r})"


def _paths(given, name: str, where: str) -> tuple[tuple[str, ...], ...]:
    """Dotted key paths (`state.hidden.*.*`) as tuples; ValueError naming `where` for one that is not one."""
    if isinstance(given, str):
        given = (given,)
    out = []
    for text in given:
        parts = tuple(text.split(".")) if isinstance(text, str) else ()
        if len(parts) < 2 or parts[0] not in SECRECY_ROOTS or not all(parts) or any(" " in p for p in parts):
            raise ValueError(f"{where}: {name}={text!r} is not a key path of the state or the actor's sheet: write "
                             f"it as state.KEY... or sheet.KEY... (`*` for any one key), e.g. state.recorded.*")
        if name == "seals" and parts[0] == "config":
            raise ValueError(f"{where}: seals={text!r}: a setting in narateer.yaml is never sealed; a secret "
                             "action that changes one shows it (shows=...) or changes none")
        out.append(parts)
    return tuple(out)


def _under(path: tuple[str, ...], declared: tuple[str, ...]) -> bool:
    """Does the declared path (with `*` for any one key) name `path` or a key above it?"""
    return len(declared) <= len(path) and all(d == "*" or d == p for d, p in zip(declared, path))


NO_SECRECY = Secrecy()  # a verb that declares nothing: a secret outcome changes counters only
