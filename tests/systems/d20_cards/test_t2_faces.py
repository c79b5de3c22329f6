"""T2-FACES in d20-cards: once faces are given for a command, every die it needs comes from the table.

A die left out (the Concentration d20 of a concentrating victim, the damage dice) is asked on a terminal,
else it is exit 2 naming the option to give, with the files unchanged; the tool never rolls it silently.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ok, refused
from tests.systems.d20_cards.conftest import fight
from tests.table.test_ask import on_terminal


@pytest.fixture
def warded(tmp_path) -> Path:
    """mira concentrates on Ward; the bandit's turn in round 1."""
    root = fight(tmp_path, "mira", "bandit", "tor")
    ok(root, "act", "mira", "ward")
    ok(root, "turn", "end", "--next", "bandit")
    return root


def test_T2_FACES_the_concentration_d20_left_out_is_exit_2_naming_it(warded):
    refused(warded, 2, "act", "bandit", "cleaver", "--target", "mira", "--faces", "15",
            contains="--concentration-faces mira=F")


def test_T2_FACES_the_concentration_d20_given_is_the_one_used(warded):
    out = ok(warded, "act", "bandit", "cleaver", "--target", "mira", "--faces", "15", "--concentration-faces", "mira=4")
    check = out["targets"][0]["damage"]["concentration_check"]
    assert check["face"] == 4 and check["kept"] is False


def test_T2_FACES_without_faces_the_tool_still_rolls_every_die(warded):
    out = ok(warded, "--seed", "3", "act", "bandit", "cleaver", "--target", "mira")
    assert out["targets"][0]["attack"]["faces"]


def test_T2_FACES_the_concentration_d20_left_out_is_asked_on_a_terminal(warded):
    code, out = on_terminal(warded, ["act", "bandit", "cleaver", "--target", "mira", "--faces", "15"],
                            [("mira's Concentration d20", "4")])
    assert code == 0, out
    assert "d20 4 +5 = 9 vs 10, dropped" in out
    entry = ok(warded, "encounter", "log")["entries"][-1]
    assert entry["result"]["targets"][0]["damage"]["concentration_check"]["face"] == 4
    assert ok(warded, "verify")["ok"] is True


def test_T2_FACES_ask_faces_false_refuses_on_a_terminal_too(warded):
    config = warded / "narateer.yaml"
    config.write_text(config.read_text() + "ask_faces: false\n")
    code, out = on_terminal(warded, ["act", "bandit", "cleaver", "--target", "mira", "--faces", "15"], [])
    assert code == 2 and "--concentration-faces mira=F" in out and "die 1 of 1" not in out


def test_T2_FACES_damage_dice_left_out_are_exit_2(tmp_path):
    root = fight(tmp_path, "mira", "bandit", "tor")
    ok(root, "turn", "end", "--next", "tor")
    refused(root, 2, "act", "tor", "quiet-knife", "--target", "bandit", "--faces", "18", contains="--damage-faces F")
    out = ok(root, "act", "tor", "quiet-knife", "--target", "bandit", "--faces", "18", "--damage-faces", "5")
    assert out["damage_roll"]["faces"] == [5]


def test_T2_FACES_damage_asks_the_concentration_d20_on_a_terminal(tmp_path):
    root = fight(tmp_path, "mira", "bandit")
    ok(root, "act", "mira", "ward")
    code, out = on_terminal(root, ["damage", "mira", "7", "--concentration-faces", "ask"],
                            [("mira's Concentration d20", "3")])
    assert code == 0, out
    assert "d20 3 +5 = 8 vs 10, dropped" in out


def test_T2_FACES_turn_end_next_takes_the_drains_concentration_d20(warded):
    ok(warded, "condition", "mira", "+dying")
    out = ok(warded, "turn", "end", "--next", "mira", "--concentration-faces", "17")
    assert out["drain"]["concentration_check"]["face"] == 17
    assert ok(warded, "verify")["ok"] is True


def test_T2_FACES_concentration_faces_on_turn_end_needs_next(warded):
    refused(warded, 2, "turn", "end", "--concentration-faces", "17", contains="--next")
