"""T-COMPLETE, second round: Tab completes the campaign's aliases (T-ALIAS) and the skills a character may
roll untrained, on the command line and in the shell."""

from __future__ import annotations

from tests.table.test_complete_shell_report import completions

ALIASES = "aliases:\n  sneak: roll $1 stealth --dr $2\n  hit: exchange $1 $2 --response none\n  roll: dr hard\n"


def with_aliases(camp):
    config = camp / "narateer.yaml"
    config.write_text(config.read_text() + ALIASES)
    return camp


def test_tab_completes_an_alias_by_its_name(camp):
    with_aliases(camp)
    assert completions(camp, "narateer sn") == ["sneak"]
    assert "hit" in completions(camp, "narateer h") and "heal" in completions(camp, "narateer h")
    assert completions(camp, "narateer ro").count("roll") == 1  # a verb named like an alias is the verb


def test_tab_completes_an_aliass_first_argument_as_the_command_it_runs(camp):
    with_aliases(camp)
    assert completions(camp, "narateer sneak sel") == ["selka"]


def test_tab_completes_untrained_skills_after_the_characters_own(camp):
    found = completions(camp, "narateer roll selka ")
    assert found[:4] == ["athletics", "melee", "observation", "stealth"]
    assert {"acrobatics", "alchemy", "finesse", "insight"} <= set(found[4:])
    assert completions(camp, "narateer roll selka alc") == ["alchemy"]


def test_the_shell_completes_aliases_too(camp):
    from prompt_toolkit.document import Document

    from narateer_cli import shell

    with_aliases(camp)
    completer = shell.completer()(["--campaign", str(camp)])
    found = [c.text for c in completer.get_completions(Document("sne"), None)]
    assert found == ["sneak"]
