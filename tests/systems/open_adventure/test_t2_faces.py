"""T2-FACES in Open Adventure: faces given for an opposed check leave none of its dice to the tool.

The opponent's dice left out are asked on a terminal, else exit 2 naming --other-faces, files unchanged.
"""

from __future__ import annotations

from tests.conftest import ok, refused
from tests.table.test_ask import on_terminal


def test_T2_FACES_the_opponents_dice_left_out_are_exit_2_naming_them(oa):
    # warheart's Strength is AS 4 (a d10); the orc's is AS 6 (d6,d6)
    refused(oa, 2, "roll", "warheart", "strength", "--opposed", "orc:strength", "--faces", "3",
            contains="--other-faces")
    refused(oa, 2, "roll", "warheart", "strength", "--opposed", "orc:strength", "--other-faces", "3,3",
            contains="give --faces")


def test_T2_FACES_the_opponents_dice_left_out_are_asked_on_a_terminal(oa):
    code, out = on_terminal(oa, ["roll", "warheart", "strength", "--opposed", "orc:strength", "--faces", "9"],
                            [("die 1 (d6)", "2"), ("die 2 (d6)", "3")])
    assert code == 0, out
    assert "faces 2,3 = 5" in out and "faces 9 = 9" in out


def test_T2_FACES_no_faces_at_all_still_rolls(oa):
    out = ok(oa, "--seed", "4", "roll", "warheart", "strength", "--opposed", "orc:strength")
    assert out["opposed"]["faces"]


def test_T3_SMALL_a_faces_message_counts_the_dice_from_one_as_a_player_does(oa):
    # the orc's Strength is AS 6: two d6; the second die cannot show 7
    refused(oa, 2, "roll", "warheart", "strength", "--opposed", "orc:strength", "--faces", "3",
            "--other-faces", "3,7", contains="die 2 (d6) cannot show 7")
