"""T3-CRIT: d20 Critical Condition is shown in `encounter show` and guarded: a creature in it performs only a
Swan Song card (R-CARD-CRIT-1, A-CARD-CRIT-ACTS), and a Proper Rest is not taken mid-encounter
(R-CARD-REST-1). Through the engine and the command line; the page is in tests/serve/test_t3_crit_page.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from narateer_cli.errors import Refused
from narateer_cli.systems.d20_cards import timeflow
from narateer_cli.systems.d20_cards.readouts import encounter_status
from tests.conftest import ok, refused, run, snapshot

from .world import RULES, perform, rules, world


# -- the engine -----------------------------------------------------------------------------------------------------

def test_R_CARD_CRIT_1_at_0_hp_a_plain_card_is_refused_and_a_swan_song_is_not():
    w = world(mira={"hp": {"current": 0, "max": 30}})
    before = repr(w)
    with pytest.raises(Refused) as exc:
        perform(w, "strike", "bandit", faces={"attack": [15]})
    assert exc.value.rule == "R-CARD-CRIT-1" and repr(w) == before
    assert exc.value.message == "mira is in Critical Condition (HP 0): only a Swan Song card, not strike"
    assert exc.value.fix == "perform a Swan Song card, or heal mira first (`narateer heal mira N`)"
    _, r = perform(w, "last-stand", "bandit", faces={"attack": [15]})
    assert r.conditions_added == ("swan_song",)


def test_R_CARD_CRIT_1_one_hp_above_the_mark_acts_freely():
    _, r = perform(world(mira={"hp": {"current": 1, "max": 30}}), "strike", "bandit", faces={"attack": [15]})
    assert r.targets[0].lands


def test_R_CARD_CRIT_1_the_guides_critical_condition_counts_too():
    with pytest.raises(Refused) as exc:
        perform(world(mira={"conditions": ["critical"]}), "strike", "bandit", faces={"attack": [15]})
    assert exc.value.rule == "R-CARD-CRIT-1" and "the Guide's critical condition" in exc.value.message
    assert "condition mira -critical" in exc.value.fix


def test_A_CARD_CRIT_ACTS_any_lets_a_creature_in_critical_condition_act():
    _, r = perform(world(mira={"hp": {"current": -5, "max": 30}}), "strike", "bandit", faces={"attack": [15]},
                   rules_=rules(critical={"hp_at_most": 0, "acts": "any"}))
    assert r.targets[0].lands and "critical" in r.rules_used


def test_T3_CRIT_encounter_status_marks_critical_condition():
    w = world(mira={"hp": {"current": 0, "max": 30}}, bandit={"hp": {"current": 1, "max": 20}})
    state = {"id": "fight", "round": 1, "turn": "mira", "participants": ["mira", "bandit"]}
    rows = {row.id: row.critical for row in encounter_status(w, state, RULES).status}
    assert rows == {"mira": True, "bandit": False}


def test_R_CARD_REST_1_a_proper_rest_mid_encounter_is_refused_by_the_engine():
    w = world(mira={"charges": {"stun-word": 0}})
    with pytest.raises(Refused) as exc:
        timeflow.rest(w, ["mira"], "proper", RULES)
    assert exc.value.rule == "R-CARD-REST-1"
    w2, res = timeflow.rest(w, ["mira"], "proper", RULES, mid_encounter=True)  # the Guide's ruling
    assert w2.chars["mira"].charges["stun-word"] == 2
    w3, _ = timeflow.rest(w.replace(encounter=None), ["mira"], "proper", RULES)  # the encounter over
    assert w3.chars["mira"].charges["stun-word"] == 2


# -- the command line -----------------------------------------------------------------------------------------------

@pytest.fixture
def fight(tmp_path) -> Path:
    root = tmp_path / "d20"
    assert run(None, "init", str(root), "--system", "d20-cards", "--example").code == 0
    ok(root, "encounter", "new", "fight", "mira", "bandit")
    ok(root, "turn", "start", "mira")
    return root


def test_T3_CRIT_encounter_show_marks_critical_condition(fight):
    ok(fight, "damage", "mira", "30")
    shown = run(fight, "encounter", "show")
    assert shown.code == 0 and "  mira       HP 0 (Critical Condition)  AP 3" in shown.out.splitlines()
    assert "bandit     HP 20  AP" in shown.out  # no mark above 0
    status = {row["id"]: row["critical"] for row in ok(fight, "encounter", "show")["status"]}
    assert status == {"mira": True, "bandit": False}


def test_R_CARD_CRIT_1_on_the_command_line(fight):
    ok(fight, "damage", "mira", "31")
    err = refused(fight, 3, "act", "mira", "strike", "--target", "bandit", "--faces", "15", rule="R-CARD-CRIT-1")
    assert err == ("narateer: mira is in Critical Condition (HP -1): only a Swan Song card, not strike; perform a "
                   "Swan Song card, or heal mira first (`narateer heal mira N`)\n")
    assert ok(fight, "act", "mira", "last-stand", "--target", "bandit", "--faces", "15")["targets"][0]["lands"]


def test_R_CARD_REST_1_on_the_command_line(fight):
    before = snapshot(fight)
    err = refused(fight, 3, "rest", "bandit", "mira", "--proper", rule="R-CARD-REST-1")
    assert err == ("narateer: bandit is in encounter fight: a Proper Rest is not taken mid-encounter; end it first "
                   "(`narateer encounter end fight`), or add --mid-encounter (the Guide's ruling)\n")
    assert snapshot(fight) == before
    assert ok(fight, "rest", "mira", "--proper", "--mid-encounter")["kind"] == "proper"
    ok(fight, "encounter", "end")
    assert ok(fight, "rest", "mira", "--proper")["kind"] == "proper"
    assert ok(fight, "rest", "mira", "--kind", "proper")["kind"] == "proper"
