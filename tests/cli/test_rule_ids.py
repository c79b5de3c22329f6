"""T2-RULES: rule ids stay out of the first line a person reads; `--json` keeps them for scripts."""

from __future__ import annotations

from tests.conftest import json_error, run, snapshot


def test_an_error_line_for_people_names_no_rule_and_json_names_it(encounter_camp):
    before = snapshot(encounter_camp)
    r = run(encounter_camp, "move", "selka", "3")
    assert r.code == 3 and r.out == ""
    assert r.err == ("narateer: it is not selka's activation (nobody is acting); "
                     "start it with `narateer turn start selka`\n")
    r = run(encounter_camp, "--json", "move", "selka", "3")
    assert json_error(r, 3) == {"error": "it is not selka's activation (nobody is acting)", "rule": "R-ACT-3",
                                "fix": "start it with `narateer turn start selka`", "exit": 3}
    assert r.err.startswith("narateer: it is not selka's activation") and "R-ACT-3" not in r.err
    assert snapshot(encounter_camp) == before


def test_json_after_the_command_name_gives_the_error_object_too(encounter_camp):
    r = run(encounter_camp, "move", "selka", "3", "--json")
    assert json_error(r, 3)["rule"] == "R-ACT-3"


def test_bad_input_with_no_rule_has_a_null_rule(camp):
    r = run(camp, "--json", "roll", "nobody", "stealth", "--dr", "2")
    assert json_error(r, 2)["rule"] is None and "unknown character 'nobody'" in r.err
