"""T2-RULES: rule ids stay out of the first line a person reads; `--json` keeps them for scripts."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import json_error, ok, run, snapshot


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


# ---------------------------------------------------------------------------------------------------------
# Every line a person reads: play the commands that used to end a line with a rule id and read all they print.

RULE_ID = re.compile(r"\b[A-Z][A-Z0-9]*-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")


def said(r) -> str:
    """What a person reads of one command: its stdout and stderr, unless it was asked for --json."""
    return r.out + r.err


def assert_no_rule_ids(outputs: list):
    found = [line for text in map(said, outputs) for line in text.splitlines() if RULE_ID.search(line)]
    assert not found, "\n".join(found)


def _init(tmp_path, system: str) -> Path:
    root = tmp_path / system
    assert run(None, "init", str(root), "--system", system, "--example").code == 0
    return root


def _tampered_unveil(camp):
    """A secret roll unveiled, then its logged total changed: the salt no longer hashes to the commitment."""
    ok(camp, "roll", "selka", "stealth", "--dr", "3", "--boost", "1", "--faces", "2,1", "--secret")
    entry = json.loads((camp / "encounters" / "campaign.log.yaml").read_text().splitlines()[-1][2:])
    ok(camp, "unveil", entry["id"])
    path = camp / "encounters" / "campaign.log.yaml"
    path.write_text(path.read_text().replace('"total": 3', '"total": 4'))


def test_a_search_paid_from_readiness_names_no_rule(encounter_camp):
    ok(encounter_camp, "condition", "sentry", "+slowed")
    ok(encounter_camp, "turn", "start", "selka")
    r = run(encounter_camp, "hide", "selka", "--from", "sentry", "--searching", "sentry", "--observer-boost",
            "sentry=2", "--boost", "2", "--faces", "2,1,1")
    assert r.code == 0 and "could not pay to search: Readiness used" in r.out
    assert_no_rule_ids([r])


def test_a_condition_that_ends_by_its_rounds_names_no_rule(tmp_path):
    outputs = []
    for system, chars, condition in (("d20-cards", ("mira", "bandit"), "+immobilized"),
                                     ("open-adventure", ("amicus", "goblin"), "+stunned")):
        root = _init(tmp_path, system)
        first, second = chars
        extra = ("--reaction", "amicus=9") if system == "open-adventure" else ()
        ok(root, "encounter", "new", "fight", *chars, *extra)
        ok(root, "turn", "start", first)
        ok(root, "condition", second, condition, "--rounds", "1")
        for who in (second, first):  # the rest of round 1, then round 2 up to the owner's turn
            ok(root, "turn", "end")
            ok(root, "turn", "start", who)
        ok(root, "turn", "end")
        r = run(root, "turn", "start", second)
        assert r.code == 0 and "ended" in r.out, r.out
        outputs.append(r)
    assert_no_rule_ids(outputs)


def test_check_and_verify_on_a_broken_campaign_name_no_rule(camp, tmp_path):
    _tampered_unveil(camp)
    outputs = [run(camp, "verify", "campaign"), run(camp, "check")]
    assert [r.code for r in outputs] == [1, 1] and "do not hash to the commitment" in outputs[0].out
    d20 = _init(tmp_path, "d20-cards")
    strike = d20 / "actions" / "strike.yaml"
    strike.write_text(strike.read_text().replace("amount: 12,", 'amount: "2000d6",'))
    ward = d20 / "actions" / "ward.yaml"
    ward.write_text(ward.read_text() + "atk: fin\ndc: mental\nsave: wil\narea: 2\n")
    (d20 / "actions" / "jab.yaml").write_text("name: Jab\nrange: reach\nsave: fin\n"
                                             "damage: {amount: 3, overkill: 1}\non_save: half\n")
    outputs += [run(d20, "check"), run(d20, "card", "show", "strike"), run(d20, "show", "mira")]
    assert all(r.code for r in outputs[2:]), [said(r) for r in outputs[2:]]
    assert "over the limit of 100" in outputs[2].out and "an ATK attribute or a DC kind" in outputs[2].out
    oa = _init(tmp_path, "open-adventure")
    config = oa / "narateer.yaml"
    config.write_text(config.read_text() + "rules:\n  chart:\n    rows:\n      1: " + str([6] * 40) + "\n")
    outputs += [run(oa, "check"), run(oa, "show", "amicus")]
    assert outputs[-1].code == 2 and "at most" in outputs[-1].err, said(outputs[-1])
    assert_no_rule_ids(outputs)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_problems_and_the_merge_driver_name_no_rule(encounter_camp, tmp_path, monkeypatch):
    from tests.store.test_git_trust import git, repo

    (encounter_camp / ".narateer").mkdir(exist_ok=True)
    (encounter_camp / ".narateer" / "note.json").write_text("{}")
    repo(encounter_camp, keep_private=True)
    git(encounter_camp, "add", "-f", ".narateer/note.json")
    git(encounter_camp, "commit", "-qm", "a private file")
    outputs = [run(encounter_camp, "check")]
    assert outputs[0].code == 1 and "merge driver is not registered" in outputs[0].out, said(outputs[0])
    assert "tracked by git" in outputs[0].out and "never read" in outputs[0].out
    assert {"G-PRIV-1", "G-TRUST-1", "G-MERGE-1"} <= set(run(encounter_camp, "--json", "check").json["problem_rules"])
    sides = {name: tmp_path / name for name in ("base", "ours", "theirs")}
    for name, text in (("base", ""), ("ours", "name: A\n"), ("theirs", "name: B\n")):
        sides[name].write_text(text)
    monkeypatch.chdir(tmp_path)
    outputs.append(run(None, "merge-driver", *map(str, sides.values()), "characters/a.yaml"))
    sides["theirs"].write_text("x" * (300 * 1024))
    outputs.append(run(None, "merge-driver", *map(str, sides.values()), "characters/a.yaml"))
    assert [r.code for r in outputs[1:]] == [1, 1] and "created on both sides" in outputs[1].err
    assert "larger than" in outputs[2].err
    assert_no_rule_ids(outputs)


def test_json_keeps_the_rules_people_no_longer_read(tmp_path):
    d20 = _init(tmp_path, "d20-cards")
    strike = d20 / "actions" / "strike.yaml"
    strike.write_text(strike.read_text().replace("amount: 12,", 'amount: "2000d6",'))
    ward = d20 / "actions" / "ward.yaml"
    ward.write_text(ward.read_text() + "atk: fin\ndc: mental\n")
    data = run(d20, "--json", "check").json
    cited = dict(zip(data["problems"], data["problem_rules"], strict=True))
    assert cited["actions/strike.yaml:8: damage.amount '2000d6': 2000 dice is over the limit of 100; write at most "
                 "100 dice of at most 100 faces and a bonus up to 1,000,000"] == "G-PRIV-6"
    assert cited["actions/ward.yaml:11: dc: a card has an ATK attribute or a DC kind, not both"] == "R-CARD-1"
    assert json_error(run(d20, "--json", "card", "show", "strike"), 2)["rule"] == "G-PRIV-6"
    oa = _init(tmp_path, "open-adventure")
    config = oa / "narateer.yaml"
    config.write_text(config.read_text() + "rules:\n  chart:\n    rows:\n      1: " + str([6] * 40) + "\n")
    data = run(oa, "--json", "check").json
    assert data["problem_rules"] == ["G-PRIV-6"] and "(G-PRIV-6)" not in data["problems"][0]
    assert json_error(run(oa, "--json", "show", "amicus"), 2)["rule"] == "G-PRIV-6"
