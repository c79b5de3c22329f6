"""K-2, K-4: each mistake a game author makes is caught at run time, with the game's function named.

Every broken game is the example game (examples/narateer-moves) with a line or two changed, registered under
its own name (tests/systems/kit/games.py). Each test plays the mistake through the real command line and
checks what a player sees: exit status, the one line naming the function, and the campaign's bytes.
"""

from __future__ import annotations

import json

import pytest

from narateer_cli.testing.kit import log_entries, narateer, snapshot
from tests.systems.kit.games import MOVES, forget, register, variant

CMD = "commands.py"
ENGINE = "engine.py"
RENDER = "render.py"
HARM = '    return _told(s, "harm", "harm", char, {"harm": int(changes)}, result, {char: result["track_after"]})'
TURN = '    return _told(s, "turn", "turn", char, {}, {"spotlight": char}, {}, enc, state={**enc.state, "spotlight": char})'
KEPT = '    return _told(s, "turn", "turn", char, {}, {"spotlight": char}, {}, enc)'
MOVE = "    result = engine.move(sheet, name, rolled, s.rules)"

MISTAKES = {
    # the parsed sheet changed in memory: it would reach the parse cache, `show`, and the next write unlogged
    "sheet-mutator": {CMD: [("    result = harm(s.sheet(char), int(changes), s.rules)",
                             '    s.load(char).plain["track"]["xp"] = 5\n'
                             "    result = harm(s.sheet(char), int(changes), s.rules)")]},
    # the rules changed in memory (the host keeps the shipped rules for every campaign of the process)
    "rules-mutator": {ENGINE: [('    stat = rules["moves"][name]\n',
                                '    stat = rules["moves"][name]\n    rules["strong"] = 2\n')]},
    # the encounter state changed in place rather than returned
    "state-mutator": {CMD: [(TURN, '    enc.state["spotlight"] = char\n' + KEPT)]},
    # the encounter's state replaced on the encounter rather than returned
    "state-replacer": {CMD: [(TURN, '    enc.state = {**enc.state, "spotlight": char}\n' + KEPT)]},
    # a new state returned with no encounter to write it to: it would be dropped
    "state-orphan": {CMD: [(TURN, '    return Outcome("turn", char, {}, {"spotlight": char}, kind="turn", '
                                  'state={**enc.state, "spotlight": char})')]},
    # a new state that is no encounter state: the next command would refuse the file
    "state-broken": {CMD: [(TURN, '    return _told(s, "turn", "turn", char, {}, {"spotlight": char}, {}, enc, '
                                  'state={"spotlight": char})')]},
    # the session's sheet edit called directly
    "direct-edit": {CMD: [(HARM, '    s.edit_sheet(char, {("track", "harm"): result["track_after"]["harm"]})\n'
                                 '    return _told(s, "harm", "harm", char, {"harm": int(changes)}, result, {})')]},
    # a log line written by hand
    "log-writer": {CMD: [(HARM, '    s.txn.append(s.campaign.root / "encounters" / "campaign.log.yaml", "- {}\\n")\n'
                          + HARM)]},
    # a private module of the host imported, in a function (found when the function runs)
    "host-importer": {CMD: [(HARM, '    from narateer_cli.store import encounters  # noqa: F401\n' + HARM)]},
    # another installed game imported as the module loads
    "game-importer": {CMD: [("from narateer_cli.kit import Dice\n",
                             "from narateer_cli.kit import Dice\nimport narateer_moves.engine  # noqa: F401\n")]},
    # a log line appended with the standard library's own open(), past every host call
    "file-writer": {CMD: [(HARM, '    with open(s.campaign.root / "encounters" / "campaign.log.yaml", "a") as forged:\n'
                                 '        forged.write("- {}\\n")\n' + HARM)]},
    # a new state set on the encounter it read instead of returned (the side channel there is no more)
    "state-kept": {CMD: [(TURN, '    enc.new_state = {**enc.state, "spotlight": char}\n'
                                '    return Outcome("turn", char, {}, {"spotlight": char}, kind="turn", encounter=enc.id)')]},
    # counters moved on the record and not returned
    "counters-kept": {CMD: [(HARM, '    s.sheet(char).counters["harm"] = result["track_after"]["harm"]\n'
                                   '    return _told(s, "harm", "harm", char, {"harm": int(changes)}, result, {})')]},
    # a command that returns its result rather than an Outcome
    "wrong-type": {CMD: [("    return _make_move(s, char, move, faces)\n\n\n@command(rolls=True, writes=True, help=\"Make a move (the",
                          "    return _make_move(s, char, move, faces).result\n\n\n@command(rolls=True, writes=True, "
                          "help=\"Make a move (the")]},
    # an Outcome whose sheet edits are not a mapping
    "wrong-field": {CMD: [("sheets={char: {\"conditions\": now}})", "sheets={char: now})")]},
    # counters returned as text ("1"): they would be logged as text
    "text-counter": {CMD: [("kind=kind, show=result, dice=counters,",
                            "kind=kind, show=result, dice=counters and {c: {k: str(v) for k, v in n.items()} "
                            "for c, n in counters.items()},")]},
    # a text formatter that fails once the action is written
    "bad-formatter": {RENDER: [('def harm(data: dict) -> str:\n', 'def harm(data: dict) -> str:\n'
                                                                  '    raise ValueError("no words for harm")\n')]},
    # a summary that fails: undo must still work
    "bad-summary": {RENDER: [('    kind = {"resolve": "roll"}.get(command, command)\n',
                              '    raise ValueError("no summary today")\n')]},
    # a summary that reads a field the entry lacks: named too (only the host's own fallbacks pass it over)
    "keyerror-summary": {RENDER: [('    kind = {"resolve": "roll"}.get(command, command)\n',
                                   '    kind = result["no-such-field"]\n')]},
    # a secret move's outcome kept on the mover's own sheet, declared neither shown nor sealed: the Guide's band
    # would be written in clear for every clone to pull
    "secret-note": {CMD: [('    return _told(s, "roll", "roll", char, {"move": name}, result, {char: result["track_after"]},\n'
                           '                 public=engine.PUBLIC)',
                           '    return _told(s, "roll", "roll", char, {"move": name}, result, {char: result["track_after"]},\n'
                           '                 public=engine.PUBLIC, sheets={char: {"last_band": result["band"]}})')]},
    # a verify hook that fails on an entry
    "bad-verify": {ENGINE: [('        again = move(sheet, logged["move"], logged["faces"], rules)\n',
                             '        raise ValueError("cannot re-make it")\n')]},
    # a result kind the game's formatters do not name (a typo), made by an Outcome and by `emit`
    "unknown-kind": {CMD: [(HARM, HARM.replace('_told(s, "harm", "harm",', '_told(s, "harms", "harm",')),
                           ('emit(app, "odds", {', 'emit(app, "odd", {')]},
    # a formatters table with a kind spelt otherwise than as a snake_case name
    "hyphen-kind": {RENDER: [('FORMATTERS = {"roll": roll,', 'FORMATTERS = {"roll-check": roll, "roll": roll,')]},
}


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mistakes")
    register(folder, "moves", "narateer_moves")
    packages = {variant(folder, name, edits) for name, edits in MISTAKES.items()}
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(MOVES))
        patch.syspath_prepend(str(folder))
        yield folder
    forget(["moves", *MISTAKES], packages | {"narateer_moves"})


def campaign(tmp_path, name: str, *setup):
    root = tmp_path / name
    r = narateer(None, "init", str(root), "--system", name, "--example")
    assert r.code == 0, r.err
    for command in setup:
        r = narateer(root, *command.split())
        assert r.code == 0, (command, r.err)
    return root


def refused_unchanged(root, words: str, *named: str):
    """The command exits 2 with one line naming each of `named`; no byte of the campaign changed."""
    before = snapshot(root)
    r = narateer(root, *words.split())
    assert r.code == 2, (words, r.code, r.out, r.err)
    line = r.err.strip()
    assert len(line.splitlines()) == 1 and "internal error" not in line, line
    for part in named:
        assert part in line, (part, line)
    assert snapshot(root) == before
    return line


def test_K_2_a_game_that_changes_a_parsed_sheet_in_memory_is_stopped_and_nothing_reaches_a_file(games, tmp_path):
    root = campaign(tmp_path, "sheet-mutator")
    shown_before = narateer(root, "--json", "show", "rook").json
    line = refused_unchanged(root, "harm rook +1", "sheet_mutator_game.commands.harm_cmd",
                             "characters/rook.yaml", "item assignment", "reaches no file")
    assert "Outcome" in line
    assert narateer(root, "--json", "show", "rook").json == shown_before  # the parse cache kept nothing
    assert narateer(root, "--json", "verify").code == 0


def test_K_2_a_game_that_changes_the_rules_in_memory_is_stopped(games, tmp_path):
    root = campaign(tmp_path, "rules-mutator")
    refused_unchanged(root, "roll rook push-through --faces 1,2", "rules_mutator_game.engine.move", "the rules")
    # the shipped rules this process keeps are as shipped: the next command computes with them
    r = narateer(root, "--json", "odds", "0")
    assert r.code == 0 and r.json["miss"] == "5/12", r.out


def test_K_2_a_game_that_changes_the_encounter_state_in_place_is_stopped(games, tmp_path):
    root = campaign(tmp_path, "state-mutator", "encounter new fight rook vesper")
    line = refused_unchanged(root, "turn vesper", "state_mutator_game.commands.turn_cmd",
                             "changes the state of encounter fight in memory", "item assignment")
    assert "state=" in line  # the fix says where the new state goes
    assert "spotlight: null" in (root / "encounters" / "fight.yaml").read_text()  # as `encounter new` wrote it


def test_K_2_a_game_that_replaces_the_state_on_the_encounter_is_stopped(games, tmp_path):
    root = campaign(tmp_path, "state-replacer", "encounter new fight rook vesper")
    line = refused_unchanged(root, "turn vesper", "state_replacer_game.commands.turn_cmd",
                             "sets encounter fight's state in memory", "reaches no file")
    assert "Outcome(..., encounter=enc.id, state=new)" in line


def test_K_4_a_new_state_returned_without_its_encounter_is_caught(games, tmp_path):
    root = campaign(tmp_path, "state-orphan", "encounter new fight rook vesper")
    refused_unchanged(root, "turn vesper", "state_orphan_game.commands.turn_cmd",
                      "state names no encounter", "nothing was written")


def test_K_4_a_new_state_that_is_no_encounter_state_is_caught(games, tmp_path):
    root = campaign(tmp_path, "state-broken", "encounter new fight rook vesper")
    refused_unchanged(root, "turn vesper", "state_broken_game.commands.turn_cmd",
                      "state for encounter 'fight' has no id or no participants list", "nothing was written")


def test_K_4_a_game_that_calls_the_session_sheet_edit_itself_is_stopped(games, tmp_path):
    root = campaign(tmp_path, "direct-edit")
    line = refused_unchanged(root, "harm rook +1", "direct_edit_game.commands.harm_cmd", "Session.edit_sheet")
    assert "return every change in the Outcome" in line


def test_K_4_a_game_that_writes_a_log_line_itself_is_stopped(games, tmp_path):
    root = campaign(tmp_path, "log-writer")
    refused_unchanged(root, "harm rook +1", "log_writer_game.commands.harm_cmd", "Transaction.append")


def test_K_4_a_game_that_imports_a_private_module_of_the_host_is_stopped_naming_its_function(games, tmp_path):
    root = campaign(tmp_path, "host-importer")
    refused_unchanged(root, "harm rook +1", "host_importer_game.commands.harm_cmd imports narateer_cli.store",
                      "a module of narateer other than its kit")
    assert narateer(root, "show", "rook").code == 0  # a command that does not run the import goes on


def test_K_4_a_game_that_imports_another_game_is_stopped_naming_its_module(games, tmp_path):
    """Moves is installed (on the path, registered): its package imports, and is another game's."""
    root = campaign(tmp_path, "game-importer")
    refused_unchanged(root, "harm rook +1",
                      "game_importer_game.commands imports narateer_moves.engine, the package of the game moves")


def test_K_4_a_game_that_opens_a_log_for_writing_itself_is_stopped_before_a_byte_is_written(games, tmp_path):
    root = campaign(tmp_path, "file-writer")
    line = refused_unchanged(root, "harm rook +1", "file_writer_game.commands.harm_cmd",
                             "campaign.log.yaml", "never writes")
    assert "return every change in the Outcome" in line
    assert narateer(root, "--json", "verify").code == 0


def test_K_4_a_new_state_set_on_the_encounter_instead_of_returned_is_refused_at_once(games, tmp_path):
    root = campaign(tmp_path, "state-kept", "encounter new fight rook vesper")
    line = refused_unchanged(root, "turn vesper", "state_kept_game.commands.turn_cmd", "new_state in memory")
    assert "Outcome(..., encounter=enc.id, state=new)" in line


def test_K_4_counters_moved_on_the_record_and_not_returned_are_caught(games, tmp_path):
    root = campaign(tmp_path, "counters-kept")
    refused_unchanged(root, "harm rook +1", "counters_kept_game.commands.harm_cmd", "harm 0 -> 1",
                      "did not return them")


def test_K_4_a_command_that_returns_a_value_of_the_wrong_type_writes_nothing(games, tmp_path):
    root = campaign(tmp_path, "wrong-type")
    refused_unchanged(root, "roll rook push-through --faces 1,2", "wrong_type_game.commands.roll_cmd",
                      "returned dict, not an Outcome", "nothing was written")


def test_K_4_an_outcome_field_of_the_wrong_type_writes_nothing(games, tmp_path):
    root = campaign(tmp_path, "wrong-field")
    refused_unchanged(root, "condition rook +bruised", "wrong_field_game.game.Moves.condition",
                      "sheets['rook'] is list")


def test_K_4_counters_returned_as_text_write_nothing(games, tmp_path):
    root = campaign(tmp_path, "text-counter")
    refused_unchanged(root, "harm rook +1", "text_counter_game.commands.harm_cmd", "not a whole number")


def test_K_4_a_formatter_that_fails_after_the_write_says_the_action_was_written(games, tmp_path):
    root = campaign(tmp_path, "bad-formatter")
    r = narateer(root, "harm", "rook", "+1")
    assert r.code == 2, r.err
    assert "bad_formatter_game.render.harm" in r.err and "ValueError: no words for harm" in r.err, r.err
    assert "the action was written" in r.err and "nothing was written" not in r.err, r.err
    log = (root / "encounters" / "campaign.log.yaml").read_text(encoding="utf-8")
    assert [e["command"] for _, e in log_entries(log)] == ["harm"]
    assert "harm: 1" in (root / "characters" / "rook.yaml").read_text(encoding="utf-8")
    assert narateer(root, "--json", "harm", "rook", "+1").code == 0  # --json needs no formatter


def test_K_4_a_summary_that_fails_never_blocks_undo_and_is_named(games, tmp_path):
    root = campaign(tmp_path, "bad-summary")
    before = snapshot(root)
    assert narateer(root, "harm", "rook", "+1").code == 0
    r = narateer(root, "--json", "undo")
    assert r.code == 0, r.err
    assert r.json["undid"] == "harm: rook: harm 0 -> 1"  # the words of the result's own formatter
    assert "bad_summary_game.render.summary" in r.err and "ValueError: no summary today" in r.err, r.err
    after = snapshot(root)
    assert after["characters/rook.yaml"] == before["characters/rook.yaml"]
    shown = narateer(root, "encounter", "log", "campaign")
    assert shown.code == 0 and "undid entry 1" in shown.out, shown.out
    assert shown.err.count("bad_summary_game.render.summary") == 1, shown.err  # one warning, not one per row


def test_K_4_a_summary_that_reads_a_missing_field_is_named_too(games, tmp_path):
    root = campaign(tmp_path, "keyerror-summary")
    assert narateer(root, "harm", "rook", "+1").code == 0
    r = narateer(root, "undo")
    assert r.code == 0, r.err
    assert "keyerror_summary_game.render.summary" in r.err and "KeyError" in r.err, r.err


def test_K_4_a_verify_hook_that_fails_is_named_with_its_entry(games, tmp_path):
    root = campaign(tmp_path, "bad-verify")
    assert narateer(root, "roll", "rook", "push-through", "--faces", "1,2").code == 0
    r = narateer(root, "--json", "verify")
    assert r.code == 2, (r.out, r.err)
    assert "bad_verify_game.engine.verify_log" in r.err and "entry 1" in r.err and "internal error" not in r.err
    assert json.loads(r.out)["rule"] == "K-4"


def test_the_sound_game_passes_every_command_these_tests_play(games, tmp_path):
    """The same commands on the unbroken game succeed: each failure above is the planted mistake's."""
    root = campaign(tmp_path, "moves", "encounter new fight rook vesper")
    for words in ("harm rook +1", "roll rook push-through --faces 1,2", "condition rook +bruised", "turn vesper",
                  "undo", "verify", "encounter log fight", "odds 0"):
        r = narateer(root, *words.split())
        assert r.code == 0, (words, r.err)
        assert not r.err.strip() or words == "undo", (words, r.err)


def test_K_3_under_a_seed_each_call_of_rng_continues_one_stream():
    """One Random per command: a game that calls `rng()` once per die gets each die its own draw, and the first
    draw is the one `random.Random(seed)` gives (so a game that calls it once rolls as before)."""
    import random

    from narateer_cli.cli import App

    app = App(seed=7)
    drawn = [app.rng().randint(1, 6) for _ in range(12)]
    stream = random.Random(7)
    assert drawn == [stream.randint(1, 6) for _ in range(12)]
    assert len(set(drawn)) > 1
    assert App(seed=7).rng().random() == random.Random(7).random()


def test_K_4_the_bytecode_python_caches_when_a_game_imports_lazily_is_no_game_write(tmp_path):
    """The write guard refuses files a game's own code writes; the bytecode cache Python writes when a game
    function imports a module for the first time is the import system's, and the command goes through."""
    import os
    import subprocess
    import sys

    root = tmp_path / "camp"
    assert narateer(None, "init", str(root), "--system", "narateer", "--example").code == 0
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(tmp_path / "pycache")  # empty: every module is compiled and cached now
    r = subprocess.run([sys.executable, "-m", "narateer_cli", "roll", "selka", "stealth", "--dr", "3",
                        "--boost", "2", "--seed", "1"], cwd=root, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "never writes" not in r.stderr
    assert any((tmp_path / "pycache").rglob("actions.*.pyc"))  # the game's modules were cached on the way


def test_K_4_a_secret_moves_side_effect_on_its_own_sheet_is_refused_naming_the_function(games, tmp_path):
    root = campaign(tmp_path, "secret-note")
    before = snapshot(root)
    r = narateer(root, "roll", "guide", "size-up", "--faces", "1,2")  # the Guide's roll: secret
    assert r.code == 3 and len(r.err.strip().splitlines()) == 1, r.err
    assert "secret_note_game.commands.roll_cmd makes a secret roll change sheet.last_band" in r.err
    assert snapshot(root) == before
    assert narateer(root, "roll", "rook", "push-through", "--faces", "1,2").code == 0  # openly it is written


def test_K_4_a_result_kind_with_no_formatter_is_named_before_anything_is_written(games, tmp_path):
    root = campaign(tmp_path, "unknown-kind")
    for words in ("harm rook +1", "--json harm rook +1"):  # --json prints no words, and still checks the kind
        refused_unchanged(root, words, "unknown_kind_game.commands.harm_cmd", "'harms'", "did you mean harm",
                          "nothing was written")
    refused_unchanged(root, "odds 1", "unknown_kind_game.commands.odds_cmd", "'odd'", "did you mean odds")
    assert narateer(root, "roll", "rook", "push-through", "--faces", "1,2").code == 0  # its other kinds are fine


def test_K_4_a_kind_spelt_otherwise_than_as_a_snake_case_name_is_named(games, tmp_path):
    root = campaign(tmp_path, "hyphen-kind")
    line = refused_unchanged(root, "odds 1", "GAME.formatters", "'roll-check'", "snake_case")
    assert "hyphen-kind" in line
