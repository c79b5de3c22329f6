"""Small immutable records: the values every system's engine takes and returns, and their JSON.

They behave like frozen dataclasses (keyword or positional construction,
defaults, equality, repr, `replace`) and type checkers read them as such: a
record's fields are its annotated class attributes, in order, and a value
given beside one is its default (`field(default_factory=dict)` for one made
fresh each time). They are built without code generation, which keeps every
command's start-up short.

A record's JSON (what `--json` prints and the log holds) is made and read in
one place, `to_json` / `from_json`, from its fields in order. Where a shape
needs more than the fields as they are, a field says so (`field(key=...)`
renames it, `key=None` leaves it out, `dump`/`load` convert it, `skip` leaves
it out of a record where it says nothing (a None), `inline` merges a nested record's keys in its
place) and a `computed` attribute adds a key made from the fields (a
message, a constant `system`). A record's secrecy is declared on the same
keys: `public=True` marks what a secret entry may show; a nested record
shows what its own declaration says; `class R(Record, public=True)` holds no
roll at all (every key is public).
"""

from __future__ import annotations

from typing import Any, Callable, dataclass_transform

ALL = "*"  # every key public: the record holds no roll
_SAME: Any = object()  # a field's JSON key is its name
_NONE: Any = object()  # no default given


class Spec:
    """One field's declaration: its default and how its JSON is made, read and kept secret."""

    __slots__ = ("default", "key", "dump", "load", "skip", "public", "inline")

    public: Any

    def __init__(self, default, key, dump, load, skip, public, inline):
        self.default, self.key, self.dump, self.load = default, key, dump, load
        self.skip, self.public, self.inline = skip, public, inline


def field(*, default: Any = _NONE, default_factory: Callable[[], Any] | None = None, key: str | None = _SAME,
          dump: Callable[[Any], Any] | None = None, load: Callable[[Any], Any] | None = None,
          skip: Callable[[Any], bool] | None = None, public: Any = False, inline: bool = False) -> Any:
    """A field with more than a plain default: `default_factory` makes its default fresh for each record (as in
    dataclasses); `key` is its JSON name (None: not in the JSON); `dump` turns its value into JSON and `load`
    back (for a field with no key of its own, `load` reads it from the record's whole JSON object: the keys
    other fields' computed keys wrote); `skip(record)` true leaves the key out; `public=True` lets a secret
    entry show it, `public=SomeRecord` shows of it what that record declares; `inline` puts a nested record's
    keys in place of the field's own key."""
    if default_factory is not None:
        default = factory(default_factory)
    return Spec(default, key, dump, load, skip, public, inline)


class computed:
    """A JSON key made from the record's fields (also readable as an attribute): `get(record)` gives its value,
    `key` its name (else the attribute's), `first` puts it before the fields (else after them), `skip(record)`
    true leaves it out, `public` lets a secret entry show it, `inline` puts the keys of the mapping it gives in
    its place. `from_json` reads no computed key."""

    def __init__(self, get: Callable[[Any], Any], *, key: str | None = None, first: bool = False,
                 skip: Callable[[Any], bool] | None = None, public: bool = False, inline: bool = False):
        self.get, self.key, self.first, self.skip, self.public = get, key, first, skip, public
        self.inline = inline

    def __set_name__(self, owner, name):
        self.key = self.key or name

    def __get__(self, record, owner=None) -> Any:
        return self if record is None else self.get(record)


class _Key:
    """One key of a record's JSON, in order."""

    __slots__ = ("key", "field", "get", "dump", "load", "skip", "public", "inline")

    def __init__(self, key, field, get, dump=None, load=None, skip=None, public=False, inline=False):
        self.key, self.field, self.get, self.dump, self.load = key, field, get, dump, load
        self.skip, self.public, self.inline = skip, public, inline


def _field_getter(name):
    return lambda record: record.__dict__[name]


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
class Record:
    """Subclasses annotate their fields (`name: str`, `dice: dict = field(default_factory=dict)`); a record
    whose fields are known only when it is built (a ruleset's knobs) lists `_fields` and `_defaults`.
    `_json_order` (JSON key names) orders a record's JSON when its computed keys fall between its fields."""

    _fields: tuple = ()
    _defaults: dict = {}
    _specs: dict = {}
    _all_public: bool = False
    _json_order: tuple = ()
    _logged_public: tuple = ()

    def __init_subclass__(cls, kw_only: bool = False, public: bool = False, logged_public: tuple = (), **options):
        """`kw_only=True`: the record is built by keyword alone, so a field with a default may come before
        one without (type checkers then allow it). `public=True`: every key of its JSON is public.
        `logged_public`: keys the log adds to its JSON (a check's exact `chance`) that a secret entry shows."""
        super().__init_subclass__(**options)
        if public:
            cls._all_public = True
        if logged_public:
            cls._logged_public = tuple(logged_public)
        own = [name for name in cls.__dict__.get("__annotations__", {}) if not name.startswith("_")]
        if not own or "_fields" in cls.__dict__:
            return
        defaults, specs = dict(cls._defaults), dict(cls._specs)
        for name in own:
            if name in cls.__dict__:
                value = cls.__dict__[name]
                if isinstance(value, Spec):
                    specs[name] = value
                    value = value.default
                if value is not _NONE:
                    defaults[name] = value
                delattr(cls, name)
        cls._fields = tuple(cls._fields) + tuple(n for n in own if n not in cls._fields)
        cls._defaults, cls._specs = defaults, specs

    def __init__(self, *args, **kwargs):
        if len(args) > len(self._fields):
            raise TypeError(f"{type(self).__name__} takes {len(self._fields)} fields")
        values = dict(zip(self._fields, args))
        for key, value in kwargs.items():
            if key not in self._fields or key in values:
                raise TypeError(f"{type(self).__name__}: unexpected or repeated field {key!r}")
            values[key] = value
        for name in self._fields:
            if name not in values:
                if name not in self._defaults:
                    raise TypeError(f"{type(self).__name__}: missing field {name!r}")
                default = self._defaults[name]
                values[name] = default() if isinstance(default, factory) else default
        self.__dict__.update(values)

    def as_dict(self) -> dict:
        """The fields in declared order, as a new plain dict (values are not copied)."""
        return {name: self.__dict__[name] for name in self._fields}

    # -- JSON, to and from ------------------------------------------------------------------------------

    @classmethod
    def _layout(cls) -> tuple:
        """The record's JSON keys in order: `first` computed keys, the fields, the other computed keys (or
        the order `_json_order` gives)."""
        made = cls.__dict__.get("_made_layout")
        if made is not None:
            return made
        computed_keys = cls._computed_keys()
        firsts = [computed_keys[k] for k in computed_keys if _is_first(cls, k)]
        fields = cls._field_keys()
        lasts = [computed_keys[k] for k in computed_keys if not _is_first(cls, k)]
        layout = firsts + fields + lasts
        if cls._json_order:
            by_key = {k.key: k for k in layout}
            layout = [by_key[k] for k in cls._json_order] + [k for k in layout if k.key not in cls._json_order]
        made = tuple(layout)
        setattr(cls, "_made_layout", made)
        return made

    @classmethod
    def _computed_keys(cls) -> dict:
        """The record's computed keys by name, from its bases first."""
        found = {}
        for klass in reversed(cls.__mro__):
            for value in vars(klass).values():
                if isinstance(value, computed):
                    found[value.key] = _Key(value.key, None, value.get, skip=value.skip, public=value.public,
                                            inline=value.inline)
        return found

    @classmethod
    def _field_keys(cls) -> list:
        """The keys of the record's fields in order, each as its spec says (a field with no key is left out)."""
        fields = []
        for name in cls._fields:
            spec = cls._specs.get(name)
            if spec is None:
                fields.append(_Key(name, name, _field_getter(name)))
            elif spec.key is not None:
                key = name if spec.key is _SAME else spec.key
                fields.append(_Key(key, name, _field_getter(name), spec.dump, spec.load, spec.skip, spec.public,
                                   spec.inline))
        return fields

    def to_json(self) -> dict:
        """The record as JSON-ready data: each key of its layout in order, nested records by their own JSON."""
        out: dict = {}
        for k in self._layout():
            if k.skip is not None and k.skip(self):
                continue
            value = k.get(self)
            value = to_plain(k.dump(value) if k.dump is not None else value)
            if k.inline:
                out.update(value)
            else:
                out[k.key] = value
        return out

    @classmethod
    def from_json(cls, data: dict):
        """The record read back from its JSON (`to_json`'s inverse): each field from its key through its `load`;
        a key left out takes the field's default; a field with no key, by its `load` from the whole object.
        Computed keys are read only by such a `load`. TypeError (or the `load`'s own error) when it cannot."""
        if not isinstance(data, dict):
            raise TypeError(f"{cls.__name__} is read from a JSON object, not {type(data).__name__}")
        values = {}
        for k in cls._layout():
            if k.field is None:
                continue
            if k.inline:
                values[k.field] = k.load(data) if k.load is not None else data
            elif k.key in data:
                values[k.field] = k.load(data[k.key]) if k.load is not None else data[k.key]
        for name, spec in cls._specs.items():
            if spec.key is None and spec.load is not None:
                values[name] = spec.load(data)
        return cls(**values)

    # -- secrecy ------------------------------------------------------------------------------------------

    @classmethod
    def declares_secrecy(cls) -> bool:
        """Does the record say what a secret entry shows of it (a public key, or every key)?"""
        return cls._all_public or bool(cls._logged_public) or any(k.public for k in cls._layout())

    @classmethod
    def declared_paths(cls) -> frozenset | str:
        """What the record's declaration makes public, as dotted key paths of its JSON: each key declared
        `public=True` whole, and under a key declared `public=SomeRecord` what that record declares (an
        inline one's keys at the top); ALL when the record holds no roll."""
        if cls._all_public:
            return ALL
        out: set = set(cls._logged_public)
        for k in cls._layout():
            if k.public is True:
                out.add(k.key)
            elif isinstance(k.public, type) and issubclass(k.public, Record):
                inner = k.public.declared_paths()
                if inner == ALL:
                    inner = frozenset(x.key for x in k.public._layout())
                out |= set(inner) if k.inline else {f"{k.key}.{p}" for p in inner}
        return frozenset(out)

    def public_paths(self) -> frozenset | str:
        """What a secret entry may show of this record: what its declaration makes public, and inside a key
        it leaves undeclared that holds records (or a list of them) what each of those records declares."""
        declared = self.declared_paths()
        if declared == ALL:
            return ALL
        out = set(declared)
        for k in self._layout():
            if k.public:
                continue
            value = k.get(self)
            for item in value if isinstance(value, (list, tuple)) else [value]:
                if not (isinstance(item, Record) and item.declares_secrecy()):
                    continue
                inner = item.public_paths()
                if inner == ALL:
                    inner = frozenset(x.key for x in item._layout())
                out |= set(inner) if k.inline else {f"{k.key}.{p}" for p in inner}
        return frozenset(out)

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable; use replace()")

    def __delattr__(self, name):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __eq__(self, other):
        return type(other) is type(self) and other.as_dict() == self.as_dict()

    def __hash__(self):
        return hash((type(self).__name__, tuple(repr(v) for v in self.as_dict().values())))

    def __repr__(self):
        inner = ", ".join(f"{k}={v!r}" for k, v in self.as_dict().items())
        return f"{type(self).__name__}({inner})"

    def replace(self, **changes):
        return type(self)(**{**self.as_dict(), **changes})


def _is_first(cls, key) -> bool:
    for klass in cls.__mro__:
        for value in vars(klass).values():
            if isinstance(value, computed) and value.key == key:
                return value.first
    return False


def to_plain(value):
    """Any result as JSON-ready data: a record (or any value with `to_json`) by its JSON, mappings and lists
    item by item, everything else as it is."""
    if hasattr(value, "to_json") and not isinstance(value, type):
        return value.to_json()
    if isinstance(value, dict):
        return {key: to_plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_plain(item) for item in value]
    return value


class factory:
    """A default made fresh for each record (like dataclasses' default_factory)."""

    def __init__(self, make):
        self.make = make

    def __call__(self):
        return self.make()


def replace(record: Record, **changes):
    return record.replace(**changes)
