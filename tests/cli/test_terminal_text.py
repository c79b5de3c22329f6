"""G-PRIV-5: text from the campaign reaches the terminal with its control characters escaped.

A sheet that arrived by git can hold a name such as "evil\\x1b]0;pwned\\x07" (retitles the
window) or "\\x1b[2J" (clears the screen), or a right-to-left override that reorders what is
shown. Every read command of every game prints such text as visible escapes; --json stays
exactly what json.dumps writes.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import refused, run

RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")  # a newline only ends a line
HOSTILE = "evil\x1b]0;pwned\x07\x1b[2J\u202etxt"
YAML_HOSTILE = '"evil\\e]0;pwned\\a\\e[2J\\u202Etxt"'  # the same text, as a YAML double-quoted scalar
SHOWN = "evil\\x1b]0;pwned\\x07\\x1b[2J\\u202etxt"

GAMES = {
    "narateer": dict(char="selka", other="sentry", roll=("roll", "selka", "stealth", "--dr", "3", "--force"),
                     odds=("odds", "3", "--dr", "3")),
    "open-adventure": dict(char="amicus", other="goblin", roll=("roll", "amicus", "strength", "--ds", "9"),
                           odds=("odds", "7", "--ds", "9"), new=("--reaction", "amicus=7")),
    "d20-cards": dict(char="mira", other="bandit", roll=("act", "mira", "strike", "--target", "bandit"),
                      odds=("odds", "mira", "strike", "--target", "bandit")),
}


def _hostile_campaign(tmp_path, system):
    """The game's example campaign: the character's name and notes hostile, an encounter with one logged roll
    and a condition added under a hostile name (refused by a game whose conditions are a fixed list)."""
    game = GAMES[system]
    root = tmp_path / system
    assert run(None, "init", str(root), "--system", system, "--example").code == 0
    sheet = root / "characters" / f"{game['char']}.yaml"
    text = _set(sheet.read_text(), "name")
    sheet.write_text(_set(text, "notes") if "\nnotes:" in text else text + f"notes: {YAML_HOSTILE}\n")
    if system == "d20-cards":
        card = root / "actions" / "strike.yaml"
        card.write_text(_set(card.read_text(), "name"))
    assert run(root, "encounter", "new", "fight", game["char"], game["other"], *game.get("new", ())).code == 0
    assert run(root, "turn", "start", game["char"]).code == 0
    assert run(root, "--seed", "7", *game["roll"]).code == 0, "roll"
    run(root, "condition", game["char"], "+" + HOSTILE)
    return root, game


def _set(text: str, key: str) -> str:
    """YAML `text` with its top-level `key` set to the hostile text."""
    return re.sub(rf"(?m)^{key}: .*$", lambda _: f"{key}: {YAML_HOSTILE}", text, count=1)


def _read_commands(game):
    return [("show", game["char"]), ("show", game["other"]), ("encounter", "show"), ("encounter", "log"),
            ("encounter", "log", "campaign"), ("check",), ("report",), ("report", "--format", "html"),
            ("report", "--all"), ("stats",), game["odds"], ("verify",), ("--seed", "3", *game["roll"])]


@pytest.mark.parametrize("system", GAMES)
def test_no_read_command_prints_a_raw_control_character(tmp_path, system):
    root, game = _hostile_campaign(tmp_path, system)
    seen = ""
    for argv in _read_commands(game):
        r = run(root, *argv)
        assert r.code in (0, 1, 2, 3) and "Traceback" not in r.err, (argv, r.code, r.err)
        assert not RAW.search(r.out), (argv, r.out)
        assert not RAW.search(r.err), (argv, r.err)
        seen += r.out + r.err
    assert SHOWN in seen  # the text was shown, as visible escapes


@pytest.mark.parametrize("system", GAMES)
def test_colour_is_narateers_own_and_nothing_else(tmp_path, system):
    """--color always keeps the outcome line's SGR codes; every other escape is the campaign's, escaped."""
    root, game = _hostile_campaign(tmp_path, system)
    assert run(root, "encounter", "end").code == 0  # outside the encounter a second roll is allowed
    r = run(root, "--color", "always", "--seed", "3", *game["roll"])
    assert r.code == 0, r.err
    without_colour = re.sub(r"\x1b\[[0-9;]*m", "", r.out)
    assert not RAW.search(without_colour), r.out
    assert "\x1b[" in r.out  # the outcome is still coloured


@pytest.mark.parametrize("system", GAMES)
def test_json_keeps_the_text_as_it_is(tmp_path, system):
    root, game = _hostile_campaign(tmp_path, system)
    r = run(root, "--json", "show", game["char"])
    assert r.code == 0, r.err
    assert json.loads(r.out)["name"] == HOSTILE
    assert "\x1b" not in r.out  # json.dumps writes \u001b


def test_an_error_quoting_campaign_text_is_one_escaped_line(tmp_path):
    """The error handler escapes what a message quotes: here the conditions a sheet holds."""
    root, game = _hostile_campaign(tmp_path, "open-adventure")
    err = refused(root, 2, "condition", game["char"], "-nosuch", contains="known: " + SHOWN)
    assert not RAW.search(err), err


def test_undo_names_the_undone_entry_escaped(tmp_path):
    root, _ = _hostile_campaign(tmp_path, "open-adventure")
    r = run(root, "undo")
    assert r.code == 0 and SHOWN in r.out and not RAW.search(r.out), r.out


def test_a_card_shown_for_a_character_is_escaped(tmp_path):
    root, game = _hostile_campaign(tmp_path, "d20-cards")
    for argv in (("card", "show", "strike", "--for", game["char"]), ("card", "show", "strike"), ("card", "list")):
        r = run(root, *argv)
        assert r.code == 0 and SHOWN in r.out and not RAW.search(r.out), (argv, r.out)


def test_html_report_escapes_markup_and_control_characters(tmp_path):
    root, game = _hostile_campaign(tmp_path, "open-adventure")
    assert run(root, "condition", game["char"], "+<script>x</script>").code == 0
    r = run(root, "report", "--format", "html")
    assert r.code == 0, r.err
    assert "<script>" not in r.out and "&lt;script&gt;" in r.out
    assert not RAW.search(r.out) and SHOWN in r.out


def test_a_message_with_a_newline_stays_one_line(tmp_path):
    root, game = _hostile_campaign(tmp_path, "open-adventure")
    r = run(root, "condition", game["char"], "+two\nlines")
    assert r.code == 0, r.err
    log = run(root, "encounter", "log").out
    assert "two\\x0alines" in log and not any(line.startswith("lines") for line in log.splitlines())


def test_completion_never_offers_a_candidate_with_a_control_character(tmp_path):
    from tests.table.test_complete_shell_report import completions

    root, _ = _hostile_campaign(tmp_path, "d20-cards")
    (root / "actions" / "x\x1b[2J.yaml").write_text((root / "actions" / "ward.yaml").read_text())
    offered = completions(root, "narateer card show ")
    assert "ward" in offered and not any(RAW.search(c) for c in offered)
