"""T3-ZERO: a check with no chance to succeed (0%) asks before it rolls on a terminal; `--force` skips the question;
a script without a terminal gets exit 3 with the chance named; nothing is written when it is refused. In every
game, through the engine's exact chance (the one `--dry-run` and `odds` show) and the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import example_campaign, ok, refused, run, snapshot
from tests.table.test_ask import on_terminal




@pytest.fixture
def n(tmp_path) -> Path:
    return example_campaign(tmp_path / "n")


@pytest.fixture
def d20(tmp_path) -> Path:
    root = example_campaign(tmp_path / "d20", "d20-cards")
    ok(root, "encounter", "new", "fight", "mira", "bandit")
    ok(root, "turn", "start", "mira")
    return root


@pytest.fixture
def oa(tmp_path) -> Path:
    return example_campaign(tmp_path / "oa", "open-adventure")


# -- Narateer -----------------------------------------------------------------------------------------------------

def test_T3_ZERO_a_dr_30_typo_is_refused_in_a_script_with_the_chance_named(n):
    # selka rolls 1 die (base 1, Boost 0): its face shows at most 2 dots, which never exceeds 30
    err = refused(n, 3, "roll", "selka", "stealth", "--dr", "30", "--faces", "2", rule="T3-ZERO")
    assert err == ("narateer: no chance to succeed (0%): selka's stealth check against DR 30 (1 die shows at most 2, "
                   "and the total must exceed 30); check the numbers, or add --force to roll anyway\n")


def test_T3_ZERO_force_rolls_the_hopeless_check_and_logs_it(n):
    data = ok(n, "roll", "selka", "stealth", "--dr", "30", "--faces", "2", "--force")
    assert (data["total"], data["success"]) == (2, False)
    entry = ok(n, "encounter", "log", "campaign")["entries"][-1]
    assert entry["command"] == "roll" and entry["result"]["chance"] in ("0", "0/1")
    assert run(n, "verify", "campaign").code == 0


def test_T3_ZERO_a_check_with_a_chance_rolls_without_a_word(n):
    # Boost 2: 3 dice, at most 6 > 3
    data = ok(n, "roll", "selka", "stealth", "--dr", "3", "--boost", "2", "--faces", "2,2,0")
    assert data["success"] is True


def test_T3_ZERO_the_dry_run_shows_the_zero_and_asks_nothing(n):
    data = ok(n, "roll", "selka", "stealth", "--dr", "30", "--dry-run")
    assert {o["p_success"] for o in data["options"]} == {0}


def test_T3_ZERO_an_exchange_that_cannot_land_asks_too(tmp_path):
    camp = example_campaign(tmp_path / "n")
    ok(camp, "encounter", "new", "brawl", "mira", "bandit")
    ok(camp, "turn", "start", "mira")
    # mira's 1 die (at most 2) against bandit's Melee Readiness 2: a tie fails
    refused(camp, 3, "exchange", "mira", "bandit", "--response", "none", "--faces", "2",
            contains="mira's melee check against bandit's melee Readiness (1 die shows at most 2", rule="T3-ZERO")
    data = ok(camp, "exchange", "mira", "bandit", "--response", "none", "--faces", "2", "--force")
    assert data["lands"] is None and data["attack"]["total"] == 2


def test_T3_ZERO_a_hide_that_escapes_no_observer_asks(tmp_path):
    camp = example_campaign(tmp_path / "n")
    ok(camp, "encounter", "new", "brawl", "selka", "bandit")
    ok(camp, "turn", "start", "selka")
    refused(camp, 3, "hide", "selka", "--from", "bandit", "--faces", "2", contains="every observer", rule="T3-ZERO")
    ok(camp, "hide", "selka", "--from", "bandit", "--boost", "1", "--faces", "2,2")


def test_T3_ZERO_on_a_terminal_the_question_comes_first_and_no_keeps_every_byte(n):
    before = snapshot(n)
    code, out = on_terminal(n, ["roll", "selka", "stealth", "--dr", "30", "--faces", "ask"],
                            [("Roll anyway?", "n")])
    assert code == 3, out
    assert "No chance to succeed (0%): selka's stealth check against DR 30" in out
    assert "die 1 of 1" not in out  # asked before any face
    assert "not rolled" in out
    assert snapshot(n) == before


def test_T3_ZERO_on_a_terminal_yes_rolls(n):
    code, out = on_terminal(n, ["roll", "selka", "stealth", "--dr", "30", "--faces", "ask"],
                            [("Roll anyway?", "y"), ("die 1 of 1", "crit")])
    assert code == 0, out
    assert "total 2 vs 30" in out


def test_T3_ZERO_the_python_api_is_refused_like_a_script(n):
    from narateer_cli import api
    from narateer_cli.errors import Refused

    before = snapshot(n)
    with pytest.raises(Refused) as caught:
        api.open_campaign(n).run("roll", "selka", "stealth", "--dr", "30", "--faces", "2")
    assert caught.value.rule == "T3-ZERO" and snapshot(n) == before


# -- d20 action cards ---------------------------------------------------------------------------------------------

def test_T3_ZERO_d20_a_blind_attack_that_cannot_reach_the_ac_asks(d20):
    # strike unseen (-10) behind cover (--mod -1): face 20 + fin 4 - 10 - 1 = 13 < bandit's Physical AC 14
    err = refused(d20, 3, "act", "mira", "strike", "--target", "bandit", "--unseen", "bandit", "--mod", "-1",
                  "--faces", "20", rule="T3-ZERO")
    assert err == ("narateer: no chance to succeed (0%): mira's strike: it totals at most 13 (blind -10, --mod -1 "
                   "included) against bandit's Physical AC 14; check the numbers, or add --force to roll anyway\n")
    data = ok(d20, "act", "mira", "strike", "--target", "bandit", "--unseen", "bandit", "--mod", "-1", "--faces", "20",
              "--force")
    attack = data["targets"][0]["attack"]
    assert (attack["total"], attack["hit"], attack["chance"]) == (13, False, "0/1")
    assert data["resources_after"]["ap"] == 1  # paid, as any performance


def test_T3_ZERO_d20_the_plain_blind_strike_of_the_worked_case_keeps_its_chance(d20):
    # W-4: unseen, face 20 -> 14 = 14 hits: 1 in 20, no question
    attack = ok(d20, "act", "mira", "strike", "--target", "bandit", "--unseen", "bandit",
                "--faces", "20")["targets"][0]["attack"]
    assert (attack["total"], attack["hit"], attack["chance"]) == (14, True, "1/20")


def test_T3_ZERO_d20_a_save_every_face_resists_asks(d20):
    sheet = d20 / "characters" / "bandit.yaml"
    sheet.write_text(sheet.read_text().replace("wil: 2", "wil: 12"))  # 1 + 12 = 13 meets mira's Mental DC 11
    refused(d20, 3, "act", "mira", "stun-word", "--target", "bandit", "--save-faces", "bandit=1",
            contains="bandit's save of at least 13 always meets DC 11", rule="T3-ZERO")


# -- Open Adventure -----------------------------------------------------------------------------------------------

def test_T3_ZERO_open_adventure_comparing_a_lower_as_asks(oa):
    refused(oa, 3, "roll", "amicus", "strength", "--compare", "--ds", "30",
            contains="amicus's strength check (AS 4 compared with DS 30)", rule="T3-ZERO")
    assert ok(oa, "roll", "amicus", "strength", "--compare", "--ds", "30", "--force")["success"] is False


def test_T3_ZERO_open_adventure_dice_that_cannot_explode_ask_against_a_ds_beyond_them(oa):
    config = oa / "narateer.yaml"
    config.write_text(config.read_text() + "rules:\n  explode: {dice: none}\n")
    refused(oa, 3, "roll", "amicus", "strength", "--ds", "30", "--faces", "3",
            contains="d10 reach at most 10 against DS 30", rule="T3-ZERO")
    assert ok(oa, "roll", "amicus", "strength", "--ds", "10", "--faces", "10")["success"] is True


def test_T3_ZERO_open_adventure_exploding_dice_always_have_a_chance(oa):
    # unbounded explosions reach any total: DS 30 is unlikely, never impossible, so nothing is asked
    assert ok(oa, "roll", "amicus", "strength", "--ds", "30", "--faces", "10+10+10+2")["success"] is True
