"""T-ALIAS and T-COMMIT through the command line."""

from __future__ import annotations

from tests.cli.test_encounters import git, git_init, needs_git
from tests.conftest import ok, refused, run, sheet_dice, snapshot

ALIASES = """aliases:
  sneak: roll $1 stealth --dr $2
  show: roll $1 melee --dr 1
  hit: exchange $1 $2 --response none
  broken: nothing $1
"""


def with_aliases(camp):
    config = camp / "narateer.yaml"
    config.write_text(config.read_text() + ALIASES)
    return camp


def test_alias_fills_slots_and_appends_the_rest(camp):
    with_aliases(camp)
    r = ok(camp, "sneak", "selka", "3", "--boost", "2", "--faces", "2,1,1")
    assert (r["skill"], r["target"], r["boost"], r["total"], r["outcome"]) == ("stealth", 3, 2, 4, "Success")
    assert sheet_dice(camp, "selka")["ready"] == 2


def test_alias_never_shadows_a_verb(camp):
    with_aliases(camp)
    r = ok(camp, "show", "selka")
    assert r["id"] == "selka" and "skills" in r


def test_alias_errors_are_one_line_and_write_nothing(camp):
    with_aliases(camp)
    refused(camp, 2, "sneak", "selka", contains="alias sneak needs 2 arguments")
    refused(camp, 2, "broken", "x", contains="not a command")
    refused(camp, 2, "nosuch", contains="No such command")


def test_aliases_must_be_command_lines(camp):
    config = camp / "narateer.yaml"
    config.write_text(config.read_text() + "aliases: [roll]\n")
    refused(camp, 2, "sneak", "selka", "3", contains="aliases must map names")


def test_alias_runs_in_an_encounter(encounter_camp):
    with_aliases(encounter_camp)
    ok(encounter_camp, "turn", "start", "bandit")
    r = ok(encounter_camp, "hit", "bandit", "selka", "--faces", "2", "--boost", "0", "--force")
    assert r["attacker"] == "bandit" and r["response"] == "none"


@needs_git
def test_commit_takes_every_file_the_action_wrote_and_no_other(camp):
    git_init(camp)
    (camp / "notes.md").write_text("table notes, not the action's\n")
    (camp / "characters" / "selka.yaml").write_text((camp / "characters" / "selka.yaml").read_text() + "# mine\n")
    git(camp, "add", "notes.md")  # even a staged file that is not the action's stays out
    ok(camp, "encounter", "new", "fight", "mira", "bandit", "--commit")
    files = set(git(camp, "show", "--name-only", "--format=", "HEAD").split())
    assert files == {"narateer.yaml", "encounters/fight.yaml", "encounters/fight.log.yaml"}
    ok(camp, "turn", "start", "mira", "--commit")
    files = set(git(camp, "show", "--name-only", "--format=", "HEAD").split())
    assert files == {"encounters/fight.yaml", "encounters/fight.log.yaml"}
    ok(camp, "roll", "mira", "melee", "--dr", "1", "--faces", "2", "--commit")
    files = set(git(camp, "show", "--name-only", "--format=", "HEAD").split())
    assert files == {"characters/mira.yaml", "encounters/fight.yaml", "encounters/fight.log.yaml"}
    ok(camp, "undo", "--commit")
    files = set(git(camp, "show", "--name-only", "--format=", "HEAD").split())
    assert files == {"characters/mira.yaml", "encounters/fight.yaml", "encounters/fight.log.yaml"}
    status = git(camp, "status", "--porcelain").splitlines()
    assert sorted(status) == [" M characters/selka.yaml", "A  notes.md"]
    assert git(camp, "log", "-1", "--format=%s").startswith("undid entry 3: roll: mira: Melee")


@needs_git
def test_commit_of_a_new_sheet_and_its_undo_deleting_it(camp):
    git_init(camp)
    ok(camp, "new", "nyra", "--vital", "agility=2", "--commit")
    assert "characters/nyra.yaml" in git(camp, "show", "--name-only", "--format=", "HEAD").split()
    ok(camp, "undo", "--commit")
    assert not (camp / "characters" / "nyra.yaml").exists()
    assert git(camp, "status", "--porcelain") == ""
    assert "characters/nyra.yaml" not in git(camp, "ls-files").split()
    assert snapshot(camp)
