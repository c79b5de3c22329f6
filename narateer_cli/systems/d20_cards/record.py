"""Small immutable records for the d20-cards engine values.

Frozen, comparable and printable like frozen dataclasses, with `replace`,
but built without code generation so a command's start-up stays short.
Mapping fields hold plain dicts that the engine never mutates: every change
makes a new record with a new dict.
"""

from __future__ import annotations


class Record:
    """Subclasses list `_fields` and optional `_defaults` (immutable values only)."""

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
                values[name] = self._defaults[name]
        self.__dict__.update(values)

    def values(self) -> dict:
        return {name: self.__dict__[name] for name in self._fields}

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable; use replace()")

    def __eq__(self, other):
        return type(other) is type(self) and other.values() == self.values()

    def __hash__(self):
        return hash((type(self).__name__, repr(self)))

    def __repr__(self):
        inner = ", ".join(f"{k}={v!r}" for k, v in self.values().items())
        return f"{type(self).__name__}({inner})"

    def replace(self, **changes):
        return type(self)(**{**self.values(), **changes})
