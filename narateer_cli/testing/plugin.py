"""The conformance kit as a pytest plugin: one test per (game, check)."""

from __future__ import annotations

import pytest

from .checks import CHECKS
from .kit import Kit


def pytest_addoption(parser):
    parser.getgroup("narateer").addoption(
        "--narateer-system", action="append", default=[], metavar="NAME",
        help="run the narateer conformance kit over this installed game (repeatable)")


def pytest_generate_tests(metafunc):
    if "narateer_check" not in metafunc.fixturenames:
        return
    names = metafunc.config.getoption("narateer_system") or list(getattr(metafunc.module, "NARATEER_SYSTEMS", ()))
    pairs = [(name, check) for name in names for check in CHECKS]  # the command line's list
    metafunc.parametrize("narateer_check", pairs, ids=[f"{n}-{c}" for n, c in pairs], indirect=True)


@pytest.fixture(scope="session")
def narateer_kits(tmp_path_factory):
    """name -> Kit, made once per session (each keeps its example campaign built once)."""
    return {}


class Check:
    """One check of one game: `verdict()` runs it; `passes()` fails the test with its line, or skips."""

    def __init__(self, kit: Kit, name: str):
        self.kit, self.name = kit, name

    def verdict(self):
        from .checks import verdict

        return verdict(self.kit, self.name)

    def passes(self):
        v = self.verdict()
        if v.status == "skip":
            pytest.skip(v.line(self.kit.name))
        assert v.status == "pass", v.line(self.kit.name)


@pytest.fixture
def narateer_check(request, narateer_kits, tmp_path_factory):
    name, check = request.param
    if name not in narateer_kits:
        narateer_kits[name] = Kit(name, tmp_path_factory.mktemp(f"kit-{name}"))
    return Check(narateer_kits[name], check)


def test_conformance(narateer_check):
    """The game passes this check of the conformance kit."""
    narateer_check.passes()
