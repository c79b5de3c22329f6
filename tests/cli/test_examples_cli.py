"""The worked examples of the rules through the command line, with the physical faces.

Each test runs the real entry point with `--json`, checks the command contract's
check-result keys and values, and then reads the sheet back: paid dice are
Used, the target's sheet is untouched.
"""

from __future__ import annotations

import pytest

from tests.conftest import json_error, run, snapshot

CHECK_KEYS = {"actor", "skill", "target", "target_source", "boost", "roll_dice", "paid", "faces", "rerolled",
              "final_faces", "total", "margin", "success", "outcome", "dice_before", "dice_after"}


def roll(camp, *args):
    r = run(camp, "--json", "roll", "--force", *args)
    assert r.code == 0, r.err
    assert r.err == ""
    assert r.out.count("\n") == 1  # exactly one JSON object
    data = r.json
    assert CHECK_KEYS <= set(data)
    return data


def dice_lines(camp, char):
    """The `ready:` and `used:` lines of a sheet's action_dice block."""
    lines = (camp / "characters" / f"{char}.yaml").read_text().splitlines()
    start = lines.index("action_dice:")
    return lines[start + 1:start + 3]


def test_R_PAY_3_slowed_payments_cli(camp):
    """Javi has 3 Ready: Slowed, Boost 0 pays 2 and rolls 1; Boost 1 would pay 4 and is refused."""
    r = run(camp, "condition", "javi", "+slowed")
    assert r.code == 0, r.err
    before = snapshot(camp)
    refused = run(camp, "--json", "roll", "javi", "athletics", "--dr", "2", "--boost", "1", "--faces", "hit,hit")
    assert refused.code == 3
    assert json_error(refused, 3)["rule"] == "R-PAY-5"  # --json: the error's object, nothing else
    assert "4" in refused.err and "3 Ready" in refused.err
    assert snapshot(camp) == before

    data = roll(camp, "javi", "athletics", "--dr", "2", "--faces", "hit")
    assert data["boost"] == 0
    assert data["paid"] == 2
    assert data["roll_dice"] == 1
    assert data["faces"] == [1] and data["final_faces"] == [1]
    assert data["total"] == 1 and data["success"] is False
    assert data["dice_before"] == {"ready": 3, "used": 0}
    assert data["dice_after"] == {"ready": 1, "used": 2}
    assert dice_lines(camp, "javi") == ["  ready: 1", "  used: 2"]


def test_R_PAY_3_slowed_boost_1_pays_4_rolls_2_cli(camp):
    (camp / "characters" / "javi.yaml").write_text(
        (camp / "characters" / "javi.yaml").read_text().replace("ready: 3", "ready: 4")
        .replace("conditions: []", "conditions: [slowed]"))
    data = roll(camp, "javi", "athletics", "--dr", "2", "--boost", "1", "--faces", "hit,crit")
    assert (data["paid"], data["roll_dice"], data["boost"]) == (4, 2, 1)
    assert data["total"] == 3 and data["margin"] == 1 and data["outcome"] == "Success"
    assert data["dice_after"] == {"ready": 0, "used": 4}
    assert dice_lines(camp, "javi") == ["  ready: 0", "  used: 4"]


def test_R_EDGE_2_veyra_cli(camp):
    before_soldiers = (camp / "characters" / "soldiers.yaml").read_bytes()
    data = roll(camp, "veyra", "stealth", "--vs", "soldiers:observation", "--boost", "2", "--advantage",
                "--faces", "miss,hit,crit", "--reroll-faces", "hit")
    assert data["actor"] == "veyra" and data["skill"] == "stealth"
    assert data["target"] == 4 and data["target_source"] == "readiness"
    assert data["boost"] == 2 and data["roll_dice"] == 3 and data["paid"] == 3
    assert data["faces"] == [0, 1, 2]
    assert data["rerolled"] == [0]
    assert data["final_faces"] == [1, 1, 2]
    assert data["total"] == 4 and data["margin"] == 0
    assert data["success"] is False and data["outcome"] == "Failure"
    assert data["dice_before"] == {"ready": 5, "used": 0}
    assert data["dice_after"] == {"ready": 2, "used": 3}
    assert dice_lines(camp, "veyra") == ["  ready: 2", "  used: 3"]
    assert (camp / "characters" / "soldiers.yaml").read_bytes() == before_soldiers


def test_R_CHK_9_tarin_cli(camp):
    data = roll(camp, "tarin", "athletics", "--dr", "challenging", "--boost", "2", "--faces", "hit,miss,miss")
    assert data["target"] == 5 and data["target_source"] == "dr"
    assert data["rerolled"] == []
    assert data["final_faces"] == [1, 0, 0]
    assert data["total"] == 1 and data["margin"] == -4 and data["success"] is False
    assert data["outcome"] == "Serious Failure"
    assert dice_lines(camp, "tarin") == ["  ready: 2", "  used: 3"]


def test_R_CHK_6_rika_cli(camp):
    data = roll(camp, "rika", "athletics", "--dr", "5", "--boost", "1", "--faces", "hit,miss")
    assert (data["paid"], data["roll_dice"], data["total"], data["margin"]) == (2, 2, 1, -4)
    assert data["success"] is False
    assert dice_lines(camp, "rika") == ["  ready: 2", "  used: 2"]


def test_R_EDGE_1_kai_cli(camp):
    data = roll(camp, "kai", "stealth", "--vs", "sentry:observation", "--boost", "2", "--advantage",
                "--faces", "miss,hit,miss", "--reroll-faces", "hit,miss")
    assert data["target"] == 3
    assert data["faces"] == [0, 1, 0]
    assert data["rerolled"] == [0, 2]
    assert data["final_faces"] == [1, 1, 0]
    assert data["total"] == 2 and data["margin"] == -1 and data["success"] is False
    assert dice_lines(camp, "kai") == ["  ready: 2", "  used: 3"]


def test_R_CHK_6_javi_cli(camp):
    data = roll(camp, "javi", "athletics", "--dr", "routine", "--faces", "miss")
    assert (data["target"], data["total"], data["margin"], data["success"]) == (2, 0, -2, False)
    assert data["outcome"] == "Failure"
    assert dice_lines(camp, "javi") == ["  ready: 2", "  used: 1"]


def test_R_TIER_1_raeline_cli(camp):
    data = roll(camp, "raeline", "stealth", "--vs", "beast:observation", "--boost", "3", "--faces", "2,2,2,1")
    assert data["target"] == 4
    assert data["total"] == 7 and data["margin"] == 3
    assert data["success"] is True and data["outcome"] == "Strong Success"
    assert dice_lines(camp, "raeline") == ["  ready: 2", "  used: 4"]


def test_R_TIER_1_kaelen_cli(camp):
    data = roll(camp, "kaelen", "finesse", "--dr", "routine", "--boost", "2", "--faces", "crit,crit,crit")
    assert data["total"] == 6 and data["margin"] == 4
    assert data["success"] is True and data["outcome"] == "Strong Success"
    assert dice_lines(camp, "kaelen") == ["  ready: 1", "  used: 3"]


def test_R_RDY_1_kaelin_cli(camp):
    r = run(camp, "--json", "readiness", "kaelin", "insight")
    assert r.code == 0, r.err
    assert r.json["actor"] == "kaelin"
    assert r.json["readiness"] == {"insight": 3}
    data = roll(camp, "thief", "finesse", "--vs", "kaelin:insight", "--boost", "1", "--faces", "1,2")
    assert data["target"] == 3 and data["target_source"] == "readiness"
    assert data["total"] == 3 and data["margin"] == 0 and data["success"] is False
    assert dice_lines(camp, "kaelin") == ["  ready: 4", "  used: 0"]
    assert dice_lines(camp, "thief") == ["  ready: 2", "  used: 2"]


@pytest.mark.parametrize("char, dr, success", [("elira", "routine", True), ("torren", "4", False)])
def test_R_RDY_3_behind_the_screen_cli(camp, char, dr, success):
    before = snapshot(camp)
    r = run(camp, "--json", "behind", char, "observation", "--dr", dr)
    assert r.code == 0, r.err
    data = r.json
    assert {"actor", "skill", "readiness", "target", "success"} <= set(data)
    assert data["actor"] == char and data["skill"] == "observation"
    assert data["readiness"] == 3
    assert data["target"] == int({"routine": "2"}.get(dr, dr))
    assert data["success"] is success
    assert snapshot(camp) == before  # no dice, no cost
