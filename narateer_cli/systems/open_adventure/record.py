"""Small immutable records for Open Adventure's engine values.

Frozen like dataclasses (keyword construction, defaults, equality, repr,
`replace`) without code generation, so importing them costs nothing.
"""

from __future__ import annotations


class Record:
    """Subclasses list `_fields` and `_defaults`."""

    _fields: tuple = ()
    _defaults: dict = {}

    def __init__(self, **kwargs):
        for key in kwargs:
            if key not in self._fields:
                raise TypeError(f"{type(self).__name__}: unexpected field {key!r}")
        values = {}
        for name in self._fields:
            if name in kwargs:
                values[name] = kwargs[name]
            elif name in self._defaults:
                values[name] = self._defaults[name]
            else:
                raise TypeError(f"{type(self).__name__}: missing field {name!r}")
        self.__dict__.update(values)

    def as_dict(self) -> dict:
        return {name: self.__dict__[name] for name in self._fields}

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable; use replace()")

    def __delattr__(self, name):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __eq__(self, other):
        return type(other) is type(self) and other.as_dict() == self.as_dict()

    def __hash__(self):
        return hash((type(self).__name__, repr(self)))

    def __repr__(self):
        inner = ", ".join(f"{k}={v!r}" for k, v in self.as_dict().items())
        return f"{type(self).__name__}({inner})"

    def replace(self, **changes):
        return type(self)(**{**self.as_dict(), **changes})
