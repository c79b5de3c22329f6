"""T-DURATION in d20-cards: `condition CHAR +NAME --rounds N` through the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ok, refused, run


@pytest.fixture
def d20(tmp_path) -> Path:
    root = tmp_path / "d20"
    assert run(None, "init", str(root), "--system", "d20-cards", "--example").code == 0
    return root


def _round(root, *who):
    for cid in who:
        ok(root, "turn", "start", cid)
        ok(root, "turn", "end")


def test_a_timed_condition_ends_as_its_owner_s_turn_starts_n_rounds_later(d20):
    ok(d20, "encounter", "new", "fight", "mira", "bandit")
    ok(d20, "turn", "start", "mira")
    r = ok(d20, "condition", "bandit", "+immobilized", "--rounds", "2")
    assert r["rounds_left"] == {"immobilized": 2}
    ok(d20, "turn", "end")
    assert ok(d20, "show", "bandit")["rounds_left"] == {"immobilized": 2}
    assert "immobilized (2 rounds left)" in run(d20, "show", "bandit").out
    _round(d20, "bandit", "mira")                          # round 1 ends, round 2 starts
    rows = {row["id"]: row for row in ok(d20, "encounter", "show")["status"]}
    assert rows["bandit"]["rounds_left"] == {"immobilized": 1}
    assert "immobilized (1 round left)" in run(d20, "encounter", "show").out
    _round(d20, "bandit", "mira")                          # round 3: mira first
    r = ok(d20, "turn", "start", "bandit")
    assert r["expired"] == ["immobilized"]
    assert "immobilized" not in ok(d20, "show", "bandit")["conditions"]
    assert run(d20, "undo").code == 0
    assert "immobilized" in ok(d20, "show", "bandit")["conditions"]


def test_the_tier_form_still_means_a_tier_and_takes_rounds_too(d20):
    ok(d20, "encounter", "new", "fight", "mira", "bandit")
    r = ok(d20, "condition", "bandit", "+nullified:1", "--rounds", "1")
    assert r["rounds_left"] == {"nullified": 1} and "nullified:1" in ok(d20, "show", "bandit")["conditions"]
    ok(d20, "condition", "bandit", "-nullified")
    assert ok(d20, "show", "bandit")["rounds_left"] == {}


def test_rounds_without_an_encounter_or_an_added_condition_is_refused(d20):
    refused(d20, 2, "condition", "bandit", "+immobilized", "--rounds", "2", contains="encounter")
    ok(d20, "encounter", "new", "fight", "mira", "bandit")
    refused(d20, 2, "condition", "bandit", "+immobilized", "--rounds", "0", contains="rounds")
