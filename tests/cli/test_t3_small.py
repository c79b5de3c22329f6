"""T3-SMALL, the smaller items of the third round at the table, in every game where each applies."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ok, refused, run

GAMES = ("narateer", "open-adventure", "d20-cards")
# one check of each game's example that rolls and is logged: (command..., its actor)
CHECK = {"narateer": ("roll", "selka", "stealth", "--dr", "1"),
         "open-adventure": ("roll", "amicus", "strength", "--ds", "9"),
         "d20-cards": ("act", "mira", "strike", "--target", "bandit")}


def example(tmp_path: Path, game: str) -> Path:
    root = tmp_path / game
    r = run(None, "init", str(root), "--system", game, "--example")
    assert r.code == 0, r.err
    return root


@pytest.mark.parametrize("game", GAMES)
def test_T3_SMALL_stats_shows_the_games_own_columns(tmp_path, game):
    """Each game's `stats` table has the host's columns and its own: no other game's."""
    root = example(tmp_path, game)
    for seed in ("1", "2", "3"):
        assert run(root, "--seed", seed, *CHECK[game]).code in (0, 1)
    head = run(root, "stats").out.splitlines()[0].split("  ")
    head = [cell.strip() for cell in head if cell.strip()]
    own = {"narateer": ["dice spent", "crits / expected"], "open-adventure": ["top faces / expected"],
           "d20-cards": ["20s / expected"]}[game]
    assert head == ["actor", "checks", "successes", "expected", "luck", *own]
    row = ok(root, "stats")["actors"][0]  # --json keeps every key in every game
    assert {"dice_spent", "crits", "crits_expected"} <= set(row) and row["checks"] == 3


# faces typed at the table for one check of CHECK that fails, and one that succeeds
FACES = {"narateer": ("0", "2"), "open-adventure": ("3", "9"), "d20-cards": ("2", "15")}


@pytest.mark.parametrize("game", GAMES)
def test_T3_SMALL_every_roll_outside_an_encounter_is_logged_a_miss_too(tmp_path, game):
    """A check made outside an encounter reaches the campaign log whether it succeeds or not (a d20 act that
    misses changes no file, and was not logged), so `stats` counts it and `undo` can take it back."""
    root = example(tmp_path, game)
    config = root / "narateer.yaml"
    config.write_text("".join(line for line in config.read_text().splitlines(True) if not line.startswith("encounter:")))
    landed = []
    for faces in FACES[game]:
        data = ok(root, *CHECK[game], "--faces", faces)
        landed.append(data["targets"][0]["attack"]["hit"] if game == "d20-cards" else data["success"])
    assert landed == [False, True]
    log = ok(root, "encounter", "log", "campaign")["entries"]
    assert [e["command"] for e in log if e["actor"] == CHECK[game][1]][-2:] == [CHECK[game][0]] * 2
    row = ok(root, "stats")["actors"][0]
    assert (row["checks"], row["successes"]) == (2, 1)
    assert run(root, "verify", "campaign").code == 0 and run(root, "check").code == 0
    undone = ok(root, "undo", "campaign")
    assert undone["undone"] == log[-1]["seq"]
    assert ok(root, "stats")["actors"][0]["checks"] == 1


def _checks(game: str, data: dict) -> list:
    return [t["attack"] for t in data["targets"]] if game == "d20-cards" else [data]


@pytest.mark.parametrize("game", GAMES)
def test_T3_SMALL_a_rolls_json_holds_its_chance_as_the_log_does(tmp_path, game):
    """`--json` prints each check with the exact chance its log entry records (it was only in the log), and
    the Python API's result gives the same JSON while its value stays the game's own record."""
    from narateer_cli.api import open_campaign

    root = example(tmp_path, game)
    printed = ok(root, *CHECK[game], "--faces", FACES[game][0])
    logged = ok(root, "encounter", "log", "--last", "1")["entries"][-1]["result"]
    chances = [c.get("chance") for c in _checks(game, printed)]
    assert chances and None not in chances, printed
    assert chances == [c["chance"] for c in _checks(game, logged)]
    result = open_campaign(root).run(*CHECK[game], "--faces", FACES[game][1])
    assert [c.get("chance") for c in _checks(game, result.to_json())] == chances  # the same check, the same odds
    if game == "narateer":  # the game's record, read as before
        assert result.value.result.total == 2 and result.value.result.success is True


def test_T3_SMALL_an_exchanges_json_holds_its_attacks_chance(tmp_path):
    root = example(tmp_path, "narateer")
    data = ok(root, "exchange", "mira", "bandit", "--response", "none", "--boost", "1", "--faces", "2,1")
    logged = ok(root, "encounter", "log", "--last", "1")["entries"][0]["result"]
    assert data["attack"]["chance"] == logged["attack"]["chance"]


# a check of each game written with ids in another case, and the ids it names
SHOUTED = {"narateer": (("roll", "Selka", "stealth", "--vs", "SENTRY:observation", "--boost", "2", "--faces", "2,2,0"),
                        "selka"),
           "open-adventure": (("roll", "AMICUS", "strength", "--vs", "Goblin:body", "--faces", "3"), "amicus"),
           "d20-cards": (("act", "Mira", "strike", "--target", "BANDIT", "--faces", "15"), "mira")}


@pytest.mark.parametrize("game", GAMES)
def test_T3_SMALL_an_id_matches_without_case_where_one_sheet_has_it(tmp_path, game):
    root = example(tmp_path, game)
    words, actor = SHOUTED[game]
    shown = run(root, "show", actor.upper())
    assert shown.code == 0 and shown.out == run(root, "show", actor).out
    data = ok(root, *words)
    entry = ok(root, "encounter", "log", "--last", "1")["entries"][0]
    assert entry["actor"] == actor and data["actor"] == actor  # logged under the sheet's own id
    assert ok(root, "stats", "--actor", actor.capitalize())["actors"][0]["actor"] == actor
    assert not list((root / "characters").glob(f"{actor.upper()}*")) and run(root, "check").code == 0


@pytest.mark.parametrize("game", GAMES)
def test_T3_SMALL_ids_that_differ_only_by_case_are_refused_naming_both(tmp_path, game):
    root = example(tmp_path, game)
    actor = SHOUTED[game][1]
    twin = actor.capitalize()
    (root / "characters" / f"{twin}.yaml").write_bytes((root / "characters" / f"{actor}.yaml").read_bytes())
    assert run(root, "show", actor).code == 0 and run(root, "show", twin).code == 0  # each exact id is its own
    err = refused(root, 2, "show", actor.upper(), contains="differ only by case")
    assert f"{twin} and {actor}" in err and f"{twin} or {actor}" in err


@pytest.mark.parametrize("game", GAMES)
def test_T3_SMALL_a_new_id_that_differs_only_by_case_from_a_sheets_is_refused(tmp_path, game):
    root = example(tmp_path, game)
    actor = SHOUTED[game][1]
    err = refused(root, 2, "new", actor.capitalize(), "--from", actor, contains="only by case")
    assert f"characters/{actor}.yaml exists" in err


@pytest.mark.parametrize("game", GAMES)
def test_T3_SMALL_encounter_log_marks_the_rows_an_undo_took_back(tmp_path, game):
    root = example(tmp_path, game)
    for faces in (*FACES[game], FACES[game][0]):
        ok(root, *CHECK[game], "--faces", faces)
    ok(root, "undo", "campaign")  # the third check
    ok(root, "undo", "campaign")  # the second
    entries = ok(root, "encounter", "log", "campaign")["entries"]
    checks = [e for e in entries if e["command"] == CHECK[game][0]]
    assert [e.get("undone") for e in checks] == [None, True, True]  # the key only where it is true
    assert not any("undone" in e for e in entries if e["command"] != CHECK[game][0])
    text = run(root, "encounter", "log", "campaign").out.splitlines()
    rows = {int(line.split()[0]): line for line in text[2:]}
    assert [("(undone) " in rows[e["seq"]]) for e in checks] == [False, True, True]
    assert not any("(undone)" in rows[e["seq"]] for e in entries if e["command"] == "undo")
    # the marks hold when only part of the log is shown: its end, or one actor's rows (no undo among them)
    tail = ok(root, "encounter", "log", "campaign", "--last", "3")["entries"]
    assert [e.get("undone") for e in tail] == [True, None, None]
    mine = ok(root, "encounter", "log", "campaign", "--actor", CHECK[game][1], "--last", "2")["entries"]
    assert [e.get("undone") for e in mine] == [True, True]
    assert "(undone)" in run(root, "encounter", "log", "campaign", "--actor", CHECK[game][1]).out


@pytest.mark.parametrize("game", GAMES)
def test_T3_SMALL_a_dice_expression_rolls_in_every_game(tmp_path, game):
    root = example(tmp_path, game)
    data = ok(root, "dice", "2d6+3", "--faces", "4,5")
    assert (data["expr"], data["faces"], data["total"]) == ("2d6+3", [4, 5], 12)
    seeded = ok(root, "--seed", "7", "dice", "2d6+3")
    assert len(seeded["faces"]) == 2 and all(1 <= f <= 6 for f in seeded["faces"])
    assert seeded["total"] == sum(seeded["faces"]) + 3 == ok(root, "--seed", "7", "dice", "2d6+3")["total"]
    text = run(root, "dice", "d20", "--faces", "17")
    assert text.code == 0 and "d20: [17] = 17" in text.out, text.out
    refused(root, 2, "dice", "2d6+3", "--faces", "4,7", contains="not a face of a d6")
    refused(root, 2, "dice", "2d6+3", "--faces", "4", contains="2 faces")
    if game != "d20-cards":  # the host's expressions: its words, its bounds
        assert ok(root, "dice", "d6+d8-1", "--faces", "6,8")["total"] == 13
        refused(root, 2, "dice", "2d1000", contains="bad dice")
        assert "narateer dice 2d6+3" in run(root, "dice", "--help").out
    assert not (root / "encounters" / "campaign.log.yaml").exists()  # a bare roll is not logged


@pytest.mark.parametrize("game", ("narateer", "open-adventure"))
def test_T3_SMALL_a_bare_number_keeps_meaning_the_games_own_dice(tmp_path, game):
    root = example(tmp_path, game)
    own = ok(root, "dice", "3", "--faces", "0,1,2" if game == "narateer" else "5")
    assert "expr" not in own and own["total"] == 3 if game == "narateer" else own["total"] == 5
    if game == "narateer":  # the pool's own options are not an expression's
        r = run(root, "dice", "2d6+3", "--advantage")
        assert r.code == 2 and "a dice expression takes only --faces" in r.err


@pytest.mark.parametrize("system", (None, "open-adventure", "d20-cards"))
def test_T3_SMALL_a_dice_expression_rolls_outside_a_campaign(tmp_path, monkeypatch, system):
    monkeypatch.chdir(tmp_path)
    chosen = ("--system", system) if system else ()
    data = ok(None, *chosen, "dice", "3d4+1", "--faces", "1,2,4")
    assert data["total"] == 8 and data["faces"] == [1, 2, 4]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("game", ("narateer", "open-adventure"))
def test_T3_SMALL_a_secret_dice_expression_is_sealed_unveiled_and_verified(tmp_path, game):
    root = example(tmp_path, game)
    config = root / "narateer.yaml"
    config.write_text("".join(line for line in config.read_text().splitlines(True) if not line.startswith("encounter:")))
    rolled = ok(root, "--seed", "3", "dice", "2d6+3", "--secret")
    entry = ok(root, "encounter", "log", "campaign")["entries"][-1]
    assert "faces" not in entry["result"] and entry["result"]["expr"] == "2d6+3"
    assert run(root, "unveil", "--all").code == 0
    words = run(root, "encounter", "log", "campaign")
    assert words.err == "" and f"2d6+3: [{', '.join(map(str, rolled['faces']))}] = {rolled['total']}" in words.out
    assert run(root, "verify", "campaign").code == 0 and run(root, "check").code == 0


# an NPC of each example, and a PC who fights it
FOES = {"narateer": ("bandit", "selka"), "open-adventure": ("goblin", "amicus"), "d20-cards": ("bandit", "mira")}


@pytest.mark.parametrize("game", GAMES)
def test_T3_SMALL_a_creature_has_one_display_name_its_sheets_name_with_its_id_where_they_differ(tmp_path, game):
    """A copy named `Bandit 2` whose id is thug-2 reads `Bandit 2 (thug-2)` on the page, the party's and the
    Guide's, wherever it is named (the order, who acts, the last roll); a name that reads as its id (Selka,
    selka) stands alone. The terminal names creatures by the id its commands take, and `show` gives both."""
    from narateer_cli.serve import page, view

    root = example(tmp_path, game)
    foe, pc = FOES[game]
    ok(root, "new", "thug", "--from", foe, "--count", "2")
    extra = ("--reaction", f"{pc}=30") if game == "open-adventure" else ()
    ok(root, "encounter", "new", "brawl", pc, "thug-2", *extra)
    if game != "open-adventure":  # Open Adventure's turns follow the Reaction order
        ok(root, "turn", "start", "thug-2")
    foe_name = ok(root, "show", foe).get("name") or foe.capitalize()
    label = f"{foe_name} 2 (thug-2)"
    for guide in (False, True):
        model = view.snapshot(root, guide=guide)
        names = {row["id"]: row["name"] for row in model["order"]}
        assert names["thug-2"] == label and names[pc] == pc.capitalize(), names
        html = page.encounter(model)
        assert label in html and f">{foe_name} 2<" not in html
    shown = run(root, "show", "thug-2").out.splitlines()[0]
    assert f"{foe_name} 2" in shown and "thug-2" in shown


def test_T3_SMALL_the_readme_says_the_browser_tests_need_chromium_and_ci_installs_it():
    from tests.conftest import REPO, BROWSER_INSTALL

    first = " ".join((REPO / "README.md").read_text(encoding="utf-8").splitlines()[:45])
    assert "Chromium and chromedriver" in first and "apt-get install chromium chromium-driver" in first
    assert ".ci/run` installs them" in first
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert "command -v chromium" in ci and "command -v chromedriver" in ci  # installed only when missing
    assert BROWSER_INSTALL in ci and ci.index(BROWSER_INSTALL) < ci.index("\nmake test\n")
