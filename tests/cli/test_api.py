"""The Python API (S-SYS-12): `open_campaign(path).run(verb, *args)` returns the typed result; its
`to_json()` is exactly the object the command line prints with `--json`; errors are the typed errors
with their exit codes; an action is logged and undoable as from the shell."""

from __future__ import annotations

import json
import shutil

import pytest

from narateer_cli.api import Result, open_campaign
from narateer_cli.errors import BadInput, Refused
from tests.conftest import run, snapshot

# (system, commands played first, the command compared)
CASES = {
    "narateer-roll": ("narateer", [["encounter", "new", "e1", "selka", "bandit"], ["turn", "start", "selka"]],
                      ["roll", "selka", "stealth", "--dr", "3", "--boost", "1", "--faces", "2,1"]),
    "narateer-show": ("narateer", [], ["show", "selka"]),
    "narateer-odds": ("narateer", [], ["odds", "4", "--dr", "3"]),
    "narateer-condition": ("narateer", [], ["condition", "selka", "+slowed"]),
    "oa-show": ("open-adventure", [], ["show", "bloodwind"]),
    "oa-odds": ("open-adventure", [], ["odds", "7", "--ds", "9"]),
    "d20-show": ("d20-cards", [], ["show", "mira"]),
}


def _copies(tmp_path, system, setup):
    first = tmp_path / "cli"
    assert run(None, "init", str(first), "--system", system, "--example").code == 0
    for argv in setup:
        r = run(first, *argv)
        assert r.code == 0, (argv, r.err)
    second = tmp_path / "api"
    shutil.copytree(first, second, ignore=shutil.ignore_patterns(".narateer"))
    return first, second


@pytest.mark.parametrize("name", sorted(CASES))
def test_to_json_is_what_the_command_line_prints(tmp_path, name):
    system, setup, argv = CASES[name]
    cli_camp, api_camp = _copies(tmp_path, system, setup)
    printed = run(cli_camp, "--json", *argv)
    assert printed.code == 0, printed.err
    result = open_campaign(api_camp).run(*argv)
    assert isinstance(result, Result) and result.kind
    assert result.to_json() == json.loads(printed.out)
    assert snapshot(api_camp).keys() == snapshot(cli_camp).keys()


def test_the_value_is_the_games_typed_record(camp):
    result = open_campaign(camp).run("roll", "--force", "selka", "stealth", "--dr", "3", "--faces", "2")
    assert type(result.value).__name__ == "CheckOutcome"
    assert result.value.result.total == 2 and result.to_json()["total"] == 2


def test_errors_are_typed_and_change_nothing(camp):
    api = open_campaign(camp)
    before = snapshot(camp)
    with pytest.raises(BadInput) as bad:
        api.run("roll", "selkaa", "stealth", "--dr", "3")
    assert bad.value.exit_code == 2 and "did you mean selka" in bad.value.line()
    with pytest.raises(Refused) as refused:
        api.run("undo")
    assert refused.value.exit_code == 3
    assert "nothing to undo in encounter campaign" in refused.value.line(), refused.value.line()
    with pytest.raises(BadInput) as usage:
        api.run("roll", "selka", "stealth", "--no-such-option")
    assert usage.value.exit_code == 2
    assert "No such option '--no-such-option'" in usage.value.line(), usage.value.line()
    assert snapshot(camp) == before


def test_an_action_is_logged_and_undoable_as_from_the_shell(camp):
    api = open_campaign(camp)
    api.run("encounter", "new", "e1", "selka", "mira")
    api.run("condition", "selka", "+slowed")
    assert "slowed" in (camp / "characters" / "selka.yaml").read_text()
    log = (camp / "encounters" / "e1.log.yaml").read_text().splitlines()
    assert json.loads(log[-1][2:])["changes"] == {"selka": {"conditions": {"before": [], "after": ["slowed"]}}}
    api.run("undo")
    assert "slowed" not in (camp / "characters" / "selka.yaml").read_text()
    assert api.run("verify").to_json()["ok"] is True


def test_a_folder_that_is_no_campaign_is_bad_input(tmp_path):
    with pytest.raises(BadInput):
        open_campaign(tmp_path)


def test_the_readme_example_runs(tmp_path, capsys):
    """README.md "From Python" runs as printed, on the Narateer example campaign."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    block = text.split("### From Python", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    assert run(None, "init", str(tmp_path / "my-campaign"), "--example").code == 0
    exec(compile(block.replace('"my-campaign"', repr(str(tmp_path / "my-campaign"))), "README.md", "exec"), {})
    assert capsys.readouterr().out == "Failure\n"


def test_a_results_words_are_the_command_lines(camp):
    """B-1: the page shows `Result.words()`, which is what the command line prints (uncoloured)."""
    from narateer_cli.api import open_campaign

    said = open_campaign(camp).run("roll", "--force", "selka", "stealth", "--dr", "2", "--faces", "2").words()
    shell = run(camp, "roll", "--force", "selka", "stealth", "--dr", "2", "--faces", "2")
    assert said.splitlines()[:3] == shell.out.splitlines()[:3]
    assert said.splitlines()[1] == "selka rolls Stealth vs DR 2"


# -- typed calls: each verb's options as keywords (the click command's parameters are the one table) -------

def test_a_verb_by_keyword_is_the_same_call_as_its_words(tmp_path):
    words_camp, kw_camp = _copies(tmp_path, "narateer", [["encounter", "new", "e1", "selka", "bandit"],
                                                          ["turn", "start", "selka"]])
    by_words = open_campaign(words_camp).run("roll", "selka", "stealth", "--dr", "3", "--boost", "1",
                                             "--faces", "2,1")
    by_keyword = open_campaign(kw_camp).roll("selka", "stealth", dr=3, boost=1, faces="2,1")
    assert by_keyword.kind == by_words.kind == "roll"
    assert by_keyword.to_json() == by_words.to_json()
    assert by_keyword.to_json()["total"] == 2 + 1


def test_subcommands_are_attributes_and_flags_are_booleans(camp):
    api = open_campaign(camp)
    assert api.encounter.new("e2", "selka", "bandit").kind == "encounter_new"
    assert api.turn.start("selka").kind
    r = api.roll("selka", "stealth", dr=3, faces="1", dry_run=True)
    assert r.kind == "dry_run" and "e2" in (camp / "narateer.yaml").read_text()


def test_a_misspelt_keyword_or_verb_is_named_with_the_closest(camp):
    api = open_campaign(camp)
    before = snapshot(camp)
    with pytest.raises(TypeError, match=r"roll has no option 'drr' \(did you mean dr"):
        api.roll("selka", "stealth", drr=3)
    with pytest.raises(TypeError, match="char is an argument: give it in order"):
        api.roll(char="selka")
    with pytest.raises(AttributeError, match="narateer has no verb 'rol'"):
        api.rol("selka")
    with pytest.raises(AttributeError, match="has no subcommand 'nwe'"):
        api.encounter.nwe("x")
    assert snapshot(camp) == before


def test_a_refusal_by_keyword_is_the_command_lines(camp):
    api = open_campaign(camp)
    api.encounter.new("e3", "selka", "bandit")
    with pytest.raises(Refused) as exc:
        api.move("selka", 3)
    assert exc.value.line() == run(camp, "move", "selka", "3").err.removeprefix("narateer: ").strip()


def test_a_verbs_help_is_its_docstring(camp):
    assert open_campaign(camp).roll.__doc__.startswith("Make one Skill Check")
