"""`serve --act`: another creature's die in a player's action is rolled by the server, or waits for the Guide,
as the game declares (`others_dice`) and the campaign sets it (narateer.yaml's `others_dice`). Over HTTP, as
act.js sends it."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import ok, run

from .conftest import IN_BROWSER, Server, poll, shot
from .test_act import files, post
from .test_act_own_dice import d20_fight, die_by_die, play

pytest.importorskip("uvicorn", reason="the serve extra is not installed: pip install -e '.[test,serve]'")

STUN = ["act", "mira", "stun-word", "--target", "bandit"]


def leave_to_guide(camp, option: str):
    with open(camp / "narateer.yaml", "a", encoding="utf-8") as fh:
        fh.write(f"others_dice:\n  '{option}': guide\n")


def log_lines(camp) -> list:
    return [json.loads(line[2:]) for line in (camp / "encounters" / "fight.log.yaml").read_text().splitlines()
            if line.startswith("- ")]


def waiting(srv) -> list:
    status, headers, body = srv.get("/guide/waiting", headers={"X-Narateer-Token": srv.token})
    assert status == 200, body
    return [w for w in json.loads(body) if w.get("die") or w.get("asks")]


def choices(srv, token) -> list:
    status, headers, body = srv.get("/play/choices", headers={"X-Narateer-Token": token})
    assert status == 200, body
    return json.loads(body)["choices"]


@pytest.mark.parametrize("mode", ["server", "guide"])
def test_P2_ASK_1_the_targets_save_is_rolled_by_the_server_or_waits_for_the_guide(tmp_path, mode):
    """mira's player casts Stun Word on the bandit, typing her own dice. Declared "server" (the game's default),
    the bandit's save d20 is rolled at once; left to the Guide (narateer.yaml), the action is held, nothing
    written, the Guide's screen shows it with the die to type, the player cannot type it, and the Guide's face
    runs the action once, one log entry with that face; the player's page is told the result."""
    camp = d20_fight(tmp_path / "camp", "mira", "bandit", "tor")
    if mode == "guide":
        leave_to_guide(camp, "--save-faces")
    ok(camp, "turn", "start", "mira")
    with Server(camp, "--act") as srv:
        mira, before, entries = srv.players["mira"], files(camp), len(log_lines(camp))
        options, (status, answer) = die_by_die(srv, mira, STUN)
        assert "--save-faces" not in options, options
        if mode == "server":
            assert status == 200 and answer["ok"] and "save d20" in answer["words"], answer
            assert waiting(srv) == []
            assert len(log_lines(camp)) == entries + 1
            return
        assert status == 202 and not answer["ok"] and answer["wait"]["option"].startswith("--save-faces"), answer
        assert "Guide" in answer["error"], answer
        assert files(camp) == before  # nothing written while it waits
        held = waiting(srv)
        assert len(held) == 1 and held[0]["who"] == "mira" and "bandit" in held[0]["die"]["what"], held
        assert any("Waiting for the Guide" in c["text"] for c in choices(srv, mira))
        # the player cannot fill the Guide's die: not as a typed face, not as an option, not on the Guide's route
        typed = [{"option": o, "face": "20"} for o in options] + [{"option": "--save-faces", "face": "1"}]
        assert play(srv, mira, STUN + ["--faces", "ask"], typed)[0] == 403
        assert play(srv, mira, STUN + ["--save-faces", "bandit=1"])[0] == 403
        assert post(srv, "/guide/roll", {"id": held[0]["id"], "face": "1", "nonce": "mira-rolls-001"}, mira)[0] == 401
        assert files(camp) == before and len(waiting(srv)) == 1
        # a face off the die is refused, and the action stays held for a better one
        status, answer = post(srv, "/guide/roll", {"id": held[0]["id"], "face": "25", "nonce": "guide-rolls-000"},
                              srv.token)
        assert status == 422 and not answer["ok"], answer
        assert files(camp) == before and len(waiting(srv)) == 1
        status, answer = post(srv, "/guide/roll", {"id": held[0]["id"], "face": "1", "nonce": "guide-rolls-001"},
                              srv.token)
        assert status == 200 and answer["ok"] and "save d20" in answer["words"], answer
        assert waiting(srv) == []
        again = post(srv, "/guide/roll", {"id": held[0]["id"], "face": "20", "nonce": "guide-rolls-002"}, srv.token)
        assert again[0] == 409, again  # run once
        told = choices(srv, mira)
        assert told and "Waiting" not in told[0]["text"] and "save" in told[0]["text"], told
    after = log_lines(camp)
    assert len(after) == entries + 1 and after[-1]["command"] == "act", after[-1]
    assert after[-1]["result"]["targets"][0]["save"]["face"] == 1, after[-1]  # the Guide's face
    assert run(camp, "verify").code == 0


def test_P2_ASK_1_a_victims_concentration_die_waits_for_the_guide_after_the_players_own(tmp_path):
    """The hexer holds its Ward; mira's player strikes it die by die, with Concentration left to the Guide: her
    attack and damage dice are hers to type, then the action waits for the hexer's Concentration d20, and the
    Guide's face (a 1: the Ward drops) runs it once with her faces and the Guide's."""
    camp = d20_fight(tmp_path / "camp", "mira", "hexer", "tor")
    leave_to_guide(camp, "--concentration-faces")
    ok(camp, "turn", "start", "hexer")
    ok(camp, "act", "hexer", "ward")
    ok(camp, "turn", "end", "--next", "mira")
    ok(camp, "turn", "start", "mira")
    with Server(camp, "--act") as srv:
        mira, before, entries = srv.players["mira"], files(camp), len(log_lines(camp))
        options, (status, answer) = die_by_die(srv, mira, ["act", "mira", "strike", "--target", "hexer"], face="19")
        assert options[0] == "--faces" and "--concentration-faces" not in options, options
        assert status == 202 and answer["wait"]["option"].startswith("--concentration-faces"), answer
        assert files(camp) == before
        ident = waiting(srv)[0]["id"]
        status, answer = post(srv, "/guide/roll", {"id": ident, "face": "1", "nonce": "guide-conc-0001"}, srv.token)
        assert status == 200 and answer["ok"] and "Concentration" in answer["words"], answer
    after = log_lines(camp)
    assert len(after) == entries + 1, after
    text = json.dumps(after[-1])
    assert '"face": 19' in text, text  # her own faces
    assert re.search(r'"concentration_check": \{[^}]*"face": 1,', text), text  # and the Guide's
    assert run(camp, "verify").code == 0


def test_P2_ASK_1_the_guide_may_set_a_held_action_aside(tmp_path):
    """Held for the bandit's save, mira's Stun Word is set aside by the Guide: nothing was written, her page is
    told, and a face typed for it afterwards finds nothing to run."""
    camp = d20_fight(tmp_path / "camp", "mira", "bandit", "tor")
    leave_to_guide(camp, "--save-faces")
    ok(camp, "turn", "start", "mira")
    with Server(camp, "--act") as srv:
        mira, before = srv.players["mira"], files(camp)
        status, answer = die_by_die(srv, mira, STUN)[1]
        assert status == 202, answer
        ident = waiting(srv)[0]["id"]
        status, answer = post(srv, "/guide/dismiss", {"id": ident, "nonce": "guide-dismiss-01"}, srv.token)
        assert status == 200 and answer["ok"], answer
        assert waiting(srv) == [] and files(camp) == before
        assert "set your action aside" in choices(srv, mira)[0]["text"]
        assert post(srv, "/guide/roll", {"id": ident, "face": "1", "nonce": "guide-rolls-101"}, srv.token)[0] == 409
        assert files(camp) == before
    assert run(camp, "verify").code == 0


def test_P2_ASK_1_a_campaign_names_only_dice_the_game_declares(tmp_path):
    """narateer.yaml's `others_dice` takes the game's declared options, each "server" or "guide": `check` names
    any other key or word."""
    camp = d20_fight(tmp_path / "camp", "mira", "bandit", "tor")
    with open(camp / "narateer.yaml", "a", encoding="utf-8") as fh:
        fh.write("others_dice:\n  '--save-faces': table\n  '--faces': guide\n")
    found = run(camp, "check")
    said = found.out + found.err
    assert found.code != 0, said
    assert "others_dice.--save-faces must be one of server, guide, not 'table'" in said, said
    assert "unknown key 'others_dice.--faces'" in said and "--concentration-faces" in said, said


@pytest.mark.parametrize("mode", ["server", "guide"])
def test_P2_ASK_1_a_defenders_die_in_an_answered_exchange_is_the_servers_or_the_guides(party_camp, mode):
    """Narateer: the Guide declares mira's exchange against the guarding sentry and leaves her own choices to her
    player. Her answer gives her attack die; the sentry's Full Guard die is rolled by the server (the game's
    default), or, left to the Guide, the exchange waits, nothing written, until the Guide types it, and then runs
    once with both faces."""
    camp = party_camp
    if mode == "guide":
        leave_to_guide(camp, "--response-faces")
    ok(camp, "turn", "end", "--next", "mira")
    ok(camp, "turn", "start", "mira")
    log = camp / "encounters" / "brawl.log.yaml"
    with Server(camp, "--act") as srv:
        mira, before, entries = srv.players["mira"], files(camp), len(log.read_text().splitlines())
        status, answer = post(srv, "/guide/declare", {"argv": ["exchange", "mira", "sentry", "--response", "guard"],
                                                      "nonce": "declare-guard-01"}, srv.token)
        assert status == 200, answer
        status, answer = post(srv, "/play/answer", {"id": "declare-guard-01", "nonce": "answer-guard-01",
                                                    "argv": ["--faces", "2"]}, mira)
        if mode == "server":
            assert status == 200 and answer["ok"], answer
            assert waiting(srv) == []
        else:
            assert status == 202 and answer["wait"]["option"] == "--response-faces", answer
            assert files(camp) == before and "Waiting for the Guide" in choices(srv, mira)[0]["text"]
            held = waiting(srv)
            assert len(held) == 1 and held[0]["who"] == "mira", held
            status, answer = post(srv, "/guide/roll", {"id": held[0]["id"], "face": "0", "nonce": "guide-guard-01"},
                                  srv.token)
            assert status == 200 and answer["ok"], answer
            assert waiting(srv) == []
    lines = log.read_text().splitlines()
    assert len(lines) == entries + 1
    entry = json.loads(lines[-1][2:])
    assert entry["command"] == "exchange", entry
    if mode == "guide":
        assert entry["result"]["defense"]["faces"] == [0], entry["result"]  # the Guide's face
        assert entry["result"]["attack"]["faces"] == [2], entry["result"]  # the player's
    assert run(camp, "verify").code == 0


def _guide_rolls(guide, face: str, picture: str | None = None) -> str:
    """The Guide types `face` into the held action's field on the Guide's screen and rolls it (a picture of
    the screen first, when named); the answer the screen then shows."""
    from .test_act_browser import _acted

    poll(lambda: guide.find_elements("css selector", "#act-waiting .guide-face"), timeout=30)
    if picture:
        shot(guide, picture)
    since = guide.execute_script("return document.body.getAttribute('data-acted')")
    guide.find_element("css selector", "#act-waiting .guide-face").send_keys(face)
    guide.find_element("css selector", "#act-waiting .guide-roll").click()
    return _acted(guide, since)


@IN_BROWSER
def test_P2_ASK_1_in_chromium_the_guide_rolls_the_save_a_players_phone_waits_for(tmp_path):
    """In Chromium: mira's phone casts Stun Word with the bandit's save left to the Guide; her page says it waits
    for the Guide, nothing is written; the Guide's screen shows the held action with a field for the save d20,
    the Guide types 1 and rolls, the action runs once, and mira's phone is told the result."""
    from .test_act_browser import _acted, _browser, _fill

    camp = d20_fight(tmp_path / "camp", "mira", "bandit", "tor")
    leave_to_guide(camp, "--save-faces")
    ok(camp, "turn", "start", "mira")
    srv = Server(camp, "--act")
    try:
        before, entries = files(camp), len(log_lines(camp))
        phone = _browser("phone", 400, 860)
        phone.get(f"{srv.url}/play?token={srv.players['mira']}")
        _fill(phone, "act", {"card": "stun-word", "target": "bandit"})
        phone.find_element("id", "act-run").click()
        assert "waiting for the Guide" in _acted(phone, None)
        assert files(camp) == before
        guide = _browser("guide", 1280, 1000)
        guide.get(f"{srv.url}/guide?token={srv.token}")
        said = _guide_rolls(guide, "1", picture="act-guide-rolls-the-save")
        assert "save d20" in said, said
        poll(lambda: not guide.find_elements("css selector", "#act-waiting .guide-face"), timeout=30)
        poll(lambda: "stun" in phone.find_element("id", "act-now").text.lower(), timeout=30)
        assert "Waiting" not in phone.find_element("id", "act-now").text
    finally:
        srv.stop()
    after = log_lines(camp)
    assert len(after) == entries + 1 and after[-1]["result"]["targets"][0]["save"]["face"] == 1
    assert run(camp, "verify").code == 0


def test_P2_ASK_1_the_opponents_exploding_dice_wait_for_the_guide_die_by_die(tmp_path):
    """Open Adventure: the Guide declares warheart's Strength roll opposed by the orc and leaves the dice to his
    player; with the opponent's dice left to the Guide, the answer is held, nothing written, and the Guide types
    the orc's dice one by one (a maximum face explodes into one more), then the roll runs once with both sides'
    faces."""
    from .scenes import new_campaign

    camp = new_campaign(tmp_path / "camp", "open-adventure", ["bloodwind", "warheart"])
    ok(camp, "encounter", "new", "hall", "warheart", "orc", "--reaction", "warheart=9")
    ok(camp, "turn", "start", "warheart")
    leave_to_guide(camp, "--other-faces")
    with Server(camp, "--act") as srv:
        before = files(camp)
        status, answer = post(srv, "/guide/declare", {"argv": ["roll", "warheart", "strength", "--opposed",
                                                               "orc:strength"], "nonce": "declare-opposed-1"}, srv.token)
        assert status == 200, answer
        status, answer = post(srv, "/play/answer", {"id": "declare-opposed-1", "nonce": "answer-opposed-1",
                                                    "argv": ["--faces", "3"]}, srv.players["warheart"])
        assert status == 202 and answer["wait"]["option"] == "--other-faces", answer
        typed = []
        for turn in range(12):
            assert files(camp) == before  # nothing written while a die of the Guide's is missing
            held = waiting(srv)
            assert len(held) == 1, held
            size = int(re.search(r"\(d(\d+)\)", held[0]["die"]["what"]).group(1))
            face = str(size) if not typed else "1"  # the first die explodes once
            typed.append(int(face))
            status, answer = post(srv, "/guide/roll", {"id": held[0]["id"], "face": face,
                                                       "nonce": f"guide-opposed-{turn:02d}"}, srv.token)
            if status == 200:
                break
            assert status == 202, answer
        assert answer["ok"] and waiting(srv) == [], answer
        assert len(typed) >= 2, typed  # the first die exploded into one more
    entry = json.loads((camp / "encounters" / "hall.log.yaml").read_text().splitlines()[-1][2:])
    assert entry["command"] == "roll" and entry["result"]["faces"] == [[3]], entry  # the player's die
    assert [face for chain in entry["result"]["opposed"]["faces"] for face in chain] == typed, entry  # the Guide's
    assert entry["result"]["opposed"]["exploded"] == [0], entry
    assert run(camp, "verify").code == 0


def twin_shock(tmp_path):
    """mira's turn in a fight with the bandit and the hexer; her Twin Shock card strikes two targets, its
    damage rolled per target, each target's save left to the Guide."""
    camp = d20_fight(tmp_path / "camp", "mira", "bandit", "hexer", "tor")
    (camp / "actions" / "twin-shock.yaml").write_text(
        "name: Twin Shock\ncost: {ap: 2}\ntier: 1\nsource: Voice of Command\ndc: physical\nrange: 10\ntargets: 2\n"
        "damage: {amount: \"1d6\", type: lightning}\non_save: half\ndetails: Two sparks at once.\n")
    sheet = camp / "characters" / "mira.yaml"
    sheet.write_text(sheet.read_text().replace("actions: [strike,", "actions: [twin-shock, strike,")
                     .replace("prepared: [strike,", "prepared: [twin-shock, strike,"))
    leave_to_guide(camp, "--save-faces")
    with open(camp / "narateer.yaml", "a", encoding="utf-8") as fh:
        fh.write("rules:\n  damage: {roll: per_target}\n")
    ok(camp, "turn", "start", "mira")
    return camp


def test_P2_ASK_1_a_held_action_goes_back_and_forth_between_the_guide_and_the_player(tmp_path):
    """Twin Shock hits two targets, its damage rolled per target: mira's page types her damage die, the Guide
    the bandit's save, her page the second damage die (asked on her page, not the Guide's), the Guide the
    hexer's save; only then does the action run, once, with every face where it was typed. Nothing is written
    before, and neither side can give the other's die."""
    camp = twin_shock(tmp_path)
    argv = ["act", "mira", "twin-shock", "--target", "bandit", "--target", "hexer"]
    with Server(camp, "--act") as srv:
        mira, before, entries = srv.players["mira"], files(camp), len(log_lines(camp))
        options, (status, answer) = die_by_die(srv, mira, argv, face="5")
        assert options == ["--damage-faces"] and status == 202, (options, answer)
        ident = waiting(srv)[0]["id"]
        guide = lambda face, n: post(srv, "/guide/roll", {"id": ident, "face": face, "nonce": f"guide-twin-{n:04d}"},  # noqa: E731
                                     srv.token)
        status, answer = guide("2", 1)  # the bandit fails its save
        assert status == 202 and answer["wait"]["option"] == "--damage-faces", answer
        held = waiting(srv)
        assert held[0]["asks"]["option"] == "--damage-faces" and held[0]["die"] is None, held
        assert guide("6", 2)[0] == 409  # the player's die is not the Guide's to type
        asked = choices(srv, mira)[0]
        assert asked["face"]["option"] == "--damage-faces" and asked["face"]["id"] == ident, asked
        assert files(camp) == before
        status, answer = post(srv, "/play/face", {"id": ident, "face": "4", "nonce": "mira-twin-0001"}, mira)
        assert status == 202 and answer["wait"]["option"].startswith("--save-faces hexer"), answer
        assert post(srv, "/play/face", {"id": ident, "face": "1", "nonce": "mira-twin-0002"}, mira)[0] == 409
        assert files(camp) == before
        status, answer = guide("19", 3)  # the hexer resists
        assert status == 200 and answer["ok"], answer
        assert waiting(srv) == []
    after = log_lines(camp)
    assert len(after) == entries + 1, after
    result = after[-1]["result"]
    saves = [t["save"]["face"] for t in result["targets"]]
    assert saves == [2, 19], result
    # her damage dice: 5 on the bandit (its save failed), 4 on the hexer, halved by its save
    assert [t["damage"]["base"] for t in result["targets"]] == [5, 2], result
    assert result["damage_roll"]["faces"] == [4], result
    assert run(camp, "verify").code == 0


@IN_BROWSER
def test_P2_ASK_1_in_chromium_a_held_action_asks_the_players_phone_for_its_own_die_between_the_guides(tmp_path):
    """In Chromium: mira's Twin Shock waits for the bandit's save; the Guide rolls it on the Guide's screen, and
    mira's phone then asks for her second damage die (the Guide's screen shows whom it waits for, with no field);
    she sends it, the Guide rolls the hexer's save, and the action runs once."""
    from .test_act_browser import _acted, _browser

    camp = twin_shock(tmp_path)
    srv = Server(camp, "--act")
    try:
        mira, entries = srv.players["mira"], len(log_lines(camp))
        status, answer = die_by_die(srv, mira, ["act", "mira", "twin-shock", "--target", "bandit", "--target",
                                                "hexer"], face="5")[1]
        assert status == 202, answer
        guide = _browser("guide", 1280, 1000)
        guide.get(f"{srv.url}/guide?token={srv.token}")

        def roll(face):
            return _guide_rolls(guide, face)

        assert "mira types the damage d6" in roll("2")
        poll(lambda: "waiting for mira to type" in guide.find_element("id", "act-waiting").text, timeout=30)
        assert not guide.find_elements("css selector", "#act-waiting .guide-face")
        phone = _browser("phone", 400, 860)
        phone.get(f"{srv.url}/play?token={mira}")
        poll(lambda: phone.find_elements("id", "act-held-face"), timeout=30)
        shot(phone, "act-player-types-between-the-guides")
        phone.find_element("id", "act-held-face").send_keys("4")
        phone.find_element("id", "act-held-send").click()
        assert "waiting for the Guide" in _acted(phone, None)
        said = roll("19")
        assert "Twin Shock" in said and "hexer" in said, said
        poll(lambda: not guide.find_elements("css selector", "#act-waiting .waiting-row"), timeout=30)
    finally:
        srv.stop()
    after = log_lines(camp)
    assert len(after) == entries + 1
    assert [t["save"]["face"] for t in after[-1]["result"]["targets"]] == [2, 19]
    assert after[-1]["result"]["damage_roll"]["faces"] == [4]
    assert run(camp, "verify").code == 0
