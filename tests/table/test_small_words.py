"""Small wordings from a newcomer's first sessions: a luck chart that draws no bar for no checks, undone
entries struck through in `report`, `undo` that advises git only where there is git, advice to get dice
back that holds outside encounters, and turn advice that never leads to a command that refuses in turn."""

from __future__ import annotations

import subprocess

from tests.conftest import ok, refused, run


def test_stats_draws_no_luck_bar_for_a_character_without_checks(camp):
    # selka rolls only as kai's opponent: a roll with no chance of its own, so no luck to draw
    ok(camp, "roll", "kai", "stealth", "--contested", "selka:observation", "--faces", "1", "--other-faces", "2")
    text = run(camp, "stats").out
    chart = text[text.index("luck (percentile"):].splitlines()
    selka = next(line for line in chart if line.startswith("selka"))
    assert "0.0%" not in selka and "(no checks with a chance)" in selka and "#" not in selka
    assert next(line for line in chart if line.startswith("kai")).endswith("33.3%")


def test_report_strikes_through_an_undone_entry(camp):
    ok(camp, "roll", "--force", "selka", "stealth", "--dr", "3", "--faces", "1")
    ok(camp, "undo")
    ok(camp, "roll", "selka", "athletics", "--dr", "1", "--faces", "2")
    md = run(camp, "report").out
    undone = next(line for line in md.splitlines() if "Stealth" in line and "undid" not in line)
    kept = next(line for line in md.splitlines() if "Athletics" in line)
    assert "| ~~selka: Stealth" in undone and "~~ |" in undone and "~~" not in kept
    html = run(camp, "report", "--format", "html").out
    assert "<td><s>selka: Stealth" in html and "<s>selka: Athletics" not in html
    assert '"selka: Stealth' in run(camp, "--json", "report").out  # JSON keeps the words as they are


def test_undo_in_a_campaign_without_git_does_not_advise_git(camp):
    ok(camp, "condition", "selka", "+slowed")
    sheet = camp / "characters" / "selka.yaml"
    sheet.write_text(sheet.read_text() + "# a note typed by hand\n")
    err = refused(camp, 3, "undo", contains="not kept in git")
    assert "with git" not in err


def test_undo_in_a_git_campaign_still_advises_git(camp):
    subprocess.run(["git", "init", "-q", str(camp)], check=True)
    ok(camp, "condition", "selka", "+slowed")
    sheet = camp / "characters" / "selka.yaml"
    sheet.write_text(sheet.read_text() + "# a note typed by hand\n")
    refused(camp, 3, "undo", contains="revert it with git instead")


def test_no_ready_dice_outside_an_encounter_names_refresh(camp):
    sheet = camp / "characters" / "kai.yaml"
    sheet.write_text(sheet.read_text().replace("ready: 5", "ready: 0").replace("used: 0", "used: 5"))
    err = refused(camp, 3, "roll", "kai", "stealth", "--dr", "1", "--faces", "1", contains="`narateer refresh kai`")
    assert "wait for a refresh" not in err


def test_turn_advice_never_sends_round_in_a_circle(encounter_camp):
    camp = encounter_camp
    ok(camp, "turn", "start", "mira")
    err = refused(camp, 3, "roll", "selka", "stealth", "--dr", "1", "--faces", "1",
                  contains="`narateer turn end` ends mira's activation, then `narateer turn start selka`")
    ok(camp, "turn", "end")
    ok(camp, "turn", "start", "selka")
    ok(camp, "turn", "end")
    err = refused(camp, 3, "roll", "selka", "stealth", "--dr", "1", "--faces", "1",
                  contains="selka has acted in round 1; it acts again next round, once sentry and bandit have acted")
    assert "turn start selka" not in err
    refused(camp, 3, "turn", "start", "selka", contains="has already acted")  # what the old advice led to
