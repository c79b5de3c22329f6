"""The one schema of a log entry's envelope: the shape in which narateer writes every line.

Every reader checks each line against it before using it (store/loglines.py does it as it parses a line),
so no reader, of any game, meets a value of a type the writers never write. The host owns the envelope:

    seq          a whole number from 1, continuing the entry it follows (store/history.py checks that)
    id           12 lowercase hex digits (random, or a hash of a merge entry's content)
    parent       the id of the entry it continues, null for a log's first entry (or `seq-N`, the implicit
                 id of an entry written before entries had ids)
    at           the time it was written, ISO 8601 in UTC: 2026-11-30T13:05:00Z
    command      the command's name: 1 to 64 letters, digits, spaces, `-`, `_`, `.` or `:`
    actor        a character id, or null
    declaration  a mapping (what was declared; undo's names the id it undoes and where play resumes)
    result       a mapping (the game's; an unveil's is the result it publishes)
    dice         {character: {before: counters, after: counters, sheet: counters}}, counters being
                 {name: whole number} (a merge entry's `before` may be null)
    changes      {character: {key path: {before: value, after: value, delta: whole number}}}
    commitment   a secret entry's commitment: 64 lowercase hex digits
    seals        a secret entry's sealed effects: {key path: commitment} (store/sealed.py)
    unveils, of, salt   an unveil: the id it publishes, that entry's command, the salt (hex)
    sealed       an unveil's sealed values: {commitment: {salt, value}}
    merges       a merge entry: the ids of the branch tips it joins

A log written before entries had ids is still read: its entries have no `id` (nor `parent`), and `at` may be
missing. Any other key is the game's own (its result fields, d20-cards' `state`) and is only held to the size
limits, which bind every value of a line: nesting depth, text length, number magnitude, finite numbers.

`problem(entry)` is the first thing wrong with one parsed entry, as `field: what is wrong`, or None;
`raw_problem(raw)` says whether a line's bytes may break a size limit at all (a cheap look at the bytes: a
line of the usual size is walked only when it might), so checking costs a reader next to nothing per line.
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable, NamedTuple

MAX_DEPTH = 32  # containers inside one another, the entry itself counted
MAX_TEXT = 16 * 1024  # characters in one text (a key or a value)
MAX_NUMBER = 2 ** 53  # the magnitude of any number (exact as a JSON double)

_HEX = "0123456789abcdef"
_AT = re.compile(r"\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?"
                 r"(Z|[+-]\d{2}:\d{2})")
_COMMAND = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.:-]{0,63}")
_CHAR = re.compile(r"[A-Za-z0-9_-]{1,64}")  # a character id (store/campaign.py's ID_RE)
_OLD_ID = re.compile(r"seq-[1-9][0-9]{0,15}")  # the implicit id of an entry from before ids


def is_id(value) -> bool:
    """An id narateer writes: 12 lowercase hex digits."""
    return type(value) is str and len(value) == 12 and not value.strip(_HEX)


def _whole(value) -> bool:
    return type(value) is int and -MAX_NUMBER <= value <= MAX_NUMBER


def _text(value) -> str:
    """A value as a message quotes it: short, on one line."""
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def _seq(value):
    if not (_whole(value) and value >= 1):
        return f"must be a whole number from 1, not {_text(value)}"


def _id(value):
    if not is_id(value):
        return f"must be an entry id (12 lowercase hex digits), not {_text(value)}"


def _parent(value):
    if value is not None and not is_id(value) and not (type(value) is str and _OLD_ID.fullmatch(value)):
        return f"must be an entry id or null, not {_text(value)}"


def _at(value):
    if type(value) is str and _AT.fullmatch(value) and (value[8:10] < "29" or _real_day(value)):
        return None
    return f"must be a time such as 2026-11-30T13:05:00Z, not {_text(value)}"


def _real_day(value: str) -> bool:
    """The 29th to the 31st exist in this month (the pattern has already held the rest to its ranges)."""
    from datetime import date

    try:
        date.fromisoformat(value[:10])
        return True
    except ValueError:
        return False


def _command(value):
    if not (type(value) is str and _COMMAND.fullmatch(value)):
        return f"must be a command's name (1 to 64 letters, digits, spaces, - and _), not {_text(value)}"


def _actor(value):
    if value is not None and not (type(value) is str and _CHAR.fullmatch(value)):
        return f"must be a character id or null, not {_text(value)}"


def _mapping(value):
    if type(value) is not dict:
        return f"must be a mapping, not {_text(value)}"


def _counters(value, where: str, nullable: bool = False):
    if value is None and nullable:
        return None
    if type(value) is not dict:
        return f"{where} must be a mapping of counters, not {_text(value)}"
    for name, number in value.items():
        if not _whole(number):
            return f"{where}.{name} must be a whole number, not {_text(number)}"
    return None


def _dice(value):
    if type(value) is not dict:
        return f"must be a mapping of characters, not {_text(value)}"
    for cid, move in value.items():
        if not _CHAR.fullmatch(cid):
            return f"{_text(cid)} is not a character id"
        if type(move) is not dict:
            return f"{cid} must be a mapping (before, after), not {_text(move)}"
        for key, counters in move.items():
            if key not in ("before", "after", "sheet"):
                return f"{cid}: unknown key {_text(key)} (before, after and sheet are known)"
            found = _counters(counters, f"{cid}.{key}", nullable=key == "before")
            if found:
                return found
        if "after" not in move:
            return f"{cid}.after is missing"
    return None


def _changes(value):
    if type(value) is not dict:
        return f"must be a mapping of characters, not {_text(value)}"
    for cid, paths in value.items():
        if not _CHAR.fullmatch(cid):
            return f"{_text(cid)} is not a character id"
        if type(paths) is not dict:
            return f"{cid} must be a mapping of key paths, not {_text(paths)}"
        for path, item in paths.items():
            if type(item) is not dict or not item.keys() <= {"before", "after", "delta"}:
                return f"{cid}.{path} must be a mapping of before, after (and delta), not {_text(item)}"
            if "delta" in item and not _whole(item["delta"]):
                return f"{cid}.{path}.delta must be a whole number, not {_text(item['delta'])}"
    return None


def _commitment(value):
    if not (type(value) is str and len(value) == 64 and not value.strip(_HEX)):
        return f"must be a commitment (64 lowercase hex digits), not {_text(value)}"


def _salt(value):
    if not (type(value) is str and 0 < len(value) <= 128 and not value.strip(_HEX)):
        return f"must be a salt (lowercase hex digits), not {_text(value)}"


def _seals(value):
    if type(value) is not dict:
        return f"must be a mapping of key paths to commitments, not {_text(value)}"
    for path, commit in value.items():
        found = _commitment(commit)
        if found:
            return f"{path} {found}"
    return None


def _sealed(value):
    if type(value) is not dict:
        return f"must be a mapping of commitments to sealed values, not {_text(value)}"
    for commit, kept in value.items():
        found = _commitment(commit)
        if found:
            return f"key {found}"
        if type(kept) is not dict or set(kept) != {"salt", "value"}:
            return f"{commit[:12]}... must be a mapping of salt and value, not {_text(kept)}"
        found = _salt(kept["salt"])
        if found:
            return f"{commit[:12]}....salt {found}"
    return None


def _merges(value):
    if not (type(value) is list and value and all(is_id(tip) for tip in value)):
        return f"must be a list of entry ids, not {_text(value)}"


class Field(NamedTuple):
    """One field of the envelope: what it holds, in words, and its check (the problem's text, or None)."""

    want: str
    check: Callable[[Any], str | None]


ENVELOPE: dict[str, Field] = {
    "seq": Field("a whole number from 1, continuing the entry before", _seq),
    "id": Field("an entry id: 12 lowercase hex digits", _id),
    "parent": Field("the id of the entry it continues, or null", _parent),
    "at": Field("a time, ISO 8601 in UTC", _at),
    "command": Field("a command's name", _command),
    "actor": Field("a character id, or null", _actor),
    "declaration": Field("a mapping", _mapping),
    "result": Field("a mapping", _mapping),
    "dice": Field("{character: {before, after}} of counters", _dice),
    "changes": Field("{character: {key path: {before, after, delta}}}", _changes),
    "commitment": Field("64 lowercase hex digits", _commitment),
    "seals": Field("{key path: commitment}", _seals),
    "unveils": Field("an entry id", _id),
    "of": Field("a command's name", _command),
    "salt": Field("lowercase hex digits", _salt),
    "sealed": Field("{commitment: {salt, value}}", _sealed),
    "merges": Field("a list of entry ids", _merges),
}
REQUIRED = ("seq", "id", "parent", "at", "command")  # in every entry narateer writes
REQUIRED_OLD = ("seq", "command")  # in an entry from before ids
_CHECKS = tuple((name, field.check) for name, field in ENVELOPE.items())


def problem(entry) -> str | None:
    """The first thing wrong with one parsed entry against the envelope, as `field: what is wrong`; None when
    it is of the shape a writer writes (the size limits are `limits_problem`'s)."""
    if type(entry) is dict and _usual(entry):
        return None
    return _problem(entry)


def _problem(entry) -> str | None:
    """`problem`, field by field through ENVELOPE."""
    if type(entry) is not dict:
        return f"entry: must be a mapping, not {_text(entry)}"
    old = entry.get("id") is None  # from before ids: no id, no parent
    if old and ("id" in entry or "parent" in entry):
        return f"id: {'missing' if 'id' not in entry else 'null'} (only an entry from before ids has none, and no parent)"
    for name in REQUIRED_OLD if old else REQUIRED:
        if name not in entry:
            return f"{name}: missing (every entry has {', '.join(REQUIRED)})"
    for name, check in _CHECKS:
        if name in entry:
            value = entry[name]
            if old and value is None and name == "at":
                continue
            found = check(value)
            if found:
                return f"{name}: {found}"
    if entry["command"] == "undo":
        return _undo(entry.get("declaration"))
    return None


_RARE = ("commitment", "seals", "unveils", "of", "salt", "sealed", "merges")
_COMMANDS: set = set()  # command names and character ids already found of their shape: a log repeats a few
_CHARS: set = set()
_MAP: dict = {}
_MOVE = ("before", "after", "sheet")
_CHANGE = ("before", "after", "delta")


def _usual(entry: dict) -> bool:
    """True when `entry` is plainly of the envelope's shape: the entry of a usual command, every field as
    ENVELOPE asks, checked the short way (what a reader pays per line; the magnitude of numbers is
    `limits_problem`'s). False sends it to `_problem`, which says what is wrong, or finds nothing (an undo, an
    unveil, a merge, a secret entry, an old entry)."""
    get = entry.get
    if not (_usual_chain(get("seq"), get("id"), get("parent", 0), get("at")) and _usual_words(entry)):
        return False
    for key in _RARE:
        if key in entry:
            return False
    dice, changes = get("dice", _MAP), get("changes", _MAP)
    return type(dice) is dict and type(changes) is dict and _usual_dice(dice) and _usual_changes(changes)


def _usual_chain(seq, eid, parent, at) -> bool:
    """`seq`, `id`, `parent` and `at` as a writer writes them (the short way)."""
    return (type(seq) is int and 0 < seq <= MAX_NUMBER and is_id(eid) and (parent is None or is_id(parent))
            and type(at) is str and bool(_AT.fullmatch(at)) and at[8:10] < "29")


def _usual_words(entry: dict) -> bool:
    """`command`, `actor`, `declaration` and `result` as a writer writes them, for a command that is no undo."""
    command, actor = entry.get("command"), entry.get("actor", 0)
    return (command != "undo" and _known(command, _COMMANDS, _command)
            and (actor is None or _known(actor, _CHARS, _actor))
            and type(entry.get("declaration", _MAP)) is dict and type(entry.get("result", _MAP)) is dict)


def _known(text, seen: set, check) -> bool:
    """`text` passes `check`: at once when it did before (remembered, up to 4096 texts)."""
    if type(text) is not str:
        return False
    if text in seen:
        return True
    if check(text):
        return False
    if len(seen) < 4096:
        seen.add(text)
    return True


def _usual_dice(dice: dict) -> bool:
    for cid, move in dice.items():
        if type(move) is not dict or "after" not in move or not _known(cid, _CHARS, _actor):
            return False
        for key, counters in move.items():
            if key not in _MOVE or type(counters) is not dict:
                return False
            for number in counters.values():
                if type(number) is not int:
                    return False
    return True


def _usual_changes(changes: dict) -> bool:
    for cid, paths in changes.items():
        if type(paths) is not dict or not _known(cid, _CHARS, _actor):
            return False
        for item in paths.values():
            if type(item) is not dict:
                return False
            for key in item:
                if key not in _CHANGE:
                    return False
            if "delta" in item and type(item["delta"]) is not int:
                return False
    return True


def _undo(declaration) -> str | None:
    """An undo's declaration names what it undoes (an id, or a seq before ids) and where play resumes."""
    if type(declaration) is not dict:
        return "declaration: an undo's declaration must be a mapping"
    undoes = declaration.get("undoes")
    if "undoes" in declaration and not (is_id(undoes) or (_whole(undoes) and undoes >= 1)):
        return f"declaration.undoes must be an entry id, not {_text(undoes)}"
    if "resumes" in declaration and _parent(declaration["resumes"]):
        return f"declaration.resumes must be an entry id or null, not {_text(declaration['resumes'])}"
    return None


# a byte table that turns every digit into `0`, each `{` and `[` into `(` and any other byte into `x`: the
# containers are then one count, and a run of digits long enough to pass MAX_NUMBER one `in` search
_BYTES = bytes(48 if 48 <= b <= 57 else 40 if b in (123, 91) else 120 for b in range(256))
_LONG_RUN = b"0" * len(str(MAX_NUMBER))


def may_break_limits(raw: bytes) -> bool:
    """Whether a line's bytes might break a size limit: more containers than MAX_DEPTH, a line longer than
    MAX_TEXT, or a run of digits as long as MAX_NUMBER's (non-finite numbers are refused as they are parsed).
    False means none can be broken, and the walk of `limits_problem` is spared."""
    if len(raw) > MAX_TEXT:
        return True
    shape = raw.translate(_BYTES)
    return shape.count(b"(") > MAX_DEPTH or _LONG_RUN in shape


def limits_problem(entry) -> str | None:
    """The first value of a parsed entry past a size limit, as `field: what is wrong`, or None. Iterative, so a
    value nested to any depth is named, never a RecursionError."""
    if type(entry) is not dict:
        return _scalar(entry, "entry")
    todo = [(value, name, 2) for name, value in entry.items()]
    todo.extend((name, name, 1) for name in entry)  # the keys, as texts
    while todo:
        value, field, depth = todo.pop()
        kind = type(value)
        if kind is dict or kind is list:
            if depth > MAX_DEPTH:
                return f"{field}: nested deeper than {MAX_DEPTH} levels"
            if kind is dict:
                todo.extend((key, field, depth) for key in value)
            todo.extend((item, field, depth + 1) for item in (value.values() if kind is dict else value))
            continue
        found = _scalar(value, field)
        if found:
            return found
    return None


def _scalar(value, field: str) -> str | None:
    """What is wrong with one value that holds no other: a text too long, a number too big or not finite, a
    kind JSON has no word for."""
    kind = type(value)
    if kind is str:
        return f"{field}: a text longer than {MAX_TEXT} characters" if len(value) > MAX_TEXT else None
    if kind is int:
        return None if -MAX_NUMBER <= value <= MAX_NUMBER else f"{field}: a number past {MAX_NUMBER} in size"
    if kind is float:
        if math.isfinite(value) and -MAX_NUMBER <= value <= MAX_NUMBER:
            return None
        return f"{field}: a number that is not finite or past {MAX_NUMBER} in size ({_text(value)})"
    if value is None or kind is bool or kind is dict or kind is list:
        return None
    return f"{field}: a value of a kind a log does not hold ({kind.__name__})"


def parse_float(text: str) -> float:
    """The JSON scanner's float: a number past the limits (1e999, which would be inf) is no entry."""
    value = float(text)
    if not (math.isfinite(value) and -MAX_NUMBER <= value <= MAX_NUMBER):
        raise ValueError(f"a number that is not finite or past {MAX_NUMBER} in size ({text[:20]})")
    return value


def parse_constant(text: str):
    """The JSON scanner's NaN, Infinity and -Infinity: never in an entry narateer writes."""
    raise ValueError(f"a number that is not finite ({text})")
