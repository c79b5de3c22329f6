"""Numbers the stress tests collect, printed at the end of the run by conftest.py.

Each test adds to `STATS`; `tests/stress/conftest.py` prints them in pytest's
terminal summary so the figures can be quoted (updates lost, corrupt files
after kills, hostile inputs tried and how many changed a file).
"""

from __future__ import annotations

STATS: dict[str, int | float | str] = {}


def add(key: str, amount: int = 1):
    STATS[key] = STATS.get(key, 0) + amount


def put(key: str, value):
    STATS[key] = value
