"""Sealed values: what a secret action hides of its effects, kept out of the files every clone carries.

A game declares, per verb, which changes of a secret outcome the table perceives and which it does not
(`command(shows=..., seals=...)`, `declare.Secrecy`). When a secret action changes a value it declares
sealed (a Hide's recorded Stealth total, an omen), the host writes in its place, in the state or the
actor's sheet, the text

    sealed:ENTRY:COMMITMENT

where ENTRY is the secret action's entry id and COMMITMENT = sha256(salt + canonical JSON of the value), as
for a secret roll's result (store/secrets.py). The secret entry lists them (`seals`: {key path: commitment}),
and the salt and value stay in the entry's private record (`sealed`: {commitment: {salt, value}}), which
`unveil` publishes in its entry (`verify` hashes each again).

Read back (`applied`), a commitment whose record is on this machine gives its value, so the Guide's machine
reads the campaign as it is; elsewhere (a player's clone) it gives a `Withheld` value, which passes through a
game's code untouched but refuses anything that reads it: the Guide holds a secret that decides it. Written
(`resealed`), a value that still stands where its commitment stood gets its commitment back, and a `Withheld`
value its own, so nothing a secret action sealed is ever written in clear by a later action that only
carried it along.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

from ..readonly import SEALED as PREFIX
from ..readonly import Withheld, sealed_text

MISSING: Any = object()


def token(entry_id: str, commitment: str) -> str:
    return f"{PREFIX}{entry_id}:{commitment}"


def parse(value) -> tuple[str, str] | None:
    """(entry id, commitment) of a sealed value's text, else None."""
    return sealed_text(value)


def is_sealed(value) -> bool:
    """A sealed value, as the file holds it or as a machine without its record reads it."""
    return type(value) is Withheld or (type(value) is str and value.startswith(PREFIX) and parse(value) is not None)


def tokens_in(data, path: tuple = ()) -> Iterator[tuple[tuple, str]]:
    """(key path, sealed text) of every sealed value in plain data (mappings and lists)."""
    if isinstance(data, dict):
        for key, item in data.items():
            yield from tokens_in(item, (*path, key))
    elif isinstance(data, list):
        for i, item in enumerate(data):
            yield from tokens_in(item, (*path, i))
    elif type(data) is str and data.startswith(PREFIX) and parse(data) is not None:
        yield path, data


def values_of(root: Path, entry_id: str) -> dict[str, Any] | None:
    """{commitment: value} of one secret entry's sealed values on this machine, each checked against its
    commitment; None when this machine holds no record of the entry."""
    from . import secrets

    record = secrets.read_record(root, entry_id)
    if record is None or not isinstance(record.get("sealed"), dict):
        return None
    out = {}
    for commit, kept in record["sealed"].items():
        if isinstance(kept, dict) and "value" in kept and secrets.matches(commit, kept.get("salt"), kept["value"]):
            out[commit] = kept["value"]
    return out


class Opened:
    """The sealed values one command reads: each entry's record opened once."""

    def __init__(self, root: Path):
        self.root = root
        self._entries: dict[str, dict | None] = {}

    def value(self, text: str):
        """The value a sealed text stands for here, or a `Withheld` value when this machine does not hold it."""
        entry, commit = parse(text) or ("", "")
        if entry not in self._entries:
            self._entries[entry] = values_of(self.root, entry)
        known = self._entries[entry]
        if known is None or commit not in known:
            return Withheld(text, entry)
        return known[commit]


def applied(data, opened: Opened):
    """(`data` with each sealed value read as this machine can, the key paths that held one, {sealed text:
    value read}); `data` itself when it holds none."""
    found = list(tokens_in(data))
    if not found:
        return data, frozenset(), {}
    from ..readonly import thaw

    out = thaw(data)
    if out is data:
        import copy

        out = copy.deepcopy(data)
    values = {}
    for path, text in found:
        values[text] = opened.value(text)
        _set(out, path, values[text])
    return out, frozenset(path for path, _ in found), values


def resealed(new, before, values: dict):
    """`new` as it is written: a `Withheld` value as its sealed text, and a value that stands where `before`
    (the data as read, sealed texts in place) held a sealed text, and equals what that text was read as, as
    that text again."""
    out = _withheld_as_text(new)
    for path, text in tokens_in(before):
        if text in values and not isinstance(values[text], Withheld):
            here = _get(out, path)
            if here is not MISSING and _same(here, values[text]):
                if out is new:
                    import copy

                    out = copy.deepcopy(new)
                _set(out, path, text)
    return out


def resealed_edits(edits: dict, before: dict, opened: Opened) -> dict:
    """A sheet's edits ({key path: value}) as they are written: an edit that gives a sealed key the value it
    was read as keeps its sealed text (the sheet as read: `before`)."""
    out = {}
    for path, value in edits.items():
        value = _withheld_as_text(value)
        here = _get(before, path)
        if is_sealed(here) and _same(value, opened.value(here)):
            value = here
        out[path] = value
    return out


def _withheld_as_text(value):
    if type(value) is Withheld:
        return value.token
    if isinstance(value, dict):
        items = {k: _withheld_as_text(v) for k, v in value.items()}
        return value if all(items[k] is v for k, v in value.items()) else items
    if isinstance(value, list):
        listed = [_withheld_as_text(v) for v in value]
        return value if all(a is b for a, b in zip(listed, value)) else listed
    return value


def changes(old, new, path: tuple = ()) -> Iterator[tuple[tuple, Any, Any]]:
    """(key path, before, after) of every value that differs between two plain documents, mapping by mapping
    (a key added or removed: MISSING on that side; a list is one value)."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in dict.fromkeys([*old, *new]):
            yield from changes(old.get(key, MISSING), new.get(key, MISSING), (*path, key))
    elif old is MISSING and isinstance(new, dict) and new:
        yield from changes({}, new, path)
    elif new is MISSING and isinstance(old, dict) and old:
        yield from changes(old, {}, path)
    elif not _same(old, new):
        yield path, old, new


def same(a, b) -> bool:
    """Equal plain data, each value of the same type (1 is not True, 1 is not 1.0)."""
    return _same(a, b)


def _same(a, b) -> bool:
    if a is MISSING or b is MISSING:
        return a is b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(map(_same, a, b))
    return type(a) is type(b) and a == b


def _get(data, path: tuple):
    for key in path:
        if isinstance(data, dict) and key in data:
            data = data[key]
        elif isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data):
            data = data[key]
        else:
            return MISSING
    return data


def _set(data, path: tuple, value):
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def dotted(path: tuple) -> str:
    return ".".join(str(k) for k in path)


def sealed_at(data, path: tuple, text: str):
    """`data` (a plain copy) with the value at `path` replaced by `text`."""
    _set(data, path, text)
    return data


def get(data, path: tuple):
    """The value at `path`, or MISSING."""
    return _get(data, path)
