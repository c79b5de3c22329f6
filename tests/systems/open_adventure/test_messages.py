"""Open Adventure's bad-input messages: one line naming the problem and the fix, the closest known name
when a name is misspelt (S-SYS-5), the file and line of a bad sheet or setting, and no byte written."""

from __future__ import annotations

import pytest

from tests.conftest import ok, refused, run


def hall(oa):
    ok(oa, "encounter", "new", "hall", "bloodwind", "goblin", "--reaction", "bloodwind=9")


@pytest.mark.parametrize("args", [("encounter", "show", "hal"),
                                  ("roll", "bloodwind", "strength", "--ds", "9", "--in", "hal"),
                                  ("turn", "start", "--in", "hal"),
                                  ("condition", "bloodwind", "+hurt", "--in", "hal")])
def test_a_misspelt_encounter_names_the_closest_and_never_offers_to_create_it_S_SYS_5(oa, args):
    hall(oa)
    err = refused(oa, 2, *args, contains="unknown encounter 'hal'")
    assert "did you mean hall?" in err and "encounter new" not in err


def test_an_unknown_encounter_far_from_any_shows_the_known_and_the_pattern_to_create_one(oa):
    hall(oa)
    err = refused(oa, 2, "encounter", "show", "zzz", contains="unknown encounter 'zzz'")
    assert "known: hall" in err and "`narateer encounter new ID CHAR...`" in err and "new zzz" not in err


@pytest.mark.parametrize("old,new,want", [
    ("{strength: 4,", "{strenght: 4,", "characters/bloodwind.yaml:5: unknown attribute 'strenght' under "
                                       "attributes.body (did you mean strength?)"),
    ("{strength: 4, ", "{", "characters/bloodwind.yaml:5: attributes.body.strength is missing"),
    ("mo: {name: Warrior, score: 2}", "mo: {name: Warrior, score: -2}", "characters/bloodwind.yaml:8: mo.score -2")])
def test_a_command_names_the_line_of_a_sheet_problem_as_check_does(oa, old, new, want):
    path = oa / "characters" / "bloodwind.yaml"
    path.write_text(path.read_text().replace(old, new, 1))
    for args in (("show", "bloodwind"), ("roll", "bloodwind", "strength", "--ds", "9")):
        refused(oa, 2, *args, contains=want)
    r = run(oa, "check")
    assert r.code == 1 and want in r.out


def test_a_statblock_action_named_like_a_group_is_reported_at_its_line(oa):
    path = oa / "characters" / "goblin.yaml"
    path.write_text(path.read_text().replace("  spear:", "  body:"))
    refused(oa, 2, "show", "goblin", contains="characters/goblin.yaml:9: actions.body is named like an attribute")


@pytest.mark.parametrize("args,flag,pointer", [
    (("odds", "7", "--dr", "3"), "--dr", "`odds AS --ds N`"),
    (("odds", "7", "--ds", "9", "--disadvantage"), "--disadvantage", "--ds N+1"),
    (("dice", "3", "--advantage"), "--advantage", "adds 1 to the AS"),
    (("dice", "3", "--boost", "2"), "--boost", "give the AS it makes"),
    (("dice", "3", "--reroll-faces", "2"), "--reroll-faces", "one chain in --faces"),
    (("roll", "bloodwind", "strength", "--dr", "3"), "--dr", "use --ds N or a tier")])
def test_a_narateer_option_gets_a_pointer_to_the_open_adventure_way_S_SYS_3(oa, args, flag, pointer):
    err = refused(oa, 2, *args, contains=f"{flag} is a narateer-system option; this campaign plays open-adventure")
    assert pointer in err and "No such option" not in err


def test_odds_without_a_ds_says_how_to_give_one(oa):
    refused(oa, 2, "odds", "7", contains="odds needs --ds; for example `narateer odds 7 --ds 9`")


@pytest.mark.parametrize("option,given,near", [("--time", "15mn", "15min"), ("--base-time", "1hr", "1h")])
def test_a_misspelt_time_step_names_the_closest_one_S_SYS_5(oa, option, given, near):
    err = refused(oa, 2, "roll", "bloodwind", "strength", "--ds", "9", "--time", "12h", option, given, "--dry-run",
                  contains="is not on the Time Chart")
    assert f"(did you mean {near}?)" in err and "give one of: 6s, 1min, 15min" in err


def test_a_misspelt_reaction_name_is_named_before_the_pc_it_leaves_without_a_total_S_SYS_5(oa):
    err = refused(oa, 2, "encounter", "new", "z", "bloodwind", "goblin", "--reaction", "bloodwnd=9",
                  contains="--reaction bloodwnd: not in this encounter; did you mean bloodwind?")
    assert err == "narateer: --reaction bloodwnd: not in this encounter; did you mean bloodwind?\n"
