"""Each slip a game author can make, planted in a copy of Forge, and who catches it.

Every variant is a full copy of the `narateer_forge` package with one edit, installed for this test module
under its own name (`forge-m...`, registered through a `narateer.systems` entry point in a temporary
folder on the path; no pip). A test asserts the catch: by the host when the command runs (a one-line error,
exit 2, that names the variant's function, with every file left as it was), or by the conformance kit. A
slip that nothing catches is marked xfail(strict=True) with the reason, so the day it is caught the suite
says so.
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import narateer_forge
from narateer_cli.api import open_campaign
from narateer_cli.kit import NarateerError
from narateer_cli.testing import conform
from narateer_cli.testing.kit import narateer

SOURCE = Path(narateer_forge.__file__).parent

# ------------------------------------------------------------------------------------------ the variants

COUNTER = '    result = engine.counter_change(sheet, counter, change, s.rules)\n'
COUNTER_RETURN = 'dice={char: result["after"]}, encounter=_where(s, char))'
DRAW = '    dice = Dice(rng)\n    return [dice.face(6) for _ in range(count)]\n'
FORTUNE_RETURN = 'public=engine.PUBLIC["fortune"], encounter=_where(s, char))'
ROLL_DICE = 'dice={char: _counters(result, sheet.dice)}, public=engine.PUBLIC["roll"],'


def after(anchor: str, *lines: str) -> tuple:
    return anchor, anchor + "".join(line + "\n" for line in lines)


VARIANTS: dict = {
    "m0": {},  # no slip: the control
    # (1) editing a sheet directly instead of returning the edit
    "m1a": {"commands.py": [after(COUNTER, '    s.edit_sheet(char, {"track." + counter: result["after"][counter]})'),
                            (COUNTER_RETURN, "encounter=_where(s, char))")]},
    "m1b": {"commands.py": [after(COUNTER, '    with open(f"characters/{char}.yaml", "a") as fh:',
                                  '        fh.write(f"# {counter} now {result[\'after\'][counter]}\\n")')]},
    # (2) writing to the log yourself
    "m2a": {"commands.py": [after(COUNTER, '    s.txn.append("encounters/campaign.log.yaml", "- {}\\n")')]},
    "m2b": {"commands.py": [after(COUNTER, '    with open("encounters/campaign.log.yaml", "a") as fh:',
                                  '        fh.write(\'- {"seq": 99, "command": "harm"}\\n\')')]},
    # (3) importing another game
    "m3a": {"commands.py": [after("from . import engine\n", "import narateer_cli.systems.narateer  # noqa: F401")]},
    "m3b": {"commands.py": [after("from . import engine\n", "import forge_dice_tables  # noqa: F401  (a library not installed)")]},
    # (4) drawing dice from `random` itself
    "m4": {"commands.py": [(DRAW, "    import random\n\n    return [random.randint(1, 6) for _ in range(count)]\n")]},
    # (5) mutating a parsed sheet in memory: the document, in a command and in parse_sheet; the record
    "m5a": {"commands.py": [after(COUNTER, '    s.load(char).plain["track"][counter] = result["after"][counter]')]},
    "m5b": {"engine.py": [after('    track = doc.get("track") or {}\n', '    doc["name"] = str(doc.get("name") or char_id)')]},
    "m5c": {"commands.py": [("    pool = sheet.actions.get(action, 0) + declared.bonus",
                             "    sheet.actions[action] = sheet.actions.get(action, 0) + declared.bonus\n"
                             "    pool = sheet.actions[action]")]},
    # (6) an edit made and not returned: a counter moved on the record; the push's stress left out
    "m6a": {"commands.py": [after(COUNTER, '    sheet.dice[counter] = result["after"][counter]'),
                            (COUNTER_RETURN, "encounter=_where(s, char))")]},
    "m6b": {"commands.py": [(ROLL_DICE, 'public=engine.PUBLIC["roll"],')]},
    # (7) a secret roll whose outcome goes into its own sheet, or into the encounter state
    "m7a": {"commands.py": [(FORTUNE_RETURN, 'public=engine.PUBLIC["fortune"], encounter=_where(s, char),\n'
                             '                   sheets={char: {"omen": result["omen"]}})')]},
    "m7b": {"commands.py": [(FORTUNE_RETURN, 'public=engine.PUBLIC["fortune"], **_omen_state(s, result))'),
                            after("def _counters(result: dict, before: dict) -> dict:\n",
                                  '    return {**before, "stress": result["stress_after"], "trauma": result["trauma_after"]}',
                                  "", "",
                                  "def _omen_state(s, result):",
                                  "    from narateer_cli.kit import current_encounter",
                                  "",
                                  "    enc = current_encounter(s)",
                                  "    if enc is None:",
                                  "        return {}",
                                  '    return {"encounter": enc.id, "state": {**enc.state, "omen": result["omen"]}}')]},
    # (8) returning a value of the wrong type
    "m8a": {"commands.py": [after(COUNTER, '    return {"actor": char, counter: result["after"][counter]}')]},
    "m8b": {"commands.py": [(COUNTER_RETURN, 'dice=result["after"], encounter=_where(s, char))')]},
    "m8c": {"render.py": [('    return "\\n".join(lines)\n\n\ndef resolve', '    return lines\n\n\ndef resolve')]},
    "m8d": {"render.py": [("        return f\"{actor}'s {c} {result['before'][c]} -> {result['after'][c]}\"",
                           "        return {\"actor\": actor, c: result['after'][c]}")]},
    "m8e": {"engine.py": [("    return success_chance(int(check[\"pool\"]), rules)\n",
                           "    return float(success_chance(int(check[\"pool\"]), rules))\n")]},
    # (9) an error in a text formatter
    "m9": {"render.py": [("({data['position']}, {data['effect']} effect)", "({data['postion']}, {data['effect']} effect)")]},
    # (10) an error in the summary hook
    "m10": {"render.py": [("        return f\"{actor}'s {c} {result['before'][c]} -> {result['after'][c]}\"",
                           "        return f\"{actor}'s {c} {result['befor'][c]} -> {result['after'][c]}\"")]},
    # (11) an error in the verify hook
    "m11": {"engine.py": [("""        where = f"entry {entry.get('seq')} ({command})\"""",
                           """        where = f"entry {entry['sequence']} ({command})\"""")]},
    # (12) one random number drawn and reused for every die
    "m12": {"commands.py": [(DRAW, "    face = Dice(rng).face(6)\n    return [face] * count\n")]},
    # (13) an Outcome that names no encounter (not a slip: the host's choice, as write-a-game.md says)
    "m13": {"commands.py": [(COUNTER_RETURN, 'dice={char: result["after"]})')]},
}


def system(key: str) -> str:
    return f"forge-{key}"


def package(key: str) -> str:
    return f"forge_{key}"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Every variant, built once and put on the path (in this process and for the commands it starts), for
    this module's tests only: the rest of a test run sees none of them."""
    root = tmp_path_factory.mktemp("forge-variants")
    for key, edits in VARIANTS.items():
        pkg = root / package(key)
        shutil.copytree(SOURCE, pkg, ignore=shutil.ignore_patterns("__pycache__"))
        init = pkg / "__init__.py"
        init.write_text(init.read_text().replace('name="forge",', f'name="{system(key)}",'))
        for name, changes in edits.items():
            path = pkg / name
            text = path.read_text()
            for old, new in changes:
                assert text.count(old) == 1, f"{key}: {old!r} is not once in {name}"
                text = text.replace(old, new)
            path.write_text(text)
        info = root / f"{package(key)}-0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package(key)}\nVersion: 0\n")
        (info / "entry_points.txt").write_text(f"[narateer.systems]\n{system(key)} = {package(key)}:SYSTEM\n")
    sys.path.insert(0, str(root))
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(root), old) if p)
    importlib.invalidate_caches()
    yield root
    sys.path.remove(str(root))
    if old is None:
        del os.environ["PYTHONPATH"]
    else:
        os.environ["PYTHONPATH"] = old
    from narateer_cli import systems

    for key in VARIANTS:
        systems._LOADED.pop(system(key), None)
    for module in [m for m in sys.modules if m.split(".")[0] in {package(key) for key in VARIANTS}]:
        del sys.modules[module]
    importlib.invalidate_caches()


def campaign(site, tmp_path, key, *setup) -> Path:
    camp = tmp_path / "camp"
    made = narateer(None, "init", str(camp), "--system", system(key), "--example")
    assert made.code == 0, made.err
    for words in setup:
        open_campaign(str(camp)).run(*words)
    return camp


def files(camp: Path) -> dict:
    """The campaign's shared files (the private folder keeps caches that a read may fill)."""
    return {p: p.read_bytes() for p in sorted(camp.rglob("*")) if p.is_file() and ".narateer" not in p.parts}


def caught(camp: Path, *argv, exit_code: int = 2) -> str:
    """Run a command that must fail (as bad input, exit 2, unless told) and change no file; its one line."""
    before = files(camp)
    with pytest.raises(NarateerError) as err:
        open_campaign(str(camp)).run(*argv)
    assert err.value.exit_code == exit_code, err.value.line()
    assert files(camp) == before, "a caught slip must leave every file as it was"
    print(err.value.line())  # the message, for the record (pytest -rP shows it)
    return err.value.line()


def kit_fails(key: str, check: str, tmp_path) -> str:
    (verdict,) = conform(system(key), tmp_path / "kit", [check])
    assert verdict.status == "fail", f"the kit's {check} check passed a game with this slip"
    print(verdict.message)  # the kit's line, for the record (pytest -rP shows it)
    return verdict.message


PLAYING = ["undo", "verify", "words", "stats"]  # the kit's checks that play every action of the script

NOT_CAUGHT = pytest.mark.xfail(strict=True, reason="not caught: neither the host nor the kit notices")

# ------------------------------------------------------------------------------------------------ (1)


def test_m1a_edit_sheet_in_a_command_is_refused_naming_it(site, tmp_path):
    camp = campaign(site, tmp_path, "m1a")
    line = caught(camp, "harm", "cutter", "+1")
    assert "forge_m1a.commands._counter_cmd" in line and "edit_sheet" in line


def test_m1b_writing_a_sheet_file_is_refused_naming_it(site, tmp_path, monkeypatch):
    camp = campaign(site, tmp_path, "m1b")
    monkeypatch.chdir(camp)
    line = caught(camp, "harm", "cutter", "+1")
    assert "forge_m1b.commands._counter_cmd writes" in line and "cutter.yaml" in line

# ------------------------------------------------------------------------------------------------ (2)


def test_m2a_appending_through_the_transaction_is_refused_naming_it(site, tmp_path):
    camp = campaign(site, tmp_path, "m2a")
    line = caught(camp, "harm", "cutter", "+1")
    assert "forge_m2a.commands._counter_cmd" in line


def test_m2b_writing_the_log_file_is_refused_naming_it(site, tmp_path, monkeypatch):
    camp = campaign(site, tmp_path, "m2b")
    monkeypatch.chdir(camp)
    line = caught(camp, "harm", "cutter", "+1")
    assert "forge_m2b.commands._counter_cmd writes" in line and "campaign.log.yaml" in line

# ------------------------------------------------------------------------------------------------ (3)


def test_m3a_importing_a_built_in_game_is_caught_when_it_runs(site, tmp_path):
    camp = campaign(site, tmp_path, "m3a")
    line = caught(camp, "harm", "cutter", "+1")
    assert "forge_m3a" in line and "narateer_cli.systems.narateer" in line


def test_m3a_importing_a_built_in_game_is_caught_by_the_kit(site, tmp_path):
    message = kit_fails("m3a", "imports", tmp_path)
    assert "forge_m3a/commands.py" in message and "narateer_cli.systems.narateer" in message


def test_m3a_importing_a_built_in_game_breaks_the_forbidden_contract(site, tmp_path):
    """The route write-a-game.md gives: a `forbidden` import-linter contract, as in Forge's pyproject.toml."""
    config = tmp_path / ".importlinter"
    config.write_text(
        "[importlinter]\nroot_packages =\n    forge_m3a\n    narateer_cli\ninclude_external_packages = True\n\n"
        "[importlinter:contract:kit-only]\nname = forge_m3a imports only the kit\ntype = forbidden\n"
        "source_modules =\n    forge_m3a\nforbidden_modules =\n    narateer_cli.systems\n    narateer_cli.commands\n"
        "    narateer_cli.store\nallow_indirect_imports = True\n")
    ran = subprocess.run([Path(sys.executable).with_name("lint-imports"), "--config", str(config)],
                         capture_output=True, text=True, cwd=tmp_path)
    assert ran.returncode == 1, ran.stdout + ran.stderr
    assert "forge_m3a.commands -> narateer_cli.systems.narateer" in ran.stdout


def test_m3b_importing_a_library_that_is_not_installed_fails_naming_the_package(site, tmp_path):
    camp = campaign(site, tmp_path, "m3b")
    line = caught(camp, "harm", "cutter", "+1")
    assert "forge_m3b" in line and "forge_dice_tables" in line


def test_m3b_on_the_command_line_names_the_package_and_writes_nothing(site, tmp_path):
    camp = campaign(site, tmp_path, "m3b")
    before = files(camp)
    ran = narateer(camp, "harm", "cutter", "+1")
    print(ran.err)
    assert ran.code == 2 and "forge_dice_tables" in ran.err and "package forge_m3b" in ran.err
    assert "internal error" not in ran.err and len(ran.err.splitlines()) == 1
    assert files(camp) == before

# ------------------------------------------------------------------------------------------------ (4)


def test_m4_dice_from_random_fail_the_seeded_check(site, tmp_path):
    message = kit_fails("m4", "seeded", tmp_path)
    assert "forge_m4.commands.fortune_cmd (or what it calls) draws from Python's `random`" in message

# ------------------------------------------------------------------------------------------------ (5)


def test_m5a_changing_the_parsed_document_in_a_command_is_refused_naming_it(site, tmp_path):
    camp = campaign(site, tmp_path, "m5a")
    line = caught(camp, "harm", "cutter", "+1")
    assert "forge_m5a.commands._counter_cmd changes characters/cutter.yaml in memory" in line


def test_m5b_changing_the_document_in_parse_sheet_is_refused_naming_it(site, tmp_path):
    camp = campaign(site, tmp_path, "m5b")
    line = caught(camp, "show", "cutter")
    assert "forge_m5b.engine.parse_sheet changes characters/cutter.yaml in memory" in line


def test_m5c_changing_the_sheet_record_in_a_command_is_refused(site, tmp_path):
    """The record parse_sheet built holds the game's own dicts; the host hands them on read-only too."""
    camp = campaign(site, tmp_path, "m5c")
    line = caught(camp, "roll", "cutter", "skirmish", "--bonus", "1", "--faces", "6,3,1,1")
    assert "forge_m5c.commands.roll_cmd changes characters/cutter.yaml in memory (item assignment)" in line


# ------------------------------------------------------------------------------------------------ (6)


def test_m6a_a_counter_moved_on_the_record_and_not_returned_is_refused_naming_it(site, tmp_path):
    camp = campaign(site, tmp_path, "m6a")
    line = caught(camp, "harm", "cutter", "+1")
    assert "forge_m6a.commands._counter_cmd changes characters/cutter.yaml in memory (item assignment)" in line


@NOT_CAUGHT
def test_m6b_a_push_whose_stress_is_left_out_of_the_outcome_is_caught_when_it_runs(site, tmp_path):
    camp = campaign(site, tmp_path, "m6b")
    caught(camp, "roll", "whisper", "prowl", "--push", "--faces", "2,5")


@pytest.mark.xfail(strict=True, reason="not caught by the conformance kit either: no check compares a result's "
                   "own track with the sheet (verify skips an entry that carries no dice)")
def test_m6b_a_push_whose_stress_is_left_out_is_caught_by_the_kit(site, tmp_path):
    """The checks that play the script's `roll --push` (the others never run it)."""
    failed = [v for v in conform(system("m6b"), tmp_path / "kit", PLAYING) if v.status == "fail"]
    assert failed

# ------------------------------------------------------------------------------------------------ (7)


def test_m7a_a_secret_omen_written_on_the_guides_sheet_is_refused(site, tmp_path):
    camp = campaign(site, tmp_path, "m7a")
    line = caught(camp, "fortune", "guide", "2", exit_code=3)  # refused by the rules of secrecy
    assert "forge_m7a.commands.fortune_cmd" in line


def test_m7a_a_secret_omen_written_on_the_guides_sheet_fails_the_secret_check(site, tmp_path):
    message = kit_fails("m7a", "secret", tmp_path)
    assert "fortune guide 2" in message


def test_m7b_a_secret_omen_written_into_the_encounter_state_is_refused(site, tmp_path):
    camp = campaign(site, tmp_path, "m7b", ("encounter", "new", "heist", "cutter", "whisper"))
    line = caught(camp, "fortune", "guide", "2", exit_code=3)
    assert "forge_m7b.commands.fortune_cmd" in line


def test_m7b_a_secret_omen_written_into_the_encounter_state_fails_the_secret_check(site, tmp_path):
    message = kit_fails("m7b", "secret", tmp_path)
    assert "fortune guide 2" in message

# ------------------------------------------------------------------------------------------------ (8)


def test_m8a_a_dict_in_place_of_an_outcome_is_refused_naming_it(site, tmp_path):
    camp = campaign(site, tmp_path, "m8a")
    line = caught(camp, "harm", "cutter", "+1")
    assert "forge_m8a.commands.harm_cmd returned dict, not an Outcome" in line


def test_m8b_counters_not_keyed_by_character_are_refused_naming_it(site, tmp_path):
    camp = campaign(site, tmp_path, "m8b")
    line = caught(camp, "harm", "cutter", "+1")
    assert "forge_m8b.commands.harm_cmd" in line


def test_m8c_a_formatter_that_returns_a_list_is_named(site, tmp_path):
    camp = campaign(site, tmp_path, "m8c", ("encounter", "new", "heist", "cutter"))
    with pytest.raises(NarateerError) as err:
        open_campaign(str(camp)).run("roll", "cutter", "skirmish", "--faces", "6,3").words()
    print(err.value.line())
    assert "forge_m8c.render.roll" in err.value.line()


def test_m8d_a_summary_that_returns_a_dict_leaves_the_log_in_words(site, tmp_path):
    camp = campaign(site, tmp_path, "m8d", ("encounter", "new", "heist", "cutter"), ("harm", "cutter", "+1"))
    words = open_campaign(str(camp)).run("encounter", "log").words()
    assert "cutter harm" in words and "{" not in words


def test_m8d_a_summary_that_returns_a_dict_is_named(site, tmp_path):
    camp = campaign(site, tmp_path, "m8d", ("encounter", "new", "heist", "cutter"), ("harm", "cutter", "+1"))
    ran = narateer(camp, "encounter", "log")
    print(ran.err)
    assert ran.code == 0 and "forge_m8d.game.Forge.summary returned dict, not text" in ran.err
    assert len(ran.err.splitlines()) == 1  # once, not once per entry


def test_m8d_a_summary_that_returns_a_dict_fails_the_words_check(site, tmp_path):
    message = kit_fails("m8d", "words", tmp_path)
    assert "forge_m8d.game.Forge.summary returned dict" in message


def test_m8e_a_chance_that_is_no_fraction_is_named_by_verify(site, tmp_path):
    """The logged chance is the game's own text ("11/36"); verify asks the `chance` hook for it again (stats
    trusts what is logged), and a float there is refused, naming the hook."""
    camp = campaign(site, tmp_path, "m8e", ("encounter", "new", "heist", "cutter"),
                    ("roll", "cutter", "skirmish", "--faces", "6,3"))
    line = caught(camp, "verify")
    assert "forge_m8e.game.Forge.chance gave 0.30555" in line and "(float)" in line and "not exact" in line


def test_m8e_a_chance_that_is_no_fraction_fails_the_verify_check(site, tmp_path):
    message = kit_fails("m8e", "verify", tmp_path)
    assert "forge_m8e.game.Forge.chance" in message and "not exact" in message

# ------------------------------------------------------------------------------------------------ (9)


def test_m9_a_failing_formatter_is_named(site, tmp_path):
    camp = campaign(site, tmp_path, "m9", ("encounter", "new", "heist", "cutter"))
    log = camp / "encounters" / "heist.log.yaml"
    before = log.read_text()
    result = open_campaign(str(camp)).run("roll", "cutter", "skirmish", "--faces", "6,3")
    assert log.read_text() != before                       # the roll was logged; its text is made on demand
    with pytest.raises(NarateerError) as err:
        result.words()
    line = err.value.line()
    print(line)
    assert "forge_m9.render.roll" in line                  # (run() returned: the caller knows it was written)


def test_m9_on_the_command_line_it_says_the_action_was_written(site, tmp_path):
    camp = campaign(site, tmp_path, "m9", ("encounter", "new", "heist", "cutter"))
    ran = narateer(camp, "roll", "cutter", "skirmish", "--faces", "6,3")
    print(ran.err)
    assert ran.code == 2 and "forge_m9.render.roll" in ran.err
    assert "written" in ran.err or "saved" in ran.err or "logged" in ran.err, ran.err

# ----------------------------------------------------------------------------------------------- (10)


def test_m10_a_failing_summary_is_named_and_never_stops_the_log_or_undo(site, tmp_path):
    camp = campaign(site, tmp_path, "m10", ("encounter", "new", "heist", "cutter"), ("harm", "cutter", "+1"))
    shown = narateer(camp, "encounter", "log")
    print(shown.err)
    assert shown.code == 0 and "forge_m10.render.summary failed" in shown.err
    assert "cutter harm" in shown.out
    undone = open_campaign(str(camp)).run("undo")
    assert any("forge_m10.render.summary failed" in note for note in undone.notes), undone.notes
    assert b"harm: 0" in (camp / "characters" / "cutter.yaml").read_bytes()


def test_m10_the_summary_warning_of_encounter_log_is_in_the_calls_notes(site, tmp_path, capfd):
    camp = campaign(site, tmp_path, "m10", ("encounter", "new", "heist", "cutter"), ("harm", "cutter", "+1"))
    capfd.readouterr()
    shown = open_campaign(str(camp)).run("encounter", "log")
    assert "cutter harm" in shown.words()  # its words too: the warning joins the notes, once
    leaked = capfd.readouterr().err
    said = [note for note in shown.notes if "forge_m10.render.summary failed" in note]
    assert len(said) == 1 and not leaked, (shown.notes, leaked)


def test_m10_a_failing_summary_fails_the_words_check(site, tmp_path):
    message = kit_fails("m10", "words", tmp_path)
    assert "forge_m10.render.summary failed" in message and "KeyError" in message

# ----------------------------------------------------------------------------------------------- (11)


def test_m11_a_failing_verify_hook_is_named(site, tmp_path):
    camp = campaign(site, tmp_path, "m11", ("encounter", "new", "heist", "cutter"), ("harm", "cutter", "+1"))
    line = caught(camp, "verify")
    assert "forge_m11.engine.verify_log failed in the game's verify hook" in line


def test_m11_a_failing_verify_hook_fails_the_verify_check(site, tmp_path):
    message = kit_fails("m11", "verify", tmp_path)
    assert "log_checker" in message

# ----------------------------------------------------------------------------------------------- (12)


def test_m12_one_draw_for_every_die_fails_the_seeded_check(site, tmp_path):
    message = kit_fails("m12", "seeded", tmp_path)
    assert "forge_m12.commands.fortune_cmd (or what it calls) repeats one draw" in message, message


# ----------------------------------------------------------------------------------------------- (13)


def test_m13_an_outcome_that_names_no_encounter_goes_to_the_running_encounter_of_its_actor(site, tmp_path):
    camp = campaign(site, tmp_path, "m13", ("encounter", "new", "heist", "cutter"))
    logs = camp / "encounters"
    api = open_campaign(str(camp))
    api.run("harm", "cutter", "+1")                        # cutter takes part in the running encounter
    assert '"command": "harm", "actor": "cutter"' in (logs / "heist.log.yaml").read_text()
    assert not (logs / "campaign.log.yaml").exists()
    api.run("harm", "whisper", "+1")                       # whisper does not: the campaign log
    assert '"command": "harm", "actor": "whisper"' in (logs / "campaign.log.yaml").read_text()
    assert '"actor": "whisper"' not in (logs / "heist.log.yaml").read_text()
    assert api.run("verify").to_json()["ok"] and api.run("verify", "campaign").to_json()["ok"]


# ------------------------------------------------------------------------------------------ the control


def test_m0_the_unplanted_copy_passes_every_check(site, tmp_path):
    """The copy with no edit passes each check the tests above expect to fail, and those that play the
    script's actions: the failures above come from the slips alone. (Forge itself passes every check:
    test_forge.py.)"""
    checks = sorted({"imports", "seeded", "secret", "verify", "words", *PLAYING})
    assert [v for v in conform(system("m0"), tmp_path / "kit", checks) if v.status != "pass"] == []
