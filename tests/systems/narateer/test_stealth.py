"""Hide, Search, Reveal and movement while hidden, through the CLI.

Rules cited: R-HIDE-1 .. R-HIDE-7, R-SRCH-1, R-SRCH-2, A-SEARCHPAY, A-MOVE,
R-ACT-3, R-PAY-3, R-PAY-5.

Cast of the `ambush` encounter (encounter_camp):
  selka   the hider: Stealth SL 2, Agility 3, 5 Ready, walk 12 / run 18 / sprint 24
  bandit  Cognition 1, Observation SL 1 -> Observation Readiness 2 (observer "A")
  mira    Cognition 2, Observation SL 1 -> Observation Readiness 2
  sentry  Cognition 2, Observation SL 2 -> Observation Readiness 3, 4 Ready (observer "B")
"""

from __future__ import annotations

import re

import pytest
from ruamel.yaml import YAML

from tests.conftest import ok, refused, run, sheet_dice, snapshot

STATE = "encounters/ambush.yaml"








def sheet_bytes(camp, cid):
    return (camp / "characters" / f"{cid}.yaml").read_bytes()


def state(camp):
    return YAML(typ="safe").load((camp / STATE).read_text())


def hidden_map(camp):
    return ok(camp, "encounter", "show")["hidden"]


def source_hide(camp):
    """The chapter's Hide case: one Stealth roll of 3 vs A (not searching, Readiness 2) and B (searching, rolls 3).

    A is the bandit (and mira, also Readiness 2); B is the sentry, whose Observation check rolls 1 + 2 = 3.
    """
    ok(camp, "turn", "start", "selka")
    return ok(camp, "hide", "selka", "--from", "bandit", "--from", "mira", "--searching", "sentry",
              "--boost", "1", "--faces", "2,1", "--observer-boost", "sentry=1", "--observer-faces", "sentry=1,2")


# ---- the source cases ------------------------------------------------------------------

def test_source_case_hidden_from_a_only_and_3_recorded(encounter_camp):
    data = source_hide(encounter_camp)
    assert data["actor"] == "selka"
    assert data["check"]["total"] == 3 and data["check"]["paid"] == 2 and data["check"]["faces"] == [2, 1]
    assert data["recorded_total"] == 3
    assert data["hidden_from"] == ["bandit", "mira"]
    rows = {o["id"]: o for o in data["observers"]}
    assert rows["bandit"]["searching"] is False and rows["bandit"]["target"] == 2
    assert rows["bandit"]["hidden"] is True and rows["bandit"]["check"] is None
    assert rows["sentry"]["searching"] is True and rows["sentry"]["target"] == 3
    assert rows["sentry"]["hidden"] is False  # 3 ties 3: a tie fails
    assert rows["sentry"]["check"]["total"] == 3 and rows["sentry"]["check"]["faces"] == [1, 2]
    assert hidden_map(encounter_camp) == {"selka": {"bandit": 3, "mira": 3}}
    # one Stealth roll: the hider pays once; the searching observer pays its own
    assert sheet_dice(encounter_camp, "selka") == {"ready": 3, "used": 2}
    assert sheet_dice(encounter_camp, "sentry") == {"ready": 2, "used": 2}
    assert sheet_dice(encounter_camp, "bandit") == {"ready": 5, "used": 0}
    # Hide is a proactive Stealth use of the hider; the observer's check is no proactive use
    assert state(encounter_camp)["uses"]["stealth"] == 2
    human = run(encounter_camp, "encounter", "show")
    assert re.search(r"selka\s+bandit\s+3", human.out) and re.search(r"selka\s+mira\s+3", human.out)


def test_source_case_later_search_3_fails_and_4_finds_for_that_searcher_only(encounter_camp):
    source_hide(encounter_camp)
    pass_turn(encounter_camp, "bandit")
    miss = ok(encounter_camp, "search", "bandit", "--for", "selka", "--boost", "1", "--faces", "2,1")
    assert miss["target"] == 3 and miss["check"]["total"] == 3 and miss["found"] is False
    assert miss["check"]["target"] == 3 and miss["check"]["margin"] == 0
    assert hidden_map(encounter_camp) == {"selka": {"bandit": 3, "mira": 3}}
    found = ok(encounter_camp, "search", "bandit", "--for", "selka", "--boost", "1", "--faces", "2,2",
               "--changed", "climbs onto the wagon for a better view")
    assert found["target"] == 3 and found["check"]["total"] == 4 and found["found"] is True
    assert hidden_map(encounter_camp) == {"selka": {"mira": 3}}  # revealed to the searcher only
    assert sheet_dice(encounter_camp, "bandit") == {"ready": 1, "used": 4}
    # a Search is a proactive Observation use of the searcher
    assert state(encounter_camp)["uses"]["observation"] == 0
    assert ok(encounter_camp, "verify")["ok"] is True


def test_source_case_12m_walk_is_6m_hidden(encounter_camp):
    source_hide(encounter_camp)
    data = ok(encounter_camp, "move", "selka", "6")
    assert data["mode"] == "walk" and data["metres"] == 6 and data["cost"] == 12
    assert data["hidden"] is True and data["movement_left"] == 0
    refused(encounter_camp, 3, "move", "selka", "1", contains="moving 1 m costs 2 m but selka has 0 m")
    assert hidden_map(encounter_camp) == {"selka": {"bandit": 3, "mira": 3}}  # no new check, record kept


def test_source_case_12m_walk_is_3m_hidden_through_difficult_terrain(encounter_camp):
    source_hide(encounter_camp)
    refused(encounter_camp, 3, "move", "selka", "4", "--difficult", contains="moving 4 m costs 16 m but selka has 12 m")
    data = ok(encounter_camp, "move", "selka", "3", "--difficult")
    assert data["cost"] == 12 and data["movement_left"] == 0 and data["hidden"] is True


def test_hidden_movement_may_be_split(encounter_camp):
    source_hide(encounter_camp)
    first = ok(encounter_camp, "move", "selka", "2")
    assert first["cost"] == 4 and first["movement_left"] == 8
    ok(encounter_camp, "roll", "--force", "selka", "athletics", "--dr", "2", "--faces", "1")
    second = ok(encounter_camp, "move", "selka", "1", "--difficult")
    assert second["cost"] == 4 and second["movement_left"] == 4
    refused(encounter_camp, 3, "move", "selka", "3", contains="moving 3 m costs 6 m but selka has 4 m")


def test_unhidden_movement_costs_metre_for_metre(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    data = ok(encounter_camp, "move", "selka", "5", "--difficult")
    assert data["cost"] == 10 and data["hidden"] is False and data["movement_left"] == 2 and data["paid"] == 0
    assert sheet_dice(encounter_camp, "selka") == {"ready": 5, "used": 0}


# ---- observers' payments (R-HIDE-2, A-SEARCHPAY) ----------------------------------------

def test_searching_observers_pay_their_own_costs_slowed_doubles(encounter_camp):
    ok(encounter_camp, "condition", "sentry", "+slowed")
    ok(encounter_camp, "turn", "start", "selka")
    data = ok(encounter_camp, "hide", "selka", "--from", "sentry", "--from", "bandit", "--searching", "sentry",
              "--searching", "bandit", "--faces", "2", "--observer-boost", "sentry=1",
              "--observer-faces", "sentry=0,1", "--observer-faces", "bandit=0")
    rows = {o["id"]: o for o in data["observers"]}
    assert data["check"]["paid"] == 1 and data["total"] == 2
    assert rows["sentry"]["check"]["paid"] == 4 and rows["sentry"]["check"]["roll_dice"] == 2
    assert rows["sentry"]["check"]["pay_multiplier"] == 2
    assert rows["bandit"]["check"]["paid"] == 1
    assert rows["sentry"]["target"] == 1 and rows["bandit"]["target"] == 0
    assert data["hidden_from"] == ["sentry", "bandit"]
    assert sheet_dice(encounter_camp, "sentry") == {"ready": 0, "used": 4}
    assert sheet_dice(encounter_camp, "bandit") == {"ready": 4, "used": 1}
    assert sheet_dice(encounter_camp, "selka") == {"ready": 4, "used": 1}


def test_observer_who_cannot_pay_falls_back_to_readiness_and_spends_nothing(encounter_camp):
    ok(encounter_camp, "condition", "sentry", "+slowed")
    ok(encounter_camp, "turn", "start", "selka")
    sentry_before = sheet_bytes(encounter_camp, "sentry")
    args = ["hide", "selka", "--from", "sentry", "--searching", "sentry", "--observer-boost", "sentry=2",
            "--boost", "2", "--faces", "2,1,1"]
    data = ok(encounter_camp, *args)  # (1 + 2) x 2 = 6 AD, sentry has 4 Ready
    row = data["observers"][0]
    assert row["fell_back"] is True and row["check"] is None
    assert row["target"] == 3  # sentry's Observation Readiness
    assert row["hidden"] is True and data["recorded_total"] == 4
    assert sheet_bytes(encounter_camp, "sentry") == sentry_before
    assert sheet_dice(encounter_camp, "selka") == {"ready": 2, "used": 3}
    # the people's output says so
    ok(encounter_camp, "undo")
    human = run(encounter_camp, *args)
    assert human.code == 0
    assert "could not pay to search: Readiness used" in human.out and "A-SEARCHPAY" not in human.out  # T2-RULES


def test_unaffordable_hider_spends_nothing_for_anyone(encounter_camp):
    ok(encounter_camp, "condition", "selka", "+slowed")
    ok(encounter_camp, "turn", "start", "selka")
    # (1 + 2) x 2 = 6 AD with 5 Ready
    err = refused(encounter_camp, 3, "hide", "selka", "--from", "bandit", "--searching", "sentry", "--boost", "2",
                  "--faces", "2,2,2", "--observer-faces", "sentry=2", rule="R-PAY-5")
    assert state(encounter_camp)["uses"]["stealth"] == 3


def test_hide_boost_over_sl_refused(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    refused(encounter_camp, 3, "hide", "selka", "--from", "bandit", "--boost", "3", "--faces", "2,2,2,2",
            contains="selka cannot Boost 3")


def test_hide_outside_own_activation_refused(encounter_camp):
    refused(encounter_camp, 3, "hide", "selka", "--from", "bandit", "--faces", "2",
            contains="it is not selka's activation (nobody is acting)")


def test_unaware_observer_cannot_be_hidden_from(encounter_camp):
    # R-HIDE-4 / A-RDYOFF: no Readiness to compare with; the Guide leaves it out
    ok(encounter_camp, "condition", "bandit", "+unaware")
    ok(encounter_camp, "turn", "start", "selka")
    refused(encounter_camp, 3, "hide", "selka", "--from", "bandit", "--faces", "2",
            contains="bandit is unaware and cannot notice anyone")



def pass_turn(camp, to):
    """The acting character ends its activation and names `to`, who starts its own."""
    ok(camp, "turn", "end", "--next", to)
    ok(camp, "turn", "start", to)


# ---- Search (R-SRCH) --------------------------------------------------------------------

def test_repeated_search_with_nothing_changed_refused(encounter_camp):
    source_hide(encounter_camp)
    pass_turn(encounter_camp, "bandit")
    ok(encounter_camp, "search", "bandit", "--for", "selka", "--faces", "1")
    refused(encounter_camp, 3, "search", "bandit", "--for", "selka", "--faces", "2", rule="R-SRCH-2")
    second = ok(encounter_camp, "search", "bandit", "--for", "selka", "--faces", "2", "--changed", "follows the footprints")
    assert second["found"] is False and second["check"]["total"] == 2
    # the same change again is nothing new
    refused(encounter_camp, 3, "search", "bandit", "--for", "selka", "--faces", "2", "--changed",
            "follows the footprints", contains="bandit already searched for selka and nothing changed")


def test_search_for_someone_not_hidden_from_the_searcher_refused(encounter_camp):
    source_hide(encounter_camp)
    pass_turn(encounter_camp, "sentry")
    refused(encounter_camp, 3, "search", "sentry", "--for", "selka", "--faces", "2",
            contains="selka is not hidden from sentry")


def test_a_new_hide_lets_the_searcher_search_again(encounter_camp):
    source_hide(encounter_camp)
    pass_turn(encounter_camp, "bandit")
    ok(encounter_camp, "search", "bandit", "--for", "selka", "--faces", "0")
    assert state(encounter_camp)["searches"] == {"bandit": {"selka": ""}}
    pass_turn(encounter_camp, "sentry")
    pass_turn(encounter_camp, "mira")
    assert ok(encounter_camp, "turn", "end", "--next", "selka")["round"] == 2
    ok(encounter_camp, "turn", "start", "selka")
    again = ok(encounter_camp, "hide", "selka", "--from", "bandit", "--boost", "2", "--faces", "2,1,1")
    assert again["hidden_from"] == ["bandit"]
    assert hidden_map(encounter_camp) == {"selka": {"bandit": 4, "mira": 3}}
    assert state(encounter_camp)["searches"] == {"bandit": {}}
    pass_turn(encounter_camp, "bandit")
    data = ok(encounter_camp, "search", "bandit", "--for", "selka", "--boost", "1", "--faces", "2,2")
    assert data["target"] == 4 and data["found"] is False  # a tie fails


# ---- reveal -----------------------------------------------------------------------------

def test_reveal_to_one_observer_leaves_the_others(encounter_camp):
    source_hide(encounter_camp)
    data = ok(encounter_camp, "reveal", "selka", "--to", "bandit")
    assert data["revealed_to"] == ["bandit"] and data["still_hidden_from"] == ["mira"]
    assert hidden_map(encounter_camp) == {"selka": {"mira": 3}}
    everyone = ok(encounter_camp, "reveal", "selka")
    assert everyone["revealed_to"] == ["mira"] and everyone["still_hidden_from"] == []
    assert hidden_map(encounter_camp) == {}


def test_ending_and_starting_activations_do_not_end_hiding(encounter_camp):
    source_hide(encounter_camp)
    pass_turn(encounter_camp, "mira")
    assert hidden_map(encounter_camp) == {"selka": {"bandit": 3, "mira": 3}}


# ---- movement modes (A-MOVE, R-HIDE-5) -------------------------------------------------

def test_sprint_ends_hiding_and_pays_1_ad(encounter_camp):
    source_hide(encounter_camp)
    data = ok(encounter_camp, "move", "selka", "5", "--mode", "sprint")
    assert data["mode"] == "sprint" and data["paid"] == 1
    assert data["cost"] == 5 and data["movement_left"] == 19 and data["hidden"] is False
    assert sorted(data["revealed_to"]) == ["bandit", "mira"]
    assert hidden_map(encounter_camp) == {}
    assert sheet_dice(encounter_camp, "selka") == {"ready": 2, "used": 3}
    human = run(encounter_camp, "undo")
    assert human.code == 0
    out = run(encounter_camp, "move", "selka", "5", "--mode", "sprint")
    assert out.code == 0 and "ends hiding" in out.out


def test_sprint_paid_once_per_activation_and_slowed_doubles(encounter_camp):
    ok(encounter_camp, "condition", "selka", "+slowed")
    ok(encounter_camp, "turn", "start", "selka")
    first = ok(encounter_camp, "move", "selka", "10", "--mode", "sprint")
    assert first["paid"] == 2 and first["movement_left"] == 14
    second = ok(encounter_camp, "move", "selka", "10", "--mode", "sprint")
    assert second["paid"] == 0 and second["movement_left"] == 4
    assert sheet_dice(encounter_camp, "selka") == {"ready": 3, "used": 2}


def test_second_movement_mode_refused(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    ok(encounter_camp, "move", "selka", "4")
    err = refused(encounter_camp, 3, "move", "selka", "4", "--mode", "run",
                  contains="selka already chose walk this activation")
    assert "walk" in err
    refused(encounter_camp, 3, "move", "selka", "1", "--mode", "sprint",
            contains="selka already chose walk this activation")
    assert ok(encounter_camp, "move", "selka", "8")["movement_left"] == 0


def test_move_outside_own_activation_refused(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    refused(encounter_camp, 3, "move", "mira", "2", contains="it is not mira's activation")


# ---- new observers (R-HIDE-3) ----------------------------------------------------------

def test_new_observer_compared_with_recorded_total_without_new_stealth_roll(encounter_camp):
    source_hide(encounter_camp)
    selka = sheet_bytes(encounter_camp, "selka")
    sharp = ok(encounter_camp, "encounter", "join", "beast")  # Observation Readiness 4 > 3
    assert sharp["compared"] == [{"hider": "selka", "observer": "beast", "searching": False, "target": 4,
                                  "hidden": False, "check": None, "fell_back": False, "recorded": 3}]
    dull = ok(encounter_camp, "encounter", "join", "kai")  # untrained Observation: Readiness 2 < 3
    assert dull["compared"][0]["target"] == 2 and dull["compared"][0]["hidden"] is True
    assert sheet_bytes(encounter_camp, "selka") == selka  # no Stealth roll, nothing paid
    show = ok(encounter_camp, "encounter", "show")
    assert show["participants"] == ["selka", "sentry", "mira", "bandit", "beast", "kai"]
    assert show["hidden"] == {"selka": {"bandit": 3, "mira": 3, "kai": 3}}


def test_new_searching_observer_rolls_observation_against_recorded_total(encounter_camp):
    source_hide(encounter_camp)
    # torren's Observation Readiness is 3, which the recorded 3 does not exceed; searching, it rolls instead
    data = ok(encounter_camp, "encounter", "join", "torren", "--searching", "--faces", "1")
    row = data["compared"][0]
    assert row["searching"] is True and row["check"]["total"] == 1 and row["check"]["paid"] == 1
    assert row["target"] == 1 and row["hidden"] is True
    assert sheet_dice(encounter_camp, "torren") == {"ready": 3, "used": 1}
    assert hidden_map(encounter_camp)["selka"]["torren"] == 3
    found = ok(encounter_camp, "encounter", "join", "elira", "--searching", "--boost", "1", "--faces", "2,2")
    assert found["compared"][0]["check"]["total"] == 4 and found["compared"][0]["hidden"] is False
    assert "elira" not in hidden_map(encounter_camp)["selka"]


def test_join_with_nobody_hidden_compares_nothing(encounter_camp):
    data = ok(encounter_camp, "encounter", "join", "kai")
    assert data["compared"] == []
    refused(encounter_camp, 2, "encounter", "join", "kai", contains="kai is already in encounter ambush")  # already in
    refused(encounter_camp, 2, "encounter", "join", "nobody", contains="unknown character 'nobody'")


def test_hiding_again_from_who_spotted_you_records_a_new_total_for_that_observer_only(encounter_camp):
    source_hide(encounter_camp)  # hidden from bandit and mira at 3; the sentry spotted selka
    again = ok(encounter_camp, "hide", "selka", "--from", "sentry", "--boost", "2", "--faces", "2,2,1")
    assert again["total"] == 5 and again["hidden_from"] == ["sentry"]
    assert again["observers"][0]["target"] == 3
    assert hidden_map(encounter_camp) == {"selka": {"bandit": 3, "mira": 3, "sentry": 5}}
    assert state(encounter_camp)["uses"]["stealth"] == 1
    pass_turn(encounter_camp, "bandit")
    # the bandit still searches against its own record, 3
    found = ok(encounter_camp, "search", "bandit", "--for", "selka", "--boost", "1", "--faces", "2,2")
    assert found["target"] == 3 and found["found"] is True
    assert hidden_map(encounter_camp) == {"selka": {"mira": 3, "sentry": 5}}


def test_encounter_show_json_hidden_map_and_human_view(encounter_camp):
    assert hidden_map(encounter_camp) == {}
    assert "hidden: nobody" in run(encounter_camp, "encounter", "show").out
    source_hide(encounter_camp)
    show = ok(encounter_camp, "encounter", "show")
    assert show["hidden"] == {"selka": {"bandit": 3, "mira": 3}}


def test_stealth_log_verifies(encounter_camp):
    source_hide(encounter_camp)
    ok(encounter_camp, "move", "selka", "2")
    ok(encounter_camp, "reveal", "selka", "--to", "mira")
    ok(encounter_camp, "encounter", "join", "torren", "--searching", "--faces", "1")
    data = ok(encounter_camp, "verify")
    assert data["ok"] is True and data["entries"] == 5


# ---- bad input --------------------------------------------------------------------------

def test_observer_not_in_the_encounter(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    err = refused(encounter_camp, 2, "hide", "selka", "--from", "kai", "--faces", "2",
                  contains="kai is not in encounter ambush")
    assert "kai" in err
    refused(encounter_camp, 2, "hide", "selka", "--from", "bandit", "--searching", "nobody", "--faces", "2",
            contains="nobody is not in encounter ambush")
    refused(encounter_camp, 2, "reveal", "selka", "--to", "kai", contains="kai is not in encounter ambush")
    refused(encounter_camp, 2, "search", "selka", "--for", "kai", "--faces", "1",
            contains="kai is not in encounter ambush")


def test_observer_faces_for_someone_not_searching(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    err = refused(encounter_camp, 2, "hide", "selka", "--from", "bandit", "--faces", "2",
                  "--observer-faces", "bandit=1", contains="--observer-faces given for bandit, who is not searching")
    assert "bandit" in err
    refused(encounter_camp, 2, "hide", "selka", "--from", "bandit", "--faces", "2", "--observer-faces", "mira=1",
            contains="mira is not an observer of this Hide")
    refused(encounter_camp, 2, "hide", "selka", "--from", "bandit", "--faces", "2", "--observer-boost", "bandit=1",
            contains="--observer-boost given for bandit, who is not searching")


def test_negative_metres(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    refused(encounter_camp, 2, "move", "selka", "-3", contains="METRES -3 is negative")
    err = refused(encounter_camp, 2, "move", "selka", "--", "-3", contains="METRES -3 is negative")
    assert "negative" in err


@pytest.mark.parametrize("args,why", [
    (["hide", "selka", "--faces", "2"], "hide needs at least one observer"),
    (["hide", "selka", "--from", "selka", "--faces", "2"], "each observer must be named once, and not the hider"),
    (["hide", "selka", "--from", "bandit", "--faces", "2,2"], "--faces gave 2 face(s) but selka's Stealth check rolls 1"),
    (["hide", "selka", "--from", "bandit", "--searching", "sentry", "--faces", "2", "--observer-faces", "sentry=1,1"],
     "--observer-faces sentry= gave 2 face(s) but sentry's Observation check rolls 1"),
    (["hide", "selka", "--from", "bandit", "--faces", "2", "--observer-boost", "bandit"],
     "--observer-boost 'bandit' must be NAME=VALUE"),
    (["move", "selka", "3", "--mode", "crawl"], "'crawl' is not one of 'walk', 'run', 'sprint'"),
])
def test_more_bad_input(encounter_camp, args, why):
    ok(encounter_camp, "turn", "start", "selka")
    refused(encounter_camp, 2, *args, contains=why)
