"""T-DURATION in Open Adventure: `condition CHAR +NAME --rounds N` through the command line."""

from __future__ import annotations

from tests.conftest import ok, refused, run


def _turns(oa, *who):
    for cid in who:
        ok(oa, "turn", "start", cid)
        ok(oa, "turn", "end")


def test_a_timed_condition_ends_as_its_owner_s_turn_starts_n_rounds_later(oa):
    ok(oa, "encounter", "new", "hall", "amicus", "goblin", "--reaction", "amicus=9")
    ok(oa, "turn", "start", "amicus")
    r = ok(oa, "condition", "goblin", "+stunned", "--rounds", "2")
    assert r["rounds_left"] == {"stunned": 2}
    ok(oa, "turn", "end")
    shown = ok(oa, "show", "goblin")
    assert shown["conditions"] == ["stunned"] and shown["rounds_left"] == {"stunned": 2}
    assert "stunned (2 Rounds left)" in run(oa, "show", "goblin").out
    _turns(oa, "goblin")                                   # Round 1: still stunned
    _turns(oa, "amicus")                                   # Round 2
    assert ok(oa, "encounter", "show")["rounds_left"] == {"goblin": {"stunned": 1}}
    assert "stunned (1 Round left)" in run(oa, "encounter", "show").out  # in goblin's row of the table (T2-OA)
    assert "stunned" in (oa / "characters" / "goblin.yaml").read_text()
    _turns(oa, "goblin")                                   # Round 2: still stunned through this Turn
    _turns(oa, "amicus")                                   # Round 3
    assert ok(oa, "show", "goblin")["rounds_left"] == {"stunned": 0}  # no Round left, yet it holds until then
    assert "stunned (ends at the start of goblin's next Turn)" in run(oa, "show", "goblin").out
    assert "stunned (ends at the start of goblin's next Turn)" in run(oa, "encounter", "show").out
    r = ok(oa, "turn", "start", "goblin")                  # Round 3, goblin's Turn: it ends now
    assert r["expired"] == ["stunned"] and "rounds_left" not in r
    assert ok(oa, "show", "goblin")["conditions"] == []
    assert run(oa, "undo").code == 0                       # the Turn start and the ending go back together
    assert ok(oa, "show", "goblin")["conditions"] == ["stunned"]


def test_removing_a_timed_condition_forgets_its_timer_and_misuse_is_refused(oa):
    refused(oa, 2, "condition", "goblin", "+stunned", "--rounds", "2", contains="encounter")
    ok(oa, "encounter", "new", "hall", "amicus", "goblin", "--reaction", "amicus=9")
    ok(oa, "condition", "goblin", "+prone")
    refused(oa, 2, "condition", "goblin", "-prone", "--rounds", "2", contains="+NAME")
    refused(oa, 2, "condition", "goblin", "+stunned", "--rounds", "0", contains="rounds")
    ok(oa, "condition", "goblin", "+stunned", "--rounds", "1")
    ok(oa, "condition", "goblin", "-stunned")
    assert "rounds_left" not in ok(oa, "encounter", "show")
    assert "durations" not in (oa / "encounters" / "hall.yaml").read_text()
