"""A history that never lies (H-1, H-4): legal play always verifies and checks clean."""

from __future__ import annotations

import json

import pytest

from tests.conftest import ok, run, sheet_dice

BRAWL = "encounters/brawl.log.yaml"


def brawl(camp):
    ok(camp, "encounter", "new", "brawl", "mira", "bandit")
    ok(camp, "turn", "start", "mira")


def clean(camp, enc="brawl"):
    """verify and check both report nothing (H-1)."""
    r = run(camp, "verify", enc)
    assert r.code == 0, r.out + r.err
    r = run(camp, "check")
    assert r.code == 0, r.out + r.err


@pytest.mark.parametrize("args, wounded, count", [
    # a guarding defender rolls, then takes the sword's 3 wounds
    (("--weapon", "sword", "--response", "guard", "--faces", "2", "--response-faces", "0"), "bandit", 3),
    # an attacker who loses a Clash rolled too, then takes the club's 2 wounds
    (("--weapon", "sword", "--response", "clash", "--response-weapon", "club", "--faces", "0",
      "--response-faces", "2"), "mira", 2),
])
def test_exchange_apply_on_a_side_that_rolled_verifies(camp, args, wounded, count):
    """H-1: the wound is dealt after both rolls, so the check's dice_after is before it and the entry's
    final dice after it; verify re-derives both, check agrees, and undo leaves a log that verifies."""
    brawl(camp)
    r = ok(camp, "exchange", "mira", "bandit", *args, "--apply")
    assert r["applied"]["actor"] == wounded and sheet_dice(camp, wounded)["wounded"] == count
    clean(camp)
    ok(camp, "undo")
    assert sheet_dice(camp, wounded).get("wounded", 0) == 0
    clean(camp)


def test_a_hand_edited_wound_is_still_caught(camp):
    brawl(camp)
    ok(camp, "exchange", "mira", "bandit", "--weapon", "sword", "--response", "guard", "--faces", "2",
       "--response-faces", "0", "--apply")
    log = camp / BRAWL
    lines = log.read_text().splitlines()
    entry = json.loads(lines[-1][2:])
    entry["result"]["applied"]["dice_after"] = {"ready": 2, "used": 1, "wounded": 2}
    entry["dice"]["bandit"]["after"] = {"ready": 2, "used": 1, "wounded": 2}
    log.write_text("\n".join(lines[:-1] + ["- " + json.dumps(entry)]) + "\n")
    r = run(camp, "verify", "brawl")
    assert r.code == 1 and "bandit's wound gives" in r.out + r.err


def test_the_demo_ends_by_verifying_every_encounter_it_played_and_checking():
    """Issue 21 item 5: `make demo` ends with `verify` on each encounter it played, then `check` (set -e
    makes a problem fail the demo)."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "scripts" / "demo.sh").read_text()
    says = [line.split()[1:] for line in text.splitlines() if line.startswith("say ")]
    played = [words[2] for words in says if words[:2] == ["encounter", "new"]]
    tail = says[-(len(played) + 1):]
    assert played and sorted(tail[:-1]) == sorted(["verify", enc] for enc in played)
    assert tail[-1] == ["check"] and "set -euo pipefail" in text


def _stamp_all(camp, at):
    """Every entry of every log written at the same second `at` (as fast commands are)."""
    import re

    for log in (camp / "encounters").glob("*.log.yaml"):
        log.write_text(re.sub(r'"at": "[^"]*"', f'"at": "{at}"', log.read_text()))


def test_check_does_not_take_a_stale_log_as_last_within_one_second(camp):
    """G-MERGE-5: selka is wounded in e3, e3 ends, then twice in the campaign log, all within one second:
    no order by file name between the logs, so check is clean; a hand edit is still caught."""
    ok(camp, "encounter", "new", "e3", "selka")
    ok(camp, "wound", "selka", "1")
    ok(camp, "encounter", "end")
    ok(camp, "wound", "selka", "1")
    ok(camp, "wound", "selka", "1")
    assert run(camp, "check").code == 0
    _stamp_all(camp, "2030-01-01T00:00:00Z")
    r = run(camp, "check")
    assert r.code == 0, r.out + r.err
    sheet = camp / "characters" / "selka.yaml"
    sheet.write_text(sheet.read_text().replace("wounded: 3", "wounded: 2").replace("ready: 2", "ready: 3"))
    r = run(camp, "--json", "check")
    assert r.code == 1 and any("differ from the last logged" in p for p in r.json["problems"]), r.out


def test_undoing_encounter_new_removes_its_log_with_its_state(camp):
    """H-4: the log goes with the state, so the id is free again and a new encounter of that id verifies."""
    ok(camp, "encounter", "new", "e4", "selka", "mira")
    ok(camp, "wound", "selka", "1")
    ok(camp, "undo")
    data = ok(camp, "undo")
    assert "encounters/e4.log.yaml" in data["files"]
    assert not (camp / "encounters" / "e4.yaml").exists() and not (camp / "encounters" / "e4.log.yaml").exists()
    assert "encounter: e4" not in (camp / "narateer.yaml").read_text()
    assert run(camp, "check").code == 0
    ok(camp, "encounter", "new", "e4", "selka")
    assert [e["command"] for e in ok(camp, "encounter", "log", "e4")["entries"]] == ["encounter new"]
    clean(camp, "e4")


def test_an_undo_of_encounter_new_cut_short_by_a_crash_is_completed(camp):
    """H-4 with the crash hook (G-TEST): the manifest that removes the log is this machine's own, so the next
    command completes it: the log and the state are gone."""
    from tests.conftest import sh

    ok(camp, "encounter", "new", "e4", "selka")
    assert sh(camp, "undo", env={"NARATEER_CRASH_AFTER_MANIFEST": "1"}).code == 99
    r = run(camp, "show", "selka")
    assert r.code == 0 and "set aside" not in r.err, r.out + r.err
    assert run(camp, "check").code == 0
    assert not (camp / "encounters" / "e4.log.yaml").exists() and not (camp / "encounters" / "e4.yaml").exists()


def test_undoing_an_encounter_new_that_continued_an_older_log_keeps_that_log(camp):
    """An encounter begun again over a log left behind (by narateer before H-4, or a state file removed by
    hand) appends to it: undoing it logs an undo entry and the older entries stay."""
    ok(camp, "encounter", "new", "e4", "selka")
    ok(camp, "wound", "selka", "1")
    ok(camp, "encounter", "end")
    (camp / "encounters" / "e4.yaml").unlink()
    ok(camp, "encounter", "new", "e4", "selka")
    data = ok(camp, "undo")
    assert "encounters/e4.log.yaml" not in data["files"]
    log = (camp / "encounters" / "e4.log.yaml").read_text()
    assert '"command": "wound"' in log and log.splitlines()[-1].count('"command": "undo"') == 1


def test_undo_right_after_an_unveil_says_exactly_why_it_cannot(camp):
    """H-4, P-SECRET-3: the unveil's salt and result stand in a log that only grows; undo says so (never a
    checkout) and changes nothing."""
    from tests.conftest import refused

    ok(camp, "roll", "--force", "selka", "athletics", "--dr", "2", "--faces", "2", "--secret")
    entry = ok(camp, "encounter", "log", "campaign")["entries"][-1]
    unveil = ok(camp, "unveil", entry["id"])["unveiled"][0]["unveil"]
    err = refused(camp, 3, "undo", contains=f"the last entry ({unveil}) publishes secret roll {entry['id']}",
                  rule="H-4")
    assert "salt and result now stand in the log, which only grows" in err
    assert "checkout" not in err and "history changed" not in err
    clean(camp, "campaign")


def test_undo_takes_back_the_last_action_even_when_it_went_to_the_campaign_log(camp):
    """G-LOG-5: with an encounter current, an action by a character outside it goes to the campaign log;
    a plain `undo` takes back that action, the last one made, not the encounter's older one."""
    from tests.conftest import sheet_dice

    ok(camp, "encounter", "new", "duel", "selka")
    ok(camp, "turn", "start", "selka")
    ok(camp, "roll", "--force", "selka", "stealth", "--dr", "2", "--faces", "1")
    selka = sheet_dice(camp, "selka")
    ok(camp, "wound", "mira")  # mira is not in the duel: the campaign log
    data = ok(camp, "undo")
    assert data["encounter"] == "campaign" and sheet_dice(camp, "mira").get("wounded", 0) == 0
    assert sheet_dice(camp, "selka") == selka  # the duel's roll stays
    data = ok(camp, "undo")
    assert data["encounter"] == "duel" and sheet_dice(camp, "selka") != selka
    assert ok(camp, "verify", "duel")["ok"] is True and ok(camp, "verify", "campaign")["ok"] is True


def _faces_free_exchange_with_an_outsider(camp):
    """mira takes part in e6; selka does not, so the exchange between them is logged in the campaign log
    (G-LOG-5), and mira's next entry in e6 continues from the campaign log's value."""
    ok(camp, "encounter", "new", "e6", "mira", "sentry")
    ok(camp, "turn", "start", "mira")
    ok(camp, "exchange", "selka", "mira", "--response", "clash", "--faces", "0", "--response-faces", "2")
    ok(camp, "refresh", "mira")


def test_an_exchange_with_someone_outside_the_encounter_verifies(camp):
    """H-1, G-LOG-5: the gap in e6 between mira's turn start and her refresh is filled by the exchange
    entry of the campaign log, so verify and check are clean; found by the history machine."""
    _faces_free_exchange_with_an_outsider(camp)
    clean(camp, "e6")
    clean(camp, "campaign")


def test_a_gap_no_other_log_fills_is_still_caught(camp):
    """The bridge is only what the other logs hold: a hand edit of mira's dice before the refresh is a gap
    that no entry anywhere leads to."""
    _faces_free_exchange_with_an_outsider(camp)
    log = camp / "encounters" / "e6.log.yaml"
    lines = log.read_text().splitlines(keepends=True)
    entry = json.loads(lines[-1][2:])
    entry["dice"]["mira"]["before"] = {"ready": 2, "used": 4}
    entry["dice"]["mira"]["after"] = {"ready": 6, "used": 0}
    lines[-1] = "- " + json.dumps(entry) + "\n"
    log.write_text("".join(lines))
    r = run(camp, "--json", "verify", "e6")
    assert r.code == 1 and "do not continue from" in r.json["problem"], r.out


def test_play_in_an_older_encounter_after_moving_in_the_campaign_log_verifies(camp):
    """H-1, G-LOG-5: selka acts in brawl, then (e6 current, she not in it) in the campaign log, then `--in
    brawl` again: brawl's gap is the campaign log's entry."""
    ok(camp, "encounter", "new", "brawl", "selka", "mira")
    ok(camp, "turn", "start", "selka")
    ok(camp, "roll", "--force", "selka", "stealth", "--dr", "2", "--faces", "1")
    ok(camp, "encounter", "new", "e6", "mira")
    ok(camp, "roll", "--force", "selka", "stealth", "--dr", "2", "--faces", "1")
    ok(camp, "roll", "--force", "selka", "stealth", "--dr", "2", "--faces", "2", "--in", "brawl")
    clean(camp, "brawl")
    clean(camp, "campaign")


def test_an_edit_of_an_older_logs_last_value_is_caught(camp):
    """H-1, G-LOG-5: selka's last entry in e3 (a refresh) is followed by her entries in the campaign log; a hand
    edit of that refresh, consistent within its entry (dice and result alike), leaves counters no later
    entry continues from and that are not the sheet's: check names the line."""
    ok(camp, "encounter", "new", "e3", "selka")
    ok(camp, "turn", "start", "selka")
    ok(camp, "roll", "--force", "selka", "stealth", "--dr", "2", "--faces", "1")
    ok(camp, "roll", "--force", "selka", "stealth", "--dr", "2", "--faces", "1")
    ok(camp, "refresh", "selka")
    ok(camp, "encounter", "end")
    ok(camp, "wound", "selka", "1")
    clean(camp, "e3")
    log = camp / "encounters" / "e3.log.yaml"
    lines = log.read_text().splitlines(keepends=True)
    at = max(i for i, line in enumerate(lines) if '"command": "refresh"' in line)
    entry = json.loads(lines[at][2:])
    assert entry["dice"]["selka"]["after"] == {"ready": 5, "used": 0}
    entry["dice"]["selka"]["after"] = entry["result"]["dice_after"] = {"ready": 4, "used": 1}
    entry["result"]["moved"] = 1
    lines[at] = "- " + json.dumps(entry) + "\n"
    log.write_text("".join(lines))
    assert run(camp, "verify", "e3").code == 0  # the entry alone is consistent
    r = run(camp, "--json", "check")
    assert r.code == 1 and any(p.startswith(f"encounters/e3.log.yaml:{at + 1}:") and "no later entry" not in p
                               and "continues from" in p for p in r.json["problems"]), r.out
