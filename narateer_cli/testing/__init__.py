"""The conformance kit: one suite that any installed game must pass.

Run it on a game from the shell: `python -m narateer_cli.testing NAME [CHECK...]` (exit 0 when the game
passes, 1 with one line per failed check). Or from pytest: this module is a plugin (registered as the
`pytest11` entry point `narateer_cli.testing`, or loaded with `-p narateer_cli.testing`). A test that takes
the fixture `narateer_check` runs once per (game, check), for the games that `--narateer-system NAME`
names, else those of its module's `NARATEER_SYSTEMS` list:

    from narateer_cli.testing import test_conformance  # noqa: F401
    NARATEER_SYSTEMS = ["moves"]

The checks (narateer_cli/testing/checks.py, `CHECKS`, the one list both routes run): verbs, imports, refusal, undo,
verify, secret, seeded, merge, merge-same, words, stats.
A game says how to play it with a script (kit.Script) named by its `conformance` hook; docs/write-a-game.md.
"""

from __future__ import annotations

from .checks import CHECKS
from .kit import SHARED_VERBS, Kit, Script, Verdict

CHECK_NAMES = tuple(CHECKS)  # one list: the pytest route and the command line run the same checks

__all__ = ["SHARED_VERBS", "Kit", "Script", "Verdict", "conform", "CHECK_NAMES"]


def conform(name: str, workdir, checks=None) -> list[Verdict]:
    """Every check's Verdict for the installed game `name` (campaigns are made under `workdir`)."""
    from .checks import conform as run

    return run(name, workdir, checks)


try:
    import pytest
except ImportError:  # the kit still runs as `python -m narateer_cli.testing` without pytest
    pytest = None

if pytest is not None:
    from .plugin import narateer_check, narateer_kits, pytest_addoption, pytest_generate_tests, test_conformance

    __all__ += ["narateer_check", "narateer_kits", "pytest_addoption", "pytest_generate_tests", "test_conformance"]
