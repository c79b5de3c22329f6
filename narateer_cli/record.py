"""Small immutable records: the values every system's engine takes and returns.

They behave like frozen dataclasses (keyword or positional construction,
defaults, equality, repr, `replace`) and type checkers read them as such: a
record's fields are its annotated class attributes, in order, and a value
given beside one is its default (`field(default_factory=dict)` for one made
fresh each time). They are built without code generation, which keeps every
command's start-up short.
"""

from __future__ import annotations

from typing import Any, Callable, dataclass_transform


def field(*, default_factory: Callable[[], Any]) -> Any:
    """A field's default made fresh for each record (as dataclasses' `field(default_factory=...)`)."""
    return factory(default_factory)


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
class Record:
    """Subclasses annotate their fields (`name: str`, `dice: dict = field(default_factory=dict)`); a record
    whose fields are known only when it is built (a ruleset's knobs) lists `_fields` and `_defaults`."""

    _fields: tuple = ()
    _defaults: dict = {}

    def __init_subclass__(cls, kw_only: bool = False, **options):
        """`kw_only=True`: the record is built by keyword alone, so a field with a default may come before
        one without (type checkers then allow it)."""
        super().__init_subclass__(**options)
        own = [name for name in cls.__dict__.get("__annotations__", {}) if not name.startswith("_")]
        if not own or "_fields" in cls.__dict__:
            return
        defaults = dict(cls._defaults)
        for name in own:
            if name in cls.__dict__:
                defaults[name] = cls.__dict__[name]
                delattr(cls, name)
        cls._fields = tuple(cls._fields) + tuple(n for n in own if n not in cls._fields)
        cls._defaults = defaults

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


class factory:
    """A default made fresh for each record (like dataclasses' default_factory)."""

    def __init__(self, make):
        self.make = make

    def __call__(self):
        return self.make()


def replace(record: Record, **changes):
    return record.replace(**changes)
