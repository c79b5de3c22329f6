"""Combat Exchanges, Exchange Responses and Reactions through the CLI.

Rules cited: R-ACT-4, R-ACT-5, R-ACT-6, A-EXCH, A-ASSIST, A-COND, R-PAY-3,
R-PAY-5, R-HIDE-6, R-HIDE-7, R-TIER-1.

In the `ambush` encounter (encounter_camp):
  mira    Might 3, Melee SL 2 -> 3 Melee uses; 6 Ready; sword (cost 1, damage 3),
          greataxe (cost 2, damage 5)
  bandit  Might 2, Melee SL 1 -> Melee Readiness 2; 5 Ready; club
  selka   Might 2, Melee SL 1 -> Melee Readiness 2; Stealth SL 2; 5 Ready
  sentry  Melee SL 1; 4 Ready
"""

from __future__ import annotations

import re

import pytest
from ruamel.yaml import YAML

from tests.conftest import ok, refused, run, sheet_dice, snapshot

STATE = "encounters/ambush.yaml"
LOG = "encounters/ambush.log.yaml"








def set_dice(camp, cid, **counts):
    path = camp / "characters" / f"{cid}.yaml"
    block = "action_dice:\n" + "".join(f"  {k}: {v}\n" for k, v in counts.items())
    new, n = re.subn(r"action_dice:\n(  \w+: \d+\n)+", block, path.read_text())
    assert n == 1
    path.write_text(new)


def state(camp):
    return YAML(typ="safe").load((camp / STATE).read_text())


def log_entries(camp):
    return YAML(typ="safe").load((camp / LOG).read_text())


@pytest.fixture
def fight(encounter_camp):
    """Mira's activation in the ambush."""
    ok(encounter_camp, "turn", "start", "mira")
    return encounter_camp


def exchange(camp, *args):
    return ok(camp, "exchange", "--force", "mira", "bandit", *args)


# ---- the three responses ----------------------------------------------------------------

def test_no_response_compared_with_readiness(fight):
    data = exchange(fight, "--response", "none", "--boost", "1", "--faces", "2,1")
    assert data["attacker"] == "mira" and data["defender"] == "bandit" and data["response"] == "none"
    attack = data["attack"]
    assert attack["target"] == 2 and attack["target_source"] == "readiness"
    assert attack["total"] == 3 and attack["margin"] == 1 and attack["paid"] == 2
    assert data["defense"] is None
    assert data["lands"] == "attacker" and data["hit_margin"] == 1 and data["outcome"] == "Success"
    assert sheet_dice(fight, "mira") == {"ready": 4, "used": 2}
    assert sheet_dice(fight, "bandit") == {"ready": 5, "used": 0}


def test_no_response_tie_with_readiness_lands_nothing(fight):
    data = exchange(fight, "--response", "none", "--faces", "2")
    assert data["attack"]["total"] == 2 and data["attack"]["margin"] == 0
    assert data["lands"] is None and data["hit_margin"] is None and data["outcome"] is None


def test_guard_beaten(fight):
    data = exchange(fight, "--response", "guard", "--boost", "2", "--faces", "2,2,1", "--response-faces", "1")
    assert data["response"] == "guard"
    assert data["attack"]["total"] == 5 and data["defense"]["total"] == 1
    assert data["attack"]["target"] == 1 and data["attack"]["target_source"] == "guard"
    assert data["lands"] == "attacker" and data["hit_margin"] == 4 and data["outcome"] == "Strong Success"
    assert data["defense"]["paid"] == 1 and data["defense"]["actor"] == "bandit"
    assert sheet_dice(fight, "mira") == {"ready": 3, "used": 3}
    assert sheet_dice(fight, "bandit") == {"ready": 4, "used": 1}


def test_guard_tie_lands_nothing(fight):
    data = exchange(fight, "--response", "guard", "--faces", "2", "--response-faces", "2")
    assert data["attack"]["total"] == data["defense"]["total"] == 2
    assert data["lands"] is None and data["hit_margin"] is None and data["outcome"] is None


def test_guard_never_hurts_the_attacker_even_when_higher(fight):
    data = exchange(fight, "--response", "guard", "--response-boost", "1", "--faces", "0",
                    "--response-faces", "2,2")
    assert data["attack"]["total"] == 0 and data["defense"]["total"] == 4
    assert data["lands"] is None and data["hit_margin"] is None and data["outcome"] is None
    assert data["defense"]["paid"] == 2
    assert sheet_dice(fight, "bandit") == {"ready": 3, "used": 2}


def test_clash_won_by_attacker(fight):
    data = exchange(fight, "--response", "clash", "--boost", "1", "--faces", "2,2", "--response-faces", "1")
    assert data["response"] == "clash"
    assert data["lands"] == "attacker" and data["hit_margin"] == 3 and data["outcome"] == "Strong Success"


def test_clash_won_by_defender_hit_margin_is_the_difference(fight):
    data = exchange(fight, "--response", "clash", "--response-boost", "1", "--faces", "1",
                    "--response-faces", "2,1")
    assert data["attack"]["total"] == 1 and data["defense"]["total"] == 3
    assert data["lands"] == "defender" and data["hit_margin"] == 2 and data["outcome"] == "Success"
    assert data["defense"]["success"] is True and data["attack"]["success"] is False
    assert sheet_dice(fight, "bandit") == {"ready": 3, "used": 2}


def test_clash_tie_lands_nothing(fight):
    data = exchange(fight, "--response", "clash", "--faces", "1", "--response-faces", "1")
    assert data["lands"] is None and data["hit_margin"] is None and data["outcome"] is None
    assert data["attack"]["margin"] == 0 and data["defense"]["margin"] == 0


def test_exchange_json_has_a_full_check_for_each_side(fight):
    data = exchange(fight, "--response", "clash", "--faces", "1", "--response-faces", "2")
    for key in ("attacker", "defender", "response", "attack", "defense", "lands", "hit_margin", "outcome"):
        assert key in data
    for side in (data["attack"], data["defense"]):
        for key in ("actor", "skill", "target", "target_source", "boost", "roll_dice", "paid", "faces",
                    "rerolled", "final_faces", "total", "margin", "success", "outcome", "dice_before",
                    "dice_after"):
            assert key in side
    assert data["attack"]["dice_before"] == {"ready": 6, "used": 0}
    assert data["defense"]["dice_before"] == {"ready": 5, "used": 0}
    assert data["defense"]["dice_after"] == {"ready": 4, "used": 1}


def test_human_output_of_an_exchange(fight):
    r = run(fight, "exchange", "mira", "bandit", "--response", "clash", "--faces", "1", "--response-faces", "2")
    assert r.code == 0 and r.err == ""
    assert "bandit lands: Hit Margin 1 (Success)" in r.out


# ---- responses: costs and who may choose them (R-ACT-5) ---------------------------------

def test_slowed_responder_pays_double(fight):
    ok(fight, "condition", "bandit", "+slowed")
    data = exchange(fight, "--response", "guard", "--response-boost", "1", "--faces", "1",
                    "--response-faces", "1,0")
    assert data["defense"]["paid"] == 4 and data["defense"]["roll_dice"] == 2
    assert data["defense"]["pay_multiplier"] == 2
    assert data["attack"]["paid"] == 1
    assert sheet_dice(fight, "bandit") == {"ready": 1, "used": 4}


def test_stunned_defender_may_still_clash(fight):
    ok(fight, "condition", "bandit", "+stunned")
    data = exchange(fight, "--response", "clash", "--faces", "0", "--response-faces", "2")
    assert data["lands"] == "defender" and data["hit_margin"] == 2
    guard = exchange(fight, "--response", "guard", "--faces", "0", "--response-faces", "1")
    assert guard["defense"]["paid"] == 1


def test_response_boost_over_sl_refused_nothing_spent(fight):
    err = refused(fight, 3, "exchange", "mira", "bandit", "--response", "guard", "--response-boost", "2",
                  "--faces", "2", "--response-faces", "1,1,1", contains="bandit cannot Boost 2")
    assert "bandit" in err
    assert state(fight)["uses"]["melee"] == 3


def test_unaffordable_response_refuses_the_whole_exchange(fight):
    set_dice(fight, "bandit", ready=1, used=4)
    err = refused(fight, 3, "exchange", "mira", "bandit", "--response", "clash", "--response-boost", "1",
                  "--boost", "1", "--faces", "2,2", "--response-faces", "1,1",
                  contains="bandit cannot pay 2 AD for Clash with 1 Ready")
    assert "nothing was spent" in err
    assert sheet_dice(fight, "mira") == {"ready": 6, "used": 0}
    assert state(fight)["uses"]["melee"] == 3
    # the Guide declares No Response instead
    data = exchange(fight, "--response", "none", "--boost", "1", "--faces", "2,2")
    assert data["lands"] == "attacker"


def test_unaffordable_attack_refused(fight):
    set_dice(fight, "mira", ready=1, used=5)
    ok(fight, "condition", "mira", "+slowed")
    refused(fight, 3, "exchange", "mira", "bandit", "--response", "guard", "--faces", "2",
            "--response-faces", "1", rule="R-PAY-5")


def test_unaware_defender_cannot_guard(fight):
    ok(fight, "condition", "bandit", "+unaware")
    refused(fight, 3, "exchange", "mira", "bandit", "--response", "guard", "--faces", "2",
            "--response-faces", "1", contains="unaware")
    refused(fight, 3, "exchange", "mira", "bandit", "--response", "clash", "--faces", "2",
            "--response-faces", "1", contains="bandit cannot Clash: it is unaware")
    # no Readiness to compare against either: the Guide gives a DR
    refused(fight, 3, "exchange", "mira", "bandit", "--response", "none", "--faces", "2",
            contains="bandit is unaware, so its Readiness is not a target")
    data = exchange(fight, "--response", "none", "--dr", "1", "--faces", "2")
    assert data["attack"]["target"] == 1 and data["lands"] == "attacker"


# ---- hiding and Exchanges (R-HIDE-6, R-HIDE-7) -----------------------------------------

def _selka_hides_from_bandit_and_mira(camp):
    ok(camp, "turn", "start", "selka")
    data = ok(camp, "hide", "selka", "--from", "bandit", "--from", "mira", "--boost", "1", "--faces", "2,1")
    assert data["hidden_from"] == ["bandit", "mira"]


def test_hidden_attacker_revealed_to_its_target_after_the_exchange(encounter_camp):
    _selka_hides_from_bandit_and_mira(encounter_camp)
    # the bandit is not aware of selka: it cannot guard
    refused(encounter_camp, 3, "exchange", "selka", "bandit", "--response", "guard", "--faces", "2",
            "--response-faces", "1", contains="bandit cannot Full Guard: selka is hidden from it")
    data = ok(encounter_camp, "exchange", "selka", "bandit", "--response", "none", "--boost", "1", "--faces", "2,1")
    assert data["lands"] == "attacker" and data["hit_margin"] == 1
    assert data["revealed_to"] == ["bandit"]
    assert ok(encounter_camp, "encounter", "show")["hidden"] == {"selka": {"mira": 3}}


def test_hidden_defender_cannot_be_targeted(encounter_camp):
    _selka_hides_from_bandit_and_mira(encounter_camp)
    ok(encounter_camp, "turn", "end", "--next", "mira")
    ok(encounter_camp, "turn", "start", "mira")
    refused(encounter_camp, 3, "exchange", "mira", "selka", "--response", "none", "--faces", "2", rule="R-HIDE-7")
    # once selka is revealed to mira, mira may target her
    ok(encounter_camp, "reveal", "selka", "--to", "mira")
    data = ok(encounter_camp, "exchange", "--force", "mira", "selka", "--response", "none", "--faces", "2")
    assert data["attack"]["target"] == 2 and data["lands"] is None


# ---- weapons and uses (A-EXCH, R-ACT-4) -------------------------------------------------

def test_greataxe_uses_its_attack_cost_and_shows_damage(fight):
    data = exchange(fight, "--weapon", "greataxe", "--response", "none", "--faces", "2,1")
    attack = data["attack"]
    assert attack["base_cost"] == 2 and attack["roll_dice"] == 2 and attack["paid"] == 2
    assert data["lands"] == "attacker" and data["hit_margin"] == 1 and data["damage"] == 5
    assert sheet_dice(fight, "mira") == {"ready": 4, "used": 2}
    boosted = exchange(fight, "--weapon", "greataxe", "--response", "guard", "--boost", "1", "--faces", "0,0,1",
                       "--response-faces", "2")
    assert boosted["attack"]["paid"] == 3 and boosted["lands"] is None and boosted["damage"] is None


def test_sword_damage_only_when_the_attack_lands(fight):
    data = exchange(fight, "--weapon", "sword", "--response", "clash", "--faces", "0", "--response-faces", "1")
    assert data["lands"] == "defender" and data["damage"] is None
    hit = exchange(fight, "--weapon", "sword", "--response", "clash", "--faces", "2", "--response-faces", "0")
    assert hit["lands"] == "attacker" and hit["damage"] == 3 and hit["hit_margin"] == 2


def test_cost_overrides_the_weapon(fight):
    data = exchange(fight, "--weapon", "greataxe", "--cost", "1", "--response", "none", "--faces", "2")
    assert data["attack"]["paid"] == 1 and data["attack"]["roll_dice"] == 1


def test_attack_consumes_a_melee_use_the_response_none(fight):
    assert state(fight)["uses"] == {"athletics": 2, "melee": 3, "observation": 2}
    exchange(fight, "--response", "guard", "--faces", "1", "--response-faces", "1")
    assert state(fight)["uses"] == {"athletics": 2, "melee": 2, "observation": 2}
    exchange(fight, "--response", "clash", "--faces", "1", "--response-faces", "1")
    exchange(fight, "--response", "none", "--faces", "1")
    assert state(fight)["uses"]["melee"] == 0
    refused(fight, 3, "exchange", "mira", "bandit", "--response", "none", "--faces", "1", rule="R-ACT-4")
    # the bandit answered twice and it is still its whole activation later
    ok(fight, "turn", "end", "--next", "bandit")
    start = ok(fight, "turn", "start", "bandit")
    assert start["uses"]["melee"] == 2


def test_attack_outside_own_activation_refused(fight):
    refused(fight, 3, "exchange", "bandit", "mira", "--response", "none", "--faces", "1",
            contains="it is not bandit's activation")


def test_exchange_is_logged_with_both_sides_dice(fight):
    exchange(fight, "--response", "guard", "--faces", "2", "--response-faces", "1")
    entry = log_entries(fight)[-1]
    assert entry["command"] == "exchange" and entry["actor"] == "mira"
    assert entry["declaration"]["defender"] == "bandit" and entry["declaration"]["response"] == "guard"
    assert entry["dice"] == {"mira": {"before": {"ready": 6, "used": 0}, "after": {"ready": 5, "used": 1}},
                             "bandit": {"before": {"ready": 5, "used": 0}, "after": {"ready": 4, "used": 1}}}
    assert ok(fight, "verify")["ok"] is True


# ---- Reactions: Opportunity Attack, Assist (R-ACT-6, A-ASSIST, A-COND) -------------------

def test_opportunity_attack_right_after_a_move(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    ok(encounter_camp, "move", "selka", "2")
    data = ok(encounter_camp, "react", "sentry", "opportunity", "--against", "selka", "--boost", "1", "--faces", "2,1")
    assert data["actor"] == "sentry" and data["against"] == "selka"
    assert data["check"]["target"] == 2 and data["check"]["total"] == 3 and data["check"]["reaction"] is True
    assert data["lands"] == "attacker" and data["hit_margin"] == 1
    assert data["check"]["paid"] == 2
    assert sheet_dice(encounter_camp, "sentry") == {"ready": 2, "used": 2}
    # no proactive use of anyone's: selka's uses untouched
    assert state(encounter_camp)["uses"]["melee"] == 2
    assert log_entries(encounter_camp)[-1]["command"] == "react"


def test_opportunity_attack_refused_when_the_last_action_was_not_a_move(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    ok(encounter_camp, "move", "selka", "2")
    ok(encounter_camp, "roll", "--force", "selka", "athletics", "--dr", "2", "--faces", "1")
    refused(encounter_camp, 3, "react", "sentry", "opportunity", "--against", "selka", "--faces", "2",
            rule="R-ACT-6")
    # and against someone else than the mover
    ok(encounter_camp, "move", "selka", "1")
    refused(encounter_camp, 3, "react", "sentry", "opportunity", "--against", "bandit", "--faces", "2",
            contains="bandit's last action was not a completed move")


def test_opportunity_attack_refused_right_after_turn_start(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    refused(encounter_camp, 3, "react", "sentry", "opportunity", "--against", "selka", "--faces", "2",
            contains="selka's last action was not a completed move")


def test_opportunity_attack_refused_when_stunned(encounter_camp):
    ok(encounter_camp, "condition", "sentry", "+stunned")
    ok(encounter_camp, "turn", "start", "selka")
    ok(encounter_camp, "move", "selka", "2")
    refused(encounter_camp, 3, "react", "sentry", "opportunity", "--against", "selka", "--faces", "2",
            contains="stunned")


def test_opportunity_attack_on_a_hidden_mover_refused(encounter_camp):
    _selka_hides_from_bandit_and_mira(encounter_camp)
    ok(encounter_camp, "move", "selka", "2")
    refused(encounter_camp, 3, "react", "bandit", "opportunity", "--against", "selka", "--faces", "2",
            contains="hidden")


def test_opportunity_attack_by_a_hidden_reactor_reveals_it_to_the_mover(encounter_camp):
    _selka_hides_from_bandit_and_mira(encounter_camp)
    ok(encounter_camp, "turn", "end", "--next", "mira")
    ok(encounter_camp, "turn", "start", "mira")
    ok(encounter_camp, "move", "mira", "3")
    data = ok(encounter_camp, "react", "--force", "selka", "opportunity", "--against", "mira", "--faces", "2")
    assert data["check"]["target"] == 3 and data["lands"] is None  # 2 vs Mira's Melee Readiness 3
    assert data["revealed_to"] == ["mira"]
    assert ok(encounter_camp, "encounter", "show")["hidden"] == {"selka": {"bandit": 3}}


def test_two_enemies_may_each_answer_the_same_move(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    ok(encounter_camp, "move", "selka", "2")
    ok(encounter_camp, "react", "--force", "sentry", "opportunity", "--against", "selka", "--faces", "1")
    data = ok(encounter_camp, "react", "--force", "bandit", "opportunity", "--against", "selka", "--faces", "2")
    assert data["check"]["total"] == 2 and data["check"]["target"] == 2


def test_assist_by_a_stunned_helper_refused(encounter_camp):
    ok(encounter_camp, "condition", "mira", "+stunned")
    ok(encounter_camp, "turn", "start", "selka")
    refused(encounter_camp, 3, "roll", "selka", "athletics", "--dr", "2", "--assist", "mira", "--faces", "0",
            "--reroll-faces", "2", contains="stunned")


def test_assist_payment_is_logged_with_the_check(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    data = ok(encounter_camp, "roll", "selka", "athletics", "--dr", "1", "--assist", "mira", "--faces", "0",
              "--reroll-faces", "2")
    assert data["edge"] == "advantage" and data["rerolled"] == [0] and data["total"] == 2
    assert data["success"] is True and data["paid"] == 1
    assert data["assist"]["helper"] == "mira" and data["assist"]["paid"] == 1
    assert sheet_dice(encounter_camp, "mira") == {"ready": 5, "used": 1}
    entry = log_entries(encounter_camp)[-1]
    assert entry["declaration"]["assist"] == "mira"
    assert entry["result"]["assist"]["paid"] == 1
    assert entry["dice"]["mira"] == {"before": {"ready": 6, "used": 0}, "after": {"ready": 5, "used": 1}}
    assert entry["dice"]["selka"] == {"before": {"ready": 5, "used": 0}, "after": {"ready": 4, "used": 1}}
    assert ok(encounter_camp, "verify")["ok"] is True


def test_slowed_helper_pays_double_and_unaffordable_assist_refused(encounter_camp):
    ok(encounter_camp, "condition", "mira", "+slowed")
    ok(encounter_camp, "turn", "start", "selka")
    data = ok(encounter_camp, "roll", "selka", "athletics", "--dr", "1", "--assist", "mira", "--faces", "1")
    assert data["assist"]["paid"] == 2
    set_dice(encounter_camp, "mira", ready=1, used=5)
    refused(encounter_camp, 3, "roll", "selka", "athletics", "--dr", "1", "--assist", "mira", "--faces", "1",
            contains="mira cannot pay 2 AD to Assist with 1 Ready")


def test_stunned_character_cannot_make_a_reaction_roll(encounter_camp):
    ok(encounter_camp, "condition", "bandit", "+stunned")
    refused(encounter_camp, 3, "roll", "bandit", "melee", "--dr", "2", "--reaction", "--faces", "1",
            contains="bandit is stunned and cannot take Reactions")


# ---- bad input ---------------------------------------------------------------------------

def test_defender_outside_the_encounter(fight):
    err = refused(fight, 2, "exchange", "mira", "kai", "--response", "none", "--faces", "2",
                  contains="kai is not in encounter ambush")
    assert "kai" in err
    refused(fight, 2, "exchange", "mira", "nobody", "--response", "none", "--faces", "2",
            contains="unknown character 'nobody'")


def test_unknown_response(fight):
    refused(fight, 2, "exchange", "mira", "bandit", "--response", "parry", "--faces", "2",
            contains="'parry' is not one of")
    refused(fight, 2, "exchange", "mira", "bandit", "--faces", "2",
            contains="Missing option '--response'")  # --response is required


def test_weapon_missing_from_the_sheet(fight):
    err = refused(fight, 2, "exchange", "mira", "bandit", "--weapon", "bow", "--response", "none", "--faces", "2",
                  contains="unknown weapon 'bow'")
    assert "bow" in err


@pytest.mark.parametrize("args,why", [
    (["--response", "none", "--faces", "2,2"], "--faces gave 2 face(s) but mira's attack rolls 1"),
    (["--response", "none", "--faces", "2", "--response-faces", "1"],  # no response, no response dice
     "--response-faces given but the response is none"),
    (["--response", "guard", "--faces", "2", "--response-faces", "1,1"],
     "--response-faces gave 2 face(s) but bandit's Full Guard rolls 1"),
    (["--response", "guard", "--faces", "2", "--response-faces", "1", "--response-boost", "-1"],
     "--response-boost -1 is negative"),
    (["--response", "none", "--faces", "2", "--cost", "-1"], "--cost -1 is negative"),
    (["--response", "none", "--faces", "2", "--skill", "juggling"], "unknown skill 'juggling' for mira"),
])
def test_more_exchange_bad_input(fight, args, why):
    refused(fight, 2, "exchange", "mira", "bandit", *args, contains=why)


def test_self_attack_and_react_bad_input(fight):
    refused(fight, 2, "exchange", "mira", "mira", "--response", "none", "--faces", "2",
            contains="a character cannot attack itself")
    refused(fight, 2, "react", "sentry", "opportunity", "--against", "kai", "--faces", "2",
            contains="kai is not in encounter ambush")
    refused(fight, 2, "react", "kai", "opportunity", "--against", "mira", "--faces", "2",
            contains="kai is not in the current encounter")
    refused(fight, 2, "react", "sentry", "dodge", "--against", "mira", "--faces", "2",
            contains="'dodge' is not one of 'opportunity', 'trait'")
