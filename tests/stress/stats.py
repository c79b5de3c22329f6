"""Numbers the stress tests collect, printed at the end of the run by conftest.py.

Each test adds to `STATS`; `tests/conftest.py` prints them in pytest's
terminal summary so the figures can be quoted (updates lost, corrupt files
after kills, hostile inputs tried and how many changed a file). On several
workers (pytest-xdist) each worker's figures are merged into the printing
process's: counts that `add` made are summed, values that `put` set are kept.
"""

from __future__ import annotations

STATS: dict[str, int | float | str] = {}
COUNTED: set[str] = set()  # the keys `add` counts


def add(key: str, amount: int = 1):
    STATS[key] = STATS.get(key, 0) + amount
    COUNTED.add(key)


def put(key: str, value):
    STATS[key] = value


def merge(figures: dict, counted) -> None:
    """Another worker's `STATS` (and its `COUNTED` keys) into this process's."""
    for key, value in figures.items():
        if key in counted:
            add(key, value)
        else:
            put(key, value)
