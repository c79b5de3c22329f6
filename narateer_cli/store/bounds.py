"""The range each counter stays in, as the game declares it once in its SYSTEM (`bounds`).

Every command keeps a counter inside its range on the sheet it reads. Two clones' changes added up by a merge
need not: two spends of the last die (below the lowest), two heals of the same missing hit point (past the
highest). The merge driver never stops a pull on that (it keeps the counter at the bound it crossed), and the
log, which holds every change once, says whether the branches really crossed it: `verify` and `check` name
it, and every writer and `reconcile` refuse with what to do. A counter the game does not name is at least 0
and has no maximum.
"""

from __future__ import annotations

DEFAULT = (0, None)


def declared(system) -> list[tuple[tuple, int | None, int | str | None]]:
    """(key path, lowest, highest) for each counter range `system` declares."""
    found = getattr(system, "bounds", None) or {}
    return [(tuple(path.split(".")), low, high) for path, (low, high) in found.items()]


def matches(pattern: tuple, path: tuple) -> bool:
    return len(pattern) == len(path) and all(a in ("*", b) for a, b in zip(pattern, path))


def of(path: tuple, table) -> tuple[int | None, int | str | None]:
    """(lowest, highest) of the counter at `path`: the first declared range that matches it, else at least 0. A
    highest that names a key path with `*` names the keys `path` has there (`traits.*.uses.max` for
    `traits.x.uses.left` is `traits.x.uses.max`)."""
    for pattern, low, high in table:
        if matches(pattern, path):
            if isinstance(high, str) and "*" in high:
                high = ".".join(path[i] if part == "*" and i < len(path) else part
                                for i, part in enumerate(high.split(".")))
            return low, high
    return DEFAULT


def value_at(doc, path: str):
    """The whole number at a dotted key path of a sheet's plain data, or None."""
    node = doc
    for key in path.split("."):
        node = node.get(key) if isinstance(node, dict) else None
    return node if isinstance(node, int) and not isinstance(node, bool) else None


def highest(high, doc) -> int | None:
    """A declared highest as a number: itself, or the sheet's value at the key path it names (None when absent)."""
    return value_at(doc, high) if isinstance(high, str) else high


def full_path(key: str, counters) -> str:
    """A counter as the log names it (`ready`, `hp.current`, `charges.x`) as its key path on the sheet."""
    if key in counters or "." in key:
        return key
    return next((c for c in counters if c.endswith("." + key)), key)


def broken(cid: str, dice: dict, system, doc) -> str | None:
    """What is wrong when the counters `dice` of `cid` (the log's sum once its branches are joined) leave the
    ranges `system` declares (`doc`: the sheet's plain data, for a highest it names), else None."""
    table = declared(system)
    counters = getattr(system, "counters", ()) or ()
    for key, value in sorted(dice.items()):
        if not isinstance(value, int) or isinstance(value, bool):
            continue
        path = full_path(key, counters)
        low, high = of(tuple(path.split(".")), table)
        if low is not None and value < low:
            return f"the merged branches both spent {cid}'s {key}: added up it would be {value}"
        top = highest(high, doc)
        if top is not None and value > top:
            named = f" ({high})" if isinstance(high, str) else ""
            return (f"the merged branches both added to {cid}'s {key} past its highest, {top}{named}: added up it "
                    f"would be {value}")
    return None
