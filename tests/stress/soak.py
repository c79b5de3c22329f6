"""How long the stress cases run: short in `make test`, long in `make soak` (NARATEER_SOAK=1).

Each case checks the same things either way (every assertion stays); soak only plays more random
rounds, examples and updates, so `make test` stays under five minutes on a 2-core machine and CI, which runs both, still sees
the long runs.
"""

from __future__ import annotations

import os

SOAK = os.environ.get("NARATEER_SOAK", "") not in ("", "0")
# Hypothesis plays the same sequences on every run, in `make test` and `make soak` alike, so CI's verdict
# is the code's and never the draw's; NARATEER_EXPLORE=1 draws fresh sequences to look for new failures
# (each failing one is written out whole: see the machines' dump)
DERANDOMIZE = os.environ.get("NARATEER_EXPLORE", "") in ("", "0")


def amount(short: int, soak: int) -> int:
    """`soak` under `make soak`, else `short`."""
    return soak if SOAK else short
