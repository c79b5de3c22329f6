"""Secret rolls and luck in Open Adventure (P-SECRET-1, P-SECRET-3, P-LUCK-2), through the host."""

from __future__ import annotations

import json
from fractions import Fraction

from narateer_cli.systems.open_adventure import odds, verify

from tests.cli.test_secret_rolls import keys_anywhere
from tests.conftest import ok, refused, run

from . import helpers

HIDDEN = {"faces", "faces_text", "total", "success", "outcome", "critical_failure", "shortfall", "effect"}
# S-SYS-8: what a check declares public whole: the rules it used (whose names include `faces`, `effect`) and
# how its Action Score and DS were made (each with its own `total`, no die in it)
DECLARED_WHOLE = {"rules_used", "action_score", "ds"}


def rolled_keys(value) -> set:
    """Every key of a logged entry, leaving out the parts a check declares public whole."""
    if isinstance(value, dict):
        return keys_anywhere({k: rolled_keys_of(v) for k, v in value.items() if k not in DECLARED_WHOLE})
    if isinstance(value, list):
        return set().union(*(rolled_keys(v) for v in value))
    return set()


def rolled_keys_of(value):
    if isinstance(value, dict):
        return {k: rolled_keys_of(v) for k, v in value.items() if k not in DECLARED_WHOLE}
    if isinstance(value, list):
        return [rolled_keys_of(v) for v in value]
    return value


def last_entry(root, log="hall"):
    return json.loads((root / "encounters" / f"{log}.log.yaml").read_text().splitlines()[-1][2:])


def encounter(oa):
    ok(oa, "encounter", "new", "hall", "bloodwind", "warheart", "goblin", "orc",
       "--reaction", "bloodwind=9", "--reaction", "warheart=5")
    ok(oa, "turn", "start")
    ok(oa, "turn", "end")
    ok(oa, "turn", "start")


def test_a_secret_roll_round_trip(oa):
    encounter(oa)
    shown = ok(oa, "roll", "goblin", "spear", "--vs", "bloodwind:body", "--faces", "1,1", "--secret")
    entry = last_entry(oa)
    assert entry["commitment"] and not HIDDEN & rolled_keys(entry["result"])
    assert shown["critical_failure"] is True  # the Guide's screen
    assert ok(oa, "verify")["secret"] == [entry["id"]]
    ok(oa, "unveil", entry["id"])
    assert last_entry(oa)["result"]["critical_failure"] is True
    data = ok(oa, "verify")
    assert data["ok"] is True and data["secret"] == []
    path = oa / "encounters" / "hall.log.yaml"
    path.write_text(path.read_text().replace('"shortfall": 5', '"shortfall": 4'))
    r = run(oa, "--json", "verify")
    assert r.code == 1 and "commitment" in r.json["problem"]


def test_stats_counts_open_adventure_checks(oa):
    encounter(oa)
    ok(oa, "roll", "goblin", "spear", "--vs", "bloodwind:body", "--faces", "1,1")
    [row] = ok(oa, "stats")["actors"]
    assert row["actor"] == "goblin" and row["checks"] == 1 and row["successes"] == 0


def exploding_2d6_meets_7() -> Fraction:
    """Two unbounded exploding d6 against DS 7, by hand: a die that explodes (1/6) reaches 7 alone; two dice
    that do not are each uniform over 1..5 (R-OA-EXPL-2); two 1s (a Critical Failure) total 2 and fail anyway."""
    pairs = sum(1 for a in range(1, 6) for b in range(1, 6) if a + b >= 7)
    return 1 - Fraction(5, 6) ** 2 * (1 - Fraction(pairs, 25))


def test_a_secret_check_logs_its_chance_and_counts_once_unveiled(oa):
    encounter(oa)
    shown = ok(oa, "roll", "goblin", "spear", "--vs", "bloodwind:body", "--faces", "6+2,1", "--secret")
    entry = last_entry(oa)
    assert shown["success"] is True and shown["total"] == 9  # the Guide's screen
    assert entry["commitment"] and not {"faces", "final_faces", "total", "success", "outcome"} & rolled_keys(entry)
    assert entry["result"]["chance"] == "7/12" == str(exploding_2d6_meets_7())  # P-LUCK-1, before the dice
    sealed = ok(oa, "stats")
    assert sealed["scope"]["sealed"] == 1 and all(row["checks"] == 0 for row in sealed["actors"])
    ok(oa, "unveil", entry["id"])
    assert ok(oa, "verify")["ok"] is True
    [row] = ok(oa, "stats")["actors"]
    assert Fraction(row["expected_exact"]) == exploding_2d6_meets_7()
    assert (row["checks"], row["successes"], row["dice_spent"]) == (1, 1, 0)
    assert row["crits"] == 1 and row["crits_expected"] == float(2 * Fraction(1, 5))  # one 6; 1/(6-1) per d6


def test_a_secret_resolve_and_an_opposed_check_round_trip(oa):
    encounter(oa)
    ok(oa, "resolve", "goblin", "--intent", "jab", "--check", "spear", "--vs", "bloodwind:body", "--faces", "1,1",
       "--secret")
    entry = last_entry(oa)
    assert entry["commitment"] and not HIDDEN & rolled_keys(entry)
    ok(oa, "turn", "end")
    ok(oa, "turn", "start", "orc")
    ok(oa, "--seed", "3", "roll", "orc", "greataxe", "--opposed", "bloodwind:strength", "--secret")
    opposed = last_entry(oa)
    assert opposed["commitment"] and not HIDDEN & rolled_keys(opposed)
    rules = helpers.rules()
    want = odds.opposed_chance((6, 10), (10,), 0, rules)  # AS 8 rolls d6+d10, AS 4 a d10; ties go to the actor
    assert Fraction(opposed["result"]["chance"]) == want
    assert ok(oa, "verify")["secret"] == [entry["id"], opposed["id"]]
    ok(oa, "unveil", "--all")
    assert ok(oa, "verify")["ok"] is True
    rows = {row["actor"]: row for row in ok(oa, "stats")["actors"]}
    assert Fraction(rows["orc"]["expected_exact"]) == want and rows["goblin"]["successes"] == 0


def test_verify_refuses_a_logged_chance_its_declaration_does_not_give(oa):
    encounter(oa)
    ok(oa, "roll", "goblin", "spear", "--vs", "bloodwind:body", "--faces", "6+2,1")
    path = oa / "encounters" / "hall.log.yaml"
    assert '"chance": "7/12"' in path.read_text()
    path.write_text(path.read_text().replace('"chance": "7/12"', '"chance": "1/2"'))
    r = run(oa, "--json", "verify")
    assert r.code == 1 and "chance should be 7/12" in r.json["problem"]


def test_secret_rolls_outside_an_encounter_log_a_commitment_in_the_campaign_log(oa):
    """P-SECRET-1: `roll` and `dice` with --secret and no encounter seal the roll in the campaign log, then
    `unveil` publishes it and `verify campaign` re-runs it."""
    shown = ok(oa, "roll", "amicus", "strength", "--mo", "--ds", "9", "--faces", "4,6+3", "--secret")
    assert shown["success"] is True and shown["total"] == 13  # the Guide's screen
    r = run(oa, "dice", "7", "--faces", "6+2,5", "--secret")
    assert r.code == 0 and "13" in r.out and "narateer unveil" in r.err
    check, dice = [json.loads(line[2:]) for line in (oa / "encounters" / "campaign.log.yaml").read_text().splitlines()]
    assert (check["command"], dice["command"]) == ("roll", "dice")
    for entry in (check, dice):
        assert entry["commitment"] and not HIDDEN & rolled_keys(entry)
    assert dice["result"] == {"system": "open-adventure", "action_score": 7, "dice": ["d6", "d8"]}
    assert ok(oa, "verify", "campaign")["secret"] == [check["id"], dice["id"]]
    ok(oa, "unveil", "--all")
    assert last_entry(oa, "campaign")["result"]["faces"] == [[6, 2], [5]]
    data = ok(oa, "verify", "campaign")
    assert data["ok"] is True and data["secret"] == []


def test_a_secret_bare_roll_in_an_encounter_goes_to_its_log(oa):
    encounter(oa)
    ok(oa, "dice", "7", "--faces", "6+2,5", "--secret")
    entry = last_entry(oa)
    assert entry["command"] == "dice" and entry["commitment"] and "total" not in entry["result"]
    assert not (oa / "encounters" / "campaign.log.yaml").exists()


def test_verify_re_runs_an_unveiled_bare_roll():
    rules = helpers.rules()
    entry = {"seq": 4, "command": "dice", "result": {"system": "open-adventure", "action_score": 7,
                                                     "dice": ["d6", "d8"], "faces": [[6, 2], [5]], "total": 13,
                                                     "critical_failure": False}}
    assert verify.verify_log([entry], rules) is None
    entry["result"]["total"] = 12
    assert verify.verify_log([entry], rules) == "entry 4 (dice): the total is not the sum of the faces"
    entry["result"].update(total=13, dice=["d6", "d6"])
    assert "AS 7 rolls" in verify.verify_log([entry], rules)


def test_a_secret_resolve_outside_an_encounter_is_sealed_and_one_that_rolls_nothing_is_refused(oa):
    ok(oa, "resolve", "bloodwind", "--intent", "free the axe", "--check", "strength", "--mo", "--ds", "4",
       "--faces", "3,1", "--secret")
    entry = last_entry(oa, "campaign")
    assert entry["command"] == "resolve" and entry["commitment"] and not HIDDEN & rolled_keys(entry)
    refused(oa, 2, "resolve", "amicus", "--intent", "light the lantern", "--auto", "--secret",
            contains="--secret hides a roll, and this command rolls nothing")
    ok(oa, "unveil", entry["id"])
    assert ok(oa, "verify", "campaign")["ok"] is True
