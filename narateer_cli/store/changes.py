"""The `changes` field of a log entry, the same in every game: what one action did to each character's sheet.

Every game's entries carry the same field, computed by the host from the sheet texts before and after
the action, so merges, `verify` and `check` read one shape whatever the game:

    "changes": {"selka": {"action_dice.ready": {"before": 5, "after": 3, "delta": -2},
                          "conditions": {"before": [], "after": ["slowed"]}}}

A key path is the dotted path of a value inside the sheet (mappings are walked; a list is one value).
A counter (a path the system declares in `counters`, `*` standing for any one key) also carries its
signed `delta`; a value that appears or goes away has `before` or `after` null.
"""

from __future__ import annotations

from typing import Any


def flatten(data: Any, prefix: str = "") -> dict:
    """{dotted path: value} of every leaf of nested mappings (a list, or an empty mapping, is one leaf)."""
    if not isinstance(data, dict) or (not data and prefix):
        return {prefix: data} if prefix else {}
    out = {}
    for key, value in data.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        out.update(flatten(value, path))
    return out


def is_counter(path: str, counters) -> bool:
    """Does `path` match one of the system's counter paths (`charges.*`: any one key below charges)?"""
    parts = path.split(".")
    for pattern in counters:
        want = pattern.split(".")
        if len(want) == len(parts) and all(w in ("*", p) for w, p in zip(want, parts)):
            return True
    return False


def diff(before: dict | None, after: dict | None, counters=()) -> dict:
    """The changed key paths between two plain sheets, each with before/after (and a counter's delta)."""
    old, new = flatten(before or {}), flatten(after or {})
    out = {}
    for path in sorted(set(old) | set(new), key=lambda p: (p not in old, p)):
        b, a = old.get(path), new.get(path)
        if b == a:
            continue
        item = {"before": b, "after": a}
        if is_counter(path, counters) and _number(b) and _number(a):
            item["delta"] = (a or 0) - (b or 0)
        out[path] = item
    return out


def _number(value) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool))


def public(changes: dict, counters=()) -> dict:
    """What a secret entry shows of its changes: the counters only, the declared cost every
    sheet on disk shows anyway; any other value the action set stays out of the public entry."""
    out = {}
    for cid, paths in changes.items():
        kept = {path: item for path, item in paths.items() if "delta" in item}
        if kept:
            out[cid] = kept
    return out


def of_transaction(txn, counters, plain_of) -> dict:
    """{character id: its changes} for every sheet the transaction replaces (`plain_of(text, label)` parses one
    sheet's text to plain data; None text: no such file)."""
    before = txn.before()
    out = {}
    for rel, text in txn.writes.items():
        if not (rel.startswith("characters/") and rel.endswith(".yaml")):
            continue
        old = before.get(rel)
        if old == text:
            continue
        found = diff(plain_of(old, rel), plain_of(text, rel), counters)
        if found:
            out[rel[len("characters/"):-len(".yaml")]] = found
    return out
