"""T-ASK in Open Adventure: `--faces ask` asks each die, then each explosion as it happens, on a terminal."""

from __future__ import annotations

from tests.conftest import refused, snapshot
from tests.table.test_ask import on_terminal


def test_faces_ask_prompts_each_die_then_each_explosion(oa):
    # AS 7 rolls d6+d8 (Action Chart); the d6 shows 6 and explodes, then 2; the d8 shows 5
    code, out = on_terminal(oa, ["dice", "7", "--faces", "ask"],
                            [("die 1 (d6)", "6"), ("exploded on 6", "2"), ("die 2 (d8)", "5")])
    assert code == 0, out
    assert "13" in out
    assert "6+2,5" in out


def test_a_face_the_die_cannot_show_is_asked_again(oa):
    # Bloodwind's Strength 4 is AS 4: one d10; 11 cannot show, 3 misses DS 4
    code, out = on_terminal(oa, ["roll", "bloodwind", "strength", "--ds", "4", "--faces", "ask"],
                            [("die 1 (d10)", "11"), ("not a face of a d10", "3")])
    assert code == 0, out
    assert "faces 3 = 3" in out and "Failure" in out


def test_without_a_terminal_faces_ask_is_exit_2(oa):
    refused(oa, 2, "dice", "7", "--faces", "ask", contains="terminal")


def test_compare_with_faces_ask_is_exit_2_before_anything_is_asked_R_OA_CMP_1(oa):
    """Comparing Scores rolls nothing: asking for faces is bad input, on a terminal too, and writes nothing."""
    before = snapshot(oa)
    code, out = on_terminal(oa, ["roll", "amicus", "strength", "--compare", "--ds", "5", "--faces", "ask"], [])
    assert code == 2 and "--compare rolls no dice, so --faces does not apply" in out and "die 0" not in out
    assert snapshot(oa) == before
