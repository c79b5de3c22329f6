"""Edges of the luck record and of verify that a mutation run found unguarded (P-LUCK-1, P-LUCK-2,
S-SYS-6, R-PAY-2): each test here fails on a small change of the code that the rest of the suite let
through."""

from __future__ import annotations

import json

import pytest

from tests.conftest import ok, run

LOG = ("encounters", "campaign.log.yaml")


def _log_lines(camp):
    return camp.joinpath(*LOG).read_text(encoding="utf-8").splitlines(keepends=True)


def _edit_entries(camp, edit):
    """Rewrite each one-line entry of the campaign log through `edit(number, entry)`."""
    lines = _log_lines(camp)
    for i, line in enumerate(lines):
        if line.startswith("- {"):
            entry = json.loads(line[2:])
            edit(i, entry)
            lines[i] = "- " + json.dumps(entry, ensure_ascii=False) + "\n"
    camp.joinpath(*LOG).write_text("".join(lines), encoding="utf-8")


def test_P_LUCK_2_an_undone_successful_check_counts_for_nothing(camp, tmp_path):
    """The undo takes back the success, the chance, the dice and the crits of the check it undoes: the record
    is the one of a campaign where only the first check was rolled."""
    from tests.conftest import example_campaign

    ok(camp, "roll", "selka", "stealth", "--dr", "1", "--faces", "2")
    ok(camp, "roll", "selka", "stealth", "--dr", "2", "--boost", "1", "--faces", "2,1")  # a success, undone
    ok(camp, "undo")
    once = example_campaign(tmp_path / "once")
    ok(once, "roll", "selka", "stealth", "--dr", "1", "--faces", "2")
    row = ok(camp, "stats")["actors"]
    assert row == ok(once, "stats")["actors"]
    assert row[0]["checks"] == 1 and row[0]["successes"] == 1 and row[0]["expected_exact"] == "1/3"
    assert row[0]["dice_spent"] == 1 and row[0]["crits"] == 1


def test_S_SYS_6_verify_replays_a_logged_power_reroll(camp):
    """A power reroll is part of the check verify runs again: its faces are used, and a changed one is named."""
    ok(camp, "roll", "kaelen", "finesse", "--dr", "2", "--boost", "1", "--advantage", "--faces", "0,1",
       "--reroll-faces", "0", "--power-reroll", "0", "--power-faces", "2")
    assert ok(camp, "verify", "campaign")["ok"] is True

    def weaker(_, entry):
        entry["result"]["power_faces"] = [0]  # the rerolled die came up Miss: total 1, no success against DR 2
    _edit_entries(camp, weaker)
    r = run(camp, "--json", "verify", "campaign")
    assert r.code == 1 and "encounters/campaign.log.yaml:1: entry 1 (roll)" in r.json["problem"], r.out


@pytest.mark.parametrize("roll_dice,rolled", [("base_cost", 2), ("paid_base", 1)])
def test_R_PAY_2_a_discount_larger_than_the_cost_pays_nothing_for_it(camp, roll_dice, rolled):
    """Each discount takes its part down to 0, never below: only the fee is paid; verify agrees. The dice
    rolled: the base cost undiscounted plus the Boost (base_cost), or the base discounted to 0 plus the
    Boost (paid_base)."""
    config = camp / "narateer.yaml"
    config.write_text(config.read_text() + f"rules:\n  roll_dice: {roll_dice}\n")
    data = ok(camp, "roll", "selka", "stealth", "--dr", "1", "--cost", "1", "--discount-base", "3", "--boost", "1",
              "--discount-boost", "4", "--fee", "1", "--faces", ",".join(["2"] * rolled))
    assert data["paid"] == 1 and data["roll_dice"] == rolled
    assert data["dice_after"] == {"ready": 4, "used": 1}
    assert ok(camp, "verify", "campaign")["ok"] is True


def test_P_LUCK_1_a_logged_chance_over_zero_is_a_problem_not_a_crash(camp):
    """"1/0" is no chance: verify names it as a problem, stats reckons the chance from the declaration."""
    ok(camp, "roll", "selka", "stealth", "--dr", "1", "--faces", "2")

    def over_zero(_, entry):
        entry["result"]["chance"] = "1/0"
    _edit_entries(camp, over_zero)
    r = run(camp, "--json", "verify", "campaign")
    assert r.code == 1 and "Traceback" not in r.err, r.err
    assert r.json["problem"] == ("encounters/campaign.log.yaml:1: entry 1 (roll): logged chance 1/0 is not "
                                 "the check's chance 1/3")
    row = ok(camp, "stats")["actors"][0]
    assert row["checks"] == 1 and row["expected_exact"] == "1/3" and row["successes"] == 1


def test_P_LUCK_2_since_counts_an_entry_logged_at_that_very_moment(camp):
    """`stats --since T` counts the entries logged at or after T: one logged at T itself counts, one a
    second before does not."""
    for faces in ("2", "0", "1"):
        ok(camp, "roll", "selka", "stealth", "--dr", "1", "--faces", faces)
    moments = iter(["2026-11-01T10:00:00Z", "2026-11-02T09:59:59Z", "2026-11-02T10:00:00Z"])

    def at(_, entry):
        entry["at"] = next(moments)
    _edit_entries(camp, at)
    counted = {since: ok(camp, "stats", "--since", since)["actors"] for since in
               ("2026-11-02T10:00:00Z", "2026-11-02T09:59:59Z", "2026-11-02T10:00:01Z", "2026-11-02")}
    assert [row["checks"] for row in counted["2026-11-02T10:00:00Z"]] == [1]  # the third, logged at T
    assert counted["2026-11-02T10:00:00Z"][0]["successes"] == 0  # faces "1" against DR 1: no success
    assert [row["checks"] for row in counted["2026-11-02T09:59:59Z"]] == [2]
    assert counted["2026-11-02T10:00:01Z"] == []
    assert [row["checks"] for row in counted["2026-11-02"]] == [2]  # a date: from its first moment on
