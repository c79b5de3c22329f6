"""S-SYS-11: each check of the conformance kit catches a game that breaks its property.

Every broken game is the example game (examples/narateer-moves) with a line or two changed, registered
under its own name; the kit must report the one check that it breaks, and the unbroken game passes it.
"""

from __future__ import annotations

import pytest

from narateer_cli.testing import Kit
from narateer_cli.testing.__main__ import main
from narateer_cli.testing.checks import verdict
from tests.systems.kit.games import MOVES, forget, register, variant

CMD = "commands.py"
ENGINE = "engine.py"
SECRET_BY_A_PLAYER = [('"secret": "roll guide size-up"', '"secret": "roll rook charm --secret"')]
BROKEN = {
    # a secret move that declares its band public: the band shows
    "leaky-band": ("secret", {ENGINE: [('PUBLIC = ("system",', 'PUBLIC = ("band", "system",')]},
                   "public part changes with the dice"),
    # a player's secret move is allowed: a miss marks XP on the sheet, which the log's changes show
    "leaky-xp": ("secret", {CMD: [("if s.app.secret and not sheet.guide:", "if False:")], ENGINE: SECRET_BY_A_PLAYER},
                 "changes."),
    # harm keeps a note of its own beside the host's files: undo cannot know of it
    "sly-harm": ("undo", {CMD: [('    return _told(s, "harm", "harm"',
                                 '    (s.campaign.root / "notes.txt").write_text(f"{char} hurt\\n")\n'
                                 '    return _told(s, "harm", "harm"')]},
                 "undo of `harm rook +1` left notes.txt"),
    # harm writes its note before it checks the rules: a refused harm leaves it behind
    "noisy-refusal": ("refusal", {CMD: [("    result = harm(s.sheet(char), int(changes), s.rules)",
                                         '    (s.campaign.root / "notes.txt").write_text(char)\n'
                                         "    result = harm(s.sheet(char), int(changes), s.rules)")]},
                      "was refused (3) yet changed notes.txt"),
    # verify believes every entry
    "credulous": ("verify", {ENGINE: [('def verify_log(entries: list, rules) -> str | None:\n',
                                       'def verify_log(entries: list, rules) -> str | None:\n    return None\n')]},
                  "edited: exit 0"),
    # verify looks at the band only: an edited total passes
    "band-only": ("verify", {ENGINE: [("wrong = sorted(k for k in again if again[k] != logged.get(k))",
                                       'wrong = ["band"] if again["band"] != logged["band"] else []')]},
                  "its total"),
    # the log shows raw data
    "raw-log": ("words", {"render.py": [("    return formatter(result) if", "    return str(result)\n    return 0 if")]},
                "shows raw data"),
    # harm is not declared a counter: a merge would not add both sides' harm
    "undeclared": ("merge", {"__init__.py": [('counters=("track.harm", "track.xp")', 'counters=("track.xp",)')]},
                   "changed no counter"),
    # no turn verb
    "no-turn": ("verbs", {"__init__.py": [('        "turn": (_C, "Turn the spotlight to a character in the encounter."),\n',
                                           "")]},
                "not in --help: turn"),
}


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    register(folder, "moves", "narateer_moves")
    packages = {variant(folder, name, edits) for name, (_, edits, _) in BROKEN.items()}
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(MOVES))
        patch.syspath_prepend(str(folder))
        yield folder
    forget(["moves", *BROKEN], packages | {"narateer_moves"})


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_the_kit_reports_the_broken_property(games, tmp_path, name):
    check, _, words = BROKEN[name]
    broken = verdict(Kit(name, tmp_path / "broken"), check)
    assert broken.status == "fail", broken
    if words:
        assert words in broken.message, broken.message
    sound = verdict(Kit("moves", tmp_path / "sound"), check)
    assert sound.status == "pass", sound


def test_a_game_without_a_script_skips_what_needs_one_and_says_so(games, tmp_path):
    kit = Kit("moves", tmp_path)
    object.__setattr__(kit, "script", type(kit.script)(given=False))
    v = verdict(kit, "secret")
    assert (v.status, v.message) == ("skip", "not provided: the game's conformance script gives no `secret` command")


def test_the_command_line_exits_0_for_a_pass_and_1_with_one_line_per_failure(games, capsys):
    assert main(["moves", "verbs", "words"]) == 0
    assert capsys.readouterr().out == "moves: 2 checks passed\n"
    assert main(["no-turn", "verbs", "words"]) == 1
    assert capsys.readouterr().out == "no-turn: verbs: fail: not in --help: turn\n"
    assert main(["nothing-here"]) == 1
    assert capsys.readouterr().out.startswith("nothing-here: load: fail: BadInput: unknown rule system")
    assert main(["moves", "nonsense"]) == 2


def test_the_stats_check_catches_check_marks_a_check_can_lack(tmp_path, monkeypatch):
    """The `stats` check: Narateer's marks find every check; marks its check lines lack lose them, and the kit
    says so."""
    from narateer_cli import luck

    assert verdict(Kit("narateer", tmp_path / "sound"), "stats").status == "pass"
    monkeypatch.setattr(luck, "stats_marks", lambda system: (b'"no such key"', *luck.HOST_MARKS))
    blind = verdict(Kit("narateer", tmp_path / "blind"), "stats")
    assert blind.status == "fail" and "check_marks" in blind.message, blind
