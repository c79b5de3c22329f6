"""Parts of Open Adventure's results that read as the mappings they log as."""

from __future__ import annotations

from narateer_cli.record import Record


class Parts(Record):
    """A part of a check result (its AS, its DS, a Stunt's loss): a frozen record that also reads as the
    mapping its JSON and log hold (`parts["total"]`, `parts == {...}`)."""

    def __getitem__(self, key):
        if key not in self._fields:
            raise KeyError(key)
        return self.__dict__[key]

    def get(self, key, default=None):
        return self.__dict__[key] if key in self._fields else default

    def __eq__(self, other):
        if isinstance(other, dict):
            return self.as_dict() == other
        return Record.__eq__(self, other)

    __hash__ = Record.__hash__
