"""S-SYS-4, S-SYS-5: sheets checked against the system's schema table; every unknown name offers the closest."""

from __future__ import annotations

import pytest

from tests.conftest import ok, refused, run

SHEET = "characters/selka.yaml"


def edit(camp, old, new, name=SHEET):
    path = camp / name
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))


@pytest.mark.parametrize("old, new, message", [
    ("  ready: 5\n", "  redy: 5\n",
     "narateer: characters/selka.yaml:17: unknown key 'action_dice.redy' (did you mean ready?); "
     "known: ready, used, wounded\n"),
    ("observation: {level: 1, vital: cognition}", "observation: {level: 1, vital: congition}",
     "narateer: characters/selka.yaml:10: skill observation vital: unknown vital 'congition' (did you mean cognition?); "
     "known: might, agility, cognition, presence\n"),
    ("sprint: 24", "sprnt: 24",
     "narateer: characters/selka.yaml:13: unknown movement mode 'sprnt' under movement (did you mean sprint?); "
     "known: walk, run, sprint\n"),
    ("knife: {attack_cost: 1, damage: 2}", "knife: {attack_cost: 1, damge: 2}",
     "narateer: characters/selka.yaml:15: unknown key 'weapon knife damge' (did you mean damage or range?); "
     "known: attack_cost, damage, range\n"),
    ("  might: 2\n", "  migth: 2\n",
     "narateer: characters/selka.yaml:4: unknown vital 'migth' under vitals (did you mean might?); "
     "known: might, agility, cognition, presence\n"),
])
def test_an_unknown_key_inside_a_known_map_is_exit_2_with_the_closest_key(camp, old, new, message):
    edit(camp, old, new)
    assert refused(camp, 2, "roll", "selka", "stealth", "--dr", "3", "--faces", "1", contains=message) == message
    assert message[len("narateer: "):-1] in ok_check(camp)


def ok_check(camp):
    r = run(camp, "--json", "check")
    assert r.code == 1
    return r.json["problems"]


def test_a_misspelt_skill_is_named_not_copied_into_the_fix(camp):
    edit(camp, "  athletics: 1\n", "  athletcs: 1\n")
    err = refused(camp, 2, "show", "selka", contains="unknown skill 'athletcs' (did you mean athletics?)")
    assert err.startswith("narateer: characters/selka.yaml:12: unknown skill 'athletcs' (did you mean athletics?)")
    assert "athletcs: {" not in err


def test_an_unknown_top_level_key_is_kept_and_only_a_near_miss_is_a_check_problem(camp):
    assert run(camp, "check").code == 0  # selka's `notes:` is not close to anything
    edit(camp, "conditions: []\n", "conditions: []\ncondtions: [slowed]\n")
    assert ok(camp, "roll", "--force", "selka", "stealth", "--dr", "3", "--faces", "1")["total"] == 1  # kept, commands run
    assert "condtions: [slowed]\n" in (camp / SHEET).read_text()
    assert ok_check(camp) == ["characters/selka.yaml:20: unknown key 'condtions' (did you mean conditions?); "
                              "it is kept and not used; rename it if it was meant"]


@pytest.mark.parametrize("args, expected", [
    (("show", "nyrra"), "narateer: unknown character 'nyrra' (no characters/nyrra.yaml) (did you mean nyra or veyra?); "
                        "known: "),
    (("show", "zzz"), "narateer: unknown character 'zzz' (no characters/zzz.yaml); known: "),
    (("roll", "selka", "stelth", "--dr", "3"), "narateer: unknown skill 'stelth' for selka (did you mean stealth?); "),
    (("condition", "selka", "+slowd"), "narateer: unknown condition 'slowd' (did you mean slowed?); "),
    (("encounter", "show", "ambsh"), "narateer: unknown encounter 'ambsh' (no encounters/ambsh.yaml) "
                                     "(did you mean ambush?); "),
    (("exchange", "selka", "sentry", "--weapon", "knif", "--response", "none"),
     "narateer: unknown weapon 'knif' on selka's sheet (did you mean knife?); "),
    (("odds", "3", "--dr", "chalenging"), "narateer: unknown DR tier 'chalenging' (did you mean challenging?); "),
])
def test_unknown_names_offer_the_closest_and_never_suggest_creating_the_typo(camp, args, expected):
    (camp / "characters" / "nyra.yaml").write_text((camp / SHEET).read_text())
    r = run(camp, *args)
    assert r.code == 2, r.err
    assert r.err.startswith(expected), r.err
    assert "new nyrra" not in r.err and "new zzz" not in r.err and "new ambsh" not in r.err


def logged_roll(camp):
    """Selka's Stealth roll in the ambush; the log's path and its lines."""
    config = camp / "narateer.yaml"
    config.write_text(config.read_text() + "encounter: ambush\n")
    ok(camp, "turn", "start", "selka")
    ok(camp, "roll", "--force", "selka", "stealth", "--dr", "3", "--faces", "1")
    log = camp / "encounters" / "ambush.log.yaml"
    return log, log.read_text().splitlines(keepends=True)


def test_check_names_the_real_line_of_a_bad_log_entry(camp):
    log, lines = logged_roll(camp)
    number = next(i for i, line in enumerate(lines, 1) if "total" in line)
    lines[number - 1] = lines[number - 1].replace("total: 1,", "total: 2,").replace('"total": 1,', '"total": 2,')
    log.write_text("".join(lines))
    problems = ok_check(camp)
    assert len(problems) == 1 and problems[0].startswith(f"encounters/ambush.log.yaml:{number}: entry ")
    assert number > 1


def test_check_names_the_real_line_of_an_entry_that_is_not_whole(camp):
    log, lines = logged_roll(camp)
    lines[-1] = lines[-1].replace('"seq"', '"sq', 1)
    log.write_text("".join(lines))
    problems = ok_check(camp)
    assert problems == [f"encounters/ambush.log.yaml:{len(lines)}: not a whole entry: "
                        "expected ',' or '}', but got '<scalar>'"]


@pytest.mark.parametrize("override, expected", [
    ("  movement_costs: {dificult: 3}\n",
     "narateer: narateer.yaml: unknown key 'rules.movement_costs.dificult' (did you mean difficult?); "
     "known: modes, difficult, hidden, sprint_ends_hiding\n"),
    ("  disadvantge: dotted\n",
     "narateer: narateer.yaml: unknown ruleset key 'rules.disadvantge' (did you mean disadvantage?); known: "),
    ("  conditions: {slowed: {pay_multiplyer: 3}}\n",
     "narateer: narateer.yaml: unknown key 'rules.conditions.slowed.pay_multiplyer' (did you mean pay_multiplier?); "),
])
def test_an_unknown_ruleset_key_at_any_depth_is_exit_2_with_the_closest(camp, override, expected):
    config = camp / "narateer.yaml"
    config.write_text(config.read_text() + "rules:\n" + override)
    err = refused(camp, 2, "roll", "selka", "stealth", "--dr", "3", "--faces", "1", contains=expected)
    assert err.startswith(expected), err


def test_near_miss_keys_and_dead_aliases_in_narateer_yaml_are_check_problems(camp):
    config = camp / "narateer.yaml"
    before = config.read_text()
    lines = before.count("\n")
    config.write_text(before + "sytem: open-adventure\nautocomit: true\nmy_notes: kept\n"
                      "aliases:\n  sneak: rol $1 stealth --dr $2\n  hide: roll $1 stealth\n  hit: exchange $1 $2\n")
    problems = ok_check(camp)
    kept = "it is kept and not used; rename it if it was meant"
    assert problems[:2] == [
        f"narateer.yaml:{lines + 1}: unknown key 'sytem' (did you mean system?); {kept}",
        f"narateer.yaml:{lines + 2}: unknown key 'autocomit' (did you mean autocommit?); {kept}",
    ]
    assert problems[2].startswith(f"narateer.yaml:{lines + 5}: alias sneak runs 'rol', which is not a narateer "
                                  "command (did you mean roll or resolve?); start it with one of: behind, cast, check, ")
    assert problems[3:] == [f"narateer.yaml:{lines + 6}: alias hide is never used: hide is a command; rename the alias"]
    ok(camp, "show", "selka")  # kept keys never stop a command


def test_a_missing_current_encounter_is_named_at_its_own_line(camp):
    config = camp / "narateer.yaml"
    lines = config.read_text().count("\n")
    config.write_text(config.read_text() + "encounter: ambsh\n")
    assert ok_check(camp) == [f"narateer.yaml:{lines + 1}: current encounter 'ambsh' has no encounters/ambsh.yaml "
                              "(did you mean ambush?)"]
