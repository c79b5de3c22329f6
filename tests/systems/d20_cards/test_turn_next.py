"""d20-cards `turn end --next CHAR` through the command line (T2-TURN): the turn ends and CHAR's starts in
one logged step; verify is clean; one undo restores every file; a wrong name is refused, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ok, refused, run, snapshot


@pytest.fixture
def d20(tmp_path) -> Path:
    root = tmp_path / "d20"
    assert run(None, "init", str(root), "--system", "d20-cards", "--example").code == 0
    ok(root, "encounter", "new", "fight", "mira", "bandit", "hexer")
    ok(root, "turn", "start", "mira")
    return root


def _files(root: Path) -> dict:
    """Every file but the logs (undo appends its own entry there)."""
    return {k: v for k, v in snapshot(root).items() if not k.endswith(".log.yaml")}


def test_turn_end_next_starts_the_named_characters_turn(d20):
    data = ok(d20, "turn", "end", "--next", "bandit")
    assert data["ended"] == "mira" and data["actor"] == "bandit" and data["round"] == 1
    assert ok(d20, "encounter", "show")["turn"] == "bandit"
    entry = ok(d20, "encounter", "log", "--last", "1")
    assert "turn end" in str(entry)
    assert run(d20, "verify").code == 0


def test_one_undo_restores_the_files_as_before(d20):
    before = _files(d20)
    ok(d20, "turn", "end", "--next", "hexer")
    assert _files(d20) != before
    ok(d20, "undo")
    assert _files(d20) == before


def test_an_unknown_name_is_refused_with_did_you_mean_and_nothing_written(d20):
    err = refused(d20, 2, "turn", "end", "--next", "banditt",
                  contains="banditt is not in encounter fight (did you mean bandit?)")
    assert "did you mean bandit" in err


def test_a_character_not_in_the_encounter_is_refused(tmp_path):
    root = tmp_path / "d20"
    assert run(None, "init", str(root), "--system", "d20-cards", "--example").code == 0
    ok(root, "encounter", "new", "fight", "mira", "bandit")
    ok(root, "turn", "start", "mira")
    err = refused(root, 2, "turn", "end", "--next", "hexer", contains="hexer is not in encounter fight")
    assert "hexer is not in encounter fight" in err
