"""S-SYS-11: the conformance kit over the three built-in games, the coin toy and the three example games.

Each (game, check) is one test, made by the kit's pytest plugin (`narateer_check`). A check a game fails
today is marked xfail (strict) with the reason: the kit reports it precisely and the test turns red once
it is fixed, so the mark must go.
"""

from __future__ import annotations

import pytest

from tests.systems.kit.games import FORGE, MOVES, POOL, TOY, forget, register

NARATEER_SYSTEMS = ["narateer", "open-adventure", "d20-cards", "coin", "moves", "pool", "forge"]

KNOWN = {
}


@pytest.fixture(scope="module", autouse=True)
def plug_ins_on_the_path(tmp_path_factory):
    folder = tmp_path_factory.mktemp("dists")
    register(folder, "moves", "narateer_moves")
    register(folder, "pool", "narateer_pool")
    register(folder, "forge", "narateer_forge")
    with pytest.MonkeyPatch.context() as patch:
        for path in (TOY, MOVES, POOL, FORGE, folder):
            patch.syspath_prepend(str(path))
        yield
    forget(["coin", "moves", "pool", "forge"], {"coin_system", "narateer_moves", "narateer_pool", "narateer_forge"})


def test_conformance(narateer_check, request):
    reason = KNOWN.get((narateer_check.kit.name, narateer_check.name))
    if reason:
        request.applymarker(pytest.mark.xfail(reason=reason, strict=True))
    narateer_check.passes()
