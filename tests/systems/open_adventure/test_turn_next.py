"""Open Adventure `turn end --next CHAR` through the command line (T2-TURN): the Turn ends and CHAR's starts in
one logged step; verify is clean; one undo restores every file; a wrong name is refused, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ok, refused, run, snapshot


@pytest.fixture
def gate(oa) -> Path:
    ok(oa, "encounter", "new", "gate", "warheart", "amicus", "orc", "--reaction", "warheart=9", "--reaction", "amicus=7")
    ok(oa, "turn", "start")
    return oa


def _files(root: Path) -> dict:
    """Every file but the logs (undo appends its own entry there)."""
    return {k: v for k, v in snapshot(root).items() if not k.endswith(".log.yaml")}


def test_turn_end_next_starts_the_named_characters_turn(gate):
    data = ok(gate, "turn", "end", "--next", "orc")
    assert data["actor"] == "orc"
    assert ok(gate, "encounter", "show")["actor"] == "orc"
    assert run(gate, "verify").code == 0


def test_one_undo_restores_the_files_as_before(gate):
    before = _files(gate)
    ok(gate, "turn", "end", "--next", "amicus")
    assert _files(gate) != before
    ok(gate, "undo")
    assert _files(gate) == before


def test_an_unknown_name_is_refused_with_did_you_mean_and_nothing_written(gate):
    err = refused(gate, 2, "turn", "end", "--next", "amicuss",
                  contains="amicuss is not in encounter gate; did you mean amicus?")
    assert "did you mean amicus" in err


def test_one_who_has_acted_this_round_is_refused(gate):
    refused(gate, 3, "turn", "end", "--next", "warheart", contains="already took a Turn")
