"""Conditions that end by themselves (`--rounds N`), kept in the encounter state under `durations`.

`condition CHAR +NAME --rounds N` in round R records that NAME ends at the
start of CHAR's activation in round R + N. Pure functions over the state dict
(no files, no printing); every system's `condition` and `turn start` call them,
and its `load_state` keeps the `durations` key. `encounter end` ends what is
still running (`running`, `cleared`), unless the Guide keeps it.
"""

from __future__ import annotations

KEY = "durations"


def _table(state: dict) -> dict:
    return {cid: dict(names) for cid, names in (state.get(KEY) or {}).items()}


def add(state: dict, char: str, names, rounds: int) -> dict:
    table = _table(state)
    mine = table.setdefault(char, {})
    for name in names:
        mine[name] = state["round"] + rounds
    return {**state, KEY: table}


def drop(state: dict, char: str, names) -> dict:
    table = _table(state)
    mine = {k: v for k, v in table.get(char, {}).items() if k not in set(names)}
    if mine:
        table[char] = mine
    else:
        table.pop(char, None)
    return {**state, KEY: table}


def due(state: dict, char: str) -> list[str]:
    """The conditions that end now, as CHAR's activation starts in the state's round."""
    return [name for name, end in _table(state).get(char, {}).items() if end <= state["round"]]


def left(state: dict | None, char: str) -> dict:
    """Rounds left per timed condition of CHAR (1: it ends at the start of CHAR's next activation)."""
    if not state:
        return {}
    return {name: max(end - state["round"], 0) for name, end in _table(state).get(char, {}).items()}


def running(state: dict | None) -> dict:
    """Every timer still running in the encounter: {character: {condition: rounds left}}, in the order they were
    set (`encounter end` ends them, or names them as kept)."""
    if not state:
        return {}
    now = state.get("round")
    now = now if isinstance(now, int) and not isinstance(now, bool) else 0
    return {cid: {name: max(end - now, 0) if isinstance(end, int) else 0 for name, end in names.items()}
            for cid, names in _table(state).items() if names}


def cleared(state: dict) -> dict:
    """The state with no timer running (the encounter ended them)."""
    return {**state, KEY: {}} if state.get(KEY) else state
