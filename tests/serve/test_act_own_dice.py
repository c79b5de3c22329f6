"""`serve --act`: a player's page rolls only that player's own dice, and runs every verb the README gives a
player's link. Over HTTP, as act.js sends it; the page itself is in test_act_browser.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import ok, run

from .conftest import Server
from .scenes import new_campaign
from .test_act import files, post

pytest.importorskip("uvicorn", reason="the serve extra is not installed: pip install -e '.[test,serve]'")

_count = iter(range(10**9))
D20_OWN = {"--faces", "--damage-faces", "--evolutionary-face"}  # the faces of a d20-cards performer's own dice


def play(srv, token, argv, asked=None):
    body = {"argv": argv, "nonce": f"own-dice-{next(_count):08d}"}
    if asked is not None:
        body["asked"] = asked
    return post(srv, "/play/act", body, token)


def die_by_die(srv, token, argv, face="20"):
    """What the page does on "Type faces die by die": each die the server asks for typed, with the option it
    answers, until the action runs; (the options asked, the last answer)."""
    asked, options = [], []
    for _ in range(12):
        status, answer = play(srv, token, argv + ["--faces", "ask"], asked)
        if not (answer.get("ask") if isinstance(answer, dict) else None):
            return options, (status, answer)
        options.append(answer["ask"]["option"])
        asked.append({"option": answer["ask"]["option"], "face": face})
    raise AssertionError(f"still asking after 12 dice: {options}")


def d20_fight(root: Path, *chars: str) -> Path:
    camp = new_campaign(root, "d20-cards", ["mira", "tor"])
    ok(camp, "encounter", "new", "fight", *chars)
    return camp


def last_entry(camp: Path) -> dict:
    return json.loads((camp / "encounters" / "fight.log.yaml").read_text().splitlines()[-1][2:])


def test_P2_ASK_1_a_player_never_types_the_targets_save(tmp_path):
    """mira's player casts Stun Word on the bandit: the page is never asked for the bandit's save d20 (the
    server rolls it), and a request that carries a face for it, as a typed die or as --save-faces, is 403 with
    nothing written."""
    camp = d20_fight(tmp_path / "camp", "mira", "bandit", "tor")
    ok(camp, "turn", "start", "mira")
    argv = ["act", "mira", "stun-word", "--target", "bandit"]
    with Server(camp, "--act") as srv:
        mira = srv.players["mira"]
        before = files(camp)
        status, answer = play(srv, mira, argv + ["--faces", "ask"], [{"option": "--save-faces", "face": "1"}])
        assert status == 403 and "another creature's die" in answer["error"], answer
        assert play(srv, mira, argv + ["--save-faces", "bandit=1"])[0] == 403
        status, answer = play(srv, mira, argv + ["--faces", "ask"], ["1"])  # a face that names no die
        assert status == 400, answer
        assert files(camp) == before
        options, (status, answer) = die_by_die(srv, mira, argv)
        assert status == 200 and answer["ok"], answer
        assert "--save-faces" not in options and set(options) <= D20_OWN, options
        assert "save d20" in answer["words"], answer  # the save was rolled, by the server
    assert run(camp, "verify").code == 0


def test_P2_ASK_1_a_player_never_types_a_victims_concentration_die(tmp_path):
    """The hexer holds its Ward; mira's player strikes it die by die: the page asks for her attack and her
    damage, never the hexer's Concentration d20, which the server rolls; typing one is 403, nothing written."""
    camp = d20_fight(tmp_path / "camp", "mira", "hexer", "tor")
    ok(camp, "turn", "start", "hexer")
    ok(camp, "act", "hexer", "ward")
    ok(camp, "turn", "end", "--next", "mira")
    ok(camp, "turn", "start", "mira")
    argv = ["act", "mira", "strike", "--target", "hexer"]
    with Server(camp, "--act") as srv:
        mira = srv.players["mira"]
        before = files(camp)
        status, answer = play(srv, mira, argv + ["--faces", "ask"],
                              [{"option": "--faces", "face": "20"}, {"option": "--concentration-faces", "face": "1"}])
        assert status == 403, answer
        assert files(camp) == before
        options, (status, answer) = die_by_die(srv, mira, argv)
        assert status == 200 and answer["ok"], answer
        assert options[0] == "--faces", options
        assert "--concentration-faces" not in options and set(options) <= D20_OWN, options
        assert "Concentration" in answer["words"], answer
    checks = json.dumps(last_entry(camp))
    assert "concentration" in checks.lower()  # the Concentration check was made, its d20 rolled here
    assert run(camp, "verify").code == 0


def test_P2_ASK_1_a_face_the_player_typed_for_another_die_is_refused_by_the_asker_itself():
    """Behind the dice sources, the host's asker refuses a die that is not the player's, whatever a game
    asks for: nothing runs past it."""
    from narateer_cli import ask
    from narateer_cli.sink import Kept, using

    parse = lambda text, option: [int(text)]  # noqa: E731
    with using(Kept([("--save-faces", "1")], own={"--faces"})):
        with pytest.raises(ask.NotTheirs):
            ask.asker(parse)(1, "--save-faces", "bandit's save d20")
    with using(Kept([("--faces", "7")], own={"--faces"})):
        assert ask.asker(parse)(1, "--faces", "the attack d20") == [7]
    with using(Kept([("--damage-faces", "7")], own={"--faces", "--damage-faces"})):  # typed for another of theirs
        with pytest.raises(ask.BadInput):
            ask.asker(parse)(1, "--faces", "the attack d20")


def test_P2_PLAY_1_a_player_searches_for_whom_the_party_sees(camp):
    """Kai hides from selka (mira still sees him): selka's link searches for him, choosing him among those
    the party sees; the thief, hidden from the whole party, is not hers to name (403, nothing written)."""
    with open(camp / "narateer.yaml", "a", encoding="utf-8") as fh:
        fh.write("party: [selka, mira]\n")
    ok(camp, "encounter", "new", "brawl", "selka", "mira", "kai", "thief")
    for actor, hide in (("thief", ["--from", "selka", "--from", "mira"]), ("kai", ["--from", "selka"])):
        ok(camp, "turn", "start", actor)
        ok(camp, "hide", actor, *hide, "--boost", "1", "--faces", "2,2")
        ok(camp, "turn", "end")
    ok(camp, "turn", "start", "selka")
    with Server(camp, "--act") as srv:
        selka = srv.players["selka"]
        status, headers, body = srv.get("/play/forms", headers={"X-Narateer-Token": selka})
        search = {f["verb"]: f for f in json.loads(body)}["search"]
        hider = next(f for f in search["fields"] if f["name"] == "hider")
        assert hider["required"] and "kai" in hider.get("suggest", []) and "thief" not in body
        before = files(camp)
        status, answer = play(srv, selka, ["search", "selka", "--for", "thief", "--faces", "2"])
        assert status == 403 and "does not see" in answer["error"], answer
        assert files(camp) == before
        status, answer = play(srv, selka, ["search", "selka", "--for", "kai", "--faces", "2"])
        assert status == 200 and answer["ok"], answer
    entry = json.loads((camp / "encounters" / "brawl.log.yaml").read_text().splitlines()[-1][2:])
    assert entry["command"] == "search" and entry["actor"] == "selka"
    assert run(camp, "verify").code == 0


@pytest.mark.parametrize("game", ["narateer", "d20-cards"])
def test_P2_PLAY_1_a_refusal_on_a_players_page_is_in_the_players_words(tmp_path, party_camp, game):
    """A player's link refused out of turn is told whose turn it is (or that nobody's has started) and to wait
    for the Guide, never a command to run at the shell (`narateer turn end`, `narateer turn start mira`);
    nothing is written, and the Guide's screen keeps the command line's own advice."""
    if game == "narateer":  # selka is acting
        camp, argv, said = party_camp, ["hide", "mira", "--from", "sentry", "--faces", "1"], "it is Selka's turn"
    else:  # no turn has started
        camp = d20_fight(tmp_path / "d20", "mira", "bandit", "tor")
        argv, said = ["act", "mira", "strike", "--target", "bandit", "--faces", "11"], "nobody acts now"
    with Server(camp, "--act") as srv:
        before = files(camp)
        status, answer = play(srv, srv.players["mira"], argv)
        assert status == 422 and not answer["ok"], answer
        assert "narateer " not in answer["error"] and "`" not in answer["error"], answer
        assert answer["error"].endswith("wait for the Guide" if game == "narateer" else "wait for the Guide to start "
                                        "the next turn"), answer
        assert said.lower() in answer["error"].lower(), answer
        assert files(camp) == before
        status, answer = post(srv, "/guide/act", {"argv": argv, "nonce": "guide-words-0001"}, srv.token)
        assert status == 422 and "narateer turn" in answer["error"], answer
        assert files(camp) == before


def test_P2_ASK_1_an_answer_to_the_guides_declaration_leaves_the_victims_die_to_the_server(tmp_path):
    """The Guide declares mira's Strike and leaves her own choices to her player: the answer types her attack
    d20 only, and the warded hexer's Concentration d20, another creature's die the Guide left out, is rolled
    by the server (not a refusal asking her player for --concentration-faces)."""
    camp = d20_fight(tmp_path / "camp", "mira", "hexer", "tor")
    ok(camp, "turn", "start", "hexer")
    ok(camp, "act", "hexer", "ward")
    ok(camp, "turn", "end", "--next", "mira")
    ok(camp, "turn", "start", "mira")
    with Server(camp, "--act") as srv:
        status, answer = post(srv, "/guide/declare", {"argv": ["act", "mira", "strike"], "nonce": "declare-strike-01"},
                              srv.token)
        assert status == 200, answer
        status, answer = post(srv, "/play/answer", {"id": "declare-strike-01", "nonce": "answer-strike-01",
                                                    "argv": ["--target", "hexer", "--faces", "20"]}, srv.players["mira"])
        assert status == 200 and answer["ok"] and "Concentration" in answer["words"], answer
    assert run(camp, "verify").code == 0


# ---- the `asked` channel probed: every dice stream of every verb a player runs or answers ------------------

# the Guide's declaration that leaves each role's choices to mira's (or warheart's) player
DECLARED = {
    "narateer": {("roll", "char"): ["roll", "mira", "observation", "--dr", "3"],
                 ("exchange", "attacker"): ["exchange", "mira", "bandit"],
                 ("exchange", "defender"): ["exchange", "bandit", "mira"],
                 ("hide", "char"): ["hide", "mira"], ("search", "char"): ["search", "mira", "--for", "thief"]},
    "d20-cards": {("act", "char"): ["act", "mira", "strike"]},
    "open-adventure": {("roll", "char"): ["roll", "warheart", "strength"],
                       ("resolve", "char"): ["resolve", "warheart", "melee"]},
}
PLAYER = {"narateer": "mira", "d20-cards": "mira", "open-adventure": "warheart"}


def _faces_options(cmd) -> list:
    """Each option of a command that takes the faces of a dice stream, by its longest flag."""
    import click

    return [(p.name, max(p.opts, key=len)) for p in cmd.params
            if isinstance(p, click.Option) and p.name.endswith(("faces", "face"))]


@pytest.mark.parametrize("system", ["narateer", "d20-cards", "open-adventure"])
def test_P2_ASK_1_the_asked_channel_refuses_every_die_that_is_not_the_players_own(tmp_path, system):
    """Every dice stream of every verb a player runs unprompted (`player_verbs`) is typed on the player's page,
    and every one of every verb a player answers (`answered_by`, each role) is given in an answer: the
    player's own are theirs to type, any other creature's is 403 before anything runs, nothing written."""
    from narateer_cli.serve.act import _system_commands
    from narateer_cli.systems import load_system

    from .scenes import SCENES

    camp = SCENES[system](tmp_path / "camp")
    game, commands, player = load_system(system), dict(_system_commands(camp)), PLAYER[system]
    probed = []
    with Server(camp, "--act") as srv:
        token, before = srv.players[player], files(camp)
        for verb, own in (game.hook("player_verbs") or {}).items():
            for name, flag in _faces_options(commands[verb]):
                status, answer = play(srv, token, [verb, player, "--faces", "ask"], [{"option": flag, "face": "1"}])
                assert (status == 403) is (name not in own), (verb, flag, status, answer)
                probed.append((verb, flag))
        for verb, roles in (game.hook("answered_by") or {}).items():
            for role, own in roles.items():
                nonce = f"declare-{verb}-{role}"
                status, answer = post(srv, "/guide/declare", {"argv": DECLARED[system][verb, role], "nonce": nonce},
                                      srv.token)
                assert status == 200, (verb, role, answer)
                for name, flag in _faces_options(commands[verb]):
                    if name in own:
                        continue
                    status, answer = post(srv, "/play/answer", {"id": nonce, "nonce": f"{nonce}-{flag}",
                                                                "argv": [flag, "1"]}, token)
                    assert status == 403, (verb, role, flag, status, answer)
                    probed.append((verb, role, flag))
                assert post(srv, "/guide/withdraw", {"who": player, "nonce": f"{nonce}-back"}, srv.token)[0] == 200
        assert files(camp) == before
    assert len(probed) >= 3, probed
