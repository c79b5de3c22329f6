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


def notes_written(text: str) -> str:
    """Game code that writes `text` to notes.txt in the campaign from a child process: in this process the
    host refuses a game's own file writes at once (test_game_mistakes.py), so the kit's checks are shown
    catching a write the host cannot see."""
    return ('    import subprocess, sys\n'
            '    subprocess.run([sys.executable, "-c", "import pathlib, sys; pathlib.Path(sys.argv[1]).write_text(sys.argv[2])", '
            f'str(s.campaign.root / "notes.txt"), {text}], check=True)\n')


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
                                 notes_written('f"{char} hurt\\n"') + '    return _told(s, "harm", "harm"')]},
                 "undo of `harm rook +1` left notes.txt"),
    # harm writes its note before it checks the rules: a refused harm leaves it behind
    "noisy-refusal": ("refusal", {CMD: [("    result = harm(s.sheet(char), int(changes), s.rules)",
                                         notes_written("char")
                                         + "    result = harm(s.sheet(char), int(changes), s.rules)")]},
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
    # dice drawn from Python's own `random`: --seed does not decide them
    "own-random": ("seeded", {CMD: [('[dice.face(s.rules["sides"]) for _ in range(s.rules["dice"])]',
                                     '[__import__("random").randint(1, s.rules["sides"]) for _ in range(s.rules["dice"])]')]},
                   "draws from Python's `random`"),
    # one fresh Random(seed) per die: under --seed every die shows the same face
    "one-draw": ("seeded", {CMD: [('[dice.face(s.rules["sides"]) for _ in range(s.rules["dice"])]',
                                   '[__import__("random").Random(s.app.seed).randint(1, s.rules["sides"])'
                                   ' for _ in range(s.rules["dice"])]')]},
                 "repeats one draw for every die"),
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


# a highest-die Moves: the highest of the two dice counts
HIGHEST = {ENGINE: [("    total = sum(faces) + sheet.stats.get(stat, 0)", "    total = max(faces) + sheet.stats.get(stat, 0)")]}


def test_the_verify_check_edits_a_face_that_decides(tmp_path, monkeypatch):
    """K-4: a highest-die game's first die often decides nothing (faces 1,2: the 2 counts). Its sound verify
    passes the kit (the kit plays each die at other faces until the result changes, and edits that one);
    the same game with a verify that believes every entry fails."""
    folder = tmp_path / "games"
    broken = {ENGINE: HIGHEST[ENGINE] + BROKEN["credulous"][1][ENGINE]}
    packages = {variant(folder, "highest", HIGHEST), variant(folder, "highest-credulous", broken)}
    monkeypatch.syspath_prepend(str(folder))
    try:
        sound = verdict(Kit("highest", tmp_path / "sound"), "verify")
        assert sound.status == "pass", sound
        fooled = verdict(Kit("highest-credulous", tmp_path / "fooled"), "verify")
        assert fooled.status == "fail" and "edited: exit 0" in fooled.message, fooled
    finally:
        forget(["highest", "highest-credulous"], packages)


def test_the_deciding_face_is_found_by_trying_faces(tmp_path, monkeypatch):
    """The script's last logged roll with faces is `roll rook push-through --faces 1,2` (a hit logs nothing). In
    the highest-die game die 1 at 2 (the edit a first-face bump makes) decides nothing, 0 is no face of a d6,
    and die 1 at 3 decides: that is the edit."""
    from narateer_cli.testing import checks

    folder = tmp_path / "games"
    packages = {variant(folder, "highest", HIGHEST)}
    monkeypatch.syspath_prepend(str(folder))
    found = []
    real = checks._deciding_faces
    monkeypatch.setattr(checks, "_deciding_faces", lambda *a: found.extend(real(*a)) or found)
    try:
        assert verdict(Kit("highest", tmp_path / "k"), "verify").status == "pass"
        assert [e[-1] for e in found] == ["die 1 of `roll rook push-through --faces 1,2` edited to 3, a face that decides"]
    finally:
        forget(["highest"], packages)


def test_the_pytest_route_and_the_command_line_run_the_same_checks(tmp_path):
    """K-5: the plugin parametrizes over the command line's list of checks (stats and seeded included)."""
    import subprocess
    import sys

    from narateer_cli.testing.__main__ import main as cli_main
    from narateer_cli.testing.checks import CHECKS

    (tmp_path / "test_game.py").write_text("from narateer_cli.testing import test_conformance  # noqa: F401\n")
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                           "--narateer-system", "narateer", str(tmp_path / "test_game.py")],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    collected = [line.split("[narateer-", 1)[1].rstrip("]") for line in done.stdout.splitlines() if "[narateer-" in line]
    assert collected == list(CHECKS), done.stdout + done.stderr
    assert {"seeded", "stats"} <= set(collected)
    assert cli_main(["narateer", "no-such-check"]) == 2  # the command line knows the same names and no other
