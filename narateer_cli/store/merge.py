"""The `narateer` merge driver: YAML merged key by key, comments kept.

git calls it with the common ancestor, our version (which receives the
result) and theirs. A counter (a key path the rule system names, such as
Narateer's action dice counts on a sheet and its proactive uses left in an encounter state) takes the base
plus both sides' changes, so two
players who each spent a die both keep their spend (a sum past the range the game declares for the counter,
from two sides inside it, is kept at the bound: the log, not the sheet, tells a double spend from a correction
counted twice). Any other value takes
the side that changed it, or the common value; two different changes to one
value are a conflict: the file gets git's usual markers and the driver exits
1, so git reports the conflict. A side larger than SIZE_LIMIT (256 KiB) is a
conflict before anything is parsed (sizes capped before any work): ours stays as it is. A file
created on both sides (no common version) is a conflict unless both sides
are the same bytes: nothing can be added up without a base.
"""

from __future__ import annotations

from pathlib import Path

MISSING = object()


def counters_for(system: str | None) -> list[tuple]:
    """Key paths that are counters in a sheet of `system` (`*` matches any key).

    Narateer counts its Action Dice by state; the other rule systems name
    their own pools here (point pools, HP, AP, charges)."""
    found = _system(system)
    return [] if found is None else [tuple(path.split(".")) for path in found.counters]


def state_counters_for(system: str | None) -> list[tuple]:
    """Key paths that are counters in an encounter state of `system` (Narateer's proactive uses left)."""
    found = _system(system)
    return [] if found is None else [tuple(path.split(".")) for path in getattr(found, "state_counters", ())]


def bounds_for(system: str | None) -> list[tuple]:
    """The ranges `system` declares for its counters ((key path, lowest, highest), store/bounds.py)."""
    from . import bounds

    found = _system(system)
    return [] if found is None else bounds.declared(found)


def _system(system: str | None):
    from ..errors import NarateerError
    from ..systems import load_system

    try:
        return load_system(system or None)
    except NarateerError:
        return None


def _is_counter(path: tuple, counters) -> bool:
    return any(len(c) == len(path) and all(a in ("*", b) for a, b in zip(c, path)) for c in counters)


class Conflict(Exception):
    pass


def _number(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _holds_counter(path: tuple, counters) -> bool:
    """A counter lies inside the value at `path` (d20-cards' `resources.ap.current` inside `resources`)."""
    return any(len(c) > len(path) and all(a in ("*", b) for a, b in zip(c, path)) for c in counters)


def merge_value(base, ours, theirs, path: tuple, counters, limits=None):
    """The merged value (MISSING: the key is gone); Conflict when both sides changed it differently.
    `limits(path)`: a counter's (lowest, highest) as numbers (None: no such bound); at least 0 without it."""
    if _is_counter(path, counters) and all(_number(v) or v is MISSING for v in (base, ours, theirs)):
        b, o, t = (0 if v is MISSING else v for v in (base, ours, theirs))
        return _within(b + (o - b) + (t - b), o, t, limits(path) if limits is not None else (0, None))
    if isinstance(ours, dict) and isinstance(theirs, dict) and _holds_counter(path, counters):
        # equal sides may still be two equal spends of a counter inside: merge key by key
        merge_map(base if isinstance(base, dict) else {}, ours, theirs, path, counters, limits)
        return ours
    return _merge_changed(base, ours, theirs, path, counters, limits)


def _within(total: int, ours: int, theirs: int, bounds: tuple) -> int:
    """A counter's sum, kept at the bound it crossed when neither side had crossed it: both spent what was
    there once (or healed what was missing once), or a side set a sheet git had left behind its log back to
    the log's sum, as the other side did, and the driver counts that correction twice. The sheet stays legal
    and the log, which holds every change once, says which: the next writer sets the sheet to its sum, or
    names the bound the branches crossed and refuses. No pull of counters stops on it."""
    low, high = bounds
    if low is not None and total < low <= min(ours, theirs):
        return low
    if high is not None and total > high >= max(ours, theirs):
        return high
    return total


def _merge_changed(base, ours, theirs, path: tuple, counters, limits=None):
    """A value holding no counter: the side that changed it wins, a mapping changed on both sides merges
    key by key, anything else changed on both sides differently is a Conflict."""
    if _plain(ours) == _plain(theirs):
        return ours
    if _plain(ours) == _plain(base):
        return theirs
    if _plain(theirs) == _plain(base):
        return ours
    if isinstance(ours, dict) and isinstance(theirs, dict):
        merge_map(base if isinstance(base, dict) else {}, ours, theirs, path, counters, limits)
        return ours
    raise Conflict(".".join(map(str, path)))


def _plain(value):
    """The value as data, where `true` is not 1 and 1.0 is not 1 (Python holds them equal; a file does not)."""
    from .yamlio import to_plain

    return MISSING if value is MISSING else _typed(to_plain(value))


def _typed(node):
    if isinstance(node, dict):
        return {k: _typed(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_typed(v) for v in node]
    return (type(node), node) if isinstance(node, (bool, float)) else node


def merge_map(base: dict, ours: dict, theirs: dict, path: tuple, counters, limits=None):
    """Merge `theirs` into `ours` in place (ours keeps its order, comments and layout)."""
    for key in list(ours.keys()) + [k for k in theirs.keys() if k not in ours]:
        value = merge_value(base.get(key, MISSING), ours.get(key, MISSING), theirs.get(key, MISSING),
                            path + (str(key),), counters, limits)
        if value is MISSING:
            ours.pop(key, None)
        elif key not in ours or ours[key] is not value:
            if key not in ours or _plain(ours[key]) != _plain(value) or type(ours[key]) is not type(value):
                ours[key] = value


def merge_texts(base: str, ours: str, theirs: str, label: str, counters, bounds=()) -> tuple[str, bool]:
    """(merged text, clean?). Unparsable input or a conflict gives the marked whole-file conflict. `bounds`: the
    game's counter ranges ((key path, lowest, highest), store/bounds.py); a counter it leaves out is at least 0."""
    from . import yamlio
    from ..errors import NarateerError

    try:
        docs = [yamlio.load_rt(text, label) if text.strip() else {} for text in (base, ours, theirs)]
    except NarateerError:
        return _markers(ours, theirs), False
    b, o, t = docs
    if not all(isinstance(d, dict) for d in docs):
        return _markers(ours, theirs), False
    try:
        merge_map(b, o, t, (), counters, _limits(bounds, yamlio.to_plain(o), yamlio.to_plain(t)))
    except Conflict:
        return _markers(ours, theirs), False
    if _plain(o) == _plain(yamlio.load_rt(ours, label) if ours.strip() else {}):
        return ours, True
    return yamlio.dump_rt(o, ours), True


def _limits(table, ours: dict, theirs: dict):
    """path -> (lowest, highest) as numbers: a highest the sheet holds (`hp.max`) is the larger of the two sides'."""
    from . import bounds

    def limits(path: tuple):
        low, high = bounds.of(path, table)
        if isinstance(high, str):
            found = [v for v in (bounds.value_at(ours, high), bounds.value_at(theirs, high)) if v is not None]
            high = max(found) if found else None
        return low, high

    return limits


def _markers(ours: str, theirs: str) -> str:
    end = lambda t: t if t.endswith("\n") or not t else t + "\n"  # noqa: E731
    return f"<<<<<<< ours\n{end(ours)}=======\n{end(theirs)}>>>>>>> theirs\n"


# bytes in one side of a sheet or state (capped before any work): hundreds of times the largest real one, and the
# worst YAML that fits (a long list of flow mappings) still merges in seconds (1 MiB took 23 s, 279 MiB)
SIZE_LIMIT = 256 * 1024
SIDES = ("base", "ours", "theirs")


def _read_bounded(path: Path) -> str | None:
    """The file's text ("" when absent); None when it holds more than SIZE_LIMIT bytes, found by reading
    at most one byte past the limit, so a hostile file costs neither time nor memory."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(SIZE_LIMIT + 1)
    except FileNotFoundError:
        return ""
    return None if len(data) > SIZE_LIMIT else data.decode("utf-8")


def run_driver(base: str, ours: str, theirs: str, label: str = "", system: str | None = None) -> int:
    """git's merge driver protocol: the result goes to `ours`; exit 0 merged, 1 conflict. A side over
    SIZE_LIMIT is a conflict at once: `ours` is left as it is and one stderr line says why."""
    import sys

    paths = [Path(p) for p in (base, ours, theirs)]
    texts = [_read_bounded(p) for p in paths]
    if None in texts:
        from ..safetext import printable

        side = SIDES[texts.index(None)]
        sys.stderr.write(f"narateer: merge-driver: {printable(label or ours)} ({side}) is larger than "
                         f"{SIZE_LIMIT // 1024} KiB, the limit for a sheet or an encounter state: "
                         "not merged; keep one side (git checkout --ours or --theirs) and mend it\n")
        return 1
    if not texts[0].strip():  # created on both sides: identical is that file (summing would double its counters)
        return 0 if texts[1] == texts[2] else _added_twice(paths[1], texts[1], texts[2], label or ours)
    is_sheet = label.startswith("characters/") or not label
    counters = counters_for(system) if is_sheet else state_counters_for(system) if label.startswith("encounters/") \
        else []
    merged, clean = merge_texts(*texts, label or ours, counters, bounds_for(system))
    paths[1].write_text(merged, encoding="utf-8")
    return 0 if clean else 1


def _added_twice(target: Path, ours: str, theirs: str, label: str) -> int:
    """The same sheet or state created on both sides (no base) is a conflict unless the two are identical:
    adding two new characters' dice up would double them. The file gets the usual markers; one line says why."""
    import sys

    from ..safetext import printable

    target.write_text(_markers(ours, theirs), encoding="utf-8")
    sys.stderr.write(f"narateer: merge-driver: {printable(label)} was created on both sides, differently (no "
                     "common version to merge from): keep one (git checkout --ours or --theirs), or give "
                     "one of them another id\n")
    return 1
