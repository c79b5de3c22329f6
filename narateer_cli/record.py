"""Small immutable records: the values every system's engine takes and returns.

They behave like frozen dataclasses (keyword or positional construction,
defaults, equality, repr, `replace`) but are built without code generation,
which keeps every command's start-up short.
"""

from __future__ import annotations


class Record:
    """Subclasses list `_fields` and `_defaults` (a value, or a zero-argument factory via `factory`)."""

    _fields: tuple = ()
    _defaults: dict = {}

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
