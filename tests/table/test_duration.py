"""T-DURATION: `condition CHAR +NAME --rounds N` ends by itself; show and encounter show say how long."""

from __future__ import annotations

from tests.conftest import ok, refused, run, snapshot


def rounds(camp, *order):
    for cid in order:
        ok(camp, "turn", "start", cid)
        ok(camp, "turn", "end")


def test_condition_ends_at_the_start_of_chars_activation_n_rounds_later(camp):
    ok(camp, "encounter", "new", "f", "selka", "bandit")
    r = ok(camp, "condition", "bandit", "+stunned", "--rounds", "2")
    assert r["rounds_left"] == {"stunned": 2}
    assert ok(camp, "show", "bandit")["rounds_left"] == {"stunned": 2}
    assert "stunned (2 rounds left)" in run(camp, "show", "bandit").out
    rounds(camp, "selka", "bandit")  # round 1 ends
    assert "stunned (1 round left)" in run(camp, "encounter", "show").out
    rounds(camp, "selka")
    started = ok(camp, "turn", "start", "bandit")  # round 2: not yet
    assert started["expired"] == [] and ok(camp, "show", "bandit")["conditions"] == ["stunned"]
    ok(camp, "turn", "end")
    rounds(camp, "selka")
    before = snapshot(camp)
    started = ok(camp, "turn", "start", "bandit")  # round 3: it ends as the activation starts
    assert started["expired"] == ["stunned"]
    assert ok(camp, "show", "bandit")["conditions"] == []
    log = run(camp, "encounter", "log", "--last", "1").out
    assert "stunned ended" in log
    ok(camp, "undo")  # the undo brings it back, with its end
    after = snapshot(camp)
    log = "encounters/f.log.yaml"
    assert {k: v for k, v in after.items() if k != log} == {k: v for k, v in before.items() if k != log}
    assert ok(camp, "show", "bandit")["rounds_left"] == {"stunned": 0}


def test_removing_or_re_adding_forgets_the_end(camp):
    ok(camp, "encounter", "new", "f", "selka", "bandit")
    ok(camp, "condition", "bandit", "+slowed", "--rounds", "1")
    assert ok(camp, "condition", "bandit", "+slowed", "+stunned", "--rounds", "3")["rounds_left"] == \
        {"slowed": 3, "stunned": 3}
    assert ok(camp, "condition", "bandit", "+slowed")["rounds_left"] == {"stunned": 3}
    ok(camp, "condition", "bandit", "+slowed", "--rounds", "1")
    assert ok(camp, "condition", "bandit", "-slowed")["rounds_left"] == {"stunned": 3}


def test_rounds_errors(camp):
    refused(camp, 2, "condition", "selka", "+slowed", "--rounds", "2", contains="encounter")
    ok(camp, "encounter", "new", "f", "selka", "bandit")
    refused(camp, 2, "condition", "selka", "-slowed", "--rounds", "2", contains="+CONDITION")
    refused(camp, 2, "condition", "selka", "+slowed", "--rounds", "0", contains="1 or more")
    refused(camp, 2, "condition", "selka", "+slowed", "--rounds", "-1", contains="negative")
