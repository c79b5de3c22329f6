"""d20-cards messages that name the closest known name or the d20 way, through the command line:
misspelt targets in per-target options (S-SYS-5), `dice`, other systems' options (S-SYS-3), `rules:` lines,
and the report's faces and chance columns (T-LOG)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.systems.d20_cards.conftest import fight
from tests.conftest import ok, refused, run


@pytest.fixture
def d20(tmp_path) -> Path:
    return fight(tmp_path, "mira", "bandit")


@pytest.mark.parametrize("card,option", [
    ("strike", ("--distance", "bandt=3")),
    ("strike", ("--unseen", "bandt")),
    ("stun-word", ("--unheard", "bandt")),
    ("stun-word", ("--save-faces", "bandt=8")),
    ("strike", ("--concentration-faces", "bandt=3")),
])
def test_a_misspelt_target_in_a_per_target_option_names_the_target(d20, card, option):
    err = refused(d20, 2, "act", "mira", card, "--target", "bandit", *option, contains="(did you mean bandit?)")
    assert f"name bandit in {option[0]}" in err and "add --target bandt" not in err


def test_a_name_far_from_every_target_is_still_told_to_add_or_drop(d20):
    refused(d20, 2, "act", "mira", "strike", "--target", "bandit", "--unseen", "tor",
            contains="--unseen tor: tor is not a target; add --target tor or drop it")


@pytest.mark.parametrize("expr", ["3", "0d6", "d0", "2x6"])
def test_dice_names_the_dice_it_wants(d20, expr):
    err = refused(d20, 2, "dice", expr, contains=f"bad dice '{expr}'; name the dice: d20, 2d6+3")
    assert "whole number" not in err


@pytest.mark.parametrize("args,flag,system,way", [
    (("act", "mira", "strike", "--target", "bandit", "--boost", "2"), "--boost", "a narateer", "--mod N"),
    (("act", "mira", "strike", "--target", "bandit", "--dr", "3"), "--dr", "a narateer", "--target T"),
    (("act", "mira", "strike", "--target", "bandit", "--ds", "9"), "--ds", "an open-adventure", "--target T"),
    (("odds", "mira", "strike", "--target", "bandit", "--benefit", "1"), "--benefit", "an open-adventure",
     "--advantage"),
])
def test_other_systems_options_point_to_the_d20_way(d20, args, flag, system, way):
    err = refused(d20, 2, *args, contains=f"{flag} is {system}-system option; this campaign plays d20-cards", rule="S-SYS-3")
    assert way in err


def test_a_rules_error_is_placed_on_its_own_line(d20):
    config = d20 / "narateer.yaml"
    config.write_text(config.read_text() + "rules:\n  ap: {refresh: max}\n  atack_ties: miss\n")
    line = config.read_text().splitlines().index("  atack_ties: miss") + 1
    assert line > 2
    r = run(d20, "check")
    assert r.code == 1 and f"narateer.yaml:{line}: unknown key 'rules.atack_ties' (did you mean " \
                            "attack_ties" in r.out
    err = refused(d20, 2, "show", "mira", contains="rules.atack_ties")
    assert "narateer.yaml:1:" not in err


def test_report_shows_the_faces_and_chance_of_attacks_and_saves(d20):
    ok(d20, "act", "mira", "strike", "--target", "bandit", "--faces", "11")
    ok(d20, "turn", "start", "mira")
    ok(d20, "act", "mira", "stun-word", "--target", "bandit", "--save-faces", "bandit=8")
    rows = [line for line in run(d20, "report").out.splitlines() if "mira performs" in line]
    assert len(rows) == 2
    cells = [[c.strip() for c in row.split("|")] for row in rows]
    # strike: d20 11, FIN +4 meets AC 14 on 10..20 (11/20); stun-word: bandit fails DC 11 with WIL +2 on 1..8
    assert (cells[0][5], cells[0][6]) == ("11", "55.0%")
    assert (cells[1][5], cells[1][6]) == ("8", "40.0%")


def test_the_players_screen_shows_a_save_as_the_last_check(d20):
    from narateer_cli.store import encounters
    from narateer_cli.systems.d20_cards.view import last_check

    ok(d20, "act", "mira", "stun-word", "--target", "bandit", "--save-faces", "bandit=8")
    entry = encounters.read_log(d20, "fight")[-1]
    (save,) = last_check(entry)["rolls"]
    assert {k: save[k] for k in ("actor", "skill", "faces", "total", "target", "outcome")} == {
        "actor": "bandit", "skill": "save against Stun Word", "faces": [8], "total": 10, "target": 11, "outcome": "Failed"}


def test_the_state_file_names_its_system(d20):
    assert (d20 / "encounters" / "fight.yaml").read_text().startswith("# d20-cards encounter state;")


def test_every_roll_meets_its_number_through_one_comparison(monkeypatch):
    """Attack vs AC, save vs DC and the Concentration check all go through `beats` with their tie knob."""
    from narateer_cli.systems.d20_cards import SYSTEM, act, effects

    seen = []

    def spy(total, target, ties=True):
        seen.append((total, target, ties))
        return total >= target if ties else total > target

    monkeypatch.setattr(act, "beats", spy)
    monkeypatch.setattr(effects, "beats", spy)
    rules = SYSTEM.ruleset({"attack_ties": "miss", "concentration": {"ties": "drop"}})
    assert act.hits(10, 14, 14, rules) is False and act.resists(11, 11, rules) is True
    assert effects.kept(10, rules) is False
    assert seen == [(14, 14, False), (11, 11, True), (10, 10, False)]
    assert effects.beats(12, 12) is True


def test_a_misspelt_companion_names_the_companion(d20):
    refused(d20, 2, "act", "mira", "peck", "--companion", "pp", "--target", "bandit",
            contains="'pp' is not a companion of mira (did you mean pip?); companions: pip")
